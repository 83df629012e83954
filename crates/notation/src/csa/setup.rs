//! The start position of a CSA game: `PI` with removed pieces, `P1`–`P9` rows (also with
//! collapsed spaces), `P+`/`P-` piece lists with `00` hands and `AL`, and the side to move.

use kifudex_shogi::{Color, Piece, PieceKind, Position, Square, Strictness};

use super::{column, column_at, piece_code, sign, square_code};
use crate::record::ReadError;

/// Pushes a [`ReadError`].
trait PushError {
    fn push_error(&mut self, line: usize, column: usize, message: impl Into<String>);
}

impl PushError for Vec<ReadError> {
    fn push_error(&mut self, line: usize, column: usize, message: impl Into<String>) {
        self.push(ReadError::new(line, column, message));
    }
}

/// The start position as given so far.
pub(super) struct Setup {
    board: [Option<Piece>; 81],
    /// Pieces in hand by hand index, per colour.
    hands: [[u32; 7]; 2],
    pi: bool,
    rows: bool,
    lists: bool,
    /// The side-to-move line.
    pub(super) side: Option<Color>,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            board: [None; 81],
            hands: [[0; 7]; 2],
            pi: false,
            rows: false,
            lists: false,
            side: None,
        }
    }
}

impl Setup {
    /// `PI…`, `P1`–`P9`, `P+…`, `P-…`.
    pub(super) fn statement(&mut self, s: &str, n: usize, raw: &str, errors: &mut Vec<ReadError>) {
        let col = column(raw, s);
        let b = s.as_bytes();
        match b.get(1) {
            Some(b'I') => self.pi(s, n, raw, errors),
            Some(&r @ b'1'..=b'9') => {
                if self.pi {
                    errors.push_error(
                        n,
                        col,
                        "PI and P1–P9 rows cannot both give the start position (the rows are used)",
                    );
                }
                self.rows = true;
                match row_cells(&s[2..]) {
                    Ok(cells) => {
                        let rank = r - b'0';
                        for (i, cell) in cells.into_iter().enumerate() {
                            if let Some(sq) = Square::new(9 - i as u8, rank) {
                                self.board[sq.index()] = cell;
                            }
                        }
                    }
                    Err(e) => errors.push_error(
                        n,
                        col,
                        format!("row P{}: {e}; the row is left empty", r - b'0'),
                    ),
                }
            }
            Some(&c @ (b'+' | b'-')) => {
                self.lists = true;
                let color = if c == b'+' {
                    Color::Black
                } else {
                    Color::White
                };
                self.piece_list(&s[2..], color, n, raw, errors);
            }
            _ => errors.push_error(
                n,
                col,
                format!("'{s}' is no start-position statement (PI, P1–P9, P+, P-)"),
            ),
        }
    }

    /// `PI` and the pieces taken off the even-game position: `PI82HI22KA`.
    fn pi(&mut self, s: &str, n: usize, raw: &str, errors: &mut Vec<ReadError>) {
        if self.rows {
            let col = column(raw, s);
            errors.push_error(
                n,
                col,
                "PI and P1–P9 rows cannot both give the start position (PI is used)",
            );
        }
        let even = Position::startpos();
        let mut removals = Vec::new();
        let items = &s[2..];
        for (i, item) in items.as_bytes().chunks(4).enumerate() {
            let col = column_at(raw, items, i * 4);
            let sq = (item.len() == 4)
                .then(|| square_code(&item[..2]))
                .flatten()
                .flatten();
            let kind = (item.len() == 4).then(|| piece_code(&item[2..])).flatten();
            match (sq, kind) {
                (Some(sq), Some(kind)) if even.piece_at(sq).is_some_and(|p| p.kind == kind) => {
                    removals.push((sq, kind));
                }
                (Some(sq), Some(kind)) => errors.push_error(
                    n,
                    col,
                    format!(
                        "PI: the even-game position has no {} ({}) on {} to take off",
                        kind.name(),
                        kind.csa(),
                        sq.digits()
                    ),
                ),
                _ => {
                    let text = String::from_utf8_lossy(item);
                    errors.push_error(
                        n,
                        col,
                        format!("PI: '{text}' is no square and piece to take off (like 82HI)"),
                    );
                    break;
                }
            }
        }
        self.pi = true;
        // The removals were checked against the even board above.
        self.board = *even.board();
        for (sq, _) in removals {
            self.board[sq.index()] = None;
        }
    }

    /// The items of a `P+`/`P-` line: `99KY`, `00KI` (a piece in hand), `00AL` (all the rest).
    fn piece_list(
        &mut self,
        items: &str,
        color: Color,
        n: usize,
        raw: &str,
        errors: &mut Vec<ReadError>,
    ) {
        for (i, item) in items.as_bytes().chunks(4).enumerate() {
            let col = column_at(raw, items, i * 4);
            let sq = (item.len() == 4).then(|| square_code(&item[..2])).flatten();
            if sq == Some(None) && item.len() == 4 && &item[2..] == b"AL" {
                self.all_to_hand(color);
                continue;
            }
            let kind = (item.len() == 4).then(|| piece_code(&item[2..])).flatten();
            match (sq, kind) {
                (Some(None), Some(kind)) if kind.index() < 7 => {
                    self.hands[color.index()][kind.index()] += 1;
                }
                (Some(None), Some(kind)) => {
                    errors.push_error(
                        n,
                        col,
                        format!("a hand cannot hold a {} ({})", kind.name(), kind.csa()),
                    );
                }
                (Some(Some(sq)), Some(kind)) => {
                    if self.board[sq.index()].is_some() {
                        errors.push_error(
                            n,
                            col,
                            format!("{} already holds a piece; it is replaced", sq.digits()),
                        );
                    }
                    self.board[sq.index()] = Some(Piece::new(color, kind));
                }
                _ => {
                    let text = String::from_utf8_lossy(item);
                    errors.push_error(
                        n,
                        col,
                        format!("'{text}' is no square and piece (like 99KY, 00KI or 00AL)"),
                    );
                    break;
                }
            }
        }
    }

    /// `AL`: every piece neither on the board nor in a hand goes to `color`'s hand (kings excepted).
    fn all_to_hand(&mut self, color: Color) {
        let mut used = [0u32; 7];
        for p in self.board.iter().flatten() {
            let base = p.kind.unpromoted();
            if base.index() < 7 {
                used[base.index()] += 1;
            }
        }
        for kind in PieceKind::HAND {
            let i = kind.index();
            let held = self.hands[0][i] + self.hands[1][i] + used[i];
            self.hands[color.index()][i] += (kind.total() as u32).saturating_sub(held);
        }
    }

    /// The start position, `first` being the colour of the first move, which gives the side
    /// to move when no line does; `false` when the position is impossible.
    /// Whether the file gave a start position (`PI`, `P1`…`P9`, `P+`/`P-`).
    pub(super) fn states_position(&self) -> bool {
        self.pi || self.rows || self.lists
    }

    pub(super) fn build(
        &self,
        n: usize,
        first: Option<Color>,
        errors: &mut Vec<ReadError>,
    ) -> (Position, bool) {
        let setup = self;
        let side = setup.side.or(first).unwrap_or(Color::Black);
        // No start position at all: the even-game start, as Shogi Wars and many servers'
        // logs leave it unsaid.
        if !setup.pi && !setup.rows && !setup.lists {
            return (Position::startpos().without(&[], side), true);
        }
        let counts = |c: Color| PieceKind::HAND.map(|k| (k, setup.hands[c.index()][k.index()]));
        let hands = kifudex_shogi::hand_from_counts(&counts(Color::Black))
            .and_then(|b| Ok([b, kifudex_shogi::hand_from_counts(&counts(Color::White))?]));
        let made =
            hands.and_then(|h| Position::new(setup.board, h, side, 1, Strictness::PiecesOnly));
        match made {
            Ok(p) => (p, true),
            Err(e) => {
                errors.push_error(
                    n,
                    1,
                    format!("the start position is impossible: {e}; the moves are not read"),
                );
                (Position::empty(), false)
            }
        }
    }
}

/// The nine squares of a `P1`–`P9` row after its name: three characters a square
/// (` * ` or `+FU`), or, where a writer collapsed the spaces, `*` and `+FU` tokens.
fn row_cells(cells: &str) -> Result<[Option<Piece>; 9], String> {
    let b = cells.as_bytes();
    let mut row = [None; 9];
    // The standard layout: each square exactly three characters (the last perhaps cut short
    // by trimmed spaces).
    let strict = (25..=27).contains(&b.len())
        && (0..9).all(|i| {
            let cell = [0, 1, 2].map(|k| b.get(i * 3 + k).copied().unwrap_or(b' '));
            match (sign(cell[0]), piece_code(&cell[1..])) {
                (Some(color), Some(kind)) => {
                    row[i] = Some(Piece::new(color, kind));
                    true
                }
                _ => {
                    row[i] = None;
                    cell.iter().all(|c| matches!(c, b' ' | b'*' | b'.'))
                        && cell.iter().filter(|&&c| c == b'*').count() <= 1
                }
            }
        });
    if strict {
        return Ok(row);
    }
    let mut count = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'.' => i += 1,
            b'*' => {
                if count < 9 {
                    row[count] = None;
                }
                count += 1;
                i += 1;
            }
            c @ (b'+' | b'-') => {
                let kind = b.get(i + 1..i + 3).and_then(piece_code).ok_or_else(|| {
                    format!(
                        "'{}' is no piece",
                        String::from_utf8_lossy(&b[i..(i + 3).min(b.len())])
                    )
                })?;
                if count < 9 {
                    row[count] = sign(c).map(|color| Piece::new(color, kind));
                }
                count += 1;
                i += 3;
            }
            _ => {
                let rest: String = String::from_utf8_lossy(&b[i..]).chars().take(3).collect();
                return Err(format!("'{rest}' is no square (like ' * ' or '+FU')"));
            }
        }
    }
    if count != 9 {
        return Err(format!("{count} squares, not 9"));
    }
    Ok(row)
}
