//! `kifudex serve`: the explorer page and the JSON API.

use std::net::{IpAddr, SocketAddr};
use std::path::Path;

use anyhow::{Context, Result};
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
    /// Threads that run queries, each with its own connection to the database.
    #[arg(long, default_value_t = 4, value_name = "N")]
    workers: usize,
}

pub fn run(db: &Path, args: &ServeArgs) -> Result<bool> {
    let mut opts = ServeOptions::new(db, SocketAddr::new(args.host, args.port));
    opts.workers = args.workers.clamp(1, 64);
    let running = start(&opts)?;
    let addr = running.addr();
    if !args.host.is_loopback() {
        eprintln!(
            "kifudex: warning: listening on {addr}, reachable from other machines; there is no authentication"
        );
    }
    let url = format!("http://{addr}/");
    eprintln!("kifudex: serving {} at {url} (Ctrl-C stops)", db.display());
    if args.open {
        std::process::Command::new("xdg-open")
            .arg(&url)
            .spawn()
            .with_context(|| format!("cannot open a browser on {url}"))?;
    }
    running.wait();
    Ok(true)
}
