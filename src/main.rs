//! The `kifudex` command line.

mod cli;

use std::process::ExitCode;

/// The import allocates and frees many small buffers on several threads at once; mimalloc's
/// per-thread heaps do that with less contention and less work than glibc's malloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    cli::run()
}
