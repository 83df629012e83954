//! PSN (Portable Shogi Notation, the PGN of shogi used by GNU Shogi and Western programs):
//! reading and writing.
//!
//! A game is tag pairs (`[Sente "Name"]`, `[Gote …]`, `[Event …]`, `[Date …]`, `[Handicap
//! "2 piece"]`, `[SFEN "…"]` or `[FEN "…"]` for a start position) and then movetext: moves in
//! Western notation with Hodges squares (`P-7f`, `Sx3c+`, `N-7c=`, `P*5e`, `+Bx2b`,
//! `G6i-5h`; Hosking's `P76` and `S'56` and USI `7g7f` are read too), move numbers (`1.`,
//! `1...`), comments `{…}` and `; …`, variations `( … )` nested to any depth, an ending
//! word (`Resign`, `Sennichite`, `TimeUp`…) and a result (`1-0` Sente wins, `0-1` Gote wins,
//! `1/2-1/2`, `*`). A file holds any number of games: a tag after movetext, or movetext
//! after a result, starts the next one.
//!
//! A move without origin is resolved on the position: exactly one piece of the kind named
//! must be able to go there (legally, else physically), or it is an error naming them.

use super::build::{OpenLine, Remark, full_message, line_at};
use super::decode::LineCounter;
use super::record::{GameResult, ReadError, Record, Terminal, TerminalKind};
use kifudex_shogi::{Color, Handicap, History, Position, Strictness};

mod moves;
mod write;

pub(crate) use moves::{parse_western, resolve_western};
pub use write::write_psn;

// ---------------------------------------------------------------------------------------
// Vocabulary

/// Handicap tag values as this writer writes them (the PSN drafts' "2 piece" … "8 piece").
pub(super) const HANDICAPS: [(Handicap, &str); 16] = [
    (Handicap::Even, "Even"),
    (Handicap::Lance, "Lance"),
    (Handicap::RightLance, "Right Lance"),
    (Handicap::Bishop, "Bishop"),
    (Handicap::Rook, "Rook"),
    (Handicap::RookLance, "Rook+Lance"),
    (Handicap::TwoPieces, "2 piece"),
    (Handicap::ThreePieces, "3 piece"),
    (Handicap::FourPieces, "4 piece"),
    (Handicap::FivePieces, "5 piece"),
    (Handicap::LeftFivePieces, "Left 5 piece"),
    (Handicap::SixPieces, "6 piece"),
    (Handicap::LeftSevenPieces, "Left 7 piece"),
    (Handicap::RightSevenPieces, "Right 7 piece"),
    (Handicap::EightPieces, "8 piece"),
    (Handicap::TenPieces, "10 piece"),
];

/// Lower case, letters and digits only, `and` and a plural `s` dropped: "Rook and Lance",
/// "rook+lance" and "Rook-Lance" are one name; "2 Pieces" and "2-piece" another.
fn handicap_key(name: &str) -> String {
    let s: String = name
        .to_lowercase()
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let s = s.replace("and", "");
    s.strip_suffix('s').map_or(s.clone(), str::to_string)
}

/// The handicap a `Handicap` tag names: this writer's English names and their variants,
/// `Left Lance`, `None`/`Hirate`, the KIF names (`香落ち`) and the JKF presets (`KY`, `2`).
pub fn handicap_from_name(name: &str) -> Option<Handicap> {
    let key = handicap_key(name);
    if ["none", "hirate", "even", "evengame"].contains(&key.as_str()) {
        return Some(Handicap::Even);
    }
    if key == "leftlance" {
        return Some(Handicap::Lance);
    }
    HANDICAPS
        .iter()
        .find(|(_, n)| handicap_key(n) == key)
        .map(|&(h, _)| h)
        .or_else(|| super::jkf::preset_handicap(name.trim()))
        .filter(|&h| h != Handicap::Other)
}

/// The PSN words for the endings, written as the CamelCase of [`TerminalKind::code`], with
/// the synonyms read.
const ENDINGS: [(&str, TerminalKind); 14] = [
    ("resigns", TerminalKind::Resign),
    ("toryo", TerminalKind::Resign),
    ("interrupt", TerminalKind::Abort),
    ("chudan", TerminalKind::Abort),
    ("sennichite", TerminalKind::Repetition),
    ("jishogi", TerminalKind::Impasse),
    ("kachi", TerminalKind::EnteringKingWin),
    ("hikiwake", TerminalKind::EnteringKingDraw),
    ("checkmate", TerminalKind::Mate),
    ("tsumi", TerminalKind::Mate),
    ("fuzumi", TerminalKind::NoMate),
    ("matta", TerminalKind::Takeback),
    ("fusensho", TerminalKind::DefaultWin),
    ("fusenpai", TerminalKind::DefaultLoss),
];

/// The ending a word names, whatever its case, `-` and `_` (`Resign`, `TIME_UP`, `time-up`).
pub fn ending_word(word: &str) -> Option<TerminalKind> {
    let key: String = word
        .chars()
        .filter(|&c| c != '-' && c != '_')
        .collect::<String>()
        .to_lowercase();
    TerminalKind::ALL
        .into_iter()
        .find(|k| k.code().replace('_', "") == key)
        .or_else(|| ENDINGS.iter().find(|e| e.0 == key).map(|e| e.1))
}

/// The word this writer uses for an ending: `Resign`, `TimeUp`, `EnteringKingWin`…
pub fn ending_text(kind: TerminalKind) -> String {
    kind.code()
        .split('_')
        .map(|part| {
            let mut c = part.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn result_token(word: &str) -> Option<GameResult> {
    match word {
        "1-0" => Some(GameResult::Win(Color::Black)),
        "0-1" => Some(GameResult::Win(Color::White)),
        "1/2-1/2" | "½-½" => Some(GameResult::Draw),
        "*" => Some(GameResult::Unknown),
        _ => None,
    }
}

/// Whether a line of text looks like PSN: a tag pair, or a numbered Western move (`1.P-7f`).
pub fn looks_like_psn(line: &str) -> bool {
    let t = line.trim();
    if let Some(rest) = t.strip_prefix('[') {
        let key_len = rest
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(rest.len());
        return key_len > 0 && rest[key_len..].trim_start().starts_with('"') && t.ends_with(']');
    }
    let word = t.split_whitespace().next().unwrap_or("");
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &word[digits..];
    if digits > 0 && rest.starts_with('.') {
        let mv = rest.trim_start_matches('.');
        let mv = if mv.is_empty() {
            t.split_whitespace().nth(1).unwrap_or("")
        } else {
            mv
        };
        return parse_western(mv).is_ok_and(|m| m.piece.is_some());
    }
    false
}

// ---------------------------------------------------------------------------------------
// Tokens

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok<'a> {
    /// The inside of `[…]`.
    Tag(&'a str),
    /// The inside of `{…}`, or the text after `;`.
    Comment(&'a str),
    OpenLine,
    Close,
    Word(&'a str),
    /// A problem found while splitting the text.
    Error(&'static str),
}

/// Splits movetext into tokens, handing each to `out` with its byte offset as it is found
/// (a file of 100,000 games is not held as tokens); an unclosed `{` or `[` is reported by an
/// error token after it.
fn tokens<'t>(text: &'t str, out: &mut impl FnMut(usize, Tok<'t>)) {
    let b = text.as_bytes();
    let mut i = 0;
    let line_end = |from: usize| {
        b[from..]
            .iter()
            .position(|&c| c == b'\n' || c == b'\r')
            .map_or(b.len(), |p| from + p)
    };
    while i < b.len() {
        let c = b[i];
        match c {
            _ if c.is_ascii_whitespace() => i += 1,
            b'[' => {
                // Up to the `]` outside quotes, on the same line.
                let end = line_end(i);
                let mut quoted = false;
                let mut j = i + 1;
                let mut close = None;
                while j < end {
                    match b[j] {
                        b'\\' if quoted => j += 1,
                        b'"' => quoted = !quoted,
                        b']' if !quoted => {
                            close = Some(j);
                            break;
                        }
                        _ => {}
                    }
                    j += 1;
                }
                out(i, Tok::Tag(&text[i + 1..close.unwrap_or(end)]));
                if close.is_none() {
                    out(i, Tok::Error("a tag '[' is not closed by ']' on its line"));
                }
                i = (close.unwrap_or(end) + 1).min(b.len());
            }
            b'{' => {
                let close = text[i + 1..].find('}').map(|p| i + 1 + p);
                let end = close.unwrap_or(b.len());
                out(i, Tok::Comment(&text[i + 1..end]));
                if close.is_none() {
                    out(i, Tok::Error("a comment '{' is not closed by '}'"));
                }
                i = (end + 1).min(b.len());
            }
            b';' => {
                let end = line_end(i);
                out(i, Tok::Comment(&text[i + 1..end]));
                i = end;
            }
            b'(' => {
                out(i, Tok::OpenLine);
                i += 1;
            }
            b')' => {
                out(i, Tok::Close);
                i += 1;
            }
            _ => {
                let end = b[i..]
                    .iter()
                    .position(|&c| c.is_ascii_whitespace() || b"[{;()".contains(&c))
                    .map_or(b.len(), |p| i + p);
                // A move number (`12.` `12...` `12…`) is its own word.
                let word = &text[i..end];
                let digits =
                    word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let after = &word[digits..];
                if digits > 0 && (after.starts_with('.') || after.starts_with('…')) {
                    let dots = after.len() - after.trim_start_matches(['.', '…']).len();
                    out(i, Tok::Word(&word[..digits + dots]));
                    if digits + dots < word.len() {
                        out(i + digits + dots, Tok::Word(&word[digits + dots..]));
                    }
                } else {
                    out(i, Tok::Word(word));
                }
                i = end;
            }
        }
    }
}

/// A tag's key and value: `Sente "Habu Yoshiharu"` (with `\"` and `\\` escapes), or an
/// unquoted value.
fn tag_pair(inside: &str) -> Option<(String, String)> {
    let inside = inside.trim();
    let key_end = inside.find(|c: char| c.is_whitespace() || c == '"')?;
    let key = &inside[..key_end];
    if key.is_empty() {
        return None;
    }
    let rest = inside[key_end..].trim_start();
    let value = match rest.strip_prefix('"') {
        Some(q) => {
            let mut v = String::new();
            let mut chars = q.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => v.extend(chars.next()),
                    '"' => break,
                    c => v.push(c),
                }
            }
            v
        }
        None => rest.to_string(),
    };
    Some((key.to_string(), value))
}

// ---------------------------------------------------------------------------------------
// Reading

use super::record::MAX_VARIATION_DEPTH as MAX_DEPTH;

/// One game being read.
struct Game {
    rec: Record,
    /// Tags that set the start: (key, value, offset).
    start_tags: Vec<(String, String, usize)>,
    /// The lines open, the main line first; empty before the movetext.
    stack: Vec<OpenLine>,
    /// Variations opened inside a line that is not read (dead, or nested too deep): only
    /// counted, so that `((((…` costs no memory however deep it goes.
    unread: usize,
    result: Option<GameResult>,
}

impl Game {
    fn new() -> Game {
        Game {
            rec: Record::default(),
            start_tags: Vec::new(),
            stack: Vec::new(),
            unread: 0,
            result: None,
        }
    }

    /// How many variations are open inside the main line.
    fn depth(&self) -> usize {
        (self.stack.len() + self.unread).saturating_sub(1)
    }

    fn has_content(&self) -> bool {
        !self.rec.headers.is_empty() || !self.stack.is_empty()
    }
}

struct Reader<'t, 'e> {
    /// Where each game read goes, and how many went.
    each: &'e mut dyn FnMut(Record),
    games: usize,
    game: Game,
    /// Errors come in text order: their lines are counted on from the last one.
    lines: LineCounter<'t>,
}

/// Reads every game of a PSN text. Text holding anything gives at least one game.
pub fn read_psn(text: &str) -> Vec<Record> {
    let mut games = Vec::new();
    read_psn_each(text, &mut |g| games.push(g));
    games
}

/// [`read_psn`], each game handed to `each` once read, instead of returned.
pub fn read_psn_each(text: &str, each: &mut dyn FnMut(Record)) {
    let mut r = Reader {
        each,
        games: 0,
        game: Game::new(),
        lines: LineCounter::new(text),
    };
    tokens(text, &mut |at, tok| r.token(at, tok));
    r.finish(text.len());
    if r.games == 0 && !text.trim().is_empty() {
        (r.each)(std::mem::take(&mut r.game.rec));
    }
}

impl Reader<'_, '_> {
    fn error(&mut self, at: usize, message: impl Into<String>) {
        let (line, column) = self.lines.line_column(at);
        self.game
            .rec
            .errors
            .push(ReadError::new(line, column, message));
    }

    fn token(&mut self, at: usize, tok: Tok) {
        if let Tok::Tag(inside) = tok {
            if !self.game.stack.is_empty() || self.game.result.is_some() {
                self.finish(at);
            }
            match tag_pair(inside) {
                Some((key, value)) => {
                    let k = key.to_ascii_lowercase();
                    if ["sfen", "fen", "handicap"].contains(&k.as_str()) {
                        self.game.start_tags.push((k, value.clone(), at));
                    }
                    self.game.rec.headers.push((key, value));
                }
                None => self.error(
                    at,
                    format!("'[{inside}]' is not a tag like [Sente \"Name\"]"),
                ),
            }
            return;
        }
        if let Tok::Error(message) = tok {
            self.error(at, message);
            return;
        }
        let is_comment = matches!(tok, Tok::Comment(_));
        if self.game.result.is_some() && !is_comment {
            self.finish(at);
        }
        if self.game.stack.is_empty() {
            self.begin_moves();
        }
        match tok {
            Tok::Tag(_) | Tok::Error(_) => {}
            Tok::Comment(text) => self.comment(at, text),
            Tok::OpenLine => self.open_variation(at),
            Tok::Close => {
                if self.game.unread > 0 {
                    self.game.unread -= 1;
                } else if self.game.stack.len() > 1 {
                    self.game.stack.pop();
                } else {
                    self.error(at, "')' closes no variation");
                }
            }
            Tok::Word(w) => self.word(at, w),
        }
    }

    /// Sets the start position from the tags and opens the main line.
    fn begin_moves(&mut self) {
        let mut start = None;
        for (key, value, at) in std::mem::take(&mut self.game.start_tags) {
            if start.is_some() {
                continue;
            }
            if key == "handicap" {
                match handicap_from_name(&value) {
                    Some(h) => start = h.position(),
                    None => self.error(
                        at,
                        format!("unknown handicap '{value}'; read as an even game"),
                    ),
                }
            } else {
                let sfen = value.trim().strip_prefix("sfen ").unwrap_or(value.trim());
                match Position::from_sfen_with(sfen, Strictness::PiecesOnly) {
                    Ok(p) => start = Some(p),
                    Err(e) => self.error(at, format!("the {key} tag is not a position: {e}")),
                }
            }
        }
        let start = start.unwrap_or_else(Position::startpos);
        self.game.rec.start = start.clone();
        self.game.stack.push(OpenLine::main(start));
    }

    fn comment(&mut self, at: usize, text: &str) {
        let lines: Vec<String> = if text.is_empty() {
            vec![String::new()]
        } else {
            super::decode::lines(text)
                .iter()
                .map(|s| s.to_string())
                .collect()
        };
        // The rest of a line that is not read keeps its comments out too.
        let Some(open) = self.game.stack.last().filter(|o| !o.dead) else {
            return;
        };
        let mut unplaced = false;
        for line in lines {
            unplaced |= open
                .comment(&mut self.game.rec, line, Remark::Plain)
                .is_err();
        }
        if unplaced {
            self.error(at, "a comment before a variation's first move is ignored");
        }
    }

    fn open_variation(&mut self, at: usize) {
        let Some(parent) = self.game.stack.last_mut() else {
            return;
        };
        if parent.dead || parent.is_full() {
            // A variation inside a line not read is not read either, nor one of a full
            // record (said once).
            let report = parent.report_full();
            self.game.unread += 1;
            if report {
                self.error(at, full_message());
            }
            return;
        }
        if parent.path.len() >= MAX_DEPTH {
            let d = OpenLine::nowhere(parent.first_ply);
            self.game.stack.push(d);
            self.error(
                at,
                format!("variations nested more than {MAX_DEPTH} deep are not read"),
            );
            return;
        }
        // A variation of the last move read.
        let last = parent
            .line(&mut self.game.rec.main)
            .map_or(0, |l| l.moves.len());
        let Some(variation) = last
            .checked_sub(1)
            .and_then(|index| parent.branch(&mut self.game.rec.main, index))
        else {
            let d = OpenLine::nowhere(parent.first_ply);
            self.game.stack.push(d);
            self.error(at, "a variation '(' before any move: it is ignored");
            return;
        };
        self.game.stack.push(variation);
    }

    fn word(&mut self, at: usize, w: &str) {
        // Move numbers, `...` placeholders and annotation glyphs carry nothing to keep.
        if w.starts_with(|c: char| c.is_ascii_digit()) && w.ends_with(['.', '…'])
            || w.chars().all(|c| matches!(c, '.' | '…' | '!' | '?'))
            || w.starts_with('$') && w[1..].bytes().all(|b| b.is_ascii_digit())
        {
            return;
        }
        if let Some(result) = result_token(w) {
            if self.game.depth() == 0 && !self.game.stack.is_empty() {
                self.game.result = Some(result);
            }
            return;
        }
        let Some(open) = self.game.stack.last_mut() else {
            return;
        };
        if open.dead {
            return;
        }
        let Some(line) = line_at(&mut self.game.rec.main, &open.path) else {
            return;
        };
        let ply = open.first_ply + line.moves.len();
        if let Some(t) = &line.terminal {
            let message = format!(
                "'{w}' comes after the end ({}); it and what follows in this line are ignored",
                ending_text(t.kind)
            );
            open.dead = true;
            self.error(at, message);
            return;
        }
        if !w.starts_with(|c: char| c.is_ascii_digit() || c == '+')
            && let Some(kind) = ending_word(w)
        {
            line.terminal = Some(Terminal::new(kind, None));
            return;
        }
        let played = parse_western(w)
            .and_then(|wm| resolve_western(&open.pos, &wm, w))
            .and_then(|mv| open.play(line, mv, None, w));
        if let Err(e) = played {
            let (n, column) = self.lines.line_column(at);
            let message = format!("move {ply}: {e}; the rest of the line is ignored");
            open.fail(&mut self.game.rec, ReadError::new(n, column, message));
        }
    }

    /// Ends the game being read (at byte `at`) and starts the next.
    fn finish(&mut self, at: usize) {
        if !self.game.has_content() && self.game.rec.errors.is_empty() {
            return;
        }
        if self.game.depth() > 0 {
            self.error(
                at,
                "a variation '(' is not closed by ')' before the game ends",
            );
        }
        let main_dead = self.game.stack.first().is_some_and(|o| o.dead);
        if self.game.stack.is_empty() {
            self.begin_moves();
        }
        let result = self
            .game
            .result
            .or_else(|| self.game.rec.header(&["Result"]).and_then(result_token));
        let rec = &mut self.game.rec;
        if rec.main.terminal.is_none()
            && !main_dead
            && let Some(kind) = result.and_then(|r| inferred_ending(rec, r))
        {
            rec.main.terminal = Some(Terminal::new(kind, None));
        }
        let game = std::mem::replace(&mut self.game, Game::new());
        self.games += 1;
        (self.each)(game.rec);
    }
}

/// The ending a result implies when no ending word is given: the loser to move resigned;
/// the winner to move won by the opponent's foul; a draw is a repetition if the final
/// position is one, else an impasse.
fn inferred_ending(rec: &Record, result: GameResult) -> Option<TerminalKind> {
    let mut pos = rec.start.clone();
    let mut history = History::new(&pos);
    for node in &rec.main.moves {
        let _ = pos.play(node.mv);
        history.push(&pos);
    }
    let to_move = pos.side_to_move();
    Some(match result {
        GameResult::Win(w) if w != to_move => TerminalKind::Resign,
        GameResult::Win(_) => TerminalKind::IllegalWin,
        GameResult::Draw if history.repetition().is_some() => TerminalKind::Repetition,
        GameResult::Draw => TerminalKind::Impasse,
        GameResult::Unknown => return None,
    })
}
