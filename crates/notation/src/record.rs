//! The record model every reader fills and every writer reads: headers in their original
//! order, the start position, a move tree with variations, comments, bookmarks and times,
//! the terminal, the winner, the first illegal move, and the reader's errors.

use std::fmt;

use kifudex_shogi::{Color, Handicap, Move, Position, Rule, Violations};

/// How bad a problem is. An *error* is something the file holds that kifudex could not keep
/// (a move that cannot be applied, a broken board, an unreadable file); a *warning* is a line
/// skipped although it holds no game data, or a default kifudex had to assume. Imports and
/// conversions fail on errors only.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Severity {
    #[default]
    Error,
    Warning,
}

impl Severity {
    /// The name used in JSON output and the database.
    pub fn code(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }

    pub fn from_code(code: &str) -> Option<Severity> {
        match code {
            "error" => Some(Severity::Error),
            "warning" => Some(Severity::Warning),
            _ => None,
        }
    }
}

/// A problem found while reading, with where it is. Reading goes on after most of them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct ReadError {
    /// 1-based line of the file.
    pub line: usize,
    /// 1-based column (in characters) where the problem starts.
    pub column: usize,
    pub message: String,
    pub severity: Severity,
}

/// The most characters of a file a message quotes: a longer quote keeps its start and says
/// how much was cut (a 50 MB line of junk is not written back whole to the terminal and the
/// database).
pub const MAX_QUOTE: usize = 80;

/// The most characters of a message, whatever it quotes.
const MAX_MESSAGE: usize = 4 * MAX_QUOTE;

impl ReadError {
    /// A problem at `line` and `column`. What the message quotes between its first and last
    /// `'` is cut to [`MAX_QUOTE`] characters, and the message itself to a few times that.
    pub fn new(line: usize, column: usize, message: impl Into<String>) -> ReadError {
        ReadError {
            line,
            column,
            message: shorten(message.into()),
            severity: Severity::Error,
        }
    }

    /// A warning: a line skipped that holds no game data, or a default assumed.
    pub fn warning(line: usize, column: usize, message: impl Into<String>) -> ReadError {
        ReadError {
            severity: Severity::Warning,
            ..ReadError::new(line, column, message)
        }
    }

    pub fn is_warning(&self) -> bool {
        self.severity == Severity::Warning
    }
}

/// `s` cut to at most `max` characters, marked when cut.
pub fn excerpt(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => std::borrow::Cow::Borrowed(s),
        Some((end, _)) => {
            let more = s[end..].chars().count();
            std::borrow::Cow::Owned(format!("{}… ({more} more characters)", &s[..end]))
        }
    }
}

fn shorten(message: String) -> String {
    if message.len() <= MAX_QUOTE {
        return message;
    }
    let mut message = match (message.find('\''), message.rfind('\'')) {
        (Some(a), Some(b)) if b > a + 1 => {
            let quote = &message[a + 1..b];
            match excerpt(quote, MAX_QUOTE) {
                std::borrow::Cow::Borrowed(_) => message,
                std::borrow::Cow::Owned(cut) => {
                    format!("{}{cut}{}", &message[..a + 1], &message[b..])
                }
            }
        }
        _ => message,
    };
    if let std::borrow::Cow::Owned(cut) = excerpt(&message, MAX_MESSAGE) {
        message = cut;
    }
    message
}

/// Time spent on a move, and the mover's total so far when the record gives it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MoveTime {
    /// Seconds spent on this move (CSA V3 allows fractions).
    pub spent: f64,
    /// The mover's total seconds after this move, when known.
    pub total: Option<f64>,
}

/// How a game (or a variation) ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TerminalKind {
    Resign,
    Abort,
    Repetition,
    Impasse,
    TimeUp,
    IllegalMove,
    /// The previous move was illegal: the side to move wins (反則勝ち).
    IllegalWin,
    /// The side to move lost by a foul (反則負け).
    IllegalLoss,
    EnteringKingWin,
    EnteringKingDraw,
    /// 不戦勝: the side to move wins without play.
    DefaultWin,
    /// 不戦敗: the side to move loses without play.
    DefaultLoss,
    /// 詰み: the side to move is mated.
    Mate,
    /// 不詰: the problem has no mate.
    NoMate,
    Takeback,
    MaxMoves,
    Error,
}

impl TerminalKind {
    pub const ALL: [TerminalKind; 17] = [
        TerminalKind::Resign,
        TerminalKind::Abort,
        TerminalKind::Repetition,
        TerminalKind::Impasse,
        TerminalKind::TimeUp,
        TerminalKind::IllegalMove,
        TerminalKind::IllegalWin,
        TerminalKind::IllegalLoss,
        TerminalKind::EnteringKingWin,
        TerminalKind::EnteringKingDraw,
        TerminalKind::DefaultWin,
        TerminalKind::DefaultLoss,
        TerminalKind::Mate,
        TerminalKind::NoMate,
        TerminalKind::Takeback,
        TerminalKind::MaxMoves,
        TerminalKind::Error,
    ];

    /// The name used in JSON output and the database.
    pub fn code(self) -> &'static str {
        use TerminalKind::*;
        match self {
            Resign => "resign",
            Abort => "abort",
            Repetition => "repetition",
            Impasse => "impasse",
            TimeUp => "time_up",
            IllegalMove => "illegal_move",
            IllegalWin => "illegal_win",
            IllegalLoss => "illegal_loss",
            EnteringKingWin => "entering_king_win",
            EnteringKingDraw => "entering_king_draw",
            DefaultWin => "default_win",
            DefaultLoss => "default_loss",
            Mate => "mate",
            NoMate => "no_mate",
            Takeback => "takeback",
            MaxMoves => "max_moves",
            Error => "error",
        }
    }

    pub fn from_code(code: &str) -> Option<TerminalKind> {
        TerminalKind::ALL.into_iter().find(|t| t.code() == code)
    }

    /// The result when the game ends this way with `to_move` to move.
    pub fn result(self, to_move: Color) -> GameResult {
        use TerminalKind::*;
        match self {
            Resign | TimeUp | IllegalLoss | DefaultLoss | Mate | IllegalMove => {
                GameResult::Win(to_move.opponent())
            }
            IllegalWin | EnteringKingWin | DefaultWin => GameResult::Win(to_move),
            Repetition | Impasse | EnteringKingDraw | MaxMoves => GameResult::Draw,
            Abort | NoMate | Takeback | Error => GameResult::Unknown,
        }
    }
}

impl fmt::Display for TerminalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Who won.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Win(Color),
    Draw,
    Unknown,
}

impl GameResult {
    /// `sente`, `gote`, `draw`, or `None`.
    pub fn code(self) -> Option<&'static str> {
        match self {
            GameResult::Win(Color::Black) => Some("sente"),
            GameResult::Win(Color::White) => Some("gote"),
            GameResult::Draw => Some("draw"),
            GameResult::Unknown => None,
        }
    }

    /// The result a [`GameResult::code`] names (anything else: unknown).
    pub fn from_code(code: Option<&str>) -> GameResult {
        match code {
            Some("sente") => GameResult::Win(Color::Black),
            Some("gote") => GameResult::Win(Color::White),
            Some("draw") => GameResult::Draw,
            _ => GameResult::Unknown,
        }
    }
}

/// The end of a line: how it ended, with the time and comments the record gives there.
#[derive(Clone, Debug, PartialEq)]
pub struct Terminal {
    pub kind: TerminalKind,
    pub time: Option<MoveTime>,
    pub comments: Vec<String>,
}

impl Terminal {
    /// The end `kind`, reached with `time`, with no comment yet.
    pub fn new(kind: TerminalKind, time: Option<MoveTime>) -> Terminal {
        Terminal {
            kind,
            time,
            comments: Vec::new(),
        }
    }
}

/// One move of a line and everything recorded with it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveNode {
    pub mv: Move,
    pub time: Option<MoveTime>,
    /// Comments on the position after this move, one entry per comment line.
    pub comments: Vec<String>,
    /// Bookmarks (KIF `&`) on the position after this move.
    pub bookmarks: Vec<String>,
    /// Engine output on the position after this move (KIF `**`, CSA `'**` lines: evaluations,
    /// principal variations), one entry per line, kept apart from the human comments.
    pub engine: Vec<String>,
    /// Other moves played instead of this one, each with its continuation.
    pub variations: Vec<Line>,
    /// The rules this move broke (empty for a legal move).
    pub violations: Violations,
}

impl MoveNode {
    pub fn new(mv: Move) -> MoveNode {
        MoveNode {
            mv,
            time: None,
            comments: Vec::new(),
            bookmarks: Vec::new(),
            engine: Vec::new(),
            variations: Vec::new(),
            violations: Violations::default(),
        }
    }
}

/// Appends a move to a line, with its time and the rules it broke: what the readers do for
/// every move they read.
#[inline]
pub(crate) fn push_move(
    moves: &mut Vec<MoveNode>,
    mv: Move,
    time: Option<MoveTime>,
    violations: Violations,
) {
    // Room first, then the node written straight into it: a node put together on the stack
    // (as `push` needs it, across the call that may grow the list) is copied in 16-byte
    // pieces over the narrow stores that built it, which stalls the copy.
    let len = moves.len();
    moves.resize_with(len + 1, || MoveNode {
        time,
        violations,
        ..MoveNode::new(mv)
    });
}

/// How deep variations may nest: a variation of the main line is at depth 1, a variation
/// inside it at depth 2, and so on. Every reader cuts deeper variations (an error names the
/// first line cut; the rest of the record is kept), so that the writers, the stored tree
/// (which holds no more than 257 levels), the text index and dropping a record, which all
/// recurse once a level, stay within a thread's stack whatever a file holds.
pub const MAX_VARIATION_DEPTH: usize = 100;

/// How many moves one record may hold, its main line and variations together. Every reader
/// stops there (one error says so; what was read is kept), so that reading one file takes a
/// bounded amount of memory whatever it holds: a move costs 200 to 650 bytes once read, and
/// no real record comes near (the longest games have a few thousand moves, large analysis
/// trees tens of thousands).
pub const MAX_RECORD_MOVES: usize = 400_000;

/// A sequence of moves, perhaps ending with a terminal.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Line {
    pub moves: Vec<MoveNode>,
    pub terminal: Option<Terminal>,
}

impl Line {
    /// How many variations the line holds, nested ones included.
    pub fn variation_count(&self) -> usize {
        self.moves
            .iter()
            .map(|m| {
                m.variations.len()
                    + m.variations
                        .iter()
                        .map(Line::variation_count)
                        .sum::<usize>()
            })
            .sum()
    }

    /// How many engine-output lines the line holds, variations included.
    pub fn engine_line_count(&self) -> usize {
        self.moves
            .iter()
            .map(|m| {
                m.engine.len()
                    + m.variations
                        .iter()
                        .map(Line::engine_line_count)
                        .sum::<usize>()
            })
            .sum()
    }

    /// How many comment lines the line holds, variations and terminal included.
    pub fn comment_count(&self) -> usize {
        self.moves
            .iter()
            .map(|m| m.comments.len() + m.variations.iter().map(Line::comment_count).sum::<usize>())
            .sum::<usize>()
            + self.terminal.as_ref().map_or(0, |t| t.comments.len())
    }
}

/// A remark of the file that is no comment on a position: a CSA `'` line (a writer's banner,
/// Floodgate's `'summary:…`, an old engine's evaluation), kept with its place in the main line.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    /// How many main-line entries come before it: its moves, then one more for the terminal.
    pub after: usize,
    pub text: String,
}

/// One game as read from a file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Record {
    /// Every header with its original key, in file order.
    pub headers: Vec<(String, String)>,
    pub start: Position,
    /// Comments on the start position.
    pub start_comments: Vec<String>,
    /// Bookmarks on the start position.
    pub start_bookmarks: Vec<String>,
    /// Engine output on the start position (see [`MoveNode::engine`]).
    pub start_engine: Vec<String>,
    pub main: Line,
    /// The file's remarks that are neither comments on a position nor engine output.
    pub notes: Vec<Note>,
    /// Problems found while reading, errors and warnings (see [`Severity`]). Reading went on
    /// after each.
    pub errors: Vec<ReadError>,
    /// The main line ends with an entering-king win (`%KACHI`, 入玉勝ち) that kifudex's own
    /// check of the 27-point rule refuses (see [`Record::check_declaration`]).
    pub invalid_declaration: bool,
    /// The main line stops at a move that could not be applied: the game went on in the file
    /// but not here.
    pub incomplete: bool,
    /// The file states the start position in so many words (CSA's `PI` or `P1`…`P9` and the
    /// side to move, a USI `startpos` or SFEN line): a record even of no moves, as the
    /// reference readers read it.
    pub start_stated: bool,
}

/// The header keys [`Record::sente`] looks under, in order.
pub const SENTE_KEYS: [&str; 5] = ["先手", "下手", "N+", "Sente", "Black"];
/// The header keys [`Record::gote`] looks under, in order.
pub const GOTE_KEYS: [&str; 5] = ["後手", "上手", "N-", "Gote", "White"];
/// The header keys [`Record::event`] looks under, in order.
pub const EVENT_KEYS: [&str; 4] = ["棋戦", "EVENT", "$EVENT", "Event"];
/// The header keys [`Record::opening`] looks under, in order.
pub const OPENING_KEYS: [&str; 4] = ["戦型", "OPENING", "$OPENING", "Opening"];
/// The header keys [`Record::title`] looks under, in order.
pub const TITLE_KEYS: [&str; 2] = ["表題", "作品名"];

impl Record {
    /// The first value of the first of `keys` that the headers hold (non-empty).
    pub fn header(&self, keys: &[&str]) -> Option<&str> {
        keys.iter().find_map(|k| {
            self.headers
                .iter()
                .find(|(key, v)| key == k && !v.trim().is_empty())
                .map(|(_, v)| v.trim())
        })
    }

    /// 先手 (or 下手 in a handicap game).
    pub fn sente(&self) -> Option<&str> {
        self.header(&SENTE_KEYS)
    }

    /// 後手 (or 上手 in a handicap game).
    pub fn gote(&self) -> Option<&str> {
        self.header(&GOTE_KEYS)
    }

    pub fn event(&self) -> Option<&str> {
        self.header(&EVENT_KEYS)
    }

    /// The opening (戦型).
    pub fn opening(&self) -> Option<&str> {
        self.header(&OPENING_KEYS)
    }

    pub fn title(&self) -> Option<&str> {
        self.header(&TITLE_KEYS)
    }

    pub fn site(&self) -> Option<&str> {
        self.header(&["場所", "SITE", "$SITE", "Site"])
    }

    pub fn start_time(&self) -> Option<&str> {
        self.header(&["開始日時", "対局日", "START_TIME", "$START_TIME", "Date"])
    }

    pub fn end_time(&self) -> Option<&str> {
        self.header(&["終了日時", "END_TIME", "$END_TIME", "EndDate"])
    }

    pub fn time_control(&self) -> Option<&str> {
        self.header(&[
            "持ち時間",
            "TIME_LIMIT",
            "TIME",
            "$TIME_LIMIT",
            "$TIME",
            "TimeControl",
        ])
    }

    /// The named handicap of the start position, or その他.
    pub fn handicap(&self) -> Handicap {
        Handicap::detect(&self.start)
    }

    /// The main line's terminal, if the record gives one.
    pub fn terminal(&self) -> Option<TerminalKind> {
        self.main.terminal.as_ref().map(|t| t.kind)
    }

    /// Who won, from the terminal and the side to move when it came.
    pub fn result(&self) -> GameResult {
        let Some(kind) = self.terminal() else {
            return GameResult::Unknown;
        };
        let side = if self.main.moves.len().is_multiple_of(2) {
            self.start.side_to_move()
        } else {
            self.start.side_to_move().opponent()
        };
        if kind == TerminalKind::Repetition {
            return self.repetition_result().unwrap_or(GameResult::Draw);
        }
        kind.result(side)
    }

    /// For a 千日手 ending: a perpetual check loses for the checking side.
    fn repetition_result(&self) -> Option<GameResult> {
        let mut p = self.start.clone();
        let mut history = kifudex_shogi::History::new(&p);
        for node in &self.main.moves {
            p.play(node.mv).ok()?;
            history.push(&p);
        }
        match history.repetition()? {
            kifudex_shogi::Repetition::PerpetualCheck { loser } => {
                Some(GameResult::Win(loser.opponent()))
            }
            kifudex_shogi::Repetition::Draw => Some(GameResult::Draw),
        }
    }

    /// The game's date: from the start time (開始日時, 対局日, `$START_TIME`), else from the
    /// end time.
    pub fn date(&self) -> Option<super::dates::GameDate> {
        [
            self.start_time(),
            self.header(&["対局日時"]),
            self.end_time(),
        ]
        .into_iter()
        .flatten()
        .find_map(super::dates::read_date)
    }

    /// Whether a problem of the reading is an error (not only warnings).
    pub fn has_errors(&self) -> bool {
        self.errors.iter().any(|e| !e.is_warning())
    }

    /// Nothing was read: no header, no move, no terminal, no comment, the usual start (and
    /// not stated: see [`Record::start_stated`]).
    pub fn is_blank(&self) -> bool {
        !self.start_stated
            && self.headers.is_empty()
            && self.main.moves.is_empty()
            && self.main.terminal.is_none()
            && self.start_comments.is_empty()
            && self.start == Position::startpos()
    }

    /// The first main-line move that broke a rule: (1-based ply, rule). A refused
    /// declaration counts at its own ply, after the last move.
    pub fn first_illegal(&self) -> Option<(usize, Rule)> {
        self.main
            .moves
            .iter()
            .enumerate()
            .find_map(|(i, m)| m.violations.first().map(|r| (i + 1, r)))
            .or_else(|| {
                self.invalid_declaration
                    .then(|| (self.main.moves.len() + 1, Rule::InvalidDeclaration))
            })
    }

    /// Checks an entering-king win of the main line against the CSA 27-point rule and sets
    /// [`Record::invalid_declaration`]; the terminal and the winner stay what the record says.
    /// The rule counts a full set of pieces each: handicap games are not checked.
    pub fn check_declaration(&mut self) {
        self.invalid_declaration = false;
        if self.terminal() != Some(TerminalKind::EnteringKingWin)
            || !matches!(self.handicap(), Handicap::Even | Handicap::Other)
        {
            return;
        }
        let mut p = self.start.clone();
        for node in &self.main.moves {
            if p.play(node.mv).is_err() {
                return;
            }
        }
        self.invalid_declaration = !p.can_declare_win();
    }
}
