//! A Japanese font for the PNG picture, read from the machine: nothing is fetched. The
//! usual font folders are searched, Mincho faces first (as the SVG's font list prefers), for
//! a TrueType or OpenType file (or collection) that holds every piece's kanji and the
//! board's coordinates.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::shogi::PieceKind;

use super::PictureError;
use super::scene::{FILE_DIGITS, RANK_KANJI};

/// What to install when no font is found.
const INSTALL: &str = "install a Japanese font (Debian and Ubuntu: apt-get install fonts-ipafont; \
Fedora: dnf install ipa-mincho-fonts; macOS and Windows have one) or name a font file with --font FILE";

/// Folders deeper than this below a font folder are not searched.
const DEPTH: usize = 6;

/// A font file read into memory, and which face of it (a collection holds several).
#[derive(Debug)]
pub struct Font {
    path: PathBuf,
    data: Vec<u8>,
    index: u32,
}

/// The largest font file read (the largest CJK collections are about 100 MB).
const MAX_FONT_BYTES: u64 = 256 << 20;

/// The characters every picture draws: the pieces and the coordinates.
fn needed() -> impl Iterator<Item = char> {
    PieceKind::ALL
        .into_iter()
        .map(super::kind_char)
        .chain(FILE_DIGITS)
        .chain(RANK_KANJI)
}

impl Font {
    /// The font in `path` (its first face that has the pieces' kanji).
    pub fn open(path: &Path) -> Result<Font, PictureError> {
        let bad = |why: String| PictureError::Font {
            path: path.to_path_buf(),
            why,
        };
        // Read with a bound: `--font` may name anything (a device, a huge file).
        let mut data = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_FONT_BYTES + 1).read_to_end(&mut data))
            .map_err(|e| bad(e.to_string()))?;
        if data.len() as u64 > MAX_FONT_BYTES {
            return Err(bad(format!(
                "larger than {} MB, which no font is",
                MAX_FONT_BYTES >> 20
            )));
        }
        match covering_face(&data) {
            Ok(index) => Ok(Font {
                path: path.to_path_buf(),
                data,
                index,
            }),
            Err(why) => Err(PictureError::Font {
                path: path.to_path_buf(),
                why,
            }),
        }
    }

    /// The best Japanese font in the machine's font folders.
    pub fn find() -> Result<Font, PictureError> {
        let dirs = font_dirs();
        let mut files = Vec::new();
        for d in &dirs {
            font_files(d, 0, &mut files);
        }
        files.sort_by_cached_key(|p| (preference(p), p.clone()));
        for path in files {
            // A file that cannot be read, or is no font, or lacks kanji: the next.
            if let Ok(font) = Font::open(&path) {
                return Ok(font);
            }
        }
        let searched: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        Err(PictureError::NoFont {
            searched: searched.join(", "),
            install: INSTALL,
        })
    }

    /// The font's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The face to draw with.
    pub(super) fn face(&self) -> Result<ttf_parser::Face<'_>, PictureError> {
        ttf_parser::Face::parse(&self.data, self.index).map_err(|e| PictureError::Font {
            path: self.path.clone(),
            why: e.to_string(),
        })
    }
}

/// The first face of a font file (or collection) with every needed character.
fn covering_face(data: &[u8]) -> Result<u32, String> {
    let faces = ttf_parser::fonts_in_collection(data).unwrap_or(1);
    let mut why = String::from("it holds no font");
    for index in 0..faces {
        match ttf_parser::Face::parse(data, index) {
            Ok(face) => {
                let missing: String = needed()
                    .filter(|&c| face.glyph_index(c).is_none())
                    .collect();
                if missing.is_empty() {
                    return Ok(index);
                }
                why = format!("it has no glyph for {missing} (a Japanese font is needed)");
            }
            Err(e) => why = format!("it is no TrueType or OpenType font ({e})"),
        }
    }
    Err(why)
}

/// Where fonts are kept on Linux, BSD, macOS and Windows.
fn font_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    let home = std::env::var_os("HOME").map(PathBuf::from);
    if let Some(data) = std::env::var_os("XDG_DATA_HOME") {
        dirs.push(PathBuf::from(data).join("fonts"));
    }
    if let Some(h) = &home {
        dirs.push(h.join(".local/share/fonts"));
        dirs.push(h.join(".fonts"));
        dirs.push(h.join("Library/Fonts"));
    }
    for d in [
        "/usr/share/fonts",
        "/usr/local/share/fonts",
        "/Library/Fonts",
        "/System/Library/Fonts",
    ] {
        dirs.push(PathBuf::from(d));
    }
    let windows = std::env::var_os("WINDIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("C:\\Windows"));
    dirs.push(windows.join("Fonts"));
    if let Some(local) = std::env::var_os("LOCALAPPDATA") {
        dirs.push(PathBuf::from(local).join("Microsoft\\Windows\\Fonts"));
    }
    dirs
}

/// The font files below `dir`.
fn font_files(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let Ok(kind) = e.file_type() else { continue };
        if kind.is_dir() {
            if depth < DEPTH {
                font_files(&path, depth + 1, out);
            }
            continue;
        }
        let ext = path
            .extension()
            .and_then(|x| x.to_str())
            .map(str::to_ascii_lowercase);
        if matches!(ext.as_deref(), Some("ttf" | "otf" | "ttc" | "otc")) {
            out.push(path);
        }
    }
}

/// How early a font file is tried, from its name: the SVG's list of fonts in its order
/// (Mincho first), then other Mincho and serif faces, then Gothic ones, then the rest.
fn preference(path: &Path) -> u8 {
    let name: String = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default()
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .collect();
    const ORDER: [&[&str]; 9] = [
        &["hiraginomincho", "ヒラギノ明朝"],
        &["yumin"],
        &["notoserifcjk"],
        &["ipam", "japanesemincho"],
        &["ipaexm"],
        &["mincho", "明朝", "serifcjk", "serifjp"],
        &["notosanscjk"],
        &["ipag", "ipaexg", "japanesegothic"],
        &["gothic", "ゴシック", "cjk", "jp"],
    ];
    ORDER
        .iter()
        .position(|words| words.iter().any(|w| name.contains(w)))
        .unwrap_or(ORDER.len()) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mincho_faces_are_tried_before_gothic_and_others() {
        let p = |s: &str| preference(Path::new(s));
        assert!(p("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf") < p("/x/ipag.ttf"));
        assert!(p("/x/NotoSerifCJK-Regular.ttc") < p("/x/NotoSansCJK-Regular.ttc"));
        assert!(p("/x/ipag.ttf") < p("/x/DejaVuSans.ttf"));
        assert!(p("/x/YuMincho.ttc") < p("/x/ipam.ttf"));
    }

    #[test]
    fn a_file_that_is_no_font_is_said_so() {
        let why = covering_face(b"not a font at all").unwrap_err();
        assert!(why.contains("no TrueType or OpenType font"), "{why}");
    }
}
