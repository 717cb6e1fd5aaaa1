# Shared by the entry scripts in this folder (sourced, not run). Each script starts one daemon
# in the foreground, as a container's main process; tests start the same scripts inside network
# namespaces. Options every script takes besides its own:
#   --pid-file FILE   write the daemon's PID there (the script execs the daemon, so the PID is
#                     the script's own)
#   --hostname NAME   run in a new UTS namespace with this host name (tests: each namespace
#                     "host" gets its own name; containers get theirs from the engine)
#   --detach LOG      return at once; the daemon runs in its own session, output appended to
#                     LOG (needs --pid-file)
# Everything is passed as separate arguments and files: no option value is ever evaluated as
# shell text, and no secret travels in an argument (keys are files).

entry_name=$(basename "$0")
entry_pid_file=""
entry_hostname=""
entry_detach_log=""

die() {
  echo "$entry_name: $*" >&2
  exit 2
}

# Usage: need_value OPTION COUNT_OF_REMAINING_ARGS
need_value() {
  [ "$2" -ge 2 ] || die "$1 needs a value"
}

# Consumes a common option; returns 1 when $1 is not one.
common_option() {
  case "$1" in
    --pid-file) entry_pid_file="$2" ;;
    --hostname) entry_hostname="$2" ;;
    --detach) entry_detach_log="$2" ;;
    *) return 1 ;;
  esac
}

# Applies --hostname and --detach by re-running this script with the original arguments:
# entry_prepare ARGS... (all the arguments the script was called with, saved before parsing).
entry_prepare() {
  if [ -n "$entry_hostname" ] && [ -z "${GANTRY_ENTRY_UTS:-}" ]; then
    case "$entry_hostname" in
      *[!A-Za-z0-9.-]* | -*) die "--hostname: not a host name: $entry_hostname" ;;
    esac
    # unshare execs in place (no fork), so the PID stays the daemon's. The host name is set only
    # inside the new namespace, never on the machine.
    GANTRY_ENTRY_UTS=1 exec unshare --uts -- /bin/sh -c 'hostname "$1" && shift && exec "$@"' \
      sh "$entry_hostname" "$0" "$@"
  fi
  if [ -n "$entry_detach_log" ] && [ -z "${GANTRY_ENTRY_DETACHED:-}" ]; then
    [ -n "$entry_pid_file" ] || die "--detach needs --pid-file"
    # A background job of a non-interactive shell is no process group leader, so setsid does
    # not fork: $! is the PID the daemon will have.
    GANTRY_ENTRY_DETACHED=1 setsid "$0" "$@" </dev/null >>"$entry_detach_log" 2>&1 &
    echo "$!" >"$entry_pid_file"
    exit 0
  fi
}

# Replaces the script with the daemon: entry_exec PROGRAM ARGS...
entry_exec() {
  if [ -n "$entry_pid_file" ]; then
    echo "$$" >"$entry_pid_file"
  fi
  exec "$@"
}

# Value of KEY=VALUE in a slurm.conf (first match, comments ignored): conf_value FILE KEY
conf_value() {
  sed -n "s/^[[:space:]]*$2=\([^[:space:]#]*\).*/\1/p" "$1" | head -n 1
}
