//! A position's key in the book's sort: its SFEN without the move number, five bits a
//! character. The 31 characters an SFEN is written with get the codes 1 to 31 in the order
//! of their bytes, and the bits are padded with zeros to a whole byte, so that packed keys
//! compare as bytes (a shorter key first when one starts the other) exactly as their SFENs
//! do: the book's order, in two thirds of the bytes.

use kifudex_shogi::{Color, Move, Position, Square};

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
pub(super) fn position_key(pos: &Position, out: &mut Vec<u8>) {
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

/// The codes of up to 48 characters, twelve (60 bits) to a word.
#[derive(Clone, Copy, Default)]
struct Codes {
    words: [u64; 4],
    /// Characters in each word.
    lens: [u8; 4],
    /// The word being filled.
    at: usize,
}

impl Codes {
    fn clear(&mut self) {
        *self = Codes::default();
    }

    #[inline]
    fn push(&mut self, c: u8) {
        let code = u64::from(CODES[c as usize]);
        debug_assert!(code != 0, "{c} in an SFEN");
        if self.lens[self.at] == 12 && self.at < 3 {
            self.at += 1;
        }
        self.words[self.at] = self.words[self.at] << 5 | code;
        self.lens[self.at] += 1;
    }
}

/// Packed bits being written: whole bytes into a buffer, the rest held.
struct Bits {
    held: u128,
    /// Bits in `held` (under 64 between pushes).
    count: u32,
    bytes: [u8; MOST / 8 * 5],
    len: usize,
}

impl Bits {
    fn new() -> Bits {
        Bits {
            held: 0,
            count: 0,
            bytes: [0; MOST / 8 * 5],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, codes: &Codes) {
        for (&word, &chars) in codes.words.iter().zip(&codes.lens).take(codes.at + 1) {
            let n = 5 * u32::from(chars);
            self.held = self.held << n | u128::from(word);
            self.count += n;
            if self.count >= 64 {
                self.count -= 64;
                let word = (self.held >> self.count) as u64;
                if let Some(b) = self.bytes.get_mut(self.len..self.len + 8) {
                    b.copy_from_slice(&word.to_be_bytes());
                    self.len += 8;
                }
            }
        }
    }

    /// Appends the bytes written, the last padded with zeros.
    fn finish(mut self, out: &mut Vec<u8>) {
        let tail = (self.held << (64 - self.count)) as u64;
        let n = self.count.div_ceil(8) as usize;
        if let Some(b) = self.bytes.get_mut(self.len..self.len + n) {
            b.copy_from_slice(&tail.to_be_bytes()[..n]);
            self.len += n;
        }
        out.extend_from_slice(&self.bytes[..self.len]);
    }
}

/// Writes the keys of the positions of a game, one after the other: the codes of each rank
/// of the board (with the slash before it) and of the hands are kept, and written again only
/// when a move changed them.
pub(super) struct KeyWriter {
    ranks: [Codes; 9],
    /// The ranks to write again (bit `r` for rank `r`).
    stale: u16,
    hands: Option<([kifudex_shogi::Hand; 2], Codes)>,
    /// ` b ` and ` w `.
    sides: [Codes; 2],
}

impl Default for KeyWriter {
    fn default() -> KeyWriter {
        let side = |c: u8| {
            let mut codes = Codes::default();
            b" ".iter().chain(&[c, b' ']).for_each(|&b| codes.push(b));
            codes
        };
        KeyWriter {
            ranks: [Codes::default(); 9],
            stale: ALL_RANKS,
            hands: None,
            sides: [side(b'b'), side(b'w')],
        }
    }
}

const ALL_RANKS: u16 = (1 << 9) - 1;

impl KeyWriter {
    /// The next key is of a position unrelated to the last.
    pub(super) fn restart(&mut self) {
        self.stale = ALL_RANKS;
        self.hands = None;
    }

    /// The position of the last key was left by `mv`.
    pub(super) fn moved(&mut self, mv: Move) {
        let rank = |sq: Square| 1u16 << (sq.rank() - 1);
        self.stale |= rank(mv.to()) | mv.from().map_or(0, rank);
    }

    /// Appends the key of `pos` (the position of the last key, left by the moves given to
    /// [`KeyWriter::moved`] since) to `out`, as [`position_key`] writes it.
    pub(super) fn key(&mut self, pos: &Position, out: &mut Vec<u8>) {
        let mut bits = Bits::new();
        for (r, codes) in self.ranks.iter_mut().enumerate() {
            if self.stale & 1 << r != 0 {
                codes.clear();
                if r > 0 {
                    codes.push(b'/');
                }
                pos.sfen_rank_bytes(r, |b| codes.push(b));
            }
            bits.push(codes);
        }
        self.stale = 0;
        bits.push(&self.sides[pos.side_to_move().index()]);
        let hands = [*pos.hand(Color::Black), *pos.hand(Color::White)];
        let codes = match &mut self.hands {
            Some((kept, codes)) if *kept == hands => codes,
            kept => {
                let mut codes = Codes::default();
                pos.sfen_hands_bytes(|b| codes.push(b));
                &kept.insert((hands, codes)).1
            }
        };
        bits.push(codes);
        bits.finish(out);
    }
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
    // Five bytes (eight characters) at a time, into a buffer on the stack.
    let mut text = [0u8; MOST];
    let mut n = 0;
    let mut put = |group: [u8; 5]| {
        let bits = u64::from_be_bytes([0, 0, 0, group[0], group[1], group[2], group[3], group[4]]);
        let chars: [u8; 8] = std::array::from_fn(|i| TEXT[(bits >> (35 - 5 * i)) as usize & 31]);
        if let Some(t) = text.get_mut(n..n + 8) {
            t.copy_from_slice(&chars);
            n += 8;
        }
    };
    let mut groups = packed.chunks_exact(5);
    for group in &mut groups {
        put([group[0], group[1], group[2], group[3], group[4]]);
    }
    let rest = groups.remainder();
    if !rest.is_empty() {
        let mut last = [0u8; 5];
        for (l, &b) in last.iter_mut().zip(rest) {
            *l = b;
        }
        put(last);
    }
    // Every code the bytes hold, the last of which may be padding.
    let mut n = (packed.len() * 8 / 5).min(n);
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

    /// A position's key is its SFEN text packed, along a game with captures, drops and
    /// promotions.
    #[test]
    fn position_keys_are_packed_sfens() {
        let mut pos = Position::startpos();
        let mut writer = KeyWriter::default();
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
            let mut kept = Vec::new();
            writer.key(&pos, &mut kept);
            assert_eq!(kept, packed, "{}", pos.to_sfen());
            assert!(
                pos.to_sfen()
                    .starts_with(std::str::from_utf8(&text).unwrap())
            );
            let mv = Move::from_usi(mv).unwrap();
            pos.play(mv).unwrap();
            writer.moved(mv);
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
