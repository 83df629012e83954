//! Integration tests, one binary (see Cargo.toml: `autotests = false`).

mod answers;
mod classify;
mod cli;
mod csa;
mod csa_write;
mod db;
mod decode;
mod export;
mod filter;
mod handicap;
mod hash;
mod headers;
mod hostile;
mod jkf;
mod ki2;
mod kif;
mod kitao;
mod migrate;
mod movelist;
mod movetext;
mod openings;
mod perft;
mod pieces;
mod position;
mod postings;
mod psn;
mod remove;
mod results;
mod rules;
mod serve;
mod sfen;
mod store;
mod text;
mod usi;
mod usi_record;

use kifudex::shogi::Position;

/// Parses a SFEN that a test knows to be valid.
pub fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("bad test SFEN {sfen}: {e}"))
}

/// A small deterministic generator (xorshift64*) for random games.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A connection of its own on a store's database file (the store speaks no SQL to others).
pub fn sql(store: &kifudex::store::Store) -> rusqlite::Connection {
    rusqlite::Connection::open(store.db().sqlite()).expect("open the file")
}
