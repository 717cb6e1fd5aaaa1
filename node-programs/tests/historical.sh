# Historical-simulation VaR and ES equal the empirical quantile and tail mean computed
# independently (historical.py), for a book with spot, zero-coupon bonds and options.
source "$(dirname "$0")/lib.sh"
T="$(dirname "$0")"
cd "$WORK"
mkdir in out
"$BIN/mcvar-gen" --out-dir in --factors 8 --days 150 --positions 60 --option-share 0.4 \
  --method historical --horizon-days 3 --confidence '0.9;0.95;0.99' --seed 17
mpi 2 "$BIN/mcvar" --factors in/factors.csv --history in/history.csv \
  --positions in/positions.csv --params in/params.csv --out-dir out
"$PYTHON" "$T/historical.py" in out
