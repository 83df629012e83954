//! The dialects of engine comments, one reader each. Engine lines (KIF `**`, CSA `'**`, kept
//! apart by the notation readers without their first `*`) hold a player's own search: CSA's
//! `<value> <pv>`, ShogiHome's `評価値=`…, ShogiGUI's `対局 …`/`解析 …` and 棋神アナリティクス'
//! `Engine …`. Comments starting with `#` hold analyses: ShogiHome's `#評価値=`…, ぴよ将棋's
//! `#指し手[…]` and K-Shogi's `#形勢[…]`. Every writer gives sente's point of view.
//! `docs/evaluations.md` has a made-up sample of each.

use super::pv::{self, Head, Notation, Pv, Start};
use super::{Eval, Score, Source};
use kifudex_shogi::{Color, Move, Square};

/// The position the comments being read are on.
#[derive(Copy, Clone, Debug)]
pub(crate) struct At {
    /// Moves played to reach it.
    ply: usize,
    /// The move that led to it, its player and the destination of the move before it.
    played: Option<(Move, Color, Option<Square>)>,
}

impl At {
    /// The start position.
    pub fn start() -> At {
        At {
            ply: 0,
            played: None,
        }
    }

    /// The position after the `ply`-th move, `mv` by `mover`; `prev_to` is where the move
    /// before it went.
    pub fn after(ply: usize, mv: Move, mover: Color, prev_to: Option<Square>) -> At {
        At {
            ply,
            played: Some((mv, mover, prev_to)),
        }
    }

    /// The ply a player's line evaluates, and its variation: always the position after its
    /// move; the variation is looked at only when it is resolved.
    fn player<'r>(
        &self,
        pv_text: Option<&'r str>,
        notation: Option<Notation>,
    ) -> (usize, Option<Pv<'r>>) {
        let start = if self.played.is_some() {
            Start::Either
        } else {
            Start::At
        };
        (
            self.ply,
            pv_text.map(|t| Pv::new(t, notation, self.ply, start)),
        )
    }

    /// The ply an analysis evaluates and its variation, from the variation's first move (see
    /// [`super::read`]).
    fn analysis<'r>(
        &self,
        pv_text: Option<&'r str>,
        notation: Notation,
    ) -> (usize, Option<Pv<'r>>) {
        let Some(text) = pv_text else {
            return (self.ply, None);
        };
        let Some((mv, mover, prev_to)) = self.played else {
            return (
                self.ply,
                Some(Pv::new(text, Some(notation), self.ply, Start::At)),
            );
        };
        let (ply, start) = match pv::head(text, notation, mv, mover, prev_to) {
            Head::Next | Head::Unknown => (self.ply, Start::At),
            Head::Played => (self.ply, Start::Repeats),
            Head::Instead => (self.ply - 1, Start::At),
        };
        (ply, Some(Pv::new(text, Some(notation), ply, start)))
    }
}

/// Reads the evaluations of the engine lines and comments on one position into `out`.
pub(crate) fn read_position<'r>(
    out: &mut Vec<Eval<'r>>,
    at: At,
    engine: &'r [String],
    comments: &'r [String],
) {
    let mut player: Option<Fields> = None;
    for line in engine {
        let text = skip_marks(line);
        // The first byte tells the dialects apart: Floodgate's lines start with the value.
        let eval = match text.as_bytes().first() {
            Some(b'0'..=b'9' | b'+' | b'-') => csa_line(text, &at),
            _ if player.get_or_insert_default().add(text) => continue,
            _ => keyword_line(text, &at),
        };
        if let Some(e) = eval {
            out.push(e);
        }
    }
    if let Some(fields) = player {
        fields.finish(out, &at, false);
    }
    let mut research: Option<Fields> = None;
    for comment in comments {
        // Comments for people are the many: one look at their first byte.
        if !comment.trim_start().starts_with('#') {
            continue;
        }
        let text = &comment.trim_start()[1..];
        if research.get_or_insert_default().add(text) {
            continue;
        }
        if let Some(e) = bracket_line(text, &at) {
            out.push(e);
        }
    }
    if let Some(fields) = research {
        fields.finish(out, &at, true);
    }
}

/// `text` without the `*` and spaces an engine line may still start with.
fn skip_marks(text: &str) -> &str {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'*' | b' ' => i += 1,
            // U+3000, the ideographic space.
            0xE3 if b[i..].starts_with("\u{3000}".as_bytes()) => i += 3,
            _ => break,
        }
    }
    &text[i..]
}

/// ShogiHome's `key=value` lines on one position, gathered (`評価値=-35`, `詰み=後手勝ち:7手`,
/// `読み筋=▲２五歩△８五歩`, `深さ=8`, `ノード数=12345`, `エンジン=…`).
#[derive(Default)]
struct Fields<'r> {
    value: Option<Score>,
    mate: Option<Score>,
    pv: Option<&'r str>,
    depth: Option<u32>,
    nodes: Option<u64>,
}

impl<'r> Fields<'r> {
    /// Takes `text` when it is one of the fields; whether it was.
    fn add(&mut self, text: &'r str) -> bool {
        let Some((key, value)) = text.split_once('=') else {
            return false;
        };
        let value = value.trim();
        match key {
            "評価値" => self.value = int(value).map(Score::Value),
            "詰み" => self.mate = shogihome_mate(value),
            "読み筋" => self.pv = Some(value),
            "深さ" => self.depth = int(value).and_then(|d| u32::try_from(d).ok()),
            "ノード数" => self.nodes = value.parse().ok(),
            "エンジン" => {}
            _ => return false,
        }
        true
    }

    fn finish(self, out: &mut Vec<Eval<'r>>, at: &At, analysis: bool) {
        let Some(score) = self.mate.or(self.value) else {
            return;
        };
        let (ply, pv) = if analysis {
            at.analysis(self.pv, Notation::Japanese)
        } else {
            at.player(self.pv, Some(Notation::Japanese))
        };
        out.push(Eval {
            ply,
            score,
            depth: self.depth,
            nodes: self.nodes,
            source: Source::ShogiHome,
            analysis,
            pv,
        });
    }
}

/// `先手勝ち:15手`, `後手勝ち` (distance not given).
fn shogihome_mate(value: &str) -> Option<Score> {
    let (side, rest) = if let Some(r) = value.strip_prefix("先手勝ち") {
        (Color::Black, r)
    } else {
        (Color::White, value.strip_prefix("後手勝ち")?)
    };
    let plies = match rest.strip_prefix(':') {
        Some(n) => Some(n.strip_suffix('手')?.trim().parse().ok()?),
        None if rest.trim().is_empty() => None,
        None => return None,
    };
    Some(Score::Mate {
        winner: side,
        plies,
    })
}

/// ShogiGUI's `対局 [候補N] [時間 t] [深さ d/sd] [ノード数 n] [評価値 v] [読み筋 …]` and `解析 <engine>
/// [mark] 候補N …`, and 棋神アナリティクス' `Engine <name> Version <v> 候補N …` with the same
/// fields. Only the first candidate counts.
fn keyword_line<'r>(text: &'r str, at: &At) -> Option<Eval<'r>> {
    let (source, analysis) = if text.starts_with("対局") {
        (Source::ShogiGui, false)
    } else if text.starts_with("解析") {
        (Source::ShogiGui, true)
    } else if text.starts_with("Engine ") {
        (Source::Kishin, true)
    } else {
        return None;
    };
    let (fields, pv_text) = match text.find(" 読み筋") {
        Some(i) => (&text[..i], Some(text[i + " 読み筋".len()..].trim())),
        None => (text, None),
    };
    let mut score = None;
    let mut depth = None;
    let mut nodes = None;
    let mut tokens = fields
        .split([' ', '\u{3000}'])
        .filter(|t| !t.is_empty())
        .peekable();
    while let Some(token) = tokens.next() {
        match token {
            "深さ" => {
                depth = tokens
                    .next()
                    .and_then(|d| d.split('/').next())
                    .and_then(|d| d.parse().ok())
            }
            "ノード数" => nodes = tokens.next().and_then(|n| n.parse().ok()),
            "評価値" => {
                let first = tokens.next()?;
                score = Some(match gui_mate(first) {
                    Some((winner, Some(plies))) => Score::Mate {
                        winner,
                        plies: Some(plies),
                    },
                    // `+詰 13`: the distance may follow as a token of its own.
                    Some((winner, None)) => {
                        let plies = tokens.peek().and_then(|n| n.parse().ok());
                        if plies.is_some() {
                            tokens.next();
                        }
                        Score::Mate { winner, plies }
                    }
                    None => Score::Value(int(first.trim_end_matches(['↑', '↓']))?),
                });
            }
            // Only the first candidate is the evaluation of the position.
            t if t.starts_with("候補") && t["候補".len()..] != *"1" => return None,
            _ => {}
        }
    }
    let pv_text = pv_text.filter(|t| !t.is_empty());
    let (ply, pv) = if analysis {
        at.analysis(pv_text, Notation::Japanese)
    } else {
        at.player(pv_text, Some(Notation::Japanese))
    };
    Some(Eval {
        ply,
        score: score?,
        depth,
        nodes,
        source,
        analysis,
        pv,
    })
}

/// `+詰5`, `-詰`, `詰3`: the winner (no sign: sente) and the distance when attached.
fn gui_mate(token: &str) -> Option<(Color, Option<u32>)> {
    let (winner, rest) = match token.as_bytes().first()? {
        b'+' => (Color::Black, &token[1..]),
        b'-' => (Color::White, &token[1..]),
        _ => (Color::Black, token),
    };
    let rest = rest.strip_prefix('詰')?;
    if rest.is_empty() {
        return Some((winner, None));
    }
    Some((winner, Some(rest.trim_end_matches('手').parse().ok()?)))
}

/// Floodgate's `<value> [pv …]` (CSA `'** 123 -3334FU +2726FU`; ShogiHome's CSA V3 form adds the
/// nodes as `#12345`; some engines write the variation in USI).
fn csa_line<'r>(text: &'r str, at: &At) -> Option<Eval<'r>> {
    let b = text.as_bytes();
    let mut end = b.len();
    while end > 0 && matches!(b[end - 1], b' ' | b'\t' | b'\r') {
        end -= 1;
    }
    let first_end = b[..end].iter().position(|&c| c == b' ').unwrap_or(end);
    let value = int(&text[..first_end])?;
    let mut start = first_end;
    while start < end && b[start] == b' ' {
        start += 1;
    }
    // ShogiHome's CSA V3 comments end with the node count: ` #12345`.
    let mut digits = end;
    while digits > start && b[digits - 1].is_ascii_digit() {
        digits -= 1;
    }
    let mut nodes = None;
    if digits < end
        && digits > start
        && b[digits - 1] == b'#'
        && (digits == start + 1 || b[digits - 2] == b' ')
    {
        nodes = text[digits..end].parse().ok();
        if nodes.is_some() {
            end = digits - 1;
            while end > start && b[end - 1] == b' ' {
                end -= 1;
            }
        }
    }
    let pv_text = &text[start.min(end)..end];
    let (ply, pv) = at.player(Some(pv_text).filter(|t| !t.is_empty()), None);
    Some(Eval {
        ply,
        score: Score::Value(value),
        depth: None,
        nodes,
        source: Source::Csa,
        analysis: false,
        pv,
    })
}

/// ぴよ将棋's `指し手[72]△１四歩  ▲６八銀 …` (the move played, its value and what follows) and
/// K-Shogi's `形勢[…]`, without their `#`. ぴよ将棋's `推奨手[…]` (the move it would have played
/// instead, on the position before) is left out: that position has its own `指し手` line.
fn bracket_line<'r>(text: &'r str, at: &At) -> Option<Eval<'r>> {
    let (source, rest) = if let Some(r) = text.strip_prefix("指し手[") {
        (Source::Piyo, r)
    } else {
        (Source::KShogi, text.strip_prefix("形勢[")?)
    };
    let (value, pv_text) = rest.split_once(']')?;
    let value = value.trim();
    let score = match gui_mate(value) {
        Some((winner, plies)) => Score::Mate { winner, plies },
        None => Score::Value(int(value)?),
    };
    let pv_text = Some(pv_text.trim()).filter(|t| !t.is_empty());
    let (ply, pv) = at.analysis(pv_text, Notation::Japanese);
    Some(Eval {
        ply,
        score,
        depth: None,
        nodes: None,
        source,
        analysis: true,
        pv,
    })
}

/// A whole signed decimal number (`123`, `+123`, `-35`), saturated to `i32`; `None` for
/// anything else.
fn int(s: &str) -> Option<i32> {
    let b = s.as_bytes();
    let (negative, digits) = match *b.first()? {
        b'+' => (false, &b[1..]),
        b'-' => (true, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() {
        return None;
    }
    let mut n: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        // Past i32's range the value only saturates: stop growing.
        if n <= i64::from(u32::MAX) {
            n = n * 10 + i64::from(d - b'0');
        }
    }
    let n = if negative { -n } else { n };
    Some(n.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_whole_decimals_saturated_to_i32() {
        assert_eq!(int("123"), Some(123));
        assert_eq!(int("+7"), Some(7));
        assert_eq!(int("-35"), Some(-35));
        assert_eq!(int("-99999999999999"), Some(i32::MIN));
        assert_eq!(int("99999999999999"), Some(i32::MAX));
        for bad in ["", "+", "-", "1.5", "12a", "１２", " 1"] {
            assert_eq!(int(bad), None, "{bad}");
        }
    }

    #[test]
    fn mate_words() {
        assert_eq!(gui_mate("+詰5"), Some((Color::Black, Some(5))));
        assert_eq!(gui_mate("-詰"), Some((Color::White, None)));
        assert_eq!(gui_mate("詰3手"), Some((Color::Black, Some(3))));
        assert_eq!(gui_mate("+5"), None);
        assert_eq!(gui_mate("-詰x"), None);
        let mate = |w, p| {
            Some(Score::Mate {
                winner: w,
                plies: p,
            })
        };
        assert_eq!(
            shogihome_mate("先手勝ち:15手"),
            mate(Color::Black, Some(15))
        );
        assert_eq!(shogihome_mate("後手勝ち"), mate(Color::White, None));
        assert_eq!(shogihome_mate("後手勝ち:x手"), None);
        assert_eq!(shogihome_mate("引き分け"), None);
    }
}
