# mcvar's outputs are byte-identical for 1, 2, 3 and 4 ranks (and whatever the read mode;
# also for a book whose P&Ls all tie and for a stressed historical run),
# contributions add up to the VaR, and no temporary file is left behind. Publishing
# progress (--progress) changes no result byte at np = 1..4; its last checkpoint holds
# var_summary's VaR and ES. A target relative standard error stops every np at the same
# checkpoint with the same bytes (stopping.csv included).
source "$(dirname "$0")/lib.sh"
cd "$WORK"
# No "| grep -q" or "| head" after a writer: a reader leaving early kills the writer with
# SIGPIPE, and pipefail turns that into the pipeline's failure (a match read as a miss).
gen() { "$BIN/mcvar-gen" --factors 12 --days 260 --positions 300 --option-share 0.3 --seed 5 "$@"; }
mkdir normal studentt hist
gen --out-dir normal --scenarios 3000
gen --out-dir studentt --scenarios 3000 --method mc-student-t --dof 4 --covariance --compress
gen --out-dir hist --method historical --horizon-days 5 --history-by-date
run_case() { # name np read-mode extra...
  local name="$1" np="$2" mode="$3"; shift 3
  local in="$name" out="${OUT:-out-$name-$np}"
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
    if ls -A "out-$name-$np" | grep '^\.' > /dev/null; then fail "temporary file left in out-$name-$np"; fi
    if [ "$np" -gt 1 ]; then
      for f in out-$name-1/*; do
        cmp "$f" "out-$name-$np/$(basename "$f")" || fail "$name: np=$np differs from np=1 in $(basename "$f")"
      done
    fi
  done
  [ "$(ls out-$name-1 | wc -l)" = 9 ] || fail "$name: expected 9 output files"
  "$PYTHON" "$(dirname "$0")/check_outputs.py" "out-$name-1"
done
# Ties: a book of zero quantities (every P&L 0, so the whole tail is one tie taken in
# scenario order across ranks) and a historical stressed run searching its window.
mkdir flat histsw
cp normal/* flat/
awk -F, 'BEGIN { OFS = "," } NR > 1 { $6 = 0 } { print }' normal/positions.csv > flat/positions.csv
cp hist/* histsw/
echo "stress_window_days,100" >> histsw/params.csv
for name in flat histsw; do
  for np in 1 3; do OUT="out-$name-$np" run_case "$name" "$np" two-phase; done
  for f in out-$name-1/*; do
    cmp "$f" "out-$name-3/$(basename "$f")" || fail "$name: np=3 differs from np=1 in $(basename "$f")"
  done
done
# With progress on the book whose P&Ls all tie (every value reaches the checkpoints' pools).
OUT="out-flat-progress" run_case flat 3 two-phase --progress flat-progress.csv
for f in out-flat-1/*; do
  cmp "$f" "out-flat-progress/$(basename "$f")" || fail "flat: --progress changed $(basename "$f")"
done
# Live results: the normal case again with --progress (rounds of 1000 scenarios).
for np in 1 2 3 4; do
  OUT="out-progress-$np" run_case normal "$np" two-phase --progress "out-normal-$np-progress.csv"
  for f in out-normal-1/*; do
    cmp "$f" "out-progress-$np/$(basename "$f")" || fail "--progress changed $(basename "$f") at np=$np"
  done
  cmp out-normal-1-progress.csv "out-normal-$np-progress.csv" || fail "progress differs at np=$np"
done
if ls -A . | grep '^\.' > /dev/null; then fail "temporary progress file left behind"; fi
"$PYTHON" - out-normal-1-progress.csv out-normal-1/var_summary.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [*rows[0]] == ["done", "total", "unit", "figure", "value", "stderr"], rows[0]
assert sorted({int(r["done"]) for r in rows}) == [1000, 2000, 3000], "checkpoints"
last = {r["figure"]: r for r in rows if r["done"] == "3000"}
for s in csv.DictReader(open(sys.argv[2])):
    for what, col in (("VaR", "var"), ("ES", "expected_shortfall")):
        got = last[f"{what} {s['confidence']} {s['node']}"]["value"]
        assert got == s[col], (what, s["node"], got, s[col])
assert rows[0]["figure"].startswith("VaR 0.99 "), "the headline comes first"
PY
# The adaptive stop: checkpoints every 250 from 250, a 10% target (top node).
cp normal/params.csv normal/params-target.csv
printf 'checkpoint_scenarios,250\ntarget_rse,0.1\n' >> normal/params-target.csv
for np in 1 2 3 4; do
  mkdir "out-target-$np"
  mpi "$np" "$BIN/mcvar" --factors normal/factors.csv --history normal/history.csv \
    --positions normal/positions.csv --params normal/params-target.csv \
    --out-dir "out-target-$np" --run-id np-test
  [ "$np" = 1 ] && continue
  for f in out-target-1/*; do
    cmp "$f" "out-target-$np/$(basename "$f")" || fail "target run: np=$np differs in $(basename "$f")"
  done
done
stopped=$(sed -n '2p' out-target-1/stopping.csv | cut -d, -f5)
reached=$(sed -n '2p' out-target-1/stopping.csv | cut -d, -f6)
[ "$reached" = yes ] && [ "$stopped" -lt 3000 ] && [ $((stopped % 250)) = 0 ] \
  || fail "the target run did not stop early at a checkpoint: $(cat out-target-1/stopping.csv)"
grep -q ",mc-normal,1,$stopped," out-target-1/run.csv || fail "run.csv lacks the stopping point"
"$PYTHON" "$(dirname "$0")/check_outputs.py" out-target-1
zcat out-studentt-1/var_summary.csv.gz | sed -n 1p | grep -q '^run_id,business_date,node,confidence,var,expected_shortfall' \
  || fail "compressed output is not readable by zcat"
echo "identical outputs for np = 1..4"
