"""Shared fixtures of the Python tests: the kifudex binary (KIFUDEX_BIN, else target/debug),
a database of sample_db/ imported once a session, and a runner of the CLI whose answers the
tests compare with."""
import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def kifudex_bin():
    path = Path(os.environ.get("KIFUDEX_BIN", ROOT / "target" / "debug" / "kifudex"))
    if not path.exists():
        pytest.fail(f"no kifudex binary at {path}: build it (cargo build) or set KIFUDEX_BIN")
    return str(path)


class Cli:
    def __init__(self, binary):
        self.binary = binary

    def run(self, *args, db=None, check=True):
        cmd = [self.binary] + (["--db", str(db)] if db else []) + [str(a) for a in args]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if check and done.returncode != 0:
            raise AssertionError(f"{cmd} exited {done.returncode}: {done.stderr}")
        return done

    def lines(self, *args, db=None):
        out = self.run(*args, db=db).stdout
        return [json.loads(line) for line in out.splitlines() if line.strip()]


@pytest.fixture(scope="session")
def cli(kifudex_bin):
    return Cli(kifudex_bin)


@pytest.fixture(scope="session")
def sample_db(cli, tmp_path_factory):
    db = tmp_path_factory.mktemp("sample") / "db"
    cli.run("import", ROOT / "sample_db", db=db)
    return db


@pytest.fixture(scope="session")
def sample_games(cli, sample_db):
    """Every game of the sample database in id order, as `kifudex parse --positions` reads
    its source file: headers, moves, positions, winner, evaluations."""
    rows = [r for r in cli.lines("search", "--json", "--limit", "100000", db=sample_db) if "id" in r]
    return games_of(cli, rows)


def games_of(cli, rows):
    parsed = {}
    games = []
    for row in sorted(rows, key=lambda r: r["id"]):
        path = row["file"]
        if path not in parsed:
            parsed[path] = cli.lines("parse", "--positions", path)
        game = dict(parsed[path][row["game_index"]])
        game["id"] = row["id"]
        games.append(game)
    return games
