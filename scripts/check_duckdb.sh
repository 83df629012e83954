#!/usr/bin/env bash
# DuckDB's answers over kifudex's Parquet files equal kifudex's own: imports sample_db,
# exports Parquet, and compares `tree` and `position` on a few positions. Makes its own
# virtual environment (target/venv) and installs duckdb into it.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${KIFUDEX_BIN:-target/debug/kifudex}
[ -x "$bin" ] || cargo build -q
venv=target/venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -c "import duckdb" 2>/dev/null || "$venv/bin/pip" install -q duckdb
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" --db "$work/db" import sample_db/ >/dev/null
"$bin" --db "$work/db" export --parquet "$work/pq" >/dev/null
"$venv/bin/python" scripts/compare_duckdb.py "$bin" "$work/db" "$work/pq"
