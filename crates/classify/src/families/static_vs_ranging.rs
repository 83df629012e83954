//! The static rook against a ranging rook (対抗形, the 居飛車 side): how it castles, and the
//! quick attacks it launches before castling deep.

use crate::patterns::*;
use Cond::*;
use kifudex_shogi::PieceKind;

/// Against a ranging rook, a side that stays static.
const VS: [Cond; 2] = [OppHad("振り飛車"), NotHad("振り飛車")];

/// A silver out in front for the attack (4六, 3五, 5五, 4五, 2六 or 1五).
const ATTACKING_SILVER: Squares = sqs(&[46, 35, 55, 45, 26, 15]);

#[rustfmt::skip]
pub(super) const DEFS: &[Def] = &[
    strategy("対振り持久戦", None, "Against a ranging rook, a static rook who castles deep (穴熊, 左美濃, ミレニアム) before fighting, or who has castled and not attacked by ply 40.").aka(&["対振持久戦"]),
    strategy("対振り急戦", None, "Against a ranging rook, a static rook who attacks with the silver from a light 舟囲い or エルモ囲い.").aka(&["対振急戦"]),
    strategy("舟囲い急戦", Some("対振り急戦"), "対振り急戦 from 舟囲い."),
    strategy("左美濃急戦", Some("対振り急戦"), "Against a ranging rook, a silver attack from 左美濃 (king 8八, silver 7八, gold 6九)."),
    strategy("エルモ急戦", Some("対振り急戦"), "Against a ranging rook, a silver attack from エルモ囲い (king 7八, silver 6八, gold 7九).").aka(&["elmo急戦"]),
    strategy("4五歩早仕掛け", Some("対振り急戦"), "Against a ranging rook, the 4-file pawn pushed to 4五 with the knight already on 3七, before castling deep.").aka(&["四五歩早仕掛け", "早仕掛け"]),
    strategy("斜め棒銀", Some("対振り急戦"), "Against a ranging rook, the right silver out diagonally to 3五 (via 4六), the rook at home.").aka(&["ナナメ棒銀", "新鷺宮定跡"]),
    strategy("棒金", Some("対振り急戦"), "Against a ranging rook, a gold climbs the rook's file to 2七 or 2六 in front of the rook."),
    strategy("5七銀左急戦", Some("対振り急戦"), "Against a ranging rook, the left silver to 5七 from a 舟囲い-style castle, the right silver still on 3九, 4八 or out on 4六.").aka(&["▲5七銀左急戦", "5七銀左"]),
    strategy("4六銀左急戦", Some("対振り急戦"), "Against a ranging rook, the left silver out to 4六 by way of 6八 and 5七, the right silver still at home on 3九, the king in 舟囲い or the like.").aka(&["▲4六銀左急戦", "4六銀左"]),
    strategy("鳥刺し", Some("対振り急戦"), "Against a ranging rook, the left silver out to 5七 (to climb on by 4六 to 3五) with the bishop's diagonal never opened (the 7-file pawn still on 7七), the king on 7八 or near.").aka(&["鳥刺し戦法"]),
    strategy("対振り棒銀", Some("対振り急戦"), "棒銀 against a ranging rook."),
    strategy("ポンポン桂", Some("対振り急戦"), "Against a ranging rook, the right knight jumped to 4五 in the opening (3七, then 4五)."),
    strategy("超速", Some("対振り急戦"), "Against 中飛車, the right silver rushes to 3七 or 4六 in the first moves, the king still in the centre.").aka(&["超速▲3七銀", "超速3七銀"]),
    strategy("丸山ワクチン", None, "Against 中飛車, the bishops exchanged early by a static rook."),
    strategy("玉頭位取り", None, "Against a ranging rook, the static rook takes space over its own king (pawn on 7五, silver on 7六 or 6六)."),
    strategy("地下鉄飛車", None, "The rook goes down to the bottom rank and across to the edge (9九), to join an attack on the 9-file."),
    strategy("山田定跡", Some("5七銀左急戦"), "Against 四間飛車 with its silver still on 3二: 5七銀左 from 舟囲い, the right silver out to 4六 and the 3-file pawn pushed to attack the bishop's head."),
    strategy("鷺宮定跡", Some("5七銀左急戦"), "Against 四間飛車 with its silver still on 3二: 5七銀左 with the gold moved up to 6八 and the rook to 3八."),
    strategy("4六金戦法", Some("対振り急戦"), "Against 中飛車, the right gold climbs to 4六 to lead the attack."),
    strategy("端角戦法", Some("対振り急戦"), "Against a ranging rook, the bishop out on the edge at 9七."),
    strategy("5八金右超急戦", Some("対振り急戦"), "Against ゴキゲン中飛車, the right gold up to 5八 with the king still at home and the rook pawn pushed on to 2四 at once to be exchanged (▲5八金右, ▲2四歩), before either side castles.").aka(&["▲5八金右超急戦", "5八金右急戦"]),
    strategy("一直線穴熊", Some("対振り持久戦"), "Against ゴキゲン中飛車, the king taken straight into 居飛車穴熊 (king 9九, lance 9八) without the 超速 silver going out first.").aka(&["対ゴキゲン一直線穴熊"]),
    strategy("二枚銀", Some("対振り急戦"), "Against a ranging rook, 舟囲い with both silvers side by side in front of it on 5七 and 4七 (4五歩早仕掛け with the right silver up on 4七).").aka(&["二枚銀急戦"]),
    strategy("3八飛戦法", Some("対振り急戦"), "Against a ranging rook, the rook moved one file to 3八 with a silver on 5七, aiming at the head of the ranging side's bishop (鷺宮定跡 is its 左銀 form).").aka(&["▲3八飛戦法"]),
    strategy("4六銀右急戦", Some("対振り急戦"), "Against a ranging rook, the right silver out to 4六 by way of 4八 and 3七, the left silver still on 7九 or 6八, the king in 舟囲い or the like.").aka(&["▲4六銀右急戦", "4六銀右戦法", "4六銀右"]),
    strategy("居飛車", None, "A side whose rook did not range in the opening: still a static rook after 40 plies."),
];

#[rustfmt::skip]
pub(super) const PATTERNS: &[Pattern] = &[
    pat("対振り持久戦", CASTLING, &[VS[0], VS[1], Had("穴熊")]),
    pat("対振り持久戦", CASTLING, &[VS[0], VS[1], Had("左美濃")]),
    pat("対振り持久戦", CASTLING, &[VS[0], VS[1], Had("ミレニアム囲い")]),
    // Or castled without attacking through the opening.
    pat("対振り持久戦", (40, 40), &[VS[0], VS[1], NotHad("対振り急戦"), OwnNone(K, sqs(&[59, 58, 48, 49]))]),
    pat("対振り急戦", (1, 50), &[VS[0], VS[1], OwnAny(K, sqs(&[78, 68, 69, 79])), OwnAny(S, ATTACKING_SILVER)]),
    pat("舟囲い急戦", (1, 60), &[Had("対振り急戦"), Had("舟囲い")]),
    pat("左美濃急戦", (1, 60), &[VS[0], VS[1], Had("左美濃"), OwnAny(S, ATTACKING_SILVER)]),
    pat("エルモ急戦", (1, 60), &[VS[0], VS[1], Had("エルモ囲い"), OwnAny(S, ATTACKING_SILVER)]),
    pat("4五歩早仕掛け", (1, 50), &[VS[0], VS[1], Own(P, sq(45)), Own(N, sq(37)), NotHad("穴熊"), NotHad("左美濃")]),
    pat("斜め棒銀", (1, 50), &[VS[0], VS[1], Own(S, sq(35)), OwnAny(R, sqs(&[28, 29]))]),
    pat("棒金", (1, 50), &[VS[0], VS[1], OwnAny(G, sqs(&[27, 26])), OwnAny(R, sqs(&[28, 29]))]),
    pat("5七銀左急戦", (1, 50), &[VS[0], VS[1], Own(S, sq(57)), OwnAny(S, sqs(&[39, 48, 46])), OwnAny(K, sqs(&[78, 68, 69, 79]))]),
    pat("4六銀左急戦", (1, 50), &[VS[0], VS[1], Own(S, sqs(&[46, 39])), OwnAny(K, sqs(&[78, 68, 69, 79]))]),
    pat("鳥刺し", OPENING, &[VS[0], VS[1], Own(P, sq(77)), Own(S, sq(57)), OwnAny(K, sqs(&[78, 68, 69, 79]))]),
    pat("対振り棒銀", (1, 50), &[VS[0], VS[1], Had("棒銀")]),
    pat("ポンポン桂", OPENING, &[VS[0], VS[1], Own(N, sq(45))]),
    pat("超速", (1, 24), &[OppHad("中飛車"), VS[1], OwnAny(S, sqs(&[37, 46])), OwnAny(K, sqs(&[59, 58, 68]))]),
    pat("丸山ワクチン", (1, 30), &[OppHad("中飛車"), VS[1], OwnHand(PieceKind::Bishop), OppHand(PieceKind::Bishop)]),
    pat("玉頭位取り", (1, 60), &[VS[0], VS[1], Own(P, sq(75)), OwnAny(S, sqs(&[76, 66])), OwnAny(K, sqs(&[78, 88, 79, 69, 87]))]),
    pat("地下鉄飛車", CASTLING, &[Own(R, sq(99)), NotHad("振り飛車"), Opening]),
    pat("山田定跡", (1, 60), &[OppHad("四間飛車"), VS[1], Opp(S, sq(32)), Own(S, sqs(&[57, 46])), OwnNone(P, sqs(&[37, 36]))]),
    pat("鷺宮定跡", (1, 60), &[OppHad("四間飛車"), VS[1], Opp(S, sq(32)), Own(S, sq(57)), Own(R, sq(38)), Own(G, sq(68))]),
    pat("4六金戦法", (1, 50), &[OppHad("中飛車"), VS[1], Own(G, sq(46))]),
    pat("端角戦法", (1, 50), &[VS[0], VS[1], Own(B, sq(97))]),
    pat("5八金右超急戦", (1, 30), &[OppHad("ゴキゲン中飛車"), VS[1], Own(K, sq(59)), Own(G, sq(58)), OwnNone(G, sq(49)), OwnNone(P, sqs(&[27, 26, 25]))]),
    pat("一直線穴熊", CASTLING, &[OppHad("ゴキゲン中飛車"), VS[1], Had("居飛車穴熊"), NotHad("超速")]),
    pat("二枚銀", (1, 50), &[VS[0], VS[1], Had("舟囲い"), Own(S, sqs(&[57, 47]))]),
    pat("3八飛戦法", (1, 50), &[VS[0], VS[1], Own(R, sq(38)), Own(S, sq(57))]),
    pat("4六銀右急戦", (1, 50), &[VS[0], VS[1], Own(S, sq(46)), OwnAny(S, sqs(&[79, 68])), OwnAny(K, sqs(&[78, 68, 69, 79]))]),
    pat("居飛車", (40, 40), &[NotHad("振り飛車"), OwnAny(R | kind(PieceKind::Dragon), area(1, 9, 1, 9))]),
    pat("居飛車", (40, 40), &[NotHad("振り飛車"), OwnHand(PieceKind::Rook)]),
];
