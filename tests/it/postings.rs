//! The position index's block format and move codes (store::postings::block).

use kifudex::shogi::{Move, PieceKind, Square};
use kifudex::store::postings::block::{Block, Entry, code_move, encode, encoded_len, move_code};

#[test]
fn a_block_reads_back_every_entry_and_finds_a_key() {
    let mut entries = Vec::new();
    let mut key = 1_000_000u64;
    for i in 0..400i64 {
        key += (i as u64 * 7919) % 5000;
        entries.push(Entry {
            key,
            game: 100 + (i * 31) % 997,
            next: (i * 13 % 13690) as u16,
        });
    }
    entries.sort();
    let data = encode(&entries, 100);
    assert_eq!(data.len(), encoded_len(400, [data[2], data[3], data[4]]));
    let block = Block::parse(&data).unwrap();
    assert_eq!(block.len(), 400);
    let back: Vec<Entry> = block.entries(entries[0].key, 100).collect();
    assert_eq!(back, entries);
    let k = entries[200].key;
    let want: Vec<Entry> = entries.iter().filter(|e| e.key == k).copied().collect();
    assert!(!want.is_empty());
    assert_eq!(block.find(entries[0].key, k, 100), want);
    assert_eq!(block.find(entries[0].key, k + 1, 100), Vec::new());
    // Cut short, it is no block.
    assert!(Block::parse(&data[..data.len() - 1]).is_none());
    assert!(Block::parse(&[]).is_none());
}

/// The entries of a key whose games a set takes, found by bisection in a block of that key
/// alone (a sparse set) and by testing each entry (a dense one, or a block of several keys):
/// the same as a brute force, in order, repeated games included; and `f` stops the scan.
#[test]
fn a_block_finds_the_entries_of_the_games_a_set_takes() {
    use kifudex::store::GameSet;
    let key = 77_777u64;
    let mut one_key = Vec::new();
    for i in 0..1500i64 {
        let game = 10 + i * 3;
        one_key.push(Entry {
            key,
            game,
            next: (i % 50) as u16,
        });
        // Some games reach the position twice.
        if i % 97 == 0 {
            one_key.push(Entry { key, game, next: 7 });
        }
    }
    one_key.sort();
    let mut mixed = one_key.clone();
    mixed.push(Entry {
        key: key - 5,
        game: 12,
        next: 1,
    });
    mixed.push(Entry {
        key: key + 9,
        game: 13,
        next: 2,
    });
    mixed.sort();
    let sparse = GameSet::from_ids((0..5000).map(|i| 10 + i * 91).chain([10, 4507, 4508]));
    let dense = GameSet::from_ids((0..4600).filter(|g| g % 3 != 0));
    assert!(sparse.is_sparse() && !dense.is_sparse());
    for entries in [&one_key, &mixed] {
        let data = encode(entries, 5);
        let block = Block::parse(&data).unwrap();
        let first = entries[0].key;
        for (set, is_sparse) in [(&sparse, true), (&dense, false), (&sparse, false)] {
            let want: Vec<Entry> = entries
                .iter()
                .filter(|e| e.key == key && set.contains(e.game))
                .copied()
                .collect();
            assert!(want.len() > 10, "{}", want.len());
            // The entries found while `f` goes on up to `most` of them, and whether all were.
            let taken = |most: usize| {
                let mut got = Vec::new();
                let all = block.find_each_taken(
                    first,
                    key,
                    5,
                    is_sparse,
                    |g| set.next_from(g),
                    |e| {
                        got.push(e);
                        got.len() < most
                    },
                );
                (all, got)
            };
            assert_eq!(taken(usize::MAX), (true, want.clone()));
            assert_eq!(taken(3), (false, want[..3].to_vec()));
        }
    }
}

#[test]
fn a_block_packs_each_column_least_significant_bit_first_from_a_byte_boundary() {
    let entries = [
        Entry {
            key: 10,
            game: 5,
            next: 3,
        },
        Entry {
            key: 13,
            game: 6,
            next: 0,
        },
    ];
    // n = 2; widths 2 (key deltas 0, 3), 1 (games 0, 1), 2 (moves 3, 0); then the columns.
    assert_eq!(encode(&entries, 5), [2, 2, 1, 2, 0b1100, 0b10, 0b0011]);
}

#[test]
fn a_block_holds_40_bit_key_steps_and_an_empty_column() {
    let mut entries = Vec::new();
    let mut key = 0u64;
    for i in 0..300u64 {
        // Steps up to the widest a key can take, every move code 0 (a width of 0 bits).
        key += if i % 7 == 0 {
            (1 << 40) - 1
        } else {
            i * 1_000_003 % (1 << 33)
        };
        entries.push(Entry {
            key,
            game: 7 + (i as i64 * 40_503) % 16_000_000,
            next: 0,
        });
    }
    entries.sort();
    let data = encode(&entries, 7);
    // 300 needs a two-byte count.
    assert_eq!(&data[2..5], &[40, 24, 0]);
    assert_eq!(data.len(), encoded_len(300, [40, 24, 0]));
    let back: Vec<Entry> = Block::parse(&data)
        .unwrap()
        .entries(entries[0].key, 7)
        .collect();
    assert_eq!(back, entries);
}

#[test]
fn every_move_has_its_own_14_bit_code() {
    let mut seen = std::collections::HashSet::new();
    for from in Square::all() {
        for to in Square::all() {
            for promote in [false, true] {
                let mv = Move::Board { from, to, promote };
                assert_eq!(code_move(move_code(mv)), Some(mv));
                assert!(seen.insert(move_code(mv)));
            }
        }
    }
    for kind in PieceKind::HAND {
        for to in Square::all() {
            let mv = Move::Drop { kind, to };
            assert_eq!(code_move(move_code(mv)), Some(mv));
            assert!(seen.insert(move_code(mv)));
        }
    }
    assert_eq!(seen.len(), 81 * 81 * 2 + 7 * 81);
    assert!(seen.iter().all(|&c| c < 1 << 14));
}

/// The postings a game row carries (board hashes kept from the board alone) are those of
/// playing its moves in full, on even games and on handicap games.
#[test]
fn row_postings_are_those_of_a_full_replay() {
    use kifudex::notation::{Format, kif::read_kif};
    use kifudex::shogi::Position;
    use kifudex::store::{GameRow, postings::pack};
    use kifudex::synth::{Synth, SynthOptions};
    let mut synth = Synth::new(SynthOptions {
        seed: 5,
        ..SynthOptions::default()
    });
    let mut records: Vec<_> = (0..300).map(|_| synth.game()).collect();
    records.push(read_kif(
        "手合割：飛車落ち\n手数----指手---------消費時間--\n   1 ３四歩(33)\n   2 ７六歩(77)\n   3 ８八角成(22)\n   4 同　銀(79)\n   5 ５五角打\n",
    ));
    let mut drops = 0;
    for rec in &records {
        let mut pos: Position = rec.start.clone();
        let mut want = Vec::new();
        for node in &rec.main.moves {
            want.push(pack(&pos, Some(node.mv)));
            drops += usize::from(matches!(node.mv, Move::Drop { .. }));
            pos.play(node.mv).expect("a legal game");
        }
        want.push(pack(&pos, None));
        assert_eq!(GameRow::new(rec, Format::Kif).positions, want);
    }
    assert!(drops > 100, "the games drop pieces ({drops})");
}

#[test]
fn a_big_segment_holds_every_posting_under_its_key_in_game_order() {
    use kifudex::store::Store;
    use kifudex::store::postings::Batch;
    use std::collections::BTreeMap;

    // Keys that repeat within and across games; half of them in 16 of the 4,096 buckets a
    // batch sorts separately, so that those hold thousands of postings each (sorted by
    // radix, as at 100,000 games), the others a few each (sorted by comparison).
    let dir = crate::util::TempDb::new("postings-big-segment");
    let store = Store::create(&dir).unwrap();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut random = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let pool: Vec<u64> = (0..30_000u64)
        .map(|i| match i % 2 {
            0 => random() >> 24,
            _ => (random() >> 36) | (i % 16) << 36,
        })
        .collect();
    let mut batch = Batch::default();
    let mut want: BTreeMap<u64, Vec<(i64, u16)>> = BTreeMap::new();
    for game in 1..=900i64 {
        let packed: Vec<u64> = (0..100)
            .map(|_| {
                let key = pool[(random() % pool.len() as u64) as usize];
                (key << 24) | (random() % 13_691)
            })
            .collect();
        for &p in &packed {
            want.entry(p >> 24).or_default().push((game, p as u16));
        }
        batch.add(game, &packed, 0, 0);
    }
    store.write_postings(&mut batch).unwrap();
    let index = store.position_index(true).unwrap();
    assert_eq!(index.segments.len(), 1);
    assert_eq!(index.segments[0].entries, 90_000);
    for (&key, expected) in want.iter().step_by(7) {
        let mut got = Vec::new();
        index
            .for_each(&store, key, None, |_, e| {
                got.push((e.game, e.next));
                true
            })
            .unwrap();
        // Within a key, by game, and a game's postings of one key in the order it had them.
        assert_eq!(&got, expected, "key {key:#x}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
