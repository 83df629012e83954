//! Japanese notation vocabulary shared by the KIF and KI2 readers and writers: numerals,
//! squares (７六), piece names (歩 … 龍, with 竜 全 圭 杏 and 成銀 成桂 成香), side marks.

use kifudex_shogi::{Color, PieceKind, Square};

/// Full-width file digits, index 0 = file 1.
pub const FILE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
/// Kanji rank numerals, index 0 = rank 1.
pub const RANK_KANJI: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// A digit 1–9 written half-width, full-width or as a kanji numeral.
pub fn digit(c: char) -> Option<u8> {
    Some(match c {
        '1'..='9' => c as u8 - b'0',
        '１'..='９' => (c as u32 - '１' as u32 + 1) as u8,
        _ => return kanji_digit(c),
    })
}

/// A kanji number up to 99 (`三`, `十`, `十三`, `二十`), or a plain decimal number.
pub fn kanji_number(s: &str) -> Option<u32> {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_digit() || ('０'..='９').contains(&c))
    {
        return s
            .chars()
            .map(|c| c.to_digit(10).unwrap_or_else(|| c as u32 - '０' as u32))
            .try_fold(0u32, |n, d| n.checked_mul(10)?.checked_add(d));
    }
    let chars: Vec<char> = s.chars().collect();
    let kanji = |c: char| {
        RANK_KANJI
            .iter()
            .position(|&k| k == c)
            .map(|i| i as u32 + 1)
    };
    match chars.as_slice() {
        [c] if *c == '十' => Some(10),
        [c] => kanji(*c),
        ['十', u] => Some(10 + kanji(*u)?),
        [t, '十'] => Some(10 * kanji(*t)?),
        [t, '十', u] => Some(10 * kanji(*t)? + kanji(*u)?),
        _ => None,
    }
}

/// The KIF name of a piece kind: 歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍.
pub const fn kind_name(kind: PieceKind) -> &'static str {
    use PieceKind::*;
    match kind {
        Pawn => "歩",
        Lance => "香",
        Knight => "桂",
        Silver => "銀",
        Gold => "金",
        Bishop => "角",
        Rook => "飛",
        King => "玉",
        ProPawn => "と",
        ProLance => "成香",
        ProKnight => "成桂",
        ProSilver => "成銀",
        Horse => "馬",
        Dragon => "龍",
    }
}

/// The one-character name used in board diagrams: 杏 圭 全 for the promoted minor pieces.
pub fn kind_char(kind: PieceKind) -> char {
    use PieceKind::*;
    match kind {
        ProLance => '杏',
        ProKnight => '圭',
        ProSilver => '全',
        k => kind_name(k).chars().next().unwrap_or('?'),
    }
}

/// The piece named at the start of `s`, and the name's length in bytes: 成香 成桂 成銀, or one of
/// the names [`piece_char`] knows.
pub fn piece_prefix(s: &str) -> Option<(PieceKind, usize)> {
    let mut chars = s.chars();
    match chars.next()? {
        '成' => {
            let kind = match chars.next()? {
                '香' => PieceKind::ProLance,
                '桂' => PieceKind::ProKnight,
                '銀' => PieceKind::ProSilver,
                _ => return None,
            };
            Some((kind, "成香".len()))
        }
        c => piece_name(c).map(|kind| (kind, c.len_utf8())),
    }
}

/// The piece a one-character name names: 歩 香 桂 銀 金 角 飛 玉 王 と 杏 圭 全 馬 龍 竜.
pub const fn piece_char(c: char) -> Option<PieceKind> {
    use PieceKind::*;
    Some(match c {
        '歩' => Pawn,
        '香' => Lance,
        '桂' => Knight,
        '銀' => Silver,
        '金' => Gold,
        '角' => Bishop,
        '飛' => Rook,
        '玉' | '王' => King,
        'と' => ProPawn,
        '杏' => ProLance,
        '圭' => ProKnight,
        '全' => ProSilver,
        '馬' => Horse,
        '龍' | '竜' => Dragon,
        _ => return None,
    })
}

/// A square written as file then rank, each in any digit form (`７六`, `76`, `７６`).
pub fn square_prefix(s: &str) -> Option<(Square, usize)> {
    let mut it = s.char_indices();
    let (_, f) = it.next()?;
    let (_, r) = it.next()?;
    let len = it.next().map_or(s.len(), |(i, _)| i);
    Some((Square::new(digit(f)?, digit(r)?)?, len))
}

/// A square as KIF writes it: full-width file, kanji rank (`７六`).
pub fn square_text(sq: Square) -> String {
    let mut s = String::new();
    s.push(FILE_DIGITS[sq.file() as usize - 1]);
    s.push(RANK_KANJI[sq.rank() as usize - 1]);
    s
}

/// The side mark at the start of a move (▲☗ for Black, △☖▽ for White), with its length.
pub fn side_mark(s: &str) -> Option<(Color, usize)> {
    let c = s.chars().next()?;
    let color = match c {
        '▲' | '☗' | '▼' => Color::Black,
        '△' | '☖' | '▽' => Color::White,
        _ => return None,
    };
    Some((color, c.len_utf8()))
}

/// A count as board diagrams write it: 二 … 九, 十, 十三, 十八.
pub fn kanji_count(n: u32) -> String {
    let n = n.min(99);
    let digit = |d: u32| RANK_KANJI[(d - 1) as usize];
    match n {
        0 => String::new(),
        1..=9 => digit(n).to_string(),
        10 => "十".to_string(),
        11..=19 => format!("十{}", digit(n - 10)),
        _ => format!(
            "{}十{}",
            digit(n / 10),
            if n.is_multiple_of(10) {
                String::new()
            } else {
                digit(n % 10).to_string()
            }
        ),
    }
}

/// A kanji numeral 一 … 九. A table rather than a `match`: the ranks of a game's moves
/// follow no pattern a branch predictor could learn.
#[inline]
pub(crate) fn kanji_digit(c: char) -> Option<u8> {
    let (k, rank) = RANK_SLOTS[c as usize & 63];
    (k == c).then_some(rank)
}

/// The kanji ranks by `c & 63`, where no two of them meet.
const RANK_SLOTS: [(char, u8); 64] = {
    let mut t = [('\0', 0); 64];
    let mut i = 0;
    while i < RANK_KANJI.len() {
        let c = RANK_KANJI[i];
        assert!(t[c as usize & 63].0 == '\0', "two ranks share a slot");
        t[c as usize & 63] = (c, i as u8 + 1);
        i += 1;
    }
    t
};

/// The piece a one-character name names, as [`piece_char`] says; a table like
/// [`kanji_digit`]'s.
#[inline]
pub(crate) fn piece_name(c: char) -> Option<PieceKind> {
    let (k, kind) = PIECE_SLOTS[piece_slot(c)];
    if k == c { kind } else { None }
}

#[inline]
const fn piece_slot(c: char) -> usize {
    ((c as u32).wrapping_mul(1808) >> 16) as usize & 31
}

/// The one-character piece names by [`piece_slot`], where no two of them meet.
const PIECE_SLOTS: [(char, Option<PieceKind>); 32] = {
    const NAMES: [char; 16] = [
        '歩', '香', '桂', '銀', '金', '角', '飛', '玉', '王', 'と', '杏', '圭', '全', '馬', '龍',
        '竜',
    ];
    let mut t = [('\0', None); 32];
    let mut i = 0;
    while i < NAMES.len() {
        let c = NAMES[i];
        assert!(t[piece_slot(c)].0 == '\0', "two piece names share a slot");
        t[piece_slot(c)] = (c, piece_char(c));
        i += 1;
    }
    t
};
