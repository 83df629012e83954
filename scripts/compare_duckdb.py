#!/usr/bin/env python3
"""Compares duckdb_explore.py's answers with kifudex's on the same games (check_duckdb.sh)."""
import json
import pathlib
import random
import subprocess
import sys
import tempfile

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
    check(f"tree {pos}: games reaching it", games == duck[-1]["total"], f"{games} != {duck[-1]}")
    mine = lines([BIN, "--db", DB, "position", pos, "--json", "--limit", "100000"])
    duck = lines([sys.executable, "scripts/duckdb_explore.py", "position", PQ, pos,
                  "--limit", "100000", "--kifudex", BIN])
    a = sorted((r["id"], r["ply"]) for r in mine if "id" in r)
    b = sorted((r["id"], r["ply"]) for r in duck if "id" in r)
    check(f"position {pos}", a == b, f"{len(a)} vs {len(b)} games")
    check(f"position {pos}: total", mine[-1]["total"] == duck[-1]["total"])
# The openings table, and its trends by year, from games.parquet's label and recognised list.
COUNTS = ["kind", "name", "games", "sente_wins", "gote_wins", "draws"]
for by in [[], ["--by", "year"]]:
    extra = ["year"] if by else []
    mine = lines([BIN, "--db", DB, "openings", "--json", *by])
    duck = lines([sys.executable, "scripts/duckdb_explore.py", "openings", PQ, *by])
    key = lambda r: tuple(str(r.get(k)) for k in COUNTS + extra)
    a = sorted(({k: r.get(k) for k in COUNTS + extra} for r in mine), key=key)
    b = sorted(({k: r.get(k) for k in COUNTS + extra} for r in duck), key=key)
    check(f"openings {' '.join(by)}".strip(), a == b and len(a) > 10,
          f"{len(a)} rows vs {len(b)}: {[x for x in a if x not in b][:3]} / {[x for x in b if x not in a][:3]}")
    if by:
        shares = {(r.get("year"), r["name"]): r["share"] for r in duck}
        check("openings --by year: shares",
              all(abs(r["share"] - shares[(r.get("year"), r["name"])]) < 1e-9 for r in mine))


def with_engine_lines(folder, seed):
    """Adds a made-up Floodgate engine line (`'** VALUE`) after each move of the CSA files in
    `folder`: a seeded random walk, now and then a mate-sized value (±30000 and beyond) or no
    line at all."""
    rng = random.Random(seed)
    for path in sorted(pathlib.Path(folder).glob("*.csa")):
        out, level, pending = [], 0, False
        for line in path.read_text(encoding="utf-8").splitlines():
            is_move = len(line) == 7 and line[0] in "+-" and line[1:5].isdigit()
            if pending and not line.startswith("T"):
                out.append(pending)
                pending = False
            out.append(line)
            if is_move:
                level += rng.randint(-450, 450)
                r = rng.random()
                if r < 0.05:
                    continue
                value = rng.choice([30000, -30000, 99999, -99999]) if r < 0.08 else max(-5000, min(5000, level))
                pending = f"'** {value}"
            elif pending and line.startswith("T"):
                out.append(pending)
                pending = False
        if pending:
            out.append(pending)
        path.write_text("\n".join(out) + "\n", encoding="utf-8")


# The evaluations: sample_db's games as CSA with engine lines, the dialect samples of
# tests/data/evals and the browser test's analysed game, in a database of their own; DuckDB's
# calibration and blunders over its Parquet files equal `stats --evals` and `blunders`.
with tempfile.TemporaryDirectory() as tmp:
    csa, evdb, evpq = (f"{tmp}/{n}" for n in ("csa", "db", "pq"))
    subprocess.run([BIN, "--db", DB, "export", "--to", "csa", "--out", csa], check=True, capture_output=True)
    with_engine_lines(csa, 39)
    subprocess.run([BIN, "--db", evdb, "import", csa, "tests/data/evals", "tests/browser/evals"],
                   check=True, capture_output=True)
    subprocess.run([BIN, "--db", evdb, "export", "--parquet", evpq], check=True, capture_output=True)
    for bucket in ["200", "500", "7"]:
        mine = lines([BIN, "--db", evdb, "stats", "--evals", "--bucket", bucket, "--json"])
        duck = lines([sys.executable, "scripts/duckdb_explore.py", "calibration", evpq, "--bucket", bucket])
        check(f"stats --evals --bucket {bucket}", mine == duck and len(mine) > 5,
              f"{len(mine)} rows vs {len(duck)}: {[x for x in mine if x not in duck][:3]} / {[x for x in duck if x not in mine][:3]}")
    for drop in ["300", "2000"]:
        keys = ["id", "ply", "side", "before", "after", "drop"]
        mine = lines([BIN, "--db", evdb, "blunders", "--drop", drop, "--limit", "0", "--json"])
        duck = lines([sys.executable, "scripts/duckdb_explore.py", "blunders", evpq, "--drop", drop])
        a = [{k: r[k] for k in keys} for r in mine[:-1]]
        b = duck[:-1]
        check(f"blunders --drop {drop}", a == b and len(a) > 20 and mine[-1]["total"] == duck[-1]["total"],
              f"{len(a)} rows vs {len(b)}: {[x for x in a if x not in b][:3]} / {[x for x in b if x not in a][:3]}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
