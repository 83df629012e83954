//! Writing records in any format kifudex writes: the bytes (in the encoding the target's
//! files use) and what the target could not hold, so that a caller reports it (once for a
//! whole export, once per file for `convert`).

use std::fmt;
use std::str::FromStr;

use super::csa::{self, CsaVersion};
use super::movelist::{self, Notation};
use super::{Line, Record, TerminalKind, jkf, kif, psn, usi};

/// A format to write, with its encoding.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// KIF in Shift-JIS (CP932), as `.kif` files are.
    Kif,
    /// KIF in UTF-8, as `.kifu` files are.
    Kifu,
    /// KI2 in Shift-JIS (CP932), as `.ki2` files are: no times.
    Ki2,
    /// KI2 in UTF-8, as `.ki2u` files are: no times.
    Ki2u,
    /// CSA in UTF-8, every game (separated by `/` lines): no variations or bookmarks.
    Csa,
    /// JKF (JSON Kifu Format), UTF-8: no bookmarks.
    Jkf,
    /// USI position lines (`startpos moves …`, `sfen … moves …`), one a game: main lines only.
    Usi,
    /// PSN (Portable Shogi Notation, Western moves), every game: no times or bookmarks.
    Psn,
    /// A numbered move list in Kitao–Kawasaki notation (☗歩-76), headers as `#` lines: the
    /// main line only.
    Kk,
}

impl Target {
    pub const ALL: [Target; 9] = [
        Target::Kif,
        Target::Kifu,
        Target::Ki2,
        Target::Ki2u,
        Target::Csa,
        Target::Jkf,
        Target::Usi,
        Target::Psn,
        Target::Kk,
    ];

    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Target::Kif | Target::Kifu => "KIF",
            Target::Ki2 | Target::Ki2u => "KI2",
            Target::Csa => "CSA",
            Target::Jkf => "JKF",
            Target::Usi => "USI",
            Target::Psn => "PSN",
            Target::Kk => "Kitao–Kawasaki",
        }
    }

    /// The file name extension (and the name on the command line).
    pub fn extension(self) -> &'static str {
        match self {
            Target::Kif => "kif",
            Target::Kifu => "kifu",
            Target::Ki2 => "ki2",
            Target::Ki2u => "ki2u",
            Target::Csa => "csa",
            Target::Jkf => "jkf",
            Target::Usi => "usi",
            Target::Psn => "psn",
            Target::Kk => "kk",
        }
    }

    /// Whether one file of this format holds several games.
    pub fn holds_many(self) -> bool {
        matches!(self, Target::Csa | Target::Usi | Target::Psn)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.extension())
    }
}

impl FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Target, String> {
        let lower = s.to_ascii_lowercase();
        Target::ALL
            .into_iter()
            .find(|t| t.extension() == lower)
            .ok_or_else(|| {
                let names: Vec<&str> = Target::ALL.iter().map(|t| t.extension()).collect();
                format!("'{s}' is no format kifudex writes: {}", names.join(", "))
            })
    }
}

/// Something of the records that the target had no place for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dropped {
    /// CSA `'` remarks (only CSA holds them).
    Remarks(usize),
    /// Move times (KI2, USI, PSN).
    Times,
    Variations(usize),
    Bookmarks(usize),
    Headers,
    Comments,
    /// Engine output kept apart from the comments (KIF `**`, CSA `'**`).
    EngineLines,
    /// The ending (投了, 千日手 …): USI has no word for it.
    Endings,
    /// JKF has no move number for the start position.
    MoveNumber,
    /// JKF's schema has no special for the ending.
    NonstandardSpecial,
    /// CSA has no word for 不戦勝 or 不戦敗.
    DefaultResult,
    /// CSA V2.2 times are whole seconds.
    Fractions,
    /// Characters with no Shift-JIS form, written as `&#NNNN;`.
    NotShiftJis,
    /// Headers under a key another header already takes: a JKF header is a JSON object,
    /// one value a key (two `$MEMO` lines of a CSA file); the first is written.
    RepeatedHeaders(usize),
}

impl Dropped {
    /// The same kind of loss, whatever its count: what a report of many files groups by.
    pub fn kind(&self) -> Dropped {
        match self {
            Dropped::Remarks(_) => Dropped::Remarks(0),
            Dropped::Variations(_) => Dropped::Variations(0),
            Dropped::Bookmarks(_) => Dropped::Bookmarks(0),
            Dropped::RepeatedHeaders(_) => Dropped::RepeatedHeaders(0),
            d => d.clone(),
        }
    }
}

/// The sentences that tell what `dropped` lost in `to` (without the program's name): the
/// parts a format simply has no place for in one sentence, the others one each.
pub fn messages(dropped: &[Dropped], to: Target) -> Vec<String> {
    let f = to.name();
    let grouped = matches!(to, Target::Jkf | Target::Usi | Target::Psn | Target::Kk);
    let mut out = Vec::new();
    let mut group: Vec<&str> = Vec::new();
    let mut group_at = None;
    for d in dropped {
        let part = match d {
            Dropped::Headers => Some("headers"),
            Dropped::Comments => Some("comments"),
            Dropped::EngineLines => Some("engine lines (KIF's **)"),
            Dropped::Bookmarks(_) => Some("bookmarks"),
            Dropped::Times => Some("times"),
            Dropped::Variations(_) => Some("variations"),
            Dropped::Endings => Some("endings (投了, 千日手…)"),
            _ => None,
        };
        if let (true, Some(part)) = (grouped, part) {
            group_at.get_or_insert(out.len());
            group.push(part);
            continue;
        }
        out.push(match d {
            Dropped::Remarks(n) => format!(
                "{f} has no place for the file's remarks (CSA ' lines): {n} are not written"
            ),
            Dropped::Times => "KI2 has no times: the move times are not written".into(),
            Dropped::Variations(n) => format!("{f} has no variations: {n} are not written"),
            Dropped::Bookmarks(n) => format!("{f} has no bookmarks: {n} are not written"),
            Dropped::Headers | Dropped::Comments | Dropped::EngineLines | Dropped::Endings => {
                format!("{f} cannot hold {}: not written", part.unwrap_or_default())
            }
            Dropped::MoveNumber => {
                "JKF has no move number for the start position: not written".into()
            }
            Dropped::NonstandardSpecial => "the JKF schema has no special for an ending of this record; written as MAX_MOVES, FUSENSHO or FUSENPAI".into(),
            Dropped::DefaultResult => {
                "CSA has no word for 不戦勝 or 不戦敗: written as %CHUDAN with a remark that says which (kifudex reads it back)".into()
            }
            Dropped::Fractions => "CSA V2.2 times are whole seconds: fractions are cut off (--csa-version 3.0 keeps them)".into(),
            Dropped::NotShiftJis => "some characters have no Shift-JIS form and were written as &#NNNN; references".into(),
            Dropped::RepeatedHeaders(n) => format!(
                "JKF holds one header value a key; headers that repeat a key: {n} are not written"
            ),
        });
    }
    if let Some(at) = group_at {
        let f = if to == Target::Kk { "a move list" } else { f };
        out.insert(at, format!("{f} cannot hold {}: not written", list(&group)));
    }
    out
}

/// "a", "a and b", "a, b and c".
fn list(items: &[&str]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.to_string(),
        None => String::new(),
    }
}

/// Written records: the bytes, and what the target could not hold.
#[derive(Debug, Clone)]
pub struct Written {
    pub bytes: Vec<u8>,
    pub dropped: Vec<Dropped>,
}

/// The games in the target format (the first game only, unless the target holds several).
pub fn write(games: &[Record], to: Target, csa_version: CsaVersion) -> Written {
    let mut dropped = Vec::new();
    let Some(game) = games.first() else {
        return Written {
            bytes: Vec::new(),
            dropped,
        };
    };
    let games = if to.holds_many() {
        games
    } else {
        std::slice::from_ref(game)
    };
    let notes: usize = games.iter().map(|g| g.notes.len()).sum();
    if notes > 0 && to != Target::Csa {
        dropped.push(Dropped::Remarks(notes));
    }
    if to == Target::Kifu {
        // UTF-8 as written: no String to check and turn back into bytes.
        return Written {
            bytes: kif::write_kif_bytes(game),
            dropped,
        };
    }
    let has = |f: fn(&Record) -> bool| games.iter().any(f);
    let text = match to {
        Target::Kif | Target::Kifu => kif::write_kif(game),
        Target::Ki2 | Target::Ki2u => {
            if has_times(&game.main) {
                dropped.push(Dropped::Times);
            }
            kif::write_ki2(game)
        }
        Target::Csa => {
            csa_losses(games, csa_version, &mut dropped);
            csa::write_csa_games(games, csa_version)
        }
        Target::Jkf => {
            let marks = bookmarks(game);
            if marks > 0 {
                dropped.push(Dropped::Bookmarks(marks));
            }
            if game.start.move_number() != 1 {
                dropped.push(Dropped::MoveNumber);
            }
            if jkf::has_nonstandard_special(game) {
                dropped.push(Dropped::NonstandardSpecial);
            }
            let repeated = jkf::repeated_headers(game);
            if repeated > 0 {
                dropped.push(Dropped::RepeatedHeaders(repeated));
            }
            jkf::write_jkf(game)
        }
        Target::Usi => {
            if has(|g| !g.headers.is_empty()) {
                dropped.push(Dropped::Headers);
            }
            if has(|g| !g.start_comments.is_empty() || g.main.comment_count() > 0) {
                dropped.push(Dropped::Comments);
            }
            if has(has_engine_lines) {
                dropped.push(Dropped::EngineLines);
            }
            let marks: usize = games.iter().map(bookmarks).sum();
            if marks > 0 {
                dropped.push(Dropped::Bookmarks(marks));
            }
            if has(|g| has_times(&g.main)) {
                dropped.push(Dropped::Times);
            }
            let variations: usize = games.iter().map(|g| g.main.variation_count()).sum();
            if variations > 0 {
                dropped.push(Dropped::Variations(variations));
            }
            if has(|g| g.main.terminal.is_some()) {
                dropped.push(Dropped::Endings);
            }
            games.iter().map(|g| usi::write_usi(g) + "\n").collect()
        }
        Target::Kk => {
            if !game.start_comments.is_empty() || game.main.comment_count() > 0 {
                dropped.push(Dropped::Comments);
            }
            if has_engine_lines(game) {
                dropped.push(Dropped::EngineLines);
            }
            let marks = bookmarks(game);
            if marks > 0 {
                dropped.push(Dropped::Bookmarks(marks));
            }
            if has_times(&game.main) {
                dropped.push(Dropped::Times);
            }
            let variations = game.main.variation_count();
            if variations > 0 {
                dropped.push(Dropped::Variations(variations));
            }
            movelist::write_move_list(game, Notation::KitaoKawasaki, true)
        }
        Target::Psn => {
            if has(|g| has_times(&g.main)) {
                dropped.push(Dropped::Times);
            }
            if has(has_engine_lines) {
                dropped.push(Dropped::EngineLines);
            }
            let marks: usize = games.iter().map(bookmarks).sum();
            if marks > 0 {
                dropped.push(Dropped::Bookmarks(marks));
            }
            games
                .iter()
                .map(psn::write_psn)
                .collect::<Vec<_>>()
                .join("\n")
        }
    };
    let bytes = match to {
        Target::Kif | Target::Ki2 => {
            let (encoded, lossy) = super::decode::encode_shift_jis(&text);
            if lossy {
                dropped.push(Dropped::NotShiftJis);
            }
            encoded
        }
        _ => text.into_bytes(),
    };
    Written { bytes, dropped }
}

/// What CSA cannot hold of these games.
fn csa_losses(games: &[Record], version: CsaVersion, dropped: &mut Vec<Dropped>) {
    let variations: usize = games.iter().map(|g| g.main.variation_count()).sum();
    if variations > 0 {
        dropped.push(Dropped::Variations(variations));
    }
    let marks: usize = games.iter().map(bookmarks).sum();
    if marks > 0 {
        dropped.push(Dropped::Bookmarks(marks));
    }
    if games.iter().any(|g| {
        matches!(
            g.terminal(),
            Some(TerminalKind::DefaultWin | TerminalKind::DefaultLoss)
        )
    }) {
        dropped.push(Dropped::DefaultResult);
    }
    let fractions = games.iter().any(|g| {
        g.main
            .moves
            .iter()
            .filter_map(|m| m.time)
            .chain(g.main.terminal.as_ref().and_then(|t| t.time))
            .any(|t| t.spent.fract() != 0.0)
    });
    if fractions && version == CsaVersion::V2_2 {
        dropped.push(Dropped::Fractions);
    }
}

/// Whether the record holds engine lines (on the start position or any move).
fn has_engine_lines(rec: &Record) -> bool {
    !rec.start_engine.is_empty() || rec.main.engine_line_count() > 0
}

/// Bookmarks of the record: on the start position and on the moves of every line.
fn bookmarks(rec: &Record) -> usize {
    fn walk(line: &Line) -> usize {
        line.moves
            .iter()
            .map(|m| m.bookmarks.len() + m.variations.iter().map(walk).sum::<usize>())
            .sum()
    }
    rec.start_bookmarks.len() + walk(&rec.main)
}

fn has_times(line: &Line) -> bool {
    line.moves
        .iter()
        .any(|m| m.time.is_some() || m.variations.iter().any(has_times))
        || line.terminal.as_ref().is_some_and(|t| t.time.is_some())
}
