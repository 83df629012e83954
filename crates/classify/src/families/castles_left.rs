//! The castles on the left, where a static rook's king goes (矢倉, 雁木, 舟囲い, 左美濃,
//! 穴熊, ミレニアム), and those that keep the king in the centre.

use crate::patterns::*;
use Cond::*;

#[rustfmt::skip]
pub(super) const DEFS: &[Def] = &[
    // The centre.
    castle("居玉", None, "The king still on its starting square after 30 plies."),
    castle("中住まい", None, "King one step up to 5八, a gold on each side of it (7八, 6九 or 6八 and 3八, 4九 or 4八).").aka(&["中住居"]),
    castle("中原囲い", None, "The low castle of 横歩取り and 相掛かり: king 6九, golds 5九 and 7八, silver 4八 (gote's 4一玉 5一金 3二金 6二銀).").aka(&["中原玉"]),
    castle("いちご囲い", None, "King 6八 between the golds on 7八 and 5八."),
    castle("カニ囲い", None, "King 6九 with the golds on 7八 and 5八 like claws and the silver on 6八 in front: the 矢倉 on its way."),
    // Against a ranging rook.
    castle("舟囲い", None, "King on 7八, golds on 6九 and 5八: the static rook's quick castle against a ranging rook."),
    castle("セメント囲い", Some("舟囲い"), "舟囲い with both silvers stacked in front, on 6七 and 5七."),
    castle("エルモ囲い", None, "King on 7八, silver on 6八, gold under the king on 7九.").aka(&["elmo囲い"]),
    castle("左美濃", Some("美濃囲い"), "A static rook's 美濃 on the left: king 8八, silver 7八, gold 6九."),
    castle("天守閣美濃", Some("左美濃"), "左美濃 with the king raised to 8七.").aka(&["天守閣"]),
    castle("左銀冠", Some("左美濃"), "The silver crowns the king on the left: king 8八, silver 8七, gold 7八."),
    castle("端玉銀冠", Some("左銀冠"), "左銀冠 with the king moved to the edge, 9八."),
    castle("米長玉", None, "The king on 9八 over the lance at home on 9九."),
    castle("ミレニアム囲い", None, "King 8九 behind the knight on 7七, silver 8八, gold 7九.").aka(&["トーチカ", "かまくら囲い"]),
    // 穴熊
    castle("穴熊", None, "The king in the corner under its lance, the hatch closed by a silver or gold.").aka(&["ANAGUMA"]),
    castle("居飛車穴熊", Some("穴熊"), "穴熊 on the left: king 9九, lance 9八, silver or gold 8八.").aka(&["居飛穴", "イビアナ"]),
    castle("銀冠穴熊", Some("穴熊"), "King 9九 with a gold on 8八 and the silver crowned on 8七."),
    castle("ビッグ4", Some("穴熊"), "銀冠穴熊 with two more golds or silvers on 7八 and 7七: all four around the king."),
    castle("松尾流穴熊", Some("穴熊"), "King 9九, silvers 8八 and 7九, gold 7八."),
    castle("矢倉穴熊", Some("居飛車穴熊"), "居飛車穴熊 dug from a 矢倉: king 9九, lance 9八, silver 8八, golds still on 7八 and 6七."),
    // 矢倉
    castle("矢倉囲い", None, "The static rook's tower: silver 7七, gold 7八, a gold or silver on 6七, king behind them."),
    castle("金矢倉", Some("矢倉囲い"), "King 8八, silver 7七, golds 7八 and 6七."),
    castle("銀矢倉", Some("矢倉囲い"), "King 8八, silvers 7七 and 6七, gold 7八."),
    castle("片矢倉", Some("矢倉囲い"), "King 7八, silver 7七, golds 6七 and 6八 (天野矢倉).").aka(&["天野矢倉"]),
    castle("総矢倉", Some("矢倉囲い"), "金矢倉 with the other silver beside it on 6六."),
    castle("菊水矢倉", Some("矢倉囲い"), "King down on 8九 under the silver on 8八, knight 7七, gold 7八."),
    castle("銀立ち矢倉", Some("矢倉囲い"), "金矢倉 whose silver has stood up from 7七 to 7六: king 8八, golds 7八 and 6七."),
    castle("矢倉早囲い", Some("矢倉囲い"), "矢倉 with the king hurried to 7八 itself, the bishop tucked on 7九 or 6八: silver 7七, gold 6七, no gold on 7八 or 6八.").aka(&["早囲い矢倉", "藤井流早囲い"]),
    // 雁木 and the like.
    castle("雁木囲い", None, "Gold 7八, silvers on 6七 and 5七 (or 4七), the king on 6九 or 7九."),
    castle("ツノ銀雁木", Some("雁木囲い"), "雁木 with the silvers apart on 6七 and 4七, like horns (the new 雁木).").aka(&["新型雁木"]),
    castle("旧型雁木", Some("雁木囲い"), "雁木 with the silvers side by side on 6七 and 5七."),
    castle("ボナンザ囲い", None, "King 7八, silver 7七, golds 6八 and 5八, 6-file pawn unmoved."),
    castle("箱入り娘", Some("舟囲い"), "舟囲い with the gold from 5八 moved beside the other: king 7八, golds 6八 and 6九."),
    castle("四枚左美濃", Some("左美濃"), "左美濃 with the other silver on 6七 beside it: the diamond of ダイヤモンド美濃 on the left."),
    castle("土居矢倉", Some("矢倉囲い"), "The king on 7八 behind the silver on 7七, the left gold up to 6七 and the right gold in the centre on 5八.").aka(&["6七金左矢倉"]),
];

#[rustfmt::skip]
pub(super) const PATTERNS: &[Pattern] = &[
    pat("居玉", (30, 30), &[Own(K, sq(59))]),
    pat("中住まい", CASTLING, &[Own(K, sq(58)), OwnAny(G, sqs(&[78, 69, 68])), OwnAny(G, sqs(&[38, 49, 48]))]),
    pat("中原囲い", CASTLING, &[Own(K, sq(69)), Own(G, sqs(&[59, 78])), Own(S, sq(48))]),
    pat("いちご囲い", CASTLING, &[Own(K, sq(68)), Own(G, sqs(&[78, 58]))]),
    pat("カニ囲い", CASTLING, &[Own(K, sq(69)), Own(G, sqs(&[78, 58])), Own(S, sq(68))]),
    pat("舟囲い", CASTLING, &[Own(K, sq(78)), Own(G, sqs(&[69, 58]))]),
    pat("セメント囲い", CASTLING, &[Own(K, sq(78)), Own(G, sqs(&[69, 58])), Own(S, sqs(&[67, 57]))]),
    pat("エルモ囲い", CASTLING, &[Own(K, sq(78)), Own(S, sq(68)), Own(G, sq(79))]),
    pat("左美濃", CASTLING, &[Own(K, sq(88)), Own(S, sq(78)), Own(G, sq(69))]),
    pat("天守閣美濃", CASTLING, &[Own(K, sq(87)), Own(S, sq(78)), Own(G, sq(69))]),
    pat("左銀冠", CASTLING, &[Own(K, sq(88)), Own(S, sq(87)), Own(G, sq(78))]),
    pat("端玉銀冠", CASTLING, &[Own(K, sq(98)), Own(S, sq(87)), Own(G, sq(78))]),
    pat("米長玉", CASTLING, &[Own(K, sq(98)), Own(L, sq(99))]),
    pat("ミレニアム囲い", CASTLING, &[Own(K, sq(89)), Own(S, sq(88)), Own(N, sq(77)), Own(G, sq(79))]),
    pat("居飛車穴熊", CASTLING, &[Own(K, sq(99)), Own(L, sq(98)), OwnAny(GS, sq(88))]),
    pat("銀冠穴熊", CASTLING, &[Own(K, sq(99)), Own(G, sq(88)), Own(S, sq(87))]),
    pat("ビッグ4", CASTLING, &[Own(K, sq(99)), Own(G, sq(88)), Own(S, sq(87)), Own(GS, sqs(&[78, 77]))]),
    pat("松尾流穴熊", CASTLING, &[Own(K, sq(99)), Own(S, sqs(&[88, 79])), Own(G, sq(78))]),
    pat("矢倉穴熊", CASTLING, &[Own(K, sq(99)), Own(L, sq(98)), Own(S, sq(88)), Own(G, sqs(&[78, 67]))]),
    pat("金矢倉", CASTLING, &[Own(K, sq(88)), Own(S, sq(77)), Own(G, sqs(&[78, 67]))]),
    pat("銀矢倉", CASTLING, &[Own(K, sq(88)), Own(S, sqs(&[77, 67])), Own(G, sq(78))]),
    pat("片矢倉", CASTLING, &[Own(K, sq(78)), Own(S, sq(77)), Own(G, sqs(&[67, 68]))]),
    pat("総矢倉", CASTLING, &[Own(K, sq(88)), Own(S, sqs(&[77, 66])), Own(G, sqs(&[78, 67]))]),
    pat("菊水矢倉", CASTLING, &[Own(K, sq(89)), Own(S, sq(88)), Own(N, sq(77)), Own(G, sq(78))]),
    pat("銀立ち矢倉", CASTLING, &[Own(K, sq(88)), Own(S, sq(76)), Own(G, sqs(&[78, 67]))]),
    pat("矢倉早囲い", CASTLING, &[Own(K, sq(78)), Own(S, sq(77)), Own(G, sq(67)), OwnNone(G, sq(68)), OwnAny(B, sqs(&[79, 68]))]),
    pat("矢倉囲い", CASTLING, &[Own(S, sq(77)), Own(G, sq(78)), Own(GS, sq(67)), OwnAny(K, sqs(&[79, 88, 89, 87]))]),
    pat("ツノ銀雁木", CASTLING, &[Own(G, sq(78)), Own(S, sqs(&[67, 47])), OwnAny(K, sqs(&[69, 79, 68]))]),
    pat("旧型雁木", CASTLING, &[Own(G, sq(78)), Own(S, sqs(&[67, 57])), OwnAny(K, sqs(&[69, 79, 68]))]),
    pat("ボナンザ囲い", CASTLING, &[Own(K, sq(78)), Own(S, sq(77)), Own(G, sqs(&[68, 58])), Own(P, sq(67))]),
    pat("箱入り娘", CASTLING, &[Own(K, sq(78)), Own(G, sqs(&[68, 69]))]),
    pat("四枚左美濃", CASTLING, &[Own(K, sq(88)), Own(S, sqs(&[78, 67])), Own(G, sq(69))]),
    pat("土居矢倉", CASTLING, &[Own(K, sq(78)), Own(S, sq(77)), Own(G, sqs(&[67, 58]))]),
];
