//! KIF / KIFU reading (柿木 format): headers, BOD board diagrams, numbered move lines with
//! times, comments, bookmarks, nested 変化 variations and terminal words.

use crate::build::{OpenLine, Remark, full_message, line_at, start_comment};
use crate::movetext::{MoveTextError, MoveTextErrorKind};
use kifudex_shogi::{Color, Handicap, Piece, PieceKind, Position, Square, Strictness};

use crate::japanese::{digit, kanji_number, piece_prefix, side_mark};
use crate::movetext::{JapaneseMove, parse_japanese_move, resolve, resolve_with_origin};
use crate::record::{MAX_VARIATION_DEPTH, MoveTime, ReadError, Record, Terminal, TerminalKind};

mod line;
mod results;
mod write;

use line::{header, move_line, parse_time, simple_move, trim_end_spaces};

pub use results::{
    move_terminal, refines, summary_terminal, summary_text, terminal_name, terminal_text,
    terminal_word, terminal_word_named,
};
pub use write::{
    board_diagram, board_diagram_with, is_handicap_game, write_ki2, write_kif, write_kif_bytes,
};

/// Opens the main line, starting at `start`, with room for the moves of `rest` (the text
/// from the first move on): a KIF move line takes 16 bytes or more, a KI2 move 8 or more.
/// Growing the line as it is read would copy it several times. What is left over is not
/// given back: shrinking copied every game's moves once more, and records are short-lived.
fn open_main_line(
    rec: &mut Record,
    stack: &mut Vec<OpenLine>,
    start: Position,
    rest: &str,
    dialect: Dialect,
) {
    let bytes_per_move = match dialect {
        Dialect::Kif => 16,
        Dialect::Ki2 => 8,
    };
    // Games of more than a thousand moves are rare enough to grow.
    rec.main
        .moves
        .reserve((rest.len() / bytes_per_move).min(1024));
    rec.start = start.clone();
    stack.push(OpenLine::main(start));
}

/// The part of `text` from `line` (a slice of it) on.
fn rest_of<'a>(text: &'a str, line: &str) -> &'a str {
    let offset = (line.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
    text.get(offset..).unwrap_or("")
}

/// The two dialects this reader handles: numbered move lines with origins (KIF), or
/// moves written as they are spoken, several to a line (KI2). Everything else is shared.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Dialect {
    Kif,
    Ki2,
}

/// Reads one KIF game from decoded text.
pub fn read_kif(text: &str) -> Record {
    read(text, Dialect::Kif)
}

/// Reads one KI2 game from decoded text.
pub fn read_ki2(text: &str) -> Record {
    read(text, Dialect::Ki2)
}

/// What the lines before the moves say of the start position: a board diagram, the hands,
/// the side to move, the handicap.
struct Setup {
    board_rows: Vec<[Option<Piece>; 9]>,
    hands: [Vec<(PieceKind, u32)>; 2],
    side: Color,
    side_given: bool,
    handicap: Option<Handicap>,
    /// A 手合割 kifudex does not know (line, column, name): an error only when no board
    /// diagram gives the start.
    unknown_handicap: Option<(usize, usize, String)>,
}

impl Setup {
    fn new() -> Setup {
        Setup {
            board_rows: Vec::new(),
            hands: [Vec::new(), Vec::new()],
            side: Color::Black,
            side_given: false,
            handicap: None,
            unknown_handicap: None,
        }
    }

    /// Reads line `n` of the header part (`trimmed`): a board row, a side-to-move line, a
    /// `key：value` header (the hands and the handicap kept for the start position, the rest
    /// as the record's headers). False when the line is none of these.
    fn line(&mut self, rec: &mut Record, n: usize, trimmed: &str) -> bool {
        if trimmed.starts_with('+') && trimmed.contains("---") {
            return true;
        }
        if let Some(row) = trimmed
            .strip_prefix('|')
            .or_else(|| trimmed.strip_prefix('｜'))
        {
            match board_row(row) {
                Ok(cells) => self.board_rows.push(cells),
                Err(e) => rec.errors.push(ReadError::new(n, 1, e)),
            }
            return true;
        }
        match trimmed {
            "後手番" | "上手番" => {
                self.side = Color::White;
                self.side_given = true;
                return true;
            }
            // Kifu for Windows' display setting (the board shown from Gote's side): no game data.
            "盤面回転" => return true,
            "先手番" | "下手番" => {
                self.side = Color::Black;
                self.side_given = true;
                return true;
            }
            _ => {}
        }
        // The column header of the move list, and a board diagram's footer (手数＝0 まで).
        if trimmed.starts_with("手数＝")
            || trimmed.starts_with("手数----")
            || (trimmed.starts_with("手数") && trimmed.contains("指手"))
        {
            return true;
        }
        if trimmed
            .chars()
            .all(|c| c.is_whitespace() || digit(c).is_some())
        {
            return true; // the file numbers above a board diagram
        }
        if let Some((key, value)) = header(trimmed) {
            let value = value.split('#').next().unwrap_or(value).trim();
            match key {
                "先手の持駒" | "下手の持駒" | "後手の持駒" | "上手の持駒" => {
                    let color = if key.starts_with('先') || key.starts_with('下') {
                        Color::Black
                    } else {
                        Color::White
                    };
                    match hand_list(value) {
                        Ok(list) => self.hands[color.index()] = list,
                        Err(e) => rec
                            .errors
                            .push(ReadError::new(n, key.chars().count() + 2, e)),
                    }
                    // Part of the start position, not a header.
                    return true;
                }
                "手合割" => match Handicap::from_kif_name(value) {
                    Some(h) => self.handicap = Some(h),
                    // Only an error if no board diagram gives the start (checked at the end).
                    None => {
                        self.unknown_handicap =
                            Some((n, key.chars().count() + 2, value.to_string()))
                    }
                },
                _ => {}
            }
            rec.headers.push((key.to_string(), value.to_string()));
            return true;
        }
        false
    }

    /// The start position, when the first move (or the end of the text, line `n`) comes.
    fn start(&self, n: usize, errors: &mut Vec<ReadError>) -> Position {
        start_position(
            &self.board_rows,
            &self.hands,
            self.side,
            self.side_given,
            self.handicap,
            n,
            errors,
        )
    }
}

/// A variation that is not read (nested too deep, or in a record already full), or one
/// within it: only where it starts and how many moves it has, so that it can be told which
/// later variation branches from it. Thousands nested cost a few bytes each.
struct Cut {
    first_ply: usize,
    skipped: usize,
}

impl Cut {
    fn at(first_ply: usize) -> Cut {
        Cut {
            first_ply,
            skipped: 0,
        }
    }

    /// A move (or terminal word) read into it.
    fn read(&mut self, text: &str) {
        if terminal_word(text.trim_end_matches('+')).is_none() {
            self.skipped += 1;
        }
    }
}

/// A `変化：N手` line (`変化:3手目`, `変化：3手#comment`): opens the variation at move N of the
/// innermost open line that has a move N and began before it (variations are usually listed
/// latest first, but not always); one that cannot be placed is read into nothing.
fn open_variation(
    rec: &mut Record,
    stack: &mut Vec<OpenLine>,
    cuts: &mut Vec<Cut>,
    n: usize,
    trimmed: &str,
) {
    let num = trimmed
        .split('#')
        .next()
        .unwrap_or(trimmed)
        .trim_start_matches("変化")
        .trim_start_matches(['：', ':'])
        .trim()
        .trim_end_matches('目')
        .trim_end_matches('手');
    let Some(ply) = kanji_number(num.trim())
        .map(|p| p as usize)
        .filter(|&p| p > 0)
    else {
        rec.errors.push(ReadError::new(
            n,
            1,
            format!("'{trimmed}' does not say at which move the variation starts"),
        ));
        return;
    };
    if stack.is_empty() {
        rec.errors
            .push(ReadError::new(n, 1, "a variation comes before any move"));
        return;
    }
    // Close the lines it does not branch from: the cut ones first (they are innermost).
    while let Some(top) = cuts.last() {
        if top.first_ply >= ply || ply >= top.first_ply + top.skipped {
            cuts.pop();
        } else {
            break;
        }
    }
    if !cuts.is_empty() {
        // Inside a cut variation: cut too.
        cuts.push(Cut::at(ply));
        return;
    }
    while stack.len() > 1 {
        let Some(top) = stack.last() else { break };
        let len = line_at(&mut rec.main, &top.path).map_or(0, |l| l.moves.len());
        if top.first_ply >= ply || ply >= top.first_ply + len {
            stack.pop();
        } else {
            break;
        }
    }
    let Some(parent) = stack.last_mut() else {
        return;
    };
    let too_deep = parent.path.len() >= MAX_VARIATION_DEPTH;
    // A full record reads no more variations (said once).
    if parent.report_full() {
        rec.errors.push(ReadError::new(n, 1, full_message()));
    }
    if too_deep || parent.is_full() {
        if too_deep {
            rec.errors.push(ReadError::new(
                n,
                1,
                format!(
                    "variation at move {ply} nested more than {MAX_VARIATION_DEPTH} deep: it and the variations within it are not read"
                ),
            ));
        }
        cuts.push(Cut::at(ply));
        return;
    }
    let index = ply - parent.first_ply;
    let Some(variation) = parent.branch(&mut rec.main, index) else {
        rec.errors.push(ReadError::new(
            n,
            1,
            format!("variation at move {ply}, but the line it branches from has no move {ply}"),
        ));
        // Read its moves, comments and bookmarks into nothing.
        stack.push(OpenLine::nowhere(ply));
        return;
    };
    stack.push(variation);
}

fn read(text: &str, dialect: Dialect) -> Record {
    let mut rec = Record::default();
    let mut setup = Setup::new();
    let mut stack: Vec<OpenLine> = Vec::new();
    let mut cuts: Vec<Cut> = Vec::new();
    let mut in_moves = false;
    let mut items: Vec<(&str, Option<MoveTime>, Option<JapaneseMove>)> = Vec::new();

    let mut lines = crate::decode::Lines::new(text);
    let mut n = 0;
    loop {
        // The common move line, read in one pass with its line end.
        if dialect == Dialect::Kif
            && let Some(m) = simple_move(lines.rest())
        {
            n += 1;
            let raw = lines.skip_line(m.len);
            if !in_moves {
                in_moves = true;
                let start = setup.start(n, &mut rec.errors);
                open_main_line(&mut rec, &mut stack, start, rest_of(text, raw), dialect);
            }
            if let Some(cut) = cuts.last_mut() {
                cut.read(m.text);
            } else if let Some(open) = stack.last_mut() {
                play_text(&mut rec, open, (n, raw), m.text, m.time, Some(m.mv));
            }
            continue;
        }
        let Some(raw) = lines.next() else {
            break;
        };
        n += 1;
        let line = trim_end_spaces(raw);
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        // What is written in a cut variation is read into nothing.
        if !cuts.is_empty() && (trimmed.starts_with('*') || trimmed.starts_with('&')) {
            continue;
        }
        if let Some(c) = trimmed.strip_prefix('*') {
            let comment = c.to_string();
            // `**` lines are engine output (ShogiGUI's 解析, shogihome), kept apart from comments.
            // One before a variation's first move goes on the start position, as it always has.
            let unplaced = match stack.last() {
                Some(open) => open.comment(&mut rec, comment, Remark::MaybeEngine).err(),
                None => Some(comment),
            };
            if let Some(comment) = unplaced {
                start_comment(&mut rec, comment, Remark::MaybeEngine);
            }
            continue;
        }
        if let Some(b) = trimmed.strip_prefix('&') {
            let mark = b.trim().to_string();
            match stack.last() {
                Some(open) => open.bookmark(&mut rec, mark),
                None => rec.start_bookmarks.push(mark),
            }
            continue;
        }
        if trimmed.starts_with("変化") {
            open_variation(&mut rec, &mut stack, &mut cuts, n, trimmed);
            continue;
        }
        items.clear();
        match dialect {
            Dialect::Kif => {
                if let Some((text, rest)) = move_line(line) {
                    let time = parse_time(rest).unwrap_or_else(|e| {
                        let offset = (rest.trim_start().as_ptr() as usize)
                            .saturating_sub(raw.as_ptr() as usize);
                        let column = raw.get(..offset).map_or(1, |p| p.chars().count() + 1);
                        rec.errors.push(ReadError::new(n, column, e));
                        None
                    });
                    items.push((text, time, None));
                }
            }
            Dialect::Ki2 => ki2_moves(trimmed, &mut items),
        }
        // The first move, or a まで summary with no move before it, opens the main line.
        let summary = trimmed.strip_prefix("まで");
        if (!items.is_empty() || summary.is_some()) && !in_moves {
            in_moves = true;
            let start = setup.start(n, &mut rec.errors);
            open_main_line(&mut rec, &mut stack, start, rest_of(text, raw), dialect);
        }
        if !items.is_empty() {
            if let Some(cut) = cuts.last_mut() {
                items.drain(..).for_each(|(text, _, _)| cut.read(text));
            } else if let Some(open) = stack.last_mut() {
                for (text, time, parsed) in items.drain(..) {
                    play_text(&mut rec, open, (n, raw), text, time, parsed);
                }
            }
            continue;
        }
        if let Some(summary) = summary
            && cuts.is_empty()
            && let Some(open) = stack.last()
            && let Some(line) = line_at(&mut rec.main, &open.path)
        {
            // KI2 (and some KIF) give the end only as まで76手で後手の勝ち; after a move
            // line's word, the summary may name the kind more exactly (持将棋, then まで256手で
            // 最大手数: a draw by the move limit).
            let to_move = if line.moves.len() % 2 == 0 {
                open.start.side_to_move()
            } else {
                open.start.side_to_move().opponent()
            };
            if let Some(kind) = summary_terminal(summary, to_move) {
                match &mut line.terminal {
                    None => line.terminal = Some(Terminal::new(kind, None)),
                    Some(t) if results::refines(t.kind, kind) => t.kind = kind,
                    Some(_) => {}
                }
            }
            continue;
        }
        if in_moves {
            // Summary lines such as まで77手で先手の勝ち, and anything else after the moves.
            continue;
        }
        // The header part: board diagram, side to move, key：value lines.
        if !setup.line(&mut rec, n, trimmed) {
            rec.errors.push(ReadError::new(
                n,
                1,
                format!("line not understood: '{trimmed}'"),
            ));
        }
    }
    if let Some((line, column, name)) = setup.unknown_handicap.take()
        && setup.board_rows.len() != 9
    {
        rec.errors.push(ReadError::warning(
            line,
            column,
            format!("unknown handicap (手合割) '{name}' and no board diagram: read as 平手"),
        ));
    }
    if !in_moves {
        rec.start = setup.start(n, &mut rec.errors);
    }
    rec.check_declaration();
    rec
}

/// Appends the moves of a KI2 line (`▲７六歩　△３四歩`) to `out`; none when the line holds no move.
/// A piece of text that is no move is returned as it is, for `play_text` to report.
fn ki2_moves<'a>(line: &'a str, out: &mut Vec<(&'a str, Option<MoveTime>, Option<JapaneseMove>)>) {
    let mut rest = line;
    if side_mark(rest).is_none() {
        return;
    }
    while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
        rest = &rest[start..];
        match parse_japanese_move(rest) {
            // The move reads the same from its own text: parsing stops where it ends.
            Ok((mv, used)) if used > 0 => {
                out.push((&rest[..used], None, Some(mv)));
                rest = &rest[used..];
            }
            _ => {
                // Up to the next side mark: a terminal word or text that is no move.
                let end = rest
                    .char_indices()
                    .skip(1)
                    .find(|&(i, _)| side_mark(&rest[i..]).is_some())
                    .map_or(rest.len(), |(i, _)| i);
                out.push((rest[..end].trim_end(), None, None));
                rest = &rest[end..];
            }
        }
    }
}

/// Reads one move (or terminal word) of the open line and plays it. A move that cannot be
/// played is an error, and the rest of that line is skipped.
fn play_text(
    rec: &mut Record,
    open: &mut OpenLine,
    (n, raw): (usize, &str),
    text: &str,
    time: Option<MoveTime>,
    parsed: Option<JapaneseMove>,
) {
    // The column (in characters) of `text` within the file line, for errors only.
    let column = || {
        let offset = (text.as_ptr() as usize).saturating_sub(raw.as_ptr() as usize);
        raw.get(..offset).map_or(1, |p| p.chars().count() + 1)
    };
    if open.dead {
        return;
    }
    let Some(line) = line_at(&mut rec.main, &open.path) else {
        return;
    };
    let ply = open.first_ply + line.moves.len();
    if let Some(t) = &line.terminal {
        // Some writers put 中断 after the real end (`投了` then `中断`): nothing is lost.
        if parsed.is_none() && terminal_word(text) == Some(TerminalKind::Abort) {
            return;
        }
        rec.errors.push(ReadError::new(
            n,
            column(),
            format!(
                "'{text}' comes after the game ended ({}); it and what follows in this line are ignored",
                t.kind
            ),
        ));
        open.dead = true;
        return;
    }
    // No terminal word reads as a move (none starts with a square or 同): it is looked for
    // first, so that the usual last line (投了) costs no failed move and its message.
    let (m, used) = match parsed {
        Some(mv) => (mv, text.len()),
        None => {
            if let Some(kind) = move_terminal(text.trim_end_matches('+'), open.pos.side_to_move()) {
                line.terminal = Some(Terminal::new(kind, time));
                return;
            }
            match parse_japanese_move(text) {
                Ok(parsed) => parsed,
                Err(e) => {
                    let message = format!("move {ply}: {text}: {e}");
                    open.fail(rec, ReadError::new(n, column(), message));
                    return;
                }
            }
        }
    };
    // `同　銀　(31)`: a full-width space between the move and its origin. Read without it.
    let (m, used) = match text[used..].trim() {
        r if r.starts_with('(') && text.contains('　') => {
            let compact: String = text.chars().filter(|&c| c != '　').collect();
            match parse_japanese_move(&compact) {
                Ok((whole, end)) if compact[end..].trim().is_empty() => (whole, text.len()),
                _ => (m, used),
            }
        }
        _ => (m, used),
    };
    // Resolution errors name the move already; the others get it added.
    let rest = text[used..].trim();
    let fail = |rec: &mut Record, open: &mut OpenLine, e: &MoveTextError| {
        open.fail(rec, ReadError::new(n, column(), format!("move {ply}: {e}")));
    };
    let extra = !rest.is_empty() && rest != "+";
    // The common move is resolved here, apart from the general path, so that it stays a
    // value rather than a result written out and read back.
    let mv = match resolve_with_origin(&open.pos, &m, open.last_to) {
        Some(mv) if !extra => mv,
        _ => {
            let resolved = if extra {
                Err(MoveTextError::new(
                    MoveTextErrorKind::Syntax,
                    format!("{text}: unexpected '{rest}' after the move"),
                ))
            } else {
                resolve(&open.pos, &m, open.last_to)
            };
            match resolved {
                Ok(mv) => mv,
                Err(e) => return fail(rec, open, &e),
            }
        }
    };
    if let Err(e) = open.play(line, mv, time, text) {
        fail(rec, open, &e);
    }
}

/// One board-diagram row after the leading `|`: nine cells of ` 歩`, `v歩` or ` ・`.
fn board_row(row: &str) -> Result<[Option<Piece>; 9], String> {
    let mut cells = [None; 9];
    let mut count = 0;
    let mut white = false;
    for c in row.chars() {
        if c == '|' || c == '｜' {
            break;
        }
        match c {
            'v' | 'V' | '^' => white = true,
            ' ' | '　' => {}
            '・' => {
                if count < 9 {
                    count += 1;
                }
                white = false;
            }
            _ => {
                let mut buf = [0u8; 4];
                let (kind, _) = piece_prefix(c.encode_utf8(&mut buf))
                    .ok_or_else(|| format!("board row: '{c}' is not a piece"))?;
                if count >= 9 {
                    return Err("board row has more than 9 squares".into());
                }
                let color = if white { Color::White } else { Color::Black };
                cells[count] = Some(Piece::new(color, kind));
                count += 1;
                white = false;
            }
        }
    }
    if count != 9 {
        return Err(format!("board row has {count} squares, not 9"));
    }
    Ok(cells)
}

/// A hand list: `角　歩三`, `飛二 金 歩十八`, `なし`.
fn hand_list(value: &str) -> Result<Vec<(PieceKind, u32)>, String> {
    let mut out = Vec::new();
    for token in value
        .split([' ', '　', '、', ','])
        .filter(|t| !t.is_empty())
    {
        if token == "なし" {
            continue;
        }
        let (kind, n) =
            piece_prefix(token).ok_or_else(|| format!("'{token}' is not a piece in hand"))?;
        let count = if n == token.len() {
            1
        } else {
            kanji_number(&token[n..])
                .ok_or_else(|| format!("'{token}': '{}' is not a count", &token[n..]))?
        };
        out.push((kind, count));
    }
    Ok(out)
}

fn start_position(
    rows: &[[Option<Piece>; 9]],
    hands: &[Vec<(PieceKind, u32)>; 2],
    side: Color,
    side_given: bool,
    handicap: Option<Handicap>,
    line: usize,
    errors: &mut Vec<ReadError>,
) -> Position {
    if rows.len() == 9 {
        let mut board = [None; 81];
        for (r, row) in rows.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                if let Some(s) = Square::new(9 - c as u8, r as u8 + 1) {
                    board[s.index()] = *cell;
                }
            }
        }
        let hand = |list: &Vec<(PieceKind, u32)>| kifudex_shogi::hand_from_counts(list);
        match (hand(&hands[0]), hand(&hands[1])) {
            (Ok(b), Ok(w)) => match Position::new(board, [b, w], side, 1, Strictness::PiecesOnly) {
                Ok(p) => return p,
                Err(e) => errors.push(ReadError::new(
                    line,
                    1,
                    format!("the board diagram is not a position: {e}"),
                )),
            },
            (Err(e), _) | (_, Err(e)) => errors.push(ReadError::new(
                line,
                1,
                format!("the pieces in hand are impossible: {e}"),
            )),
        }
    } else if !rows.is_empty() {
        errors.push(ReadError::new(
            line,
            1,
            format!("the board diagram has {} rows, not 9", rows.len()),
        ));
    }
    let h = handicap.unwrap_or(Handicap::Even);
    let mut p = h.position().unwrap_or_else(Position::startpos);
    if side_given && p.side_to_move() != side {
        p = p.without(&[], side);
    }
    p
}
