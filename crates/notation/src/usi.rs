//! USI/SFEN records: one game a line, as the USI protocol's `position` command gives it
//! (`position startpos moves 7g7f 3c3d`, `position sfen <sfen> moves …`), without the word
//! `position` (`startpos moves …`, `sfen … moves …`), or a bare SFEN (perhaps followed by
//! `moves …`). A file of N non-empty lines holds N games. USI has no headers, comments,
//! times, variations or endings: a record's main line is all it keeps.

use super::build::OpenLine;
use super::decode::Lines;
use super::movetext::{MoveTextError, MoveTextErrorKind};
use super::record::{ReadError, Record};
use kifudex_shogi::{Move, Position, Strictness};

/// Reads every non-empty line of `text` as one game. A line that gives no position (junk, a
/// damaged SFEN) is no game: its error goes with the game before it (the one after it, for
/// lines before the first game). When no line gives a position, the one record returned
/// is blank and holds every error (the file is then no USI record).
pub fn read_usi(text: &str) -> Vec<Record> {
    let mut games = Vec::new();
    read_usi_each(text, &mut |g| games.push(g));
    games
}

/// [`read_usi`], each game handed to `each` once its errors are known (when the next game's
/// line comes, or the text ends), instead of returned.
pub fn read_usi_each(text: &str, each: &mut dyn FnMut(Record)) {
    let mut current: Option<Record> = None;
    let mut orphans: Vec<ReadError> = Vec::new();
    let mut first = true;
    for (i, l) in Lines::new(text).enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        match read_line(l, i + 1) {
            Ok(mut rec) => {
                if first {
                    rec.errors.splice(0..0, orphans.drain(..));
                    first = false;
                }
                if let Some(done) = current.replace(rec) {
                    each(done);
                }
            }
            Err(e) => match current.as_mut() {
                Some(g) => g.errors.push(e),
                None => orphans.push(e),
            },
        }
    }
    match current {
        Some(g) => each(g),
        None if !orphans.is_empty() => each(Record {
            errors: orphans,
            ..Record::default()
        }),
        None => {}
    }
}

/// The words of a line with their byte offsets.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &line[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

/// Reads one line (line `n` of its file) as a game. A position that cannot be read leaves
/// the even start and no moves; a move that cannot be read or played ends the game there.
pub fn read_usi_line(line: &str, n: usize) -> Record {
    read_line(line, n).unwrap_or_else(|e| Record {
        errors: vec![e],
        ..Record::default()
    })
}

/// One line as a game; `Err` when it gives no position.
fn read_line(line: &str, n: usize) -> Result<Record, ReadError> {
    let mut rec = Record {
        start: Position::startpos(),
        ..Record::default()
    };
    let col = |offset: usize| line[..offset].chars().count() + 1;
    let words = words(line);
    let mut i = 0;
    if words.first().is_some_and(|w| w.1 == "position") {
        i += 1;
    }
    match words.get(i) {
        Some((_, "startpos")) => {
            i += 1;
            rec.start_stated = true;
        }
        Some((at, w)) => {
            let sfen_at = if *w == "sfen" { i + 1 } else { i };
            // A bare SFEN starts with a board of nine ranks.
            if *w != "sfen" && !w.contains('/') {
                return Err(ReadError::new(
                    n,
                    col(*at),
                    format!("expected startpos, sfen or an SFEN position, found '{w}'"),
                ));
            }
            let mut end = (sfen_at + 3).min(words.len());
            if words
                .get(end)
                .is_some_and(|w| w.1.bytes().all(|b| b.is_ascii_digit()))
            {
                end += 1;
            }
            let fields: Vec<&str> = words[sfen_at.min(end)..end].iter().map(|w| w.1).collect();
            let at = words.get(sfen_at).map_or(line.len(), |w| w.0);
            match Position::from_sfen_with(&fields.join(" "), Strictness::PiecesOnly) {
                Ok(p) => {
                    rec.start = p;
                    rec.start_stated = true;
                }
                Err(e) => {
                    // Point at the character that is wrong, not at the SFEN's start.
                    let at = match e.at(&fields) {
                        Some((f, off)) => words.get(sfen_at + f).map_or(at, |w| w.0 + off),
                        None => at,
                    };
                    return Err(ReadError::new(
                        n,
                        col(at),
                        format!("the SFEN is not a position: {e}"),
                    ));
                }
            }
            i = end;
        }
        None => return Ok(rec),
    }
    match words.get(i) {
        None => return Ok(rec),
        Some((_, "moves")) => i += 1,
        Some((at, w)) => {
            rec.errors.push(ReadError::new(
                n,
                col(*at),
                format!("expected 'moves' after the position, found '{w}'; the rest of the line is ignored"),
            ));
            return Ok(rec);
        }
    }
    let mut open = OpenLine::main(rec.start.clone());
    for (ply, &(at, w)) in words[i..].iter().enumerate() {
        let played = Move::from_usi(w)
            .map_err(|e| MoveTextError::new(MoveTextErrorKind::Syntax, e.to_string()))
            .and_then(|mv| open.play(&mut rec.main, mv, None, w));
        if let Err(e) = played {
            let message = format!("move {}: {e}; the rest of the line is ignored", ply + 1);
            open.fail(&mut rec, ReadError::new(n, col(at), message));
            break;
        }
    }
    Ok(rec)
}

/// The record's main line as one USI line: `startpos moves …` from the even start (move
/// number 1), otherwise `sfen <SFEN> moves …`; no `moves` when there is none. No newline.
pub fn write_usi(rec: &Record) -> String {
    let mut out = if rec.start == Position::startpos() {
        "startpos".to_string()
    } else {
        format!("sfen {}", rec.start.to_sfen())
    };
    if !rec.main.moves.is_empty() {
        out.push_str(" moves");
        for node in &rec.main.moves {
            out.push(' ');
            out.push_str(&node.mv.usi());
        }
    }
    out
}
