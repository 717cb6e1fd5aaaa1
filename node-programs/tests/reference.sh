# mcvar against the independent numpy reference (ref/mcvar_ref.py, written from the README):
# a multi-currency bank book with negative rates, curves, fx-forwards and Garman-Kohlhagen
# options on five desks, historical VaR/ES at 0.95, 0.975 (fractional boundary weight at 250
# scenarios) and 0.99 for every node, diversification, Euler contributions of positions and
# child nodes, tail scenario dates, node P&L; a given stress window; a searched stress
# window; pre-deal what-if; a Monte Carlo (normal) run with its standard errors, the
# reference drawing the same keyed Philox4x32-10 normals (equal weights and EWMA). Every figure to 1e-9 relative. A rerun (on 3 ranks) reproduces
# every output file byte for byte.
source "$(dirname "$0")/lib.sh"
T="$(dirname "$0")"
REF="${REF_PYTHON:?REF_PYTHON: the python of the reference venv}"
cd "$WORK"
run() { # dir np [extra mcvar options]
  local d="$1" np="$2"; shift 2
  mpi "$np" "$BIN/mcvar" --factors "$d/factors.csv" --history "$d/history.csv" \
    --positions "$d/positions.csv" --params "$d/params.csv" --out-dir "$d/out" "$@"
}
"$REF" "$T/ref/make_book.py" hist historical
run hist 2
"$REF" "$T/ref/mcvar_ref.py" check hist hist/out || fail "historical run differs from the reference"
"$PYTHON" "$T/check_outputs.py" hist/out
# run_inputs.csv holds each input file's SHA-256, as sha256sum computes it
for f in params factors history positions; do
  want=$(sha256sum "hist/$f.csv" | cut -d' ' -f1)
  grep -q ",$f,$f.csv,$want\$" hist/out/run_inputs.csv || fail "run_inputs.csv: $f is not $want: $(cat hist/out/run_inputs.csv)"
done
# a rerun of the same job on the same inputs reproduces every file byte for byte
cp -r hist/out hist/first
run hist 3
for f in hist/first/*; do cmp "$f" "hist/out/$(basename "$f")" || fail "rerun differs in $(basename "$f")"; done

# Monte Carlo (normal): the reference draws the same keyed Philox normals from the README's
# description and factors the look-back covariance itself, so every figure, the standard
# errors included, must agree to 1e-9
"$REF" "$T/ref/make_book.py" mc mc-normal scenarios=5000
run mc 3
"$REF" "$T/ref/mcvar_ref.py" check mc mc/out || fail "Monte Carlo run differs from the reference"
"$REF" "$T/ref/make_book.py" ewma mc-normal scenarios=3000 ewma_lambda=0.97
run ewma 2
"$REF" "$T/ref/mcvar_ref.py" check ewma ewma/out || fail "EWMA Monte Carlo run differs from the reference"

"$REF" "$T/ref/make_book.py" stress historical stress_from=2024-05-20 stress_to=2024-10-04
run stress 3
"$REF" "$T/ref/mcvar_ref.py" check stress stress/out || fail "stressed run differs from the reference"
grep -q ',2024-05-20,2024-10-04$' stress/out/run.csv || fail "run.csv lacks the stress window: $(cat stress/out/run.csv)"

"$REF" "$T/ref/make_book.py" search historical stress_window_days=60
run search 2
"$REF" "$T/ref/mcvar_ref.py" check search search/out || fail "searched stress window differs from the reference"

# what-if: two new trades on existing desks, revalued alone on the base run's scenarios
cat > hist/new.csv <<'CSV'
position_id,node,instrument,factor_id,rate_factor_id,foreign_rate_factor_id,vol_factor_id,curve,currency,quantity,strike,maturity_years,volatility
NEW1,BANK/LE-EU/EQ,spot,EQ-EU,,,,,,-40000,,,
NEW2,BANK/LE-EU/FX,call,FX-USDJPY,JPY-1Y,USD-1Y,,,,-2000000,152,0.5,0.11
CSV
run hist 1 --what-if hist/new.csv
"$REF" "$T/ref/mcvar_ref.py" what-if hist hist/new.csv hist/out || fail "what-if differs from the reference"
[ -e hist/out/var_summary.csv ] || fail "what-if removed the base run's results"
# a what-if on other market inputs than the base run's is refused (its scenarios differ)
cp hist/history.csv hist/history-other.csv
sed -i '$ s/,\([0-9.]*\)$/,\10001/' hist/history-other.csv  # the last level, slightly off
if mpi 1 "$BIN/mcvar" --factors hist/factors.csv --history hist/history-other.csv \
     --positions hist/positions.csv --params hist/params.csv --out-dir hist/out \
     --what-if hist/new.csv 2> whatif-err.txt; then
  fail "what-if on changed history accepted"
fi
grep -q "differs from the base run's history input" whatif-err.txt || fail "unclear what-if refusal: $(cat whatif-err.txt)"
echo "mcvar matches the independent reference"
