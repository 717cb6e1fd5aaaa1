# Bad input gives "file:line: what" from one rank, a non-zero exit and no outputs.
source "$(dirname "$0")/lib.sh"
"$PYTHON" "$(dirname "$0")/bad_input.py" "$BIN" "$WORK"
