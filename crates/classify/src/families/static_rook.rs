//! The static rook (居飛車) in 相居飛車 games: the openings that name them (角換わり, 横歩取り,
//! 相掛かり, 矢倉, 雁木) and their lines, and the static rook's strategies met in any game.

use crate::patterns::*;
use Cond::*;
use kifudex_shogi::{Color, PieceKind};

/// A rook swung to the right side (files 1–4) by a static rook, the first time it leaves
/// its home rank, while its king stays off the right side.
const fn static_swing(f: u8) -> [Cond; 5] {
    [
        OwnAny(R, low(f)),
        OwnNone(K, RIGHT_SIDE),
        NotHad("振り飛車"),
        RookHome,
        Opening,
    ]
}

/// Both bishops in hand.
const EXCHANGED: [Cond; 2] = [OwnHand(PieceKind::Bishop), OppHand(PieceKind::Bishop)];

#[rustfmt::skip]
pub(super) const DEFS: &[Def] = &[
    // 角換わり
    strategy("角換わり", None, "Both bishops exchanged early, both rooks still on their own files, before either side took the other's side pawn.").aka(&["角換り", "角交換", "KAKUGAWARI", "BISHOPEXCHANGE"]),
    strategy("角換わり腰掛け銀", Some("角換わり"), "角換わり with the silver sitting on 5六.").aka(&["角換わり腰掛銀", "角換り腰掛銀", "角交換腰掛銀", "角交換腰掛け銀"]),
    strategy("角換わり早繰り銀", Some("角換わり"), "角換わり with the silver run out to 4六 beside the pushed 3-file pawn.").aka(&["角換わり早繰銀", "角換り早繰銀"]),
    strategy("角換わり棒銀", Some("角換わり"), "角換わり with the silver climbing the rook's file (2六, 1五).").aka(&["角換り棒銀"]),
    strategy("一手損角換わり", Some("角換わり"), "角換わり in which this side's bishop took the other on its home square (△8八角成 ▲同銀): a tempo given up to exchange.").aka(&["一手損角換り", "後手一手損角換わり"]),
    strategy("角換わり右玉", Some("角換わり"), "角換わり with the king gone to the right (右玉)."),
    strategy("角換わり4八金2九飛型", Some("角換わり"), "角換わり with the gold on 4八 and the rook drawn back to 2九, the modern 腰掛け銀 set-up.").aka(&["4八金2九飛型", "4八金・2九飛型"]),
    strategy("羽生流右玉", Some("角換わり右玉"), "右玉 played by the side that gave up the tempo in 一手損角換わり."),
    strategy("4五桂速攻", Some("角換わり"), "角換わり in which the right knight jumps on to 4五 (via 3七) to open the attack at once.").aka(&["▲4五桂速攻", "角換わり4五桂", "角換わり▲4五桂"]),
    // 横歩取り
    strategy("横歩取り", None, "The rook, up its file after the rook pawns were exchanged, takes the pawn beside it on 3四 in the opening.").aka(&["横歩取", "YOKOFUDORI", "YOKOFUTORI", "SIDEPAWNCAPTURE"]),
    strategy("山崎流", Some("横歩取り"), "横歩取り where the side that took the pawn leaves its rook's file open instead of dropping a pawn back on 8七, the king up on 5八 and the gold on 3八, to keep the other rook off 8五.").aka(&["角交換型山崎流"]),
    strategy("新山崎流", Some("横歩取り"), "Against 中座飛車 (the rook on 8五), the side that took the pawn keeps its king at home on 5九 and attacks at once with the knight on 3七 and the 3-file pawn on 3五.").aka(&["横歩取り新山崎流"]),
    strategy("中座飛車", Some("横歩取り"), "Against 横歩取り, the rook, after exchanging its rook pawn, settles on 8五 (▲2五飛 from sente's side).").aka(&["横歩取り8五飛", "横歩取り△8五飛", "8五飛車戦法", "8五飛戦法"]),
    strategy("横歩取り3三角型", Some("横歩取り"), "Against 横歩取り, the bishop comes up to 3三 (▲7七角 from sente's side).").aka(&["横歩取り△3三角", "横歩取り3三角"]),
    strategy("横歩取り3三桂型", Some("横歩取り"), "Against 横歩取り, the knight jumps to 3三 (▲7七桂 from sente's side).").aka(&["横歩取り△3三桂", "横歩取り3三桂", "脇流"]),
    strategy("横歩取り4五角", Some("横歩取り"), "Against 横歩取り, the bishop dropped on 4五 (▲6五角 from sente's side).").aka(&["横歩取り△4五角", "4五角戦法", "△4五角戦法"]),
    strategy("横歩取り8四飛型", Some("横歩取り"), "Against 横歩取り, the rook, after exchanging its rook pawn, drawn back to 8四 (▲2六飛 from sente's side).").aka(&["横歩取り△8四飛"]),
    strategy("横歩取り8二飛型", Some("横歩取り"), "Against 横歩取り, the rook, after exchanging its rook pawn, drawn back home to 8二 (▲2八飛 from sente's side).").aka(&["横歩取り△8二飛"]),
    strategy("横歩取り4一玉型", Some("横歩取り"), "Against 横歩取り, the king one step aside to 4一 (▲6九玉 from sente's side).").aka(&["横歩取り△4一玉"]),
    strategy("横歩取り5二玉型", Some("横歩取り"), "Against 横歩取り, the king one step up to 5二 (▲5八玉 from sente's side).").aka(&["横歩取り△5二玉"]),
    strategy("相横歩取り", Some("横歩取り"), "Against 横歩取り, the rook takes the side pawn in turn (▲3四飛x from sente's side).").aka(&["相横歩"]),
    strategy("青野流", Some("横歩取り"), "横歩取り keeping the rook on 3四 with the king up on 5八 and the 3- or 4-file pawn pushed, to attack at once.").aka(&["横歩取り青野流"]),
    strategy("空中戦法", Some("横歩取り3三角型"), "横歩取り3三角型 with the rook on 8四 and the king on 4一 (▲2六飛, ▲6九玉 from sente's side)."),
    // 相掛かり
    strategy("相掛かり", None, "Both sides push their rook pawns to the fifth rank and exchange them with the bishops' diagonals still closed (7七/3三 pawns unmoved).").aka(&["相掛り", "相懸かり", "相懸り", "AIGAKARI", "AIKAKARI", "DOUBLEWINGATTACK"]),
    strategy("ひねり飛車", Some("相掛かり"), "相掛かり where the rook then swings to the 7th file (7六 or 7八).").aka(&["ひねり飛車戦法"]),
    strategy("相掛かり棒銀", Some("相掛かり"), "相掛かり with the silver climbing the rook's file (棒銀)."),
    strategy("相掛かり早繰り銀", Some("相掛かり"), "相掛かり with the silver run out to 4六 (早繰り銀)."),
    strategy("相掛かり腰掛け銀", Some("相掛かり"), "相掛かり with the silver sitting on 5六 (腰掛け銀)."),
    strategy("相掛かり引き飛車", Some("相掛かり"), "相掛かり where the rook, after exchanging the rook pawn (the opponent's pawn dropped back on 2三), goes back home to 2八.").aka(&["引き飛車"]),
    strategy("相掛かり浮き飛車", Some("相掛かり"), "相掛かり where the rook, after exchanging the rook pawn, stays up on 2六.").aka(&["浮き飛車"]),
    strategy("縦歩取り", Some("相掛かり"), "相掛かり where the rook, up on 2六 after exchanging its rook pawn, steps across to 3六 to take the 3-file pawn from below, up its file.").aka(&["タテ歩取り", "縦歩取り戦法"]),
    strategy("中原流相掛かり", Some("相掛かり"), "相掛かり引き飛車 with the king in 中原囲い (6九, golds 5九 and 7八, silver 4八)."),
    strategy("UFO銀", Some("相掛かり"), "相掛かり where the right silver comes out to 3六 beside the rook's file, to fly on to the centre."),
    strategy("タコ金", Some("相掛かり"), "Against ひねり飛車, a gold flown up like a kite to the centre, on 6六 or 5五 (▲7七金 ▲6六金 ▲5五金, or △4四金 △5五金 from gote's side).").aka(&["対ひねり飛車タコ金", "タコ金戦法"]),
    strategy("塚田スペシャル", Some("相掛かり"), "相掛かり with the rook up on 2六 after the exchange, the edge pawn on 1六 and the silver on 3八, where a pawn is dropped again on 2四 when the other side exchanges its own rook pawn.").aka(&["塚田流"]),
    strategy("鎖鎌銀", Some("相掛かり"), "相掛かり against a 腰掛け銀: instead of sitting on the centre, the silver goes out beside the rook's file (△7四銀, ▲3六銀 from sente's side) over the pushed 6-file (4-file) pawn.").aka(&["猪突銀", "猪突銀戦法"]),
    // 矢倉
    strategy("矢倉", None, "The bishop's diagonal closed by ▲6六歩, the silver on 7七 and the gold on 7八, or any 矢倉囲い: a 矢倉 game.").aka(&["YAGURA", "FORTRESS"]),
    strategy("雀刺し", Some("矢倉"), "矢倉 attacking the edge: the rook on the 1-file, the knight on 3七 and the edge pawn on 1五."),
    strategy("米長流急戦矢倉", Some("矢倉"), "Against 矢倉, an early attack: the rook pawn to 2五, the 3- and 4-file pawns pushed and the knight jumped to 3七 (△8五歩 △7四歩 △6四歩 △7三桂 from gote's side).").aka(&["米長流"]),
    strategy("矢倉棒銀", Some("矢倉"), "棒銀 in a 矢倉 game (by the 矢倉 side, or against it)."),
    strategy("矢倉早繰り銀", Some("矢倉"), "早繰り銀 in a 矢倉 game (by the 矢倉 side, or against it)."),
    strategy("矢倉3七銀戦法", Some("矢倉"), "矢倉 with the right silver up to 3七 over the pushed 3-file pawn.").aka(&["矢倉▲3七銀", "3七銀戦法"]),
    strategy("4六銀3七桂型", Some("矢倉"), "矢倉 with the right silver on 4六 and the knight on 3七.").aka(&["矢倉4六銀3七桂", "4六銀・3七桂型"]),
    strategy("矢倉左美濃急戦", Some("矢倉"), "Against 矢倉, a quick attack from 左美濃 (king 8八, silver 7八, gold 6九).").aka(&["居角左美濃"]),
    strategy("急戦矢倉", Some("矢倉"), "Against a 矢倉, an attack before castling: a silver out on the fifth rank or the knight jumped to 4五 or 6五, the king still near its start."),
    strategy("ウソ矢倉", Some("矢倉"), "Gote's 矢倉 castled without the rook pawn pushed (△8三歩 still at home), as after the ranging-rook-like 4手目△4四歩.").aka(&["うそ矢倉", "無理矢理矢倉"]),
    strategy("藤井矢倉", Some("矢倉"), "矢倉 by 藤井猛's early castle (矢倉早囲い, the king hurried to 7八) with the rook pawn pushed on to 2五 and the bishop out on 4六.").aka(&["藤井流矢倉"]),
    strategy("カニカニ金", Some("矢倉"), "Against 矢倉, the right gold climbs out to the centre (▲5八金 ▲5七金, then 6六 or 5五; △5三金 △4四金 △5五金 from gote's side) to lead the attack (児玉孝一's).").aka(&["カニカニ金戦法"]),
    strategy("脇システム", Some("矢倉"), "矢倉 with the bishop out on 4六 facing the opponent's on 6四."),
    strategy("阿久津流急戦矢倉", Some("急戦矢倉"), "Against 矢倉, the centre pawns exchanged (no pawn left on the 5-file) and the bishop brought round to 7三 (3七 from sente's side) before castling.").aka(&["阿久津流"]),
    // 雁木
    strategy("雁木", None, "A static rook castled in 雁木囲い.").aka(&["雁木戦法", "GANGI"]),
    // Silver strategies of any static rook.
    strategy("腰掛け銀", None, "The right silver sits on 5六, rook at home.").aka(&["腰掛銀"]),
    strategy("早繰り銀", None, "The right silver runs out to 4六 beside the pushed 3-file pawn, rook at home.").aka(&["早繰銀"]),
    strategy("棒銀", None, "The right silver climbs the rook's file (2六 or 1五), rook at home.").aka(&["BOGIN", "CLIMBINGSILVER"]),
    strategy("原始棒銀", Some("棒銀"), "棒銀 at its plainest: the silver straight up to 2六 or 1五 in the first moves, the rook pawn on 2五 or beyond, the king still at home on 5九."),
    // The rook moved on the right.
    strategy("右四間飛車", None, "A static rook's rook moved to the 4th file from the right (▲4八飛) to attack there.").aka(&["右四間", "MIGISHIKENBISHA"]),
    strategy("右四間飛車左美濃", Some("右四間飛車"), "右四間飛車 with the king in 左美濃."),
    strategy("袖飛車", None, "A static rook's rook moved one file left, to the 3rd file (▲3八飛).").aka(&["SODEBISHA"]),
    strategy("加藤流袖飛車", Some("袖飛車"), "袖飛車 against a 中飛車."),
    strategy("一間飛車", None, "A static rook's rook moved to the edge file beside it (▲1八飛)."),
    // Others.
    strategy("右玉", None, "A static rook whose king goes right (4八, 3八, 4九 or 3九), gold beside it, rook at home."),
    strategy("雁木右玉", Some("右玉"), "右玉 behind 雁木's silvers: the silvers on 6七 and 5七, the king gone right."),
    strategy("矢倉右玉", Some("右玉"), "右玉 behind a 矢倉's silver and gold: silver 7七 over gold 7八, the king gone right."),
    strategy("糸谷流右玉", Some("右玉"), "右玉 against a ranging rook: the silvers on 6七 and 4七, the king gone right to 4八 beside them."),
    strategy("アヒル戦法", None, "A static rook castled in アヒル囲い (king 5八, silvers 6八 and 4八, golds 7九 and 3九), playing to trade the major pieces."),
    strategy("5筋位取り", None, "A static rook takes the centre with its pawn on 5五, the rook at home.").aka(&["五筋位取り"]),
    strategy("英春流かまいたち", Some("5筋位取り"), "5筋位取り against a ranging rook (鈴木英春's): the silver from 5六 on to 6五 beside the pawn on 5五, then the rook swung to 5八 behind them.").aka(&["かまいたち戦法", "英春流かまいたち戦法"]),
    strategy("金立ち戦法", None, "A static rook's gold climbs to 5七 in the opening (▲5八金右 then ▲5七金) to lead the attack or hold the centre.").aka(&["5七金戦法", "金立ち"]),
    strategy("端位取り", None, "An edge pawn pushed to 9五 (or 1五) while the opponent's is still at home on 9三 (1三), taking space on the edge."),
    strategy("嬉野流", None, "▲6八銀 first, then the bishop to 7九 with the 7-file pawn unmoved."),
    strategy("新嬉野流", Some("嬉野流"), "嬉野流 with the silver on 5七 over the pushed centre pawn (5六), the bishop on 7九 behind the unmoved 7-file pawn."),
    strategy("引き角", None, "The bishop drawn back to 7九 in the opening (not in 嬉野流 or 矢倉), to come out on the other diagonal."),
    strategy("筋違い角", None, "A bishop on 4五 or 6五 in the first sixteen plies (dropped after an early exchange), off the opponent's diagonals."),
    strategy("相筋違い角", Some("筋違い角"), "Both sides played 筋違い角, each bishop dropped off the other's diagonals."),
    strategy("4手目△3三角戦法", None, "Gote's second move raises the bishop to 3三 on the open diagonal (▲7六歩 △3四歩 ▲… △3三角), offering the exchange to play 角交換振り飛車 or 相振り飛車.").aka(&["4手目3三角", "4手目△3三角", "△3三角戦法"]),
    strategy("4手目△4四角戦法", None, "Gote's second move takes the bishop out to 4四 through the open diagonal (▲7六歩 △3四歩 ▲… △4四角), aiming at 8八 and ready to exchange.").aka(&["4手目4四角", "4手目△4四角", "△4四角戦法"]),
    strategy("パックマン", None, "Gote's first move pushes the 4-file pawn to 4四 into the open diagonal, offering it."),
    strategy("角頭歩戦法", None, "The pawn on the bishop's head (the 8-file pawn) pushed in the first moves with the bishop's diagonal open."),
    strategy("中原流急戦矢倉", Some("矢倉"), "Against 矢倉, an early attack in the centre: the 3- and 4-file pawns pushed, the silver up to 4七 and the centre pawn on to 5五 (△7四歩 △6四歩 △6三銀 △5五歩 from gote's side).").aka(&["中原流"]),
    strategy("勇気流", Some("横歩取り"), "横歩取り keeping the rook on 3四 with the king to 6八 instead of 青野流's 5八."),
    strategy("森下システム", Some("矢倉"), "矢倉 that castles first and decides its attack later: the bishop on 6八, the right silver still on 4八, golds 7八 and 6七."),
];

#[rustfmt::skip]
pub(super) const PATTERNS: &[Pattern] = &[
    // 角換わり
    pat("角換わり", (1, 30), &[EXCHANGED[0], EXCHANGED[1], OwnAny(R, file(2)), OppAny(R, file(8)), NotHad("横歩取り"), OppNotHad("横歩取り")]),
    pat("角換わり腰掛け銀", (1, 60), &[Had("角換わり"), Own(S, sq(56))]),
    pat("角換わり早繰り銀", (1, 50), &[Had("角換わり"), Own(S, sq(46)), OwnNone(P, sq(37))]),
    pat("角換わり棒銀", (1, 50), &[Had("角換わり"), OwnAny(S, sqs(&[26, 15]))]),
    // The recapture stands on the bishop's home square, the square in front of it empty.
    pat("一手損角換わり", (1, 30), &[Just("角換わり"), OppAny(GS, sq(22)), OppNone(GS | N, sq(33))]),
    pat("角換わり右玉", CASTLING, &[Had("角換わり"), Had("右玉")]),
    pat("角換わり4八金2九飛型", (1, 60), &[Had("角換わり"), Own(G, sq(48)), Own(R, sq(29))]),
    pat("羽生流右玉", CASTLING, &[Had("一手損角換わり"), Had("右玉")]),
    pat("4五桂速攻", (1, 60), &[Had("角換わり"), Own(N, sq(45))]),
    // 横歩取り
    pat("横歩取り", OPENING, &[Own(R, sq(34)), Opening, NotHad("振り飛車"), NotHad("角換わり"), NotHad("矢倉"), NotHad("雁木")]),
    // The 8-file pawn went in the exchange and none was dropped back.
    pat("山崎流", OPENING, &[Had("横歩取り"), OwnNone(P, file(8)), Own(K, sq(58)), Own(G, sq(38))]),
    pat("新山崎流", (1, 50), &[Had("横歩取り"), OppHad("中座飛車"), Own(K, sq(59)), Own(N, sq(37)), Own(P, sq(35))]),
    pat("中座飛車", OPENING, &[OppDid("横歩取り"), Own(R, sq(25)), OwnNone(P, file(2))]),
    pat("横歩取り3三角型", OPENING, &[OppDid("横歩取り"), Own(B, sq(77))]),
    pat("横歩取り3三桂型", OPENING, &[OppDid("横歩取り"), Own(N, sq(77))]),
    pat("横歩取り4五角", OPENING, &[OppDid("横歩取り"), Own(B, sq(65))]),
    pat("横歩取り8四飛型", OPENING, &[OppDid("横歩取り"), Own(R, sq(26)), OwnNone(P, file(2))]),
    pat("横歩取り8二飛型", OPENING, &[OppDid("横歩取り"), Own(R, sq(28)), OwnNone(P, file(2))]),
    pat("横歩取り4一玉型", OPENING, &[OppDid("横歩取り"), Own(K, sq(69))]),
    pat("横歩取り5二玉型", OPENING, &[OppDid("横歩取り"), Own(K, sq(58))]),
    pat("相横歩取り", OPENING, &[OppDid("横歩取り"), Own(R, sq(34)), Opening]),
    pat("青野流", (1, 50), &[Had("横歩取り"), Own(R, sq(34)), Own(K, sq(58)), OwnAny(P, sqs(&[36, 46]))]),
    pat("空中戦法", (1, 50), &[Had("横歩取り3三角型"), Own(R, sq(26)), Own(K, sq(69))]),
    // 相掛かり
    // A side exchanges its rook pawn (it stands on 2四 or is gone) with the other's pushed to
    // 8五 or beyond and both bishops' diagonals closed; the other side plays it too.
    pat("相掛かり", (1, 30), &[OwnNone(P, sqs(&[27, 26, 25])), OppNone(P, sqs(&[83, 84])), Own(P, sq(77)), Opp(P, sq(33)), OwnAny(R, file(2)), OppAny(R, file(8))]),
    pat("相掛かり", (1, 30), &[OppHad("相掛かり"), OwnNone(P, sqs(&[27, 26])), Own(P, sq(77)), OwnAny(R, file(2))]),
    pat("ひねり飛車", OPENING, &[Had("相掛かり"), OwnAny(R, low(7))]),
    pat("相掛かり棒銀", (1, 60), &[Had("相掛かり"), Had("棒銀")]),
    pat("相掛かり早繰り銀", (1, 60), &[Had("相掛かり"), Had("早繰り銀")]),
    pat("相掛かり腰掛け銀", (1, 60), &[Had("相掛かり"), Had("腰掛け銀")]),
    pat("相掛かり引き飛車", OPENING, &[Had("相掛かり"), Own(R, sq(28)), OwnNone(P, file(2)), Opp(P, sq(23))]),
    pat("相掛かり浮き飛車", OPENING, &[Had("相掛かり"), Own(R, sq(26)), OwnNone(P, file(2))]),
    pat("縦歩取り", OPENING, &[Had("相掛かり"), Own(R, sq(36))]),
    pat("中原流相掛かり", (1, 60), &[Had("相掛かり引き飛車"), Had("中原囲い")]),
    pat("UFO銀", (1, 40), &[Had("相掛かり"), Own(S, sq(36)), OwnAny(R, file(2))]),
    // The rook pawn was exchanged: a pawn on 2四 again is one dropped there.
    pat("タコ金", OPENING, &[OppHad("ひねり飛車"), OwnAny(G, sqs(&[66, 55]))]),
    pat("塚田スペシャル", OPENING, &[Had("相掛かり浮き飛車"), Own(R, sq(26)), Own(P, sqs(&[24, 16])), Own(S, sq(38))]),
    pat("鎖鎌銀", (1, 60), &[Had("相掛かり"), OppHad("腰掛け銀"), Own(S, sq(36)), Own(P, sq(46))]),
    // 矢倉
    pat("矢倉", (1, 60), &[Own(S, sq(77)), Own(G, sq(78)), Own(P, sq(66)), NotHad("振り飛車")]),
    pat("矢倉", CASTLING, &[Had("矢倉囲い"), NotHad("振り飛車")]),
    pat("雀刺し", (1, 60), &[Had("矢倉"), OwnAny(R, sqs(&[18, 19])), Own(N, sq(37)), Own(P, sq(15))]),
    pat("米長流急戦矢倉", OPENING, &[OppHad("矢倉"), NotHad("振り飛車"), Own(P, sqs(&[25, 36, 46])), Own(N, sq(37))]),
    pat("矢倉棒銀", (1, 50), &[Had("矢倉"), Had("棒銀")]),
    pat("矢倉棒銀", (1, 50), &[OppHad("矢倉"), Had("棒銀")]),
    pat("矢倉早繰り銀", (1, 50), &[Had("矢倉"), Had("早繰り銀")]),
    pat("矢倉早繰り銀", (1, 50), &[OppHad("矢倉"), Had("早繰り銀")]),
    pat("矢倉3七銀戦法", (1, 50), &[Had("矢倉"), Own(S, sq(37)), Own(P, sq(36))]),
    pat("4六銀3七桂型", (1, 60), &[Had("矢倉"), Own(S, sq(46)), Own(N, sq(37))]),
    pat("矢倉左美濃急戦", (1, 50), &[OppHad("矢倉"), Had("左美濃")]),
    pat("急戦矢倉", OPENING, &[OppHad("矢倉"), NotHad("矢倉"), NotHad("振り飛車"), OwnAny(K, sqs(&[59, 69, 68, 58, 49])), OwnAny(S, sqs(&[35, 45, 55, 65, 75]))]),
    pat("急戦矢倉", OPENING, &[OppHad("矢倉"), NotHad("矢倉"), NotHad("振り飛車"), OwnAny(K, sqs(&[59, 69, 68, 58, 49])), OwnAny(N, sqs(&[45, 65]))]),
    pat("ウソ矢倉", (1, 60), &[Had("矢倉囲い"), Own(P, sq(27)), NotHad("振り飛車"), Side(Color::White)]),
    pat("藤井矢倉", (1, 60), &[Had("矢倉早囲い"), Own(P, sq(25)), Own(B, sq(46))]),
    pat("カニカニ金", OPENING, &[OppHad("矢倉"), NotHad("振り飛車"), OwnAny(G, sqs(&[66, 55]))]),
    pat("脇システム", (1, 60), &[Had("矢倉"), Own(B, sq(46)), Opp(B, sq(64))]),
    pat("阿久津流急戦矢倉", OPENING, &[OppHad("矢倉"), NotHad("矢倉"), NotHad("振り飛車"), OwnNone(P, file(5)), Own(B, sq(37))]),
    // 雁木
    pat("雁木", (1, 60), &[Had("雁木囲い"), NotHad("振り飛車")]),
    // Silvers.
    pat("腰掛け銀", (1, 60), &[Own(S, sq(56)), OwnAny(R, sqs(&[28, 29])), NotHad("振り飛車")]),
    pat("早繰り銀", (1, 50), &[Own(S, sq(46)), OwnNone(P, sq(37)), OwnAny(R, sqs(&[28, 29])), NotHad("振り飛車")]),
    pat("棒銀", (1, 50), &[OwnAny(S, sqs(&[26, 15])), OwnAny(R, sqs(&[28, 29])), NotHad("振り飛車")]),
    pat("原始棒銀", (1, 24), &[OwnAny(S, sqs(&[26, 15])), Own(R, sq(28)), Own(K, sq(59)), OwnNone(P, sqs(&[27, 26])), NotHad("振り飛車")]),
    // Rooks on the right.
    pat("右四間飛車", OPENING, &static_swing(4)),
    pat("右四間飛車左美濃", CASTLING, &[Had("右四間飛車"), Had("左美濃")]),
    pat("袖飛車", OPENING, &static_swing(3)),
    pat("加藤流袖飛車", OPENING, &[Had("袖飛車"), OppHad("中飛車")]),
    pat("一間飛車", OPENING, &[Own(R, sq(18)), OwnNone(K, RIGHT_SIDE), NotHad("振り飛車"), NotHad("矢倉"), Opening]),
    // Others.
    pat("右玉", (16, 70), &[OwnAny(K, sqs(&[48, 38, 49, 39])), OwnAny(R, sqs(&[28, 29])), OwnAny(G, sqs(&[58, 68, 78])), NotHad("振り飛車")]),
    pat("雁木右玉", (16, 70), &[Had("右玉"), Own(S, sqs(&[67, 57]))]),
    pat("矢倉右玉", (16, 70), &[Had("右玉"), Own(S, sq(77)), Own(G, sq(78))]),
    pat("糸谷流右玉", (16, 70), &[Had("右玉"), OppHad("振り飛車"), Own(S, sqs(&[67, 47]))]),
    pat("アヒル戦法", CASTLING, &[Had("アヒル囲い"), NotHad("振り飛車")]),
    pat("5筋位取り", OPENING, &[Own(P, sq(55)), OwnAny(R, file(2)), NotHad("振り飛車")]),
    pat("英春流かまいたち", (1, 60), &[Had("5筋位取り"), OppHad("振り飛車"), Own(P, sq(55)), Own(S, sq(65)), Own(R, sq(58))]),
    pat("金立ち戦法", OPENING, &[Own(G, sq(57)), NotHad("振り飛車")]),
    pat("端位取り", OPENING, &[Own(P, sq(95)), Opp(P, sq(93))]),
    pat("端位取り", OPENING, &[Own(P, sq(15)), Opp(P, sq(13))]),
    pat("嬉野流", (1, 12), &[Own(S, sq(68)), Own(B, sq(79)), Own(P, sq(77))]),
    pat("新嬉野流", (1, 24), &[Own(S, sq(57)), Own(P, sqs(&[56, 77])), Own(B, sq(79))]),
    pat("引き角", OPENING, &[Own(B, sq(79)), NotHad("嬉野流"), NotHad("矢倉"), NotHad("振り飛車")]),
    pat("筋違い角", (1, 16), &[OwnAny(B, sqs(&[45, 65]))]),
    pat("相筋違い角", (1, 24), &[Had("筋違い角"), OppHad("筋違い角")]),
    pat("4手目△3三角戦法", (4, 4), &[Own(B, sq(77)), Side(Color::White)]),
    pat("4手目△4四角戦法", (4, 4), &[Own(B, sq(66)), Side(Color::White)]),
    pat("パックマン", (2, 2), &[Own(P, sq(66)), OppNone(P, sq(33)), Side(Color::White)]),
    pat("角頭歩戦法", (1, 8), &[OwnNone(P, sqs(&[87, 77]))]),
    pat("中原流急戦矢倉", OPENING, &[OppHad("矢倉"), NotHad("振り飛車"), Own(P, sqs(&[36, 46, 55])), Own(S, sq(47))]),
    pat("勇気流", (1, 50), &[Had("横歩取り"), Own(R, sq(34)), Own(K, sq(68))]),
    pat("森下システム", (1, 50), &[Had("矢倉"), Own(B, sq(68)), Own(S, sqs(&[77, 48])), Own(G, sqs(&[78, 67]))]),
];
