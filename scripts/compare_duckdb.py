#!/usr/bin/env python3
"""Compares duckdb_explore.py's answers with kifudex's on the same games (check_duckdb.sh)."""
import json
import subprocess
import sys

BIN, DB, PQ = sys.argv[1:4]
POSITIONS = [
    "startpos",
    "startpos moves 7g7f",
    "startpos moves 7g7f 3c3d",
    "startpos moves 2g2f 8c8d",
    "startpos moves 7g7f 8c8d 7i6h",
]
FIELDS = ["move", "count", "sente_wins", "gote_wins", "draws", "last_date"]


def lines(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [json.loads(l) for l in out.splitlines() if l.strip()]


passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


for pos in POSITIONS:
    mine = lines([BIN, "--db", DB, "tree", pos, "--json"])
    duck = lines([sys.executable, "scripts/duckdb_explore.py", "tree", PQ, pos, "--kifudex", BIN])
    a = sorted([{k: r[k] for k in FIELDS} for r in mine if "move" in r], key=lambda r: r["move"])
    b = sorted([{k: r[k] for k in FIELDS} for r in duck if "move" in r], key=lambda r: r["move"])
    check(f"tree {pos}", a == b, f"{a} != {b}")
    total = [r for r in mine if "move" not in r]
    games = total[-1].get("total") if total else None
    check(f"tree {pos}: games reaching it", games == duck[-1]["games"], f"{games} != {duck[-1]['games']}")
    mine = lines([BIN, "--db", DB, "position", pos, "--json", "--limit", "100000"])
    duck = lines([sys.executable, "scripts/duckdb_explore.py", "position", PQ, pos,
                  "--limit", "100000", "--kifudex", BIN])
    a = sorted((r["id"], r["ply"]) for r in mine if "id" in r)
    b = sorted((r["id"], r["ply"]) for r in duck if "id" in r)
    check(f"position {pos}", a == b, f"{len(a)} vs {len(b)} games")
    check(f"position {pos}: total", mine[-1]["total"] == duck[-1]["total"])
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
