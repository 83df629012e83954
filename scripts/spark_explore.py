#!/usr/bin/env python3
"""kifudex's Parquet files in Apache Spark (local mode here; a cluster unchanged).

    spark_explore.py shards FILE_LIST OUT [--partitions N] [--kifudex BIN]
        Turns the record files listed in FILE_LIST (one path a line) into Parquet: the
        files are spread over N partitions and each partition runs `kifudex parquet` on
        its share (RDD.mapPartitionsWithIndex), writing OUT/shard-K/ with game ids from
        K * 1,000,000,000 + 1 so that shards never share an id.
    spark_explore.py tree DIR POSITION [--kifudex BIN]
    spark_explore.py position DIR POSITION [--limit N] [--kifudex BIN]
        Answer as `kifudex tree --json` / `kifudex position --json` do, over DIR's
        positions.parquet and games.parquet (DIR may be OUT/* of a shards run).

POSITION is anything `kifudex hash` reads (an SFEN, `startpos moves 7g7f`, ...).

Spark reads the UINT64 columns `hash` and `hand_hash` as DECIMAL(20,0), which has no XOR: a
search that ignores hands takes the distinct `hand_hash` values (a few thousand), XORs each
with the `board_hash` that `kifudex hash` prints, in Python, and asks `hash IN` them.
"""
import argparse
import decimal
import json
import os
import subprocess
import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F


def position_hash(kifudex, position):
    """The position's hash as a Spark literal: Spark reads Parquet's UINT64 as DECIMAL(20,0)."""
    out = subprocess.run([kifudex, "hash", position], check=True, capture_output=True, text=True)
    h = json.loads(out.stdout)["hash"]
    return F.lit(decimal.Decimal(h)).cast("decimal(20,0)")


def shards(spark, a):
    with open(a.file_list, encoding="utf-8") as f:
        files = [l.strip() for l in f if l.strip()]
    kifudex, out = a.kifudex, os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)

    def run(index, paths):
        paths = list(paths)
        if not paths:
            return
        shard = os.path.join(out, f"shard-{index}")
        cmd = [kifudex, "parquet", *paths, "--out", shard, "--force", "--json",
               "--first-id", str(index * 1_000_000_000 + 1)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        yield json.dumps({"shard": index, "status": done.returncode,
                          "report": done.stdout.strip(), "errors": done.stderr.strip()[-2000:]})

    rdd = spark.sparkContext.parallelize(files, a.partitions)
    for line in rdd.mapPartitionsWithIndex(run).collect():
        print(line)


def tree(spark, a):
    h = position_hash(a.kifudex, a.position)
    p = spark.read.parquet(os.path.join(a.dir, "positions.parquet")).where(F.col("hash") == h)
    here = p.select("game", "next_move", "result", "date").distinct()
    rows = (here.where(F.col("next_move").isNotNull())
            .groupBy("next_move")
            .agg(F.count("*").alias("count"),
                 F.sum((F.col("result") == "sente").cast("int")).alias("sente_wins"),
                 F.sum((F.col("result") == "gote").cast("int")).alias("gote_wins"),
                 F.sum((F.col("result") == "draw").cast("int")).alias("draws"),
                 F.max("date").alias("last_date"))
            .orderBy(F.desc("count"), "next_move")
            .collect())
    for r in rows:
        print(json.dumps({"move": r["next_move"], "count": r["count"],
                          "sente_wins": r["sente_wins"] or 0, "gote_wins": r["gote_wins"] or 0,
                          "draws": r["draws"] or 0, "last_date": r["last_date"]},
                         ensure_ascii=False))
    print(json.dumps({"total": p.select("game").distinct().count()}))


def position(spark, a):
    h = position_hash(a.kifudex, a.position)
    p = spark.read.parquet(os.path.join(a.dir, "positions.parquet")).where(F.col("hash") == h)
    g = spark.read.parquet(os.path.join(a.dir, "games.parquet"))
    first = p.groupBy("game").agg(F.min("ply").alias("ply"))
    rows = (first.join(g, first.game == g.id)
            .select("id", "date", "sente", "gote", "plies", "winner", "ply")
            .orderBy(F.desc_nulls_last("date"), F.desc("id"))
            .collect())
    for r in rows[: a.limit]:
        print(json.dumps(r.asDict(), ensure_ascii=False))
    print(json.dumps({"total": len(rows)}))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("shards")
    s.add_argument("file_list")
    s.add_argument("out")
    s.add_argument("--partitions", type=int, default=4)
    for name in ("tree", "position"):
        q = sub.add_parser(name)
        q.add_argument("dir")
        q.add_argument("position")
        q.add_argument("--limit", type=int, default=50)
    for p in sub.choices.values():
        p.add_argument("--kifudex", default="kifudex")
    a = ap.parse_args()
    spark = (SparkSession.builder.appName("kifudex")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    {"shards": shards, "tree": tree, "position": position}[a.command](spark, a)
    spark.stop()


if __name__ == "__main__":
    sys.exit(main())
