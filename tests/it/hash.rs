//! Position hashing: the golden table that fixes the on-disk format, incremental updates
//! against full recomputation over random games, and the board transforms.

use kifudex::shogi::{HASH_VERSION, Move, Position, Strictness};

use crate::util::{Rng, pos};

/// `tests/data/zobrist_golden.tsv`: SFEN, full hash, board-only hash. A change here is a
/// database format change: bump HASH_VERSION instead of editing the file.
#[test]
fn golden_hashes_never_change() {
    assert_eq!(HASH_VERSION, 1);
    let golden = include_str!("../data/zobrist_golden.tsv");
    let mut actual = String::new();
    let mut rows = 0;
    for line in golden.lines() {
        let sfen = line.split('\t').next().unwrap();
        // PiecesOnly: the table also holds a real tsume position with nine pawns on a file.
        let p = Position::from_sfen_with(sfen, Strictness::PiecesOnly).unwrap();
        actual.push_str(&format!(
            "{sfen}\t{:016x}\t{:016x}\n",
            p.hash(),
            p.board_hash()
        ));
        rows += 1;
    }
    assert!(rows >= 20, "the golden table needs at least 20 positions");
    assert_eq!(
        actual, golden,
        "position hashes changed: this breaks every database"
    );
}

#[test]
fn hash_covers_side_hands_and_promotion_but_not_the_move_number() {
    let a = pos("lnsgkg1nl/1r4s+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b B 5");
    let b = pos("lnsgkg1nl/1r4s+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b B 7");
    assert_eq!(a.hash(), b.hash());
    let white = pos("lnsgkg1nl/1r4s+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 5");
    assert_ne!(a.hash(), white.hash());
    assert_ne!(a.board_hash(), white.board_hash());
    let other_hand = pos("lnsgkg1nl/1r4s+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b b 5");
    assert_ne!(a.hash(), other_hand.hash());
    assert_eq!(a.board_hash(), other_hand.board_hash());
    let unpromoted = pos("lnsgkg1nl/1r4sB1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b B 5");
    assert_ne!(a.board_hash(), unpromoted.board_hash());
    // Counts matter, not just presence.
    let one = pos("4k4/9/9/9/9/9/9/9/4K4 b P 1");
    let two = pos("4k4/9/9/9/9/9/9/9/4K4 b 2P 1");
    let none = pos("4k4/9/9/9/9/9/9/9/4K4 b - 1");
    assert_ne!(one.hash(), two.hash());
    assert_ne!(none.hash(), one.hash());
    assert_eq!(none.board_hash(), two.board_hash());
}

/// Plays thousands of random legal games. After every move: the incremental hashes equal a
/// full recomputation, SFEN round-trips, and (every 40th position) the move generator and
/// the rule checks of `play` agree on exactly which of all conceivable moves are legal.
#[test]
fn incremental_hash_matches_full_recomputation_over_random_games() {
    let mut rng = Rng::new(0x5eed_1234);
    let mut plies = 0u64;
    let mut cross_checked = 0;
    let mut moves = Vec::new();
    for game in 0..2_000 {
        let mut p = Position::startpos();
        for _ in 0..(60 + rng.below(140)) {
            p.generate_legal(&mut moves);
            if moves.is_empty() {
                break;
            }
            if plies.is_multiple_of(40) {
                cross_check(&p, &moves);
                cross_checked += 1;
            }
            let mv = moves[rng.below(moves.len())];
            let broken = p.play(mv).unwrap();
            assert!(
                broken.is_empty(),
                "game {game}: {mv} broke {:?}",
                broken.first()
            );
            plies += 1;
            assert_eq!(
                p.compute_keys(),
                (p.board_hash(), p.hash() ^ p.board_hash())
            );
            assert_eq!(Position::from_sfen(&p.to_sfen()).as_ref(), Ok(&p));
        }
    }
    assert!(plies > 200_000, "only {plies} plies");
    assert!(cross_checked > 5_000);
}

fn cross_check(p: &Position, legal: &[Move]) {
    let mut accepted = Vec::new();
    for code in 0..=u16::MAX {
        let Some(mv) = Move::from_u16(code) else {
            continue;
        };
        let mut after = p.clone();
        if let Ok(v) = after.play(mv)
            && v.is_empty()
        {
            accepted.push(mv);
        }
    }
    let mut generated = legal.to_vec();
    generated.sort_by_key(|m| m.to_u16());
    accepted.sort_by_key(|m| m.to_u16());
    assert_eq!(generated, accepted, "at {}", p.to_sfen());
}

#[test]
fn mirror_and_flip() {
    let start = Position::startpos();
    let mirrored = start.mirror();
    assert_eq!(
        mirrored.to_sfen(),
        "lnsgkgsnl/1b5r1/ppppppppp/9/9/9/PPPPPPPPP/1R5B1/LNSGKGSNL b - 1"
    );
    assert_eq!(
        start.flip().to_sfen(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    let p = pos("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1");
    assert_eq!(
        p.mirror().to_sfen(),
        "ln6l/kg1+P5/3S1pn2/pP4p1p/1pS2P3/P1P2bPP1/1SG5P/8R/LKb4NL w RGgsn5p 1"
    );
    assert_eq!(
        p.flip().to_sfen(),
        "lkB4nl/8r/1sg5p/p1p2Bpp1/1Ps2p3/Pp4P1P/3s1PN2/KG1+p5/LN6L b GSN5Prg 1"
    );
    for q in [&start, &p] {
        assert_eq!(&q.mirror().mirror(), q);
        assert_eq!(&q.flip().flip(), q);
        assert_eq!(q.mirror().compute_keys().0, q.mirror().board_hash());
        // The game tree is the same seen in a mirror or from the other side.
        assert_eq!(q.mirror().perft(2), q.perft(2));
        assert_eq!(q.flip().perft(2), q.perft(2));
    }
    assert!(Position::from_sfen_with(&p.flip().to_sfen(), Strictness::Full).is_ok());
}
