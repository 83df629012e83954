#!/usr/bin/env python3
"""`tree` and `position` over kifudex's Parquet files, with DuckDB (one machine, out of core).

    python3 duckdb_explore.py tree DIR POSITION [--kifudex BIN]
    python3 duckdb_explore.py position DIR POSITION [--limit N] [--kifudex BIN]
    python3 duckdb_explore.py openings DIR [--by year]

DIR holds the files `kifudex export --parquet DIR` (or `kifudex parquet ... --out DIR`)
wrote; POSITION is anything `kifudex hash` reads (an SFEN, `startpos moves 7g7f`, ...).
Prints JSON lines shaped as `kifudex tree --json` / `kifudex position --json` print them
(tree: move, count, sente_wins, gote_wins, draws, score, last_date; position: id, date,
sente, gote, plies, winner, ply), then a totals object. `openings` prints rows shaped as
`kifudex openings --json` (kind, name, games, sente_wins, gote_wins, draws; with
`--by year` also year and share), from games.parquet's `label` and `recognised` list.

positions.parquet keys each row by `hash` (board, hands, side to move; sorted, with min/max
statistics, so `WHERE hash = ?` reads a row group or two) and holds `hand_hash`, the hands'
part of it: a search that ignores hands asks `WHERE xor(hash, hand_hash) = ?` with the
`board_hash` that `kifudex hash` prints (a scan of both columns).
"""
import argparse
import json
import subprocess
import sys

import duckdb


def position_hash(kifudex, position):
    out = subprocess.run([kifudex, "hash", position], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["hash"]


def tree(con, d, h):
    # One game counts once per move, however often it reaches the position.
    rows = con.execute(
        f"""
        WITH here AS (
            SELECT DISTINCT game, next_move, result, date
            FROM read_parquet('{d}/positions.parquet')
            WHERE hash = ?
        )
        SELECT next_move AS move,
               count(*) AS count,
               count(*) FILTER (WHERE result = 'sente') AS sente_wins,
               count(*) FILTER (WHERE result = 'gote') AS gote_wins,
               count(*) FILTER (WHERE result = 'draw') AS draws,
               max(date) AS last_date
        FROM here WHERE next_move IS NOT NULL
        GROUP BY next_move
        ORDER BY count DESC, move
        """,
        [h],
    ).fetchall()
    games = con.execute(
        f"SELECT count(DISTINCT game) FROM read_parquet('{d}/positions.parquet') WHERE hash = ?",
        [h],
    ).fetchone()[0]
    return rows, games


RESULTS = """count(*) AS games,
               count(*) FILTER (WHERE winner = 'sente') AS sente_wins,
               count(*) FILTER (WHERE winner = 'gote') AS gote_wins,
               count(*) FILTER (WHERE winner = 'draw') AS draws"""


def openings(con, d, by_year):
    """The game labels, and each side's strategies and castles, as `kifudex openings` counts them."""
    games = f"read_parquet('{d}/games.parquet')"
    if by_year:
        return con.execute(
            f"""
            WITH g AS (SELECT substr(date, 1, 4) AS year, label, winner FROM {games}),
                 per_year AS (SELECT year, count(*) AS n FROM g GROUP BY year)
            SELECT 'opening' AS kind, label AS name, g.year, {RESULTS},
                   count(*) / any_value(per_year.n) AS share
            FROM g JOIN per_year ON per_year.year IS NOT DISTINCT FROM g.year
            WHERE label IS NOT NULL
            GROUP BY g.year, label
            """
        ).fetchall()
    return con.execute(
        f"""
        SELECT 'opening' AS kind, label AS name, NULL AS year, {RESULTS}, NULL AS share
        FROM {games} WHERE label IS NOT NULL GROUP BY label
        UNION ALL
        SELECT r.kind, r.name, NULL, {RESULTS}, NULL
        FROM (SELECT winner, unnest(recognised) AS r FROM {games})
        GROUP BY r.kind, r.name
        """
    ).fetchall()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["tree", "position", "openings"])
    ap.add_argument("dir")
    ap.add_argument("position", nargs="?")
    ap.add_argument("--limit", type=int, default=50)
    ap.add_argument("--kifudex", default="kifudex")
    ap.add_argument("--by", choices=["year"])
    a = ap.parse_args()
    con = duckdb.connect()
    d = a.dir.replace("'", "''")
    if a.command == "openings":
        for kind, name, year, games, s, g, dr, share in openings(con, d, a.by == "year"):
            row = {"kind": kind, "name": name, "games": games, "sente_wins": s,
                   "gote_wins": g, "draws": dr}
            if a.by == "year":
                row.update({"year": year, "share": share})
            print(json.dumps(row, ensure_ascii=False))
        return 0
    if a.position is None:
        ap.error("tree and position need a POSITION")
    h = position_hash(a.kifudex, a.position)
    if a.command == "tree":
        rows, games = tree(con, d, h)
        for move, count, s, g, dr, last in rows:
            print(json.dumps({"move": move, "count": count, "sente_wins": s, "gote_wins": g,
                              "draws": dr, "last_date": last}, ensure_ascii=False))
        print(json.dumps({"total": games}))
    else:
        rows = con.execute(
            f"""
            SELECT g.id, g.date, g.sente, g.gote, g.plies, g.winner, min(p.ply) AS ply
            FROM read_parquet('{d}/positions.parquet') p
            JOIN read_parquet('{d}/games.parquet') g ON g.id = p.game
            WHERE p.hash = ?
            GROUP BY ALL
            ORDER BY g.date DESC NULLS LAST, g.id DESC
            """,
            [h],
        ).fetchall()
        for gid, date, sente, gote, plies, winner, ply in rows[: a.limit]:
            print(json.dumps({"id": gid, "date": date, "sente": sente, "gote": gote,
                              "plies": plies, "winner": winner, "ply": ply}, ensure_ascii=False))
        print(json.dumps({"total": len(rows)}))


if __name__ == "__main__":
    sys.exit(main())
