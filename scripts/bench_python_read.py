#!/usr/bin/env python3
"""kifudex.read_many against cshogi's KIF parser on the same files, in the same run.

    cargo run --release --example gen_games -- --games 20000 --formats kif --out /tmp/gen
    pip install . cshogi      # into the same environment
    python3 scripts/bench_python_read.py /tmp/gen [--jobs 2]

Prints games/s for both and the ratio. Both read every file whole (cshogi.KIF.Parser.parse_file
one file after another, as its users do; kifudex.read_many on --jobs threads, default one a
core); the script then says in how many games the two found a different number of moves
(cshogi 1.1.0 misreads a move written without a space before its time, as in
`７七角不成(22)( 0:19/00:01:30)`, and stops or skips there).

cshogi 1.1.0 crashes (a segmentation fault) on some of these files, so it runs in a child
process that reports each file as it goes: a file it dies on is named, left out of both
timings, and the child goes on from the next one.
"""
import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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

    cshogi_s, theirs, crashed = cshogi_times(paths)
    for p in crashed:
        print(f"cshogi crashed on {p}: left out", file=sys.stderr)
    paths = [p for p in paths if p not in crashed]

    start = time.perf_counter()
    ours = kifudex.read_many(paths, jobs=args.jobs)
    kifudex_s = time.perf_counter() - start

    differ = [(p, len(g[0].moves), theirs[str(p)]) for p, g in zip(paths, ours)
              if len(g[0].moves) != theirs[str(p)]]
    n = len(paths)
    print(f"{n} KIF files, {sum(len(g[0].moves) for g in ours)} moves")
    print(f"kifudex.read_many: {kifudex_s:.2f} s ({n / kifudex_s:,.0f} games/s)")
    print(f"cshogi KIF parser: {cshogi_s:.2f} s ({n / cshogi_s:,.0f} games/s)")
    print(f"kifudex is {cshogi_s / kifudex_s:.1f} times as fast")
    if differ:
        print(f"{len(differ)} games read with a different number of moves, as")
        for p, a, b in differ[:3]:
            print(f"  {p}: kifudex {a} moves, cshogi {b}")


CHILD = """
import sys, time, cshogi.KIF
paths = open(sys.argv[1], encoding="utf-8").read().splitlines()
spent = 0.0
for i in range(int(sys.argv[2]), len(paths)):
    print(i, flush=True)
    start = time.perf_counter()
    moves = len(cshogi.KIF.Parser.parse_file(paths[i]).moves)
    spent += time.perf_counter() - start
    print(i, moves, spent, flush=True)
"""


def cshogi_times(paths):
    """cshogi's parsing time over `paths` (in children, one after another), the moves of each
    game by path, and the files it crashed on."""
    moves, crashed, total = {}, [], 0.0
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        f.write("\n".join(str(p) for p in paths))
    start = 0
    while start < len(paths):
        child = subprocess.run([sys.executable, "-c", CHILD, f.name, str(start)],
                               capture_output=True, text=True)
        last, spent = start - 1, 0.0
        for line in child.stdout.splitlines():
            parts = line.split()
            if len(parts) == 3:
                moves[str(paths[int(parts[0])])] = int(parts[1])
                spent = float(parts[2])
                last = int(parts[0])
        total += spent
        if child.returncode == 0:
            break
        crashed.append(paths[last + 1])
        start = last + 2
    Path(f.name).unlink()
    return total, moves, crashed


if __name__ == "__main__":
    main()
