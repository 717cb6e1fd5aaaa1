# Order independence and common scenarios:
#  1. permuting the rows of every input file gives byte-identical outputs (historical and
#     Monte Carlo Student-t; np 1 against np 3); run_inputs.csv differs only in the
#     checksums of the permuted files, so it is compared without them;
#  2. adding a factor that sorts after every other (correlated with them through its
#     history) and a position on it leaves every other node's scenario P&L unchanged, byte
#     for byte (Monte Carlo, covariance from the history);
#  3. adding a factor that sorts first but is uncorrelated with the others (a given
#     covariance with zero covariances) leaves them unchanged too (README, "What a changed
#     factor set leaves alone").
source "$(dirname "$0")/lib.sh"
T="$(dirname "$0")"
REF="${REF_PYTHON:?REF_PYTHON: the python of the reference venv}"
cd "$WORK"
run() { # dir np market-option market-file
  mpi "$2" "$BIN/mcvar" --factors "$1/factors.csv" "$3" "$1/$4" \
    --positions "$1/positions.csv" --params "$1/params.csv" --out-dir "$1/out"
}
strip_sha() { cut -d, -f1-4 "$1"; }
for method in historical mc-student-t; do
  "$REF" "$T/ref/make_book.py" "$method" "$method" scenarios=3000
  "$REF" "$T/ref/permute.py" "$method" "$method-shuffled"
  run "$method" 1 --history history.csv
  run "$method-shuffled" 3 --history history.csv
  for f in "$method"/out/*; do
    name=$(basename "$f")
    if [ "$name" = run_inputs.csv ]; then
      cmp <(strip_sha "$f") <(strip_sha "$method-shuffled/out/$name") || fail "$method: run_inputs.csv differs"
    else
      cmp "$f" "$method-shuffled/out/$name" || fail "$method: permuted rows change $name"
    fi
  done
done
# 2. a factor sorting last, correlated through its history
"$REF" "$T/ref/make_book.py" base mc-normal scenarios=2000
"$REF" "$T/ref/add_factor.py" base last ZZ-NEW
run base 2 --history history.csv
run last 2 --history history.csv
"$REF" "$T/ref/add_factor.py" compare base/out last/out BANK/LE-NEW || fail "a factor sorting last moved other factors' scenarios"
# 3. a factor sorting first, uncorrelated (given covariance)
"$REF" "$T/ref/add_factor.py" covariance base
"$REF" "$T/ref/add_factor.py" base first AA-NEW
mkdir -p cov-base && cp base/*.csv cov-base/ && rm -rf cov-base/out
run cov-base 2 --covariance covariance.csv
run first 2 --covariance covariance.csv
"$REF" "$T/ref/add_factor.py" compare cov-base/out first/out BANK/LE-NEW || fail "an uncorrelated factor moved other factors' scenarios"
echo "row order and added factors leave results unchanged"
