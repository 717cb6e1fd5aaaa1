# mcvar's outputs are byte-identical for 1, 2, 3 and 4 ranks (and whatever the read mode),
# contributions add up to the VaR, and no temporary file is left behind.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
gen() { "$BIN/mcvar-gen" --factors 12 --days 260 --positions 300 --option-share 0.3 --seed 5 "$@"; }
mkdir normal studentt hist
gen --out-dir normal --scenarios 3000
gen --out-dir studentt --scenarios 3000 --method mc-student-t --dof 4 --covariance --compress
gen --out-dir hist --method historical --horizon-days 5 --history-by-date
run_case() { # name np read-mode extra...
  local name="$1" np="$2" mode="$3"; shift 3
  local in="$name" out="out-$name-$np"
  local gz=""; [ -e "$in/factors.csv.gz" ] && gz=".gz"
  local market=(--history "$in/history.csv$gz")
  [ -e "$in/covariance.csv$gz" ] && market=(--covariance "$in/covariance.csv$gz")
  mkdir "$out"
  mpi "$np" "$BIN/mcvar" --factors "$in/factors.csv$gz" "${market[@]}" \
    --positions "$in/positions.csv$gz" --params "$in/params.csv$gz" --out-dir "$out" \
    --run-id "np-test" --read-mode "$mode" --buffer-size 4096 "$@"
}
modes=(naive root mpiio two-phase)
for name in normal studentt hist; do
  extra=(); [ "$name" = studentt ] && extra=(--compress-output)
  for np in 1 2 3 4; do
    run_case "$name" "$np" "${modes[$((np - 1))]}" "${extra[@]}"
    if ls -A "out-$name-$np" | grep -q '^\.'; then fail "temporary file left in out-$name-$np"; fi
    if [ "$np" -gt 1 ]; then
      for f in out-$name-1/*; do
        cmp "$f" "out-$name-$np/$(basename "$f")" || fail "$name: np=$np differs from np=1 in $(basename "$f")"
      done
    fi
  done
  [ "$(ls out-$name-1 | wc -l)" = 9 ] || fail "$name: expected 9 output files"
  "$PYTHON" "$(dirname "$0")/check_outputs.py" "out-$name-1"
done
zcat out-studentt-1/var_summary.csv.gz | head -1 | grep -q '^run_id,business_date,node,confidence,var,expected_shortfall' \
  || fail "compressed output is not readable by zcat"
echo "identical outputs for np = 1..4"
