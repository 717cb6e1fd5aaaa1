# mcvar in stages (README "A run in stages"): --scenarios-out writes the same scenarios at
# np 1 and 2; a book priced on them (--scenarios-in) gives the one-program run's outputs byte
# for byte (run_inputs.csv adds the scenario file); the node P&L of four desks priced apart,
# aggregated (--aggregate; Monte Carlo: desks at np 2, aggregate at np 3), gives the one-program run's var_summary, pnl_distribution,
# node_contributions, run and node_pnl.csv.gz byte for byte, for Monte Carlo and historical
# runs. Scenarios and a desk's node P&L on standard output are the files' bytes; a desk
# following a growing scenario file gets the same P&L. Refused, naming what is wrong: a node split across files that holds positions of its
# own, files on other scenario counts, a scenario file of other factors or scenario count,
# options that do not belong to a step.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
mkdir in
"$BIN/mcvar-gen" --out-dir in --factors 10 --days 200 --positions 400 --option-share 0.3 \
  --seed 9 --scenarios 2000 --compress --block-size 2000
"$BIN/gio-cat" in/positions.csv.gz > positions.csv
market=(--factors in/factors.csv.gz --history in/history.csv.gz)
# desks params-file out-prefix np: the four desks priced apart on scen-$2.csv.gz; their node
# P&L files, comma-separated, in desk_pnl (not echoed: a failure inside $(...) would not stop
# the script).
desks() {
  local d
  desk_pnl=""
  for d in 0 1 2 3; do
    { head -1 positions.csv; grep ",BANK/LE-[01]/DESK-$d," positions.csv; } > "desk$d.csv"
    run_np "$3" "$BIN/mcvar" "${market[@]}" --params "$1" --positions "desk$d.csv" \
      --scenarios-in "scen-$2.csv.gz" --out-dir "$2-desk$d"
    desk_pnl="$desk_pnl${desk_pnl:+,}$2-desk$d/node_pnl.csv.gz"
  done
}
run_np() { local np="$1"; shift; if [ "$np" = 1 ]; then "$@"; else mpi "$np" "$@"; fi; }
check_stages() { # params-file name np (the desks', and one more for the aggregate)
  local p="$1" n="$2" np="$3"
  mkdir "$n-ref"
  "$BIN/mcvar" "${market[@]}" --params "$p" --positions positions.csv --out-dir "$n-ref"
  "$BIN/mcvar" "${market[@]}" --params "$p" --scenarios-out "scen-$n.csv.gz"
  run_np "$np" "$BIN/mcvar" "${market[@]}" --params "$p" --scenarios-out "scen-$n-np2.csv.gz"
  cmp "scen-$n.csv.gz" "scen-$n-np2.csv.gz" || fail "$n: the scenario file depends on the rank count"
  "$BIN/gio-cat" "scen-$n.csv.gz" > "scen-$n.csv"
  [ "$(head -1 "scen-$n.csv" | cut -d, -f1-3)" = scenario,F00000,F00001 ] \
    || fail "$n: scenario file header: $(head -1 "scen-$n.csv")"
  local rows
  rows=$(($(tail -1 "$n-ref/run.csv" | cut -d, -f5) + 1))
  [ "$(wc -l < "scen-$n.csv")" = "$rows" ] || fail "$n: scenario rows: $(wc -l < "scen-$n.csv"), not $rows"
  "$BIN/mcvar" "${market[@]}" --params "$p" --positions positions.csv \
    --scenarios-in "scen-$n.csv.gz" --out-dir "$n-priced"
  for f in "$n-ref"/*; do
    [ "$(basename "$f")" = run_inputs.csv ] && continue
    cmp "$f" "$n-priced/$(basename "$f")" || fail "$n: --scenarios-in: $(basename "$f") differs"
  done
  grep -q "^local,[0-9-]*,scenarios,scen-$n.csv.gz," "$n-priced/run_inputs.csv" \
    || fail "$n: run_inputs.csv does not name the scenario file"
  desks "$p" "$n" "$np"
  run_np $((np + 1)) "$BIN/mcvar" --params "$p" --aggregate "$desk_pnl" --out-dir "$n-agg"
  for f in var_summary.csv pnl_distribution.csv node_contributions.csv run.csv node_pnl.csv.gz; do
    cmp "$n-ref/$f" "$n-agg/$f" || fail "$n: --aggregate: $f differs from the one-program run"
  done
  [ "$(ls "$n-agg" | wc -l)" = 6 ] || fail "$n: aggregate outputs: $(ls "$n-agg")"
  [ "$(grep -c ",node_pnl_[1-4],node_pnl.csv.gz," "$n-agg/run_inputs.csv")" = 4 ] \
    || fail "$n: aggregate run_inputs.csv: $(cat "$n-agg/run_inputs.csv")"
}
check_stages in/params.csv.gz mc 2
# The chain's hand-offs: scenarios on standard output, a desk's node P&L on standard output
# (np 2), and a desk reading the scenario file while it is written (--follow-inputs).
mpi 1 "$BIN/mcvar" "${market[@]}" --params in/params.csv.gz --scenarios-out - > scen-stdout.csv.gz
cmp scen-mc.csv.gz scen-stdout.csv.gz || fail "--scenarios-out - differs from the file"
mpi 2 "$BIN/mcvar" "${market[@]}" --params in/params.csv.gz --positions desk2.csv \
  --scenarios-in scen-mc.csv.gz --out-dir stdout-desk2 --node-pnl-stdout > desk2-pnl.csv.gz
cmp mc-desk2/node_pnl.csv.gz desk2-pnl.csv.gz || fail "--node-pnl-stdout differs from node_pnl.csv.gz"
"$BIN/tests/test_follow" feed scen-mc.csv.gz growing.csv.gz 20000 20 &
w=$!
mpi 2 "$BIN/mcvar" "${market[@]}" --params in/params.csv.gz --positions desk3.csv \
  --scenarios-in growing.csv.gz --follow-inputs scenarios --follow-timeout 20 --out-dir follow-desk3
wait "$w"
cmp mc-desk3/node_pnl.csv.gz follow-desk3/node_pnl.csv.gz || fail "a followed scenario file gave other P&L"
"$BIN/gio-cat" in/params.csv.gz | sed 's/^method,.*/method,historical/' > params-hist.csv
check_stages params-hist.csv hist 1

# A node split across files must hold no positions of its own: one on BANK/LE-0 itself,
# priced apart from the desks under it, is refused naming it. (grep -m, not | head: head
# leaving early ends grep with SIGPIPE, which pipefail makes the script's failure.)
{ head -1 positions.csv; grep -m 3 ",BANK/LE-0/DESK-0," positions.csv | sed 's#,BANK/LE-0/DESK-0,#,BANK/LE-0,#'; } > own.csv
"$BIN/mcvar" "${market[@]}" --params in/params.csv.gz --positions own.csv \
  --scenarios-in scen-mc.csv.gz --out-dir own
if "$BIN/mcvar" --params in/params.csv.gz --aggregate own/node_pnl.csv.gz,mc-desk0/node_pnl.csv.gz \
    --out-dir bad 2> own.err; then fail "a split node with positions of its own was aggregated"; fi
grep -q "^mcvar: mc-desk0/node_pnl.csv.gz: node 'BANK/LE-0' holds positions of its own\|^mcvar: own/node_pnl.csv.gz: node 'BANK/LE-0' holds positions of its own" own.err \
  || fail "unclear refusal: $(cat own.err)"
[ ! -e bad/var_summary.csv ] || fail "a refused aggregate left results"
# Parts priced on other scenario counts.
"$BIN/gio-cat" in/params.csv.gz | sed 's/^scenarios,.*/scenarios,1000/' > params-1000.csv
if "$BIN/mcvar" "${market[@]}" --params params-1000.csv --positions desk0.csv \
    --scenarios-in scen-mc.csv.gz --out-dir short 2> count.err; then
  fail "a scenario file of another count was priced"
fi
grep -q "more than the 1000 scenarios the parameters ask for" count.err || fail "unclear: $(cat count.err)"
"$BIN/mcvar" "${market[@]}" --params params-1000.csv --scenarios-out scen-1000.csv.gz
"$BIN/mcvar" "${market[@]}" --params params-1000.csv --positions desk1.csv \
  --scenarios-in scen-1000.csv.gz --out-dir short
if "$BIN/mcvar" --params in/params.csv.gz --aggregate mc-desk0/node_pnl.csv.gz,short/node_pnl.csv.gz \
    --out-dir bad 2> n.err; then fail "parts on other scenario counts were aggregated"; fi
grep -q "short/node_pnl.csv.gz:.*more scenarios than the first file\|short/node_pnl.csv.gz: 1000 scenarios" n.err \
  || fail "unclear: $(cat n.err)"
# A scenario file of other factors (a column missing).
"$BIN/gio-cat" scen-mc.csv.gz | cut -d, -f1-5 > scen-cut.csv
if "$BIN/mcvar" "${market[@]}" --params in/params.csv.gz --positions desk0.csv \
    --scenarios-in scen-cut.csv --out-dir cut 2> cut.err; then fail "a scenario file lacking factors was priced"; fi
grep -q "scen-cut.csv:1: missing column 'F00004'" cut.err || fail "unclear: $(cat cut.err)"
# Options that do not belong to a step.
if "$BIN/mcvar" --params in/params.csv.gz --positions desk0.csv --aggregate own/node_pnl.csv.gz \
    --out-dir bad 2> u1.err; then fail "--aggregate took --positions"; fi
grep -q "aggregate reads only --params and the node P&L files" u1.err || fail "unclear: $(cat u1.err)"
if "$BIN/mcvar" "${market[@]}" --params in/params.csv.gz --scenarios-out x.csv.gz \
    --scenarios-in scen-mc.csv.gz 2> u2.err; then fail "two steps at once"; fi
grep -q "are separate steps" u2.err || fail "unclear: $(cat u2.err)"
echo "stages: scenarios, parts priced apart and their aggregate give the one-program run's bytes"
