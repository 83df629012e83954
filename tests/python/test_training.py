"""The hcpe and PackedSfenValue files of `kifudex export --hcpe/--psv`, read back by cshogi:
every record's position, move, evaluation and result equal what `kifudex parse --positions`
says of the same games, record for record and in order."""
import re

import cshogi
import numpy as np
import pytest

from conftest import games_of

FULL_SET = {"p": 18, "l": 4, "n": 4, "s": 4, "g": 4, "b": 2, "r": 2, "k": 2}


def is_full_set(sfen):
    """Whether the position holds the 40 pieces of a set, one king a side (counted from the
    SFEN text here, not asked of kifudex)."""
    board, _, hands = sfen.split()[:3]
    counts = {k: 0 for k in FULL_SET}
    for c in board.replace("+", ""):
        if c.isalpha():
            counts[c.lower()] += 1
    if hands != "-":
        for n, c in re.findall(r"(\d*)([A-Za-z])", hands):
            counts[c.lower()] += int(n or 1)
    kings = (board.count("K"), board.count("k"))
    return counts == FULL_SET and kings == (1, 1)


def score_for(ev, white):
    """The evaluation as both formats write it: the side to move's, values within ±30000,
    mates 32000 less the distance (1000 when unknown)."""
    if ev["value"] is not None:
        v = max(-30000, min(30000, ev["value"]))
    else:
        dist = abs(ev["mate"]) if ev["mate"] is not None else 1000
        sente_mates = (ev["mate"] > 0) if ev["mate"] is not None else ev["mate_for"] == "sente"
        v = (32000 - min(dist, 1000)) * (1 if sente_mates else -1)
    return -v if white else v


def expected(games, played_moves=False, keep_unknown=False, unique=False):
    """What the export should hold, worked out from the parse output alone."""
    out = []
    seen = set()
    for g in games:
        if g["winner"] is None and not keep_unknown:
            continue
        evals = {e["ply"]: e for e in g["evals"]}
        moves, positions = g["moves"], g["positions"]
        # Positions from the illegal move's on are left out (its ply counts moves from 1).
        last = g["illegal"]["ply"] - 1 if g["illegal"] else len(moves)
        for ply in range(last + 1):
            played = moves[ply] if ply < len(moves) and ply < last else None
            ev = evals.get(ply)
            best = None if played_moves or ev is None else ev["best"]
            move = best or played
            sfen = positions[ply]
            if move is None or not is_full_set(sfen):
                continue
            key = " ".join(sfen.split()[:3])
            if unique:
                if key in seen:
                    continue
                seen.add(key)
            white = sfen.split()[1] == "w"
            out.append({
                "game": g["id"], "ply": ply, "sfen": key, "move": move,
                "move_number": int(sfen.split()[3]),
                "eval": score_for(ev, white) if ev else 0,
                "winner": g["winner"], "white": white,
            })
    return out


def board_sfen(board):
    return " ".join(board.sfen().split()[:3])


def check_hcpe(path, want):
    recs = np.fromfile(path, dtype=cshogi.HuffmanCodedPosAndEval)
    assert len(recs) == len(want)
    board = cshogi.Board()
    for r, w in zip(recs, want):
        board.set_hcp(r["hcp"])
        where = f"game {w['game']} ply {w['ply']}"
        assert board_sfen(board) == w["sfen"], where
        mv = board.move_from_move16(int(r["bestMove16"]) & 0xFFFF)
        assert cshogi.move_to_usi(mv) == w["move"], where
        assert board.is_legal(mv), where
        assert int(r["eval"]) == w["eval"], where
        assert int(r["gameResult"]) == {"sente": cshogi.BLACK_WIN, "gote": cshogi.WHITE_WIN,
                                        "draw": cshogi.DRAW, None: cshogi.DRAW}[w["winner"]], where
        assert int(r["dummy"]) == 0


def check_psv(path, want):
    recs = np.fromfile(path, dtype=cshogi.PackedSfenValue)
    assert len(recs) == len(want)
    board = cshogi.Board()
    for r, w in zip(recs, want):
        board.set_psfen(r["sfen"])
        where = f"game {w['game']} ply {w['ply']}"
        assert board_sfen(board) == w["sfen"], where
        mv = board.move_from_move16(cshogi.move16_from_psv(int(r["move"])))
        assert cshogi.move_to_usi(mv) == w["move"], where
        assert int(r["score"]) == w["eval"], where
        assert int(r["gamePly"]) == w["move_number"], where
        side_won = {"sente": not w["white"], "gote": w["white"]}.get(w["winner"])
        assert int(r["game_result"]) == {True: 1, False: -1, None: 0}[side_won], where
        assert int(r["padding"]) == 0


def test_hcpe_of_the_sample_games_reads_back_in_cshogi(cli, sample_db, sample_games, tmp_path):
    out = tmp_path / "all.hcpe"
    cli.run("export", "--hcpe", out, "--keep-unknown-results", db=sample_db)
    want = expected(sample_games, keep_unknown=True)
    assert len(want) > 10000
    check_hcpe(out, want)


def test_psv_of_the_sample_games_reads_back_in_cshogi(cli, sample_db, sample_games, tmp_path):
    out = tmp_path / "all.psv"
    report = cli.lines("export", "--psv", out, "--json", db=sample_db)[0]
    want = expected(sample_games)
    assert report["records"] == len(want)
    assert report["games_without_result"] == sum(1 for g in sample_games if g["winner"] is None)
    check_psv(out, want)


def test_unique_positions_and_the_filter(cli, sample_db, sample_games, tmp_path):
    out = tmp_path / "sente.hcpe"
    cli.run("export", "--hcpe", out, "--winner", "sente", "--unique", "--played-moves",
            db=sample_db)
    won = [g for g in sample_games if g["winner"] == "sente"]
    want = expected(won, played_moves=True, unique=True)
    assert len(want) < len(expected(won, played_moves=True))
    check_hcpe(out, want)


def test_the_ply_range_and_the_split(cli, sample_db, sample_games, tmp_path):
    train, test = tmp_path / "train.psv", tmp_path / "test.psv"
    report = cli.lines("export", "--psv", train, "--min-ply", 30, "--max-ply", 40,
                       "--test-fraction", "0.25", "--test-out", test, "--json", db=sample_db)[0]
    recs = [np.fromfile(p, dtype=cshogi.PackedSfenValue) for p in (train, test)]
    assert (len(recs[0]), len(recs[1])) == (report["records"], report["test_records"])
    assert report["test_records"] > 0 and report["records"] > 2 * report["test_records"]
    want = [w for w in expected(sample_games) if 30 <= w["ply"] <= 40]
    board = cshogi.Board()
    got = [[], []]
    for part, rs in enumerate(recs):
        for r in rs:
            board.set_psfen(r["sfen"])
            mv = board.move_from_move16(cshogi.move16_from_psv(int(r["move"])))
            got[part].append((board_sfen(board), cshogi.move_to_usi(mv)))
    # Each game's records, in order, are all in one file or all in the other.
    at = [0, 0]
    games = {}
    for w in want:
        games.setdefault(w["game"], []).append((w["sfen"], w["move"]))
    for game, records in games.items():
        n = len(records)
        part = next((p for p in (0, 1) if got[p][at[p]:at[p] + n] == records), None)
        assert part is not None, f"game {game}"
        at[part] += n
    assert at == [len(got[0]), len(got[1])]


def test_a_shuffle_keeps_the_records_and_repeats_with_its_seed(cli, sample_db, tmp_path):
    plain, a, b = (tmp_path / n for n in ("plain.hcpe", "a.hcpe", "b.hcpe"))
    cli.run("export", "--hcpe", plain, db=sample_db)
    cli.run("export", "--hcpe", a, "--shuffle", 7, db=sample_db)
    cli.run("export", "--hcpe", b, "--shuffle", 7, db=sample_db)
    p, x, y = (np.fromfile(f, dtype=np.dtype((np.void, 38))) for f in (plain, a, b))
    assert x.tobytes() == y.tobytes()
    assert x.tobytes() != p.tobytes()
    assert sorted(r.tobytes() for r in x) == sorted(r.tobytes() for r in p)


ENGINE_GAME = """V2.2
N+Alice
N-Bob
PI
+
+7776FU
'** 50 -3334FU +2726FU
-3334FU
'** 40 +2726FU
+8822UM
'** 900 -3122GI
-3122GI
'** -31999 +3948GI
%TORYO
"""


def test_evaluations_and_engine_moves_from_the_records(cli, tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "engine.csa").write_text(ENGINE_GAME)
    db = tmp_path / "db"
    cli.run("import", tmp_path / "games", db=db)
    rows = [r for r in cli.lines("search", "--json", db=db) if "id" in r]
    games = games_of(cli, rows)
    for fmt, check in (("--hcpe", check_hcpe), ("--psv", check_psv)):
        out = tmp_path / f"engine{fmt}"
        report = cli.lines("export", fmt, out, "--json", db=db)[0]
        want = expected(games)
        assert [w["move"] for w in want] == ["7g7f", "3c3d", "2g2f", "3a2b", "3i4h"]
        assert [w["eval"] for w in want] == [0, -50, 40, -900, -30000]
        assert (report["evaluated"], report["engine_moves"]) == (4, 2)
        check(out, want)


def test_refusals_say_why_and_write_nothing(cli, sample_db, tmp_path):
    out = tmp_path / "x.hcpe"
    out.write_bytes(b"keep")
    done = cli.run("export", "--hcpe", out, db=sample_db, check=False)
    assert done.returncode != 0
    assert done.stderr.strip() == f"kifudex: {out} exists: give --force to write into it"
    assert out.read_bytes() == b"keep"
    done = cli.run("export", "--psv", tmp_path / "y.psv", "--min-ply", 50, "--max-ply", 40,
                   db=sample_db, check=False)
    assert done.stderr.strip() == "kifudex: --max-ply 40 is before --min-ply 50: no position is in the range"
    done = cli.run("export", "--hcpe", tmp_path / "z.hcpe", "--player", "nobody at all",
                   db=sample_db, check=False)
    assert done.stderr.strip() == "kifudex: no game matches: nothing written"
    assert not (tmp_path / "y.psv").exists() and not (tmp_path / "z.hcpe").exists()
    done = cli.run("export", "--to", "kif", "--out", tmp_path / "kif", "--unique",
                   db=sample_db, check=False)
    assert done.stderr.strip() == ("kifudex: --unique is an option of the training records: "
                                   "give --hcpe or --psv")
    assert [p.name for p in tmp_path.iterdir()] == ["x.hcpe"]
