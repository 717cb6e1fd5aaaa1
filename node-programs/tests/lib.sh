# Shared by the test scripts: $1 = build directory with the tools, $2 = scratch directory.
set -eEuo pipefail
# set -e ends the script at a failing command without a word: name the command, where it
# stood and how it ended, so that a failure under load is never silent. A status above 128 is
# a signal (141 SIGPIPE: a reader left a pipe early; 137 SIGKILL: killed from outside); under
# pipefail a pipeline's status is its last failing part's. -E: inside functions and $(...) too.
on_error() {
  local status="$1" line="$2" command="$3" parts="$4" how
  how="status $status"
  if [ "$status" -gt 128 ]; then how="$how (signal $(kill -l $((status - 128)) 2>/dev/null))"; fi
  local where="${BASH_SOURCE[1]##*/}:$line"
  if [ "${FUNCNAME[1]:-main}" != main ]; then where="$where in ${FUNCNAME[1]}"; fi
  echo "FAIL: $where: '$command' ended with $how; statuses of its pipeline's parts: $parts" >&2
}
trap 'on_error "$?" "$LINENO" "$BASH_COMMAND" "${PIPESTATUS[*]}"' ERR
BIN="$1"
WORK="$2"
rm -rf "$WORK"
mkdir -p "$WORK"
PYTHON="${PYTHON:-python3}"
# Oversubscription is allowed (more ranks than cores); root is allowed through the env.
mpi() { local np="$1"; shift; mpirun --oversubscribe -np "$np" "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
