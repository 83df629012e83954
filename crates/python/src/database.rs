//! `kifudex.Database`: the command line's queries over a database, the game filter given as
//! keyword arguments named as the API names them (`min_plies=80`), the answers as the rows
//! the command line prints with `--json`.

use std::path::PathBuf;

use kifudex_db::export::train::{Split, TrainFormat, TrainOptions, write_training};
use kifudex_db::query::{
    Field, GameFilter, OpeningsBy, PositionOptions, PositionQuery, QueryError as DbQueryError,
    SortBy, Words, find_games, open_and_search, openings, parse_position, players, search,
    text_words, tree_filtered,
};
use kifudex_db::store::Store;
use kifudex_db::text::SearchOptions;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde::Serialize;

use crate::convert::to_py;
use crate::{KifudexError, QueryError};

/// A kifudex database (the folder `kifudex import` made), open to read.
///
/// The store keeps caches that are not shared between threads (the position index, replayed
/// games): the object stays on the thread that made it, and its queries (milliseconds) hold
/// the GIL. The training export opens the database again on its own worker threads and runs
/// without the GIL.
#[pyclass(frozen, unsendable, module = "kifudex")]
pub struct Database {
    store: Store,
    path: PathBuf,
}

/// A query's error as Python's: the filter's in the API's words (`since="20x" is no date`),
/// the others as the command line words them.
fn query_error(e: DbQueryError) -> PyErr {
    match e {
        DbQueryError::Filter(f) => QueryError::new_err(f.describe(Words::Api)),
        e => QueryError::new_err(e.to_string()),
    }
}

/// The game filter of keyword arguments: each a field of the filter as the API names it,
/// its value as the command line takes it (a number or a string).
fn filter_of(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<GameFilter> {
    let mut f = GameFilter::default();
    let Some(kwargs) = kwargs else {
        return Ok(f);
    };
    for (k, v) in kwargs.iter() {
        let key: String = k.extract()?;
        let Some(field) = Field::from_param(&key) else {
            let known: Vec<&str> = kifudex_db::query::FIELDS.iter().map(|d| d.param).collect();
            return Err(PyTypeError::new_err(format!(
                "unexpected keyword argument '{key}': the game filter's are {}",
                known.join(", ")
            )));
        };
        if v.is_none() {
            continue;
        }
        let value: String = v.str()?.extract()?;
        f.set(field, &value)
            .map_err(|e| QueryError::new_err(e.describe(Words::Api)))?;
    }
    Ok(f)
}

/// The filter read and checked as a whole.
fn checked(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<GameFilter> {
    let f = filter_of(kwargs)?;
    f.check()
        .map_err(|e| QueryError::new_err(e.describe(Words::Api)))?;
    Ok(f)
}

/// The rows as the command line prints them with `--json`, read by Python's own `json`: the
/// same numbers to the last digit (a 32-bit score, a share).
fn rows<'py, T: Serialize>(py: Python<'py>, rows: &[T]) -> PyResult<Bound<'py, PyList>> {
    let text = serde_json::to_string(rows).map_err(|e| KifudexError::new_err(e.to_string()))?;
    let list = py.import("json")?.call_method1("loads", (text,))?;
    Ok(list.cast_into::<PyList>()?)
}

impl Database {
    /// Runs `f` on the store, its error made Python's.
    fn with_store<T>(
        &self,
        _py: Python<'_>,
        f: impl FnOnce(&Store) -> Result<T, DbQueryError>,
    ) -> PyResult<T> {
        f(&self.store).map_err(query_error)
    }
}

fn position_options(
    ignore_hands: bool,
    either_side: bool,
    mirror: bool,
    flip: bool,
) -> PositionOptions {
    PositionOptions {
        ignore_hands,
        either_side,
        mirror,
        flip,
    }
}

#[pymethods]
impl Database {
    #[new]
    fn new(path: PathBuf) -> PyResult<Database> {
        let store =
            Store::open_read_only(&path).map_err(|e| KifudexError::new_err(e.to_string()))?;
        Ok(Database { store, path })
    }

    /// The database's folder.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// Games by their headers, newest first (`kifudex search`).
    #[pyo3(signature = (*, limit=50, **filter))]
    fn search<'py>(
        &self,
        py: Python<'py>,
        limit: usize,
        filter: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let f = checked(filter)?;
        let found = self.with_store(py, |s| search(s, &f, Some(limit)))?;
        rows(py, &found.rows)
    }

    /// The games reaching a position (`kifudex position`): `pos` an SFEN, `startpos [moves
    /// ...]`, `sfen ...` or `position ...`; `sort` date, plies or ply.
    #[pyo3(signature = (pos, *, limit=50, sort="date", reverse=false, ignore_hands=false,
        either_side=false, mirror=false, flip=false, **filter))]
    #[allow(clippy::too_many_arguments)]
    fn position<'py>(
        &self,
        py: Python<'py>,
        pos: &str,
        limit: usize,
        sort: &str,
        reverse: bool,
        ignore_hands: bool,
        either_side: bool,
        mirror: bool,
        flip: bool,
        filter: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let position = parse_position(pos).map_err(query_error)?;
        let sort = match sort {
            "date" => SortBy::Date,
            "plies" => SortBy::Plies,
            "ply" => SortBy::Ply,
            other => {
                return Err(QueryError::new_err(format!(
                    "sort={other:?}: give date, plies or ply"
                )));
            }
        };
        let q = PositionQuery {
            options: position_options(ignore_hands, either_side, mirror, flip),
            filter: checked(filter)?,
            sort,
            reverse,
            limit,
        };
        let found = self.with_store(py, |s| find_games(s, &position, &q))?;
        rows(py, &found.rows)
    }

    /// The moves played from a position, with their games and results (`kifudex tree`).
    #[pyo3(signature = (pos, *, ignore_hands=false, either_side=false, mirror=false,
        flip=false, **filter))]
    #[allow(clippy::too_many_arguments)]
    fn tree<'py>(
        &self,
        py: Python<'py>,
        pos: &str,
        ignore_hands: bool,
        either_side: bool,
        mirror: bool,
        flip: bool,
        filter: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let position = parse_position(pos).map_err(query_error)?;
        let f = checked(filter)?;
        let o = position_options(ignore_hands, either_side, mirror, flip);
        let t = self.with_store(py, |s| tree_filtered(s, &position, o, &f))?;
        rows(py, &t.rows)
    }

    /// Full-text search of comments, headers and names (`kifudex text`).
    #[pyo3(signature = (query, *, limit=20, engine=false, **filter))]
    fn text<'py>(
        &self,
        py: Python<'py>,
        query: &str,
        limit: usize,
        engine: bool,
        filter: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let mut f = checked(filter)?;
        let query = text_words(query, &mut f).map_err(query_error)?;
        let options = SearchOptions {
            query,
            limit,
            engine,
            games: None,
            players: None,
        };
        let (hits, _) = self.with_store(py, |s| open_and_search(s, &options, &f))?;
        rows(py, &hits)
    }

    /// Players with their results by side, dates and openings (`kifudex players`).
    #[pyo3(signature = (name=None, *, limit=50, **filter))]
    fn players<'py>(
        &self,
        py: Python<'py>,
        name: Option<&str>,
        limit: usize,
        filter: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let f = filter_of(filter)?;
        let found = self.with_store(py, |s| players(s, &f, name))?;
        rows(py, &found[..found.len().min(limit)])
    }

    /// Games, results and score per opening, strategy and castle (`kifudex openings`);
    /// `by="year"` for the trends, `pairs=True` per pairing of the sides' strategies.
    #[pyo3(signature = (*, by=None, pairs=false, **filter))]
    fn openings<'py>(
        &self,
        py: Python<'py>,
        by: Option<&str>,
        pairs: bool,
        filter: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let by = match (by, pairs) {
            (Some("year"), _) => OpeningsBy::Year,
            (Some(other), _) => {
                return Err(QueryError::new_err(format!("by={other:?}: give \"year\"")));
            }
            (None, true) => OpeningsBy::Pair,
            (None, false) => OpeningsBy::Name,
        };
        let f = checked(filter)?;
        let found = self.with_store(py, |s| openings(s, &f, by))?;
        rows(py, &found)
    }

    /// Writes training records of the selected games (`kifudex export --hcpe/--psv`) and
    /// returns the export's report.
    #[pyo3(signature = (path, *, format="hcpe", min_ply=0, max_ply=None, skip_check=false,
        unique=false, min_games=1, evaluated_only=false, played_moves=false,
        keep_unknown_results=false, shuffle=None, test_fraction=None, test_out=None,
        split_seed=0, force=false, **filter))]
    #[allow(clippy::too_many_arguments)]
    fn export_training<'py>(
        &self,
        py: Python<'py>,
        path: PathBuf,
        format: &str,
        min_ply: u32,
        max_ply: Option<u32>,
        skip_check: bool,
        unique: bool,
        min_games: u32,
        evaluated_only: bool,
        played_moves: bool,
        keep_unknown_results: bool,
        shuffle: Option<u64>,
        test_fraction: Option<f64>,
        test_out: Option<PathBuf>,
        split_seed: u64,
        force: bool,
        filter: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let format = match format {
            "hcpe" => TrainFormat::Hcpe,
            "psv" => TrainFormat::Psv,
            other => {
                return Err(QueryError::new_err(format!(
                    "format={other:?}: give \"hcpe\" or \"psv\""
                )));
            }
        };
        let split = match (test_fraction, test_out) {
            (Some(fraction), Some(out)) if (0.0..=1.0).contains(&fraction) => Some(Split {
                fraction,
                seed: split_seed,
                out,
            }),
            (None, None) => None,
            _ => {
                return Err(QueryError::new_err(
                    "test_fraction (from 0 to 1) and test_out go together",
                ));
            }
        };
        let opts = TrainOptions {
            force,
            min_ply,
            max_ply,
            skip_check,
            unique,
            min_games: min_games.max(1),
            evaluated_only,
            played_moves,
            keep_unknown_results,
            shuffle,
            split,
            ..TrainOptions::new(format, path)
        };
        let f = checked(filter)?;
        let path = self.path.clone();
        let report = py.detach(move || {
            let store = Store::open_read_only(&path).map_err(|e| e.to_string())?;
            let ids: Vec<i64> = f
                .selection(&store)
                .and_then(|sel| Ok(store.select_games(&sel, None)?.ids().collect()))
                .map_err(|e| match e {
                    DbQueryError::Filter(f) => f.describe(Words::Api),
                    e => e.to_string(),
                })?;
            write_training(&store, &ids, &opts, |_| {}).map_err(|e| e.to_string())
        });
        let report = report.map_err(KifudexError::new_err)?;
        let v = serde_json::to_value(&report).map_err(|e| KifudexError::new_err(e.to_string()))?;
        to_py(py, &v)
    }

    fn __repr__(&self) -> String {
        format!("<kifudex.Database {}>", self.path.display())
    }
}
