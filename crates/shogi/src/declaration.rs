//! The entering-king declaration (入玉宣言法) as the CSA and computer-shogi tournaments rule it:
//! the 27-point rule behind the CSA record terminal `%KACHI`.

use super::position::Position;
use super::types::{Color, PieceKind, Square};

impl Position {
    /// The points the side to move's declaration counts: each rook or bishop (promoted or not)
    /// 5, every other piece 1, over its pieces in the opponent's camp (the far three ranks),
    /// king excluded, and its pieces in hand. Also how many of those camp pieces there are.
    pub fn declaration_points(&self, color: Color) -> (u32, u32) {
        let value = |kind: PieceKind| match kind.unpromoted() {
            PieceKind::Rook | PieceKind::Bishop => 5,
            _ => 1,
        };
        let mut points = 0;
        let mut in_camp = 0;
        for s in Square::all() {
            if let Some(p) = self.piece_at(s)
                && p.color == color
                && p.kind != PieceKind::King
                && s.in_zone(color)
            {
                points += value(p.kind);
                in_camp += 1;
            }
        }
        for (kind, n) in self.hand(color).iter() {
            points += value(kind) * n as u32;
        }
        (points, in_camp)
    }

    /// Whether the side to move may declare a win here under the CSA rule: its king in the
    /// opponent's camp and not in check, at least ten other pieces of its own there, and at
    /// least 28 points for Black (先手) or 27 for White (後手) (see
    /// [`Position::declaration_points`]). The time left, the rule's last condition, is not
    /// part of a position.
    pub fn can_declare_win(&self) -> bool {
        let us = self.side_to_move();
        let Some(king) = self.king(us) else {
            return false;
        };
        let (points, in_camp) = self.declaration_points(us);
        let needed = if us == Color::Black { 28 } else { 27 };
        king.in_zone(us) && !self.in_check() && in_camp >= 10 && points >= needed
    }
}
