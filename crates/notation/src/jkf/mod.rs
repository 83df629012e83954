//! JKF (JSON Kifu Format, the `json-kifu-format` schema of Kifu for JS): reading and writing.
//!
//! A JKF record is a JSON object: `header` (KIF header keys and values, in order),
//! `initial` (a `preset` handicap name, or `OTHER` with `data`: board, hands, side to move),
//! and `moves`: entry 0 holds the comments on the start position, entry n the n-th move
//! (`move`, `time`, `comments`) or the end of the game (`special`), and `forks` on an entry
//! hold the moves played instead of it, each fork a list of entries of its own.
//!
//! Errors point at the JSON text: a syntax error where serde_json found it, a move that does
//! not fit the position at the start of its entry, with the ply.

use crate::build::{OpenLine, Remark, full_message};
use crate::movetext::{MoveTextError, MoveTextErrorKind, move_from_origin};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::decode::LineCounter;

mod write;

use super::movetext::{JapaneseMove, Relative, resolve};
use super::record::{MAX_VARIATION_DEPTH, MoveTime, ReadError, Record, TerminalKind};
use kifudex_shogi::{
    Color, Handicap, Move, Piece, PieceKind, Position, Square, Strictness, hand_from_counts,
};
pub use write::{has_nonstandard_special, repeated_headers, write_jkf};

/// The JKF `preset` names, in the order of [`Handicap::ALL`].
const PRESETS: [(&str, Handicap); 17] = [
    ("HIRATE", Handicap::Even),
    ("KY", Handicap::Lance),
    ("KY_R", Handicap::RightLance),
    ("KA", Handicap::Bishop),
    ("HI", Handicap::Rook),
    ("HIKY", Handicap::RookLance),
    ("2", Handicap::TwoPieces),
    ("3", Handicap::ThreePieces),
    ("4", Handicap::FourPieces),
    ("5", Handicap::FivePieces),
    ("5_L", Handicap::LeftFivePieces),
    ("6", Handicap::SixPieces),
    ("7_L", Handicap::LeftSevenPieces),
    ("7_R", Handicap::RightSevenPieces),
    ("8", Handicap::EightPieces),
    ("10", Handicap::TenPieces),
    ("OTHER", Handicap::Other),
];

/// The JKF preset name of a handicap.
pub fn preset_name(h: Handicap) -> &'static str {
    PRESETS.iter().find(|p| p.1 == h).map_or("OTHER", |p| p.0)
}

/// The handicap a preset names: a JKF name (`HIRATE`, `KY`, `2`…) or a KIF name (`平手`, `香落ち`…).
pub fn preset_handicap(name: &str) -> Option<Handicap> {
    PRESETS
        .iter()
        .find(|p| p.0 == name)
        .map(|p| p.1)
        .or_else(|| Handicap::from_kif_name(name))
}

/// The terminal a JKF `special` names, `to_move` being the side to move when it comes. The
/// schema's names (those of CSA V2.2, read from CSA's table), `MAX_MOVES`, `FUSENSHO` and
/// `FUSENPAI` (which this writer uses for the endings the schema lacks), and KIF words are
/// understood.
pub fn special_terminal(name: &str, to_move: Color) -> Option<TerminalKind> {
    super::csa::terminals::read(name, to_move)
        .or_else(|| NON_SCHEMA.iter().find(|(n, _)| *n == name).map(|&(_, k)| k))
        .or_else(|| super::kif::terminal_word(name))
}

/// The endings the JKF schema has no `special` for, with the names this writer gives them.
const NON_SCHEMA: [(&str, TerminalKind); 3] = [
    ("MAX_MOVES", TerminalKind::MaxMoves),
    ("FUSENSHO", TerminalKind::DefaultWin),
    ("FUSENPAI", TerminalKind::DefaultLoss),
];

/// The JKF `special` for a terminal with `to_move` to move. `None` in the second place when
/// the name is one of the schema's; otherwise the kind is written with a name of this
/// writer's (`MAX_MOVES`, `FUSENSHO`, `FUSENPAI`), which other readers may not know.
pub fn terminal_special(kind: TerminalKind, to_move: Color) -> (&'static str, bool) {
    if let Some(&(name, _)) = NON_SCHEMA.iter().find(|(_, k)| *k == kind) {
        return (name, false);
    }
    let word = super::csa::terminals::write(kind, to_move).unwrap_or("%CHUDAN");
    (&word[1..], true)
}

// ---------------------------------------------------------------------------------------
// Reading

#[derive(Deserialize)]
struct Document<'a> {
    #[serde(default)]
    header: Option<Map<String, Value>>,
    #[serde(default, borrow)]
    initial: Option<&'a RawValue>,
    #[serde(default, borrow)]
    moves: Option<Vec<&'a RawValue>>,
}

#[derive(Deserialize, Default)]
struct Entry<'a> {
    #[serde(default)]
    comments: Option<Value>,
    /// The schema's start-position comment (`moves[0].comment`), a single string.
    #[serde(default)]
    comment: Option<String>,
    #[serde(default, rename = "move")]
    mv: Option<JkfMove>,
    #[serde(default)]
    time: Option<JkfTime>,
    #[serde(default)]
    special: Option<String>,
    #[serde(default, borrow)]
    forks: Option<Vec<Vec<&'a RawValue>>>,
}

#[derive(Deserialize)]
struct JkfMove {
    #[serde(default)]
    color: Option<Value>,
    #[serde(default)]
    from: Option<Place>,
    #[serde(default)]
    to: Option<Place>,
    piece: String,
    #[serde(default)]
    same: Option<bool>,
    #[serde(default)]
    promote: Option<bool>,
    #[serde(default)]
    relative: Option<String>,
}

#[derive(Deserialize)]
struct Place {
    x: i64,
    y: i64,
}

#[derive(Deserialize)]
struct JkfTime {
    #[serde(default)]
    now: Option<Clock>,
    #[serde(default)]
    total: Option<Clock>,
}

#[derive(Deserialize)]
struct Clock {
    #[serde(default)]
    h: Option<f64>,
    #[serde(default)]
    m: Option<f64>,
    #[serde(default)]
    s: Option<f64>,
}

/// The most seconds a time may hold (some 31,700 years): beyond, it is not understood.
const MAX_SECONDS: f64 = 1e12;

impl Clock {
    /// Seconds, or `None` for a negative, absurd or empty clock.
    fn seconds(&self) -> Option<f64> {
        let part = |v: Option<f64>| match v {
            None => Some(0.0),
            Some(x) if (0.0..=MAX_SECONDS).contains(&x) => Some(x),
            Some(_) => None,
        };
        if self.h.is_none() && self.m.is_none() && self.s.is_none() {
            return None;
        }
        let seconds = part(self.h)? * 3600.0 + part(self.m)? * 60.0 + part(self.s)?;
        (seconds <= MAX_SECONDS).then_some(seconds)
    }
}

impl Place {
    fn square(&self) -> Option<Square> {
        let x = u8::try_from(self.x).ok()?;
        let y = u8::try_from(self.y).ok()?;
        Square::new(x, y)
    }
}

/// Reads a JKF record. Invalid JSON, or JSON that is no JKF object, is an `Err` with its line
/// and column; problems inside a valid record are the record's errors, reading going on.
pub fn read_jkf(text: &str) -> Result<Record, ReadError> {
    let doc: Document = serde_json::from_str(text)
        .map_err(|e| json_error(&mut LineCounter::new(text), 0, &e, "not a JKF record"))?;
    let mut reader = Reader {
        text,
        lines: LineCounter::new(text),
        rec: Record::default(),
    };
    if let Some(header) = doc.header {
        for (key, value) in header {
            let value = match value {
                Value::String(s) => s,
                Value::Null => String::new(),
                other => other.to_string(),
            };
            reader.rec.headers.push((key, value));
        }
    }
    let start = match doc.initial {
        Some(raw) => reader.initial(raw),
        None => Position::startpos(),
    };
    reader.rec.start = start.clone();
    let entries = doc.moves.unwrap_or_default();
    reader.line(&entries, &mut OpenLine::main(start));
    Ok(reader.rec)
}

/// A serde_json error inside the text that starts at byte `base` of the text `lines` counts
/// in, as a [`ReadError`].
fn json_error(
    lines: &mut LineCounter<'_>,
    base: usize,
    e: &serde_json::Error,
    what: &str,
) -> ReadError {
    let part = &lines.text()[base..];
    // serde_json counts lines at '\n' and columns in bytes, 1-based (0 before the first byte).
    let line_start = part
        .split_inclusive('\n')
        .take(e.line().saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    let offset = base + line_start + e.column().saturating_sub(1);
    let (line, column) = lines.line_column(offset);
    let mut message = e.to_string();
    // serde_json appends its own position; ours replaces it.
    if let Some(i) = message.rfind(" at line ") {
        message.truncate(i);
    }
    let message = match e.classify() {
        serde_json::error::Category::Eof => format!("the JSON ends early: {message}"),
        serde_json::error::Category::Syntax => format!("invalid JSON: {message}"),
        _ => format!("{what}: {message}"),
    };
    ReadError::new(line, column, message)
}

struct Reader<'t> {
    text: &'t str,
    /// Lines counted up to the last error: errors come in text order, so that their
    /// positions cost time linear in the text, however many there are.
    lines: LineCounter<'t>,
    rec: Record,
}

impl Reader<'_> {
    /// The byte offset of a raw value within the text.
    fn offset(&self, raw: &RawValue) -> usize {
        (raw.get().as_ptr() as usize).saturating_sub(self.text.as_ptr() as usize)
    }

    fn error_at(&mut self, raw: &RawValue, message: impl Into<String>) {
        let offset = self.offset(raw);
        let (line, column) = self.lines.line_column(offset);
        self.rec.errors.push(ReadError::new(line, column, message));
    }

    /// Parses a raw value as `T`, reporting a failure as an error.
    fn parse<'a, T: Deserialize<'a>>(&mut self, raw: &'a RawValue) -> Option<T> {
        match serde_json::from_str(raw.get()) {
            Ok(v) => Some(v),
            Err(e) => {
                let offset = self.offset(raw);
                let err = json_error(&mut self.lines, offset, &e, "not understood");
                self.rec.errors.push(err);
                None
            }
        }
    }

    /// The start position `initial` gives; the even start after an error.
    fn initial(&mut self, raw: &RawValue) -> Position {
        let Some(value) = self.parse::<Value>(raw) else {
            return Position::startpos();
        };
        match initial_position(&value) {
            Ok(p) => p,
            Err(e) => {
                self.error_at(raw, format!("{e}; the game is read from the even start"));
                Position::startpos()
            }
        }
    }

    /// Reads the entries of one line (the main line or a fork) into `open`: the main line
    /// from the start, a fork from the position before the move it replaces. Forks deeper
    /// than [`MAX_VARIATION_DEPTH`] are cut. A move that cannot be played ends the line there.
    fn line(&mut self, entries: &[&RawValue], open: &mut OpenLine) {
        let depth = open.path.len();
        let mut moves = 0;
        for &raw in entries {
            let ply = open.first_ply + moves;
            let entry: Entry = match serde_json::from_str(raw.get()) {
                Ok(e) => e,
                Err(e) => {
                    let offset = self.offset(raw);
                    let mut err =
                        json_error(&mut self.lines, offset, &e, "the entry is not understood");
                    err.message = format!(
                        "move {ply}: {}; the rest of the line is ignored",
                        err.message
                    );
                    open.fail(&mut self.rec, err);
                    break;
                }
            };
            let ended = open
                .line(&mut self.rec.main)
                .and_then(|l| l.terminal.as_ref())
                .map(|t| t.kind);
            if let Some(kind) = ended {
                self.error_at(
                    raw,
                    format!(
                        "an entry after the end of the game ({kind}); it and what follows in this line are ignored"
                    ),
                );
                break;
            }
            let comments = self.comments(raw, &entry);
            let time = match &entry.time {
                Some(t) => self.time(raw, t, ply),
                None => None,
            };
            let forks = entry.forks.unwrap_or_default();
            match (entry.mv, entry.special) {
                (Some(_), Some(special)) => {
                    self.error_at(
                        raw,
                        format!("move {ply}: an entry holds both a move and a special ({special}); the rest of the line is ignored"),
                    );
                    break;
                }
                (None, Some(special)) => {
                    let Some(kind) = special_terminal(&special, open.pos.side_to_move()) else {
                        self.error_at(
                            raw,
                            format!("move {ply}: unknown special '{special}'; the rest of the line is ignored"),
                        );
                        break;
                    };
                    open.end(&mut self.rec, kind, time);
                    self.comment(open, comments);
                    if !forks.is_empty() {
                        self.error_at(
                            raw,
                            format!("move {ply}: forks on a special ({special}) cannot be kept: a game's end has no alternatives here"),
                        );
                    }
                }
                (None, None) => {
                    if !self.comment(open, comments) {
                        self.error_at(
                            raw,
                            format!("move {ply}: a fork starts with comments but no move; they are ignored"),
                        );
                    }
                    if time.is_some() {
                        self.error_at(raw, format!("move {ply}: a time without a move is ignored"));
                    }
                    if !forks.is_empty() {
                        self.error_at(
                            raw,
                            format!("move {ply}: forks on an entry with no move are ignored"),
                        );
                    }
                }
                (Some(m), None) => {
                    // The position the forks start from, kept only when there are forks.
                    let before = (!forks.is_empty()).then(|| (open.pos.clone(), open.last_to));
                    let mv = self.to_move(&open.pos, &m, open.last_to);
                    let Some(line) = open.line(&mut self.rec.main) else {
                        break;
                    };
                    let played = mv.and_then(|mv| open.play(line, mv, time, &mv.usi()));
                    if let Err(e) = played {
                        let offset = self.offset(raw);
                        let (n, column) = self.lines.line_column(offset);
                        let message = format!("move {ply}: {e}; the rest of the line is ignored");
                        open.fail(&mut self.rec, ReadError::new(n, column, message));
                        break;
                    }
                    let index = moves;
                    moves += 1;
                    self.comment(open, comments);
                    if depth >= MAX_VARIATION_DEPTH && !forks.is_empty() {
                        self.error_at(
                            raw,
                            format!("move {ply}: forks nested more than {MAX_VARIATION_DEPTH} deep: they and the forks within them are not read"),
                        );
                        continue;
                    }
                    // A full record reads no more forks (said once).
                    if !forks.is_empty() && open.report_full() {
                        self.error_at(raw, format!("move {ply}: {}", full_message()));
                    }
                    let Some((pos, last_to)) = before.filter(|_| !open.is_full()) else {
                        continue;
                    };
                    for fork in forks {
                        let variation =
                            open.branch_from(&mut self.rec.main, index, pos.clone(), last_to);
                        if let Some(mut variation) = variation {
                            self.line(&fork, &mut variation);
                        }
                    }
                }
            }
        }
    }

    /// Puts an entry's comments where the line is (see [`OpenLine::comment`]); false when
    /// there were some and they had no place (a fork before its first move).
    fn comment(&mut self, open: &OpenLine, comments: Vec<String>) -> bool {
        let mut placed = true;
        for c in comments {
            placed &= open.comment(&mut self.rec, c, Remark::MaybeEngine).is_ok();
        }
        placed
    }

    /// The entry's comments, one per line of text.
    fn comments(&mut self, raw: &RawValue, entry: &Entry) -> Vec<String> {
        let mut out = Vec::new();
        let mut push = |s: &str| {
            if s.is_empty() {
                out.push(String::new());
            } else {
                out.extend(super::decode::lines(s).iter().map(|l| l.to_string()));
            }
        };
        let mut bad = false;
        match &entry.comments {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) => {
                for item in items {
                    match item {
                        Value::String(s) => push(s),
                        _ => bad = true,
                    }
                }
            }
            Some(Value::String(s)) => push(s),
            Some(_) => bad = true,
        }
        if let Some(c) = &entry.comment {
            push(c);
        }
        if bad {
            self.error_at(
                raw,
                "'comments' must be a list of strings; what is not a string is ignored",
            );
        }
        out
    }

    fn time(&mut self, raw: &RawValue, t: &JkfTime, ply: usize) -> Option<MoveTime> {
        let spent = t.now.as_ref().and_then(Clock::seconds);
        let total = t.total.as_ref().map(Clock::seconds);
        match (spent, total) {
            (Some(spent), None) => Some(MoveTime { spent, total: None }),
            (Some(spent), Some(Some(total))) => Some(MoveTime {
                spent,
                total: Some(total),
            }),
            _ => {
                self.error_at(
                    raw,
                    format!("move {ply}: the time is not understood (needs now {{m, s}} with numbers from 0); the move is kept without it"),
                );
                None
            }
        }
    }

    /// The move an entry's `move` means on `pos`.
    fn to_move(
        &self,
        pos: &Position,
        m: &JkfMove,
        last_to: Option<Square>,
    ) -> Result<Move, MoveTextError> {
        let us = pos.side_to_move();
        match &m.color {
            None | Some(Value::Null) => {}
            Some(c) => {
                let color = match c.as_u64() {
                    Some(0) => Color::Black,
                    Some(1) => Color::White,
                    _ => {
                        return Err(MoveTextError::new(
                            MoveTextErrorKind::Syntax,
                            format!("color {c} is neither 0 (先手) nor 1 (後手)"),
                        ));
                    }
                };
                if color != us {
                    return Err(MoveTextError::new(
                        MoveTextErrorKind::WrongSide,
                        format!(
                            "the move is marked as {}'s, but it is {}'s turn",
                            color.name(),
                            us.name()
                        ),
                    ));
                }
            }
        }
        let kind = PieceKind::from_csa(&m.piece).ok_or_else(|| {
            MoveTextError::new(
                MoveTextErrorKind::Syntax,
                format!(
                    "'{}' is not a piece (FU KY KE GI KI KA HI OU TO NY NK NG UM RY)",
                    m.piece
                ),
            )
        })?;
        let to = match (&m.to, m.same) {
            (Some(p), _) => p.square().ok_or_else(|| {
                MoveTextError::new(
                    MoveTextErrorKind::Syntax,
                    format!("the destination ({}, {}) is off the board", p.x, p.y),
                )
            })?,
            (None, Some(true)) => last_to.ok_or_else(|| {
                MoveTextError::new(
                    MoveTextErrorKind::NoPreviousMove,
                    "'same' but there is no previous move",
                )
            })?,
            (None, _) => {
                return Err(MoveTextError::new(
                    MoveTextErrorKind::Syntax,
                    "the move has no destination ('to')",
                ));
            }
        };
        let promote = m.promote == Some(true);
        if let Some(from) = &m.from {
            let from = from.square().ok_or_else(|| {
                MoveTextError::new(
                    MoveTextErrorKind::Syntax,
                    format!("the origin ({}, {}) is off the board", from.x, from.y),
                )
            })?;
            return move_from_origin(pos, (from, to, promote), kind, true, "", |s| s.to_string());
        }
        // No origin: a drop, as the schema says. Records converted from KI2 without being
        // completed give only the destination and relative words: those are resolved as
        // KI2 moves are, when no drop is possible.
        let drop = Move::Drop { kind, to };
        if PieceKind::HAND.contains(&kind)
            && pos.hand(us).count(kind) > 0
            && pos.piece_at(to).is_none()
        {
            return Ok(drop);
        }
        let mut relative = Relative::NONE;
        let mut drop_word = false;
        for c in m.relative.as_deref().unwrap_or("").chars() {
            relative |= match c {
                'L' => Relative::LEFT,
                'C' => Relative::STRAIGHT,
                'R' => Relative::RIGHT,
                'U' => Relative::UP,
                'M' => Relative::SIDEWAYS,
                'D' => Relative::DOWN,
                'H' => {
                    drop_word = true;
                    Relative::NONE
                }
                _ => {
                    return Err(MoveTextError::new(
                        MoveTextErrorKind::Syntax,
                        format!("'{c}' is no relative word (L C R U M D H)"),
                    ));
                }
            };
        }
        let jm = JapaneseMove {
            side: None,
            to: Some(to),
            piece: kind,
            relative,
            promote: m.promote,
            drop: drop_word,
            origin: None,
        };
        resolve(pos, &jm, last_to)
    }
}

/// The start position of an `initial` value.
fn initial_position(value: &Value) -> Result<Position, String> {
    if value.is_null() {
        return Ok(Position::startpos());
    }
    let preset = value.get("preset").and_then(Value::as_str);
    let data = value.get("data").filter(|d| !d.is_null());
    match preset.map(|p| (p, preset_handicap(p))) {
        Some((_, Some(h))) if h != Handicap::Other => {
            return h.position().ok_or_else(|| "no start position".to_string());
        }
        Some((p, None)) if data.is_none() => {
            return Err(format!("unknown preset '{p}' and no initial data"));
        }
        _ => {}
    }
    let data = data.ok_or("the preset is OTHER but there is no initial data")?;
    let side = match data.get("color").and_then(Value::as_u64) {
        Some(0) => Color::Black,
        Some(1) => Color::White,
        _ => return Err("initial data: 'color' must be 0 (先手) or 1 (後手)".to_string()),
    };
    let mut board = [None; 81];
    match data.get("board") {
        Some(Value::Array(columns)) => {
            if columns.len() != 9 {
                return Err(format!(
                    "initial data: the board has {} columns, not 9",
                    columns.len()
                ));
            }
            for (x, column) in columns.iter().enumerate() {
                let cells = column.as_array().filter(|c| c.len() == 9).ok_or_else(|| {
                    format!("initial data: board column {} is not 9 squares", x + 1)
                })?;
                for (y, cell) in cells.iter().enumerate() {
                    let Some(sq) = Square::new(x as u8 + 1, y as u8 + 1) else {
                        continue;
                    };
                    board[sq.index()] = board_cell(cell)
                        .map_err(|e| format!("initial data: square ({}, {}): {e}", x + 1, y + 1))?;
                }
            }
        }
        // The schema allows an empty object for an empty board.
        Some(Value::Object(o)) if o.is_empty() => {}
        _ => return Err("initial data: 'board' must be 9 columns of 9 squares".to_string()),
    }
    let hands = match data.get("hands") {
        Some(Value::Array(h)) if h.len() == 2 => [hand(&h[0])?, hand(&h[1])?],
        _ => return Err("initial data: 'hands' must be a list of two hands".to_string()),
    };
    Position::new(board, hands, side, 1, Strictness::PiecesOnly)
        .map_err(|e| format!("the initial data is not a position: {e}"))
}

fn board_cell(cell: &Value) -> Result<Option<Piece>, String> {
    let color = cell.get("color").filter(|c| !c.is_null());
    let kind = cell.get("kind").filter(|k| !k.is_null());
    match (color, kind) {
        (None, None) => Ok(None),
        (Some(c), Some(k)) => {
            let color = match c.as_u64() {
                Some(0) => Color::Black,
                Some(1) => Color::White,
                _ => return Err(format!("color {c} is neither 0 nor 1")),
            };
            let kind = k
                .as_str()
                .and_then(PieceKind::from_csa)
                .ok_or_else(|| format!("{k} is not a piece"))?;
            Ok(Some(Piece::new(color, kind)))
        }
        _ => Err("a piece needs both 'color' and 'kind'".to_string()),
    }
}

fn hand(value: &Value) -> Result<kifudex_shogi::Hand, String> {
    let map = value
        .as_object()
        .ok_or("initial data: a hand must be an object like {\"FU\": 2}")?;
    let mut counts = Vec::new();
    for (name, n) in map {
        let kind = PieceKind::from_csa(name)
            .ok_or_else(|| format!("initial data: '{name}' is not a piece"))?;
        let n = n
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| format!("initial data: the count of {name} is {n}"))?;
        if n > 0 {
            counts.push((kind, n));
        }
    }
    hand_from_counts(&counts).map_err(|e| format!("initial data: {e}"))
}
