//! The `kifudex` command line.

mod cli;

use std::process::ExitCode;

/// The import allocates and frees many small buffers on several threads at once; mimalloc's
/// per-thread heaps do that with less contention and less work than glibc's malloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

unsafe extern "C" {
    /// mimalloc's setter of an option (its `mimalloc.h`), linked in with the allocator.
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// `mi_option_purge_delay` in mimalloc 2's `mi_option_t`: how many milliseconds freed pages
/// wait before they go back to the system (10 by default).
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

fn main() -> ExitCode {
    // Freed memory goes back to the system at once: the end of an import frees a batch of
    // postings as it cuts them into blocks, and the text index's memory as it commits. With
    // the default delay, a 100,000-game import peaked at 486–492 MB; without, at about 415 MB
    // for the same time.
    // SAFETY: a plain store into mimalloc's option table, before any thread of ours starts.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    cli::run()
}
