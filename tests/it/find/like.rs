//! `find --like` against a brute force over every position of a generated collection.

use std::collections::BTreeMap;

use kifudex::find::{self, Control, LikeOptions};
use kifudex::query::GameFilter;
use kifudex::shogi::{Color, Piece, PieceKind, Position, Square, Strictness};
use kifudex::store::Store;

use super::{build, side_of};
use crate::util::{Rng, TempDb};

fn differ(a: &Position, b: &Position) -> Vec<Square> {
    Square::all()
        .filter(|&s| a.piece_at(s) != b.piece_at(s))
        .collect()
}

/// A target near a position of the collection: the position itself, or with a piece taken
/// off or put on an empty square.
fn target(rng: &mut Rng, pos: &Position) -> Position {
    let mut board = *pos.board();
    for _ in 0..rng.below(3) {
        let s = rng.below(81);
        match board[s] {
            Some(p) if p.kind != PieceKind::King => board[s] = None,
            None => board[s] = Some(Piece::new(side_of(rng), PieceKind::Pawn)),
            _ => {}
        }
    }
    let hands = [*pos.hand(Color::Black), *pos.hand(Color::White)];
    Position::new(board, hands, pos.side_to_move(), 1, Strictness::PiecesOnly)
        .unwrap_or_else(|_| pos.clone())
}

#[test]
fn like_agrees_with_a_brute_force_replay() {
    let dir = TempDb::new("find-like");
    let (db, games) = build(&dir, 200);
    let store = Store::open_read_only(&db).unwrap();
    let mut rng = Rng::new(77);
    for n in 0..20 {
        let g = &games[rng.below(games.len())];
        let pos = &g.positions[rng.below(g.positions.len())];
        let want_pos = target(&mut rng, pos);
        let diff = rng.below(4) as u32;
        let ignore_hands = rng.below(2) == 0;
        // Every position near enough: (game, ply) -> squares that differ.
        let mut want: BTreeMap<(i64, u32), Vec<Square>> = BTreeMap::new();
        for g in &games {
            for (ply, p) in g.positions.iter().enumerate() {
                let d = differ(p, &want_pos);
                let hands =
                    ignore_hands || Color::ALL.iter().all(|&c| p.hand(c) == want_pos.hand(c));
                if p.side_to_move() == want_pos.side_to_move() && d.len() as u32 <= diff && hands {
                    want.insert((g.id, ply as u32), d);
                }
            }
        }
        let opts = LikeOptions {
            diff,
            ignore_hands,
            all: true,
            limit: 100_000,
        };
        let got = find::like(
            &store,
            &want_pos,
            &GameFilter::default(),
            &opts,
            &Control::default(),
        )
        .unwrap();
        let got_map: BTreeMap<(i64, u32), Vec<Square>> = got
            .rows
            .iter()
            .map(|r| {
                let squares = r.squares.iter().map(|s| s.square.parse_square()).collect();
                ((r.game.id, r.ply), squares)
            })
            .collect();
        let sfen = want_pos.to_sfen();
        assert_eq!(
            got_map, want,
            "like {n}: {sfen} diff {diff} ignore_hands {ignore_hands}"
        );
        assert_eq!(got.positions as usize, want.len());
        for r in &got.rows {
            assert_eq!(r.diff as usize, r.squares.len());
            let p = &games.iter().find(|g| g.id == r.game.id).unwrap().positions[r.ply as usize];
            for s in &r.squares {
                let sq = s.square.parse_square();
                assert_eq!(s.game, p.piece_at(sq).map(Piece::sfen));
                assert_eq!(s.given, want_pos.piece_at(sq).map(Piece::sfen));
            }
        }
        // Each game's nearest position, the earliest of the nearest; nearest first.
        let mut nearest: BTreeMap<i64, (u32, u32)> = BTreeMap::new();
        for ((id, ply), d) in &want {
            let e = nearest.entry(*id).or_insert((d.len() as u32, *ply));
            if (d.len() as u32) < e.0 {
                *e = (d.len() as u32, *ply);
            }
        }
        let mut want_rows: Vec<(u32, i64, u32)> =
            nearest.iter().map(|(id, (d, p))| (*d, *id, *p)).collect();
        want_rows.sort();
        let opts = LikeOptions {
            all: false,
            limit: 7,
            ..opts
        };
        let got = find::like(
            &store,
            &want_pos,
            &GameFilter::default(),
            &opts,
            &Control::default(),
        )
        .unwrap();
        let got_rows: Vec<(u32, i64, u32)> = got
            .rows
            .iter()
            .map(|r| (r.diff, r.game.id, r.ply))
            .collect();
        want_rows.truncate(7);
        assert_eq!(got_rows, want_rows, "like {n} (nearest): {sfen}");
        assert_eq!(got.games as usize, nearest.len());
    }
}

trait ParseSquare {
    fn parse_square(&self) -> Square;
}

impl ParseSquare for String {
    fn parse_square(&self) -> Square {
        let b = self.as_bytes();
        Square::new(b[0] - b'0', b[1] - b'a' + 1).unwrap()
    }
}
