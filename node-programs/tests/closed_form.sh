# A linear Gaussian portfolio's VaR and ES match the closed form within three Monte Carlo
# standard errors (run on 2 ranks); the same with the covariance estimated by mcvar from a
# history with EWMA weights over a look-back window.
source "$(dirname "$0")/lib.sh"
T="$(dirname "$0")"
cd "$WORK"
mkdir in out
"$PYTHON" "$T/closed_form.py" write in
mpi 2 "$BIN/mcvar" --factors in/factors.csv --covariance in/covariance.csv \
  --positions in/positions.csv --params in/params.csv --out-dir out
"$PYTHON" "$T/closed_form.py" check in out
mkdir ewma ewma-out
"$PYTHON" "$T/closed_form.py" write ewma ewma
mpi 2 "$BIN/mcvar" --factors ewma/factors.csv --history ewma/history.csv \
  --positions ewma/positions.csv --params ewma/params.csv --out-dir ewma-out
"$PYTHON" "$T/closed_form.py" check ewma ewma-out ewma
