"""The kifudex Python package, answer for answer against the command line: reading every
format of sample_db/, and each query of a database with its filter."""
import json
from pathlib import Path

import pytest

kifudex = pytest.importorskip("kifudex")

from conftest import ROOT

SAMPLE_FILES = sorted(p for p in (ROOT / "sample_db").rglob("*") if p.is_file() and p.suffix != ".md")

# The fields a Game gives as `kifudex parse --positions` prints them.
FIELDS = ["headers", "sente", "gote", "event", "opening", "handicap", "start_sfen", "moves",
          "terminal", "winner", "incomplete", "illegal", "errors", "warnings", "recognised"]


def test_sample_db_holds_every_format():
    formats = {p.parent.name for p in SAMPLE_FILES}
    assert {"csa", "jkf", "psn", "usi", "kif-sjis", "ki2u-utf8"} <= formats


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_read_gives_what_parse_prints(cli, path):
    want = cli.lines("parse", "--positions", path)
    games = kifudex.read(path)
    assert len(games) == len(want)
    for g, w in zip(games, want):
        for field in FIELDS:
            assert getattr(g, field) == w[field], field
        assert g.format == w["format"] and g.encoding == w["encoding"]
        assert g.evaluations == w["evals"]
        assert g.positions() == w["positions"]
        assert [g.sfen(i) for i in range(g.plies + 1)] == w["positions"]
        assert g.sfen() == w["positions"][-1]
        assert len(g.comments) == w["comments"]
        assert g.file == str(path)
        d = g.to_dict()
        assert {k: d[k] for k in FIELDS} == {k: w[k] for k in FIELDS}


def test_bytes_and_paths_read_alike_and_read_many_keeps_the_order():
    paths = SAMPLE_FILES[:40]
    many = kifudex.read_many(paths, jobs=2)
    assert len(many) == len(paths)
    for path, games in zip(paths, many):
        one = kifudex.read(path)
        from_bytes = kifudex.read(path.read_bytes(), format=None)
        assert [g.to_dict() for g in games] == [g.to_dict() for g in one]
        assert [g.moves for g in from_bytes] == [g.moves for g in one]
        assert all(g.file is None for g in from_bytes)


def test_sfen_past_the_last_move_is_an_index_error():
    g = kifudex.read(b"position startpos moves 7g7f 3c3d\n")[0]
    assert g.plies == 2
    assert g.sfen(1) == "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
    with pytest.raises(IndexError, match="ply 3: the game has 2 moves"):
        g.sfen(3)


def test_errors_and_warnings_carry_their_lines(cli, tmp_path):
    path = tmp_path / "broken.kif"
    path.write_text("手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n"
                    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ９九飛(28)\n   4 投了\n", encoding="utf-8")
    want = cli.run("parse", path, check=False).stdout
    want = json.loads(want.splitlines()[0])
    g = kifudex.read(path)[0]
    assert g.errors == want["errors"]
    assert g.warnings == want["warnings"]
    assert g.errors and all(e["line"] >= 5 for e in g.errors)


def test_a_file_that_is_no_record_raises_read_error_with_the_cli_message(cli, tmp_path):
    path = tmp_path / "junk.bin"
    path.write_bytes(bytes(range(256)) * 4)
    want = json.loads(cli.run("parse", path, check=False).stdout.splitlines()[0])
    assert want["error"]
    with pytest.raises(kifudex.ReadError) as e:
        kifudex.read(path)
    assert str(e.value) == f"{path}: {want['error']}"
    with pytest.raises(kifudex.ReadError):
        kifudex.read_many([SAMPLE_FILES[0], path])
    with pytest.raises(kifudex.ReadError, match="unknown format 'xyz'"):
        kifudex.read(b"", format="xyz")


@pytest.fixture(scope="module")
def db(sample_db):
    return kifudex.Database(sample_db)


def rows_only(lines):
    return [r for r in lines if "total" not in r]


# One query of each kind, each with a filter: the Python keyword arguments and the CLI flags.
QUERIES = [
    ("search", [], {"since": "2000", "winner": "sente", "limit": 1000},
     ["--since", "2000", "--winner", "sente", "--limit", "1000"]),
    ("search", [], {"min_plies": 100, "max_plies": 150, "limit": 1000},
     ["--min-plies", "100", "--max-plies", "150", "--limit", "1000"]),
    ("position", ["startpos moves 7g7f 3c3d"], {"winner": "gote", "limit": 1000},
     ["--winner", "gote", "--limit", "1000"]),
    ("position", ["startpos moves 2g2f"], {"sort": "plies", "limit": 7},
     ["--sort", "plies", "--limit", "7"]),
    ("tree", ["startpos"], {"since": "1990"}, ["--since", "1990"]),
    ("tree", ["startpos moves 7g7f"], {"handicap": "平手", "either_side": True},
     ["--handicap", "平手", "--either-side"]),
    ("players", [], {"min_plies": 60, "limit": 20}, ["--min-plies", "60", "--limit", "20"]),
    ("openings", [], {"until": "2020"}, ["--until", "2020"]),
    ("openings", [], {"by": "year"}, ["--by", "year"]),
]


@pytest.mark.parametrize("method,args,kwargs,flags", QUERIES,
                         ids=[f"{q[0]}-{i}" for i, q in enumerate(QUERIES)])
def test_database_queries_answer_as_the_cli(cli, sample_db, db, method, args, kwargs, flags):
    got = getattr(db, method)(*args, **kwargs)
    want = rows_only(cli.lines(method, *args, *flags, "--json", db=sample_db))
    assert got == want
    assert got, "a query that finds nothing proves little"


def test_text_search_answers_as_the_cli(cli, sample_db, db):
    want = cli.lines("text", "kifudex", "--json", db=sample_db)
    assert db.text("kifudex") == want
    assert db.text("kifudex", limit=1) == want[:1]


def test_a_filter_error_is_the_cli_message_in_python_words(cli, sample_db, db):
    err = cli.run("search", "--since", "20x", db=sample_db, check=False).stderr.strip()
    with pytest.raises(kifudex.QueryError) as e:
        db.search(since="20x")
    assert err == "kifudex: " + str(e.value).replace('since="20x"', '--since "20x"')
    with pytest.raises(TypeError, match="unexpected keyword argument 'sincee'"):
        db.search(sincee="2020")
    with pytest.raises(kifudex.QueryError):
        db.position("startpos moves 7g7e")


def test_pandas_and_arrow_tables_hold_the_same_rows(db):
    pandas = pytest.importorskip("pandas")
    pyarrow = pytest.importorskip("pyarrow")
    rows = db.search(limit=30)
    frame = db.search(limit=30, output="pandas")
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame["id"]) == [r["id"] for r in rows]
    table = db.tree("startpos", output="arrow")
    assert isinstance(table, pyarrow.Table)
    assert table.to_pylist() == db.tree("startpos")
    with pytest.raises(ValueError):
        db.search(output="excel")


def test_export_from_python_writes_the_cli_bytes(cli, sample_db, db, tmp_path):
    a, b = tmp_path / "py.hcpe", tmp_path / "cli.hcpe"
    report = db.export_hcpe(a, since="2000", unique=True)
    cli.run("export", "--hcpe", b, "--since", "2000", "--unique", db=sample_db)
    assert a.read_bytes() == b.read_bytes()
    assert report["records"] * 38 == len(a.read_bytes()) > 0
    c = tmp_path / "py.psv"
    db.export_psv(c, min_ply=10, max_ply=20)
    d = tmp_path / "cli.psv"
    cli.run("export", "--psv", d, "--min-ply", 10, "--max-ply", 20, db=sample_db)
    assert c.read_bytes() == d.read_bytes()


def test_the_type_stubs_name_what_the_module_has():
    import ast

    stub = ast.parse((ROOT / "crates/python/python/kifudex/__init__.pyi").read_text())
    declared = {}
    functions = set()
    for node in stub.body:
        if isinstance(node, ast.ClassDef):
            declared[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        elif isinstance(node, ast.FunctionDef):
            functions.add(node.name)
    assert functions == {"read", "read_many"}
    assert set(declared) == {"KifudexError", "ReadError", "QueryError", "Game", "Database"}
    for name, members in declared.items():
        cls = getattr(kifudex, name)
        public = {m for m in dir(cls) if not m.startswith("_")} - set(dir(Exception))
        assert members - {"__init__"} == public, name
