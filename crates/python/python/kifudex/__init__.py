"""kifudex for Python: read shogi records (KIF, KIF2, CSA, JKF, USI, PSN, any encoding),
query kifudex databases, and write the training data engines learn from.

    >>> import kifudex
    >>> games = kifudex.read("game.kif")
    >>> db = kifudex.Database("kifudex-db")
    >>> db.search(player="藤井", since="2020", limit=5)

Every query returns a list of dicts (the rows `kifudex ... --json` prints); give
``output="pandas"`` or ``output="arrow"`` for a DataFrame or an Arrow table (pandas and
pyarrow are optional: only that call needs them).
"""
from __future__ import annotations

from . import _native
from ._native import Game, KifudexError, QueryError, ReadError, read, read_many

__all__ = [
    "Database",
    "Game",
    "KifudexError",
    "QueryError",
    "ReadError",
    "read",
    "read_many",
]


def _as(rows, output):
    """The rows as asked: a list of dicts, a pandas DataFrame or an Arrow table."""
    if output is None or output == "dicts":
        return rows
    if output == "pandas":
        import pandas

        return pandas.DataFrame.from_records(rows)
    if output == "arrow":
        import pyarrow

        return pyarrow.Table.from_pylist(rows)
    raise ValueError(f'output={output!r}: give "dicts", "pandas" or "arrow"')


class Database:
    """A kifudex database (the folder ``kifudex import`` made), open to read.

    The game filter is given as keyword arguments named as the API names its fields
    (``player``, ``as``, ``sente``, ``gote``, ``vs``, ``event``, ``opening``,
    ``opening_from``, ``castle``, ``strategy``, ``since``, ``until``, ``winner``,
    ``handicap``, ``min_plies``, ``max_plies``, ``terminal``, ``source``, ``text``), with the
    values the command line takes. ``as`` is a Python keyword: pass it as ``**{"as": "sente"}``.
    """

    def __init__(self, path):
        self._db = _native.Database(path)

    @property
    def path(self):
        return self._db.path

    def __repr__(self):
        return repr(self._db)

    def search(self, *, limit=50, output=None, **filter):
        """Games by their headers, newest first (``kifudex search``)."""
        return _as(self._db.search(limit=limit, **filter), output)

    def position(self, pos, *, limit=50, sort="date", reverse=False, ignore_hands=False,
                 either_side=False, mirror=False, flip=False, output=None, **filter):
        """The games reaching a position (``kifudex position``)."""
        rows = self._db.position(pos, limit=limit, sort=sort, reverse=reverse,
                                 ignore_hands=ignore_hands, either_side=either_side,
                                 mirror=mirror, flip=flip, **filter)
        return _as(rows, output)

    def tree(self, pos, *, ignore_hands=False, either_side=False, mirror=False, flip=False,
             output=None, **filter):
        """The moves played from a position, with games and results (``kifudex tree``)."""
        rows = self._db.tree(pos, ignore_hands=ignore_hands, either_side=either_side,
                             mirror=mirror, flip=flip, **filter)
        return _as(rows, output)

    def text(self, query, *, limit=20, engine=False, output=None, **filter):
        """Full-text search of comments, headers and names (``kifudex text``)."""
        return _as(self._db.text(query, limit=limit, engine=engine, **filter), output)

    def players(self, name=None, *, limit=50, output=None, **filter):
        """Players with their results, dates and openings (``kifudex players``)."""
        return _as(self._db.players(name, limit=limit, **filter), output)

    def openings(self, *, by=None, pairs=False, output=None, **filter):
        """Games, results and score per opening, strategy and castle (``kifudex openings``)."""
        return _as(self._db.openings(by=by, pairs=pairs, **filter), output)

    def export_hcpe(self, path, **options):
        """Writes dlshogi's hcpe records of the selected games (``kifudex export --hcpe``);
        returns the export's report. Options as ``export_training``'s."""
        return self._db.export_training(path, format="hcpe", **options)

    def export_psv(self, path, **options):
        """Writes YaneuraOu's PackedSfenValue records (``kifudex export --psv``)."""
        return self._db.export_training(path, format="psv", **options)

    def export_training(self, path, *, format="hcpe", **options):
        """Writes training records: ``format`` "hcpe" or "psv"; the options of
        ``kifudex export`` (``min_ply``, ``max_ply``, ``skip_check``, ``unique``,
        ``min_games``, ``evaluated_only``, ``played_moves``, ``keep_unknown_results``,
        ``shuffle``, ``test_fraction``, ``test_out``, ``split_seed``, ``force``) and the game
        filter."""
        return self._db.export_training(path, format=format, **options)
