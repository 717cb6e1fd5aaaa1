# Shared by the test scripts: $1 = build directory with the tools, $2 = scratch directory.
set -euo pipefail
BIN="$1"
WORK="$2"
rm -rf "$WORK"
mkdir -p "$WORK"
PYTHON="${PYTHON:-python3}"
# Oversubscription is allowed (more ranks than cores); root is allowed through the env.
mpi() { local np="$1"; shift; mpirun --oversubscribe -np "$np" "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
