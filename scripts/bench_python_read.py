#!/usr/bin/env python3
"""kifudex.read_many against cshogi's KIF parser on the same files, in the same run.

    cargo run --release --example gen_games -- --games 20000 --formats kif --out /tmp/gen
    pip install . cshogi      # into the same environment
    python3 scripts/bench_python_read.py /tmp/gen [--jobs 2]

Prints games/s for both and the ratio. Both read every file whole (cshogi.KIF.Parser.parse_file
one file after another, as its users do; kifudex.read_many on --jobs threads, default one a
core) and both must find the same number of moves in every game, or the script says where
they differ and fails.
"""
import argparse
import sys
import time
from pathlib import Path

import cshogi.KIF
import kifudex


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--limit", type=int, default=None, help="only the first N files")
    args = ap.parse_args()
    paths = sorted(p for p in args.dir.rglob("*.kif"))[: args.limit]
    if not paths:
        sys.exit(f"no .kif files under {args.dir}")

    start = time.perf_counter()
    ours = kifudex.read_many(paths, jobs=args.jobs)
    kifudex_s = time.perf_counter() - start

    start = time.perf_counter()
    theirs = [cshogi.KIF.Parser.parse_file(str(p)) for p in paths]
    cshogi_s = time.perf_counter() - start

    differ = [(p, len(g[0].moves), len(t.moves)) for p, g, t in zip(paths, ours, theirs)
              if len(g[0].moves) != len(t.moves)]
    n = len(paths)
    print(f"{n} KIF files, {sum(len(g[0].moves) for g in ours)} moves")
    print(f"kifudex.read_many: {kifudex_s:.2f} s ({n / kifudex_s:,.0f} games/s)")
    print(f"cshogi KIF parser: {cshogi_s:.2f} s ({n / cshogi_s:,.0f} games/s)")
    print(f"kifudex is {cshogi_s / kifudex_s:.1f} times as fast")
    if differ:
        for p, a, b in differ[:5]:
            print(f"{p}: kifudex {a} moves, cshogi {b}", file=sys.stderr)
        sys.exit(f"{len(differ)} games read differently")


if __name__ == "__main__":
    main()
