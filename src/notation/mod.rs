//! Game records: decoding, the record model, and one module per format for reading and
//! writing. Knows nothing of SQLite or tantivy.

pub mod decode;
pub mod japanese;
pub mod record;

pub use decode::{Encoding, decode};
pub use record::{GameResult, Line, MoveNode, MoveTime, ReadError, Record, Terminal, TerminalKind};
