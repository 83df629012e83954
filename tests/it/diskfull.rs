//! A full disk is said to be one, naming the database, and loses nothing: the import into a
//! small filesystem stops with that message, and once the filesystem has room again the
//! database checks whole and the same import completes it. Needs a tmpfs of its own (mounted
//! by the test, which runs as root in CI); elsewhere the test says it could not run.

use std::path::Path;
use std::process::Command;

use crate::util::{Kifudex, TempDb};

fn mount(dir: &Path, size: &str, remount: bool) -> bool {
    let opts = if remount {
        format!("remount,size={size}")
    } else {
        format!("size={size}")
    };
    Command::new("mount")
        .args(["-t", "tmpfs", "-o", &opts, "tmpfs"])
        .arg(dir)
        .status()
        .is_ok_and(|s| s.success())
}

struct Mounted<'a>(&'a Path);

impl Drop for Mounted<'_> {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.0).status();
    }
}

#[test]
fn a_full_disk_is_said_and_loses_nothing() {
    let dir = TempDb::new("diskfull");
    let small = dir.join("small");
    std::fs::create_dir_all(&small).unwrap();
    if !mount(&small, "300k", false) {
        eprintln!("not run: no tmpfs can be mounted here (not root?)");
        return;
    }
    let _mounted = Mounted(&small);
    let db = small.join("db");
    let import = || {
        Kifudex::new()
            .db(&db)
            .args(["import", "sample_db/"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
    };
    let out = import();
    assert_eq!(out.code(), 1, "{}", out.stderr);
    assert!(
        out.stderr.starts_with(&format!(
            "kifudex: the disk is full: no space left to write the database in {} \
             (what was committed is kept; free some space and run the command again)\n",
            db.display()
        )),
        "{}",
        out.stderr
    );
    assert!(mount(&small, "64m", true), "remount with room");
    let out = import();
    assert_eq!(out.code(), 0, "{}", out.stderr);
    let check = Kifudex::new().db(&db).args(["check"]).output();
    assert_eq!(
        (check.code(), check.stdout.as_str()),
        (0, "ok: 220 games, 1 segments, 40 blocks, 25367 postings\n"),
        "{}",
        check.stderr
    );
}
