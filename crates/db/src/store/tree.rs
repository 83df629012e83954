//! The `tree` column: what a record holds beyond its main line (variations and bookmarks),
//! in a compact binary form. The main line itself, its times and comments are in their own
//! columns; [`graft`] puts the rest back on the main line rebuilt from them.
//!
//! Layout (varints are LEB128, strings a varint length and UTF-8 bytes, a list a varint
//! count and its items):
//!
//! ```text
//! tree     = MARKER, list of strings (the start's bookmarks), entries, 0
//! entries  = { varint (ply - previous entry's ply, >= 1), list of strings (bookmarks),
//!              list of lines (variations) }        -- ply: the main-line move they belong to
//! line     = varint moves, { move, terminal }
//! move     = u16 LE (Move::to_u16), flags byte,
//!            [time: varint ms spent, [varint ms total]],
//!            [list comments], [list engine], [list bookmarks], [list of lines]
//! terminal = flags byte (0: none), [string code], [varint ms spent, [varint ms total]],
//!            [list comments]
//! ```
//!
//! [`MARKER`] is a first byte no raw deflate stream has (block type 3), so a column written
//! by schema 3's first version (deflated KIF) or by schema 2 (KIF text) still reads.

use kifudex_notation::{Line, MoveNode, MoveTime, Record, Terminal, TerminalKind};
use kifudex_shogi::{Move, Position};

use super::codec::{get_varint, ms, put_varint};

/// The first byte of a binary tree: BFINAL 1, BTYPE 11, which raw deflate never uses.
pub(super) const MARKER: u8 = 0x07;

const TIME: u8 = 1;
const TOTAL: u8 = 2;
const COMMENTS: u8 = 4;
const ENGINE: u8 = 8;
const BOOKMARKS: u8 = 16;
const VARIATIONS: u8 = 32;
/// Terminal flags: present (with its code), and then the move flags above.
const PRESENT: u8 = 64;

/// Whether a record holds anything beyond its main line's columns.
fn needed(rec: &Record) -> bool {
    !rec.start_bookmarks.is_empty()
        || rec
            .main
            .moves
            .iter()
            .any(|m| !m.variations.is_empty() || !m.bookmarks.is_empty())
}

/// The `tree` column of a record, or `None` when it has neither variations nor bookmarks.
pub(super) fn encode(rec: &Record) -> Option<Vec<u8>> {
    if !needed(rec) {
        return None;
    }
    let mut out = vec![MARKER];
    put_strings(&mut out, &rec.start_bookmarks);
    let mut last = 0;
    for (i, node) in rec.main.moves.iter().enumerate() {
        if node.variations.is_empty() && node.bookmarks.is_empty() {
            continue;
        }
        put_varint(&mut out, (i + 1 - last) as u64);
        last = i + 1;
        put_strings(&mut out, &node.bookmarks);
        put_varint(&mut out, node.variations.len() as u64);
        for line in &node.variations {
            put_line(&mut out, line);
        }
    }
    out.push(0);
    Some(out)
}

fn put_strings(out: &mut Vec<u8>, list: &[String]) {
    put_varint(out, list.len() as u64);
    for s in list {
        put_string(out, s);
    }
}

fn put_string(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

fn time_flags(time: Option<MoveTime>) -> u8 {
    match time {
        Some(MoveTime { total: Some(_), .. }) => TIME | TOTAL,
        Some(_) => TIME,
        None => 0,
    }
}

fn put_time(out: &mut Vec<u8>, time: Option<MoveTime>) {
    if let Some(t) = time {
        put_varint(out, ms(t.spent));
        if let Some(total) = t.total {
            put_varint(out, ms(total));
        }
    }
}

fn put_line(out: &mut Vec<u8>, line: &Line) {
    put_varint(out, line.moves.len() as u64);
    for node in &line.moves {
        out.extend_from_slice(&node.mv.to_u16().to_le_bytes());
        let mut flags = time_flags(node.time);
        for (list, flag) in [
            (&node.comments, COMMENTS),
            (&node.engine, ENGINE),
            (&node.bookmarks, BOOKMARKS),
        ] {
            if !list.is_empty() {
                flags |= flag;
            }
        }
        if !node.variations.is_empty() {
            flags |= VARIATIONS;
        }
        out.push(flags);
        put_time(out, node.time);
        for list in [&node.comments, &node.engine, &node.bookmarks] {
            if !list.is_empty() {
                put_strings(out, list);
            }
        }
        if !node.variations.is_empty() {
            put_varint(out, node.variations.len() as u64);
            for v in &node.variations {
                put_line(out, v);
            }
        }
    }
    match &line.terminal {
        None => out.push(0),
        Some(t) => {
            let mut flags = PRESENT | time_flags(t.time);
            if !t.comments.is_empty() {
                flags |= COMMENTS;
            }
            out.push(flags);
            put_string(out, t.kind.code());
            put_time(out, t.time);
            if !t.comments.is_empty() {
                put_strings(out, &t.comments);
            }
        }
    }
}

/// Puts a tree's variations and bookmarks on `rec`, whose main line is already rebuilt
/// from the columns. Variation moves are replayed for the rules they break. `Err` names
/// what is damaged.
pub(super) fn graft(rec: &mut Record, blob: &[u8]) -> Result<(), String> {
    let mut r = Reader { rest: blob };
    if r.byte()? != MARKER {
        return Err("not a kifudex tree".into());
    }
    rec.start_bookmarks = r.strings()?;
    let mut pos = rec.start.clone();
    let mut ply = 0usize;
    loop {
        let gap = r.varint()? as usize;
        if gap == 0 {
            break;
        }
        let target = ply
            .checked_add(gap)
            .filter(|&t| t <= rec.main.moves.len())
            .ok_or("an entry past the main line")?;
        while ply + 1 < target {
            pos.apply(rec.main.moves[ply].mv);
            ply += 1;
        }
        let bookmarks = r.strings()?;
        let count = r.count()?;
        let mut variations = Vec::with_capacity(count);
        for _ in 0..count {
            variations.push(r.line(&pos, 0)?);
        }
        let node = &mut rec.main.moves[target - 1];
        node.bookmarks = bookmarks;
        node.variations = variations;
        pos.apply(node.mv);
        ply = target;
    }
    if !r.rest.is_empty() {
        return Err("bytes after the end".into());
    }
    Ok(())
}

struct Reader<'a> {
    rest: &'a [u8],
}

/// Variations nest no deeper than this (a damaged column could claim any depth).
const MAX_DEPTH: usize = 256;

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, String> {
        let (&b, rest) = self.rest.split_first().ok_or("cut short")?;
        self.rest = rest;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64, String> {
        get_varint(&mut self.rest).ok_or_else(|| "cut short".to_string())
    }

    /// A count of items of at least one byte each, so a damaged count cannot reserve more
    /// than the column holds.
    fn count(&mut self) -> Result<usize, String> {
        let n = self.varint()?;
        if n > self.rest.len() as u64 {
            return Err("a count larger than the column".into());
        }
        Ok(n as usize)
    }

    fn string(&mut self) -> Result<String, String> {
        let n = self.count()?;
        let (s, rest) = self.rest.split_at(n);
        self.rest = rest;
        String::from_utf8(s.to_vec()).map_err(|_| "text that is not UTF-8".to_string())
    }

    fn strings(&mut self) -> Result<Vec<String>, String> {
        let n = self.count()?;
        (0..n).map(|_| self.string()).collect()
    }

    fn time(&mut self, flags: u8) -> Result<Option<MoveTime>, String> {
        if flags & TIME == 0 {
            return Ok(None);
        }
        let spent = self.varint()? as f64 / 1000.0;
        let total = match flags & TOTAL {
            0 => None,
            _ => Some(self.varint()? as f64 / 1000.0),
        };
        Ok(Some(MoveTime { spent, total }))
    }

    fn line(&mut self, start: &Position, depth: usize) -> Result<Line, String> {
        if depth > MAX_DEPTH {
            return Err("variations nested too deep".into());
        }
        let n = self.count()?;
        let mut line = Line {
            moves: Vec::with_capacity(n),
            terminal: None,
        };
        let mut pos = start.clone();
        for _ in 0..n {
            let code = u16::from_le_bytes([self.byte()?, self.byte()?]);
            let mv = Move::from_u16(code).ok_or("a bad move")?;
            let flags = self.byte()?;
            let mut node = MoveNode::new(mv);
            node.time = self.time(flags)?;
            if flags & COMMENTS != 0 {
                node.comments = self.strings()?;
            }
            if flags & ENGINE != 0 {
                node.engine = self.strings()?;
            }
            if flags & BOOKMARKS != 0 {
                node.bookmarks = self.strings()?;
            }
            if flags & VARIATIONS != 0 {
                let k = self.count()?;
                for _ in 0..k {
                    node.variations.push(self.line(&pos, depth + 1)?);
                }
            }
            node.violations = pos
                .play(mv)
                .map_err(|e| format!("variation move {}: {e}", mv.usi()))?;
            line.moves.push(node);
        }
        let flags = self.byte()?;
        if flags & PRESENT != 0 {
            let code = self.string()?;
            let kind = TerminalKind::from_code(&code).ok_or("a bad terminal")?;
            let time = self.time(flags)?;
            let comments = match flags & COMMENTS {
                0 => Vec::new(),
                _ => self.strings()?,
            };
            line.terminal = Some(Terminal {
                kind,
                time,
                comments,
            });
        }
        Ok(line)
    }
}
