//! The rules: playing a move with every rule it breaks reported, check, mate and repetition.
//!
//! Records are data, so a move that breaks a rule is still played when it is physically
//! possible; only a move that cannot be made on the board at all is refused.

use std::fmt;

use super::attacks;
use super::moves::Move;
use super::position::Position;
use super::types::{Color, Hand, Piece, PieceKind, Square};

/// A rule of shogi that a physically possible move can still break.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// 二歩: a pawn dropped on a file that already holds an unpromoted pawn of the same side.
    TwoPawns,
    /// 打ち歩詰め: a pawn drop that gives checkmate.
    DropPawnMate,
    /// The mover's own king left in check, or moved into check.
    KingInCheck,
    /// 行き所のない駒: a piece dropped, or moved without a forced promotion, where it can
    /// never move again (pawn or lance on the last rank, knight on the last two).
    DeadPiece,
    /// A promotion with neither origin nor destination in the promotion zone.
    IllegalPromotion,
    /// A piece moved in a way it cannot move (wrong direction, too far, or through a piece).
    IllegalMovement,
    /// An entering-king declaration (入玉宣言, CSA `%KACHI`) that does not meet the CSA
    /// 27-point rule. Not a move: it is flagged at the declaration's ply, and the record's
    /// result stands (the rule set that decided the game is not in the file).
    InvalidDeclaration,
}

impl Rule {
    pub const ALL: [Rule; 7] = [
        Rule::TwoPawns,
        Rule::DropPawnMate,
        Rule::KingInCheck,
        Rule::DeadPiece,
        Rule::IllegalPromotion,
        Rule::IllegalMovement,
        Rule::InvalidDeclaration,
    ];

    /// The stable name used in JSON output and the database.
    pub fn code(self) -> &'static str {
        match self {
            Rule::TwoPawns => "two_pawns",
            Rule::DropPawnMate => "drop_pawn_mate",
            Rule::KingInCheck => "king_in_check",
            Rule::DeadPiece => "dead_piece",
            Rule::IllegalPromotion => "illegal_promotion",
            Rule::IllegalMovement => "illegal_movement",
            Rule::InvalidDeclaration => "invalid_declaration",
        }
    }

    pub fn from_code(code: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.code() == code)
    }

    /// A sentence for users.
    pub fn description(self) -> &'static str {
        match self {
            Rule::TwoPawns => {
                "a pawn dropped on a file that already has the side's unpromoted pawn (二歩)"
            }
            Rule::DropPawnMate => "a pawn drop that gives checkmate (打ち歩詰め)",
            Rule::KingInCheck => "the mover's king is left in check",
            Rule::DeadPiece => "a piece placed where it can never move again (行き所のない駒)",
            Rule::IllegalPromotion => "a promotion outside the promotion zone",
            Rule::IllegalMovement => "a piece moved in a way it cannot move",
            Rule::InvalidDeclaration => {
                "an entering-king declaration (入玉宣言) short of the 27-point rule"
            }
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// The set of rules one move broke; empty for a legal move.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Violations(u8);

impl Violations {
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub fn contains(self, rule: Rule) -> bool {
        self.0 & (1 << rule as u8) != 0
    }

    #[inline]
    pub fn insert(&mut self, rule: Rule) {
        self.0 |= 1 << rule as u8;
    }

    /// The rules broken, in [`Rule::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Rule> {
        Rule::ALL.into_iter().filter(move |r| self.contains(*r))
    }

    /// The first rule broken, if any.
    pub fn first(self) -> Option<Rule> {
        self.iter().next()
    }
}

/// Why a move cannot be made on the board at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("there is no piece on {0}")]
    EmptyOrigin(Square),
    #[error("the piece on {square} is {owner}'s, but it is {mover}'s move", owner = .owner.name(), mover = .owner.opponent().name())]
    NotMoversPiece { square: Square, owner: Color },
    #[error("{0} already holds a piece of the side to move")]
    OwnPieceOnDestination(Square),
    #[error("the move would capture the king on {0}")]
    CapturesKing(Square),
    #[error("a {} cannot promote", .0.name())]
    CannotPromote(PieceKind),
    #[error("{} has no {} in hand", .color.name(), .kind.name())]
    NotInHand { color: Color, kind: PieceKind },
    #[error("cannot drop on {0}: the square is occupied")]
    DropOnOccupied(Square),
}

impl Position {
    /// Plays `mv` if it is physically possible, and returns the rules it broke (empty for a
    /// legal move). On `Err` the position is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<Violations, MoveError> {
        let us = self.side_to_move();
        let mut broken = self.rules_before(mv)?;
        self.apply(mv);
        if let Move::Drop {
            kind: PieceKind::Pawn,
            to,
        } = mv
            && self.is_pawn_drop_mate(to)
        {
            broken.insert(Rule::DropPawnMate);
        }
        if self.is_king_attacked(us) {
            broken.insert(Rule::KingInCheck);
        }
        Ok(broken)
    }

    /// Plays `mv` if it is physically possible, as [`Position::play`] does, without working
    /// out which rules it broke: the same position afterwards, and the same error (the
    /// position unchanged), for less work. For writers that replay a record to name its
    /// moves.
    pub fn play_quietly(&mut self, mv: Move) -> Result<(), MoveError> {
        self.check_possible(mv)?;
        self.apply(mv);
        Ok(())
    }

    /// Whether `mv` is a legal move here: what [`Position::play`] would report without
    /// playing it.
    pub fn is_legal(&self, mv: Move) -> bool {
        if !matches!(self.rules_before(mv), Ok(v) if v.is_empty())
            || !self.is_safe(mv, self.in_check())
        {
            return false;
        }
        match mv {
            // Only a pawn dropped in front of the enemy king can be 打ち歩詰め.
            Move::Drop {
                kind: PieceKind::Pawn,
                to,
            } if to
                .offset(0, self.forward())
                .is_some_and(|s| self.king(self.side_to_move().opponent()) == Some(s)) =>
            {
                let mut after = self.clone();
                after.apply(mv);
                !after.is_pawn_drop_mate(to)
            }
            _ => true,
        }
    }

    /// The rank step of the side to move's forward direction.
    fn forward(&self) -> i8 {
        match self.side_to_move() {
            Color::Black => -1,
            Color::White => 1,
        }
    }

    /// Whether `mv` is physically possible, and the rules it breaks that can be told before
    /// it is played (all but 打ち歩詰め and the mover's king left in check).
    fn rules_before(&self, mv: Move) -> Result<Violations, MoveError> {
        let piece = self.check_possible(mv)?;
        let us = self.side_to_move();
        let mut broken = Violations::default();
        match mv {
            Move::Board { from, to, promote } => {
                let kind = match piece.kind.promoted() {
                    Some(promoted) if promote => {
                        if !from.in_zone(us) && !to.in_zone(us) {
                            broken.insert(Rule::IllegalPromotion);
                        }
                        promoted
                    }
                    _ => piece.kind,
                };
                if !attacks::reaches(self.occupied(), piece, from, to) {
                    broken.insert(Rule::IllegalMovement);
                }
                if to.depth_for(us) < kind.min_depth() {
                    broken.insert(Rule::DeadPiece);
                }
            }
            Move::Drop { kind, to } => {
                if to.depth_for(us) < kind.min_depth() {
                    broken.insert(Rule::DeadPiece);
                }
                if kind == PieceKind::Pawn && self.has_pawn_on_file(us, to.file()) {
                    broken.insert(Rule::TwoPawns);
                }
            }
        }
        Ok(broken)
    }

    /// Whether `mv` is physically possible (the errors of [`Position::play`], in its order),
    /// and the piece it moves or drops.
    #[inline]
    fn check_possible(&self, mv: Move) -> Result<Piece, MoveError> {
        check_possible(
            self.board(),
            self.hand(self.side_to_move()),
            self.side_to_move(),
            mv,
        )
    }

    /// Whether `color` has an unpromoted pawn on `file`.
    pub fn has_pawn_on_file(&self, color: Color, file: u8) -> bool {
        let pawn = Some(Piece::new(color, PieceKind::Pawn));
        (1..=9).any(|rank| Square::new(file, rank).is_some_and(|s| self.piece_at(s) == pawn))
    }

    /// After a pawn was just dropped on `to`: whether it checks the side now to move and
    /// that side has no legal reply.
    pub(crate) fn is_pawn_drop_mate(&self, to: Square) -> bool {
        let them = self.side_to_move();
        let Some(k) = self.king(them) else {
            return false;
        };
        let forward = -self.forward();
        // No reply to a pawn's check is a pawn drop (a drop cannot block an adjacent check),
        // so the replies can be searched without this rule: no recursion.
        to.offset(0, forward) == Some(k) && !self.has_legal_move()
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }
}

/// Whether `mv` is physically possible for `us` on `board` with `hand` (the mover's): the
/// errors of [`Position::play`], in its order; and the piece it moves or drops. Always
/// inlined: on its own it returns its large `Result` through memory, which cost every move
/// read 5% more instructions.
#[inline(always)]
pub(crate) fn check_possible(
    board: &[Option<Piece>; 81],
    hand: &Hand,
    us: Color,
    mv: Move,
) -> Result<Piece, MoveError> {
    match mv {
        Move::Board { from, to, promote } => {
            let piece = board[from.index()].ok_or(MoveError::EmptyOrigin(from))?;
            if piece.color != us {
                return Err(MoveError::NotMoversPiece {
                    square: from,
                    owner: piece.color,
                });
            }
            match board[to.index()] {
                Some(p) if p.color == us => return Err(MoveError::OwnPieceOnDestination(to)),
                Some(p) if p.kind == PieceKind::King => {
                    return Err(MoveError::CapturesKing(to));
                }
                _ => {}
            }
            if promote && piece.kind.promoted().is_none() {
                return Err(MoveError::CannotPromote(piece.kind));
            }
            Ok(piece)
        }
        Move::Drop { kind, to } => {
            if hand.count(kind) == 0 {
                return Err(MoveError::NotInHand { color: us, kind });
            }
            if board[to.index()].is_some() {
                return Err(MoveError::DropOnOccupied(to));
            }
            Ok(Piece::new(us, kind))
        }
    }
}

/// How a repetition (千日手) ends the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// The same position four times: a draw.
    Draw,
    /// The same position four times while one side gave check with every move of the
    /// cycle (連続王手の千日手): that side loses.
    PerpetualCheck { loser: Color },
}

/// The positions of a game so far, for repetition detection.
#[derive(Clone, Debug, Default)]
pub struct History {
    /// (hash, side to move, side to move in check) for every position, the start first.
    entries: Vec<(u64, Color, bool)>,
}

impl History {
    /// A history holding only the start position.
    pub fn new(start: &Position) -> History {
        let mut h = History::default();
        h.push(start);
        h
    }

    /// Records the position reached by the next move.
    pub fn push(&mut self, pos: &Position) {
        self.entries
            .push((pos.hash(), pos.side_to_move(), pos.in_check()));
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many times the latest position has occurred, itself included.
    pub fn occurrences(&self) -> usize {
        match self.entries.last() {
            Some(&(h, _, _)) => self.entries.iter().filter(|e| e.0 == h).count(),
            None => 0,
        }
    }

    /// Whether the latest position ends the game by repetition, and how.
    pub fn repetition(&self) -> Option<Repetition> {
        let &(hash, _, _) = self.entries.last()?;
        let seen: Vec<usize> = (0..self.entries.len())
            .filter(|&i| self.entries[i].0 == hash)
            .collect();
        if seen.len() < 4 {
            return None;
        }
        let first = seen[seen.len() - 4];
        // Each position after `first` tells whether the move that reached it gave check.
        let checked_all = |victim: Color| {
            self.entries[first + 1..]
                .iter()
                .filter(|e| e.1 == victim)
                .all(|e| e.2)
        };
        match (checked_all(Color::White), checked_all(Color::Black)) {
            (true, false) => Some(Repetition::PerpetualCheck {
                loser: Color::Black,
            }),
            (false, true) => Some(Repetition::PerpetualCheck {
                loser: Color::White,
            }),
            _ => Some(Repetition::Draw),
        }
    }
}
