//! A position's key in the book's sort: its SFEN without the move number, five bits a
//! character. The 31 characters an SFEN is written with get the codes 1 to 31 in the order
//! of their bytes, and the bits are padded with zeros to a whole byte, so that packed keys
//! compare as bytes (a shorter key first when one starts the other) exactly as their SFENs
//! do: the book's order, in two thirds of the bytes.

/// Every character of an SFEN, in byte order: code `i + 1` each.
const CHARS: &[u8; 31] = b" +-/0123456789BGKLNPRSbgklnprsw";

/// Byte → code (0: not a character of an SFEN).
const CODES: [u8; 256] = {
    let mut codes = [0u8; 256];
    let mut i = 0;
    while i < CHARS.len() {
        codes[CHARS[i] as usize] = i as u8 + 1;
        i += 1;
    }
    codes
};

/// Bytes enough for any SFEN key's text: at most 81 two-byte pieces, 8 slashes, the side
/// and 38 pieces in hand with their counts, under 240 characters (a multiple of eight here).
const MOST: usize = 256;

/// Appends the key of `pos` to `out`: its SFEN without the move number, packed.
pub(super) fn position_key(pos: &crate::shogi::Position, out: &mut Vec<u8>) {
    let mut text = [0u8; MOST];
    let mut n = 0;
    pos.sfen_key_bytes(|c| {
        if let Some(t) = text.get_mut(n) {
            *t = c;
            n += 1;
        }
    });
    pack(&text[..n], out);
}

/// Appends the packed form of the SFEN text `sfen` (at most [`MOST`] characters of those
/// above) to `out`.
pub(super) fn pack(sfen: &[u8], out: &mut Vec<u8>) {
    debug_assert!(sfen.iter().all(|&c| CODES[c as usize] != 0), "not an SFEN");
    // Eight characters (forty bits, five bytes) at a time; the last group padded with
    // code 0, then cut to the bytes its characters take.
    let mut packed = [0u8; MOST / 8 * 5];
    let mut at = 0;
    for group in sfen.chunks(8) {
        let mut bits = 0u64;
        for i in 0..8 {
            bits = bits << 5 | u64::from(CODES[*group.get(i).unwrap_or(&0) as usize]);
        }
        if let Some(p) = packed.get_mut(at..at + 5) {
            p.copy_from_slice(&bits.to_be_bytes()[3..]);
        }
        at += 5;
    }
    out.extend_from_slice(&packed[..(sfen.len() * 5).div_ceil(8).min(packed.len())]);
}

/// Appends the SFEN text a packed key stands for to `out`.
pub(super) fn unpack(packed: &[u8], out: &mut Vec<u8>) {
    // Five bytes (eight characters) at a time, through a copy padded with zeros.
    let mut padded = [0u8; MOST / 8 * 5];
    let len = packed.len().min(padded.len());
    padded[..len].copy_from_slice(&packed[..len]);
    let mut text = [0u8; MOST];
    for (group, chars) in padded.chunks_exact(5).zip(text.chunks_exact_mut(8)) {
        let mut bits = [0u8; 8];
        bits[3..].copy_from_slice(group);
        let bits = u64::from_be_bytes(bits);
        for (i, c) in chars.iter_mut().enumerate() {
            *c = TEXT[(bits >> (35 - 5 * i)) as usize & 31];
        }
        if bits & 31 == 0 {
            break;
        }
    }
    // Every code the bytes hold, the last of which may be padding.
    let mut n = len * 8 / 5;
    if n > 0 && text[n - 1] == 0 {
        n -= 1;
    }
    out.extend_from_slice(&text[..n]);
}

/// Code → character (0 for code 0).
const TEXT: [u8; 32] = {
    let mut text = [0u8; 32];
    let mut i = 0;
    while i < CHARS.len() {
        text[i + 1] = CHARS[i];
        i += 1;
    }
    text
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::{Move, Position};

    /// A position's key is its SFEN text packed, along a game with captures, drops and
    /// promotions.
    #[test]
    fn position_keys_are_packed_sfens() {
        let mut pos = Position::startpos();
        let moves = [
            "7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8b3b", "4e2c+", "2b2c", "P*2d", "B*5e",
            "2d2c+", "5e1i+", "2c3b",
        ];
        for mv in moves {
            let (mut packed, mut text, mut direct) = (Vec::new(), Vec::new(), Vec::new());
            pos.push_sfen_key(&mut text);
            pack(&text, &mut packed);
            position_key(&pos, &mut direct);
            assert_eq!(direct, packed, "{}", pos.to_sfen());
            assert!(
                pos.to_sfen()
                    .starts_with(std::str::from_utf8(&text).unwrap())
            );
            pos.play(Move::from_usi(mv).unwrap()).unwrap();
        }
        let hands = Position::from_sfen("8k/9/9/9/9/9/9/9/K8 b 2R2B4G4S4N4L17Pp 1").unwrap();
        let mut direct = Vec::new();
        position_key(&hands, &mut direct);
        let mut text = Vec::new();
        unpack(&direct, &mut text);
        assert_eq!(text, b"8k/9/9/9/9/9/9/9/K8 b 2R2B4G4S4N4L17Pp");
    }

    /// Packed keys round-trip and sort as their texts do, keys that start others included.
    #[test]
    fn packed_keys_sort_as_their_sfens() {
        let texts: Vec<&[u8]> = vec![
            b"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
            b"lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -",
            b"lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w 2P",
            b"8k/9/9/9/9/9/9/9/K8 b 2R2B4G4S4N4L18P",
            b"8k/9/9/9/9/9/9/9/K8 b 2R2B4G4S4N4L18p",
            b"+P+L+N+S+B+R4/9/9/9/9/9/9/9/9 w -",
            b" ",
            b"  ",
            b"   ",
            b"1",
            b"w",
            b"ww",
            b"",
        ];
        for &t in &texts {
            let mut p = Vec::new();
            pack(t, &mut p);
            let mut back = Vec::new();
            unpack(&p, &mut back);
            assert_eq!(back, t, "{}", String::from_utf8_lossy(t));
        }
        // Every pair of prefixes of the texts above (short keys end in every bit position).
        let mut keys: Vec<Vec<u8>> = Vec::new();
        for t in &texts {
            for n in 0..t.len().min(12) {
                keys.push(t[..n].to_vec());
            }
            keys.push(t.to_vec());
        }
        for a in &keys {
            for b in &keys {
                let (mut pa, mut pb) = (Vec::new(), Vec::new());
                pack(a, &mut pa);
                pack(b, &mut pb);
                assert_eq!(pa.cmp(&pb), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }
}
