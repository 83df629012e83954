//! The pairs of the game labels that are no side's name (see `pairs.rs`): both sides' moves.

use super::pairs::{LabelCase, l};

/// Twenty plies of static rooks moving edge pawns and golds: nothing named.
pub const WAITS: &str = "1g1f 9c9d 1f1e 9d9e 9g9f 1c1d 4g4f 6c6d 3g3f 7c7d 6g6f 4c4d 7g7f 3c3d 6i6h 6a6b 6h6i 6b6a 4i4h 4a4b";

/// 角換わり by the usual exchange on 7七 (no tempo lost), at ply 9.
macro_rules! kakugawari {
    ($rest:literal) => {
        concat!("7g7f 8c8d 2g2f 3c3d 8h7g 4a3b 7i8h 2b7g+ 8h7g 3a2b ", $rest)
    };
}

pub static LABEL_CASES: &[LabelCase] = &[
    l("相振り飛車", "7g7f 3c3d 2h7h 8b5b", "7g7f 3c3d 2h7h 8c8d"),
    l("相中飛車", "5g5f 5c5d 2h5h 8b5b", "5g5f 5c5d 2h5h 8b4b"),
    l("相四間飛車", "7g7f 3c3d 2h6h 8b4b", "7g7f 3c3d 2h6h 8b3b"),
    l("相三間飛車", "7g7f 3c3d 2h7h 8b3b", "7g7f 3c3d 2h7h 8b4b"),
    l(
        "相向かい飛車",
        "7g7f 3c3d 8h7g 2b3c 2h8h 8b2b",
        "7g7f 3c3d 8h7g 2b3c 2h8h 8b4b",
    ),
    l(
        "相矢倉",
        "7g7f 3c3d 6g6f 4c4d 7i6h 3a4b 6h7g 4b3c 6i7h 4a3b",
        "7g7f 3c3d 6g6f 4c4d 7i6h 3a4b 6h7g 4b3c 6i7h 1c1d",
    ),
    l(
        "相雁木",
        "6g6f 4c4d 7i6h 3a4b 6h6g 4b4c 6i7h 4a3b 5g5f 5c5d 3i4h 7a6b 4h5g 6b5c 5i6i 5a4a",
        "6g6f 4c4d 7i6h 3a4b 6h6g 4b4c 6i7h 4a3b 5g5f 5c5d 3i4h 7a6b 4h5g 6b5c 5i6i 5a5b",
    ),
    l(
        "相横歩取り",
        "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d3d 2b8h+ 7i8h 8f7f",
        "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d3d 2b8h+ 7i8h 8f8d",
    ),
    l(
        "角換わり相腰掛け銀",
        kakugawari!("4g4f 6c6d 3i4h 7a6b 4h4g 6b6c 4g5f 6c5d"),
        kakugawari!("4g4f 6c6d 3i4h 7a6b 4h4g 6b6c 4g5f 6c7b"),
    ),
    l(
        "角換わり相早繰り銀",
        kakugawari!("3g3f 7c7d 3i3h 7a7b 3h3g 7b7c 3g4f 7c6d"),
        kakugawari!("3g3f 7c7d 3i3h 7a7b 3h3g 7b7c 3g4f 1c1d"),
    ),
    l(
        "角換わり相棒銀",
        kakugawari!("2f2e 8d8e 3i3h 7a7b 3h2g 7b8c 2g2f 8c8d"),
        kakugawari!("2f2e 8d8e 3i3h 7a7b 3h2g 7b8c 2g2f 1c1d"),
    ),
    l(
        "新旧対抗",
        "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2h 8e8f 8g8f 8b8f P*8g 8f8d",
        "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2h 8e8f 8g8f 8b8f P*8g 8f8b",
    ),
    l("力戦", WAITS, "7g7f 3c3d"),
    l("その他の戦型", "7g7f 3c3d", WAITS),
];
