//! The definitions: every strategy (戦法) and castle (囲い) kifudex recognises, as data.
//!
//! Each name has a place in the hierarchy (its parent: ゴキゲン中飛車 is a 中飛車, which is a
//! 振り飛車) and zero or more patterns. A pattern is a few conditions on the board, written
//! for sente (▲, moving up the board) in sente's coordinates — `sq(28)` is 2八 — and read for
//! gote rotated half a turn; it may hold only within its window of plies (the number of moves
//! played, counted from the game's start). A name holds for a side from the first ply at which
//! one of its patterns holds; its ancestors hold from then on too. Names without patterns are
//! groups, reached only through their children.
//!
//! The shapes are the ones players know by these names, described in words beside each; they
//! were written for this project from the shapes themselves.

use super::board::{Kinds, Squares, area, kind, sq, sqs};
use kifudex_shogi::PieceKind;

/// What a name is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// 戦法: what a side does with its rook, bishop and attackers.
    Strategy,
    /// 囲い: how a side shelters its king.
    Castle,
}

impl Kind {
    /// The word used in JSON and the database.
    pub fn code(self) -> &'static str {
        match self {
            Kind::Strategy => "strategy",
            Kind::Castle => "castle",
        }
    }

    pub fn from_code(code: &str) -> Option<Kind> {
        match code {
            "strategy" => Some(Kind::Strategy),
            "castle" => Some(Kind::Castle),
            _ => None,
        }
    }
}

/// A name in the hierarchy.
#[derive(Debug)]
pub struct Def {
    pub name: &'static str,
    pub kind: Kind,
    pub parent: Option<&'static str>,
    /// What a player would say the name means.
    pub about: &'static str,
}

/// One condition, in sente's coordinates ("own" is the side the pattern is read for).
#[derive(Copy, Clone, Debug)]
pub enum Cond {
    /// An own piece of one of the kinds stands on every square of the set.
    Own(Kinds, Squares),
    /// An own piece of one of the kinds stands on at least one square of the set.
    OwnAny(Kinds, Squares),
    /// No own piece of these kinds stands on any square of the set.
    OwnNone(Kinds, Squares),
    /// An opponent's piece of one of the kinds stands on every square of the set.
    Opp(Kinds, Squares),
    /// No opponent's piece of these kinds stands on any square of the set.
    OppNone(Kinds, Squares),
    /// The opponent has a piece of one of the kinds on at least one square of the set.
    OppAny(Kinds, Squares),
    /// The side holds this piece in hand.
    OwnHand(PieceKind),
    /// The opponent holds this piece in hand.
    OppHand(PieceKind),
    /// The side was recognised with this name at this ply or before.
    Had(&'static str),
    /// The side was recognised with this name first at this very ply.
    Just(&'static str),
    /// The side was not (yet) recognised with this name.
    NotHad(&'static str),
    /// The opponent was recognised with this name at this ply or before.
    OppHad(&'static str),
}

/// A shape that makes a name hold.
#[derive(Debug)]
pub struct Pattern {
    pub name: &'static str,
    /// The first and last ply at which it may hold.
    pub plies: (u16, u16),
    pub conds: &'static [Cond],
}

const P: Kinds = kind(PieceKind::Pawn);
const L: Kinds = kind(PieceKind::Lance);
const N: Kinds = kind(PieceKind::Knight);
const S: Kinds = kind(PieceKind::Silver);
const G: Kinds = kind(PieceKind::Gold);
const B: Kinds = kind(PieceKind::Bishop);
const R: Kinds = kind(PieceKind::Rook);
const K: Kinds = kind(PieceKind::King);
const GS: Kinds = G | S;

/// Files 1–4, 6–9 (the king's sides) and single files, whole.
const RIGHT_SIDE: Squares = area(1, 4, 1, 9);
const LEFT_SIDE: Squares = area(6, 9, 1, 9);
const fn file(f: u8) -> Squares {
    area(f, f, 1, 9)
}
/// A rook on file `f` in its own half of the board or the middle rank (a swung rook).
const fn low(f: u8) -> Squares {
    area(f, f, 5, 9)
}

use Cond::*;
use Kind::{Castle, Strategy};

/// A strategy a ranging rook (振り飛車) plays: the rook swung to `f` in the opening,
/// while the king stays off that side of the board, in a game that did not open as
/// 相掛かり (where the same swing is ひねり飛車).
const fn ranged(f: u8) -> [Cond; 3] {
    [OwnAny(R, low(f)), OwnNone(K, LEFT_SIDE), NotHad("相掛かり")]
}

/// A rook swung to the right side (files 3, 4) by a static-rook player, whose king
/// stays off the right side.
const fn static_swing(f: u8) -> [Cond; 3] {
    [
        OwnAny(R, low(f)),
        OwnNone(K, RIGHT_SIDE),
        NotHad("振り飛車"),
    ]
}

/// Windows: strategies are chosen in the opening; castles may be finished later.
const OPENING: (u16, u16) = (1, 40);
const CASTLING: (u16, u16) = (1, 80);

#[rustfmt::skip]
pub static DEFS: &[Def] = &[
    // Ranging rook.
    Def { name: "振り飛車", kind: Strategy, parent: None, about: "The rook leaves its file for the left side (files 5–9) in the opening and the king castles on the right." },
    Def { name: "中飛車", kind: Strategy, parent: Some("振り飛車"), about: "The rook swung to the centre file (▲5八飛)." },
    Def { name: "ゴキゲン中飛車", kind: Strategy, parent: Some("中飛車"), about: "中飛車 with the bishop's diagonal open and the centre pawn pushed to 5五 early." },
    Def { name: "四間飛車", kind: Strategy, parent: Some("振り飛車"), about: "The rook swung to the fourth file from the left (▲6八飛)." },
    Def { name: "藤井システム", kind: Strategy, parent: Some("四間飛車"), about: "四間飛車 keeping the king on 3九 with the silver on 3八 and the 4- and 3-file pawns pushed, to attack an opponent who heads for 穴熊." },
    Def { name: "角交換四間飛車", kind: Strategy, parent: Some("四間飛車"), about: "四間飛車 where both bishops were exchanged." },
    Def { name: "三間飛車", kind: Strategy, parent: Some("振り飛車"), about: "The rook swung to the third file from the left (▲7八飛)." },
    Def { name: "石田流", kind: Strategy, parent: Some("三間飛車"), about: "三間飛車 with the 7-file pawn on 7五 and the rook raised to 7六." },
    Def { name: "早石田", kind: Strategy, parent: Some("三間飛車"), about: "三間飛車 with the 7-file pawn pushed to 7五 at once, the bishop's diagonal left open (6-file pawn unmoved)." },
    Def { name: "向かい飛車", kind: Strategy, parent: Some("振り飛車"), about: "The rook swung to the 8th file, facing the opponent's rook (▲8八飛)." },
    Def { name: "陽動振り飛車", kind: Strategy, parent: Some("振り飛車"), about: "A ranging rook whose 2-file pawn had been pushed, as a static rook would, when it swung." },
    Def { name: "ひねり飛車", kind: Strategy, parent: Some("相掛かり"), about: "相掛かり where the rook then swings to the 7th file (7六 or 7八)." },
    Def { name: "5筋位取り", kind: Strategy, parent: None, about: "A static rook takes the centre with its pawn on 5五, the rook at home." },
    // Static rook.
    Def { name: "角換わり", kind: Strategy, parent: None, about: "Both bishops exchanged early, both rooks still on their own files." },
    Def { name: "角換わり腰掛け銀", kind: Strategy, parent: Some("角換わり"), about: "角換わり with the silver sitting on 5六." },
    Def { name: "角換わり早繰り銀", kind: Strategy, parent: Some("角換わり"), about: "角換わり with the silver run out to 4六 beside the pushed 3-file pawn." },
    Def { name: "角換わり棒銀", kind: Strategy, parent: Some("角換わり"), about: "角換わり with the silver climbing the rook's file (2六, 1五)." },
    Def { name: "腰掛け銀", kind: Strategy, parent: None, about: "The right silver sits on 5六, rook at home." },
    Def { name: "早繰り銀", kind: Strategy, parent: None, about: "The right silver runs out to 4六 beside the pushed 3-file pawn, rook at home." },
    Def { name: "棒銀", kind: Strategy, parent: None, about: "The right silver climbs the rook's file (2六 or 1五), rook at home." },
    Def { name: "横歩取り", kind: Strategy, parent: None, about: "The rook takes the pawn beside it (▲3四飛x)." },
    Def { name: "相掛かり", kind: Strategy, parent: None, about: "Both sides push their rook pawns early with the bishops' diagonals still closed (7七/3三 pawns unmoved)." },
    Def { name: "矢倉", kind: Strategy, parent: None, about: "The bishop's diagonal closed by ▲6六歩, silver on 7七 and gold on 7八, or any 矢倉囲い: a 矢倉 game." },
    Def { name: "雁木", kind: Strategy, parent: None, about: "A static rook castled in 雁木囲い." },
    Def { name: "右四間飛車", kind: Strategy, parent: None, about: "A static rook's rook moved to the 4th file from the right (▲4八飛) to attack there." },
    Def { name: "袖飛車", kind: Strategy, parent: None, about: "A static rook's rook moved one file right, to the 3rd file (▲3八飛)." },
    Def { name: "嬉野流", kind: Strategy, parent: None, about: "▲6八銀 first, then the bishop to 7九 with the 7-file pawn unmoved." },
    Def { name: "玉頭位取り", kind: Strategy, parent: None, about: "Against a ranging rook, the static rook takes space over its own king (pawn on 7五, silver on 7六 or 6六)." },
    Def { name: "対振り持久戦", kind: Strategy, parent: None, about: "Against a ranging rook, a static rook who castles deep (穴熊, 左美濃, ミレニアム) before fighting." },
    Def { name: "対振り急戦", kind: Strategy, parent: None, about: "Against a ranging rook, a static rook who attacks with the silver from a light 舟囲い or エルモ囲い." },
    // Castles.
    Def { name: "居玉", kind: Castle, parent: None, about: "The king still on its starting square after 30 plies." },
    Def { name: "舟囲い", kind: Castle, parent: None, about: "King on 7八, golds on 6九 and 5八: the static rook's quick castle against a ranging rook." },
    Def { name: "エルモ囲い", kind: Castle, parent: None, about: "King on 7八, silver on 6八, gold under the king on 7九." },
    Def { name: "美濃囲い", kind: Castle, parent: None, about: "The ranging rook's castle: king on 2八 with gold and silver around it." },
    Def { name: "片美濃囲い", kind: Castle, parent: Some("美濃囲い"), about: "King 2八, silver 3八, gold 4九." },
    Def { name: "本美濃囲い", kind: Castle, parent: Some("片美濃囲い"), about: "片美濃 with the other gold on 5八." },
    Def { name: "高美濃囲い", kind: Castle, parent: Some("片美濃囲い"), about: "片美濃 with the other gold raised to 4七." },
    Def { name: "ダイヤモンド美濃", kind: Castle, parent: Some("片美濃囲い"), about: "片美濃 with the other silver on 4七: four pieces in a diamond." },
    Def { name: "木村美濃", kind: Castle, parent: Some("美濃囲い"), about: "King 2八, gold 3八 beside it and the silver raised to 4七." },
    Def { name: "銀冠", kind: Castle, parent: Some("美濃囲い"), about: "The silver crowns the king: king 2八, silver 2七, gold 3八 (or mirrored on the left: 8八, 8七, 7八)." },
    Def { name: "左美濃", kind: Castle, parent: Some("美濃囲い"), about: "A static rook's 美濃 on the left: king 8八, silver 7八, gold 6九." },
    Def { name: "天守閣美濃", kind: Castle, parent: Some("左美濃"), about: "左美濃 with the king raised to 8七." },
    Def { name: "穴熊", kind: Castle, parent: None, about: "The king in the corner under its lance, the hatch closed by a silver or gold." },
    Def { name: "居飛車穴熊", kind: Castle, parent: Some("穴熊"), about: "穴熊 on the left: king 9九, lance 9八, silver or gold 8八." },
    Def { name: "振り飛車穴熊", kind: Castle, parent: Some("穴熊"), about: "穴熊 on the right: king 1九, lance 1八, silver or gold 2八." },
    Def { name: "銀冠穴熊", kind: Castle, parent: Some("穴熊"), about: "King 9九 with a gold on 8八 and the silver crowned on 8七." },
    Def { name: "ビッグ4", kind: Castle, parent: Some("穴熊"), about: "銀冠穴熊 with two more golds or silvers on 7八 and 7七: all four around the king." },
    Def { name: "松尾流穴熊", kind: Castle, parent: Some("穴熊"), about: "King 9九, silvers 8八 and 7九, gold 7八." },
    Def { name: "ミレニアム囲い", kind: Castle, parent: None, about: "King 8九 behind the knight on 7七, silver 8八, gold 7九." },
    Def { name: "矢倉囲い", kind: Castle, parent: None, about: "The static rook's tower: silver 7七, gold 7八, a gold or silver on 6七, king behind them." },
    Def { name: "金矢倉", kind: Castle, parent: Some("矢倉囲い"), about: "King 8八, silver 7七, golds 7八 and 6七." },
    Def { name: "銀矢倉", kind: Castle, parent: Some("矢倉囲い"), about: "King 8八, silvers 7七 and 6七, gold 7八." },
    Def { name: "片矢倉", kind: Castle, parent: Some("矢倉囲い"), about: "King 7八, silver 7七, golds 6七 and 6八 (天野矢倉)." },
    Def { name: "総矢倉", kind: Castle, parent: Some("矢倉囲い"), about: "金矢倉 with the other silver beside it on 6六." },
    Def { name: "菊水矢倉", kind: Castle, parent: Some("矢倉囲い"), about: "King down on 8九 under the silver on 8八, knight 7七, gold 7八." },
    Def { name: "雁木囲い", kind: Castle, parent: None, about: "Gold 7八, silvers on 6七 and 5七 (or 4七), the king on 6九 or 7九." },
    Def { name: "ボナンザ囲い", kind: Castle, parent: None, about: "King 7八, silver 7七, golds 6八 and 5八, 6-file pawn unmoved." },
    Def { name: "中住まい", kind: Castle, parent: None, about: "King one step up to 5八, a gold on each side of it (7八, 6九 or 6八 and 3八, 4九 or 4八)." },
    Def { name: "金無双", kind: Castle, parent: None, about: "The ranging rooks' castle: king 3八, two golds side by side on 5八 and 4八." },
    Def { name: "中原囲い", kind: Castle, parent: None, about: "The low castle of 横歩取り and 相掛かり: king 6九, golds 5九 and 7八, silver 4八 (gote's 4一玉 5一金 3二金 6二銀)." },
];

#[rustfmt::skip]
pub static PATTERNS: &[Pattern] = &[
    // Ranging rook, by the rook's file (the group 振り飛車 follows from them).
    // The centre rook is 中飛車 wherever the king goes (矢倉中飛車, the 上手's 中飛車).
    Pattern { name: "中飛車", plies: OPENING, conds: &[OwnAny(R, low(5)), NotHad("相掛かり")] },
    Pattern { name: "四間飛車", plies: OPENING, conds: &ranged(6) },
    Pattern { name: "三間飛車", plies: OPENING, conds: &ranged(7) },
    Pattern { name: "向かい飛車", plies: OPENING, conds: &ranged(8) },
    Pattern { name: "ゴキゲン中飛車", plies: (1, 30), conds: &[Had("中飛車"), Own(P, sq(55)), OwnNone(P, sq(77))] },
    Pattern { name: "藤井システム", plies: OPENING, conds: &[Had("四間飛車"), Own(K, sq(39)), Own(S, sq(38)), Own(P, sqs(&[46, 36]))] },
    Pattern { name: "角交換四間飛車", plies: OPENING, conds: &[Had("四間飛車"), OwnHand(PieceKind::Bishop), OppHand(PieceKind::Bishop)] },
    Pattern { name: "石田流", plies: (1, 50), conds: &[Had("三間飛車"), Own(R, sq(76)), Own(P, sq(75))] },
    Pattern { name: "早石田", plies: (1, 16), conds: &[Had("三間飛車"), Own(P, sqs(&[75, 67]))] },
    Pattern { name: "陽動振り飛車", plies: OPENING, conds: &[Just("振り飛車"), OwnNone(P, sq(27))] },
    // Static rook.
    Pattern { name: "角換わり", plies: (1, 30), conds: &[OwnHand(PieceKind::Bishop), OppHand(PieceKind::Bishop), OwnAny(R, file(2)), OppAny(R, file(8))] },
    Pattern { name: "角換わり腰掛け銀", plies: (1, 60), conds: &[Had("角換わり"), Own(S, sq(56))] },
    Pattern { name: "角換わり早繰り銀", plies: (1, 50), conds: &[Had("角換わり"), Own(S, sq(46)), OwnNone(P, sq(37))] },
    Pattern { name: "角換わり棒銀", plies: (1, 50), conds: &[Had("角換わり"), OwnAny(S, sqs(&[26, 15]))] },
    Pattern { name: "腰掛け銀", plies: (1, 60), conds: &[Own(S, sq(56)), OwnAny(R, sqs(&[28, 29])), NotHad("振り飛車")] },
    Pattern { name: "早繰り銀", plies: (1, 50), conds: &[Own(S, sq(46)), OwnNone(P, sq(37)), OwnAny(R, sqs(&[28, 29])), NotHad("振り飛車")] },
    Pattern { name: "棒銀", plies: (1, 50), conds: &[OwnAny(S, sqs(&[26, 15])), OwnAny(R, sqs(&[28, 29])), NotHad("振り飛車")] },
    Pattern { name: "横歩取り", plies: OPENING, conds: &[Own(R, sq(34)), OppNone(P, sq(34))] },
    Pattern { name: "相掛かり", plies: (1, 24), conds: &[OwnNone(P, sqs(&[27, 26])), OppNone(P, sqs(&[83, 84])), Own(P, sq(77)), Opp(P, sq(33)), OwnAny(R, file(2)), OppAny(R, file(8))] },
    Pattern { name: "矢倉", plies: (1, 60), conds: &[Own(S, sq(77)), Own(G, sq(78)), Own(P, sq(66)), NotHad("振り飛車")] },
    Pattern { name: "矢倉", plies: CASTLING, conds: &[Had("矢倉囲い"), NotHad("振り飛車")] },
    Pattern { name: "ひねり飛車", plies: OPENING, conds: &[Had("相掛かり"), OwnAny(R, low(7))] },
    Pattern { name: "5筋位取り", plies: (1, 40), conds: &[Own(P, sq(55)), OwnAny(R, file(2)), NotHad("振り飛車")] },
    Pattern { name: "雁木", plies: (1, 60), conds: &[Had("雁木囲い"), NotHad("振り飛車")] },
    Pattern { name: "右四間飛車", plies: OPENING, conds: &static_swing(4) },
    Pattern { name: "袖飛車", plies: OPENING, conds: &static_swing(3) },
    Pattern { name: "嬉野流", plies: (1, 12), conds: &[Own(S, sq(68)), Own(B, sq(79)), Own(P, sq(77))] },
    Pattern { name: "玉頭位取り", plies: (1, 60), conds: &[OppHad("振り飛車"), NotHad("振り飛車"), Own(P, sq(75)), OwnAny(S, sqs(&[76, 66])), OwnAny(K, sqs(&[78, 88, 79, 69, 87]))] },
    Pattern { name: "対振り持久戦", plies: CASTLING, conds: &[OppHad("振り飛車"), NotHad("振り飛車"), Had("穴熊")] },
    Pattern { name: "対振り持久戦", plies: CASTLING, conds: &[OppHad("振り飛車"), NotHad("振り飛車"), Had("左美濃")] },
    Pattern { name: "対振り持久戦", plies: CASTLING, conds: &[OppHad("振り飛車"), NotHad("振り飛車"), Had("ミレニアム囲い")] },
    Pattern { name: "対振り急戦", plies: (1, 50), conds: &[OppHad("振り飛車"), NotHad("振り飛車"), OwnAny(K, sqs(&[78, 68, 69, 79])), OwnAny(S, sqs(&[46, 35, 55, 45, 26, 15]))] },
    // Castles.
    Pattern { name: "居玉", plies: (30, 30), conds: &[Own(K, sq(59))] },
    Pattern { name: "舟囲い", plies: CASTLING, conds: &[Own(K, sq(78)), Own(G, sqs(&[69, 58]))] },
    Pattern { name: "エルモ囲い", plies: CASTLING, conds: &[Own(K, sq(78)), Own(S, sq(68)), Own(G, sq(79))] },
    Pattern { name: "片美濃囲い", plies: CASTLING, conds: &[Own(K, sq(28)), Own(S, sq(38)), Own(G, sq(49))] },
    Pattern { name: "本美濃囲い", plies: CASTLING, conds: &[Own(K, sq(28)), Own(S, sq(38)), Own(G, sqs(&[49, 58]))] },
    Pattern { name: "高美濃囲い", plies: CASTLING, conds: &[Own(K, sq(28)), Own(S, sq(38)), Own(G, sqs(&[49, 47]))] },
    Pattern { name: "ダイヤモンド美濃", plies: CASTLING, conds: &[Own(K, sq(28)), Own(S, sqs(&[38, 47])), Own(G, sq(49))] },
    Pattern { name: "木村美濃", plies: CASTLING, conds: &[Own(K, sq(28)), Own(G, sq(38)), Own(S, sq(47))] },
    Pattern { name: "銀冠", plies: CASTLING, conds: &[Own(K, sq(28)), Own(S, sq(27)), Own(G, sq(38))] },
    Pattern { name: "銀冠", plies: CASTLING, conds: &[Own(K, sq(88)), Own(S, sq(87)), Own(G, sq(78))] },
    Pattern { name: "左美濃", plies: CASTLING, conds: &[Own(K, sq(88)), Own(S, sq(78)), Own(G, sq(69))] },
    Pattern { name: "天守閣美濃", plies: CASTLING, conds: &[Own(K, sq(87)), Own(S, sq(78)), Own(G, sq(69))] },
    Pattern { name: "居飛車穴熊", plies: CASTLING, conds: &[Own(K, sq(99)), Own(L, sq(98)), OwnAny(GS, sq(88))] },
    Pattern { name: "振り飛車穴熊", plies: CASTLING, conds: &[Own(K, sq(19)), Own(L, sq(18)), OwnAny(GS, sq(28))] },
    Pattern { name: "銀冠穴熊", plies: CASTLING, conds: &[Own(K, sq(99)), Own(G, sq(88)), Own(S, sq(87))] },
    Pattern { name: "ビッグ4", plies: CASTLING, conds: &[Own(K, sq(99)), Own(G, sq(88)), Own(S, sq(87)), Own(GS, sqs(&[78, 77]))] },
    Pattern { name: "松尾流穴熊", plies: CASTLING, conds: &[Own(K, sq(99)), Own(S, sqs(&[88, 79])), Own(G, sq(78))] },
    Pattern { name: "ミレニアム囲い", plies: CASTLING, conds: &[Own(K, sq(89)), Own(S, sq(88)), Own(N, sq(77)), Own(G, sq(79))] },
    Pattern { name: "金矢倉", plies: CASTLING, conds: &[Own(K, sq(88)), Own(S, sq(77)), Own(G, sqs(&[78, 67]))] },
    Pattern { name: "銀矢倉", plies: CASTLING, conds: &[Own(K, sq(88)), Own(S, sqs(&[77, 67])), Own(G, sq(78))] },
    Pattern { name: "片矢倉", plies: CASTLING, conds: &[Own(K, sq(78)), Own(S, sq(77)), Own(G, sqs(&[67, 68]))] },
    Pattern { name: "総矢倉", plies: CASTLING, conds: &[Own(K, sq(88)), Own(S, sqs(&[77, 66])), Own(G, sqs(&[78, 67]))] },
    Pattern { name: "菊水矢倉", plies: CASTLING, conds: &[Own(K, sq(89)), Own(S, sq(88)), Own(N, sq(77)), Own(G, sq(78))] },
    Pattern { name: "矢倉囲い", plies: CASTLING, conds: &[Own(S, sq(77)), Own(G, sq(78)), Own(GS, sq(67)), OwnAny(K, sqs(&[79, 88, 89, 87]))] },
    Pattern { name: "雁木囲い", plies: CASTLING, conds: &[Own(G, sq(78)), Own(S, sq(67)), OwnAny(S, sqs(&[57, 47])), OwnAny(K, sqs(&[69, 79, 68]))] },
    Pattern { name: "ボナンザ囲い", plies: CASTLING, conds: &[Own(K, sq(78)), Own(S, sq(77)), Own(G, sqs(&[68, 58])), Own(P, sq(67))] },
    Pattern { name: "中住まい", plies: CASTLING, conds: &[Own(K, sq(58)), OwnAny(G, sqs(&[78, 69, 68])), OwnAny(G, sqs(&[38, 49, 48]))] },
    Pattern { name: "金無双", plies: CASTLING, conds: &[Own(K, sq(38)), Own(G, sqs(&[58, 48]))] },
    Pattern { name: "中原囲い", plies: CASTLING, conds: &[Own(K, sq(69)), Own(G, sqs(&[59, 78])), Own(S, sq(48))] },
];
