# mcvar --follow-inputs: inputs read while a writer appends them (blocked gzip files written
# while mcvar runs, in uneven chunks with pauses; np 1 and 2) or streams them
# through a FIFO (blocked gzip at np 2, plain at np 3) give outputs byte-identical to the normal
# run, run_inputs.csv's checksums included; a producer that stopped half way ends the run with
# the no-progress timeout naming the file; a plain regular file and an input not given are
# refused; gio-cat --follow prints a growing file's bytes.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
FEED="$BIN/tests/test_follow"
mkdir in ref
"$BIN/mcvar-gen" --out-dir in --factors 10 --days 200 --positions 400 --option-share 0.3 \
  --seed 9 --scenarios 2000 --compress --block-size 2000
mcvar() { # np input-dir out-dir extra...
  local np="$1" d="$2" out="$3"; shift 3
  mkdir -p "$out"
  mpi "$np" "$BIN/mcvar" --factors in/factors.csv.gz --params in/params.csv.gz \
    --history "$d/history.csv.gz" --positions "$d/positions.csv.gz" --out-dir "$out" \
    --buffer-size 4096 "$@"
}
same_as_ref() { # out-dir [file to skip]
  for f in ref/*; do
    [ "$(basename "$f")" = "${2:-}" ] && continue
    cmp "$f" "$1/$(basename "$f")" || fail "$1: $(basename "$f") differs from the normal run"
  done
}
mcvar 1 in ref
[ "$(ls ref | wc -l)" = 9 ] || fail "expected 9 output files, got $(ls ref)"

# Growing files, written over about 0.5 s each in chunks of at most 1000 and 500 bytes, 30 ms
# apart; positions is created only once history is complete, so mcvar, which reads history to
# its end-of-file block first, always meets positions missing or half written.
for np in 1 2; do
  mkdir "grow$np"
  ("$FEED" feed in/history.csv.gz "grow$np/history.csv.gz" 1000 30 &&
   "$FEED" feed in/positions.csv.gz "grow$np/positions.csv.gz" 500 30) &
  w=$!
  mcvar "$np" "grow$np" "out-grow$np" --follow-inputs history,positions --follow-timeout 20
  wait "$w"
  same_as_ref "out-grow$np"
done

# FIFOs: blocked gzip at np 2; plain at np 3 (the checksum is the plain bytes').
mkdir fifo plain cat
cp in/history.csv.gz fifo/
mkfifo fifo/positions.csv.gz
"$FEED" feed in/positions.csv.gz fifo/positions.csv.gz 4000 2 &
p=$!
mcvar 2 fifo out-fifo --follow-inputs positions --follow-timeout 20
wait "$p"
same_as_ref out-fifo
"$BIN/gio-cat" in/positions.csv.gz > positions.csv
mkfifo plain/positions.csv
"$FEED" feed positions.csv plain/positions.csv 5000 2 &
p=$!
mkdir out-plain
mpi 3 "$BIN/mcvar" --factors in/factors.csv.gz --params in/params.csv.gz \
  --history in/history.csv.gz --positions plain/positions.csv --out-dir out-plain \
  --follow-inputs positions --follow-timeout 20
wait "$p"
same_as_ref out-plain run_inputs.csv
sum="$(sha256sum positions.csv | cut -d' ' -f1)"
grep -q "positions,positions.csv,$sum" out-plain/run_inputs.csv \
  || fail "run_inputs.csv lacks the streamed plain positions' sha256 $sum: $(cat out-plain/run_inputs.csv)"

# gio-cat --follow prints a growing file's decoded bytes (and refuses a plain regular file).
("$FEED" feed in/positions.csv.gz cat/positions.csv.gz 700 20) &
w=$!
"$BIN/gio-cat" --follow 20 cat/positions.csv.gz > cat.out
wait "$w"
cmp cat.out positions.csv || fail "gio-cat --follow differs from the complete file"
if "$BIN/gio-cat" --follow 5 positions.csv > /dev/null 2> cat.err; then fail "gio-cat followed a plain file"; fi
grep -q "^gio-cat: positions.csv: not blocked gzip.*cannot be followed" cat.err \
  || fail "unclear gio-cat refusal: $(cat cat.err)"

# A producer that stopped half way (its file stalls inside a block): at np 2 the timeout ends
# the run with the file, the line reached and the bytes read; no outputs. A plain regular file
# is refused.
mkdir silent
cp in/history.csv.gz silent/
head -c 3000 in/positions.csv.gz > silent/positions.csv.gz
if mcvar 2 silent out-silent --follow-inputs positions --follow-timeout 0.5 2> silent.err; then
  fail "a stalled input was accepted"
fi
grep -Eq "^mcvar: silent/positions.csv.gz:[0-9]+: no new data for 0.5 s after [0-9]+ bytes \(compressed block [0-9]+ at byte offset [0-9]+ incomplete\)" silent.err \
  || fail "unclear timeout message: $(cat silent.err)"
[ -z "$(ls out-silent)" ] || fail "a failed run left outputs: $(ls out-silent)"
# (one process without mpirun: a failing mpirun takes seconds to wind down)
if "$BIN/mcvar" --factors in/factors.csv.gz --params in/params.csv.gz \
    --history in/history.csv.gz --positions positions.csv --out-dir out-refused \
    --follow-inputs positions 2> refused.err; then
  fail "a plain regular file was followed"
fi
grep -q "positions.csv.*cannot be followed" refused.err || fail "unclear refusal: $(cat refused.err)"
if "$BIN/mcvar" --factors in/factors.csv.gz --params in/params.csv.gz \
    --history in/history.csv.gz --positions positions.csv --out-dir out-refused \
    --follow-inputs covariance 2> usage.err; then
  fail "--follow-inputs accepted an input that is not given"
fi
grep -q "covariance, which is not given" usage.err || fail "unclear usage error: $(cat usage.err)"
echo "follow: growing files and FIFOs give the normal run's bytes"
