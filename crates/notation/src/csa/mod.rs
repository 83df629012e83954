//! CSA reading (the CSA standard record format: V2, V2.1, V2.2, V3.0, and files with no version
//! line): `N+`/`N-` names and `$KEY:value` headers, the start position (`PI` with removed
//! pieces, `P1`–`P9` rows, `P+`/`P-` piece lists with `00` hands and `AL`, the side-to-move
//! line), moves with times (`T12`, V3.0's `T6.123`), `,`-joined statements, comments
//! (`'*` on a position, `'**` engine output, other `'` lines kept as notes, Floodgate's
//! `'summary:`), every `%` terminal, and several games in one file separated by `/` lines.

use crate::build::{OpenLine, Remark, start_comment};
use crate::movetext::{MoveTextError, MoveTextErrorKind};
use kifudex_shogi::{Color, Move, PieceKind, Position, Square};

use crate::record::{MoveTime, Note, ReadError, Record, Terminal, TerminalKind};

pub mod pieces;
mod setup;
pub(crate) mod terminals;
mod write;

use setup::Setup;

pub use write::{CsaVersion, push_csa_move, terminal_word, write_csa, write_csa_games};

/// The terminal a `%` word (without the `%`) names, `to_move` being the side to move when it
/// comes; `None` when the word is no CSA terminal. `%KACHI` is read as a right declaration
/// here: the reader checks it against the position (see [`read_csa`]).
pub fn terminal_kind(word: &str, to_move: Color) -> Option<TerminalKind> {
    terminals::read(word, to_move)
}

/// The piece kind a two-letter CSA code names (`FU` … `RY`).
fn piece_code(code: &[u8]) -> Option<PieceKind> {
    use PieceKind::*;
    Some(match code {
        b"FU" => Pawn,
        b"KY" => Lance,
        b"KE" => Knight,
        b"GI" => Silver,
        b"KI" => Gold,
        b"KA" => Bishop,
        b"HI" => Rook,
        b"OU" => King,
        b"TO" => ProPawn,
        b"NY" => ProLance,
        b"NK" => ProKnight,
        b"NG" => ProSilver,
        b"UM" => Horse,
        b"RY" => Dragon,
        _ => return None,
    })
}

/// Two digits file-then-rank: `Some(None)` for `00` (a hand), `Some(Some(square))` for `11`–`99`.
fn square_code(code: &[u8]) -> Option<Option<Square>> {
    match code {
        [b'0', b'0'] => Some(None),
        [f @ b'1'..=b'9', r @ b'1'..=b'9'] => Some(Square::new(f - b'0', r - b'0')),
        _ => None,
    }
}

fn sign(b: u8) -> Option<Color> {
    match b {
        b'+' => Some(Color::Black),
        b'-' => Some(Color::White),
        _ => None,
    }
}

/// The 1-based column (in characters) where `part`, a slice of `line`, starts.
fn column(line: &str, part: &str) -> usize {
    column_at(line, part, 0)
}

/// The 1-based column of the character holding byte `extra` of `part`, a slice of `line`.
fn column_at(line: &str, part: &str, extra: usize) -> usize {
    let mut offset = (part.as_ptr() as usize).saturating_sub(line.as_ptr() as usize) + extra;
    offset = offset.min(line.len());
    while !line.is_char_boundary(offset) {
        offset -= 1;
    }
    line[..offset].chars().count() + 1
}

/// Seconds as CSA writes them: digits, and in V3.0 a fraction (`6.123`). At most nine
/// digits before the point, so that absurd values are refused rather than kept as noise.
fn seconds(s: &str) -> Option<f64> {
    let (whole, fraction) = match s.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (s, None),
    };
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || whole.len() > 9 || fraction.is_some_and(|f| !digits(f) || f.len() > 9) {
        return None;
    }
    match fraction {
        // Whole seconds, nearly every time: no float parsing needed.
        None => Some(
            whole
                .bytes()
                .fold(0u32, |n, b| n * 10 + u32::from(b - b'0')) as f64,
        ),
        Some(_) => s.parse().ok(),
    }
}

/// The line without the spaces, tabs and ideographic spaces around it.
fn trim_line(line: &str) -> &str {
    let ascii = line.trim_matches(|c| c == ' ' || c == '\t');
    if ascii.starts_with('\u{3000}') || ascii.ends_with('\u{3000}') {
        ascii.trim_matches([' ', '\t', '\u{3000}'])
    } else {
        ascii
    }
}

/// Whether the general statement splitting would hand `raw` on as one statement unchanged:
/// a line of letters, digits and `+ - . % _` only (`+7776FU`, `T12`, `%TORYO`) has no space
/// to trim, no `,` to split at, is no `/` and starts no comment or header.
#[inline]
fn plain_statement(raw: &str) -> bool {
    !raw.is_empty()
        && raw
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.' | b'%' | b'_'))
}

/// Reads every game of a CSA file from decoded text; games are separated by `/` lines.
/// Every game found is returned, each with the errors met while reading it.
pub fn read_csa(text: &str) -> Vec<Record> {
    let mut games = Vec::new();
    read_csa_each(text, &mut |g| games.push(g));
    games
}

/// [`read_csa`], each game handed to `each` as soon as it is read.
pub fn read_csa_each(text: &str, each: &mut dyn FnMut(Record)) {
    let mut game = Game::new();
    let mut lines = crate::decode::Lines::new(text);
    let mut n = 0;
    while let Some(raw) = lines.next() {
        n += 1;
        // The common lines, moves and times, go straight to their statement.
        if plain_statement(raw) {
            game.bytes_left = game.left_in_game(lines.rest());
            game.statement(raw, n, raw);
            continue;
        }
        let line = trim_line(raw);
        if line.is_empty() {
            continue;
        }
        if line == "/" {
            if let Some(g) = std::mem::replace(&mut game, Game::new()).finish() {
                each(g);
            }
            continue;
        }
        // `,` joins statements; a comment, a name or a header runs to the end of the line.
        let mut rest = line;
        loop {
            rest = rest.trim_start_matches([' ', '\t']);
            if rest.is_empty() {
                break;
            }
            let whole =
                rest.starts_with(['\'', '$']) || rest.starts_with("N+") || rest.starts_with("N-");
            let (statement, next) = match rest.find(',') {
                Some(comma) if !whole => (&rest[..comma], &rest[comma + 1..]),
                _ => (rest, ""),
            };
            let statement = statement.trim_end_matches([' ', '\t']);
            if !statement.is_empty() {
                game.bytes_left = game.left_in_game(lines.rest());
                game.statement(statement, n, raw);
            }
            rest = next;
        }
    }
    if let Some(g) = game.finish() {
        each(g);
    }
}

/// The main line being played.
struct Play {
    /// The line: its position, and whether a move could not be played (the rest of the game
    /// is then skipped).
    line: OpenLine,
    /// Each side's seconds so far, for the totals the format leaves out.
    totals: [f64; 2],
}

/// One game being read.
struct Game {
    rec: Record,
    /// Whether any statement was read (a game of nothing is no game).
    any: bool,
    setup: Setup,
    play: Option<Play>,
    /// The terminal came from `%KACHI` (checked at the end of the game).
    kachi: bool,
    /// Floodgate's `'summary:…` line, when there is one.
    summary: Option<String>,
    /// The line of the last statement, for errors found at the end.
    last_line: usize,
    /// How many bytes of the game follow the line being read (to size the move list).
    bytes_left: usize,
    /// How many bytes of the file follow the game (from the next `/` line on), found once.
    after_game: Option<usize>,
}

impl Game {
    fn new() -> Game {
        Game {
            rec: Record::default(),
            any: false,
            setup: Setup::default(),
            play: None,
            kachi: false,
            summary: None,
            last_line: 0,
            bytes_left: 0,
            after_game: None,
        }
    }

    /// The bytes of this game in `rest` (the file after the line being read): up to the next
    /// `/` line. Sized from the whole rest of the file, every game of a file of 100,000 held
    /// room for 513 moves (87 KB) until the end. The separator is looked for once a game.
    fn left_in_game(&mut self, rest: &str) -> usize {
        let after = *self
            .after_game
            .get_or_insert_with(|| rest.len() - rest.find("\n/").unwrap_or(rest.len()));
        rest.len().saturating_sub(after)
    }

    fn error(&mut self, line: usize, column: usize, message: impl Into<String>) {
        self.rec.errors.push(ReadError::new(line, column, message));
    }

    fn warning(&mut self, line: usize, column: usize, message: impl Into<String>) {
        self.rec
            .errors
            .push(ReadError::warning(line, column, message));
    }

    fn statement(&mut self, s: &str, n: usize, raw: &str) {
        self.any = true;
        self.last_line = n;
        let b = s.as_bytes();
        match b[0] {
            b'\'' => self.comment(&s[1..]),
            b'V' => {
                if !matches!(&s[1..], "2" | "2.1" | "2.2" | "3.0") {
                    let col = column(raw, s);
                    self.warning(
                        n,
                        col,
                        format!("'{s}' is no CSA version kifudex knows (V2, V2.1, V2.2, V3.0); read as V3.0"),
                    );
                }
            }
            b'N' if matches!(b.get(1), Some(b'+' | b'-')) => {
                let value = s[2..].trim();
                self.rec
                    .headers
                    .push((s[..2].to_string(), value.to_string()));
            }
            b'$' => match s.split_once(':') {
                Some((key, value)) => {
                    self.rec
                        .headers
                        .push((key.to_string(), value.trim().to_string()));
                }
                None => {
                    let col = column(raw, s);
                    self.warning(
                        n,
                        col,
                        format!("the header '{s}' has no ':' between key and value; ignored"),
                    );
                }
            },
            b'P' if self.play.is_some() => {
                let col = column(raw, s);
                let message =
                    format!("'{s}': the start position is given after the moves began; ignored");
                self.error(n, col, message);
            }
            b'P' => self.setup.statement(s, n, raw, &mut self.rec.errors),
            b'+' | b'-' if b.len() == 1 => {
                if self.play.is_some() {
                    let col = column(raw, s);
                    self.error(n, col, "a side-to-move line after the moves began; ignored");
                } else {
                    self.setup.side = sign(b[0]);
                }
            }
            b'+' | b'-' => self.play_move(s, n, raw),
            b'T' => self.time(s, n, raw),
            b'%' => self.terminal(s, n, raw),
            b'#' => self.server_line(s, n, raw),
            // An engine line that lost its `'` (`** 1248 -7667NG …`).
            b'*' if b.get(1) == Some(&b'*') => self.comment(s),
            _ => {
                let col = column(raw, s);
                self.error(n, col, format!("'{s}' is no CSA statement; ignored"));
            }
        }
    }

    /// `'*` a comment on the position, `'**` engine output, any other `'` line a note.
    fn comment(&mut self, text: &str) {
        let rec = &mut self.rec;
        if let Some(c) = text.strip_prefix('*') {
            // Before the first move, time or terminal no line is open: on the start position.
            let comment = c.to_string();
            match &self.play {
                // The main line always has a place for it.
                Some(play) => {
                    let _ = play.line.comment(rec, comment, Remark::MaybeEngine);
                }
                None => start_comment(rec, comment, Remark::MaybeEngine),
            }
            return;
        }
        if text.starts_with("summary:") {
            self.summary = Some(text.to_string());
        }
        let after = rec.main.moves.len() + usize::from(rec.main.terminal.is_some());
        rec.notes.push(Note {
            after,
            text: text.to_string(),
        });
    }

    /// The start position, built when the first move, time or terminal comes (or at the end).
    /// `first` is the colour of the first move, which gives the side to move when no line does.
    fn begin(&mut self, n: usize, first: Option<Color>) {
        if self.play.is_none() {
            let (start, ok) = self.setup.build(n, first, &mut self.rec.errors);
            self.rec.start = start.clone();
            self.rec.start_stated = self.setup.states_position();
            // A broken board: whatever moves follow are not read.
            self.rec.incomplete = !ok;
            let mut line = OpenLine::main(start);
            line.dead = !ok;
            self.play = Some(Play {
                line,
                totals: [0.0; 2],
            });
        }
    }

    fn play_move(&mut self, s: &str, n: usize, raw: &str) {
        self.begin(n, sign(s.as_bytes()[0]));
        let Some(play) = self.play.as_mut().filter(|p| !p.line.dead) else {
            return;
        };
        let line = &mut self.rec.main;
        let ply = line.moves.len() + 1;
        if let Some(t) = &line.terminal {
            let message = format!(
                "'{s}' comes after the game ended ({}); it and what follows are ignored",
                t.kind
            );
            play.line.dead = true;
            self.rec
                .errors
                .push(ReadError::new(n, column(raw, s), message));
            return;
        }
        let played = parse_move(&play.line.pos, s).and_then(|mv| {
            if line.moves.is_empty() {
                // A move takes eight bytes or more (`+7776FU` and its line end), often more
                // with its time: room for what is left, without growing.
                line.moves.reserve(self.bytes_left.min(4096) / 8 + 1);
            }
            play.line.play(line, mv, None, s)
        });
        if let Err(e) = played {
            let message = format!("move {ply}: {e}; the game is read up to move {}", ply - 1);
            play.line
                .fail(&mut self.rec, ReadError::new(n, column(raw, s), message));
        }
    }

    /// `T12`: the seconds spent on the move (or terminal) just read.
    fn time(&mut self, s: &str, n: usize, raw: &str) {
        let col = column(raw, s);
        let Some(spent) = seconds(&s[1..]) else {
            self.error(
                n,
                col,
                format!("'{s}' is no time in seconds (like T12 or T6.123); ignored"),
            );
            return;
        };
        if self.play.is_none() {
            self.error(
                n,
                col,
                format!("'{s}': a time with no move before it; ignored"),
            );
            return;
        }
        let start_side = self.rec.start.side_to_move();
        let Some(play) = self.play.as_mut().filter(|p| !p.line.dead) else {
            return;
        };
        let line = &mut self.rec.main;
        let errors = &mut self.rec.errors;
        let count = line.moves.len();
        let (slot, mover) = match (&mut line.terminal, line.moves.last_mut()) {
            (Some(t), _) => (&mut t.time, count),
            (None, Some(m)) => (&mut m.time, count - 1),
            (None, None) => {
                let message = format!("'{s}': a time with no move before it; ignored");
                errors.push(ReadError::new(n, col, message));
                return;
            }
        };
        if slot.is_some() {
            let message = format!("'{s}': a second time for the same move; ignored");
            errors.push(ReadError::new(n, col, message));
            return;
        }
        let mover = if mover % 2 == 0 {
            start_side
        } else {
            start_side.opponent()
        };
        let total = &mut play.totals[mover.index()];
        *total += spent;
        *slot = Some(MoveTime {
            spent,
            total: Some(*total),
        });
    }

    fn terminal(&mut self, s: &str, n: usize, raw: &str) {
        let col = column(raw, s);
        self.begin(n, None);
        let Some(play) = self.play.as_ref().filter(|p| !p.line.dead) else {
            return;
        };
        let to_move = play.line.pos.side_to_move();
        let Some(kind) = terminal_kind(&s[1..], to_move) else {
            self.error(
                n,
                col,
                format!("'{s}' is no CSA terminal (like %TORYO); ignored"),
            );
            return;
        };
        if let Some(t) = &self.rec.main.terminal {
            // Floodgate logs a client's `%KACHI,'* …` and then its own `%KACHI`: the same end twice.
            if t.kind == kind {
                return;
            }
            let message = format!("'{s}' comes after the game ended ({}); ignored", t.kind);
            self.warning(n, col, message);
            return;
        }
        self.kachi = &s[1..] == "KACHI";
        self.rec.main.terminal = Some(Terminal::new(kind, None));
    }

    /// A CSA server-protocol line a client wrote into its log (`#RESIGN`, `#WIN` …): it
    /// confirms the end, or gives it when no `%` line did. `#WIN`, `#LOSE`, `#DRAW` and
    /// `#CENSORED` speak for the log's owner, whose side the log does not say: they are read
    /// and add nothing.
    fn server_line(&mut self, s: &str, n: usize, raw: &str) {
        use TerminalKind::*;
        let kind = match &s[1..] {
            "RESIGN" => Resign,
            "TIME_UP" => TimeUp,
            "ILLEGAL_MOVE" => IllegalMove,
            "SENNICHITE" | "OUTE_SENNICHITE" => Repetition,
            // The server's answer to a right %KACHI.
            "JISHOGI" => EnteringKingWin,
            "MAX_MOVES" => MaxMoves,
            "CHUDAN" => Abort,
            "WIN" | "LOSE" | "DRAW" | "CENSORED" => return,
            _ => {
                let col = column(raw, s);
                self.warning(
                    n,
                    col,
                    format!("'{s}' is no CSA server message (like #RESIGN); ignored"),
                );
                return;
            }
        };
        if self.rec.main.terminal.is_some() {
            return;
        }
        self.begin(n, None);
        if self.play.as_ref().is_some_and(|p| !p.line.dead) {
            self.rec.main.terminal = Some(Terminal::new(kind, None));
            self.kachi = kind == EnteringKingWin;
        }
    }

    fn finish(mut self) -> Option<Record> {
        if !self.any {
            return None;
        }
        if self.play.is_none() {
            self.begin(self.last_line, None);
        }
        self.settle_result();
        Some(self.rec)
    }

    /// A `%KACHI` declaration is the declarer's win unless Floodgate's summary rules it
    /// illegal (反則負け then); one the CSA 27-point rule refuses is flagged
    /// ([`Record::invalid_declaration`]), its result kept. With no `%` terminal, a Floodgate
    /// summary gives the end.
    fn settle_result(&mut self) {
        let Some(to_move) = self.play.as_ref().map(|p| p.line.pos.side_to_move()) else {
            return;
        };
        self.default_result(to_move);
        let Some(play) = &self.play else { return };
        let summary = self
            .summary
            .as_deref()
            .and_then(|s| summary_terminal(s, to_move));
        match &mut self.rec.main.terminal {
            // The server's ruling, when the log has it, is the result; otherwise the record's
            // word is, and kifudex's own check only flags a declaration it would refuse.
            Some(t) if self.kachi => match summary {
                Some(TerminalKind::IllegalLoss) => t.kind = TerminalKind::IllegalLoss,
                Some(TerminalKind::EnteringKingWin) => {}
                _ => self.rec.check_declaration(),
            },
            None if !play.line.dead => {
                if let Some(kind) = summary {
                    self.rec.main.terminal = Some(Terminal::new(kind, None));
                }
            }
            _ => {}
        }
    }
}

impl Game {
    /// A `%CHUDAN` followed by the remark this writer gives a kind CSA has no word for
    /// (`'まで0手で先手の不戦勝`, see `write::default_remark`) is that kind; the remark, which
    /// only said so, goes.
    fn default_result(&mut self, to_move: Color) {
        let plies = self.rec.main.moves.len();
        let Some(t) = self.rec.main.terminal.as_mut() else {
            return;
        };
        if t.kind != TerminalKind::Abort {
            return;
        }
        let found = self.rec.notes.iter().enumerate().find_map(|(i, n)| {
            let summary = n.text.strip_prefix("まで")?;
            let kind = crate::kif::summary_terminal(summary, to_move)?;
            (n.after == plies + 1
                && terminals::write(kind, to_move).is_none()
                && write::default_remark(kind, plies, to_move).as_deref() == Some(&n.text))
            .then_some((i, kind))
        });
        if let Some((i, kind)) = found {
            t.kind = kind;
            self.rec.notes.remove(i);
        }
    }
}

/// The terminal a Floodgate summary gives (`summary:toryo:alice lose:bob win`, Sente first),
/// `to_move` being the side to move at the end.
fn summary_terminal(summary: &str, to_move: Color) -> Option<TerminalKind> {
    use TerminalKind::*;
    let mut parts = summary.strip_prefix("summary:")?.split(':');
    let kind = parts.next()?.trim();
    let sente = parts.next().unwrap_or("").trim_end();
    let gote = parts.next().unwrap_or("").trim_end();
    let winner = if sente.ends_with(" win") {
        Some(Color::Black)
    } else if gote.ends_with(" win") {
        Some(Color::White)
    } else {
        None
    };
    Some(match kind {
        "toryo" => Resign,
        "time up" => TimeUp,
        "sennichite" | "oute_sennichite" => Repetition,
        "max_moves" => MaxMoves,
        "kachi" => EnteringKingWin,
        "illegal kachi" => IllegalLoss,
        "abnormal" => Abort,
        // illegal move, uchifuzume, oute_kaihimore, outori: a foul by one side.
        _ => match winner {
            Some(w) if w == to_move => IllegalWin,
            Some(_) => IllegalMove,
            None => return None,
        },
    })
}

/// A move statement `+7776FU` in `pos`: the piece code is the piece after the move, so a
/// promotion is an unpromoted piece on the origin with its promoted code.
pub fn parse_move(pos: &Position, s: &str) -> Result<Move, MoveTextError> {
    let b = s.as_bytes();
    let syntax = || {
        MoveTextError::new(
            MoveTextErrorKind::Syntax,
            format!("'{s}' is no CSA move (like +7776FU)"),
        )
    };
    if b.len() != 7 {
        return Err(syntax());
    }
    let color = sign(b[0]).ok_or_else(syntax)?;
    let from = square_code(&b[1..3]).ok_or_else(syntax)?;
    let to = square_code(&b[3..5]).flatten().ok_or_else(syntax)?;
    let kind = piece_code(&b[5..7]).ok_or_else(syntax)?;
    let us = pos.side_to_move();
    if color != us {
        return Err(MoveTextError::new(
            MoveTextErrorKind::WrongSide,
            format!(
                "{s} is {}'s move, but it is {}'s turn",
                color.name(),
                us.name()
            ),
        ));
    }
    let Some(from) = from else {
        if kind.index() >= 7 {
            return Err(MoveTextError::new(
                MoveTextErrorKind::CannotDrop,
                format!("{s}: a {} ({}) cannot be dropped", kind.name(), &s[5..]),
            ));
        }
        return Ok(Move::Drop { kind, to });
    };
    let on = pos.piece_at(from).ok_or_else(|| {
        MoveTextError::new(
            MoveTextErrorKind::NoPiece,
            format!(
                "{s} cannot be played: there is no piece on {}",
                from.digits()
            ),
        )
    })?;
    let promote = if on.kind == kind {
        false
    } else if on.kind.promoted() == Some(kind) {
        true
    } else {
        return Err(MoveTextError::new(
            MoveTextErrorKind::WrongPiece,
            format!(
                "{s} cannot be played: the piece on {} is a {} ({}), not a {} ({})",
                from.digits(),
                on.kind.name(),
                on.kind.csa(),
                kind.name(),
                kind.csa()
            ),
        ));
    };
    Ok(Move::Board { from, to, promote })
}
