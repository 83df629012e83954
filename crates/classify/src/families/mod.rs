//! The definitions, by family: the ranging rook's strategies, the static rook's, and the
//! castles (those a static rook builds on the left, those a ranging rook builds on the right
//! and the others). Each family keeps its names and their patterns side by side; here they
//! are joined into the one table of names and the one table of patterns the matcher reads.

mod castles_left;
mod castles_right;
mod ranging;
mod static_rook;
mod static_vs_ranging;

use super::patterns::{Def, Pattern, strategy};

const DEF_PARTS: &[&[Def]] = &[
    ranging::DEFS,
    static_rook::DEFS,
    static_vs_ranging::DEFS,
    castles_left::DEFS,
    castles_right::DEFS,
];
const PATTERN_PARTS: &[&[Pattern]] = &[
    ranging::PATTERNS,
    static_rook::PATTERNS,
    static_vs_ranging::PATTERNS,
    castles_left::PATTERNS,
    castles_right::PATTERNS,
];

const fn total<T>(parts: &[&[T]]) -> usize {
    let (mut n, mut i) = (0, 0);
    while i < parts.len() {
        n += parts[i].len();
        i += 1;
    }
    n
}

/// The parts one after the other (`fill` stands in until a part's item replaces it).
const fn join<T: Copy, const N: usize>(parts: &[&[T]], fill: T) -> [T; N] {
    let mut out = [fill; N];
    let (mut i, mut at) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[at] = parts[i][j];
            at += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(at == N);
    out
}

const N_DEFS: usize = total(DEF_PARTS);
const N_PATTERNS: usize = total(PATTERN_PARTS);
static ALL_DEFS: [Def; N_DEFS] = join(DEF_PARTS, strategy("", None, ""));
static ALL_PATTERNS: [Pattern; N_PATTERNS] = join(
    PATTERN_PARTS,
    Pattern {
        name: "",
        plies: (0, 0),
        conds: &[],
    },
);

/// Every strategy and castle kifudex recognises.
pub static DEFS: &[Def] = &ALL_DEFS;
/// Every pattern, in the order the families give them.
pub static PATTERNS: &[Pattern] = &ALL_PATTERNS;
