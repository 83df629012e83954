//! How a game is stored: a [`GameRow`] made from a [`Record`] (compact move list, times,
//! fingerprint, the fields search uses), and the way back from a stored row to a `Record`.
//!
//! The compact `moves` and `times` columns are [`blobs`]; the `headers` and `comments`
//! columns, [`headers`].
//! `start_sfen` is NULL when the start is a named handicap's own position (see `handicap`).

use kifudex_classify::Recognised;
use kifudex_notation::dates::GameDate;
use kifudex_notation::kif::read_kif;
use kifudex_notation::{Format, GameResult, Line, MoveNode, Note, Record, Terminal, TerminalKind};
use kifudex_shogi::{BoardWalk, Handicap, Move, Position, Rule, Strictness};

use super::{StoreError, postings, tree};

mod blobs;
mod headers;

pub(in crate::store) use blobs::{decode_moves, ms};
use blobs::{decode_times, encode_moves, encode_times};
pub(crate) use blobs::{get_varint, put_varint};
pub use headers::HeaderColumns;
pub(in crate::store) use headers::{
    decode_comments, decode_headers, encode_comments, encode_headers,
};

/// Kinds of rows of the comments table.
pub const COMMENT: u8 = 0;
pub const ENGINE: u8 = 1;
pub const REMARK: u8 = 2;

/// One game ready to be written: everything the tables hold.
#[derive(Debug, Clone)]
pub struct GameRow {
    pub format: Format,
    /// `None` when the start is the handicap's own position.
    pub start_sfen: Option<String>,
    pub moves: Vec<u8>,
    pub times: Option<Vec<u8>>,
    pub plies: u32,
    pub handicap: Handicap,
    pub date: Option<GameDate>,
    pub event: Option<String>,
    pub opening: Option<String>,
    pub title: Option<String>,
    pub sente: Option<String>,
    pub gote: Option<String>,
    pub terminal: Option<TerminalKind>,
    /// Who won: the terminal's verdict, or the record's result line.
    pub result: GameResult,
    /// The first broken rule of the main line: its ply and the rule.
    pub illegal: Option<(u32, Rule)>,
    /// The main line stops at a move that could not be applied.
    pub incomplete: bool,
    /// Variations and bookmarks ([`tree`]), when the record has any.
    pub tree: Option<Vec<u8>>,
    pub fingerprint: [u8; 16],
    pub headers: Vec<(String, String)>,
    /// `headers` as the column holds them ([`encode_headers`]).
    pub headers_text: Option<String>,
    /// Main-line comments, engine lines and file remarks: (ply, kind, text), ply 0 the start,
    /// plies + 1 the terminal; kind [`COMMENT`], [`ENGINE`] or [`REMARK`].
    pub comments: Vec<(u32, u8, String)>,
    /// `comments` as the column holds them: a JSON array of `[ply, kind, text]`.
    pub comments_json: Option<String>,
    /// The position postings of the main line, [`postings::pack`]ed: the start and the
    /// position after every move, each with the move played from it.
    pub positions: Vec<u64>,
    /// The opening, strategies and castles recognised from the main line; `None` when not
    /// computed (the game is then recognised by the next command that opens the database).
    pub recognised: Option<Recognised>,
    /// The evaluations its engine comments carry, when they carry any.
    pub evals: Option<super::EvalsRow>,
}

impl GameRow {
    /// The row of a record, with the postings of its main line.
    pub fn new(rec: &Record, format: Format) -> GameRow {
        GameRow::with_positions(rec, format, false)
    }

    /// The row of a record, with the postings of its variations too when `variations`.
    pub fn with_positions(rec: &Record, format: Format, variations: bool) -> GameRow {
        let recognised = kifudex_classify::recognise_record(rec);
        let mut row = GameRow::from_record(rec.clone(), format, variations);
        row.recognised = Some(recognised);
        row
    }

    /// Recognises the openings of the row's main line ([`GameRow::recognised`]) from its
    /// moves as the row holds them, as [`kifudex_classify::recognise_record`] does from the
    /// record: the importer recognises a batch of rows at a time, once they are read.
    pub fn recognise(&mut self) {
        let moves = self
            .moves
            .chunks_exact(2)
            .map_while(|c| Move::from_u16(u16::from_le_bytes([c[0], c[1]])));
        self.recognised = Some(match self.handicap.start() {
            Some(start) => kifudex_classify::recognise_as(start, self.handicap, moves),
            // Neither an even nor a handicap start: nothing is recognised.
            None => Recognised::default(),
        });
    }

    /// [`GameRow::with_positions`] of a record no longer needed: its headers and comments
    /// move into the row instead of being copied (what the importer does with every game).
    pub fn from_record(mut rec: Record, format: Format, variations: bool) -> GameRow {
        let date = rec.date();
        let plies = rec.main.moves.len() as u32;
        let own = |s: Option<&str>| s.map(str::to_string);
        // Each column's header is looked up once (a lookup trims every header it passes).
        let columns = HeaderColumns::of(&rec);
        let handicap = rec.handicap();
        // detect() compares board, hands and side to move; the move number is the last
        // thing that could differ.
        let start_sfen = (handicap == Handicap::Other || rec.start.move_number() != 1)
            .then(|| rec.start.to_sfen());
        let mut row = GameRow {
            format,
            start_sfen,
            moves: encode_moves(&rec.main.moves),
            times: encode_times(&rec.main),
            plies,
            handicap,
            event: own(columns.event),
            opening: own(columns.opening),
            title: own(columns.title),
            sente: own(columns.sente),
            gote: own(columns.gote),
            terminal: rec.terminal(),
            result: rec.result(),
            illegal: rec.first_illegal().map(|(ply, rule)| (ply as u32, rule)),
            incomplete: rec.incomplete,
            tree: tree::encode(&rec),
            fingerprint: fingerprint(&rec),
            date,
            headers: Vec::new(),
            headers_text: encode_headers(&rec.headers, columns),
            comments_json: None,
            comments: Vec::new(),
            positions: positions(&rec, variations),
            recognised: None,
            evals: super::EvalsRow::of_record(&rec, rec.result()),
        };
        // Everything above that reads the headers and comments is done: they move.
        let mut comments: Vec<(u32, u8, String)> = Vec::new();
        let mut add = |ply: u32, kind: u8, texts: &mut Vec<String>| {
            // Most moves have none: the test costs less than an empty drain.
            if !texts.is_empty() {
                comments.extend(std::mem::take(texts).into_iter().map(|c| (ply, kind, c)));
            }
        };
        add(0, COMMENT, &mut rec.start_comments);
        add(0, ENGINE, &mut rec.start_engine);
        for (i, node) in rec.main.moves.iter_mut().enumerate() {
            add(i as u32 + 1, COMMENT, &mut node.comments);
            add(i as u32 + 1, ENGINE, &mut node.engine);
        }
        if let Some(t) = &mut rec.main.terminal {
            add(plies + 1, COMMENT, &mut t.comments);
        }
        for note in rec.notes.drain(..) {
            comments.push((note.after as u32, REMARK, note.text));
        }
        row.comments_json = encode_comments(&comments);
        row.comments = comments;
        row.headers = std::mem::take(&mut rec.headers);
        row
    }
}

/// Replays the main line (and with `variations` every variation; a variation's first
/// position is its branch point, with the variation's move): one posting per position, the
/// start included.
pub(super) fn positions(rec: &Record, variations: bool) -> Vec<u64> {
    if !variations {
        let moves = rec.main.moves.iter().map(|n| n.mv);
        return line_positions(&rec.start, moves);
    }
    let mut out = Vec::with_capacity(rec.main.moves.len() + 1);
    walk_line(&rec.main, &rec.start, variations, &mut out);
    out
}

/// The postings of a main line without its record: one per position, the start included.
pub(super) fn line_positions(
    start: &Position,
    moves: impl ExactSizeIterator<Item = Move>,
) -> Vec<u64> {
    let mut out = Vec::with_capacity(moves.len() + 1);
    start.board_hashes(moves, |hash, next| {
        out.push(postings::pack_hash(hash, next));
    });
    out
}

fn walk_line(line: &Line, start: &Position, variations: bool, out: &mut Vec<u64>) {
    let mut pos = start.clone();
    for node in &line.moves {
        out.push(postings::pack(&pos, Some(node.mv)));
        if variations {
            for v in &node.variations {
                walk_line(v, &pos, true, out);
            }
        }
        pos.apply(node.mv);
    }
    out.push(postings::pack(&pos, None));
}

/// A stored `tree` column.
pub(super) enum StoredTree {
    /// A whole record as KIF: TEXT (schema 2) or raw-deflated KIF (schema 3's first
    /// version).
    Kif(String),
    /// Variations and bookmarks in [`tree`]'s binary form.
    Binary(Vec<u8>),
}

/// Reads a `tree` column value.
pub(super) fn stored_tree(
    id: i64,
    value: rusqlite::types::ValueRef<'_>,
) -> Result<Option<StoredTree>, StoreError> {
    use rusqlite::types::ValueRef;
    let corrupt = |why: &str| StoreError::Corrupt(id, format!("tree: {why}"));
    match value {
        ValueRef::Null => Ok(None),
        ValueRef::Text(t) => Ok(Some(StoredTree::Kif(
            String::from_utf8(t.to_vec()).map_err(|_| corrupt("not UTF-8"))?,
        ))),
        ValueRef::Blob(b) if b.first() == Some(&tree::MARKER) => {
            Ok(Some(StoredTree::Binary(b.to_vec())))
        }
        ValueRef::Blob(b) => {
            use std::io::Read;
            let mut text = String::with_capacity(b.len() * 5);
            flate2::read::DeflateDecoder::new(b)
                .read_to_string(&mut text)
                .map_err(|_| corrupt("cannot be inflated"))?;
            Ok(Some(StoredTree::Kif(text)))
        }
        _ => Err(corrupt("neither text nor a blob")),
    }
}

/// The postings of a stored game with its variations: its main line with the tree's
/// variations grafted on, or the KIF record an older schema stored.
pub(super) fn tree_positions(
    id: i64,
    start: Position,
    moves: Vec<Move>,
    stored: StoredTree,
) -> Result<Vec<u64>, StoreError> {
    let rec = match stored {
        StoredTree::Kif(kif) => read_kif(&kif),
        StoredTree::Binary(blob) => {
            let mut rec = Record {
                start,
                ..Record::default()
            };
            rec.main.moves = moves.into_iter().map(MoveNode::new).collect();
            tree::graft(&mut rec, &blob)
                .map_err(|e| StoreError::Corrupt(id, format!("tree: {e}")))?;
            rec
        }
    };
    Ok(positions(&rec, true))
}

/// The duplicate key of a game: 16 bytes over its start position and main line, the same
/// for every record of them whatever else the records say (the games with the key are the
/// candidates a record is compared with: see `store::twins`).
pub fn fingerprint(rec: &Record) -> [u8; 16] {
    line_key(
        rec.start.hash(),
        rec.main.moves.iter().map(|n| n.mv.to_u16()),
    )
}

/// [`fingerprint`] of a start position's hash and the moves' 16-bit codes.
pub(super) fn line_key(start: u64, moves: impl Iterator<Item = u16>) -> [u8; 16] {
    let mut a: u64 = start ^ 0x9E37_79B9_7F4A_7C15;
    let mut b: u64 = start.rotate_left(29) ^ 0xD1B5_4A32_D192_ED03;
    let mut feed = |x: u64| {
        a = (a ^ x).wrapping_mul(0x0000_0100_0000_01B3).rotate_left(23);
        b = (b ^ x.rotate_left(17)).wrapping_mul(0xFF51_AFD7_ED55_8CCD) ^ (b >> 31);
    };
    for mv in moves {
        feed(mv as u64);
    }
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&mix(a).to_le_bytes());
    out[8..].copy_from_slice(&mix(b ^ a.rotate_left(7)).to_le_bytes());
    out
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    x = x.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    x ^ (x >> 33)
}

/// The start position of a stored game.
pub(super) fn start_position(
    id: i64,
    start_sfen: Option<&str>,
    handicap: &str,
) -> Result<Position, StoreError> {
    let corrupt = |why: &str| StoreError::Corrupt(id, why.to_string());
    let sfen = match start_sfen {
        Some(s) => s.to_string(),
        None => match Handicap::from_kif_name(handicap) {
            // Most games: the start position is built once, not read from its SFEN every
            // time (replays read thousands of games a second).
            Some(Handicap::Even) => return Ok(Position::startpos()),
            h => h
                .and_then(Handicap::sfen)
                .ok_or_else(|| corrupt("unknown handicap without a start position"))?,
        },
    };
    Position::from_sfen_with(&sfen, Strictness::PiecesOnly)
        .map_err(|e| corrupt(&format!("bad start position: {e}")))
}

/// A stored game's start position and main line, from its `start_sfen`, `handicap` and
/// `moves` columns.
pub(super) fn main_line(
    id: i64,
    start_sfen: Option<&str>,
    handicap: &str,
    moves: &[u8],
) -> Result<(Position, Vec<Move>), StoreError> {
    let start = start_position(id, start_sfen, handicap)?;
    let moves =
        decode_moves(moves).ok_or_else(|| StoreError::Corrupt(id, "bad move list".to_string()))?;
    Ok((start, moves))
}

/// A stored game's columns, as read back.
pub(super) struct StoredColumns {
    pub id: i64,
    pub start_sfen: Option<String>,
    pub handicap: String,
    pub moves: Vec<u8>,
    pub times: Option<Vec<u8>>,
    pub terminal: Option<String>,
    pub tree: Option<StoredTree>,
    pub headers: Vec<(String, String)>,
    pub comments: Vec<(u32, u8, String)>,
}

/// How a stored main line is replayed when its record is rebuilt.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Replay {
    /// Every move's broken rules are worked out ([`MoveNode::violations`]).
    Rules,
    /// Only whether each move can be played (the same error when one cannot); the main
    /// line's `violations` stay empty. For records that are only written out: no writer
    /// reads them.
    Quiet,
}

/// Rebuilds the record a game was stored from.
pub(super) fn record_from(cols: StoredColumns, replay: Replay) -> Result<Record, StoreError> {
    let corrupt = |why: &str| StoreError::Corrupt(cols.id, why.to_string());
    if let Some(StoredTree::Kif(tree)) = &cols.tree {
        let mut rec = read_kif(tree);
        rec.headers = cols.headers;
        rec.errors.clear();
        rec.notes = cols
            .comments
            .into_iter()
            .filter(|c| c.1 == REMARK)
            .map(|(after, _, text)| Note {
                after: after as usize,
                text,
            })
            .collect();
        return Ok(rec);
    }
    let start = start_position(cols.id, cols.start_sfen.as_deref(), &cols.handicap)?;
    let moves = decode_moves(&cols.moves).ok_or_else(|| corrupt("move list"))?;
    let (times, terminal_time) = match &cols.times {
        Some(blob) => decode_times(blob, moves.len()).ok_or_else(|| corrupt("times"))?,
        None => (vec![None; moves.len()], None),
    };
    let mut pos = start.clone();
    // Quiet: whether a move can be played needs only the board, hands and side to move.
    let mut walk = BoardWalk::of(&start);
    let mut line = Line::default();
    line.moves.reserve_exact(moves.len());
    for (mv, time) in moves.into_iter().zip(times) {
        let played = match replay {
            Replay::Rules => pos.play(mv),
            Replay::Quiet => walk.play_quietly(mv).map(|()| Default::default()),
        };
        let violations = played.map_err(|e| corrupt(&format!("move {}: {e}", mv.usi())))?;
        let mut node = MoveNode::new(mv);
        node.time = time;
        node.violations = violations;
        line.moves.push(node);
    }
    let plies = line.moves.len() as u32;
    let mut rec = Record {
        headers: cols.headers,
        start,
        ..Record::default()
    };
    let mut terminal_comments = Vec::new();
    for (ply, kind, text) in cols.comments {
        match (kind, ply) {
            (REMARK, after) => rec.notes.push(Note {
                after: after as usize,
                text,
            }),
            (ENGINE, 0) => rec.start_engine.push(text),
            (ENGINE, p) if p <= plies => line.moves[p as usize - 1].engine.push(text),
            (_, 0) => rec.start_comments.push(text),
            (_, p) if p <= plies => line.moves[p as usize - 1].comments.push(text),
            _ => terminal_comments.push(text),
        }
    }
    line.terminal = match &cols.terminal {
        Some(code) => Some(Terminal {
            kind: TerminalKind::from_code(code).ok_or_else(|| corrupt("terminal"))?,
            time: terminal_time,
            comments: terminal_comments,
        }),
        None => None,
    };
    rec.main = line;
    if let Some(StoredTree::Binary(blob)) = &cols.tree {
        tree::graft(&mut rec, blob).map_err(|e| corrupt(&format!("tree: {e}")))?;
    }
    Ok(rec)
}

/// What reading a game back makes of its columns as the writer wrote them (`row`), without a
/// database: for the `codecs` fuzz target and round-trip checks.
#[doc(hidden)]
pub fn read_back(row: &GameRow) -> Result<Record, StoreError> {
    let columns = HeaderColumns {
        sente: row.sente.as_deref(),
        gote: row.gote.as_deref(),
        event: row.event.as_deref(),
        opening: row.opening.as_deref(),
        title: row.title.as_deref(),
        handicap: Some(row.handicap.kif_name()),
    };
    read_columns(
        row.start_sfen.as_deref(),
        row.handicap.kif_name(),
        &row.moves,
        row.times.as_deref(),
        row.terminal.map(TerminalKind::code),
        row.tree.as_deref(),
        row.headers_text.as_deref().map(|h| (h, columns)),
        row.comments_json.as_deref(),
    )
}

/// A game from column values, whatever they hold (a damaged row): an error, never a panic.
/// A `tree` value is read in the binary form the writer writes (the older deflated KIF forms
/// are left to the database's reader).
#[doc(hidden)]
#[allow(clippy::too_many_arguments)]
pub fn read_columns(
    start_sfen: Option<&str>,
    handicap: &str,
    moves: &[u8],
    times: Option<&[u8]>,
    terminal: Option<&str>,
    tree: Option<&[u8]>,
    headers: Option<(&str, HeaderColumns<'_>)>,
    comments: Option<&str>,
) -> Result<Record, StoreError> {
    record_from(
        StoredColumns {
            id: 0,
            start_sfen: start_sfen.map(str::to_string),
            handicap: handicap.to_string(),
            moves: moves.to_vec(),
            times: times.map(<[u8]>::to_vec),
            terminal: terminal.map(str::to_string),
            tree: tree.map(|b| StoredTree::Binary(b.to_vec())),
            headers: headers.map_or_else(Vec::new, |(h, c)| decode_headers(h, c)),
            comments: decode_comments(0, comments)?,
        },
        Replay::Rules,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The even start is handed out ready-made: it must equal the position read from its
    /// SFEN as every other start is, hashes and flags included.
    #[test]
    fn the_even_start_equals_its_sfen_read() {
        let read = Position::from_sfen_with(
            &Handicap::Even.sfen().expect("even has an SFEN"),
            Strictness::PiecesOnly,
        )
        .unwrap();
        let got = start_position(1, None, "平手").unwrap();
        assert_eq!(got, read);
        assert_eq!(got.hash(), read.hash());
        assert_eq!(got.to_sfen(), read.to_sfen());
        // Another handicap still goes through its SFEN.
        let lance = start_position(1, None, "香落ち").unwrap();
        assert_ne!(lance.hash(), read.hash());
    }
}
