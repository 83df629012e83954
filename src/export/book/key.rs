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

/// Appends the packed form of the SFEN text `sfen` (written by
/// [`crate::shogi::Position::push_sfen_key`]: only the characters above) to `out`.
pub(super) fn pack(sfen: &[u8], out: &mut Vec<u8>) {
    let mut bits = 0u64;
    let mut held = 0u32;
    for &c in sfen {
        let code = CODES[c as usize];
        debug_assert!(code != 0, "{c} in an SFEN");
        bits = bits << 5 | u64::from(code);
        held += 5;
        if held >= 8 {
            held -= 8;
            out.push((bits >> held) as u8);
        }
    }
    if held > 0 {
        out.push((bits << (8 - held)) as u8);
    }
}

/// Appends the SFEN text a packed key stands for to `out`.
pub(super) fn unpack(packed: &[u8], out: &mut Vec<u8>) {
    let mut bits = 0u64;
    let mut held = 0u32;
    for &b in packed {
        bits = bits << 8 | u64::from(b);
        held += 8;
        while held >= 5 {
            held -= 5;
            let code = (bits >> held) & 31;
            if code == 0 {
                // The padding.
                return;
            }
            out.push(CHARS[code as usize - 1]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
