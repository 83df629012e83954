//! A position's rows counted into its book moves, and written as the book's text.

use super::rows::Row;
use super::{BookMove, BookOptions};
use crate::sort::GroupSink;
use kifudex_shogi::{Color, Move};

/// A move's USI text, as bytes (at most five: `7g7f+`, `P*5e`).
#[derive(Clone, Copy)]
struct Usi {
    bytes: [u8; 5],
    len: u8,
}

impl Usi {
    fn of(mv: Move) -> Usi {
        let mut bytes = [0u8; 5];
        let square = |sq: kifudex_shogi::Square| [b'0' + sq.file(), b'a' + sq.rank() - 1];
        let len = match mv {
            Move::Board { from, to, promote } => {
                bytes[..2].copy_from_slice(&square(from));
                bytes[2..4].copy_from_slice(&square(to));
                bytes[4] = b'+';
                4 + u8::from(promote)
            }
            Move::Drop { kind, to } => {
                bytes[0] = kind.sfen_letter() as u8;
                bytes[1] = b'*';
                bytes[2..4].copy_from_slice(&square(to));
                4
            }
        };
        Usi { bytes, len }
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }
}

/// A move of the position being counted.
struct Tally {
    next: u16,
    usi: Usi,
    mv: BookMove,
    last_game: Option<u32>,
    /// reply → games
    replies: Vec<(u16, u64)>,
}

/// The book's text for a run of positions in SFEN order, and what it holds.
pub(super) struct BookText<'a> {
    opts: &'a BookOptions,
    pub text: Vec<u8>,
    pub positions: usize,
    pub moves: usize,
    /// The position being counted: where its SFEN is in `text` (written there before its
    /// moves are known, cut off when it has none), its side to move, and the first game and
    /// ply to reach it with that game's move number there.
    key: (usize, usize),
    side: Color,
    first: Option<(u32, u32)>,
    number: u32,
    /// The moves of the position: the first `used` (the others' buffers kept for the next
    /// positions: tens of millions of them go through one sink).
    tallies: Vec<Tally>,
    used: usize,
    /// The moves kept, sorted: a buffer reused.
    kept: Vec<(BookMove, Usi, Option<Usi>, i32)>,
}

impl<'a> BookText<'a> {
    /// Text written into `text` (emptied).
    pub(super) fn new(opts: &'a BookOptions, mut text: Vec<u8>) -> BookText<'a> {
        text.clear();
        BookText {
            opts,
            text,
            positions: 0,
            moves: 0,
            key: (0, 0),
            side: Color::Black,
            first: None,
            number: 0,
            tallies: Vec::new(),
            used: 0,
            kept: Vec::new(),
        }
    }
}

impl GroupSink for BookText<'_> {
    fn begin(&mut self, key: &[u8]) {
        let start = self.text.len();
        self.text.extend_from_slice(b"sfen ");
        super::key::unpack(key, &mut self.text);
        self.key = (start, self.text.len());
        self.first = None;
        self.used = 0;
    }

    fn row(&mut self, tail: &[u8]) {
        let r = Row::decode(tail);
        // Rows come by game then ply: the first of the least ply is the first game to reach
        // the position that soon.
        if self.first.is_none_or(|(_, ply)| r.ply >> 1 < ply) {
            self.first = Some((r.game, r.ply >> 1));
            self.number = r.number;
            self.side = if r.ply & 1 == 1 {
                Color::White
            } else {
                Color::Black
            };
        }
        if self.opts.winner_only {
            let won = match self.side {
                Color::Black => r.result == 1,
                Color::White => r.result == 2,
            };
            if !won {
                return;
            }
        }
        let Some(mv) = Move::from_u16(r.next) else {
            return;
        };
        let i = match self.tallies[..self.used]
            .iter()
            .position(|m| m.next == r.next)
        {
            Some(i) => i,
            None => {
                let fresh = |replies: Vec<(u16, u64)>| Tally {
                    next: r.next,
                    usi: Usi::of(mv),
                    mv: BookMove {
                        mv,
                        count: 0,
                        results: [0; 3],
                        ponder: None,
                    },
                    last_game: None,
                    replies,
                };
                match self.tallies.get_mut(self.used) {
                    Some(t) => {
                        let mut replies = std::mem::take(&mut t.replies);
                        replies.clear();
                        *t = fresh(replies);
                    }
                    None => self.tallies.push(fresh(Vec::new())),
                }
                self.used += 1;
                self.used - 1
            }
        };
        let t = &mut self.tallies[i];
        // A game counts once per move, however often it plays it here.
        if t.last_game == Some(r.game) {
            return;
        }
        t.last_game = Some(r.game);
        t.mv.count += 1;
        if (1..=3).contains(&r.result) {
            t.mv.results[r.result as usize - 1] += 1;
        }
        if r.reply != 0 {
            match t.replies.iter_mut().find(|(m, _)| *m == r.reply) {
                Some((_, n)) => *n += 1,
                None => t.replies.push((r.reply, 1)),
            }
        }
    }

    fn end(&mut self) {
        let (start, key_end) = self.key;
        let kept = self.first.is_some_and(|(_, ply)| ply < self.opts.max_ply)
            && self.opts.side.is_none_or(|s| s == self.side);
        let side = self.side;
        let mut moves = std::mem::take(&mut self.kept);
        moves.clear();
        if kept {
            moves.extend(
                self.tallies[..self.used]
                    .iter()
                    .filter(|t| t.mv.count >= self.opts.min_count)
                    .map(|t| {
                        let ponder = t
                            .replies
                            .iter()
                            .filter_map(|&(m, n)| Move::from_u16(m).map(|m| (Usi::of(m), m, n)))
                            .max_by(|a, b| {
                                a.2.cmp(&b.2)
                                    .then_with(|| b.0.as_bytes().cmp(a.0.as_bytes()))
                            });
                        let mv = BookMove {
                            ponder: ponder.map(|p| p.1),
                            ..t.mv.clone()
                        };
                        let value = mv.value(side);
                        (mv, t.usi, ponder.map(|p| p.0), value)
                    }),
            );
        }
        if moves.is_empty() {
            self.text.truncate(start);
            self.kept = moves;
            return;
        }
        moves.sort_by(|a, b| {
            b.0.count
                .cmp(&a.0.count)
                .then(b.3.cmp(&a.3))
                .then_with(|| a.1.as_bytes().cmp(b.1.as_bytes()))
        });
        debug_assert_eq!(self.text.len(), key_end);
        let out = &mut self.text;
        out.push(b' ');
        kifudex_shogi::ascii::push_decimal(out, u64::from(self.number));
        out.push(b'\n');
        for (mv, usi, ponder, value) in &moves {
            out.extend_from_slice(usi.as_bytes());
            out.push(b' ');
            match ponder {
                Some(p) => out.extend_from_slice(p.as_bytes()),
                None => out.extend_from_slice(b"none"),
            }
            out.push(b' ');
            if *value < 0 {
                out.push(b'-');
            }
            kifudex_shogi::ascii::push_decimal(out, u64::from(value.unsigned_abs()));
            out.extend_from_slice(b" 0 ");
            kifudex_shogi::ascii::push_decimal(out, mv.count);
            out.push(b'\n');
        }
        self.positions += 1;
        self.moves += moves.len();
        self.kept = moves;
    }

    fn size(&self) -> usize {
        self.text.len()
    }
}
