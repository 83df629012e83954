//! The castles on the right, where a ranging rook's king goes (and a static rook's in
//! 相振り飛車 or 右玉): the 美濃 family, 振り飛車穴熊, and the castles of 相振り飛車.

use crate::patterns::*;
use Cond::*;

#[rustfmt::skip]
pub(super) const DEFS: &[Def] = &[
    castle("美濃囲い", None, "The ranging rook's castle: king on 2八 with gold and silver around it.")
    .aka(&["美濃", "MINO"]),
    castle("片美濃囲い", Some("美濃囲い"), "King 2八, silver 3八, gold 4九.")
    .aka(&["片美濃"]),
    castle("本美濃囲い", Some("片美濃囲い"), "片美濃 with the other gold on 5八.")
    .aka(&["本美濃"]),
    castle("高美濃囲い", Some("片美濃囲い"), "片美濃 with the other gold raised to 4七.")
    .aka(&["高美濃"]),
    castle("ダイヤモンド美濃", Some("片美濃囲い"), "片美濃 with the other silver on 4七: four pieces in a diamond.")
    .aka(&["四枚美濃", "4枚美濃"]),
    castle("木村美濃", Some("美濃囲い"), "King 2八, gold 3八 beside it and the silver raised to 4七."),
    castle("金美濃", Some("美濃囲い"), "美濃 with a gold in the silver's place: king 2八, golds 3八 and 4九."),
    castle("銀美濃", Some("美濃囲い"), "美濃 with a silver in the gold's place: king 2八, silvers 3八 and 4九."),
    castle("片銀冠", Some("美濃囲い"), "The silver crowns the king: king 2八, silver 2七, gold 3八."),
    castle("銀冠", Some("片銀冠"), "片銀冠 with the other gold up on 4七: king 2八, silver 2七, golds 3八 and 4七."),
    castle("ちょんまげ美濃", Some("片美濃囲い"), "片美濃 with the 2-file pawn pushed to 2六 in front of the king, as a rook that feinted static before ranging leaves it (陽動振り飛車)."),
    castle("坊主美濃", Some("片美濃囲い"), "片美濃 with no pawn left on the 2-file in front of the king: ちょんまげ美濃 after its pawn was exchanged."),
    castle("ずれ美濃", Some("美濃囲い"), "美濃 one file short: king 3八, silver 4八, gold 4九."),
    castle("早囲い", None, "The ranging rook's quickest castle: the king only as far as 3八, the gold at home on 4九, the silver on 3九 or 4八."),
    castle("三手囲い", None, "Three moves: the king to 3八 and the gold up to 4八, the silver at home on 3九."),
    castle("金無双", None, "The ranging rooks' castle: king 3八, two golds side by side on 5八 and 4八.")
    .aka(&["二枚金", "金無双囲い"]),
    castle("銀無双", None, "金無双 with silvers: king 3八, the two silvers side by side on 5八 and 4八."),
    castle("右矢倉", Some("矢倉囲い"), "金矢倉 built on the right, as in 相振り飛車: king 2八, silver 3七, golds 3八 and 4七."),
    castle("振り飛車穴熊", Some("穴熊"), "穴熊 on the right: king 1九, lance 1八, silver or gold 2八.")
    .aka(&["振り穴", "振穴", "振飛車穴熊"]),
    castle("振り飛車ミレニアム", Some("ミレニアム囲い"), "ミレニアム囲い on the right, as a ranging rook builds it: king 2九 behind the knight on 3七, silver 2八, gold 3九.")
    .aka(&["振りミレ", "振り飛車トーチカ"]),
    castle("振りエルモ", Some("エルモ囲い"), "エルモ囲い on the right, as a ranging rook builds it: king 3八, silver 4八, the gold under the king on 3九.")
    .aka(&["振り飛車エルモ", "振りelmo"]),
];

#[rustfmt::skip]
pub(super) const PATTERNS: &[Pattern] = &[
    pat("片美濃囲い", CASTLING, &[Own(K, sq(28)), Own(S, sq(38)), Own(G, sq(49))]),
    pat("本美濃囲い", CASTLING, &[Own(K, sq(28)), Own(S, sq(38)), Own(G, sqs(&[49, 58]))]),
    pat("高美濃囲い", CASTLING, &[Own(K, sq(28)), Own(S, sq(38)), Own(G, sqs(&[49, 47]))]),
    pat("ダイヤモンド美濃", CASTLING, &[Own(K, sq(28)), Own(S, sqs(&[38, 47])), Own(G, sq(49))]),
    pat("木村美濃", CASTLING, &[Own(K, sq(28)), Own(G, sq(38)), Own(S, sq(47))]),
    pat("金美濃", CASTLING, &[Own(K, sq(28)), Own(G, sqs(&[38, 49]))]),
    pat("銀美濃", CASTLING, &[Own(K, sq(28)), Own(S, sqs(&[38, 49]))]),
    pat("片銀冠", CASTLING, &[Own(K, sq(28)), Own(S, sq(27)), Own(G, sq(38))]),
    pat("銀冠", CASTLING, &[Own(K, sq(28)), Own(S, sq(27)), Own(G, sqs(&[38, 47]))]),
    pat("ちょんまげ美濃", CASTLING, &[Own(K, sq(28)), Own(S, sq(38)), Own(G, sq(49)), Own(P, sq(26))]),
    pat("坊主美濃", CASTLING, &[Own(K, sq(28)), Own(S, sq(38)), Own(G, sq(49)), OwnNone(P, file(2))]),
    pat("ずれ美濃", CASTLING, &[Own(K, sq(38)), Own(S, sq(48)), Own(G, sq(49))]),
    pat("早囲い", CASTLING, &[Own(K, sq(38)), Own(G, sq(49)), OwnAny(S, sqs(&[39, 48]))]),
    pat("三手囲い", CASTLING, &[Own(K, sq(38)), Own(G, sq(48)), Own(S, sq(39))]),
    pat("金無双", CASTLING, &[Own(K, sq(38)), Own(G, sqs(&[58, 48]))]),
    pat("銀無双", CASTLING, &[Own(K, sq(38)), Own(S, sqs(&[58, 48]))]),
    pat("右矢倉", CASTLING, &[Own(K, sq(28)), Own(S, sq(37)), Own(G, sqs(&[38, 47]))]),
    pat("振り飛車穴熊", CASTLING, &[Own(K, sq(19)), Own(L, sq(18)), OwnAny(GS, sq(28))]),
    pat("振り飛車ミレニアム", CASTLING, &[Own(K, sq(29)), Own(S, sq(28)), Own(N, sq(37)), Own(G, sq(39))]),
    pat("振りエルモ", CASTLING, &[Own(K, sq(38)), Own(S, sq(48)), Own(G, sq(39))]),
];
