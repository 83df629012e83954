//! KIF writing: headers in their order, a board diagram for a start that is no named
//! handicap, numbered moves with times, comments, bookmarks, terminals and 変化 variations.

use std::fmt::Write;

use kifudex_shogi::{BoardWalk, Color, Handicap, Move, PieceKind, Position, Square};

use crate::headers::{KeyStyle, keys_for};
use crate::japanese::{RANK_KANJI, kanji_count, kind_char, kind_name};
use crate::movetext::{KifMove, japanese, parse_japanese_move, resolve};
use crate::record::{Line, MoveTime, Record};

use super::results::{summary_text, terminal_name, terminal_text};

/// Header keys the reader takes for the board diagram; the writer rebuilds them from the position.
const BOARD_KEYS: [&str; 4] = ["先手の持駒", "後手の持駒", "下手の持駒", "上手の持駒"];

/// The record as KIF text (UTF-8; the caller encodes it for `.kif`).
pub fn write_kif(rec: &Record) -> String {
    let bytes = write_kif_bytes(rec);
    // Only whole characters are written: always valid.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// [`write_kif`]'s text as its UTF-8 bytes (a `.kifu` file), without checking them again.
pub fn write_kif_bytes(rec: &Record) -> Vec<u8> {
    let header = header_block(rec);
    // A move line with its time is about 40 bytes, and is added 61 at a time: one allocation
    // for most records.
    let mut out = Vec::with_capacity(header.len() + 128 + 48 * rec.main.moves.len());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice("手数----指手---------消費時間--\n".as_bytes());
    write_line_bytes(&mut out, &rec.main, &rec.start, None, 1);
    let mut variations = String::new();
    write_variations(&mut variations, &rec.main, &rec.start, None, 1, write_line);
    out.extend_from_slice(variations.as_bytes());
    out
}

/// The record as KI2 text: moves as they are spoken, six to a line, relative words where
/// needed; a line ends early at a comment. KI2 has no times.
pub fn write_ki2(rec: &Record) -> String {
    let mut out = header_block(rec);
    write_ki2_line(&mut out, &rec.main, &rec.start, None, 1);
    write_variations(&mut out, &rec.main, &rec.start, None, 1, write_ki2_line);
    out
}

/// `s` with each line break (CR LF, LF or CR) written as a space.
fn one_line(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains(['\n', '\r']) {
        s.replace("\r\n", " ").replace(['\n', '\r'], " ").into()
    } else {
        s.into()
    }
}

/// Whether the record is a handicap game, whose sides KIF calls 下手 and 上手: its start is a
/// named handicap, or its headers say so (players under 下手/上手, a 手合割 other than 平手).
pub fn is_handicap_game(rec: &Record) -> bool {
    handicap_game_of(rec, Handicap::detect(&rec.start))
}

/// [`is_handicap_game`] for a record whose start is `handicap` ([`Handicap::detect`]).
fn handicap_game_of(rec: &Record, handicap: Handicap) -> bool {
    let named = !matches!(handicap, Handicap::Even | Handicap::Other);
    named
        || rec.headers.iter().any(|(k, v)| match k.as_str() {
            "下手" | "上手" => true,
            "手合割" => Handicap::from_kif_name(v.trim()).is_some_and(|h| h != Handicap::Even),
            _ => false,
        })
}

/// `mark`, `text` and a line break, added to a `String`.
fn push_str_line(out: &mut String, mark: &str, text: &str) {
    out.push_str(mark);
    out.push_str(text);
    out.push('\n');
}

/// Headers, the start (手合割 or a board diagram), and comments and bookmarks on it.
fn header_block(rec: &Record) -> String {
    let mut out = String::with_capacity(256);
    let handicap = Handicap::detect(&rec.start);
    let handicap_game = handicap_game_of(rec, handicap);
    let mut wrote_handicap = false;
    // Other formats' keys (N+, $EVENT, Sente, Date) under their KIF names.
    let keys = keys_for(&rec.headers, KeyStyle::Kif, handicap_game);
    for (key, (_, value)) in keys.iter().zip(&rec.headers) {
        let Some(key) = key.as_deref() else {
            continue;
        };
        if BOARD_KEYS.contains(&key) {
            continue;
        }
        if key == "手合割" {
            wrote_handicap = true;
            if handicap != Handicap::Other {
                push_str_line(&mut out, "手合割：", handicap.kif_name());
                continue;
            }
        }
        // A KIF header is one line: a value read from JKF or PSN may hold line breaks.
        out.push_str(&one_line(key));
        push_str_line(&mut out, "：", &one_line(value));
    }
    if handicap == Handicap::Other {
        out.push_str(&board_diagram_with(&rec.start, handicap_game));
    } else if !wrote_handicap && handicap != Handicap::Even {
        // An absent 手合割 means 平手; any other handicap is named.
        push_str_line(&mut out, "手合割：", handicap.kif_name());
    }
    for c in &rec.start_comments {
        push_str_line(&mut out, "*", c);
    }
    for b in &rec.start_bookmarks {
        push_str_line(&mut out, "&", b);
    }
    for e in &rec.start_engine {
        push_str_line(&mut out, "**", e);
    }
    out
}

type LineWriter = fn(&mut String, &Line, &Position, Option<Square>, usize);

/// The move a KI2 reader takes `text` for on `pos`, if any.
fn ki2_reads(pos: &Position, text: &str, last_to: Option<Square>) -> Option<Move> {
    let (mv, _) = parse_japanese_move(text).ok()?;
    resolve(pos, &mv, last_to).ok()
}

fn write_ki2_line(
    out: &mut String,
    line: &Line,
    pos: &Position,
    last_to: Option<Square>,
    first_ply: usize,
) {
    let mut pos = pos.clone();
    let mut last_to = last_to;
    let mut on_line = 0;
    for node in &line.moves {
        let mut text = japanese(&pos, node.mv, last_to)
            .replace('☗', "▲")
            .replace('☖', "△");
        // A move KI2's words cannot name (a piece that cannot reach its square: a record's
        // impossible move, kept as data) takes KIF's origin, `(57)`, which a reader takes.
        if let Move::Board { from, .. } = node.mv
            && ki2_reads(&pos, &text, last_to) != Some(node.mv)
        {
            let _ = write!(text, "({}{})", from.file(), from.rank());
        }
        if on_line > 0 {
            // Pad to a common width so that columns line up.
            let width: usize = text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
            out.push_str(&" ".repeat(2 + 12usize.saturating_sub(width)));
        }
        out.push_str(&text);
        on_line += 1;
        let _ = pos.play(node.mv);
        last_to = Some(node.mv.to());
        if on_line == 6
            || !node.comments.is_empty()
            || !node.bookmarks.is_empty()
            || !node.engine.is_empty()
        {
            out.push('\n');
            on_line = 0;
        }
        for c in &node.comments {
            let _ = writeln!(out, "*{c}");
        }
        for b in &node.bookmarks {
            let _ = writeln!(out, "&{b}");
        }
        for e in &node.engine {
            let _ = writeln!(out, "**{e}");
        }
    }
    if on_line > 0 {
        out.push('\n');
    }
    if let Some(t) = &line.terminal {
        let plies = first_ply - 1 + line.moves.len();
        let _ = writeln!(
            out,
            "まで{plies}手で{}",
            summary_text(t.kind, pos.side_to_move())
        );
        for c in &t.comments {
            let _ = writeln!(out, "*{c}");
        }
    }
}

/// Writes the moves of `line` (its first move is ply `first_ply`, played from `pos`).
fn write_line(
    out: &mut String,
    line: &Line,
    pos: &Position,
    last_to: Option<Square>,
    first_ply: usize,
) {
    let mut bytes: Vec<u8> = Vec::with_capacity(64 + 40 * line.moves.len());
    write_line_bytes(&mut bytes, line, pos, last_to, first_ply);
    // Only whole characters were added: always valid.
    match std::str::from_utf8(&bytes) {
        Ok(text) => out.push_str(text),
        Err(_) => out.push_str(&String::from_utf8_lossy(&bytes)),
    }
}

/// [`write_line`] as UTF-8 bytes: a `String` checks every character pushed, and the
/// numbers went through the formatting machinery, which took most of an export's time.
fn write_line_bytes(
    bytes: &mut Vec<u8>,
    line: &Line,
    pos: &Position,
    last_to: Option<Square>,
    first_ply: usize,
) {
    // Naming a move needs only the board and the side to move.
    let mut pos = BoardWalk::of(pos);
    let mut last_to = last_to;
    for (i, node) in line.moves.iter().enumerate() {
        let moved = node.mv.from().and_then(|from| pos.piece_at(from));
        let text = KifMove::new(moved, pos.side_to_move(), node.mv, last_to);
        push_move_line(bytes, first_ply + i, &text, node.time);
        for c in &node.comments {
            push_line(bytes, b"*", c);
        }
        for b in &node.bookmarks {
            push_line(bytes, b"&", b);
        }
        for e in &node.engine {
            push_line(bytes, b"**", e);
        }
        // Only the position matters here, not the rules the move broke.
        let _ = pos.play_quietly(node.mv);
        last_to = Some(node.mv.to());
    }
    if let Some(t) = &line.terminal {
        let n = first_ply + line.moves.len();
        write_move_line(bytes, n, terminal_text(t.kind), t.time);
        for c in &t.comments {
            push_line(bytes, b"*", c);
        }
        // A kind the specification has no word for: the move line says the nearest word,
        // the summary the kind (read back as it).
        if terminal_name(t.kind) != terminal_text(t.kind) {
            let summary = summary_text(t.kind, pos.side_to_move());
            push_line(bytes, format!("まで{}手で", n - 1).as_bytes(), &summary);
        }
    }
}

/// Writes the variations branching from `line`, latest branch first, each followed by its
/// own variations: the order in which the reader attaches each to the right line.
fn write_variations(
    out: &mut String,
    line: &Line,
    start: &Position,
    last_to: Option<Square>,
    first_ply: usize,
    write_moves: LineWriter,
) {
    // Most lines have none: nothing to replay.
    if line.moves.iter().all(|node| node.variations.is_empty()) {
        return;
    }
    // The position before each move of the line.
    let mut before = Vec::with_capacity(line.moves.len());
    let mut pos = start.clone();
    let mut last = last_to;
    for node in &line.moves {
        before.push((pos.clone(), last));
        let _ = pos.play_quietly(node.mv);
        last = Some(node.mv.to());
    }
    for (i, node) in line.moves.iter().enumerate().rev() {
        let (pos, last) = &before[i];
        for v in &node.variations {
            let _ = writeln!(out, "\n変化：{}手", first_ply + i);
            write_moves(out, v, pos, *last, first_ply + i);
            write_variations(out, v, pos, *last, first_ply + i, write_moves);
        }
    }
}

/// `mark`, `text` and a line break (a comment `*…`, a bookmark `&…`, engine output `**…`).
fn push_line(out: &mut Vec<u8>, mark: &[u8], text: &str) {
    out.extend_from_slice(mark);
    out.extend_from_slice(text.as_bytes());
    out.push(b'\n');
}

/// The move numbers below 1,000 as a move line starts with them, `{n:>4} `.
const MOVE_NUMBERS: [[u8; 5]; 1000] = {
    let mut numbers = [[b' '; 5]; 1000];
    let mut n = 0;
    while n < 1000 {
        numbers[n][3] = b'0' + (n % 10) as u8;
        if n >= 10 {
            numbers[n][2] = b'0' + (n / 10 % 10) as u8;
        }
        if n >= 100 {
            numbers[n][1] = b'0' + (n / 100) as u8;
        }
        n += 1;
    }
    numbers
};

/// The move number that starts a move line, `{n:>4} `.
fn push_move_number(out: &mut Vec<u8>, n: usize) {
    if let Some(number) = MOVE_NUMBERS.get(n) {
        // Nearly every line: five bytes from the table.
        out.extend_from_slice(number);
        return;
    }
    kifudex_shogi::ascii::push_padded(out, n as u64, 4, b' ');
    out.push(b' ');
}

/// The numbers 0 to 99 as two digits.
const PAIRS: [[u8; 2]; 100] = {
    let mut pairs = [[0u8; 2]; 100];
    let mut n = 0;
    while n < 100 {
        pairs[n] = [b'0' + (n / 10) as u8, b'0' + (n % 10) as u8];
        n += 1;
    }
    pairs
};

/// Two digits of `n` (below 100), the first `fill` when `n` has one.
#[inline]
fn two_digits(n: u64, fill: u8) -> [u8; 2] {
    let [tens, units] = PAIRS[(n % 100) as usize];
    [if n < 10 { fill } else { tens }, units]
}

/// How many columns the UTF-8 `text` takes: one an ASCII character, two any other (as
/// `chars()` would count them: a character's first byte is no continuation byte).
fn display_width(text: &[u8]) -> usize {
    text.iter()
        .map(|&b| match b {
            0..0x80 => 1,
            0x80..0xC0 => 0,
            _ => 2,
        })
        .sum()
}

/// `seconds` rounded half away from zero as a whole number of seconds, as `f64::round` and
/// a saturating `as u64` give it (0 for a negative number or NaN), without the library call
/// for the usual times.
fn whole_seconds(seconds: f64) -> u64 {
    // Below 2^52 the fraction is exact and the truncation is the integer part (through i64:
    // one instruction each way, where u64 takes a dozen).
    if (0.0..4_503_599_627_370_496.0).contains(&seconds) {
        let whole = seconds as i64;
        (whole + i64::from(seconds - whole as f64 >= 0.5)) as u64
    } else {
        seconds.round() as u64
    }
}

/// The usual time of a move line (below 100 minutes spent, 100 hours in all) after a
/// move's text of `width` columns: `{pad}( M:SS/HH:MM:SS)` and the line break, padded, and
/// its length; `None` for any other time.
#[inline]
fn usual_time(width: usize, t: MoveTime) -> Option<([u8; 32], usize)> {
    let spent = whole_seconds(t.spent);
    let total = t.total.map(whole_seconds);
    if spent >= 6000 || total.is_some_and(|total| total >= 360_000) {
        return None;
    }
    // The padding is already there.
    let mut line = [b' '; 32];
    let mut at = 14usize.saturating_sub(width);
    let [m1, m2] = two_digits(spent / 60, b' ');
    let [s1, s2] = two_digits(spent % 60, b'0');
    line[at..at + 7].copy_from_slice(&[b'(', m1, m2, b':', s1, s2, b'/']);
    at += 7;
    if let Some(total) = total {
        let [h1, h2] = two_digits(total / 3600, b'0');
        let [m1, m2] = two_digits(total / 60 % 60, b'0');
        let [s1, s2] = two_digits(total % 60, b'0');
        line[at..at + 8].copy_from_slice(&[h1, h2, b':', m1, m2, b':', s1, s2]);
        at += 8;
    }
    line[at..at + 2].copy_from_slice(b")\n");
    Some((line, at + 2))
}

/// A move line: the move number `n`, the move's text and its time. The usual line is put
/// together on the stack and added with one copy of fixed length.
fn push_move_line(out: &mut Vec<u8>, n: usize, text: &KifMove, time: Option<MoveTime>) {
    let usual = match time {
        None => Some(None),
        Some(t) => usual_time(text.width(), t).map(Some),
    };
    if let (Some(number), Some(time)) = (MOVE_NUMBERS.get(n), usual) {
        let mut line = [0u8; 5 + 24 + 32];
        line[..5].copy_from_slice(number);
        line[5..29].copy_from_slice(text.padded());
        let mut at = 5 + text.as_bytes().len();
        match time {
            Some((bytes, len)) => {
                line[at..at + 32].copy_from_slice(&bytes);
                at += len;
            }
            None => {
                line[at] = b'\n';
                at += 1;
            }
        }
        // The whole array and a cut: no call to copy a length known only here.
        let end = out.len() + at;
        out.extend_from_slice(&line);
        out.truncate(end);
        return;
    }
    push_move_number(out, n);
    out.extend_from_slice(text.as_bytes());
    push_time(out, text.width(), time);
}

/// The rest of a move line after the move's text (`width` columns): its time, padded to its
/// column, and the line break.
fn push_time(out: &mut Vec<u8>, width: usize, time: Option<MoveTime>) {
    let Some(t) = time else {
        out.push(b'\n');
        return;
    };
    if let Some((line, len)) = usual_time(width, t) {
        out.extend_from_slice(&line[..len]);
        return;
    }
    let spent = whole_seconds(t.spent);
    let total = t.total.map(whole_seconds);
    out.extend_from_slice(&[b' '; 14][..14usize.saturating_sub(width)]);
    if spent < 6000 {
        let [m1, m2] = two_digits(spent / 60, b' ');
        let [s1, s2] = two_digits(spent % 60, b'0');
        out.extend_from_slice(&[b'(', m1, m2, b':', s1, s2, b'/']);
    } else {
        out.push(b'(');
        kifudex_shogi::ascii::push_padded(out, spent / 60, 2, b' ');
        out.push(b':');
        kifudex_shogi::ascii::push_padded(out, spent % 60, 2, b'0');
        out.push(b'/');
    }
    match total {
        Some(total) if total < 360_000 => {
            let [h1, h2] = two_digits(total / 3600, b'0');
            let [m1, m2] = two_digits(total / 60 % 60, b'0');
            let [s1, s2] = two_digits(total % 60, b'0');
            out.extend_from_slice(&[h1, h2, b':', m1, m2, b':', s1, s2, b')']);
        }
        Some(total) => {
            kifudex_shogi::ascii::push_padded(out, total / 3600, 2, b'0');
            out.push(b':');
            kifudex_shogi::ascii::push_padded(out, total / 60 % 60, 2, b'0');
            out.push(b':');
            kifudex_shogi::ascii::push_padded(out, total % 60, 2, b'0');
            out.push(b')');
        }
        None => out.push(b')'),
    }
    out.push(b'\n');
}

fn write_move_line(out: &mut Vec<u8>, n: usize, text: &str, time: Option<MoveTime>) {
    push_move_number(out, n);
    out.extend_from_slice(text.as_bytes());
    push_time(out, display_width(text.as_bytes()), time);
}

/// A BOD board diagram with both hands and, when White is to move, 後手番.
pub fn board_diagram(pos: &Position) -> String {
    board_diagram_with(pos, false)
}

/// A BOD board diagram; `handicap`: the sides are called 下手 and 上手 (下手の持駒, 上手番),
/// as the KIF specification names them in a handicap game.
pub fn board_diagram_with(pos: &Position, handicap: bool) -> String {
    let (black, white) = if handicap {
        ("下手", "上手")
    } else {
        ("先手", "後手")
    };
    let mut out = String::new();
    let _ = writeln!(out, "{white}の持駒：{}", hand_text(pos, Color::White));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 1..=9u8 {
        out.push('|');
        for file in (1..=9u8).rev() {
            match Square::new(file, rank).and_then(|s| pos.piece_at(s)) {
                Some(p) => {
                    out.push(if p.color == Color::White { 'v' } else { ' ' });
                    out.push(kind_char(p.kind));
                }
                None => out.push_str(" ・"),
            }
        }
        out.push('|');
        out.push(RANK_KANJI[rank as usize - 1]);
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    let _ = writeln!(out, "{black}の持駒：{}", hand_text(pos, Color::Black));
    if pos.side_to_move() == Color::White {
        let _ = writeln!(out, "{white}番");
    }
    out
}

fn hand_text(pos: &Position, color: Color) -> String {
    let hand = pos.hand(color);
    let parts: Vec<String> = PieceKind::HAND_BY_VALUE
        .iter()
        .filter(|&&k| hand.count(k) > 0)
        .map(|&k| {
            let n = hand.count(k) as u32;
            format!(
                "{}{}",
                kind_name(k),
                if n > 1 { kanji_count(n) } else { String::new() }
            )
        })
        .collect();
    if parts.is_empty() {
        "なし".to_string()
    } else {
        parts.join("　")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The move line as `write!` wrote it before [`write_move_line`] put it together by hand.
    fn formatted(n: usize, text: &str, time: Option<MoveTime>) -> String {
        let mut out = String::new();
        let width: usize = text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
        let _ = write!(out, "{n:>4} {text}");
        if let Some(t) = time {
            let pad = 14usize.saturating_sub(width);
            let spent = t.spent.round() as u64;
            let _ = write!(out, "{:pad$}({:>2}:{:02}/", "", spent / 60, spent % 60);
            if let Some(total) = t.total {
                let total = total.round() as u64;
                let _ = write!(
                    out,
                    "{:02}:{:02}:{:02}",
                    total / 3600,
                    total / 60 % 60,
                    total % 60
                );
            }
            out.push(')');
        }
        out.push('\n');
        out
    }

    #[test]
    fn move_lines_are_what_the_formatting_wrote() {
        let texts = [
            "７六歩(77)",
            "同　歩(34)",
            "２二角成(88)",
            "２四歩不成(25)",
            "４五角打",
            "投了",
            "?",
            "a very long text beyond the column",
        ];
        let seconds = [
            0.0,
            0.4,
            0.49999999999999994,
            0.5,
            2.5,
            1.5,
            59.0,
            59.6,
            60.0,
            599.0,
            3599.5,
            3600.0,
            5999.0,
            6000.0,
            86_399.0,
            359_999.0,
            360_000.0,
            1e9,
            4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            9_007_199_254_740_993.0,
            1.8446744073709552e19,
            1e30,
            -3.0,
            f64::NAN,
            f64::INFINITY,
        ];
        let numbers = [
            0,
            1,
            9,
            10,
            99,
            100,
            999,
            1000,
            9999,
            10_000,
            123_456,
            usize::MAX,
        ];
        for n in numbers {
            for text in texts {
                let mut times = vec![None];
                for &spent in &seconds {
                    times.push(Some(MoveTime { spent, total: None }));
                    for &total in &seconds {
                        times.push(Some(MoveTime {
                            spent,
                            total: Some(total),
                        }));
                    }
                }
                for time in times {
                    let mut out = b"before\n".to_vec();
                    write_move_line(&mut out, n, text, time);
                    let out = String::from_utf8(out).unwrap();
                    assert_eq!(out, format!("before\n{}", formatted(n, text, time)));
                }
            }
        }
    }
}
