//! `kifudex serve`: the explorer page and the JSON API.

use std::net::{IpAddr, SocketAddr};
use std::path::Path;

use anyhow::Result;
use clap::Args;
use kifudex::serve::{ServeOptions, start};

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. Anything but a loopback address lets other machines read
    /// the database: there is no authentication.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Open the page in the desktop's browser once the server listens.
    #[arg(long)]
    open: bool,
    /// Threads that run queries, each with its own connection to the database (at most four
    /// per core).
    #[arg(long, default_value_t = 4, value_name = "N")]
    workers: usize,
    /// Do not hold the games' facts in memory (about 120 bytes a game, read at start): the
    /// panels, and the filters other than dates, then read the database, which takes
    /// seconds at a million games.
    #[arg(long)]
    no_facts: bool,
}

pub fn run(db: &Path, args: &ServeArgs) -> Result<bool> {
    let mut opts = ServeOptions::new(db, SocketAddr::new(args.host, args.port));
    opts.workers = super::bounds::threads("--workers", args.workers);
    opts.facts = !args.no_facts;
    let running = start(&opts)?;
    let addr = running.addr();
    if !args.host.is_loopback() {
        eprintln!(
            "kifudex: warning: listening on {addr}, reachable from other machines; there is no authentication"
        );
    }
    let url = format!("http://{addr}/");
    eprintln!("kifudex: serving {} at {url} (Ctrl-C stops)", db.display());
    if args.open
        && let Err(e) = open_browser(&url)
    {
        // The server is what was asked for: it keeps serving.
        eprintln!("kifudex: warning: cannot open a browser on {url} ({e}); open it yourself");
    }
    running.wait();
    Ok(true)
}

/// Hands `url` to the desktop's opener (`xdg-open`, macOS's `open`, Windows' `start`).
fn open_browser(url: &str) -> std::io::Result<()> {
    #[cfg(target_os = "macos")]
    let mut cmd = std::process::Command::new("open");
    #[cfg(windows)]
    let mut cmd = {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    };
    #[cfg(not(any(target_os = "macos", windows)))]
    let mut cmd = std::process::Command::new("xdg-open");
    cmd.arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
}
