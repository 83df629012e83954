//! Iroha notation (いろは譜), the Edo-period records in which each square has one character:
//! `春歩` for ７六歩, `ら歩` for ３四歩. The table is the one in the project's specs
//! (`iroha-squares.md`): the iroha syllables down files 1 to 5 (京 for the square left over),
//! the numerals 一 to 千 on file 6, other characters on files 7 to 9.

use kifudex_shogi::{Move, Position, Square};

/// The characters of the squares, rank 一 to 九 from the top, each row file 9 to 1, as a
/// board diagram is drawn.
pub const IROHA_SQUARES: [[char; 9]; 9] = [
    ['谷', '柳', '万', '一', 'ゆ', 'ま', 'つ', 'ぬ', 'い'],
    ['川', '桜', '花', '三', 'め', 'け', 'ね', 'る', 'ろ'],
    ['海', '松', '鳥', '五', 'み', 'ふ', 'な', 'を', 'は'],
    ['里', '楓', '風', '六', 'し', 'こ', 'ら', 'わ', 'に'],
    ['村', '雨', '月', '七', 'ひ', 'え', 'む', 'か', 'ほ'],
    ['森', '露', '春', '八', 'も', 'て', 'う', 'よ', 'へ'],
    ['竹', '霜', '夏', '十', 'せ', 'あ', 'の', 'た', 'と'],
    ['草', '雪', '秋', '百', 'す', 'さ', 'く', 'れ', 'ち'],
    ['石', '山', '冬', '千', '京', 'き', 'や', 'そ', 'り'],
];

/// The iroha character of a square.
pub fn iroha_square(sq: Square) -> char {
    IROHA_SQUARES[sq.rank() as usize - 1][9 - sq.file() as usize]
}

/// The square an iroha character names.
pub fn iroha_square_of(c: char) -> Option<Square> {
    IROHA_SQUARES.iter().enumerate().find_map(|(r, row)| {
        let f = row.iter().position(|&x| x == c)?;
        Square::new(9 - f as u8, r as u8 + 1)
    })
}

/// The move as an iroha record writes it: the Japanese move (side mark, piece, relative
/// words, 成 不成 打) with its square as one character, and 同 for the previous square:
/// `☗春歩`, `☖同歩`.
pub fn iroha(pos: &Position, mv: Move, last_to: Option<Square>) -> String {
    let text = super::japanese(pos, mv, last_to);
    let mut chars = text.chars();
    let mut out = String::new();
    out.extend(chars.next());
    let rest: String = chars.collect();
    if let Some(after) = rest.strip_prefix("同　") {
        out.push('同');
        out.push_str(after);
    } else {
        out.push(iroha_square(mv.to()));
        out.extend(rest.chars().skip(2));
    }
    out
}
