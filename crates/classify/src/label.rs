//! The game's one label (戦型), decided from what each side was recognised with, as
//! professional records name a game: by the structure that defines it in the opening.
//!
//! 1. A ranging rook decides first. A side ranges when its rook's first swing off its home
//!    rank goes to files 5–8 in the opening (see the patterns of 振り飛車): both sides →
//!    相振り飛車 (相三間飛車 and the like when both went to the same file); one side → its
//!    file, or the named line it played there in the opening (ゴキゲン中飛車, 石田流…).
//! 2. Without a ranging rook, and both sides with a rook: the 相居飛車 opening established
//!    first among 相掛かり, 横歩取り, 角換わり, the 矢倉/雁木 structures and an early
//!    5筋位取り (by ply 24); 雁木 wins over 矢倉 when both are there, and the label is the
//!    named line played in it when there is one (一手損角換わり, 中座飛車, 矢倉中飛車…, or
//!    相矢倉 and the like when both sides chose the same).
//! 3. Else the first of the other named static strategies (右四間飛車, 袖飛車, 右玉, 筋違い角,
//!    嬉野流 and the like); else 力戦 after 20 plies of an even game, その他の戦型 otherwise.
//!
//! Each pattern has its own window, so a move made after the structures are set (a rook
//! swung in the middle game, a side pawn taken at move 27) names nothing that decides.

use std::fmt;

use super::names::{AI_FURIBISHA, OTHER, RIKISEN};
use super::recognise::Matcher;
use super::{Item, Kind};
use kifudex_notation::japanese::square_text;
use kifudex_shogi::{Color, Move};

/// The ranging files, by the rook's file, and the label when both sides chose the same.
const RANGING: [(&str, &str); 4] = [
    ("中飛車", "相中飛車"),
    ("四間飛車", "相四間飛車"),
    ("三間飛車", "相三間飛車"),
    ("向かい飛車", "相向かい飛車"),
];

/// Names below a ranging file that say who plays it, how the bishop's diagonal stood or
/// where the king went, not which line was played: not a game's label.
const NOT_A_LINE: [&str; 20] = [
    "先手中飛車",
    "後手中飛車",
    "先手四間飛車",
    "後手四間飛車",
    "先手三間飛車",
    "後手三間飛車",
    "先手向かい飛車",
    "後手向かい飛車",
    "ノーマル中飛車",
    "ノーマル四間飛車",
    "ノーマル三間飛車",
    "ノーマル向かい飛車",
    "角道オープン四間飛車",
    "角道オープン三間飛車",
    "中飛車左穴熊",
    "中飛車穴熊",
    "四間飛車穴熊",
    "三間飛車穴熊",
    "向かい飛車穴熊",
    "2手目△3二飛戦法",
];

/// The last ply of a line that names the game.
const LINE_WINDOW: u32 = 40;

/// 5筋位取り names a 相居飛車 game only when the centre pawn reached 5五 this early.
const GOSUJI_WINDOW: u32 = 24;

/// The static strategies that name a 相居飛車 game without one of its openings.
const OTHER_STATIC: [&str; 10] = [
    "右四間飛車",
    "袖飛車",
    "右玉",
    "筋違い角",
    "嬉野流",
    "鬼殺し",
    "パックマン",
    "角頭歩戦法",
    "一間飛車",
    "地下鉄飛車",
];

/// What decided the label.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// One side ranged its rook in the opening; the other stayed static.
    Ranging,
    /// Both sides ranged.
    BothRanging,
    /// 相掛かり: both rook pawns pushed with the bishops' diagonals closed.
    Aigakari,
    /// 横歩取り: a rook took the side pawn.
    Yokofudori,
    /// 角換わり: the bishops exchanged with both sides static.
    Kakugawari,
    /// 一手損角換わり: the same, a side's bishop taking the other on its home square.
    IttezonKakugawari,
    /// 矢倉: a side's 矢倉.
    Yagura,
    /// 雁木: a side's 雁木 (over a 矢倉 of the other).
    Gangi,
    /// 5筋位取り: the centre pawn to 5五 early.
    Gosuji,
    /// Another named static strategy.
    OtherStatic,
    /// 力戦: static rooks, nothing named.
    Rikisen,
    /// Nothing to name: too short, or a side without a rook.
    Unnamed,
}

/// One side's fact behind a label: the side, the name, the ply and the move played then.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    pub side: Color,
    pub name: &'static str,
    pub ply: u32,
    pub mv: Move,
}

/// Why a game got its label, as [`std::fmt::Display`] words it ("角換わり: bishops exchanged
/// at ply 8, both sides static rook").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    pub label: &'static str,
    pub rule: Rule,
    /// The fact that decided (the ranging side's swing, the exchange, the capture…).
    pub first: Option<Fact>,
    /// The other side's swing (相振り飛車), the structure beaten (矢倉 under 雁木), or the
    /// line that gave the label its name.
    pub second: Option<Fact>,
    /// The plies read (for 力戦 and その他の戦型).
    pub plies: u32,
    /// Whether the ranging side had pushed its rook pawn first (陽動振り飛車).
    pub feint: bool,
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "sente",
        Color::White => "gote",
    }
}

fn to(mv: Move) -> String {
    square_text(mv.to())
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.label)?;
        let (Some(a), b) = (self.first, self.second) else {
            return match self.rule {
                Rule::Rikisen => write!(
                    f,
                    "both sides static rook, no named opening in {} plies",
                    self.plies
                ),
                _ if self.plies < 20 => {
                    write!(f, "{} plies, too few to name an opening", self.plies)
                }
                _ => write!(
                    f,
                    "no ranging rook, and a side has no rook to play a 相居飛車 opening"
                ),
            };
        };
        let who = side_name(a.side);
        match self.rule {
            Rule::Ranging => {
                write!(f, "{who}'s rook to {} at ply {}", to(a.mv), a.ply)?;
                if self.feint {
                    write!(f, " after pushing its rook pawn (陽動)")?;
                }
                write!(f, "; {} stays static rook", side_name(a.side.opponent()))?;
            }
            Rule::BothRanging => {
                write!(f, "{who}'s rook to {} at ply {}", to(a.mv), a.ply)?;
                if let Some(b) = b {
                    write!(
                        f,
                        ", {}'s to {} at ply {}",
                        side_name(b.side),
                        to(b.mv),
                        b.ply
                    )?;
                }
                return Ok(());
            }
            Rule::Kakugawari => write!(
                f,
                "bishops exchanged at ply {}, both sides static rook",
                a.ply
            )?,
            Rule::IttezonKakugawari => write!(
                f,
                "bishops exchanged at ply {} on {}, {who}'s bishop having taken the other at home (一手損), both sides static rook",
                a.ply,
                to(a.mv)
            )?,
            Rule::Yokofudori => write!(
                f,
                "{who}'s rook took the side pawn on {} at ply {}",
                to(a.mv),
                a.ply
            )?,
            Rule::Aigakari => write!(
                f,
                "both sides pushed their rook pawns with the bishops' diagonals closed, by ply {}",
                a.ply
            )?,
            Rule::Yagura | Rule::Gangi => {
                write!(
                    f,
                    "{who}'s {} at ply {}, both sides static rook",
                    a.name, a.ply
                )?;
                if let Some(b) = b.filter(|b| b.side != a.side && b.ply < a.ply) {
                    return write!(
                        f,
                        "; answering {}'s {} at ply {}",
                        side_name(b.side),
                        b.name,
                        b.ply
                    );
                }
            }
            Rule::Gosuji => write!(
                f,
                "{who}'s centre pawn on ５五 by ply {}, both sides static rook",
                a.ply
            )?,
            Rule::OtherStatic => write!(
                f,
                "{who}'s {} at ply {}, both sides static rook",
                a.name, a.ply
            )?,
            Rule::Rikisen | Rule::Unnamed => {}
        }
        if let Some(b) = b {
            write!(f, "; {}'s {} at ply {}", side_name(b.side), b.name, b.ply)?;
        }
        Ok(())
    }
}

fn fact(i: &Item) -> Fact {
    Fact {
        side: i.side,
        name: i.name,
        ply: i.ply,
        mv: i.mv,
    }
}

/// The first item of `side` named `name`.
fn first<'a>(items: &'a [Item], side: Color, name: &str) -> Option<&'a Item> {
    items
        .iter()
        .filter(|i| i.side == side && i.name == name)
        .min_by_key(|i| i.ply)
}

/// The first item of either side named `name` (sente's on a tie).
fn first_either<'a>(items: &'a [Item], name: &str) -> Option<&'a Item> {
    items
        .iter()
        .filter(|i| i.name == name)
        .min_by_key(|i| (i.ply, i.side.index()))
}

/// The named line below `group` played first within the window, by `side` only if given
/// (the deepest on a tie): the label's own name.
fn line<'a>(items: &'a [Item], group: &Item, side: Option<Color>) -> Option<&'a Item> {
    let m = Matcher::get();
    items
        .iter()
        .filter(|i| {
            i.kind == Kind::Strategy
                && i.def != group.def
                && i.ply <= LINE_WINDOW
                && side.is_none_or(|s| i.side == s)
                && !NOT_A_LINE.contains(&i.name)
                && m.under(i.def, group.def)
        })
        .min_by_key(|i| (i.ply, std::cmp::Reverse(m.depth(i.def as usize))))
}

/// The game's label and why.
pub(super) fn label(items: &[Item], both_rooks: bool, even: bool, plies: u32) -> Reason {
    let mut reason = Reason {
        label: OTHER,
        rule: Rule::Unnamed,
        first: None,
        second: None,
        plies,
        feint: false,
    };
    let ranging = |side: Color| {
        items
            .iter()
            .filter(|i| i.side == side && RANGING.iter().any(|r| r.0 == i.name))
            .min_by_key(|i| i.ply)
    };
    match (ranging(Color::Black), ranging(Color::White)) {
        (Some(a), Some(b)) => {
            let (a, b) = if (b.ply, 1) < (a.ply, 0) {
                (b, a)
            } else {
                (a, b)
            };
            let same = RANGING.iter().find(|r| r.0 == a.name && a.name == b.name);
            return Reason {
                label: same.map_or(AI_FURIBISHA, |r| r.1),
                rule: Rule::BothRanging,
                first: Some(fact(a)),
                second: Some(fact(b)),
                ..reason
            };
        }
        (Some(a), None) | (None, Some(a)) => {
            let named = line(items, a, Some(a.side));
            let feint = first(items, a.side, "陽動振り飛車").is_some_and(|f| f.ply == a.ply);
            let label = match named {
                _ if feint => "陽動振り飛車",
                Some(l) => l.name,
                None => a.name,
            };
            return Reason {
                label,
                rule: Rule::Ranging,
                first: Some(fact(a)),
                second: named.map(fact),
                feint,
                ..reason
            };
        }
        (None, None) => {}
    }
    if !both_rooks {
        return reason;
    }
    // The 相居飛車 openings, each with the item that established it.
    let both = |name| Color::ALL.iter().all(|&s| first(items, s, name).is_some());
    let mut openings: Vec<(&Item, Rule)> = Vec::with_capacity(5);
    if let Some(i) = first_either(items, "相掛かり") {
        openings.push((i, Rule::Aigakari));
    }
    if let Some(i) = first_either(items, "横歩取り") {
        openings.push((i, Rule::Yokofudori));
    }
    if let Some(i) = first_either(items, "角換わり") {
        let ittezon = first_either(items, "一手損角換わり");
        openings.push(match ittezon {
            Some(j) => (j, Rule::IttezonKakugawari),
            None => (i, Rule::Kakugawari),
        });
    }
    // 矢倉 and 雁木 as one structure, established by the first of either. When the two
    // sides chose differently, the one who chose second answered the other and names the
    // game (as in 相振り飛車, the side that ranges second chooses the match-up).
    let structure = |side| {
        ["雁木", "矢倉"]
            .iter()
            .filter_map(|n| first(items, side, n))
            .min_by_key(|i| i.ply)
    };
    let chosen = match (structure(Color::Black), structure(Color::White)) {
        (Some(a), Some(b)) => {
            let (early, late) = if (b.ply, b.name == "雁木") < (a.ply, a.name == "雁木") {
                (b, a)
            } else {
                (a, b)
            };
            Some((early, late, Some(early).filter(|e| e.name != late.name)))
        }
        (Some(a), None) | (None, Some(a)) => Some((a, a, None)),
        (None, None) => None,
    };
    if let Some((early, late, _)) = chosen {
        let rule = if late.name == "雁木" {
            Rule::Gangi
        } else {
            Rule::Yagura
        };
        openings.push((early, rule));
    }
    if let Some(i) = first_either(items, "5筋位取り").filter(|i| i.ply <= GOSUJI_WINDOW) {
        openings.push((i, Rule::Gosuji));
    }
    // The first established; on a tie, in the order above.
    if let Some(&(at, rule)) = openings.iter().min_by_key(|(i, _)| i.ply) {
        let answered = chosen.and_then(|c| c.2);
        let (item, group, pair) = match rule {
            Rule::Aigakari => (at, at, None),
            Rule::Yokofudori => (at, at, None),
            Rule::Kakugawari | Rule::IttezonKakugawari => {
                (at, first_either(items, "角換わり").unwrap_or(at), None)
            }
            Rule::Gangi | Rule::Yagura => {
                let late = chosen.map_or(at, |c| c.1);
                let pair = if rule == Rule::Gangi {
                    "相雁木"
                } else {
                    "相矢倉"
                };
                (late, late, Some(pair))
            }
            _ => (at, at, None),
        };
        let mut out = Reason {
            label: group.name,
            rule,
            first: Some(fact(item)),
            ..reason
        };
        if rule == Rule::IttezonKakugawari {
            out.label = "一手損角換わり";
            return out;
        }
        if matches!(rule, Rule::Gangi | Rule::Yagura) {
            out.second = answered.map(fact);
        }
        let paired = pair.filter(|_| both(group.name));
        if let Some(l) = pair_label(items, group.name) {
            out.label = l;
        } else if let Some(l) = line(items, group, None) {
            out.label = l.name;
            out.second = out.second.or(Some(fact(l)));
        } else if let Some(p) = paired {
            out.label = p;
        }
        return out;
    }
    if let Some(i) = OTHER_STATIC
        .iter()
        .filter_map(|n| first_either(items, n))
        .min_by_key(|i| (i.ply, i.side.index()))
    {
        return Reason {
            label: i.name,
            rule: Rule::OtherStatic,
            first: Some(fact(i)),
            ..reason
        };
    }
    if even && plies >= 20 {
        reason.label = RIKISEN;
        reason.rule = Rule::Rikisen;
    }
    reason
}

/// The label of a 相居飛車 game where both sides chose the same line: 角換わり with both
/// silvers on 5六 (角換わり相腰掛け銀) and the like, 新旧対抗 in 相掛かり.
fn pair_label(items: &[Item], group: &str) -> Option<&'static str> {
    let both = |name| Color::ALL.iter().all(|&s| first(items, s, name).is_some());
    let each = |a, b| {
        (first(items, Color::Black, a).is_some() && first(items, Color::White, b).is_some())
            || (first(items, Color::Black, b).is_some() && first(items, Color::White, a).is_some())
    };
    match group {
        "角換わり" => [
            ("角換わり腰掛け銀", "角換わり相腰掛け銀"),
            ("角換わり早繰り銀", "角換わり相早繰り銀"),
            ("角換わり棒銀", "角換わり相棒銀"),
        ]
        .into_iter()
        .find(|(n, _)| both(n))
        .map(|(_, l)| l),
        "相掛かり" => each("相掛かり引き飛車", "相掛かり浮き飛車").then_some("新旧対抗"),
        "横歩取り" => Color::ALL
            .iter()
            .any(|&s| first(items, s, "相横歩取り").is_some())
            .then_some("相横歩取り"),
        _ => None,
    }
}
