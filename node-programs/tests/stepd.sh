# gantry-stepd: the exit status, the wall time, the grace period and SIGKILL, a kill request, the
# job's wrappers spared SIGTERM, leftovers cleaned up, the status written atomically, the
# supervisor running on in a session of its own after the process that started it is gone, and
# the program stopped when the supervisor itself is killed.
source "$(dirname "$0")/lib.sh"
STEPD="$BIN/gantry-stepd"
key() { sed -n "s/^$2=//p" "$1"; }
expect() { # FILE KEY VALUE
  local got; got="$(key "$1" "$2")"
  [ "$got" = "$3" ] || fail "$1: $2 is '$got', expected '$3': $(tr '\n' ' ' < "$1")"
}
# Waits for a file to exist (at most 20 s), without a fixed sleep.
await_file() {
  for _ in $(seq 200); do [ -e "$1" ] && return 0; sleep 0.1; done
  fail "$1 did not appear"
}

# 1. the program's exit code; no temporary file left; the status file is private
"$STEPD" --job j1 --status "$WORK/j1.status" --grace-ms 1000 -- /bin/sh -c 'exit 3'
expect "$WORK/j1.status" exit_status 3
expect "$WORK/j1.status" killed 0
expect "$WORK/j1.status" stop_signal 0
expect "$WORK/j1.status" job j1
[ ! -e "$WORK/j1.status.tmp" ] || fail "temporary status file left"
[ "$(stat -c %a "$WORK/j1.status")" = 600 ] || fail "status file mode $(stat -c %a "$WORK/j1.status")"

# 1b. the CPU time of the whole tree, the program's children included: a child of the shell
#     loops until it has used 0.3 s of CPU itself (utime + stime of /proc/self/stat, in clock
#     ticks; a loop of 0.4 s wall time got only 0.1 s of CPU on a busy machine), counted in cpu_ms
TICKS=$(( $(getconf CLK_TCK) * 3 / 10 ))
"$STEPD" --job j1b --status "$WORK/j1b.status" --grace-ms 1000 \
  -- /bin/sh -c '(while :; do read -r s < /proc/self/stat; set -- ${s##*) };
       [ $(( ${12} + ${13} )) -ge '"$TICKS"' ] && break; done) & wait'
CPU="$(key "$WORK/j1b.status" cpu_ms)"
[ -n "$CPU" ] && [ "$CPU" -ge 250 ] || fail "cpu_ms is '$CPU' after a child used 0.3 s of CPU"
expect "$WORK/j1.status" cpu_ms "$(key "$WORK/j1.status" cpu_ms)"
[ "$(key "$WORK/j1.status" cpu_ms)" -lt 1000 ] || fail "cpu_ms of 'exit 3' is $(key "$WORK/j1.status" cpu_ms)"

# 2. the wall time: SIGTERM, the program ends within the grace period
"$STEPD" --job j2 --status "$WORK/j2.status" --grace-ms 5000 --wall-time-ms 300 \
  -- /bin/sleep 30 2> "$WORK/j2.err"
expect "$WORK/j2.status" wall_time_exceeded 1
expect "$WORK/j2.status" stop_signal 15
expect "$WORK/j2.status" exit_status 143
grep -q "wall-time limit" "$WORK/j2.err" || fail "no wall-time message: $(cat "$WORK/j2.err")"

# 3. a program that ignores SIGTERM is killed when the grace period ends, children included
"$STEPD" --job j3 --status "$WORK/j3.status" --grace-ms 300 --wall-time-ms 200 \
  -- /bin/sh -c 'trap "" TERM; /bin/sleep 30 & while :; do /bin/sleep 0.1; done' 2> /dev/null
expect "$WORK/j3.status" wall_time_exceeded 1
expect "$WORK/j3.status" stop_signal 9
expect "$WORK/j3.status" exit_status 137

# 4. a kill request (SIGTERM to the supervisor) with one wrapper level: the wrapper gets no SIGTERM,
#    the program under it does (it says it started itself: a SIGTERM between the wrapper's fork
#    and the program's exec would meet the wrapper's inherited trap)
"$STEPD" --job j4 --status "$WORK/j4.status" --grace-ms 5000 --wrapper-depth 1 \
  -- /bin/sh -c "trap 'echo wrapper-termed >> $WORK/j4.log' TERM;
                 /bin/sh -c 'echo started > $WORK/j4.up; exec /bin/sleep 30';
                 echo program-ended >> $WORK/j4.log" 2> /dev/null &
PID4=$!
await_file "$WORK/j4.up"
kill -TERM "$PID4"
wait "$PID4" || fail "supervisor exited $?"
expect "$WORK/j4.status" killed 1
expect "$WORK/j4.status" stop_signal 15
grep -q program-ended "$WORK/j4.log" || fail "the program under the wrapper was not stopped"
! grep -q wrapper-termed "$WORK/j4.log" || fail "the wrapper got SIGTERM"

# 5. processes left behind by a program that exited are stopped, and waited for (the program
#    exits once the orphan-to-be has recorded its pid, so the leftover is surely there)
"$STEPD" --job j5 --status "$WORK/j5.status" --grace-ms 2000 \
  -- /bin/sh -c "/bin/sh -c 'echo \$\$ > $WORK/j5.tmp && mv $WORK/j5.tmp $WORK/j5.orphan;
                             exec /bin/sleep 30' &
                 while [ ! -e $WORK/j5.orphan ]; do /bin/sleep 0.05; done; exit 0"
expect "$WORK/j5.status" exit_status 0
ORPHAN="$(cat "$WORK/j5.orphan")"
! kill -0 "$ORPHAN" 2> /dev/null || fail "leftover process $ORPHAN still runs"

# 6. the supervisor outlives the process that started it, in a session of its own
( "$STEPD" --job j6 --status "$WORK/j6.status" --grace-ms 1000 \
    -- /bin/sh -c "echo \$PPID > $WORK/j6.stepd; while [ ! -e $WORK/j6.go ]; do /bin/sleep 0.05; done" &
  echo $! > "$WORK/j6.pid" )
await_file "$WORK/j6.stepd"
STEPD6="$(cat "$WORK/j6.pid")"
[ "$(cat "$WORK/j6.stepd")" = "$STEPD6" ] || fail "the program's parent is not the supervisor"
kill -0 "$STEPD6" || fail "the supervisor died with its starter"
[ "$(ps -o sid= -p "$STEPD6" | tr -d ' ')" = "$STEPD6" ] || fail "the supervisor leads no session"
touch "$WORK/j6.go"
await_file "$WORK/j6.status"
expect "$WORK/j6.status" exit_status 0

# 7. a supervisor killed outright takes its program with it: the program gets SIGTERM (mpirun of
#    an mpirun-hosts job runs outside any sandbox, and would otherwise run on unsupervised)
"$STEPD" --job j9 --status "$WORK/j9.status" --grace-ms 1000 \
  -- /bin/sh -c "trap 'echo termed > $WORK/j9.log; exit 143' TERM; echo \$\$ > $WORK/j9.up;
                 while :; do /bin/sleep 0.05; done" 2> /dev/null &
PID9=$!
await_file "$WORK/j9.up"
PROGRAM9="$(cat "$WORK/j9.up")"
kill -KILL "$PID9"
wait "$PID9" 2> /dev/null || true
await_file "$WORK/j9.log"
for _ in $(seq 200); do kill -0 "$PROGRAM9" 2> /dev/null || break; sleep 0.1; done
! kill -0 "$PROGRAM9" 2> /dev/null || fail "the program $PROGRAM9 outlived its killed supervisor"
[ ! -e "$WORK/j9.status" ] || fail "a killed supervisor wrote a status"

# 10. --started: the supervisor's own record (pid, start time) is there before the program runs
"$STEPD" --job j10 --status "$WORK/j10.status" --started "$WORK/j10.started" --grace-ms 1000 \
  -- /bin/sh -c "cp $WORK/j10.started $WORK/j10.seen; echo \$PPID > $WORK/j10.ppid"
expect "$WORK/j10.seen" format gantry-stepd-started-1
expect "$WORK/j10.seen" job j10
expect "$WORK/j10.seen" pid "$(cat "$WORK/j10.ppid")"
[ "$(key "$WORK/j10.seen" start_ticks)" -gt 0 ] || fail "no start time: $(cat "$WORK/j10.seen")"
[ "$(stat -c %a "$WORK/j10.started")" = 600 ] || fail "start record mode $(stat -c %a "$WORK/j10.started")"
expect "$WORK/j10.status" exit_status 0
if "$STEPD" --job j11 --status "$WORK/j11.status" --started j11.started --grace-ms 1 -- /bin/true \
  2> "$WORK/j11.err"; then
  fail "a relative --started was accepted"
fi
grep -q -- "--started must be an absolute path" "$WORK/j11.err" || fail "unclear: $(cat "$WORK/j11.err")"

# 8. usage errors: exit 2, nothing run
if "$STEPD" --job j7 --status "$WORK/j7.status" --grace-ms 1 -- sh -c true 2> "$WORK/j7.err"; then
  fail "a relative program was accepted"
fi
grep -q "absolute path" "$WORK/j7.err" || fail "unclear usage error: $(cat "$WORK/j7.err")"
if "$STEPD" --job j8 --grace-ms x -- /bin/true 2> /dev/null; then fail "bad options accepted"; fi
echo "gantry-stepd supervises"
