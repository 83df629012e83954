//! A hasher for hash maps keyed by small numbers (ids, codes, addresses) or by hashes: a
//! multiplication a word, where the standard SipHash takes dozens of instructions a key. Not
//! for keys an adversary picks to collide; the maps it serves hold this program's own
//! numbers.

use std::hash::{BuildHasherDefault, Hasher};

/// See the module. The product is turned half a word so that both the low bits (where a
/// table takes its buckets) and the high bits (its tags) depend on every bit of the key:
/// addresses and codes differ mostly in their low or middle bits.
#[derive(Default, Clone, Copy)]
pub struct NumberHasher(u64);

/// The [`std::hash::BuildHasher`] of [`NumberHasher`], for `HashMap<K, V, NumberHash>`.
pub type NumberHash = BuildHasherDefault<NumberHasher>;

impl Hasher for NumberHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_i64(&mut self, n: i64) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn keys_spread_over_low_and_high_bits() {
        // Addresses 8 apart, small ids, date codes: the low 8 bits (buckets) and the high 7
        // (tags) of their hashes take many values each.
        let build = NumberHash::default();
        for keys in [
            (0..256u64)
                .map(|i| 0x7f00_0000_1000 + 8 * i)
                .collect::<Vec<_>>(),
            (1..=256u64).collect(),
            (0..256u64).map(|i| 20_200_101 + 100 * i).collect(),
        ] {
            let mut low = std::collections::HashSet::new();
            let mut high = std::collections::HashSet::new();
            for k in &keys {
                let h = build.hash_one(k);
                low.insert(h & 0xff);
                high.insert(h >> 57);
            }
            assert!(
                low.len() > 128 && high.len() > 64,
                "{} {}",
                low.len(),
                high.len()
            );
        }
    }
}
