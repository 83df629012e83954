//! The pairs of the ranging rook's names (see `pairs.rs`).

use super::pairs::{Case, f, g, s};

/// The ranging rook: the files, their lines, and the others.
pub static CASES: &[Case] = &[
    s("振り飛車", "7g7f 2h6h", 3, "2g2f 2f2e 2h2f 2f7f"),
    // 中飛車
    s("中飛車", "5g5f 2h5h", 3, "LATE 5g5f 2h5h"),
    s("ゴキゲン中飛車", "7g7f 5g5f 5f5e 2h5h", 7, "5g5f 5f5e 2h5h"),
    s(
        "原始中飛車",
        "5g5f 2h5h 3i4h 4h5g",
        7,
        "5g5f 2h5h 3i4h 5i6h 4h5g",
    ),
    s(
        "ツノ銀中飛車",
        "5g5f 2h5h 6g6f 7i6h 6h6g 4g4f 3i4h 4h4g",
        15,
        "5g5f 2h5h 6g6f 7i6h 6h6g 4g4f 3i4h",
    ),
    s(
        "5筋位取り中飛車",
        "6g6f 5g5f 2h5h 5f5e",
        7,
        "7g7f 5g5f 2h5h 5f5e",
    ),
    s("ノーマル中飛車", "6g6f 2h5h", 3, "7g7f 2h5h"),
    f(
        "角交換中飛車",
        "7g7f 3c3d 2h5h 2b8h+ 7i8h",
        5,
        "7g7f 3c3d 2h5h 4a4b 7i7h",
    ),
    s(
        "中飛車左穴熊",
        "5g5f 2h5h 7g7f 8h7g 9i9h 5i6h 6h7h 7h8h 8h9i 7i8h",
        19,
        "5g5f 2h5h 7g7f 8h7g 9i9h 5i6h 6h7h 7h8h 8h9i",
    ),
    f("先手中飛車", "5g5f 3c3d 2h5h", 3, "7g7f 5c5d 2g2f 8b5b"),
    s(
        "風車",
        "5g5f 2h5h 6g6f 4g4f 7i6h 6h6g 3i4h 4h4g 5i4h 4h3h 5h5i",
        21,
        "5g5f 2h5h 6g6f 4g4f 7i6h 6h6g 3i4h 4h4g 5i4h 4h3h 1g1f",
    ),
    s(
        "カニカニ銀",
        "5g5f 2h5h 6g6f 6f6e 4g4f 4f4e 7i6h 6h6g 6g6f 3i4h 4h4g 4g4f",
        23,
        "5g5f 2h5h 6g6f 6f6e 4g4f 4f4e 7i6h 6h6g 6g6f 3i4h 4h4g",
    ),
    // 四間飛車
    s("四間飛車", "7g7f 2h6h", 3, "5i6h 6h7h 2h6h"),
    s(
        "藤井システム",
        "7g7f 2h6h 5i4h 3i3h 4h3i 4g4f 3g3f",
        13,
        "7g7f 2h6h 5i4h 3i3h 4g4f 3g3f",
    ),
    f(
        "角交換四間飛車",
        "7g7f 3c3d 2h6h 2b8h+ 7i8h",
        5,
        "7g7f 3c3d 2h6h 4a4b 7i7h",
    ),
    s("ノーマル四間飛車", "6g6f 2h6h", 3, "7g7f 2h6h"),
    s("角道オープン四間飛車", "7g7f 2h6h", 3, "6g6f 2h6h"),
    s(
        "4→3戦法",
        "6g6f 2h6h 7g7f 7f7e 6h7h",
        9,
        "6g6f 2h6h 7g7f 6h7h",
    ),
    s(
        "四間飛車穴熊",
        "6g6f 2h6h 1i1h 5i4h 4h3h 3h2h 2h1i 3i2h",
        15,
        "6g6f 2h6h 1i1h 5i4h 4h3h 3h2h 2h1i 3i3h",
    ),
    f("先手四間飛車", "7g7f 3c3d 2h6h", 3, "7g7f 3c3d 2g2f 8b4b"),
    // 三間飛車
    s("三間飛車", "7g7f 2h7h", 3, "LATE 7g7f 2h7h"),
    s("石田流", "7g7f 7f7e 2h7h 7h7f", 7, "7g7f 7f7e 2h7h"),
    s(
        "石田流本組み",
        "7g7f 7f7e 2h7h 7h7f 9g9f 8h9g 8i7g",
        13,
        "7g7f 7f7e 2h7h 7h7f 9g9f 8i7g",
    ),
    s("早石田", "7g7f 7f7e 2h7h", 5, "7g7f 6g6f 7f7e 2h7h"),
    s(
        "升田式石田流",
        "7g7f 7f7e 2h7h 7h7f",
        7,
        "7g7f 7f7e 2h7h 5i4h 4h3h 3h2h 7h7f",
    ),
    s("ノーマル三間飛車", "6g6f 2h7h", 3, "7g7f 2h7h"),
    s("角道オープン三間飛車", "7g7f 2h7h", 3, "6g6f 2h7h"),
    s(
        "三間飛車穴熊",
        "6g6f 2h7h 1i1h 5i4h 4h3h 3h2h 2h1i 3i2h",
        15,
        "6g6f 2h7h 1i1h 5i4h 4h3h 3h2h 2h1i 3i3h",
    ),
    f("先手三間飛車", "7g7f 3c3d 2h7h", 3, "7g7f 3c3d 2g2f 8b3b"),
    g("2手目△3二飛戦法", "7g7f 8b3b", 2, "7g7f 3c3d 2g2f 8b3b"),
    f("初手▲7八飛戦法", "2h7h", 1, "7g7f 3c3d 2h7h"),
    // 向かい飛車
    s("向かい飛車", "7g7f 8h7g 2h8h", 5, "LATE 7g7f 8h7g 2h8h"),
    // The 1920s line (阪田三吉): △3二金 △3三角, ▲同角成 △同金, then △2二飛.
    g(
        "阪田流向かい飛車",
        "7g7f 3c3d 2g2f 4a3b 2f2e 2b3c 8h3c+ 3b3c 3i3h 8b2b",
        10,
        "7g7f 3c3d 2g2f 1c1d 2f2e 2b3c 8h3c+ 2a3c 3i3h 8b2b",
    ),
    f(
        "玉頭銀",
        "7g7f 3c3d 2h5h 8c8d 5g5f 5a4b 7i6h 4b3b 6h5g 1c1d 5g4f 9c9d 4f4e",
        13,
        "7g7f 3c3d 2h5h 8c8d 5g5f 5a4b 7i6h 4b3b 6h5g 1c1d 5g4f 9c9d 1g1f",
    ),
    f(
        "ダイレクト向かい飛車",
        "7g7f 3c3d 8h2b+ 3a2b 2h8h",
        5,
        "7g7f 3c3d 8h2b+ 3a2b 2h6h",
    ),
    s(
        "ノーマル向かい飛車",
        "6g6f 7g7f 8h7g 2h8h",
        7,
        "7g7f 8h7g 2h8h",
    ),
    s(
        "向かい飛車穴熊",
        "7g7f 8h7g 2h8h 1i1h 5i4h 4h3h 3h2h 2h1i 3i2h",
        17,
        "7g7f 8h7g 2h8h 1i1h 5i4h 4h3h 3h2h 2h1i 3i3h",
    ),
    // Others.
    s("陽動振り飛車", "2g2f 7g7f 2h6h", 5, "7g7f 2h6h"),
    s("鬼殺し", "7g7f 8i7g 7g6e", 5, "7g7f 8i7g"),
    // Sides, bishop exchanges and the king in the corner.
    g("後手中飛車", "7g7f 8b5b", 2, "7g7f 3c3d 5g5f 8c8d 2h5h"),
    s(
        "中飛車穴熊",
        "5g5f 2h5h 1i1h 5i4h 4h3h 3h2h 2h1i 3i2h",
        15,
        "5g5f 2h5h 1i1h 5i4h 4h3h 3h2h 2h1i 3i3h",
    ),
    g("後手四間飛車", "7g7f 8b4b", 2, "7g7f 8c8d 2h6h"),
    s(
        "立石流",
        "6g6f 6f6e 7g7f 7f7e 2h6h 6h7h 7h7f",
        13,
        "6g6f 7g7f 7f7e 2h6h 6h7h 7h7f",
    ),
    g("後手三間飛車", "7g7f 8b3b", 2, "7g7f 8c8d 2h7h"),
    f(
        "角交換三間飛車",
        "7g7f 3c3d 2h7h 2b8h+ 7i8h",
        5,
        "7g7f 3c3d 2h7h 4a4b 7i6h",
    ),
    s("新石田流", "7g7f 7f7e 2h7h 7e7d", 7, "7g7f 7f7e 2h7h"),
    f(
        "角交換向かい飛車",
        "7g7f 3c3d 8h2b+ 3a2b 2h8h",
        5,
        "7g7f 3c3d 8h7g 4a4b 2h8h",
    ),
    f(
        "先手向かい飛車",
        "7g7f 3c3d 8h7g 4a4b 2h8h",
        5,
        "7g7f 3c3d 8h7g 2b3c 1g1f 8b2b",
    ),
    g(
        "後手向かい飛車",
        "7g7f 3c3d 2g2f 2b3c 2f2e 8b2b",
        6,
        "7g7f 3c3d 8h7g 4a4b 2h8h",
    ),
    s(
        "矢倉流中飛車",
        "6g6f 2h5h 5i4h 4h3h 3h2h 5g5f 7i6h 6h5g 5g4f",
        17,
        "6g6f 2h5h 5i4h 4h3h 3h2h 5g5f 7i6h 6h5g",
    ),
    // Named lines.
    f(
        "角交換振り飛車",
        "7g7f 3c3d 2h6h 2b8h+ 7i8h",
        5,
        "7g7f 3c3d 2g2f 2b8h+ 7i8h",
    ),
    f(
        "逆棒銀",
        "7g7f 3c3d 2h6h 2b8h+ 7i8h 4a4b 8h7g 4b4a 6h8h 4a4b 7g8f",
        11,
        "7g7f 3c3d 2h6h 2b8h+ 7i8h 4a4b 8h7g 4b4a 6h8h 4a4b 9g9f",
    ),
    // 角交換四間飛車 into 振り飛車穴熊; the near miss digs the same 穴熊 behind a closed
    // diagonal.
    f(
        "レグスペ",
        "7g7f 3c3d 2h6h 2b8h+ 7i8h 4a4b 5i4h 4b4a 4h3h 4a4b 3h2h 4b4a 1i1h 4a4b 2h1i 4b4a 3i2h",
        17,
        "7g7f 3c3d 6g6f 4a4b 2h6h 4b4a 5i4h 4a4b 4h3h 4b4a 3h2h 4a4b 1i1h 4b4a 2h1i 4a4b 3i2h",
    ),
    // The near miss jumps the knight to 3七 as usual.
    s(
        "トマホーク",
        "7g7f 6g6f 2h7h 7i6h 5i4h 1g1f 1f1e 6h6g 6g5f 2i1g",
        19,
        "7g7f 6g6f 2h7h 7i6h 5i4h 1g1f 1f1e 6h6g 6g5f 3g3f 2i3g",
    ),
    // The near miss keeps the silver on 6七 (ノーマル三間飛車's 6七銀型).
    s(
        "コーヤン流",
        "7g7f 6g6f 2h7h 3i3h 5i4h 4h3i 5g5f 7i6h 6h5g 1g1f 1f1e 3g3f 2i3g",
        25,
        "7g7f 6g6f 2h7h 3i3h 5i4h 4h3i 7i6h 6h6g 1g1f 1f1e 3g3f 2i3g",
    ),
    // ▲7六歩 △3四歩 ▲7五歩 △8四歩 ▲7八飛 △8五歩 ▲7七角 △同角成 ▲同桂; the near miss
    // takes back with the rook.
    f(
        "新鬼殺し",
        "7g7f 3c3d 7f7e 8c8d 2h7h 8d8e 8h7g 2b7g+ 8i7g",
        9,
        "7g7f 3c3d 7f7e 8c8d 2h7h 8d8e 8h7g 2b7g+ 7h7g",
    ),
    // ▲2六歩 △3四歩 ▲2五歩 △3三角 ▲7六歩 △2二飛; in the near miss the rook pawn stays
    // on 2六.
    g(
        "鬼殺し向かい飛車",
        "2g2f 3c3d 2f2e 2b3c 7g7f 8b2b",
        6,
        "2g2f 3c3d 7g7f 2b3c 5g5f 8b2b",
    ),
    s(
        "メリケン向かい飛車",
        "7g7f 7f7e 8h7g 2h8h",
        7,
        "7g7f 8h7g 2h8h 7f7e",
    ),
    // 超速 ▲3七銀 to 4六 against gote's silver to 5四; in the near miss sente's silver
    // stays on 3七.
    g(
        "銀対抗",
        "7g7f 3c3d 2g2f 5c5d 2f2e 8b5b 3i4h 5d5e 3g3f 2b3c 4h3g 3a4b 3g4f 4b5c 5i6h 5c5d",
        16,
        "7g7f 3c3d 2g2f 5c5d 2f2e 8b5b 3i4h 5d5e 3g3f 2b3c 4h3g 3a4b 5i6h 4b5c 6h7h 5c5d",
    ),
    // The king on 3八 at ply 40 (sente's twenty moves, gote waiting); in the near miss it
    // has gone on to 2八.
    f(
        "耀龍四間飛車",
        "7g7f 4a4b 6g6f 4b4a 2h6h 4a4b 5i4h 4b4a 4h3h 4a4b 3i4h 4b4a 7i7h 4a4b 9g9f 4b4a 1g1f 4a4b 5g5f 4b4a 4g4f 4a4b 6i5h 4b4a 9f9e 4a4b 1f1e 4b4a 3g3f 4a4b 2g2f 4b4a 5h4g 4a4b 4i5h 4b4a 7h6g 4a4b 8h7g 4b4a",
        40,
        "7g7f 4a4b 6g6f 4b4a 2h6h 4a4b 5i4h 4b4a 4h3h 4a4b 3i4h 4b4a 7i7h 4a4b 9g9f 4b4a 1g1f 4a4b 5g5f 4b4a 4g4f 4a4b 6i5h 4b4a 9f9e 4a4b 1f1e 4b4a 3g3f 4a4b 2g2f 4b4a 5h4g 4a4b 4i5h 4b4a 7h6g 4a4b 3h2h 4b4a",
    ),
    s(
        "三間飛車藤井システム",
        "7g7f 6g6f 2h7h 7i6h 6h6g 1g1f 1f1e",
        13,
        "7g7f 6g6f 2h7h 7i6h 6h6g 5i4h 1g1f 1f1e",
    ),
    // 石田流 (▲7六飛 over ▲7五歩), the diagonal closed, the bishop up to 7七; the near
    // miss takes it to 9七 instead.
    s(
        "石田流7七角型",
        "7g7f 7f7e 2h7h 7h7f 6g6f 8h7g",
        11,
        "7g7f 7f7e 2h7h 7h7f 6g6f 9g9f 8h9g",
    ),
    // 石田流, then the king into the corner; the near miss digs the same 穴熊 in ノーマル
    // 三間飛車.
    s(
        "石田流穴熊",
        "7g7f 7f7e 2h7h 7h7f 1i1h 5i4h 4h3h 3h2h 2h1i 3i2h",
        19,
        "7g7f 6g6f 2h7h 1i1h 5i4h 4h3h 3h2h 2h1i 3i2h",
    ),
    // 三間飛車, 美濃 on 2八, ▲4五歩 and the left silver by 5七 to 4六; in the near miss it
    // stays on 5七.
    s(
        "真部流",
        "7g7f 6g6f 2h7h 5i4h 4h3h 3h2h 3i3h 5g5f 4g4f 4f4e 7i6h 6h5g 5g4f",
        25,
        "7g7f 6g6f 2h7h 5i4h 4h3h 3h2h 3i3h 5g5f 4g4f 4f4e 7i6h 6h5g 4i5h",
    ),
];
