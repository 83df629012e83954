//! The pairs of the castles (see `pairs.rs`).

use super::pairs::{Case, f, s};

const KIN_YAGURA: &str = "7g7f 6g6f 7i6h 6h7g 6i7h 4i5h 5h6g 9g9f 8h9g 5i6i 6i7i 7i8h";
const SHIN_GIN_ANAGUMA: &str = "7g7f 8h7g 9i9h 5i6h 6h7h 7h8h 8h9i 8g8f 7i8h 8h8g 6i7h 7h8h";
const LEFT_GINKAN: &str = "7g7f 8h7g 8g8f 5i6h 6h7h 7h8h 7i7h 7h8g 6i7h";

pub static CASES: &[Case] = &[
    // The centre.
    s(
        "居玉",
        "4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i",
        30,
        "5i5h 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h 4h4i 4i4h",
    ),
    s("中住まい", "5i5h", 1, "5i4h"),
    s(
        "アヒル囲い",
        "7i6h 3i4h 6i7i 4i3i 5i5h",
        9,
        "7i6h 3i4h 6i7i 5i5h",
    ),
    s("中原囲い", "6i7h 5i6i 4i5i 3i4h", 7, "6i7h 5i6i 4i5i 3i3h"),
    s("いちご囲い", "6i7h 4i5h 5i6h", 5, "6i7h 4i4h 5i6h"),
    s("カニ囲い", "7i6h 6i7h 4i5h 5i6i", 7, "7i6h 6i7h 4i4h 5i6i"),
    // Against a ranging rook.
    s("舟囲い", "5i6h 6h7h 4i5h", 5, "5i6h 6h7h 4i4h"),
    s(
        "セメント囲い",
        "5i6h 6h7h 4i5h 6g6f 7i6h 6h6g 5g5f 3i4h 4h5g",
        17,
        "5i6h 6h7h 4i5h 6g6f 7i6h 6h6g 5g5f 3i4h",
    ),
    s("エルモ囲い", "5i6h 6h7h 7i6h 6i7i", 7, "5i6h 6h7h 7i6h"),
    s(
        "左美濃",
        "7g7f 8h7g 5i6h 6h7h 7h8h 7i7h",
        11,
        "7g7f 8h7g 5i6h 6h7h 7h8h 7i6h",
    ),
    s(
        "天守閣美濃",
        "7g7f 8h7g 8g8f 5i6h 6h7h 7h8h 8h8g 7i7h",
        15,
        "7g7f 8h7g 8g8f 5i6h 6h7h 7h8h 7i7h",
    ),
    s(
        "左銀冠",
        LEFT_GINKAN,
        17,
        "7g7f 8h7g 8g8f 5i6h 6h7h 7h8h 7i7h 7h8g 6i6h",
    ),
    s(
        "端玉銀冠",
        "7g7f 8h7g 8g8f 5i6h 6h7h 7h8h 7i7h 7h8g 6i7h 8h9h",
        19,
        LEFT_GINKAN,
    ),
    s(
        "米長玉",
        "7g7f 8h7g 5i6h 6h7h 7h8h 8h9h",
        11,
        "7g7f 8h7g 5i6h 6h7h 7h8h",
    ),
    s(
        "ミレニアム囲い",
        "7g7f 8h6f 8i7g 5i6h 6h7h 7h8h 8h8i 7i8h 6i7i",
        17,
        "7g7f 8h6f 8i7g 5i6h 6h7h 7h8h 8h8i 7i8h",
    ),
    // 穴熊
    s(
        "穴熊",
        "7g7f 8h7g 9i9h 5i6h 6h7h 7h8h 8h9i 7i8h",
        15,
        "7g7f 8h7g 9i9h 5i6h 6h7h 7h8h 8h9i 7i7h",
    ),
    s(
        "居飛車穴熊",
        "7g7f 8h7g 9i9h 5i6h 6h7h 7h8h 8h9i 7i8h",
        15,
        "7g7f 8h7g 9i9h 5i6h 6h7h 7h8h 8h9i 7i7h",
    ),
    s(
        "銀冠穴熊",
        SHIN_GIN_ANAGUMA,
        23,
        "7g7f 8h7g 9i9h 5i6h 6h7h 7h8h 8h9i 8g8f 7i8h 8h8g 6i7h",
    ),
    s(
        "ビッグ4",
        "7g7f 8h7g 9i9h 5i6h 6h7h 7h8h 8h9i 8g8f 7i8h 8h8g 6i7h 7h8h 7g6f 3i4h 4h5i 5i6h 6h7g 4i5h 5h6h 6h7h",
        39,
        "7g7f 8h7g 9i9h 5i6h 6h7h 7h8h 8h9i 8g8f 7i8h 8h8g 6i7h 7h8h 7g6f 3i4h 4h5i 5i6h 6h7g 4i5h 5h6h",
    ),
    s(
        "松尾流穴熊",
        "7g7f 8h7g 9i9h 5i6h 6h7h 7h8h 8h9i 7i8h 6i7h 3i4h 4h5i 5i6h 6h7i",
        25,
        "7g7f 8h7g 9i9h 5i6h 6h7h 7h8h 8h9i 7i8h 6i7h 3i4h 4h5i 5i6h",
    ),
    s(
        "音無しの構え",
        "8g8f 7i7h 7h8g 8h7i 9i9h 5i6h 6h7h 7h8h 8h9i 6i7h 7h8h",
        21,
        "7g7f 8g8f 7i7h 7h8g 8h7i 9i9h 5i6h 6h7h 7h8h 8h9i 6i7h 7h8h",
    ),
    s(
        "串カツ囲い",
        "7g7f 8h7g 5i6h 6h7h 7h8h 8h9h 7i8h",
        13,
        "7g7f 8h7g 5i6h 6h7h 7h8h 8h9h 7i7h",
    ),
    s(
        "平矢倉",
        "7g7f 6g6f 7i6h 6h7g 6i7h 4i5h 5h6h 9g9f 8h9g 5i6i 6i7i 7i8h",
        23,
        KIN_YAGURA,
    ),
    s(
        "矢倉穴熊",
        "7g7f 8h7g 7g5e 6g6f 6i7h 4i5h 5h6g 9i9h 7i8h 5i6i 6i7i 8i7g 7i8i 8i9i",
        27,
        "7g7f 8h7g 7g5e 6g6f 6i7h 4i5h 9i9h 7i8h 5i6i 6i7i 8i7g 7i8i 8i9i",
    ),
    // 矢倉
    s(
        "矢倉囲い",
        "7g7f 6g6f 7i6h 6h7g 6i7h 4i5h 5h6g 9g9f 8h9g 5i6i 6i7i",
        21,
        "7g7f 6g6f 7i6h 6h7g 6i7h 4i5h 5h6g 9g9f 8h9g 5i6i",
    ),
    s(
        "金矢倉",
        KIN_YAGURA,
        23,
        "7g7f 6g6f 7i6h 6h7g 6i7h 4i5h 5h6g 9g9f 8h9g 5i6i 6i7i",
    ),
    s(
        "銀矢倉",
        "7g7f 6g6f 7i6h 6h7g 6i7h 9g9f 8h9g 5i6i 6i7i 7i8h 3i4h 4h5i 5i6h 6h6g",
        27,
        "7g7f 6g6f 7i6h 6h7g 6i7h 9g9f 8h9g 5i6i 6i7i 7i8h 3i4h 4h5i 5i6h",
    ),
    s(
        "片矢倉",
        "7g7f 6g6f 7i6h 6h7g 4i5h 5h6g 6i6h 5i6i 6i7h",
        17,
        "7g7f 6g6f 7i6h 6h7g 4i5h 5h6g 6i6h 5i6i",
    ),
    // 金矢倉, then the right silver by 4八 to 5七 (総矢倉) and on to 6六 (菱矢倉).
    s(
        "総矢倉",
        "7g7f 6g6f 7i6h 6h7g 6i7h 4i5h 5h6g 9g9f 8h9g 5i6i 6i7i 7i8h 6f6e 5g5f 3i4h 4h5g",
        31,
        "7g7f 6g6f 7i6h 6h7g 6i7h 4i5h 5h6g 9g9f 8h9g 5i6i 6i7i 7i8h 6f6e 5g5f 3i4h",
    ),
    s(
        "菱矢倉",
        "7g7f 6g6f 7i6h 6h7g 6i7h 4i5h 5h6g 9g9f 8h9g 5i6i 6i7i 7i8h 6f6e 5g5f 3i4h 4h5g 5g6f",
        33,
        "7g7f 6g6f 7i6h 6h7g 6i7h 4i5h 5h6g 9g9f 8h9g 5i6i 6i7i 7i8h 6f6e 5g5f 3i4h 4h5g",
    ),
    s(
        "菊水矢倉",
        "7g7f 9g9f 8h9g 8i7g 7i8h 6i7h 5i6i 6i7i 7i8i",
        17,
        "7g7f 9g9f 8h9g 8i7g 7i8h 6i7h 5i6i 6i7i",
    ),
    s(
        "銀立ち矢倉",
        "7g7f 6g6f 7i6h 6h7g 6i7h 4i5h 5h6g 9g9f 8h9g 5i6i 6i7i 7i8h 7f7e 7g7f",
        27,
        "7g7f 6g6f 7i6h 6h7g 6i7h 4i5h 5h6g 9g9f 8h9g 5i6i 6i7i 7i8h 7f7e",
    ),
    s(
        "矢倉早囲い",
        "7g7f 6g6f 7i6h 6h7g 4i5h 5h6g 5i6h 6h7h 8h7i",
        17,
        "7g7f 6g6f 7i6h 6h7g 4i5h 5h6g 5i6h 6h7h",
    ),
    // 雁木
    s(
        "雁木囲い",
        "6g6f 7i6h 6h6g 6i7h 5g5f 3i4h 4h5g 5i6i",
        15,
        "6g6f 7i6h 6h6g 6i7h 5g5f 3i4h 4h5g",
    ),
    s(
        "旧型雁木",
        "6g6f 7i6h 6h6g 6i7h 5g5f 3i4h 4h5g 5i6i",
        15,
        "6g6f 7i6h 6h6g 6i7h 4g4f 3i4h 4h4g 5i6i",
    ),
    s(
        "ツノ銀雁木",
        "6g6f 7i6h 6h6g 6i7h 4g4f 3i4h 4h4g 5i6i",
        15,
        "6g6f 7i6h 6h6g 6i7h 5g5f 3i4h 4h5g 5i6i",
    ),
    s(
        "ボナンザ囲い",
        "7g7f 7i6h 6h7g 6i6h 4i5h 5i6i 6i7h",
        13,
        "6g6f 7g7f 7i6h 6h7g 6i6h 4i5h 5i6i 6i7h",
    ),
    // The 美濃 family.
    s(
        "美濃囲い",
        "2h6h 5i4h 4h3h 3h2h 3i3h",
        9,
        "2h6h 5i4h 4h3h 3h2h 3i4h",
    ),
    s(
        "片美濃囲い",
        "2h6h 5i4h 4h3h 3h2h 3i3h",
        9,
        "2h6h 5i4h 4h3h 3h2h 3i4h",
    ),
    s(
        "本美濃囲い",
        "2h6h 5i4h 4h3h 3h2h 3i3h 6i5h",
        11,
        "2h6h 5i4h 4h3h 3h2h 3i3h 6i7h",
    ),
    s(
        "高美濃囲い",
        "2h6h 5i4h 4h3h 3h2h 3i3h 6i5h 4g4f 5h4g",
        15,
        "2h6h 5i4h 4h3h 3h2h 3i3h 6i5h 4g4f",
    ),
    s(
        "ダイヤモンド美濃",
        "2h7h 5i4h 4h3h 3h2h 3i3h 4g4f 7i6h 6h5i 5i4h 4h4g",
        19,
        "2h7h 5i4h 4h3h 3h2h 3i3h 4g4f 7i6h 6h5i 5i4h",
    ),
    s(
        "木村美濃",
        "2h7h 5i4h 4h3h 3h2h 4i3h 4g4f 3i4h 4h4g",
        15,
        "2h7h 5i4h 4h3h 3h2h 4i3h 4g4f 3i4h",
    ),
    s(
        "金美濃",
        "2h6h 5i4h 4h3h 3h2h 4i3h 6i5i 5i4i",
        13,
        "2h6h 5i4h 4h3h 3h2h 4i3h 6i5i",
    ),
    s(
        "片銀冠",
        "2h7h 5i4h 4h3h 3h2h 3i3h 2g2f 3h2g 4i3h",
        15,
        "2h7h 5i4h 4h3h 3h2h 3i3h 2g2f 3h2g 4i4h",
    ),
    s(
        "銀冠",
        "2h7h 5i4h 4h3h 3h2h 3i3h 2g2f 3h2g 4i3h 6i5h 4g4f 5h4g",
        21,
        "2h7h 5i4h 4h3h 3h2h 3i3h 2g2f 3h2g 4i3h 6i5h 4g4f",
    ),
    s(
        "ちょんまげ美濃",
        "2g2f 7g7f 2h6h 5i4h 4h3h 3h2h 3i3h",
        13,
        "2g2f 2f2e 2h6h 5i4h 4h3h 3h2h 3i3h",
    ),
    // The 2-file pawns exchanged (▲2四歩 △同歩 ▲同飛 △2三歩), the rook home, then ranged.
    f(
        "坊主美濃",
        "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2h 4a4b 2h6h 4b4a 5i4h 4a4b 4h3h 4b4a 3h2h 4a4b 3i3h",
        19,
        "2g2f 4a4b 7g7f 4b4a 2h6h 4a4b 5i4h 4b4a 4h3h 4a4b 3h2h 4b4a 3i3h",
    ),
    s("ずれ美濃", "2h6h 5i4h 4h3h 3i4h", 7, "2h6h 5i4h 4h3h 3i2h"),
    s("早囲い", "2h6h 5i4h 4h3h", 5, "2h6h 4i5h 5i4h 4h3h"),
    s("三手囲い", "5i4h 4h3h 4i4h", 5, "5i4h 4h3h 6i5h"),
    s("金無双", "4i4h 5i4i 4i3h 6i5h", 7, "4i4h 5i4i 4i3h 6i7h"),
    s(
        "右矢倉",
        "2h6h 3g3f 3i3h 3h3g 5i4h 4h3h 3h2h 4i3h 4g4f 6i5h 5h4g",
        21,
        "2h6h 3g3f 3i3h 3h3g 5i4h 4h3h 3h2h 4i3h 4g4f 6i5h",
    ),
    s(
        "振り飛車穴熊",
        "2h6h 1i1h 5i4h 4h3h 3h2h 2h1i 3i2h",
        13,
        "2h6h 1i1h 5i4h 4h3h 3h2h 2h1i 3i3h",
    ),
    // With silvers where the golds would be.
    s(
        "銀美濃",
        "2h7h 5i4h 4h3h 3h2h 3i3h 4i3i 6g6f 7i6h 6h6g 6g5h 5h4i",
        21,
        "2h7h 5i4h 4h3h 3h2h 3i3h 4i3i 6g6f 7i6h 6h6g 6g5h",
    ),
    s(
        "銀無双",
        "5i4h 4h3h 3i4h 7i6h 6h5i 5i5h",
        11,
        "5i4h 4h3h 3i4h 7i6h 6h5i",
    ),
    s("箱入り娘", "5i6h 6h7h 4i5h 5h6h", 7, "5i6h 6h7h 4i5h"),
    s(
        "四枚左美濃",
        "7g7f 8h7g 5i6h 6h7h 7h8h 7i7h 6g6f 3i4h 4h5i 5i6h 6h6g",
        21,
        "7g7f 8h7g 5i6h 6h7h 7h8h 7i7h 6g6f 3i4h 4h5i 5i6h",
    ),
    s(
        "土居矢倉",
        "7g7f 6g6f 7i6h 6h7g 6i6h 6h6g 4i5h 5i6h 6h7h",
        17,
        "7g7f 6g6f 7i6h 6h7g 6i6h 6h6g 4i4h 5i6h 6h7h",
    ),
    // ミレニアム and エルモ囲い on the right; each near miss stops a move short.
    s(
        "振り飛車ミレニアム",
        "3g3f 2h6h 2i3g 3i2h 4i3i 5i4h 4h3h 3h2i",
        15,
        "3g3f 2h6h 2i3g 3i2h 4i3i 5i4h 4h3h",
    ),
    s("振りエルモ", "3i4h 4i3i 5i4i 4i3h", 7, "3i4h 4i3i 5i4i"),
    // 舟囲い, the left silver to 5七 and the gold from 6九 up beside the other.
    s(
        "舟囲いDX",
        "5g5f 5i6h 6h7h 4i5h 7i6h 6h5g 6i6h",
        13,
        "5g5f 5i6h 6h7h 4i5h 7i6h 6h5g",
    ),
    // 舟囲い, the right silver by 4八 to 5七, then the left one up to 6八.
    s(
        "菱囲い",
        "5i6h 6h7h 4i5h 5g5f 3i4h 4h5g 7i6h",
        13,
        "5i6h 6h7h 4i5h 5g5f 3i4h 4h5g",
    ),
    // ▲5八飛, ▲6八銀, ▲4八銀 with the king at home; in the near miss the right silver
    // goes to 3八.
    s("無敵囲い", "2h5h 7i6h 3i4h", 5, "2h5h 7i6h 3i3h"),
    // Sente's 居飛車穴熊 against gote's 振り飛車穴熊; in the near miss gote's silver never
    // comes to 8二.
    f(
        "相穴熊",
        "7g7f 8b4b 8h7g 9a9b 9i9h 5a6b 5i6h 6b7b 6h7h 7b8b 7h8h 8b9a 8h9i 7a8b 7i8h",
        15,
        "7g7f 8b4b 8h7g 9a9b 9i9h 5a6b 5i6h 6b7b 6h7h 7b8b 7h8h 8b9a 8h9i 4a3b 7i8h",
    ),
];
