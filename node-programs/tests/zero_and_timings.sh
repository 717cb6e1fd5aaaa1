# A book whose value never moves (zero-coupon bonds maturing within the horizon are worth
# their face in every scenario) has a P&L of exactly zero: every number in every output is
# printed as 0, never -0. --timings prints its lines on stdout, as --help says, and nothing
# on stderr.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
mkdir in out
printf 'factor_id,kind,level,currency\nR1,rate,0.03,USD\nEQ,equity,100,USD\n' > in/factors.csv
printf 'factor_i,factor_j,covariance\nR1,R1,0.0001\nEQ,EQ,0.0004\nR1,EQ,0\n' > in/covariance.csv
printf 'position_id,node,instrument,factor_id,rate_factor_id,quantity,strike,maturity_years,volatility\n' > in/positions.csv
printf 'B1,BOOK/A,zcb,,R1,1000,,0,\nB2,BOOK/B,zcb,R1,R1,-250,,0,\n' >> in/positions.csv
printf 'name,value\nbase_currency,USD\nscenarios,1000\nconfidence_levels,0.95;0.99\n' > in/params.csv
mpi 2 "$BIN/mcvar" --factors in/factors.csv --covariance in/covariance.csv \
  --positions in/positions.csv --params in/params.csv --out-dir out --timings \
  > stdout.txt 2> stderr.txt || fail "mcvar failed: $(cat stderr.txt)"
for f in var_summary.csv pnl_distribution.csv contributions.csv node_contributions.csv; do
  if grep -qE '(^|,)-0(,|$)' "out/$f"; then fail "$f prints -0: $(grep -E '(^|,)-0(,|$)' "out/$f" | head -3)"; fi
done
grep -q '^local,,BOOK,0.99,0,0,0,0,0,0,1000,0,0$' out/var_summary.csv || fail "unexpected summary: $(cat out/var_summary.csv)"
grep -q '^mcvar.scenarios: 1000$' stdout.txt || fail "--timings lines not on stdout: $(cat stdout.txt)"
grep -q 'mcvar\.' stderr.txt && fail "--timings lines on stderr: $(cat stderr.txt)"
grep -q 'on stdout' <(mpi 1 "$BIN/mcvar" --help | grep -- --timings) || fail "--help misplaces --timings"
echo "zero P&L prints 0; timings on stdout"
