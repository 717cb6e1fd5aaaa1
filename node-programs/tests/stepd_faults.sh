# gantry-stepd's fault points (the test build gantry-stepd-faults, $3): at each, the supervisor
# dies by SIGKILL and leaves what a crash there leaves; gantry-stepd itself ignores the variable.
source "$(dirname "$0")/lib.sh"
FAULTY="$3"

# Runs the test build armed at $1 for job $2, whose program appends a line to $WORK/$2.runs;
# the supervisor's exit status (137 after its SIGKILL) goes to $WORK/$2.exit.
halt_at() {
  local rc=0
  STEPD_FAULT_HALT_AT="$1" "$FAULTY" --job "$2" --status "$WORK/$2.status" \
    --started "$WORK/$2.started" --grace-ms 1000 -- /bin/sh -c "echo run >> '$WORK/$2.runs'" \
    2> "$WORK/$2.err" || rc=$?
  [ "$rc" = 137 ] || fail "$1: exit status $rc, expected 137 (SIGKILL): $(cat "$WORK/$2.err")"
  grep -q "halting at fault point $1" "$WORK/$2.err" || fail "$1: not said: $(cat "$WORK/$2.err")"
  [ -s "$WORK/$2.started" ] || fail "$1: no start record"
}
runs() { if [ -e "$WORK/$1.runs" ]; then wc -l < "$WORK/$1.runs"; else echo 0; fi; }

# 1. the start record written, the program never started
halt_at stepd.recorded j1
[ "$(runs j1)" = 0 ] || fail "stepd.recorded: the program ran"
[ ! -e "$WORK/j1.status" ] || fail "stepd.recorded: a status written"

# 2. the program started: it runs at most once (SIGTERM by its parent's death may come first)
halt_at stepd.program-started j2
[ ! -e "$WORK/j2.status" ] || fail "stepd.program-started: a status written"
for _ in $(seq 50); do # the orphaned program ends within 5 s (SIGTERM, or its one line)
  pgrep -f "$WORK/j2.runs" > /dev/null || break
  sleep 0.1
done
[ "$(runs j2)" -le 1 ] || fail "stepd.program-started: the program ran $(runs j2) times"

# 3. the program ended, its end not written
halt_at stepd.program-ended j3
[ "$(runs j3)" = 1 ] || fail "stepd.program-ended: the program ran $(runs j3) times"
[ ! -e "$WORK/j3.status" ] || fail "stepd.program-ended: a status written"

# 4. the end written, the supervisor killed before its exit
halt_at stepd.status-written j4
[ "$(runs j4)" = 1 ] || fail "stepd.status-written: the program ran $(runs j4) times"
grep -q '^exit_status=0$' "$WORK/j4.status" || fail "stepd.status-written: $(cat "$WORK/j4.status")"

# 5. gantry-stepd has no fault points: the variable changes nothing
STEPD_FAULT_HALT_AT=stepd.recorded "$BIN/gantry-stepd" --job j5 --status "$WORK/j5.status" \
  --started "$WORK/j5.started" --grace-ms 1000 -- /bin/sh -c "echo run >> '$WORK/j5.runs'"
[ "$(runs j5)" = 1 ] && grep -q '^exit_status=0$' "$WORK/j5.status" \
  || fail "gantry-stepd halted or failed with STEPD_FAULT_HALT_AT set"
echo "stepd fault points: ok"
