//! Where the text index lives inside the database's `text/` folder, so that a rebuild never
//! leaves a reader without one. An index is built whole into a new folder `text/gN`, and only
//! then named the current one in `text/CURRENT` (written to a temporary file and renamed over
//! it, which readers see all at once); until then readers answer from the index before. The
//! generation before the current one stays (a reader may still be opening it) and the next
//! rebuild removes it. Without `CURRENT` (a database no rebuild has touched since) the index
//! is `text/` itself.

use std::io;
use std::path::{Path, PathBuf};

/// The file naming the current generation.
const CURRENT: &str = "CURRENT";

/// The folder of the current index.
pub fn current(base: &Path) -> PathBuf {
    match std::fs::read_to_string(base.join(CURRENT)) {
        Ok(name) if valid(name.trim()) => base.join(name.trim()),
        _ => base.to_path_buf(),
    }
}

/// A generation's folder name: `g` and digits.
fn valid(name: &str) -> bool {
    name.len() > 1 && name.starts_with('g') && name[1..].bytes().all(|b| b.is_ascii_digit())
}

/// The generations inside `base`, by number.
fn generations(base: &Path) -> Vec<(u64, String)> {
    let mut out: Vec<(u64, String)> = std::fs::read_dir(base)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let n = name.strip_prefix('g')?.parse().ok()?;
            (valid(&name) && e.path().is_dir()).then_some((n, name))
        })
        .collect();
    out.sort();
    out
}

/// A new, empty folder for the next generation.
pub fn next(base: &Path) -> io::Result<PathBuf> {
    std::fs::create_dir_all(base)?;
    let n = generations(base).last().map_or(1, |g| g.0 + 1);
    let dir = base.join(format!("g{n}"));
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    std::fs::create_dir(&dir)?;
    Ok(dir)
}

/// Makes `new` (a folder [`next`] gave) the current index, then removes what is older than
/// the index it replaces.
pub fn switch(base: &Path, new: &Path) -> io::Result<()> {
    let before = current(base);
    let name = new
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|n| valid(n))
        .ok_or_else(|| io::Error::other(format!("{} is no generation", new.display())))?;
    let tmp = base.join("CURRENT.tmp");
    std::fs::write(&tmp, name)?;
    std::fs::File::open(&tmp)?.sync_all()?;
    std::fs::rename(&tmp, base.join(CURRENT))?;
    if let Ok(d) = std::fs::File::open(base) {
        let _ = d.sync_all();
    }
    for (_, g) in generations(base) {
        let dir = base.join(&g);
        if dir != new && dir != before {
            std::fs::remove_dir_all(&dir)?;
        }
    }
    // The index of the time before generations (files right in `text/`), once it is not
    // the one just replaced.
    if before != base {
        for e in std::fs::read_dir(base)?.flatten() {
            let is_file = e.file_type().is_ok_and(|t| t.is_file());
            if is_file && e.file_name() != CURRENT {
                std::fs::remove_file(e.path())?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rebuild_switches_and_keeps_the_one_before() {
        let base = std::env::temp_dir().join(format!("kifudex-gen-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        std::fs::write(base.join("meta.json"), "old").unwrap();
        assert_eq!(current(&base), base);
        let g1 = next(&base).unwrap();
        switch(&base, &g1).unwrap();
        assert_eq!(current(&base), g1);
        // The index before generations stays until the next switch.
        assert!(base.join("meta.json").exists());
        let g2 = next(&base).unwrap();
        assert_eq!(g2, base.join("g2"));
        switch(&base, &g2).unwrap();
        assert_eq!(current(&base), g2);
        assert!(!base.join("meta.json").exists());
        assert!(g1.exists());
        let g3 = next(&base).unwrap();
        switch(&base, &g3).unwrap();
        assert!(!g1.exists() && g2.exists() && g3.exists());
        std::fs::remove_dir_all(&base).unwrap();
    }
}
