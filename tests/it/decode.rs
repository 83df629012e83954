//! Decoding and format detection against plain restatements of their rules: the fast versions
//! (byte by byte, no line list) must choose exactly what these choose, on every input.

use std::path::Path;

use crate::util::Rng;
use kifudex::notation::psn::looks_like_psn;
use kifudex::notation::{Encoding, Format, decode, decode_borrowed};

/// The decoding rule as stated: UTF-8 if valid (BOM dropped), else the more plausible of
/// CP932 and EUC-JP, CP932 on a tie.
fn reference_decode(bytes: &[u8]) -> (String, Encoding) {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(s) = std::str::from_utf8(body) {
        return (s.to_string(), Encoding::Utf8);
    }
    let (sjis, _, sjis_bad) = encoding_rs::SHIFT_JIS.decode(bytes);
    let (euc, _, euc_bad) = encoding_rs::EUC_JP.decode(bytes);
    let score = |text: &str, bad: bool| -> i64 {
        let mut s = 0i64;
        for c in text.chars() {
            s += match c {
                '\u{FFFD}' => -50,
                '\u{3040}'..='\u{30FF}' | '\u{FF10}'..='\u{FF19}' | '▲' | '△' | '☗' | '☖' => {
                    3
                }
                '一' | '二' | '三' | '四' | '五' | '六' | '七' | '八' | '九' | '歩' | '香'
                | '桂' | '銀' | '金' | '角' | '飛' | '玉' | '王' | '成' | '同' | '打' | '手'
                | '先' | '後' => 3,
                '\u{4E00}'..='\u{9FFF}' => 1,
                '\u{FF61}'..='\u{FF9F}' => -4,
                c if c.is_control() && c != '\n' && c != '\r' && c != '\t' => -10,
                _ => 0,
            };
        }
        if bad { s - 1000 } else { s }
    };
    if score(&euc, euc_bad) > score(&sjis, sjis_bad) {
        (euc.into_owned(), Encoding::EucJp)
    } else {
        (sjis.into_owned(), Encoding::ShiftJis)
    }
}

/// The detection rule as stated, over a list of the first 400 lines.
fn reference_detect(text: &str, path: Option<&Path>) -> Option<Format> {
    let (mut kif_moves, mut csa, mut ki2, mut psn) = (0, 0, 0, 0);
    if text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('{')
        && (text.contains("\"header\"") || text.contains("\"moves\""))
    {
        return Some(Format::Jkf);
    }
    for line in kifudex::notation::decode::lines(text).iter().take(400) {
        let t = line.trim_start();
        if t.starts_with('{') && t.contains("\"header\"") {
            return Some(Format::Jkf);
        }
        if t.starts_with("sfen ") || t.starts_with("startpos") || t.starts_with("position ") {
            return Some(Format::Usi);
        }
        if t.starts_with("手数") && t.contains("指手") {
            return Some(Format::Kif);
        }
        let mut words = t.split_whitespace();
        if words.next().is_some_and(|w| w.matches('/').count() == 8)
            && words.next().is_some_and(|w| w == "b" || w == "w")
        {
            return Some(Format::Usi);
        }
        if looks_like_psn(t) {
            if t.starts_with('[') {
                return Some(Format::Psn);
            }
            psn += 1;
        }
        if t.split_whitespace()
            .next()
            .is_some_and(|w| w.parse::<u32>().is_ok())
            && t.split_whitespace().nth(1).is_some()
        {
            kif_moves += 1;
        }
        if (t.starts_with('+') || t.starts_with('-'))
            && t.len() >= 7
            && t.as_bytes()[1..5].iter().all(u8::is_ascii_digit)
            || t.starts_with("PI")
            || t.starts_with("P1")
            || t.starts_with("V2")
            || t.starts_with("N+")
        {
            csa += 1;
        }
        if t.starts_with(['▲', '△', '☗', '☖']) {
            ki2 += 1;
        }
    }
    let ext = path
        .and_then(|p| p.extension())
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if kif_moves > 0 && kif_moves >= csa {
        return Some(Format::Kif);
    }
    if csa > 0 {
        return Some(Format::Csa);
    }
    if ki2 > 0 {
        return Some(Format::Ki2);
    }
    if psn > 0 {
        return Some(Format::Psn);
    }
    match ext.as_deref() {
        Some("kif" | "kifu") => Some(Format::Kif),
        Some("ki2" | "ki2u") => Some(Format::Ki2),
        Some("csa") => Some(Format::Csa),
        Some("jkf" | "json") => Some(Format::Jkf),
        Some("usi" | "sfen") => Some(Format::Usi),
        Some("psn") => Some(Format::Psn),
        _ => None,
    }
}

/// Pieces of records and of what is no record, and the whitespace between them.
const PIECES: &[&str] = &[
    "   1 ７六歩(77)   ( 0:01/00:00:01)",
    "1 ",
    "12",
    "+12",
    "先手：先手太郎",
    "手数----指手---------消費時間--",
    "▲７六歩　△３四歩",
    "☖",
    "+7776FU",
    "-3334FU,T12",
    "PI",
    "P1-KY-KE",
    "V2.2",
    "N+alice",
    "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
    "a/b/c/d/e/f/g/h/i",
    "b",
    "w",
    "startpos moves 7g7f",
    "position ",
    "[Event \"x\"]",
    "[Event",
    "1.P-7f",
    "1. P-7f",
    "2...G6i-7h",
    "{\"header\":{}}",
    "\"moves\"",
    "{",
    "歩",
    "ｱｲｳ",
    "x",
    "",
];
const SPACES: &[&str] = &[
    " ", "\t", "\u{3000}", "\u{a0}", "\u{85}", "\u{2003}", "\u{205f}", "\u{1680}", "\u{0b}",
    "\u{1c}", "", "\n", "\r\n", "\r", "\n\n",
];

fn random_text(rng: &mut Rng) -> String {
    let mut s = String::new();
    if rng.below(8) == 0 {
        s.push('\u{feff}');
    }
    for _ in 0..rng.below(40) {
        s.push_str(PIECES[rng.below(PIECES.len())]);
        s.push_str(SPACES[rng.below(SPACES.len())]);
    }
    s
}

#[test]
fn detection_agrees_with_its_rules() {
    let mut rng = Rng::new(7);
    for i in 0..20_000 {
        let text = random_text(&mut rng);
        let path = [None, Some(Path::new("a.kif")), Some(Path::new("a.csa"))][i % 3];
        assert_eq!(
            Format::detect(&text, path),
            reference_detect(&text, path),
            "{text:?}"
        );
    }
    // Past the 400th line nothing counts.
    let long = format!("{}1 ７六歩(77)\n", "x\n".repeat(400));
    assert_eq!(Format::detect(&long, None), reference_detect(&long, None));
    assert_eq!(Format::detect(&long, None), None);
}

#[test]
fn decoding_agrees_with_its_rules() {
    let mut rng = Rng::new(11);
    for i in 0..6_000 {
        // Some long texts: CP932 is then chosen without scoring when EUC-JP cannot win.
        let text = match i % 6 {
            0 => (0..1 + rng.below(30))
                .map(|_| random_text(&mut rng))
                .collect(),
            _ => random_text(&mut rng),
        };
        let mut bytes = match rng.below(3) {
            0 => encoding_rs::SHIFT_JIS.encode(&text).0.into_owned(),
            1 => encoding_rs::EUC_JP.encode(&text).0.into_owned(),
            _ => text.clone().into_bytes(),
        };
        // Stray bytes: controls, high bytes, broken sequences.
        for _ in 0..rng.below(4) {
            let at = rng.below(bytes.len() + 1);
            let b = [0x00, 0x07, 0x7f, 0x80, 0x8e, 0x9f, 0xa4, 0xc2, 0xe3, 0xff][rng.below(10)];
            bytes.insert(at, b);
        }
        let expected = reference_decode(&bytes);
        assert_eq!(decode(&bytes), expected, "{bytes:?}");
        let (text, encoding) = decode_borrowed(&bytes);
        assert_eq!((text.into_owned(), encoding), expected);
    }
}
