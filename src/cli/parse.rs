//! `kifudex parse`: read records without a database and print one JSON object per game.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use clap::Args;
use kifudex::game_json;
use kifudex::notation::read_bytes;
use serde_json::{Value, json};

#[derive(Args, Debug)]
pub struct ParseArgs {
    /// Also print the SFEN of every main-line position (before the first move and after each).
    #[arg(long)]
    positions: bool,
    /// The record files to read (`-`: standard input).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
}

/// Prints every game of every file; returns whether every file was read without error.
pub fn run(args: &ParseArgs) -> Result<bool> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut all_ok = true;
    for file in &args.files {
        let bytes = match super::read_input(file) {
            Ok(b) => b,
            Err(e) => {
                all_ok = false;
                let obj = json!({"file": file, "game_index": 0, "error": format!("cannot read the file: {e}")});
                writeln!(out, "{obj}")?;
                continue;
            }
        };
        let read = read_bytes(&bytes, Some(Path::new(file)));
        if let Some(error) = &read.error {
            all_ok = false;
            let obj = json!({
                "file": file, "game_index": 0,
                "format": read.format.map(|f| f.name()),
                "encoding": read.encoding.name(),
                "error": error,
            });
            writeln!(out, "{obj}")?;
            continue;
        }
        for (index, game) in read.games.iter().enumerate() {
            if game.has_errors() {
                all_ok = false;
            }
            let mut obj = json!({
                "file": file,
                "game_index": index,
                "format": read.format.map(|f| f.name()),
                "encoding": read.encoding.name(),
            });
            if let (Value::Object(map), Value::Object(game)) =
                (&mut obj, game_json::game(game, args.positions))
            {
                map.extend(game);
            }
            writeln!(out, "{obj}")?;
        }
    }
    Ok(all_ok)
}
