#!/usr/bin/env bash
# Creates (once) the virtual environment the independent reference runs in: Python 3 with
# numpy from PyPI. Idempotent: an environment that already imports numpy is left alone.
# usage: make_venv.sh DIR
set -euo pipefail
dir="$1"
if [ -x "$dir/bin/python" ] && "$dir/bin/python" -c 'import numpy' 2>/dev/null; then
  exit 0
fi
rm -rf "$dir"
python3 -m venv "$dir"
"$dir/bin/pip" install --quiet --disable-pip-version-check 'numpy>=1.24,<3'
"$dir/bin/python" -c 'import numpy; print("reference venv: numpy", numpy.__version__)'
