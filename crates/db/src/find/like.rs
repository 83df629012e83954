//! Similar positions (`find --like`): the positions of every game, with the given side to
//! move, whose boards differ from the given one on at most K squares, and whose hands are the
//! same (unless hands are ignored). The number of squares that differ is kept move by move
//! (a move changes two squares at most), so a position costs a few comparisons.

use kifudex_shogi::{Color, Hand, Move, Piece, Position, Square};

use super::board::Board;

/// The position looked for, and how near a position must come.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    board: [Option<Piece>; 81],
    hands: [Hand; 2],
    side: Color,
    /// The most squares that may differ.
    pub diff: u32,
    pub ignore_hands: bool,
}

/// A square on which a position found differs from the one given.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SquareDiff {
    /// USI form (`5e`).
    pub square: String,
    /// KIF form (`５五`).
    pub japanese: String,
    /// What stands there in the game (SFEN letter, `+B` for a horse), or null.
    pub game: Option<String>,
    /// What stands there in the position given.
    pub given: Option<String>,
    #[serde(skip)]
    pieces: (Option<Piece>, Option<Piece>),
}

impl SquareDiff {
    fn new(sq: Square, game: Option<Piece>, given: Option<Piece>) -> SquareDiff {
        SquareDiff {
            square: sq.to_string(),
            japanese: japanese_square(sq),
            game: game.map(Piece::sfen),
            given: given.map(Piece::sfen),
            pieces: (game, given),
        }
    }

    /// In a KIF player's words: `５五 ▲角 (given ・)`.
    pub fn kif(&self) -> String {
        let piece = |p: Option<Piece>| match p {
            None => "・".to_string(),
            Some(p) => format!(
                "{}{}",
                if p.color == Color::Black {
                    "▲"
                } else {
                    "△"
                },
                super::explain::kanji(p.kind)
            ),
        };
        format!(
            "{} {} (given {})",
            self.japanese,
            piece(self.pieces.0),
            piece(self.pieces.1)
        )
    }
}

/// `５五` for 5e.
pub(crate) fn japanese_square(sq: Square) -> String {
    const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
    const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    format!(
        "{}{}",
        FILES[sq.file() as usize - 1],
        RANKS[sq.rank() as usize - 1]
    )
}

/// A position of a game near enough.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Near {
    pub ply: u32,
    pub diff: u32,
    pub squares: Vec<SquareDiff>,
}

impl Target {
    pub fn new(pos: &Position, diff: u32, ignore_hands: bool) -> Target {
        Target {
            board: *pos.board(),
            hands: [*pos.hand(Color::Black), *pos.hand(Color::White)],
            side: pos.side_to_move(),
            diff,
            ignore_hands,
        }
    }

    /// Whether the position (its squares differing `diff` times) is near enough.
    fn near(&self, pos: &Board, diff: u32) -> bool {
        diff <= self.diff
            && pos.side_to_move() == self.side
            && (self.ignore_hands
                || (*pos.hand(Color::Black) == self.hands[0]
                    && *pos.hand(Color::White) == self.hands[1]))
    }

    fn squares(&self, pos: &Board) -> Vec<SquareDiff> {
        Square::all()
            .filter(|&s| pos.piece_at(s) != self.board[s.index()])
            .map(|s| SquareDiff::new(s, pos.piece_at(s), self.board[s.index()]))
            .collect()
    }

    fn differs(&self, pos: &Board, sq: Square) -> u32 {
        u32::from(pos.piece_at(sq) != self.board[sq.index()])
    }

    /// The positions of a game near enough: with `all`, each of them; else the nearest (the
    /// earliest of the nearest); and how many positions were near enough. `wanted(diff, ply)`
    /// says whether a row is worth its list of squares (the caller keeps only the best rows).
    pub fn scan(
        &self,
        start: &Position,
        moves: &[Move],
        all: bool,
        wanted: &mut dyn FnMut(u32, u32) -> bool,
    ) -> (Vec<Near>, u64) {
        let mut pos = Board::of(start);
        let mut diff: u32 = Square::all().map(|s| self.differs(&pos, s)).sum();
        let mut out: Vec<Near> = Vec::new();
        let mut count = 0u64;
        let mut best: Option<(u32, u32)> = None;
        let mut look = |pos: &Board, ply: u32, diff: u32, out: &mut Vec<Near>| {
            if !self.near(pos, diff) {
                return;
            }
            count += 1;
            if all {
                if wanted(diff, ply) {
                    out.push(Near {
                        ply,
                        diff,
                        squares: self.squares(pos),
                    });
                }
            } else if best.is_none_or(|(d, _)| diff < d) {
                best = Some((diff, ply));
                out.clear();
                if wanted(diff, ply) {
                    out.push(Near {
                        ply,
                        diff,
                        squares: self.squares(pos),
                    });
                }
            }
        };
        look(&pos, 0, diff, &mut out);
        for (i, &mv) in moves.iter().enumerate() {
            let changed = [mv.from(), Some(mv.to())];
            for s in changed.into_iter().flatten() {
                diff -= self.differs(&pos, s);
            }
            if pos.play(mv).is_none() {
                break;
            }
            for s in changed.into_iter().flatten() {
                diff += self.differs(&pos, s);
            }
            look(&pos, i as u32 + 1, diff, &mut out);
        }
        (out, count)
    }
}
