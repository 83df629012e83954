//! kifudex for Python: the `kifudex._native` extension module that the `kifudex` package
//! (python/kifudex) wraps. Records are read, and databases queried, by the same code as the
//! command line's, with the GIL released while kifudex works.
//!
//! The bindings are built only with the `python` feature (maturin turns it on): without it
//! the crate is empty, so that `cargo test` and `cargo clippy` at the workspace root need no
//! Python. A game's fields are shaped by `kifudex_db::game_json`, as `kifudex parse` prints
//! them.

#[cfg(feature = "python")]
mod convert;
#[cfg(feature = "python")]
mod database;
#[cfg(feature = "python")]
mod game;

#[cfg(feature = "python")]
pyo3::create_exception!(
    kifudex,
    KifudexError,
    pyo3::exceptions::PyException,
    "What kifudex refuses: the message is the command line's."
);
#[cfg(feature = "python")]
pyo3::create_exception!(
    kifudex,
    ReadError,
    KifudexError,
    "A file that cannot be read as a record."
);
#[cfg(feature = "python")]
pyo3::create_exception!(
    kifudex,
    QueryError,
    KifudexError,
    "A filter, position or query kifudex cannot take, or a database it cannot answer from."
);

/// kifudex, a shogi game-database indexer: read records and query databases.
#[cfg(feature = "python")]
#[pyo3::pymodule]
mod _native {
    #[pymodule_export]
    use super::KifudexError;
    #[pymodule_export]
    use super::QueryError;
    #[pymodule_export]
    use super::ReadError;
    #[pymodule_export]
    use super::database::Database;
    #[pymodule_export]
    use super::game::{Game, read, read_many};
}
