//! A short list of squares kept inline, so that resolving a move allocates nothing.

use std::ops::Deref;

use kifudex_shogi::Square;

/// At most [`Squares::CAP`] squares, in the order pushed. The pieces of one kind of one side
/// that can reach one square are never more than that: a side has at most 18 of a kind.
#[derive(Copy, Clone, Debug)]
pub(super) struct Squares {
    len: usize,
    buf: [Square; Squares::CAP],
}

impl Squares {
    pub(super) const CAP: usize = 18;

    /// An empty list; `fill` only fills the unused slots.
    pub(super) fn new(fill: Square) -> Squares {
        Squares {
            len: 0,
            buf: [fill; Squares::CAP],
        }
    }

    /// Appends `sq` (ignored when the list is full, which no position can make happen).
    #[inline]
    pub(super) fn push(&mut self, sq: Square) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = sq;
            self.len += 1;
        }
    }

    /// Sorts the list (by square index: board order).
    pub(super) fn sort(&mut self) {
        self.buf[..self.len].sort_unstable();
    }
}

impl Deref for Squares {
    type Target = [Square];

    fn deref(&self) -> &[Square] {
        &self.buf[..self.len]
    }
}
