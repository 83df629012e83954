//! The ranging rook (振り飛車): the rook swung to the left half of the board in the opening,
//! named by the file it went to and by the lines played there.

use crate::patterns::*;
use Cond::*;
use kifudex_shogi::{Color, PieceKind};

/// The rook's swing to file `f` in the opening: it leaves its home rank for the first time
/// sideways (the rook had stayed on ▲'s eighth rank, nothing but pawns and bishops had been
/// taken), the king has not castled on the left as a static rook's does, and the game did
/// not open as 相掛かり (where the swing is ひねり飛車).
const fn swung(f: u8) -> [Cond; 5] {
    [
        OwnAny(R, low(f)),
        OwnNone(K, LEFT_SIDE),
        RookHome,
        Opening,
        NotHad("相掛かり"),
    ]
}

/// The swing to the centre, wherever the king went: a rook in the centre in the opening is
/// 中飛車 even behind a static rook's castle (矢倉中飛車).
const CENTRE: [Cond; 4] = [OwnAny(R, low(5)), RookHome, Opening, NotHad("相掛かり")];

/// A ranging rook that swings again to file `f` while the opening is on (四間 to 向かい).
const fn again(f: u8) -> [Cond; 3] {
    [Had("振り飛車"), OwnAny(R, low(f)), Opening]
}

#[rustfmt::skip]
pub(super) const DEFS: &[Def] = &[
    strategy("振り飛車", None, "The rook leaves its file for the left side (files 5–8) in the opening, from its home square along the eighth rank, and the king castles on the right.").aka(&["振飛車", "FURIBISHA", "FURIHISHA", "RANGINGROOK"]),
    // 中飛車
    strategy("中飛車", Some("振り飛車"), "The rook swung to the centre file (▲5八飛).").aka(&["NAKABISHA", "NAKAHISHA", "CENTRALROOK"]),
    strategy("ゴキゲン中飛車", Some("中飛車"), "中飛車 with the bishop's diagonal open (the 7-file pawn pushed, the 6-file pawn at home) and the centre pawn pushed to 5五 early.").aka(&["ごきげん中飛車", "GOKIGENNAKABISHA"]),
    strategy("原始中飛車", Some("中飛車"), "中飛車 that attacks at once in the centre with the king left on 5九 and the right silver up to 5七, 5六 or 4六."),
    strategy("ツノ銀中飛車", Some("中飛車"), "中飛車 with the silvers on 6七 and 4七, the horns on either side of the centre."),
    strategy("5筋位取り中飛車", Some("中飛車"), "中飛車 holding the centre with the pawn on 5五, the bishop's diagonal closed by the pawn on 6六."),
    strategy("ノーマル中飛車", Some("中飛車"), "中飛車 with the bishop's diagonal closed by the pawn on 6六."),
    strategy("角交換中飛車", Some("中飛車"), "中飛車 where both bishops were exchanged."),
    strategy("中飛車左穴熊", Some("中飛車"), "中飛車 whose king goes into the left corner (▲9九玉, lance 9八) instead of castling on the right."),
    strategy("先手中飛車", Some("中飛車"), "中飛車 played by sente."),
    strategy("後手中飛車", Some("中飛車"), "中飛車 played by gote."),
    strategy("中飛車穴熊", Some("中飛車"), "中飛車 with the king in the right corner (振り飛車穴熊)."),
    strategy("矢倉中飛車", Some("中飛車"), "中飛車 from a static rook's castle: the rook swung to the centre with the king gone left (6九, 7九, 7八, 8八 or 6八), against a static rook."),
    strategy("風車", Some("中飛車"), "中飛車 with the silvers as horns on 6七 and 4七 and the rook drawn down to 5九, to swing along the bottom rank to wherever the opponent attacks.").aka(&["風車戦法"]),
    strategy("カニカニ銀", Some("中飛車"), "The centre rook with both silvers advanced side by side to 6六 and 4六, crab-like, before castling."),
    // 四間飛車
    strategy("四間飛車", Some("振り飛車"), "The rook swung to the fourth file from the left (▲6八飛).").aka(&["SHIKENBISHA", "SHIKENHISHA", "FOURTHFILEROOK"]),
    strategy("藤井システム", Some("四間飛車"), "四間飛車 keeping the king on 3九 with the silver on 3八 and the 4- and 3-file pawns pushed, to attack an opponent who heads for 穴熊."),
    strategy("角交換四間飛車", Some("四間飛車"), "四間飛車 where both bishops were exchanged."),
    strategy("ノーマル四間飛車", Some("四間飛車"), "四間飛車 with the bishop's diagonal closed by the pawn on 6六."),
    strategy("角道オープン四間飛車", Some("四間飛車"), "四間飛車 swung with the bishop's diagonal left open (the 7-file pawn pushed, the 6-file pawn at home)."),
    strategy("4→3戦法", Some("四間飛車"), "四間飛車 whose rook moves on to the third file with the 7-file pawn on 7五, heading for 石田流.").aka(&["四→三戦法", "4三戦法"]),
    strategy("四間飛車穴熊", Some("四間飛車"), "四間飛車 with the king in the right corner (振り飛車穴熊).").aka(&["四間穴熊"]),
    strategy("先手四間飛車", Some("四間飛車"), "四間飛車 played by sente."),
    strategy("後手四間飛車", Some("四間飛車"), "四間飛車 played by gote."),
    strategy("立石流", Some("四間飛車"), "四間飛車 that takes space with the pawns on 6五 and 7五 and lifts the rook to 7六.").aka(&["立石流四間飛車"]),
    // 三間飛車
    strategy("三間飛車", Some("振り飛車"), "The rook swung to the third file from the left (▲7八飛).").aka(&["SANGENBISHA", "SANKENBISHA", "SANGENHISHA", "THIRDFILEROOK"]),
    strategy("石田流", Some("三間飛車"), "三間飛車 with the 7-file pawn on 7五 and the rook raised to 7六.").aka(&["石田流三間飛車", "ISHIDARYU"]),
    strategy("石田流本組み", Some("石田流"), "石田流 fully built: the rook on 7六 over the pawn on 7五, the knight on 7七 and the bishop on 9七.").aka(&["石田流本組", "本組み"]),
    strategy("早石田", Some("三間飛車"), "三間飛車 with the 7-file pawn pushed to 7五 at once, the bishop's diagonal left open (6-file pawn unmoved)."),
    strategy("升田式石田流", Some("早石田"), "早石田 whose rook rises to 7六 at once, before the king has castled."),
    strategy("ノーマル三間飛車", Some("三間飛車"), "三間飛車 with the bishop's diagonal closed by the pawn on 6六."),
    strategy("角道オープン三間飛車", Some("三間飛車"), "三間飛車 swung with the bishop's diagonal left open (the 7-file pawn pushed, the 6-file pawn at home)."),
    strategy("三間飛車穴熊", Some("三間飛車"), "三間飛車 with the king in the right corner (振り飛車穴熊).").aka(&["三間穴熊"]),
    strategy("先手三間飛車", Some("三間飛車"), "三間飛車 played by sente."),
    strategy("後手三間飛車", Some("三間飛車"), "三間飛車 played by gote."),
    strategy("角交換三間飛車", Some("三間飛車"), "三間飛車 where both bishops were exchanged."),
    strategy("新石田流", Some("早石田"), "早石田 pushing the 7-file pawn on to 7四 at once to exchange it."),
    strategy("2手目△3二飛戦法", Some("三間飛車"), "Gote swings the rook to 3二 on its very first move.").aka(&["2手目3二飛", "2手目△3二飛", "二手目3二飛戦法"]),
    strategy("初手▲7八飛戦法", Some("三間飛車"), "Sente swings the rook to 7八 on the first move of the game.").aka(&["初手7八飛", "初手▲7八飛"]),
    // 向かい飛車
    strategy("向かい飛車", Some("振り飛車"), "The rook swung to the 8th file, facing the opponent's rook (▲8八飛).").aka(&["向飛車", "向い飛車", "MUKAIBISHA", "MUKAIHISHA", "OPPOSINGROOK"]),
    strategy("阪田流向かい飛車", Some("向かい飛車"), "The bishops exchanged on 7七 and the gold, moved up to 7八 first, takes back there (▲7八金 ▲7七角 …▲同金 from sente's side, gote's △3二金 △3三角 △同金); only then the rook swings to 8八 (△2二飛), the gold still on 7七.").aka(&["阪田流向飛車", "阪田流"]),
    strategy("ダイレクト向かい飛車", Some("向かい飛車"), "向かい飛車 swung straight onto the bishop's empty square after the bishops were exchanged in the first moves."),
    strategy("ノーマル向かい飛車", Some("向かい飛車"), "向かい飛車 with the bishop's diagonal closed by the pawn on 6六."),
    strategy("向かい飛車穴熊", Some("向かい飛車"), "向かい飛車 with the king in the right corner (振り飛車穴熊)."),
    strategy("角交換向かい飛車", Some("向かい飛車"), "向かい飛車 where both bishops were exchanged."),
    strategy("先手向かい飛車", Some("向かい飛車"), "向かい飛車 played by sente."),
    strategy("後手向かい飛車", Some("向かい飛車"), "向かい飛車 played by gote."),
    // Others.
    strategy("陽動振り飛車", Some("振り飛車"), "A ranging rook whose 2-file pawn had been pushed, as a static rook would, when it swung, its king not gone left.").aka(&["陽動振飛車"]),
    strategy("玉頭銀", Some("振り飛車"), "A ranging rook's silver climbs over the centre to 4五 or 3四, at the head of the static rook's king castled on that side."),
    strategy("鬼殺し", None, "The left knight jumps to 6五 in the first moves (▲7七桂 then ▲6五桂), a trap aimed at 7三 and 5三."),
    strategy("矢倉流中飛車", Some("中飛車"), "中飛車 with the bishop's diagonal closed by the pawn on 6六 whose other silver comes round to 4六 (via 6八 and 5七), the king castled."),
    // Named lines of the ranging rook.
    strategy("角交換振り飛車", Some("振り飛車"), "A ranging rook that exchanged the bishops in the opening, whichever file the rook went to: the diagonal was left open on purpose."),
    strategy("逆棒銀", Some("角交換振り飛車"), "角交換振り飛車 with the rook on 8八 and the left silver climbing the rook's file to 8六 or 8五: 棒銀 played by the ranging rook against the static rook's bishop head."),
    strategy("レグスペ", Some("角交換四間飛車"), "角交換四間飛車 with the king dug into 振り飛車穴熊 (king 1九, lance 1八) instead of 美濃.").aka(&["白色レグホーンスペシャル", "白色レグホン・スペシャル", "レグホーンスペシャル"]),
    strategy("トマホーク", Some("三間飛車"), "三間飛車 against 居飛車穴熊: the right knight jumped to the edge at 1七 over the pawn pushed to 1五, and the left silver out over the centre (5六, 4五 or 3四), the king left on 4八 or near."),
    strategy("コーヤン流", Some("三間飛車"), "三間飛車 against 居飛車穴熊 (中田功's): the left silver on 5七 over the pushed centre pawn, the king on 3九 in 片美濃, the knight up on 3七 and the edge pawn on 1五, ready to break the corner.").aka(&["中田功XP", "コーヤン流三間飛車"]),
    strategy("新鬼殺し", Some("早石田"), "早石田 that invites the bishop exchange on 7七 and takes back with the knight (▲7六歩 ▲7五歩 ▲7八飛 ▲7七角 △同角成 ▲同桂), the 7-file pawn on 7五."),
    strategy("鬼殺し向かい飛車", Some("向かい飛車"), "Against the rook pawn pushed to 2五 at once, the bishop up to 3三 and the rook swung straight behind it to 2二 with the diagonal open (▲2六歩 △3四歩 ▲2五歩 △3三角 ▲7六歩 △2二飛)."),
    strategy("メリケン向かい飛車", Some("向かい飛車"), "向かい飛車 swung after the 7-file pawn was pushed to 7五, the bishop's diagonal open."),
    strategy("耀龍四間飛車", Some("四間飛車"), "ノーマル四間飛車 whose king stops on 3八 instead of going on into 美濃: still there after 40 plies (大橋貴洸's)."),
    strategy("三間飛車藤井システム", Some("三間飛車"), "ノーマル三間飛車 that keeps the king at home on 5九 with the silver up on 6七 and the edge pawn on to 1五, ready to attack a 穴熊 before it is built.").aka(&["久保システム"]),
    strategy("石田流7七角型", Some("石田流"), "石田流 with the bishop's diagonal closed by the pawn on 6六 and the bishop up on 7七 under the rook on 7六, instead of out on the edge at 9七.").aka(&["石田流▲7七角型", "7七角型石田流"]),
    strategy("石田流穴熊", Some("石田流"), "石田流 with the king dug into the right corner (振り飛車穴熊: king 1九, lance 1八).").aka(&["石田流三間飛車穴熊"]),
    strategy("真部流", Some("三間飛車"), "三間飛車 against 居飛車穴熊 (真部一男's): the 4-file pawn pushed to 4五 to take space, the left silver brought through 5七 up to 4六 behind it, the king in 美濃 on 2八.").aka(&["真部流三間飛車"]),
    strategy("銀対抗", Some("ゴキゲン中飛車"), "ゴキゲン中飛車 against 超速: the silver brought to 5四 (5六 from sente's side) to face the static rook's silver on 4六 (6四)."),
];

#[rustfmt::skip]
pub(super) const PATTERNS: &[Pattern] = &[
    // The files (the group 振り飛車 follows from them): the first swing, and a swing again.
    pat("中飛車", OPENING, &CENTRE),
    pat("四間飛車", OPENING, &swung(6)),
    pat("三間飛車", OPENING, &swung(7)),
    pat("向かい飛車", OPENING, &swung(8)),
    pat("中飛車", OPENING, &again(5)),
    pat("四間飛車", OPENING, &again(6)),
    pat("三間飛車", OPENING, &again(7)),
    pat("向かい飛車", OPENING, &again(8)),
    // 中飛車
    pat("ゴキゲン中飛車", (1, 30), &[Had("中飛車"), Own(P, sqs(&[55, 67])), OwnNone(P, sq(77))]),
    pat("原始中飛車", (1, 30), &[Had("中飛車"), OwnAny(R, low(5)), Own(K, sq(59)), OwnAny(S, sqs(&[57, 56, 46]))]),
    pat("ツノ銀中飛車", (1, 50), &[Had("中飛車"), OwnAny(R, low(5)), Own(S, sqs(&[67, 47]))]),
    pat("5筋位取り中飛車", OPENING, &[Had("中飛車"), Own(P, sqs(&[55, 66]))]),
    pat("ノーマル中飛車", (1, 30), &[Had("中飛車"), Own(P, sq(66))]),
    pat("角交換中飛車", OPENING, &[Had("中飛車"), OwnHand(PieceKind::Bishop), OppHand(PieceKind::Bishop)]),
    pat("中飛車左穴熊", CASTLING, &[Had("中飛車"), Had("居飛車穴熊")]),
    pat("先手中飛車", OPENING, &[Had("中飛車"), Side(Color::Black)]),
    pat("後手中飛車", OPENING, &[Had("中飛車"), Side(Color::White)]),
    pat("中飛車穴熊", CASTLING, &[Had("中飛車"), Had("振り飛車穴熊")]),
    pat("矢倉中飛車", OPENING, &[Had("中飛車"), OwnAny(K, sqs(&[69, 79, 78, 88, 68])), OppNotHad("振り飛車")]),
    pat("風車", (1, 60), &[Had("中飛車"), Own(R, sq(59)), Own(S, sqs(&[67, 47]))]),
    pat("カニカニ銀", (1, 30), &[Had("中飛車"), OwnAny(R, low(5)), Own(S, sqs(&[66, 46]))]),
    // 四間飛車
    pat("藤井システム", OPENING, &[Had("四間飛車"), Own(K, sq(39)), Own(S, sq(38)), Own(P, sqs(&[46, 36]))]),
    pat("角交換四間飛車", OPENING, &[Had("四間飛車"), OwnHand(PieceKind::Bishop), OppHand(PieceKind::Bishop)]),
    pat("ノーマル四間飛車", (1, 30), &[Had("四間飛車"), Own(P, sq(66))]),
    pat("角道オープン四間飛車", OPENING, &[Just("四間飛車"), Own(P, sq(67)), OwnNone(P, sq(77))]),
    pat("4→3戦法", (1, 50), &[Had("四間飛車"), OwnAny(R, sqs(&[78, 76])), Own(P, sq(75))]),
    pat("四間飛車穴熊", CASTLING, &[Had("四間飛車"), Had("振り飛車穴熊")]),
    pat("先手四間飛車", OPENING, &[Had("四間飛車"), Side(Color::Black)]),
    pat("後手四間飛車", OPENING, &[Had("四間飛車"), Side(Color::White)]),
    pat("立石流", (1, 50), &[Had("四間飛車"), Own(R, sq(76)), Own(P, sqs(&[65, 75]))]),
    // 三間飛車
    pat("石田流", (1, 50), &[Had("三間飛車"), Own(R, sq(76)), Own(P, sq(75))]),
    pat("石田流本組み", (1, 60), &[Had("石田流"), Own(R, sq(76)), Own(N, sq(77)), Own(B, sq(97))]),
    pat("早石田", (1, 16), &[Had("三間飛車"), Own(P, sqs(&[75, 67]))]),
    pat("升田式石田流", (1, 24), &[Had("早石田"), Own(R, sq(76)), OwnAny(K, sqs(&[59, 48, 49, 58, 68]))]),
    pat("ノーマル三間飛車", (1, 30), &[Had("三間飛車"), Own(P, sq(66))]),
    pat("角道オープン三間飛車", OPENING, &[Just("三間飛車"), Own(P, sq(67)), OwnNone(P, sq(77))]),
    pat("三間飛車穴熊", CASTLING, &[Had("三間飛車"), Had("振り飛車穴熊")]),
    pat("先手三間飛車", OPENING, &[Had("三間飛車"), Side(Color::Black)]),
    pat("後手三間飛車", OPENING, &[Had("三間飛車"), Side(Color::White)]),
    pat("角交換三間飛車", OPENING, &[Had("三間飛車"), OwnHand(PieceKind::Bishop), OppHand(PieceKind::Bishop)]),
    pat("新石田流", (1, 24), &[Had("早石田"), Own(P, sq(74))]),
    pat("2手目△3二飛戦法", (2, 2), &[Just("三間飛車")]),
    pat("初手▲7八飛戦法", (1, 1), &[Just("三間飛車")]),
    // 向かい飛車
    // The swing after the exchange, the gold that took back on 7七 still there (a rook
    // swung first and a gold climbed to 7七 before an exchange elsewhere is 角交換向かい飛車).
    // Before ダイレクト向かい飛車, whose shape it also has: the older name wins a tie.
    pat("阪田流向かい飛車", OPENING, &[Just("向かい飛車"), Own(G, sq(77)), OwnHand(PieceKind::Bishop), OppHand(PieceKind::Bishop)]),
    pat("ダイレクト向かい飛車", (1, 16), &[Just("向かい飛車"), OwnHand(PieceKind::Bishop), OppHand(PieceKind::Bishop)]),
    pat("ノーマル向かい飛車", (1, 30), &[Had("向かい飛車"), Own(P, sq(66))]),
    pat("向かい飛車穴熊", CASTLING, &[Had("向かい飛車"), Had("振り飛車穴熊")]),
    pat("角交換向かい飛車", OPENING, &[Had("向かい飛車"), OwnHand(PieceKind::Bishop), OppHand(PieceKind::Bishop)]),
    pat("先手向かい飛車", OPENING, &[Had("向かい飛車"), Side(Color::Black)]),
    pat("後手向かい飛車", OPENING, &[Had("向かい飛車"), Side(Color::White)]),
    // Others.
    pat("陽動振り飛車", OPENING, &[Just("振り飛車"), OwnNone(P, sq(27)), OwnNone(K, LEFT_SIDE)]),
    pat("玉頭銀", (1, 60), &[Had("振り飛車"), OwnAny(S, sqs(&[45, 34])), OppAny(K, RIGHT_SIDE)]),
    pat("鬼殺し", (1, 16), &[Own(N, sq(65)), OwnNone(P, sq(77))]),
    pat("矢倉流中飛車", (1, 60), &[Had("中飛車"), Own(P, sq(66)), Own(S, sq(46)), OwnNone(K, sq(59))]),
    // Named lines.
    pat("角交換振り飛車", OPENING, &[Had("振り飛車"), OwnHand(PieceKind::Bishop), OppHand(PieceKind::Bishop)]),
    pat("逆棒銀", (1, 50), &[Had("角交換振り飛車"), Own(R, sq(88)), OwnAny(S, sqs(&[86, 85]))]),
    pat("レグスペ", CASTLING, &[Had("角交換四間飛車"), Had("振り飛車穴熊")]),
    pat("トマホーク", (1, 60), &[Had("三間飛車"), Own(N, sq(17)), Own(P, sq(15)), OwnAny(S, sqs(&[56, 45, 34]))]),
    pat("コーヤン流", CASTLING, &[Had("三間飛車"), Own(S, sq(57)), Own(P, sq(56)), Own(K, sq(39)), Own(N, sq(37)), Own(P, sq(15))]),
    // The knight took back on 7七: the bishops are exchanged and the knight stands where the
    // bishop was taken.
    pat("新鬼殺し", (1, 16), &[Had("早石田"), Own(N, sq(77)), Own(P, sq(75)), OwnHand(PieceKind::Bishop), OppHand(PieceKind::Bishop)]),
    pat("鬼殺し向かい飛車", (1, 12), &[Just("向かい飛車"), Own(B, sq(77)), Opp(P, sq(85)), OwnNone(P, sq(66))]),
    pat("メリケン向かい飛車", OPENING, &[Just("向かい飛車"), Own(P, sq(75))]),
    // Looked at once: the king that stops on 3八 for good, not one on its way to 2八.
    pat("耀龍四間飛車", (40, 40), &[Had("ノーマル四間飛車"), Own(K, sq(38))]),
    pat("三間飛車藤井システム", (1, 40), &[Had("三間飛車"), Own(P, sqs(&[66, 15])), Own(K, sq(59)), Own(S, sq(67))]),
    pat("石田流7七角型", (1, 60), &[Had("石田流"), Own(R, sq(76)), Own(B, sq(77)), Own(P, sq(66))]),
    pat("石田流穴熊", CASTLING, &[Had("石田流"), Had("振り飛車穴熊")]),
    pat("真部流", (1, 60), &[Had("三間飛車"), Own(P, sq(45)), Own(S, sq(46)), Own(K, sq(28))]),
    pat("銀対抗", (1, 50), &[Had("ゴキゲン中飛車"), Own(S, sq(56)), Opp(S, sq(64))]),
];
