//! How a KIF or KI2 record says a game ended: the terminal words of move lines (`投了`,
//! `先手 反則負け`) and the `まで…` summary lines, in one table read by the KIF/KI2 reader
//! (and the JKF reader's Japanese names) and written back by the KIF/KI2 writer.
//!
//! The forms are those of Kifu for Windows, 柿木 (the KIF specification), ShogiGUI, 将棋所,
//! 将棋倶楽部24, ぴよ将棋 and Shogi Wars exports:
//!
//! | form | terminal | winner |
//! |---|---|---|
//! | `投了`, `まで N手で X の勝ち` | resign | X (the side not to move) |
//! | `まで N手で時間切れにより X の勝ち` (Kifu for Windows) | time_up | X |
//! | `切れ負け`, `時間切れ`, `まで N手で X の切れ負け` / `…時間切れ負け` | time_up | not X |
//! | `反則勝ち`, `まで N手で X の反則勝ち` | illegal_win (X to move) or illegal_loss | X |
//! | `反則負け`, `X 反則負け` (24), `まで N手で X の反則負け` | illegal_loss (X to move) or illegal_win | not X |
//! | `入玉勝ち`, `宣言勝ち`, `まで N手で X の入玉勝ち` | entering_king_win | X |
//! | `不戦勝` / `不戦敗`, `まで N手で X の不戦勝` / `…不戦敗` | default_win / default_loss | X / not X |
//! | any other `まで N手で X の…負け` | resign | not X |
//! | `中断`, `封じ手`, `まで N手で中断` / `…封じ手` | abort | none |
//! | `千日手` / `持将棋` | repetition / impasse | (perpetual check) / draw |
//! | `詰み`, `詰`, `まで N手詰` / `まで N手で詰み` | mate | the side not to move |
//! | `不詰` | no_mate | none |
//!
//! X is `先手` `後手` `下手` `上手` or a mark `▲ △ ☗ ☖`. A named side that contradicts the side to
//! move turns a foul or a default into its other half (`先手 反則負け` written on 後手's turn is
//! 後手's 反則勝ち): the record's named side decides the winner.

use crate::record::{GameResult, TerminalKind};
use kifudex_shogi::Color;

/// Whether a word names the winner, the loser, or neither.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Role {
    /// The named side (by default the side to move) wins.
    Wins,
    /// The named side (by default the side to move) loses.
    Loses,
    /// No side: a draw, an interruption, a problem's end.
    Neither,
}

/// Every terminal word, with what it means for the side it names (by default the side to move).
/// The last five are this program's own names for the endings the KIF specification has no
/// word for ([`terminal_name`]): written in `まで…` summaries and move lists, never on a move
/// line, where other programs read only the specification's words.
const WORDS: [(&str, TerminalKind, Role); 29] = {
    use Role::*;
    use TerminalKind::*;
    [
        ("投了", Resign, Loses),
        ("中断", Abort, Neither),
        ("封じ手", Abort, Neither),
        ("千日手", Repetition, Neither),
        ("持将棋", Impasse, Neither),
        ("切れ負け", TimeUp, Loses),
        ("時間切れ", TimeUp, Loses),
        ("時間切れ負け", TimeUp, Loses),
        ("Time-up", TimeUp, Loses),
        ("TIME_UP", TimeUp, Loses),
        ("反則勝ち", IllegalWin, Wins),
        ("反則負け", IllegalLoss, Loses),
        ("入玉勝ち", EnteringKingWin, Wins),
        ("入玉宣言勝ち", EnteringKingWin, Wins),
        ("宣言勝ち", EnteringKingWin, Wins),
        ("不戦勝", DefaultWin, Wins),
        ("不戦勝ち", DefaultWin, Wins),
        ("不戦敗", DefaultLoss, Loses),
        ("不戦負け", DefaultLoss, Loses),
        ("詰み", Mate, Loses),
        ("詰", Mate, Loses),
        ("不詰", NoMate, Neither),
        ("不詰み", NoMate, Neither),
        ("詰め", Mate, Loses),
        ("最大手数", MaxMoves, Neither),
        ("宣言引き分け", EnteringKingDraw, Neither),
        ("反則手", IllegalMove, Loses),
        ("待った", Takeback, Neither),
        ("エラー", Error, Neither),
    ]
};

/// The side words a terminal may be prefixed with.
const SIDES: [(&str, Color); 8] = [
    ("先手", Color::Black),
    ("後手", Color::White),
    ("下手", Color::Black),
    ("上手", Color::White),
    ("▲", Color::Black),
    ("△", Color::White),
    ("☗", Color::Black),
    ("☖", Color::White),
];

fn word(text: &str) -> Option<(TerminalKind, Role)> {
    WORDS
        .iter()
        .find(|(w, _, _)| *w == text)
        .map(|&(_, k, r)| (k, r))
}

/// `text` without a leading side word, and that side.
fn named_side(text: &str) -> (Option<Color>, &str) {
    for (w, c) in SIDES {
        if let Some(rest) = text.strip_prefix(w) {
            return (
                Some(c),
                rest.trim_start_matches(|c: char| c.is_whitespace()),
            );
        }
    }
    (None, text)
}

/// The terminal a KIF terminal word names, with the side it names when it names one
/// (`先手 反則負け`, `▲投了`).
pub fn terminal_word_named(text: &str) -> Option<(TerminalKind, Option<Color>)> {
    let text = text.trim_matches(|c: char| c.is_whitespace());
    let (side, rest) = named_side(text);
    let (kind, _) = word(rest.trim_end_matches(|c: char| c.is_whitespace()))?;
    Some((kind, side))
}

/// The terminal a KIF terminal word names, the side it may name left aside.
pub fn terminal_word(text: &str) -> Option<TerminalKind> {
    terminal_word_named(text).map(|(k, _)| k)
}

/// The other half of a terminal that says who fouled or who did not play: the same event
/// seen from the other side to move.
fn other_half(kind: TerminalKind) -> Option<TerminalKind> {
    use TerminalKind::*;
    Some(match kind {
        IllegalWin => IllegalLoss,
        IllegalLoss | IllegalMove => IllegalWin,
        DefaultWin => DefaultLoss,
        DefaultLoss => DefaultWin,
        _ => return None,
    })
}

/// `kind` as said of `named` (winner or loser as `role` says), with `to_move` to move: the
/// kind itself when it gives that winner, else its other half when that one does. A kind
/// with no other half is kept (a time-up or a declaration always belongs to the side to
/// move; the record's own words are what is stored).
fn for_side(kind: TerminalKind, role: Role, named: Color, to_move: Color) -> TerminalKind {
    let winner = match role {
        Role::Wins => named,
        Role::Loses => named.opponent(),
        Role::Neither => return kind,
    };
    if kind.result(to_move) == GameResult::Win(winner) {
        return kind;
    }
    match other_half(kind) {
        Some(other) if other.result(to_move) == GameResult::Win(winner) => other,
        // `まで N手で X の勝ち` with X to move: X won by the other side's foul.
        _ if kind == TerminalKind::Resign && winner == to_move => TerminalKind::IllegalWin,
        _ => kind,
    }
}

/// The terminal of a move-line terminal word (`投了`, `先手 反則負け`), `to_move` being the side
/// to move when it comes.
pub fn move_terminal(text: &str, to_move: Color) -> Option<TerminalKind> {
    let (kind, side) = terminal_word_named(text)?;
    let role = word(named_side(text.trim()).1.trim()).map_or(Role::Neither, |(_, r)| r);
    // Only a foul or a default changes with the side named: a KI2 mark on 投了 names the
    // mover, and a contradicting one is the writer's slip, not a result.
    Some(match side {
        Some(named) if other_half(kind).is_some() => for_side(kind, role, named, to_move),
        _ => kind,
    })
}

/// The terminal a `まで…` summary names (the text after まで), with `to_move` to move.
pub fn summary_terminal(summary: &str, to_move: Color) -> Option<TerminalKind> {
    use TerminalKind::*;
    // A comment may follow (`まで2手で先手の反則負け#…`).
    let summary = summary.split('#').next().unwrap_or(summary).trim();
    // `N手で…`, or `N手詰` (a problem's length).
    let after = match summary.split_once("手で") {
        Some((_, a)) => a,
        None => summary.trim_start_matches(|c: char| c.is_ascii_digit() || c == '手'),
    }
    .trim();
    let (timed, after) = match after.strip_prefix("時間切れにより") {
        Some(rest) => (true, rest.trim_start()),
        None => (false, after),
    };
    let (side, rest) = named_side(after);
    let rest = rest.strip_prefix('の').unwrap_or(rest).trim();
    let Some(named) = side else {
        return word(rest).map(|(k, _)| k);
    };
    let (kind, role) = match rest {
        "勝ち" if timed => (TimeUp, Role::Wins),
        "勝ち" => (Resign, Role::Wins),
        // This writer's form before Kifu for Windows' was adopted.
        "勝ち（切れ負け）" | "勝ち(切れ負け)" => (TimeUp, Role::Wins),
        _ => match word(rest) {
            Some((k, Role::Neither)) => return Some(k),
            Some(found) => found,
            None if rest.ends_with("負け") => (Resign, Role::Loses),
            None if rest.ends_with("勝ち") => (Resign, Role::Wins),
            None => return None,
        },
    };
    Some(for_side(kind, role, named, to_move))
}

/// The KIF terminal word written for a terminal on a move line: one of the specification's
/// words, which every KIF reader knows. A kind the specification has no word for gets the
/// nearest one (a draw by the move limit or by declaration is 持将棋, a takeback or an error
/// 中断, an illegal move 反則負け); the `まで…` summary after it names the kind exactly
/// ([`summary_text`]), and the reader takes the summary's more exact kind.
pub fn terminal_text(kind: TerminalKind) -> &'static str {
    use TerminalKind::*;
    match kind {
        Resign => "投了",
        Abort | Takeback | Error => "中断",
        Repetition => "千日手",
        Impasse | EnteringKingDraw | MaxMoves => "持将棋",
        TimeUp => "切れ負け",
        IllegalWin => "反則勝ち",
        IllegalLoss | IllegalMove => "反則負け",
        EnteringKingWin => "入玉勝ち",
        DefaultWin => "不戦勝",
        DefaultLoss => "不戦敗",
        Mate => "詰み",
        NoMate => "不詰",
    }
}

/// A word that names the terminal exactly: [`terminal_text`], or for the kinds the KIF
/// specification has no word for, this program's own (最大手数, 宣言引き分け, 反則手, 待った,
/// エラー), which [`terminal_word`] reads back.
pub fn terminal_name(kind: TerminalKind) -> &'static str {
    use TerminalKind::*;
    match kind {
        MaxMoves => "最大手数",
        EnteringKingDraw => "宣言引き分け",
        IllegalMove => "反則手",
        Takeback => "待った",
        Error => "エラー",
        _ => terminal_text(kind),
    }
}

/// Whether the kind `exact` (read from a summary) says more exactly what `word` (read from
/// a move line) says: the move line of `exact` is written with `word`'s word.
pub fn refines(word: TerminalKind, exact: TerminalKind) -> bool {
    word != exact && terminal_text(word) == terminal_text(exact)
}

/// What follows `まで N手で` for a terminal, `to_move` being the side to move at the end: the
/// forms of Kifu for Windows, which [`summary_terminal`] reads back.
pub fn summary_text(kind: TerminalKind, to_move: Color) -> String {
    use TerminalKind::*;
    let name = |c: Color| {
        if c == Color::Black {
            "先手"
        } else {
            "後手"
        }
    };
    let (winner, mover) = (name(to_move.opponent()), name(to_move));
    match kind {
        Resign => format!("{winner}の勝ち"),
        TimeUp => format!("時間切れにより{winner}の勝ち"),
        IllegalWin => format!("{mover}の反則勝ち"),
        IllegalLoss => format!("{mover}の反則負け"),
        EnteringKingWin => format!("{mover}の入玉勝ち"),
        DefaultWin => format!("{mover}の不戦勝"),
        DefaultLoss => format!("{mover}の不戦敗"),
        _ => terminal_name(kind).to_string(),
    }
}
