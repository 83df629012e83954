//! The bounds of the counts a user gives on the command line. A count beyond its bound is
//! refused by clap as bad usage (exit status 2) with the bound in the message, except the
//! number of threads, which is lowered to what can help and said so: asking for more threads
//! than the machine can use is a wish, not a mistake.

use clap::builder::RangedU64ValueParser;

/// The most rows a listing prints (`--limit`).
pub const MAX_ROWS: u64 = 1_000_000;
/// The deepest `perft` counts: depth 7 of the start position is already 8.2 × 10¹¹ leaves.
pub const MAX_PERFT_DEPTH: u64 = 12;
/// A board has 81 squares: `find --like --diff` never needs more.
pub const MAX_DIFF: u64 = 81;
/// The longest game kifudex stores is far shorter; a book or a ply beyond this is a mistake.
pub const MAX_PLY: u64 = 100_000;
/// Threads per core that can still help (reading overlaps with waiting on the disk).
pub const THREADS_PER_CORE: usize = 4;

/// `--limit N`: 0 to [`MAX_ROWS`].
pub fn rows() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(0..=MAX_ROWS)
}

/// `perft --depth N`: 0 to [`MAX_PERFT_DEPTH`].
pub fn perft_depth() -> RangedU64ValueParser<u32> {
    RangedU64ValueParser::new().range(0..=MAX_PERFT_DEPTH)
}

/// `find --like --diff K`: 0 to [`MAX_DIFF`].
pub fn diff() -> RangedU64ValueParser<u32> {
    RangedU64ValueParser::new().range(0..=MAX_DIFF)
}

/// A ply or a number of moves: 0 to [`MAX_PLY`].
pub fn ply<T>() -> RangedU64ValueParser<T>
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
    <T as TryFrom<u64>>::Error: std::fmt::Display + Send + Sync + 'static,
{
    RangedU64ValueParser::new().range(0..=MAX_PLY)
}

/// The most threads that can help on this machine.
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()) * THREADS_PER_CORE
}

/// `asked` threads for `flag`, at least 1 and at most [`max_threads`]; a request beyond is
/// lowered, with a note on stderr that says so.
pub fn threads(flag: &str, asked: usize) -> usize {
    let max = max_threads();
    if asked > max {
        eprintln!(
            "kifudex: note: {flag} {asked} is more than this machine can use; using {max} \
             ({THREADS_PER_CORE} per core)"
        );
        max
    } else {
        asked.max(1)
    }
}

/// An error message as printed: a line longer than a few hundred characters (a bad input
/// echoed back) keeps its start and its end, with how much was left out.
pub fn cut_echo(message: &str) -> String {
    const HEAD: usize = 240;
    const TAIL: usize = 120;
    message
        .lines()
        .map(|line| {
            let n = line.chars().count();
            if n <= HEAD + TAIL + 40 {
                return line.to_string();
            }
            let head: String = line.chars().take(HEAD).collect();
            let tail: String = line.chars().skip(n - TAIL).collect();
            format!(
                "{head} … [{} characters left out] … {tail}",
                n - HEAD - TAIL
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
