#!/usr/bin/env bash
# The Python side: the training files (hcpe, PackedSfenValue) read back by cshogi, and the
# kifudex Python package, tested with pytest against the CLI's answers. Makes its own virtual
# environment (target/venv-py) and installs cshogi, numpy, pytest and maturin into it.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${KIFUDEX_BIN:-target/debug/kifudex}
[ -x "$bin" ] || cargo build -q
venv=target/venv-py
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -c "import cshogi, numpy, pytest" 2>/dev/null ||
  "$venv/bin/pip" install -q cshogi numpy pytest
KIFUDEX_BIN="$(realpath "$bin")" "$venv/bin/python" -m pytest -q tests/python "$@"
