//! `kifudex show ID --ply N --png`: the image is decoded here (a small PNG reader written for
//! the test: chunks and their CRCs, the zlib stream, the five row filters) and its pixels are
//! compared with the layout the SVG states: the board's and the shaded square's colours,
//! ink on the squares that hold a piece and none on the others, gote's pieces upside down,
//! the hands' columns.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::picture::games;
use crate::util::{Kifudex, TempDb};

/// The font CI installs (Debian's fonts-ipafont-mincho), for the tests that name one.
const IPA_MINCHO: &str = "/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf";

/// Pixels to one unit of the SVG.
const SCALE: usize = 2;
const WIDTH: usize = 560 * SCALE;
const HEIGHT: usize = 576 * SCALE;

/// A decoded RGB image.
struct Image {
    width: usize,
    height: usize,
    rgb: Vec<u8>,
}

impl Image {
    fn at(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.width + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// Pixels darker than the board's lines' ink would blend to at their edge: a glyph's.
    fn ink(&self, x0: usize, y0: usize, w: usize, h: usize) -> usize {
        let mut n = 0;
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                if self.at(x, y).iter().all(|&c| c < 0x60) {
                    n += 1;
                }
            }
        }
        n
    }
}

fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

/// Reads an 8-bit RGB PNG, checking its signature, every chunk's CRC and its rows' filters.
fn decode(bytes: &[u8]) -> Image {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "the PNG signature");
    let mut rest = &bytes[8..];
    let (mut width, mut height) = (0, 0);
    let mut idat = Vec::new();
    let mut kinds = Vec::new();
    while !rest.is_empty() {
        let len = be32(rest) as usize;
        let kind = &rest[4..8];
        let data = &rest[8..8 + len];
        let crc = be32(&rest[8 + len..]);
        assert_eq!(
            crc,
            crc32fast::hash(&rest[4..8 + len]),
            "the CRC of {kind:?}"
        );
        kinds.push(String::from_utf8_lossy(kind).into_owned());
        match kind {
            b"IHDR" => {
                width = be32(data) as usize;
                height = be32(&data[4..]) as usize;
                assert_eq!(&data[8..], [8, 2, 0, 0, 0], "8-bit RGB, not interlaced");
            }
            b"IDAT" => idat.extend_from_slice(data),
            _ => {}
        }
        rest = &rest[12 + len..];
    }
    assert_eq!(kinds.first().map(String::as_str), Some("IHDR"));
    assert_eq!(kinds.last().map(String::as_str), Some("IEND"));
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&idat[..])
        .read_to_end(&mut raw)
        .unwrap();
    let stride = width * 3;
    assert_eq!(
        raw.len(),
        height * (stride + 1),
        "one filter byte and a row a line"
    );
    let mut rgb = vec![0u8; height * stride];
    for y in 0..height {
        let filter = raw[y * (stride + 1)];
        let line = &raw[y * (stride + 1) + 1..(y + 1) * (stride + 1)];
        for x in 0..stride {
            let a = if x >= 3 { rgb[y * stride + x - 3] } else { 0 };
            let b = if y > 0 { rgb[(y - 1) * stride + x] } else { 0 };
            let c = if x >= 3 && y > 0 {
                rgb[(y - 1) * stride + x - 3]
            } else {
                0
            };
            let predicted = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                4 => {
                    let p = i16::from(a) + i16::from(b) - i16::from(c);
                    let (pa, pb, pc) = (
                        (p - i16::from(a)).abs(),
                        (p - i16::from(b)).abs(),
                        (p - i16::from(c)).abs(),
                    );
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                f => panic!("no PNG filter {f}"),
            };
            rgb[y * stride + x] = line[x].wrapping_add(predicted);
        }
    }
    Image { width, height, rgb }
}

fn hex(s: &str) -> [u8; 3] {
    let v = u32::from_str_radix(s, 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

/// The top left pixel of a square (file, rank), sente at the bottom as in the SVG.
fn square(file: usize, rank: usize) -> (usize, usize) {
    (
        (56 + (9 - file) * 48) * SCALE,
        (72 + (rank - 1) * 48) * SCALE,
    )
}

/// The pixels of a square within its lines.
fn square_ink(img: &Image, file: usize, rank: usize) -> usize {
    let (x, y) = square(file, rank);
    // Clear of the lines and of the four marks (星) at some squares' corners.
    img.ink(x + 7, y + 7, 48 * SCALE - 14, 48 * SCALE - 14)
}

fn png(db: &Path, id: i64, ply: &str, out: &Path, font: Option<&str>) -> Image {
    let mut cmd = Kifudex::new()
        .db(db)
        .args(["show", &id.to_string(), "--ply", ply, "--png", "-o"])
        .args([out.as_os_str()]);
    if let Some(f) = font {
        cmd = cmd.args(["--font", f]);
    }
    let run = cmd.output().success();
    assert_eq!(run.stdout, "");
    decode(&std::fs::read(out).unwrap())
}

/// The font the tests draw with, or `None` (the test is skipped) on a machine without it; in
/// CI (which installs it) a missing font fails.
pub(crate) fn ipa_mincho() -> Option<&'static str> {
    if Path::new(IPA_MINCHO).exists() {
        return Some(IPA_MINCHO);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{IPA_MINCHO} is missing in CI: .ci/run runs scripts/install_fonts.sh"
    );
    eprintln!("skipped: {IPA_MINCHO} is not installed (scripts/install_fonts.sh installs it)");
    None
}

#[test]
fn the_png_shows_the_board_the_pieces_and_the_last_move() {
    let Some(font) = ipa_mincho() else { return };
    let dir = TempDb::new("picture-png");
    let (db, id, _) = games(&dir);
    let file: PathBuf = dir.join("board.png");
    // After 4 同銀: 2b shaded; a bishop in each hand.
    let img = png(&db, id, "4", &file, Some(font));
    assert_eq!((img.width, img.height), (WIDTH, HEIGHT));
    assert_eq!(img.at(2, 2), hex("fbf6ea"), "the background");

    let board = hex("f2d59b");
    // Beside a piece's pentagon, inside its square: the board, or the shaded board on the
    // last move's square (#f0a030 at 0.45 over it).
    let beside = |f: usize, r: usize| {
        let (x, y) = square(f, r);
        img.at(x + 3 * SCALE, y + 24 * SCALE)
    };
    let shade = hex("f0a030");
    let shaded: Vec<i32> = (0..3)
        .map(|i| (f32::from(board[i]) * 0.55 + f32::from(shade[i]) * 0.45).round() as i32)
        .collect();
    let got: Vec<i32> = beside(2, 2).iter().map(|&c| i32::from(c)).collect();
    assert!(
        got.iter().zip(&shaded).all(|(g, w)| (g - w).abs() <= 1),
        "the last move's square: {got:?}, want {shaded:?}"
    );
    assert_eq!(beside(8, 2), board, "8b, not the last move's square");
    assert_eq!(beside(5, 5), board, "the empty 5e");

    // Ink on exactly the squares that hold a piece.
    let sfen_board = "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL";
    for (r, row) in sfen_board.split('/').enumerate() {
        let mut file = 9;
        for c in row.chars() {
            if let Some(n) = c.to_digit(10) {
                for _ in 0..n {
                    assert_eq!(square_ink(&img, file, r + 1), 0, "{file}{} is empty", r + 1);
                    file -= 1;
                }
            } else {
                let ink = square_ink(&img, file, r + 1);
                assert!(ink > 40, "{file}{} holds {c}: {ink} dark pixels", r + 1);
                file -= 1;
            }
        }
    }

    // Gote's pawn on 8c is sente's on 8g turned about the square's centre.
    let side = 48 * SCALE;
    let (sx, sy) = square(8, 7);
    let (gx, gy) = square(8, 3);
    let mut differ = 0;
    let mut asymmetric = 0;
    for dy in 0..side {
        for dx in 0..side {
            let sente = img.at(sx + dx, sy + dy);
            let gote = img.at(gx + side - 1 - dx, gy + side - 1 - dy);
            let same = |a: [u8; 3], b: [u8; 3]| a.iter().zip(b).all(|(p, q)| p.abs_diff(q) <= 2);
            if !same(sente, gote) {
                differ += 1;
            }
            if !same(sente, img.at(sx + side - 1 - dx, sy + side - 1 - dy)) {
                asymmetric += 1;
            }
        }
    }
    assert_eq!(differ, 0, "pixels of 8c that are not 8g's turned");
    assert!(asymmetric > 100, "歩 is not its own turn: {asymmetric}");

    // The hands: ☖ and 角 at gote's left, ☗ and 角 at sente's right, the same glyph.
    let slot = |x: usize, n: usize| (x * SCALE - 13 * SCALE, (94 + 26 * n - 21) * SCALE);
    let column = |img: &Image, x: usize, n: usize| {
        let (x0, y0) = slot(x, n);
        let w = 26 * SCALE;
        let h = 26 * SCALE;
        (x0..x0 + w)
            .flat_map(|x| (y0..y0 + h).map(move |y| (x, y)))
            .map(|(x, y)| img.at(x, y))
            .collect::<Vec<_>>()
    };
    let (gote_x, sente_x) = (26, 536);
    let ink = |px: &[[u8; 3]]| px.iter().filter(|p| p.iter().all(|&c| c < 0x60)).count();
    let gote_bishop = column(&img, gote_x, 1);
    assert!(ink(&gote_bishop) > 40, "gote holds a bishop");
    assert_eq!(gote_bishop, column(&img, sente_x, 1), "both hands show 角");
    assert_eq!(ink(&column(&img, gote_x, 2)), 0, "gote holds one kind");
    assert_eq!(ink(&column(&img, sente_x, 2)), 0, "sente holds one kind");

    // 5 ４五角打: the bishop leaves sente's hand (なし), lands on 4e, 2b is no longer shaded.
    let img = png(&db, id, "5", &file, Some(font));
    assert!(square_ink(&img, 4, 5) > 40, "the bishop on 4e");
    assert_eq!(column(&img, gote_x, 1), gote_bishop, "gote still holds 角");
    assert_ne!(column(&img, sente_x, 1), gote_bishop, "sente's hand: な");
    assert!(ink(&column(&img, sente_x, 2)) > 20, "sente's hand: し");
    let (x, y) = square(2, 2);
    assert_eq!(
        img.at(x + 3 * SCALE, y + 24 * SCALE),
        board,
        "2b is not shaded"
    );
    let (x, y) = square(4, 5);
    assert_ne!(img.at(x + 3 * SCALE, y + 24 * SCALE), board, "4e is");
}

#[test]
fn names_and_caption_are_drawn_and_a_character_the_font_lacks_is_no_error() {
    let Some(font) = ipa_mincho() else { return };
    let dir = TempDb::new("picture-png-names");
    let (db, id, handicap) = games(&dir);
    let file = dir.join("board.png");
    let img = png(&db, id, "4", &file, None);
    assert_eq!((img.width, img.height), (WIDTH, HEIGHT));
    // ☖後手 乙川 二 on the baseline 28 and ☗先手 甲田 一 on 536, from x 56; the caption
    // 4手目 ☖２二銀まで ends at 488 on 564.
    let row = |x0: usize, x1: usize, baseline: usize| {
        img.ink(
            x0 * SCALE,
            (baseline - 18) * SCALE,
            (x1 - x0) * SCALE,
            22 * SCALE,
        )
    };
    assert!(row(56, 80, 28) > 20, "gote's mark");
    assert!(row(130, 300, 28) > 40, "gote's name");
    assert!(row(130, 300, 536) > 40, "sente's name");
    assert!(row(300, 488, 564) > 40, "the caption");
    assert_eq!(row(2, 54, 564), 0, "nothing left of the caption");

    // A handicap game: 上手 above and 下手 below where 後手 and 先手 stood.
    let uwate = png(&db, handicap, "1", &dir.join("handicap.png"), None);
    assert_eq!((uwate.width, uwate.height), (WIDTH, HEIGHT));
    let words = |img: &Image, baseline: usize| {
        let (x0, y0) = (76 * SCALE, (baseline - 18) * SCALE);
        (y0..y0 + 22 * SCALE)
            .flat_map(|y| (x0..x0 + 40 * SCALE).map(move |x| (x, y)))
            .map(|(x, y)| img.at(x, y))
            .collect::<Vec<_>>()
    };
    assert_ne!(words(&uwate, 28), words(&img, 28), "上手, not 後手");
    assert_ne!(words(&uwate, 536), words(&img, 536), "下手, not 先手");
    // 手 is the second character of both words.
    let second = |w: Vec<[u8; 3]>| -> Vec<[u8; 3]> {
        w.chunks(40 * SCALE)
            .flat_map(|row| row[20 * SCALE..].to_vec())
            .collect()
    };
    assert_eq!(
        second(words(&uwate, 28)),
        second(words(&img, 28)),
        "手 in both"
    );

    // A name in a script IPA Mincho lacks (its missing-glyph mark is drawn instead).
    let files = dir.join("odd");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(
        files.join("odd.kifu"),
        "先手：😀\u{10FFFD}𝕏\n後手：ꙮ\n手数----指手---------消費時間--\n   1 ７六歩(77)\n",
    )
    .unwrap();
    let odd_db = dir.join("odd-db");
    let games = crate::util::import_and_list(&odd_db, &files);
    let odd = games[0]["id"].as_i64().unwrap();
    let img = png(&odd_db, odd, "1", &dir.join("odd.png"), Some(font));
    assert_eq!((img.width, img.height), (WIDTH, HEIGHT));
}

#[test]
fn without_a_usable_font_or_ply_the_error_says_why() {
    let dir = TempDb::new("picture-png-errors");
    let (db, id, _) = games(&dir);
    let not_a_font = dir.join("font.ttf");
    std::fs::write(&not_a_font, "not a font").unwrap();
    let out = dir.join("board.png");
    let run = |args: &[&str]| {
        Kifudex::new()
            .db(&db)
            .args(["show", &id.to_string()])
            .args(args)
            .args(["-o"])
            .args([out.as_os_str()])
            .output()
            .parts()
    };
    let (code, _, err) = run(&["--png", "--font", not_a_font.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(
        err.trim(),
        format!(
            "kifudex: cannot draw with the font {}: it is no TrueType or OpenType font (unknown magic)",
            not_a_font.display()
        )
    );
    let missing = dir.join("none.ttf");
    let (code, _, err) = run(&["--png", "--font", missing.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!(
            "kifudex: cannot draw with the font {}: ",
            missing.display()
        )),
        "{err}"
    );
    // A device that never ends is read only up to the bound, then refused.
    #[cfg(unix)]
    {
        let (code, _, err) = run(&["--png", "--font", "/dev/zero"]);
        assert_eq!(code, 1);
        assert_eq!(
            err.trim(),
            "kifudex: cannot draw with the font /dev/zero: larger than 256 MB, which no font is"
        );
    }
    let (code, _, err) = run(&["--png", "--ply", "6"]);
    assert_eq!(code, 1);
    assert_eq!(
        err.trim(),
        format!("kifudex: game {id} has 5 moves: there is no ply 6")
    );
    assert!(!out.exists(), "no image is written");
    // --font without --png, --png with --svg: refused by the parser.
    for args in [
        &["--svg", "--font", IPA_MINCHO][..],
        &["--png", "--svg"][..],
    ] {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
}
