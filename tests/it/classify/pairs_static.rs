//! The pairs of the static rook's names, in 相居飛車 games and against a ranging rook (see
//! `pairs.rs`).

use super::pairs::{Case, f, g, s};

/// 角換わり by the usual exchange on 7七 (no tempo lost), at ply 9.
macro_rules! kakugawari {
    ($rest:literal) => {
        concat!("7g7f 8c8d 2g2f 3c3d 8h7g 4a3b 7i8h 2b7g+ 8h7g 3a2b ", $rest)
    };
}

/// 横歩取り: sente's rook takes the side pawn on 3四 at ply 13, gote's rook on 8六.
macro_rules! yokofu {
    ($rest:literal) => {
        concat!(
            "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d3d ",
            $rest
        )
    };
}

/// 相掛かり (at ply 5): the rook pawns exchanged, sente's rook back home (引き飛車 at ply 9);
/// sente to move at ply 11.
macro_rules! aigakari {
    ($rest:literal) => {
        concat!("2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2h 4a4b ", $rest)
    };
}

/// Sente's 矢倉 (6六歩, 7七銀, 7八金) at ply 9, gote waiting.
const YAGURA: &str = "7g7f 6g6f 7i6h 6h7g 6i7h";

/// Gote ranges its rook to 4二 at ply 4.
macro_rules! vs_shiken {
    ($a:literal, $rest:literal) => {
        concat!($a, " 3c3d ", $rest)
    };
}

pub static CASES: &[Case] = &[
    // 角換わり
    f(
        "角換わり",
        "7g7f 8c8d 2g2f 3c3d 8h2b+ 3a2b",
        6,
        "7g7f 3c3d 2h6h 2b8h+ 7i8h",
    ),
    f(
        "角換わり腰掛け銀",
        "7g7f 8c8d 2g2f 3c3d 8h2b+ 3a2b 4g4f 4a4b 3i4h 4b4a 4h4g 4a4b 4g5f",
        13,
        "7g7f 8c8d 2g2f 3c3d 8h2b+ 3a2b 4g4f 4a4b 3i4h 4b4a 4h4g 4a4b 4g3f",
    ),
    f(
        "角換わり早繰り銀",
        "7g7f 8c8d 2g2f 3c3d 8h2b+ 3a2b 3g3f 4a4b 3i3h 4b4a 3h3g 4a4b 3g4f",
        13,
        "7g7f 8c8d 2g2f 3c3d 8h2b+ 3a2b 3g3f 4a4b 3i3h 4b4a 3h3g",
    ),
    f(
        "角換わり棒銀",
        "7g7f 8c8d 2g2f 3c3d 8h2b+ 3a2b 2f2e 4a4b 3i3h 4b4a 3h2g 4a4b 2g2f",
        13,
        "7g7f 8c8d 2g2f 3c3d 8h2b+ 3a2b 2f2e 4a4b 3i3h 4b4a 3h2g",
    ),
    g(
        "一手損角換わり",
        "7g7f 3c3d 2g2f 2b8h+ 7i8h",
        5,
        "7g7f 3c3d 8h7g 4a3b 7i8h 2b7g+ 8h7g",
    ),
    f(
        "角換わり右玉",
        "7g7f 8c8d 2g2f 3c3d 8h2b+ 3a2b 5i4h 4a3b 6i5h 5a4b 1g1f 1c1d 9g9f 9c9d 1f1e 9d9e",
        16,
        "7g7f 8c8d 2g2f 3c3d 8h2b+ 3a2b 5i6h 4a3b 6i5h 5a4b 1g1f 1c1d 9g9f 9c9d 1f1e 9d9e",
    ),
    f(
        "角換わり4八金2九飛型",
        kakugawari!("4i4h 1c1d 3g3f 9c9d 2i3g 1d1e 2h2i"),
        17,
        kakugawari!("4i5h 1c1d 3g3f 9c9d 2i3g 1d1e 2h2i"),
    ),
    // 横歩取り
    f(
        "横歩取り",
        yokofu!(""),
        13,
        "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d2f",
    ),
    g("中座飛車", yokofu!("8f8e"), 14, yokofu!("8f8d")),
    g("横歩取り3三角型", yokofu!("2b3c"), 14, yokofu!("4a3b")),
    g("横歩取り3三桂型", yokofu!("2a3c"), 14, yokofu!("4a3b")),
    g(
        "横歩取り4五角",
        yokofu!("2b8h+ 7i8h B*4e"),
        16,
        yokofu!("2b8h+ 7i8h B*5e"),
    ),
    g("横歩取り8四飛型", yokofu!("8f8d"), 14, yokofu!("8f8e")),
    g("横歩取り8二飛型", yokofu!("8f8b"), 14, yokofu!("8f8d")),
    g(
        "横歩取り4一玉型",
        yokofu!("4a3b 3d3f 5a4a"),
        16,
        yokofu!("4a3b 3d3f 5a5b"),
    ),
    g(
        "相横歩取り",
        "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d3d 2b8h+ 7i8h 8f7f",
        18,
        "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d3d 2b8h+ 7i8h 8f8d",
    ),
    g("横歩取り5二玉型", yokofu!("5a5b"), 14, yokofu!("4a3b")),
    f(
        "青野流",
        yokofu!("4a3b 5i5h 6a5b 3g3f"),
        17,
        yokofu!("4a3b 5i5h 6a5b 1g1f"),
    ),
    g(
        "空中戦法",
        yokofu!("2b3c 3d3f 8f8d 1g1f 4a3b 1f1e 5a4a"),
        20,
        yokofu!("2b3c 3d3f 8f8d 1g1f 4a3b 1f1e 5a5b"),
    ),
    // 相掛かり
    f(
        "相掛かり",
        "2g2f 8c8d 2f2e 8d8e 2e2d",
        5,
        "2g2f 8c8d 2f2e 8d8e 7g7f",
    ),
    f(
        "ひねり飛車",
        aigakari!("2h2f 4b4a 2f7f"),
        13,
        "7g7f 8c8d 2h7h",
    ),
    f(
        "相掛かり棒銀",
        aigakari!("3i3h 4b4a 3h2g 4a4b 2g2f"),
        15,
        aigakari!("3i3h 4b4a 3h2g"),
    ),
    f(
        "相掛かり早繰り銀",
        aigakari!("3g3f 4b4a 3i3h 4a4b 3h3g 4b4a 3g4f"),
        17,
        aigakari!("3g3f 4b4a 3i3h 4a4b 3h3g"),
    ),
    f(
        "相掛かり腰掛け銀",
        aigakari!("4g4f 4b4a 3i4h 4a4b 4h4g 4b4a 4g5f"),
        17,
        aigakari!("4g4f 4b4a 3i4h 4a4b 4h4g"),
    ),
    f(
        "相掛かり引き飛車",
        "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2h",
        9,
        "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2f",
    ),
    f(
        "縦歩取り",
        "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2f 4a4b 2f3f",
        11,
        "2g2f 4a4b 2f2e 4b4a 2h2f 4a4b 2f3f",
    ),
    f(
        "相掛かり浮き飛車",
        "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2f",
        9,
        "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2h",
    ),
    f(
        "中原流相掛かり",
        aigakari!("6i7h 4b4a 5i6i 4a4b 4i5i 4b4a 3i4h"),
        17,
        "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2f 4a4b 6i7h 4b4a 5i6i 4a4b 4i5i 4b4a 3i4h",
    ),
    f(
        "UFO銀",
        aigakari!("3g3f 4b4a 3f3e 4a4b 3i3h 4b4a 3h3g 4a4b 3g3f"),
        19,
        aigakari!("3g3f 4b4a 3f3e 4a4b 3i3h 4b4a 3h3g"),
    ),
    // 矢倉
    s("矢倉", YAGURA, 9, "7g7f 7i6h 6h7g 6i7h"),
    s("矢倉中飛車", "5i6h 6h7h 2h5h", 5, "2h5h"),
    s(
        "雀刺し",
        "7g7f 6g6f 7i6h 6h7g 6i7h 1g1f 1f1e 3g3f 2i3g 2h1h",
        19,
        "7g7f 6g6f 7i6h 6h7g 6i7h 1g1f 3g3f 2i3g 2h1h",
    ),
    g(
        "米長流急戦矢倉",
        "7g7f 8c8d 6g6f 8d8e 7i6h 7c7d 6h7g 6c6d 6i7h 8a7c",
        10,
        "7g7f 8c8d 6g6f 8d8e 7i6h 7c7d 6h7g 1c1d 6i7h 8a7c",
    ),
    g(
        "矢倉棒銀",
        "7g7f 8c8d 6g6f 8d8e 7i6h 7a7b 6h7g 7b8c 6i7h 8c8d",
        10,
        "7g7f 8c8d 6g6f 8d8e 7i6h 7a7b 6h7g 7b8c 6i7h 1c1d",
    ),
    s(
        "矢倉早繰り銀",
        "7g7f 6g6f 7i6h 6h7g 6i7h 3g3f 3i3h 3h3g 3g4f",
        17,
        "7g7f 6g6f 7i6h 6h7g 6i7h 3g3f 3i3h 3h3g",
    ),
    s(
        "矢倉3七銀戦法",
        "7g7f 6g6f 7i6h 6h7g 6i7h 3g3f 3i4h 4h3g",
        15,
        "7g7f 6g6f 7i6h 6h7g 6i7h 3g3f 3i4h",
    ),
    s(
        "4六銀3七桂型",
        "7g7f 6g6f 7i6h 6h7g 6i7h 3g3f 4g4f 4f4e 3i4h 4h4g 4g4f 2i3g",
        23,
        "7g7f 6g6f 7i6h 6h7g 6i7h 3g3f 4g4f 4f4e 3i4h 4h4g 4g4f",
    ),
    g(
        "矢倉左美濃急戦",
        "7g7f 3c3d 6g6f 2b3c 7i6h 5a4b 6h7g 4b3b 6i7h 3b2b 1g1f 3a3b",
        12,
        "7g7f 3c3d 2g2f 2b3c 7i6h 5a4b 6h7g 4b3b 6i7h 3b2b 1g1f 3a3b",
    ),
    f(
        "脇システム",
        "7g7f 3c3d 6g6f 4c4d 7i6h 3a4b 6h7g 4b3c 6i7h 4a3b 5g5f 5c5d 8h7i 2b3a 7i4f 3a6d",
        16,
        "7g7f 3c3d 6g6f 4c4d 7i6h 3a4b 6h7g 4b3c 6i7h 4a3b 5g5f 5c5d 8h7i 2b3a 7i4f 3a5c",
    ),
    // 雁木
    s(
        "雁木",
        "6g6f 7i6h 6h6g 6i7h 5g5f 3i4h 4h5g 5i6i",
        15,
        "6g6f 7i6h 6h6g 6i7h 5g5f 3i4h 4h5g",
    ),
    // Silvers.
    s("腰掛け銀", "4g4f 3i4h 4h4g 4g5f", 7, "4g4f 3i4h 4h4g"),
    s("早繰り銀", "3g3f 3i3h 3h3g 3g4f", 7, "3g3f 3i3h 3h3g"),
    s("棒銀", "2g2f 2f2e 3i3h 3h2g 2g2f", 9, "2g2f 2f2e 3i3h 3h2g"),
    s(
        "原始棒銀",
        "2g2f 2f2e 3i3h 3h2g 2g2f",
        9,
        "2g2f 2f2e 5i6h 3i3h 3h2g 2g2f",
    ),
    // Rooks on the right.
    s("右四間飛車", "4g4f 2h4h", 3, "LATE 4g4f 2h4h"),
    s(
        "右四間飛車左美濃",
        "7g7f 8h7g 5i6h 6h7h 7h8h 7i7h 4g4f 2h4h",
        15,
        "7g7f 8h7g 5i6h 6h7h 7h8h 7i6h 4g4f 2h4h",
    ),
    s("袖飛車", "3g3f 2h3h", 3, "LATE 3g3f 2h3h"),
    s("一間飛車", "2h1h", 1, "LATE 2h1h"),
    // Others.
    s(
        "アヒル戦法",
        "7i6h 3i4h 6i7i 4i3i 5i5h",
        9,
        "7i6h 3i4h 6i7i 5i5h",
    ),
    s(
        "雁木右玉",
        "7g7f 7i6h 6g6f 5g5f 3i4h 6i7h 4i5h 6h6g 4h5g 5i4h",
        19,
        "7g7f 7i6h 6g6f 5g5f 3i3h 6i7h 4i5h 6h6g 5i4h",
    ),
    s(
        "矢倉右玉",
        "7g7f 6g6f 7i6h 6h7g 6i7h 1g1f 9g9f 1f1e 5i4h",
        17,
        "7g7f 6g6f 7i6h 6h6g 6i7h 1g1f 9g9f 1f1e 5i4h",
    ),
    f(
        "右玉",
        "5i4h 4a3b 6i5h 5a4b 1g1f 1c1d 9g9f 9c9d 1f1e 9d9e 3g3f 3c3d 7g7f 8c8d 2g2f 6a5b",
        16,
        "5i6h 4a3b 6i5h 5a4b 1g1f 1c1d 9g9f 9c9d 1f1e 9d9e 3g3f 3c3d 7g7f 8c8d 2g2f 6a5b",
    ),
    s("5筋位取り", "5g5f 5f5e", 3, "2h5h 5g5f 5f5e"),
    s("端位取り", "9g9f 9f9e", 3, "9g9f"),
    s("嬉野流", "7i6h 8h7i", 3, "7g7f 7i6h 8h7i"),
    s("新嬉野流", "7i6h 8h7i 5g5f 6h5g", 7, "7i6h 8h7i 5g5f"),
    s(
        "引き角",
        "7g7f 7i6h 8h7i",
        5,
        "7g7f 7i6h 6g6f 6h7g 6i7h 8h7i",
    ),
    f(
        "筋違い角",
        "7g7f 3c3d 8h2b+ 3a2b B*4e",
        5,
        "7g7f 3c3d 8h2b+ 3a2b B*5e",
    ),
    g(
        "4手目△3三角戦法",
        "7g7f 3c3d 6g6f 2b3c",
        4,
        "7g7f 3c3d 6g6f 8c8d 2g2f 2b3c",
    ),
    g("パックマン", "7g7f 4c4d", 2, "7g7f 3c3d 2g2f 4c4d"),
    s("角頭歩戦法", "7g7f 8g8f", 3, "8g8f"),
    // Against a ranging rook.
    f(
        "対振り持久戦",
        "7g7f 3c3d 8h7g 8b4b 5i6h 6a6b 6h7h 6b6a 7h8h 6a6b 7i7h",
        11,
        "7g7f 3c3d 8h7g 4a4b 5i6h 4b4a 6h7h 4a4b 7h8h 4b4a 7i7h",
    ),
    f(
        "対振り急戦",
        "5i6h 3c3d 6h7h 8b4b 3g3f 6a6b 3i4h 6b6a 4h3g 6a6b 3g4f",
        11,
        "5i6h 3c3d 6h7h 4a4b 3g3f 4b4a 3i4h 4a4b 4h3g 4b4a 3g4f",
    ),
    f(
        "舟囲い急戦",
        "5i6h 3c3d 6h7h 8b4b 4i5h 6a6b 3g3f 6b6a 3i4h 6a6b 4h3g 6b6a 3g4f",
        13,
        "5i6h 3c3d 6h7h 8b4b 3g3f 6a6b 3i4h 6b6a 4h3g 6a6b 3g4f",
    ),
    f(
        "左美濃急戦",
        vs_shiken!(
            "7g7f",
            "8h7g 8b4b 5i6h 6a6b 6h7h 6b6a 7h8h 6a6b 7i7h 6b6a 3g3f 6a6b 3i4h 6b6a 4h3g 6a6b 3g4f"
        ),
        19,
        vs_shiken!(
            "7g7f",
            "8h7g 8b4b 5i6h 6a6b 6h7h 6b6a 7h8h 6a6b 7i7h 6b6a 3g3f 6a6b 3i4h 6b6a 4h3g"
        ),
    ),
    f(
        "エルモ急戦",
        "5i6h 3c3d 6h7h 8b4b 7i6h 6a6b 6i7i 6b6a 3g3f 6a6b 3i4h 6b6a 4h3g 6a6b 3g4f",
        15,
        "5i6h 3c3d 6h7h 8b4b 7i6h 6a6b 6i7i 6b6a 3g3f 6a6b 3i4h 6b6a 4h3g",
    ),
    f(
        "4五歩早仕掛け",
        vs_shiken!("7g7f", "3g3f 8b4b 2i3g 6a6b 4g4f 6b6a 4f4e"),
        9,
        vs_shiken!("7g7f", "3g3f 8b4b 1g1f 6a6b 4g4f 6b6a 4f4e"),
    ),
    f(
        "斜め棒銀",
        vs_shiken!("7g7f", "3g3f 8b4b 3i4h 6a6b 4h3g 6b6a 3g4f 6a6b 4f3e"),
        11,
        vs_shiken!("7g7f", "3g3f 8b4b 3i4h 6a6b 4h3g 6b6a 3g4f"),
    ),
    f(
        "棒金",
        vs_shiken!("2g2f", "4i3h 8b4b 3h2g"),
        5,
        vs_shiken!("2g2f", "4i3h 8b4b 2f2e"),
    ),
    f(
        "5七銀左急戦",
        vs_shiken!("5i6h", "6h7h 8b4b 5g5f 6a6b 7i6h 6b6a 6h5g"),
        9,
        vs_shiken!("5i6h", "6h7h 8b4b 5g5f 6a6b 7i6h"),
    ),
    f(
        "4六銀左急戦",
        "7g7f 3c3d 2g2f 8b4b 5g5f 5a6b 5i6h 6b7b 6h7h 7b8b 7i6h 1c1d 6h5g 9c9d 5g4f",
        15,
        "7g7f 3c3d 2g2f 8b4b 5g5f 5a6b 5i6h 6b7b 6h7h 7b8b 7i6h 1c1d 6h5g 9c9d 1g1f",
    ),
    f(
        "鳥刺し",
        "2g2f 3c3d 3i4h 8b4b 5g5f 5a6b 5i6h 6b7b 6h7h 7b8b 7i6h 1c1d 6h5g",
        13,
        "7g7f 3c3d 3i4h 8b4b 5g5f 5a6b 5i6h 6b7b 6h7h 7b8b 7i6h 1c1d 6h5g",
    ),
    f(
        "対振り棒銀",
        vs_shiken!("2g2f", "2f2e 8b4b 3i3h 6a6b 3h2g 6b6a 2g2f"),
        9,
        vs_shiken!("2g2f", "2f2e 8b4b 3i3h 6a6b 3h2g"),
    ),
    f(
        "ポンポン桂",
        vs_shiken!("7g7f", "3g3f 8b4b 2i3g 6a6b 3g4e"),
        7,
        vs_shiken!("7g7f", "3g3f 8b4b 2i3g"),
    ),
    f(
        "超速",
        "7g7f 3c3d 2g2f 5c5d 2f2e 8b5b 3g3f 5d5e 3i4h 5a6b 4h3g",
        11,
        "7g7f 3c3d 2g2f 5c5d 2f2e 8b5b 3g3f 5d5e 5i6h 5a6b 6h7h 6b7b 3i4h 7b8b 4h3g",
    ),
    f(
        "丸山ワクチン",
        "7g7f 3c3d 2g2f 5c5d 2f2e 8b5b 8h2b+ 3a2b",
        8,
        "7g7f 3c3d 2g2f 5c5d 2f2e 8b5b 1g1f 1c1d",
    ),
    f(
        "玉頭位取り",
        "7g7f 3c3d 7f7e 8b4b 7i7h 6a6b 7h7g 6b6a 7g7f 6a6b 5i6h 6b6a 6h7i",
        13,
        "7g7f 3c3d 7f7e 4a4b 7i7h 4b4a 7h7g 4a4b 7g7f 4b4a 5i6h 4a4b 6h7i",
    ),
    s(
        "地下鉄飛車",
        "3g3f 2i3g 3i3h 4i4h 5i5h 6i6h 7i7h 7g7f 8i7g 9i9h 2h2i 2i9i",
        23,
        "3g3f 2i3g 3i3h 4i4h 5i5h 6i6h 7i7h 7g7f 8i7g 9i9h 2h2i 2i8i",
    ),
    // Both sides' 筋違い角, and an attack on 矢倉 before castling.
    f(
        "相筋違い角",
        "7g7f 3c3d 8h2b+ 3a2b B*4e B*6e",
        6,
        "7g7f 3c3d 8h2b+ 3a2b B*4e 4a4b",
    ),
    g(
        "急戦矢倉",
        "7g7f 7c7d 6g6f 8a7c 7i6h 4a4b 6h7g 4b4a 6i7h 7c6e",
        10,
        "7g7f 7c7d 6g6f 8a7c 7i6h 4a4b 6h7g 4b4a 6i7h 4a4b",
    ),
    g(
        "中原流急戦矢倉",
        "7g7f 7c7d 6g6f 6c6d 7i6h 7a6b 6h7g 6b6c 6i7h 5c5d 1g1f 5d5e",
        12,
        "7g7f 7c7d 6g6f 6c6d 7i6h 7a6b 6h7g 4a4b 6i7h 5c5d 1g1f 5d5e",
    ),
    f("勇気流", yokofu!("4a3b 5i6h"), 15, yokofu!("4a3b 5i5h")),
    s(
        "森下システム",
        "7g7f 6g6f 7i6h 6h7g 6i7h 3i4h 4i5h 5h6g 8h7i 7i6h",
        19,
        "7g7f 6g6f 7i6h 6h7g 6i7h 3g3f 3i4h 4h3g 4i5h 5h6g 8h7i 7i6h",
    ),
    f(
        "山田定跡",
        "5i6h 3c3d 6h7h 8b4b 5g5f 3a3b 7i6h 9c9d 6h5g 1c1d 3g3f 9d9e 3i3h 1d1e 3h3g 5a6b 3g4f 6b7b 3f3e",
        19,
        "5i6h 3c3d 6h7h 8b4b 5g5f 4a3b 7i6h 9c9d 6h5g 1c1d 3g3f 9d9e 3i3h 1d1e 3h3g 5a6b 3g4f 6b7b 3f3e",
    ),
    f(
        "鷺宮定跡",
        "5i6h 3c3d 6h7h 8b4b 5g5f 3a3b 7i6h 9c9d 6h5g 1c1d 6i6h 9d9e 2h3h",
        13,
        "5i6h 3c3d 6h7h 8b4b 5g5f 4a3b 7i6h 9c9d 6h5g 1c1d 6i6h 9d9e 2h3h",
    ),
    f(
        "4六金戦法",
        "4g4f 5c5d 4f4e 8b5b 4i5h 5a4b 5h4g 4b3b 4g4f",
        9,
        "4g4f 5c5d 4f4e 8b5b 4i5h 5a4b 5h4g",
    ),
    f("端角戦法", "9g9f 3c3d 8h9g 8b4b", 4, "9g9f 3c3d 9f9e 8b4b"),
    s(
        "居飛車",
        "LATE 1g1f",
        40,
        "7g7f 2h6h 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i",
    ),
    f(
        "加藤流袖飛車",
        "7g7f 5c5d 3g3f 8b5b 2h3h",
        5,
        "7g7f 5c5d 3g3f 8b5b 2h4h",
    ),
    // Named lines of 角換わり, 相掛かり and 矢倉, and 右玉 against a ranging rook.
    // Gote's 右玉 after its own 一手損; in the near miss gote's king goes left.
    g(
        "羽生流右玉",
        "7g7f 3c3d 2g2f 2b8h+ 7i8h 5a6b 2f2e 4a5b 1g1f 1c1d 9g9f 9c9d 3i3h 3a3b 4g4f 7a7b",
        16,
        "7g7f 3c3d 2g2f 2b8h+ 7i8h 5a4b 2f2e 4a5b 1g1f 1c1d 9g9f 9c9d 3i3h 3a3b 4g4f 7a7b",
    ),
    f(
        "4五桂速攻",
        kakugawari!("3g3f 5a4b 2i3g 4b5a 3g4e"),
        15,
        kakugawari!("3g3f 5a4b 2i3g 4b5a 4g4f"),
    ),
    // ▲2六歩 △8四歩 ▲2五歩 △8五歩 ▲7八金 △3二金 ▲2四歩 △同歩 ▲同飛 △2三歩 ▲2六飛
    // △7二銀 ▲1六歩 △1四歩 ▲3八銀 △6四歩 ▲7六歩 △8六歩 ▲同歩 △同飛 ▲2四歩; the near
    // miss stops the rook's file with ▲8七歩 instead.
    f(
        "塚田スペシャル",
        "2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d P*2c 2d2f 7a7b 1g1f 1c1d 3i3h 6c6d 7g7f 8e8f 8g8f 8b8f P*2d",
        21,
        "2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d P*2c 2d2f 7a7b 1g1f 1c1d 3i3h 6c6d 7g7f 8e8f 8g8f 8b8f P*8g",
    ),
    // Sente's 腰掛け銀 and gote's △7四銀; the near miss sits on 5四 too (相腰掛け銀).
    g(
        "鎖鎌銀",
        aigakari!("4g4f 6c6d 3i4h 7a6b 4h4g 6b6c 4g5f 6c7d"),
        18,
        aigakari!("4g4f 6c6d 3i4h 7a6b 4h4g 6b6c 4g5f 6c5d"),
    ),
    // Gote exchanges the centre pawns against sente's 矢倉 and takes the bishop round to 7三;
    // the near miss draws it back to 4四.
    g(
        "阿久津流急戦矢倉",
        "7g7f 3c3d 6g6f 5c5d 7i6h 7c7d 5g5f 5d5e 5f5e 2b5e 6h7g 9c9d 6i7h 5e7c",
        14,
        "7g7f 3c3d 6g6f 5c5d 7i6h 7c7d 5g5f 5d5e 5f5e 2b5e 6h7g 9c9d 6i7h 5e4d",
    ),
    // Against gote's 四間飛車; the near miss builds the same 右玉 against a static rook.
    f(
        "糸谷流右玉",
        "7g7f 3c3d 2g2f 4c4d 3i4h 8b4b 4g4f 5a6b 4h4g 6b7b 6g6f 3a3b 7i6h 7a6b 6h6g 9c9d 6i5h 1c1d 5i4h",
        19,
        "7g7f 3c3d 2g2f 4c4d 3i4h 8c8d 4g4f 5a6b 4h4g 6b7b 6g6f 3a3b 7i6h 7a6b 6h6g 9c9d 6i5h 1c1d 5i4h",
    ),
    // Against gote's ゴキゲン中飛車; in the near miss the king has stepped aside.
    f(
        "5八金右超急戦",
        "7g7f 3c3d 2g2f 5c5d 2f2e 5d5e 3i4h 8b5b 4i5h 2b3c 2e2d 2c2d 2h2d",
        11,
        "7g7f 3c3d 2g2f 5c5d 2f2e 5d5e 3i4h 8b5b 5i6h 2b3c 2e2d 2c2d 2h2d",
    ),
    // Named lines of 横歩取り, 矢倉 and the static rook against a ranging rook.
    // Against 横歩取り's △3三角, no pawn dropped back on 8七, ▲5八玉 and ▲3八金; the near
    // miss drops it (▲8七歩 △8五飛).
    f(
        "山崎流",
        yokofu!("2b3c 3d3f 3a2b 5i5h 4a3b 4i3h"),
        19,
        yokofu!("2b3c 3d3f 3a2b P*8g 8f8e 5i5h 4a3b 4i3h"),
    ),
    // Against 中座飛車 (▲8七歩 △8五飛 ▲2六飛), the king at home, ▲3七桂 and ▲3五歩; in the
    // near miss the king has stepped up to 5八.
    f(
        "新山崎流",
        yokofu!("2b3c 3d3f 3a2b P*8g 8f8e 3f2f 4a3b 3i4h 7a6b 3g3f 5a4a 2i3g 7c7d 3f3e"),
        27,
        yokofu!("2b3c 3d3f 3a2b P*8g 8f8e 3f2f 4a3b 5i5h 7a6b 3g3f 5a4a 2i3g 7c7d 3f3e"),
    ),
    // Against gote's 矢倉, sente's right gold by 5八 and 5七 to 6六; in the near miss it
    // stays on 5七.
    f(
        "カニカニ金",
        "7g7f 3c3d 5g5f 4c4d 4i5h 3a4b 9g9f 4b3c 5h5g 4a3b 5g6f",
        11,
        "7g7f 3c3d 5g5f 4c4d 4i5h 3a4b 9g9f 4b3c 5h5g 4a3b 1g1f",
    ),
    // Against sente's ひねり飛車, gote's gold up by 4二 and 4三 to 4四 (then on to 5五); the
    // near miss flies the same gold against a rook that stayed on 2六.
    g(
        "タコ金",
        aigakari!("2h2f 4b4a 2f7f 4c4d 9g9f 4d4e 9f9e 4a4b 1g1f 4b4c 1f1e 4c4d 5i5h 4d5e"),
        22,
        aigakari!("2h2f 4b4a 9g9f 4c4d 9f9e 4d4e 1g1f 4a4b 1f1e 4b4c 3g3f 4c4d 5i5h 4d5e"),
    ),
    // ▲7六歩 △3四歩 ▲2六歩 △4四歩, then gote's 矢倉 with △8三歩 at home; in the near
    // miss gote pushed △8四歩 first.
    g(
        "ウソ矢倉",
        "7g7f 3c3d 2g2f 4c4d 4i4h 3a4b 4h4i 4b3c 4i4h 4a3b 4h4i 6a5b 4i4h 5b4c 4h4i 1c1d 4i4h 2b1c 4h4i 5a4a 4i4h 4a3a",
        22,
        "7g7f 8c8d 2g2f 3c3d 4i4h 4c4d 4h4i 3a4b 4i4h 4b3c 4h4i 4a3b 4i4h 6a5b 4h4i 5b4c 4i4h 1c1d 4h4i 2b1c 4i4h 5a4a 4h4i 4a3a",
    ),
    // 矢倉早囲い, ▲2五歩 and the bishop from 7九 to 4六; in the near miss the rook pawn
    // stops on 2六.
    s(
        "藤井矢倉",
        "7g7f 6g6f 7i6h 6h7g 4i5h 5h6g 5i6h 6h7h 8h7i 2g2f 2f2e 5g5f 7i4f",
        25,
        "7g7f 6g6f 7i6h 6h7g 4i5h 5h6g 5i6h 6h7h 8h7i 2g2f 9g9f 5g5f 7i4f",
    ),
    // Against gote's 四間飛車: ▲4八銀 ▲5六歩 ▲5七銀 ▲5五歩 ▲5六銀 ▲6五銀 ▲5八飛; in the
    // near miss the rook stays at home.
    f(
        "英春流かまいたち",
        "7g7f 3c3d 3i4h 4c4d 5g5f 8b4b 5i6h 9c9d 9g9f 7a7b 6h7h 3a3b 4h5g 3b4c 5f5e 5a6b 5g5f 6a5b 5f6e 6b7a 2h5h",
        21,
        "7g7f 3c3d 3i4h 4c4d 5g5f 8b4b 5i6h 9c9d 9g9f 7a7b 6h7h 3a3b 4h5g 3b4c 5f5e 5a6b 5g5f 6a5b 5f6e 6b7a 2g2f",
    ),
    // ▲7六歩 △3四歩 ▲2六歩 △4四角; the near miss is △3三角.
    g(
        "4手目△4四角戦法",
        "7g7f 3c3d 2g2f 2b4d",
        4,
        "7g7f 3c3d 2g2f 2b3c",
    ),
    // Against ゴキゲン中飛車, straight into 穴熊 with the silver on 4八; the near miss digs
    // the same 穴熊 against 四間飛車.
    f(
        "一直線穴熊",
        "7g7f 3c3d 2g2f 5c5d 2f2e 8b5b 3i4h 5d5e 5i6h 2b3c 6h7h 5a6b 4i5h 6b7b 8h7g 7b8b 7h8h 3a4b 9i9h 4b5c 8h9i 9a9b 7i8h",
        23,
        "7g7f 3c3d 2g2f 4c4d 2f2e 8b4b 3i4h 2b3c 5i6h 5a6b 6h7h 6b7b 4i5h 7b8b 8h7g 3a3b 7h8h 7a7b 9i9h 9a9b 8h9i 4a5b 7i8h",
    ),
    // 舟囲い, the left silver by 6八 to 5七 and the right one to 4七; in the near miss the
    // right silver stays on 4八.
    f(
        "二枚銀",
        "7g7f 3c3d 5g5f 8b4b 5i6h 6a6b 6h7h 6b6a 4i5h 6a6b 7i6h 6b6a 6h5g 6a6b 4g4f 6b6a 3i4h 6a6b 4h4g",
        19,
        "7g7f 3c3d 5g5f 8b4b 5i6h 6a6b 6h7h 6b6a 4i5h 6a6b 7i6h 6b6a 6h5g 6a6b 4g4f 6b6a 3i4h 6a6b 9g9f",
    ),
    // 舟囲い, ▲5七銀右 and ▲3八飛; in the near miss the silver stays on 4八.
    f(
        "3八飛戦法",
        "7g7f 3c3d 5g5f 8b4b 5i6h 6a6b 6h7h 6b6a 4i5h 6a6b 3i4h 6b6a 4h5g 6a6b 2h3h",
        15,
        "7g7f 3c3d 5g5f 8b4b 5i6h 6a6b 6h7h 6b6a 4i5h 6a6b 3i4h 6b6a 9g9f 6a6b 2h3h",
    ),
    // The king to 7八, the right silver by 4八 and 3七 to 4六; in the near miss the king
    // has stayed at home.
    f(
        "4六銀右急戦",
        "7g7f 3c3d 5i6h 8b4b 6h7h 6a6b 3i4h 6b6a 3g3f 6a6b 4h3g 6b6a 3g4f",
        13,
        "7g7f 3c3d 9g9f 8b4b 9f9e 6a6b 3i4h 6b6a 3g3f 6a6b 4h3g 6b6a 3g4f",
    ),
    // ▲5六歩, ▲5八金右, ▲5七金; in the near miss the gold stays on 5八.
    s("金立ち戦法", "5g5f 4i5h 5h5g", 5, "5g5f 4i5h 6i6h"),
];
