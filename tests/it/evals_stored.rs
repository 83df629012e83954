//! The stored form of evaluations (4 bytes an evaluated ply): round trips of the samples and
//! of random evaluations against what a separate model says must come back, the sizes, and
//! the refusal of malformed bytes.

use kifudex::evals::stored::{
    self, MAX_DEPTH, StoredError, StoredEval, decode, encode, encode_stored,
};
use kifudex::evals::{self, Eval, Score, Source};
use kifudex::notation::read_bytes;
use kifudex::shogi::Color;

use crate::util::Rng;

/// What storing must keep of an evaluation, computed here without the codec: the value
/// clamped to 16 bits (flagged), a mate's distance to 15 bits, the depth to 1–63.
fn model(e: &Eval<'_>) -> StoredEval {
    let (score, clamped) = match e.score {
        Score::Value(v) if v > 32767 => (Score::Value(32767), true),
        Score::Value(v) if v < -32768 => (Score::Value(-32768), true),
        Score::Mate {
            winner,
            plies: Some(p),
        } if p > 32767 => (
            Score::Mate {
                winner,
                plies: Some(32767),
            },
            false,
        ),
        s => (s, false),
    };
    StoredEval {
        ply: e.ply,
        score,
        clamped,
        depth: match e.depth {
            None | Some(0) => None,
            Some(d) => Some(d.min(63)),
        },
        source: e.source,
        analysis: e.analysis,
    }
}

#[test]
fn every_sample_round_trips_in_four_bytes_an_evaluation() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/evals");
    let mut total = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let rec = read_bytes(&bytes, Some(&path)).games.remove(0);
        let evals = evals::read(&rec);
        assert!(!evals.is_empty(), "{}", path.display());
        let stored = encode(&evals).unwrap();
        // No evaluation in the samples is 16 plies or more after the one before it.
        assert_eq!(stored.len(), 4 * evals.len(), "{}", path.display());
        let want: Vec<StoredEval> = evals.iter().map(model).collect();
        assert_eq!(decode(&stored).unwrap(), want, "{}", path.display());
        total += evals.len();
    }
    assert!(total >= 30, "{total}");
}

#[test]
fn no_evaluations_store_nothing() {
    assert_eq!(encode(&[]).unwrap(), Vec::<u8>::new());
    assert_eq!(decode(&[]).unwrap(), []);
}

fn random_eval(rng: &mut Rng, ply: usize) -> Eval<'static> {
    let score = match rng.below(6) {
        0 => Score::Mate {
            winner: if rng.below(2) == 0 {
                Color::Black
            } else {
                Color::White
            },
            plies: if rng.below(4) == 0 {
                None
            } else {
                Some(match rng.below(3) {
                    0 => rng.below(40) as u32,
                    1 => 32767 + rng.below(3) as u32,
                    _ => rng.next_u64() as u32,
                })
            },
        },
        1 => Score::Value(rng.next_u64() as i32),
        2 => Score::Value([i32::MIN, i32::MAX, 32767, 32768, -32768, -32769][rng.below(6)]),
        _ => Score::Value(rng.below(4001) as i32 - 2000),
    };
    Eval {
        ply,
        score,
        depth: match rng.below(4) {
            0 => None,
            1 => Some(rng.below(200) as u32),
            _ => Some(rng.below(40) as u32),
        },
        nodes: Some(rng.next_u64()),
        source: Source::ALL[rng.below(Source::ALL.len())],
        analysis: rng.below(2) == 0,
        pv: None,
    }
}

#[test]
fn random_evaluations_round_trip_with_gaps_of_every_length() {
    let mut rng = Rng::new(0x5eed_e7a1);
    for round in 0..400 {
        let n = rng.below(60);
        let mut next = 0usize;
        let mut evals = Vec::new();
        let mut skips = 0;
        for _ in 0..n {
            let gap = match rng.below(10) {
                0 => 16 + rng.below(300),
                1 if round % 50 == 0 => (1 << 24) + rng.below(100),
                2 => 15,
                _ => rng.below(3),
            };
            let ply = next + gap;
            // A gap beyond 15 takes skip words, each of at most 2^24 - 1 plies.
            let mut g = gap;
            while g > 15 {
                g -= g.min((1 << 24) - 1);
                skips += 1;
            }
            evals.push(random_eval(&mut rng, ply));
            next = ply + 1;
        }
        let bytes = encode(&evals).unwrap();
        assert_eq!(bytes.len(), 4 * (evals.len() + skips), "round {round}");
        let want: Vec<StoredEval> = evals.iter().map(model).collect();
        assert_eq!(decode(&bytes).unwrap(), want, "round {round}");
        // Encoding what was decoded gives the same bytes.
        assert_eq!(encode_stored(&want).unwrap(), bytes, "round {round}");
    }
}

#[test]
fn the_layout_is_as_documented() {
    let e = |ply, score, depth, source, analysis| Eval {
        ply,
        score,
        depth,
        nodes: None,
        source,
        analysis,
        pv: None,
    };
    let bytes = encode(&[
        // Ply 3: gap 3, value -35, depth 20, ShogiGUI (2), analysis.
        e(3, Score::Value(-35), Some(20), Source::ShogiGui, true),
        // Ply 4: gap 0, a mate for gote in 7, depth unknown, CSA (0).
        e(
            4,
            Score::Mate {
                winner: Color::White,
                plies: Some(7),
            },
            None,
            Source::Csa,
            false,
        ),
        // Ply 40: a skip word over the 35 plies after ply 4, then gap 0; a value beyond 16
        // bits, depth 99 → 63, engine (6).
        e(40, Score::Value(100_000), Some(99), Source::Engine, false),
    ])
    .unwrap();
    let words: Vec<u32> = bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(
        words,
        [
            (-35i16 as u16 as u32) | 20 << 18 | 2 << 24 | 1 << 27 | 3 << 28,
            7 | 0x8000 | 2 << 16,
            35 | 7 << 24,
            0x7fff | 1 << 16 | MAX_DEPTH << 18 | 6 << 24,
        ]
    );
}

#[test]
fn malformed_bytes_are_refused_with_the_reason() {
    assert_eq!(decode(&[1, 2, 3]), Err(StoredError::Length(3)));
    let word = |w: u32| w.to_le_bytes().to_vec();
    // A clamped value that is not at an end of the range.
    assert!(matches!(
        decode(&word(5 | 1 << 16)),
        Err(StoredError::Word { index: 0, .. })
    ));
    // A mate of unknown distance with a distance.
    let mut two = word(0);
    two.extend(word(3 | 3 << 16));
    assert!(matches!(
        decode(&two),
        Err(StoredError::Word { index: 1, .. })
    ));
    // A skip word with other bits set, and one skipping nothing.
    assert!(decode(&word(5 | 7 << 24 | 1 << 28)).is_err());
    assert!(decode(&word(7 << 24)).is_err());
    let message = decode(&word(7 << 24)).unwrap_err().to_string();
    assert!(message.contains("word 0"), "{message}");
    // Evaluations out of order cannot be stored.
    let e = |ply| Eval {
        ply,
        score: Score::Value(0),
        depth: None,
        nodes: None,
        source: Source::Csa,
        analysis: false,
        pv: None,
    };
    assert_eq!(
        encode(&[e(5), e(5)]),
        Err(StoredError::Order { ply: 5, after: 5 })
    );
    assert_eq!(
        stored::encode(&[e(5), e(2)]).unwrap_err().to_string(),
        "the evaluations are not in strictly increasing ply order (ply 2 after 5)"
    );
    // Any bytes decode or are refused: nothing panics.
    let mut rng = Rng::new(42);
    for _ in 0..2000 {
        let n = rng.below(9) * 4;
        let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
        if let Ok(evals) = decode(&bytes) {
            assert!(evals.windows(2).all(|w| w[0].ply < w[1].ply));
        }
    }
}
