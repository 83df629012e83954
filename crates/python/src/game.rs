//! `kifudex.read`, `kifudex.read_many` and the games they give.

use std::path::{Path, PathBuf};

use kifudex_db::game_json;
use kifudex_notation::{Format, ReadFile, Record, read_bytes};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use rayon::prelude::*;

use crate::ReadError;
use crate::convert::to_py;

/// One game of a record file.
#[pyclass(frozen, module = "kifudex")]
pub struct Game {
    record: Record,
    file: Option<String>,
    game_index: usize,
    format: Option<&'static str>,
    encoding: &'static str,
}

#[pymethods]
impl Game {
    /// The path the game was read from (None for bytes).
    #[getter]
    fn file(&self) -> Option<&str> {
        self.file.as_deref()
    }

    /// The game's place in its file, from 0.
    #[getter]
    fn game_index(&self) -> usize {
        self.game_index
    }

    /// The file's format: kif, ki2, csa, jkf, usi or psn.
    #[getter]
    fn format(&self) -> Option<&str> {
        self.format
    }

    /// The file's encoding as read (utf-8, shift_jis, euc-jp ...).
    #[getter]
    fn encoding(&self) -> &str {
        self.encoding
    }

    /// Every header (a key written twice: its later value, in its first place).
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &game_json::headers(&self.record))
    }

    /// Every header as written, as (key, value) pairs (a key may repeat).
    #[getter]
    fn header_list(&self) -> Vec<(String, String)> {
        self.record.headers.clone()
    }

    #[getter]
    fn sente(&self) -> Option<String> {
        self.record.sente().map(str::to_string)
    }

    #[getter]
    fn gote(&self) -> Option<String> {
        self.record.gote().map(str::to_string)
    }

    #[getter]
    fn event(&self) -> Option<String> {
        self.record.event().map(str::to_string)
    }

    /// The opening (戦型) the headers name.
    #[getter]
    fn opening(&self) -> Option<String> {
        self.record.opening().map(str::to_string)
    }

    /// The handicap by its KIF name (平手 for an even game).
    #[getter]
    fn handicap(&self) -> String {
        self.record.handicap().kif_name().to_string()
    }

    /// The start position's SFEN.
    #[getter]
    fn start_sfen(&self) -> String {
        self.record.start.to_sfen()
    }

    /// The main line's moves in USI.
    #[getter]
    fn moves(&self) -> Vec<String> {
        game_json::moves(&self.record)
    }

    /// The number of moves of the main line.
    #[getter]
    fn plies(&self) -> usize {
        self.record.main.moves.len()
    }

    /// How the game ended (resign, repetition, ...), when the record says.
    #[getter]
    fn terminal(&self) -> Option<&'static str> {
        self.record.terminal().map(|t| t.code())
    }

    /// sente, gote, draw, or None.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.record.result().code()
    }

    /// The comments: dicts of `ply` (0 the start, N after the N-th move) and `text`.
    #[getter]
    fn comments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &game_json::comments(&self.record))
    }

    /// The evaluations of the engine comments, as `kifudex parse` gives them: `ply`, `value`
    /// and `mate` from sente's side, `depth`, `source` and `best` (the engine's move, USI).
    #[getter]
    fn evaluations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &game_json::evals(&self.record))
    }

    /// The opening, strategies and castles recognised from the moves.
    #[getter]
    fn recognised<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &game_json::recognised(&self.record))
    }

    /// The errors met reading the game: dicts of `line`, `column` and `message`.
    #[getter]
    fn errors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &game_json::problems(&self.record, false))
    }

    /// The warnings met reading the game, as `errors`.
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &game_json::problems(&self.record, true))
    }

    /// The first illegal move of the main line: a dict of `ply` and `rule`, or None.
    #[getter]
    fn illegal<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &game_json::illegal(&self.record))
    }

    /// Whether the main line stops at a move that could not be played.
    #[getter]
    fn incomplete(&self) -> bool {
        self.record.incomplete
    }

    /// The SFEN after `ply` moves of the main line (the last position when None).
    #[pyo3(signature = (ply=None))]
    fn sfen(&self, ply: Option<usize>) -> PyResult<String> {
        let len = self.record.main.moves.len();
        let ply = ply.unwrap_or(len);
        game_json::sfen_at(&self.record, ply).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!("ply {ply}: the game has {len} moves"))
        })
    }

    /// The SFEN of every main-line position, the start first.
    fn positions(&self) -> Vec<String> {
        game_json::sfens(&self.record)
    }

    /// Everything as one dict: the object `kifudex parse --positions` prints for the game,
    /// with `comments` the comments themselves (as the `comments` field gives them) and
    /// `comment_count` their number (parse's `comments`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut map = serde_json::Map::new();
        map.insert("file".into(), self.file.as_deref().into());
        map.insert("game_index".into(), self.game_index.into());
        map.insert("format".into(), self.format.into());
        map.insert("encoding".into(), self.encoding.into());
        if let serde_json::Value::Object(game) = game_json::game(&self.record, true) {
            map.extend(game);
        }
        // A game that was read has no error: a file that cannot be read raises instead.
        map.shift_remove("error");
        let count = map.insert("comments".into(), game_json::comments(&self.record));
        map.insert("comment_count".into(), count.unwrap_or_default());
        to_py(py, &serde_json::Value::Object(map))
    }

    fn __repr__(&self) -> String {
        format!(
            "<kifudex.Game {} vs {}, {} moves>",
            self.record.sente().unwrap_or("?"),
            self.record.gote().unwrap_or("?"),
            self.record.main.moves.len()
        )
    }
}

/// The games of a read file, or the error the command line prints for it.
fn games_of(read: ReadFile, shown: Option<&str>) -> Result<Vec<Game>, String> {
    if let Some(e) = read.error {
        return Err(match shown {
            Some(s) => format!("{s}: {e}"),
            None => e,
        });
    }
    let format = read.format.map(Format::name);
    let encoding = read.encoding.name();
    Ok(read
        .games
        .into_iter()
        .enumerate()
        .map(|(i, record)| Game {
            record,
            file: shown.map(str::to_string),
            game_index: i,
            format,
            encoding,
        })
        .collect())
}

/// A path to guess the format from when the content does not tell: the file's own, else
/// one with the asked format's extension.
fn hint(path: Option<&Path>, format: Option<&str>) -> PyResult<Option<PathBuf>> {
    match format {
        None => Ok(path.map(Path::to_path_buf)),
        Some(f) => {
            if Format::from_name(f).is_none() {
                return Err(ReadError::new_err(format!(
                    "unknown format '{f}': kif, kifu, ki2, csa, jkf, usi or psn"
                )));
            }
            Ok(Some(PathBuf::from(format!("record.{f}"))))
        }
    }
}

fn read_path(path: &Path, hint: Option<&Path>) -> Result<Vec<Game>, String> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
    games_of(read_bytes(&bytes, hint), Some(&shown))
}

/// The games of a record file (a path) or of a record's bytes. `format` is a hint for a
/// record whose content does not tell its format (as a file's extension is).
#[pyfunction]
#[pyo3(signature = (source, format=None))]
pub fn read(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
) -> PyResult<Vec<Game>> {
    let result = if let Ok(bytes) = source.cast::<PyBytes>() {
        let bytes = bytes.as_bytes().to_vec();
        let hint = hint(None, format)?;
        py.detach(|| games_of(read_bytes(&bytes, hint.as_deref()), None))
    } else {
        let path: PathBuf = source.extract()?;
        let hint = hint(Some(&path), format)?;
        py.detach(|| read_path(&path, hint.as_deref()))
    };
    result.map_err(ReadError::new_err)
}

/// The games of many record files, read on `jobs` threads (one a core by default) without
/// the GIL: one list of games a path, in the order of `paths`. A file that cannot be read
/// raises ReadError naming it, once every file has been read.
#[pyfunction]
#[pyo3(signature = (paths, jobs=None))]
pub fn read_many<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    jobs: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .map_err(|e| ReadError::new_err(e.to_string()))?;
    let read: Vec<Result<Vec<Game>, String>> =
        py.detach(|| pool.install(|| paths.par_iter().map(|p| read_path(p, Some(p))).collect()));
    let out = PyList::empty(py);
    let mut first_error = None;
    for r in read {
        match r {
            Ok(games) => out.append(games)?,
            Err(e) => {
                first_error.get_or_insert(e);
                out.append(PyList::empty(py))?;
            }
        }
    }
    match first_error {
        Some(e) => Err(ReadError::new_err(e)),
        None => Ok(out),
    }
}
