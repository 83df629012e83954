#!/usr/bin/env bash
# The Python side: the training files (hcpe, PackedSfenValue) read back by cshogi, and the
# kifudex Python package (crates/python) built into a virtual environment and tested with
# pytest against the CLI's answers. Makes its own virtual environment (target/venv-py) with
# cshogi, numpy, pytest, maturin, pandas and pyarrow from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${KIFUDEX_BIN:-target/debug/kifudex}
[ -x "$bin" ] || cargo build -q
venv=target/venv-py
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -c "import cshogi, numpy, pytest, maturin, pandas, pyarrow" 2>/dev/null ||
  "$venv/bin/pip" install -q cshogi numpy pytest maturin pandas pyarrow
# The bindings are behind the crate's `python` feature, which the root's cargo clippy leaves
# off: lint them here.
cargo clippy -q -p kifudex-python --features python --all-targets -- -D warnings
# The package as `pip install .` makes it, in the dev profile (the root's test build is reused).
VIRTUAL_ENV="$(realpath "$venv")" "$venv/bin/maturin" develop -q
KIFUDEX_BIN="$(realpath "$bin")" "$venv/bin/python" -m pytest -q tests/python "$@"
# And the way the README installs it: `pip install .` from the repository (a release wheel
# built by pip's own isolated maturin), into a virtual environment of its own, then the
# package's tests again against it.
fresh=target/venv-pip
rm -rf "$fresh"
python3 -m venv "$fresh"
"$fresh/bin/pip" install -q ".[pandas,arrow]" cshogi numpy pytest
KIFUDEX_BIN="$(realpath "$bin")" "$fresh/bin/python" -m pytest -q -p no:cacheprovider \
  tests/python/test_package.py "$@"
