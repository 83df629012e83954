#!/usr/bin/env python3
"""Load on a running `kifudex serve`: CLIENTS threads, each a user clicking through the
explorer. A walk starts at the start position and asks /api/tree; the next move is drawn
from the moves played there, weighted by their counts (as users follow the main lines),
until the position has no games or DEPTH moves were played; then a new walk starts. Prints
the latency percentiles of /api/tree and the requests per second.

    python3 scripts/load_serve.py http://127.0.0.1:8080 --clients 20 --seconds 30
"""
import argparse
import json
import random
import threading
import time
import urllib.parse
import urllib.request


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--filter", default="", help="extra query parameters, e.g. since=2015")
    a = ap.parse_args()
    stop = time.monotonic() + a.seconds
    times, errors, failures = [], [], []
    lock = threading.Lock()

    def client(n):
        rng = random.Random(a.seed * 1000 + n)
        mine, bad = [], 0
        while time.monotonic() < stop:
            line = []
            for _ in range(a.depth + 1):
                # `+` (a promotion) is a space in a query string unless encoded.
                url = a.base + "/api/tree?play=" + urllib.parse.quote(",".join(line), safe=",")
                if a.filter:
                    url += "&" + a.filter
                t = time.perf_counter()
                try:
                    with urllib.request.urlopen(url, timeout=30) as r:
                        body = json.load(r)
                except Exception as e:
                    bad += 1
                    detail = e.read().decode()[:200] if hasattr(e, "read") else str(e)
                    with lock:
                        if len(failures) < 3:
                            failures.append(f"{url}: {detail}")
                    break
                mine.append((time.perf_counter() - t) * 1e3)
                moves = body.get("moves", [])
                if not moves or time.monotonic() >= stop:
                    break
                pick = rng.choices(moves, weights=[m["count"] for m in moves])[0]
                line.append(pick["move"])
        with lock:
            times.extend(mine)
            errors.append(bad)

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(a.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    times.sort()
    at = lambda q: times[min(len(times) - 1, int(round((len(times) - 1) * q)))]
    print(
        f"{a.clients} clients, {len(times)} tree requests in {elapsed:.1f} s "
        f"({len(times) / elapsed:.0f}/s), {sum(errors)} failed: "
        f"p50 {at(0.5):.1f} ms, p90 {at(0.9):.1f} ms, p99 {at(0.99):.1f} ms, max {times[-1]:.1f} ms"
    )
    for f in failures:
        print("failed:", f)


if __name__ == "__main__":
    main()
