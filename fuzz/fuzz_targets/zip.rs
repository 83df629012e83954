//! The walk over a zip archive: entries, their names in any encoding, sizes they claim and
//! what they inflate to (under the import's limit). Each input is written as `in.zip` in a
//! folder of this process's own and walked as an import walks it: nothing may panic or hang.
#![no_main]

use kifudex::ingest::walk::{read_unit, units};
use libfuzzer_sys::fuzz_target;

/// What one entry may inflate to here (the import's limit is 64 MB; smaller keeps runs fast).
const LIMIT: u64 = 4 << 20;

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("kifudex-fuzz-zip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("in.zip");
    std::fs::write(&path, data).expect("write the input");
    let (found, _problems) = units(std::slice::from_ref(&path));
    for unit in &found {
        for (info, _content) in read_unit(unit, LIMIT, u64::MAX, |_| false) {
            let _ = info.display.len();
        }
    }
});
