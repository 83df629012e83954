//! CSA writing: V2.2 by default, V3.0 on request (times with fractions of a second). Headers
//! in their order (under their CSA names: see [`crate::headers`]), `PI` for a named handicap or `P1`–`P9`
//! rows with `P+`/`P-` hands, moves with `T` times, `'*` comments, `'**` engine lines, notes,
//! and the terminal. CSA has no variations and no bookmarks: they are not written.

use std::fmt::Write;

use kifudex_shogi::{Color, Handicap, Move, PieceKind, Position, Square};

use crate::headers::{KeyStyle, keys_for};
use crate::record::{MoveTime, Note, Record, TerminalKind};

/// The CSA version a record is written in.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum CsaVersion {
    /// V2.2 (2008): whole seconds.
    #[default]
    V2_2,
    /// V3.0: times to the millisecond.
    V3_0,
}

impl CsaVersion {
    /// `2.2` or `3.0` (a leading `V` is allowed).
    pub fn from_name(name: &str) -> Option<CsaVersion> {
        match name.strip_prefix(['V', 'v']).unwrap_or(name) {
            "2.2" => Some(CsaVersion::V2_2),
            "3.0" | "3" => Some(CsaVersion::V3_0),
            _ => None,
        }
    }

    /// The version line: `V2.2` or `V3.0`.
    pub fn line(self) -> &'static str {
        match self {
            CsaVersion::V2_2 => "V2.2",
            CsaVersion::V3_0 => "V3.0",
        }
    }
}

/// The `%` word for a terminal, `to_move` being the side to move when it comes. Kinds CSA
/// has no word for (不戦勝, 不戦敗) are written `%CHUDAN`, followed by a remark in KIF's words
/// that says which ([`default_remark`]).
pub fn terminal_word(kind: TerminalKind, to_move: Color) -> &'static str {
    super::terminals::write(kind, to_move).unwrap_or("%CHUDAN")
}

/// The remark written after the `%CHUDAN` of a kind CSA has no word for: the KIF summary
/// (`まで0手で先手の不戦勝`), which a person reads and the reader takes as the kind.
pub(super) fn default_remark(kind: TerminalKind, plies: usize, to_move: Color) -> Option<String> {
    super::terminals::write(kind, to_move)
        .is_none()
        .then(|| format!("まで{plies}手で{}", crate::kif::summary_text(kind, to_move)))
}

/// Several games in one file, separated by `/` lines.
pub fn write_csa_games(records: &[Record], version: CsaVersion) -> String {
    let games: Vec<String> = records.iter().map(|r| write_csa(r, version)).collect();
    games.join("/\n")
}

/// The record as CSA text (UTF-8; the caller encodes it).
pub fn write_csa(rec: &Record, version: CsaVersion) -> String {
    let mut out = String::with_capacity(64 + rec.main.moves.len() * 16);
    out.push_str(version.line());
    out.push('\n');
    for (key, (_, value)) in keys_for(&rec.headers, KeyStyle::Csa, false)
        .iter()
        .zip(&rec.headers)
    {
        match key {
            Some(k) if k == "N+" || k == "N-" => {
                let _ = writeln!(out, "{k}{value}");
            }
            Some(k) => {
                let _ = writeln!(out, "{k}:{value}");
            }
            None => {}
        }
    }
    start_position(&mut out, &rec.start);
    notes(&mut out, &rec.notes, 0);
    for c in &rec.start_comments {
        let _ = writeln!(out, "'*{c}");
    }
    for e in &rec.start_engine {
        let _ = writeln!(out, "'**{e}");
    }
    let mut pos = rec.start.clone();
    for (i, node) in rec.main.moves.iter().enumerate() {
        move_text(&mut out, &pos, node.mv);
        time(&mut out, node.time, version);
        for c in &node.comments {
            let _ = writeln!(out, "'*{c}");
        }
        for e in &node.engine {
            let _ = writeln!(out, "'**{e}");
        }
        notes(&mut out, &rec.notes, i + 1);
        let _ = pos.play(node.mv);
    }
    let after_moves = rec.main.moves.len() + 1;
    if let Some(t) = &rec.main.terminal {
        out.push_str(terminal_word(t.kind, pos.side_to_move()));
        out.push('\n');
        time(&mut out, t.time, version);
        for c in &t.comments {
            let _ = writeln!(out, "'*{c}");
        }
        if let Some(remark) = default_remark(t.kind, rec.main.moves.len(), pos.side_to_move()) {
            let _ = writeln!(out, "'{remark}");
        }
    }
    // Notes after the terminal (and any placed beyond the end of the line).
    for n in rec.notes.iter().filter(|n| n.after >= after_moves) {
        let _ = writeln!(out, "'{}", n.text);
    }
    out
}

fn notes(out: &mut String, notes: &[Note], after: usize) {
    for n in notes.iter().filter(|n| n.after == after) {
        let _ = writeln!(out, "'{}", n.text);
    }
}

/// `T12`: V2.2 truncates to whole seconds, as its specification says; V3.0 keeps the fraction.
fn time(out: &mut String, time: Option<MoveTime>, version: CsaVersion) {
    let Some(t) = time else { return };
    let spent = if t.spent.is_finite() {
        t.spent.max(0.0)
    } else {
        0.0
    };
    match version {
        CsaVersion::V2_2 => {
            let _ = writeln!(out, "T{}", spent.trunc() as u64);
        }
        // Rust prints the shortest text that reads back as the same number.
        CsaVersion::V3_0 => {
            let _ = writeln!(out, "T{spent}");
        }
    }
}

/// `+7776FU`: sign, origin (`00` for a drop), destination, and the piece after the move.
fn move_text(out: &mut String, pos: &Position, mv: Move) {
    push_csa_move(out, pos, mv);
    out.push('\n');
}

/// Appends the move as a CSA statement, `+7776FU` (the piece after the move).
pub fn push_csa_move(out: &mut String, pos: &Position, mv: Move) {
    out.push(if pos.side_to_move() == Color::Black {
        '+'
    } else {
        '-'
    });
    let (from, to, kind) = match mv {
        Move::Board { from, to, promote } => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            let kind = if promote {
                kind.promoted().unwrap_or(kind)
            } else {
                kind
            };
            (Some(from), to, kind)
        }
        Move::Drop { kind, to } => (None, to, kind),
    };
    push_square(out, from);
    push_square(out, Some(to));
    out.push_str(kind.csa());
}

fn push_square(out: &mut String, sq: Option<Square>) {
    match sq {
        Some(s) => {
            out.push((b'0' + s.file()) as char);
            out.push((b'0' + s.rank()) as char);
        }
        None => out.push_str("00"),
    }
}

/// `PI` (with the pieces a named handicap takes off) when the board and hands are a named
/// start, otherwise the nine rows and the hands; then the side to move.
fn start_position(out: &mut String, pos: &Position) {
    let named = Handicap::ALL.into_iter().find(|&h| {
        h.position().is_some_and(|p| {
            p.board() == pos.board()
                && p.hand(Color::Black) == pos.hand(Color::Black)
                && p.hand(Color::White) == pos.hand(Color::White)
        })
    });
    match named.and_then(Handicap::csa_pi) {
        Some(pi) => {
            out.push_str(&pi);
            out.push('\n');
        }
        None => {
            for rank in 1..=9u8 {
                let _ = write!(out, "P{rank}");
                for file in (1..=9u8).rev() {
                    match Square::new(file, rank).and_then(|s| pos.piece_at(s)) {
                        Some(p) => {
                            out.push(if p.color == Color::Black { '+' } else { '-' });
                            out.push_str(p.kind.csa());
                        }
                        None => out.push_str(" * "),
                    }
                }
                out.push('\n');
            }
            for (color, sign) in [(Color::Black, "P+"), (Color::White, "P-")] {
                let hand = pos.hand(color);
                if hand.is_empty() {
                    continue;
                }
                out.push_str(sign);
                for kind in PieceKind::HAND_BY_VALUE {
                    for _ in 0..hand.count(kind) {
                        out.push_str("00");
                        out.push_str(kind.csa());
                    }
                }
                out.push('\n');
            }
        }
    }
    out.push(if pos.side_to_move() == Color::Black {
        '+'
    } else {
        '-'
    });
    out.push('\n');
}
