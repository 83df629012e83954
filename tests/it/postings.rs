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
