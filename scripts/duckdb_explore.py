#!/usr/bin/env python3
"""`tree` and `position` over kifudex's Parquet files, with DuckDB (one machine, out of core).

    python3 duckdb_explore.py tree DIR POSITION [--kifudex BIN]
    python3 duckdb_explore.py position DIR POSITION [--limit N] [--kifudex BIN]
    python3 duckdb_explore.py openings DIR [--by year]
    python3 duckdb_explore.py calibration DIR [--bucket N]
    python3 duckdb_explore.py blunders DIR [--drop N]

DIR holds the files `kifudex export --parquet DIR` (or `kifudex parquet ... --out DIR`)
wrote; POSITION is anything `kifudex hash` reads (an SFEN, `startpos moves 7g7f`, ...).
Prints JSON lines shaped as `kifudex tree --json` / `kifudex position --json` print them
(tree: move, count, sente_wins, gote_wins, draws, score, last_date; position: id, date,
sente, gote, plies, winner, ply), then a totals object. `openings` prints rows shaped as
`kifudex openings --json` (kind, name, games, sente_wins, gote_wins, draws; with
`--by year` also year and share), from games.parquet's `label` and `recognised` list.
`calibration` prints the rows of `kifudex stats --evals --json` (for each size of advantage,
how often the side ahead won), `blunders` those of `kifudex blunders --json --limit 0` (id,
ply, side, before, after, drop; worst first), both from evals.parquet and games.parquet.

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


# An evaluation as the questions count it, sente's view: a value held within ±30000, a mate
# ±30000 (kifudex_evals::drops::points).
POINTS = """CASE WHEN value IS NOT NULL THEN greatest(-30000, least(30000, value))
                 WHEN mate_for = 'sente' THEN 30000 ELSE -30000 END"""


def calibration(con, d, width):
    """`kifudex stats --evals`: every evaluated position of a game with a known result, in the
    bucket of its advantage (`width` wide up to 3000, one bucket to 30000, one for the
    decisive), counted by whether the side ahead won; positions evaluated 0 are left out."""
    rows = con.execute(
        f"""
        WITH e AS (
            SELECT e.game, {POINTS} AS points, g.winner
            FROM read_parquet('{d}/evals.parquet') e
            JOIN read_parquet('{d}/games.parquet') g ON g.id = e.game
            WHERE g.winner IN ('sente', 'gote', 'draw')
        ), b AS (
            SELECT game, winner, points,
                   CASE WHEN abs(points) >= 30000 THEN 30000
                        WHEN abs(points) >= 3000 THEN 3000
                        ELSE abs(points) // $w * $w END AS low
            FROM e WHERE points <> 0
        )
        SELECT low,
               CASE WHEN low = 30000 THEN NULL WHEN low = 3000 THEN 30000
                    ELSE least(low + $w, 3000) END AS high,
               low = 30000 AS decisive,
               count(*) AS positions,
               count(DISTINCT game) AS games,
               count(*) FILTER (WHERE winner = CASE WHEN points > 0 THEN 'sente' ELSE 'gote' END) AS ahead_won,
               count(*) FILTER (WHERE winner = 'draw') AS drawn,
               count(*) FILTER (WHERE winner = CASE WHEN points > 0 THEN 'gote' ELSE 'sente' END) AS ahead_lost
        FROM b GROUP BY low ORDER BY low
        """,
        {"w": width},
    ).fetchall()
    games, level = con.execute(
        f"""
        SELECT count(DISTINCT e.game), count(*) FILTER (WHERE {POINTS} = 0)
        FROM read_parquet('{d}/evals.parquet') e
        JOIN read_parquet('{d}/games.parquet') g ON g.id = e.game
        WHERE g.winner IN ('sente', 'gote', 'draw')
        """
    ).fetchone()
    return rows, games, level


def blunders(con, d, drop):
    """`kifudex blunders`: each move whose positions before and after are both evaluated and
    after which the mover's evaluation fell by at least `drop`, worst first. The mover of the
    move from ply p is the side to move at the start (the SFEN's second field) when p is
    even."""
    return con.execute(
        f"""
        WITH e AS (
            SELECT game, ply, {POINTS} AS points,
                   lag(ply) OVER w AS prev_ply, lag({POINTS}) OVER w AS prev_points
            FROM read_parquet('{d}/evals.parquet')
            WINDOW w AS (PARTITION BY game ORDER BY ply)
        ), m AS (
            SELECT e.game, e.ply, e.prev_points AS before, e.points AS after,
                   CASE WHEN (e.prev_ply % 2 = 0) = (split_part(g.start_sfen, ' ', 2) = 'b')
                        THEN 'sente' ELSE 'gote' END AS side
            FROM e JOIN read_parquet('{d}/games.parquet') g ON g.id = e.game
            WHERE e.prev_ply = e.ply - 1
        ), d AS (
            SELECT game, ply, side, before, after,
                   CASE WHEN side = 'sente' THEN before - after ELSE after - before END AS drop
            FROM m
        )
        SELECT game, ply, side, before, after, drop FROM d WHERE drop >= ?
        ORDER BY drop DESC, game, ply
        """,
        [drop],
    ).fetchall()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["tree", "position", "openings", "calibration", "blunders"])
    ap.add_argument("dir")
    ap.add_argument("position", nargs="?")
    ap.add_argument("--limit", type=int, default=50)
    ap.add_argument("--kifudex", default="kifudex")
    ap.add_argument("--by", choices=["year"])
    ap.add_argument("--bucket", type=int, default=200)
    ap.add_argument("--drop", type=int, default=300)
    a = ap.parse_args()
    con = duckdb.connect()
    d = a.dir.replace("'", "''")
    if a.command == "calibration":
        rows, games, level = calibration(con, d, a.bucket)
        for low, high, decisive, n, g, won, drawn, lost in rows:
            print(json.dumps({"low": low, "high": high, "decisive": decisive, "positions": n,
                              "games": g, "ahead_won": won, "drawn": drawn, "ahead_lost": lost,
                              "won": won / n, "score": (won + drawn / 2) / n}))
        print(json.dumps({"games": games, "level": level, "width": a.bucket}))
        return 0
    if a.command == "blunders":
        rows = blunders(con, d, a.drop)
        for game, ply, side, before, after, drop in rows:
            print(json.dumps({"id": game, "ply": ply, "side": side, "before": before,
                              "after": after, "drop": drop}))
        print(json.dumps({"total": len(rows)}))
        return 0
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
