//! Move text: KI2/KIF Japanese moves read and written with the 連盟's relative words, and
//! the Western Hodges and Hosking notations.

use std::collections::HashSet;

use kifudex::notation::movetext::{
    JapaneseMove, Relative, hodges, hosking, japanese, kif_move_text, parse_japanese_move, resolve,
};
use kifudex::shogi::{Color, Move, PieceKind, Position, Rule, Square};

use crate::util::{Rng, crowded, physical_moves, pos, setup, usi_move};

fn black(pieces: &str) -> Position {
    pos(&setup(pieces, "b", "-"))
}

fn ja(p: &Position, m: &str) -> String {
    japanese(p, usi_move(m), None)
}

/// The USI of the move `text` means on `p`.
fn read(p: &Position, text: &str, last_to: Option<Square>) -> Result<String, String> {
    let (mv, n) = parse_japanese_move(text).map_err(|e| e.to_string())?;
    assert_eq!(n, text.len(), "{text} was not read to its end");
    resolve(p, &mv, last_to)
        .map(Move::usi)
        .map_err(|e| e.to_string())
}

/// Writes every move of `moves` and checks that each reads back, KI2 and KIF.
fn assert_round_trip(p: &Position, moves: &[Move], last_to: Option<Square>) {
    for &m in moves {
        for text in [japanese(p, m, last_to), kif_move_text(p, m, last_to)] {
            let (parsed, n) = parse_japanese_move(&text)
                .unwrap_or_else(|e| panic!("{text} on {}: {e}", p.to_sfen()));
            assert_eq!(n, text.len(), "{text} not read to its end");
            let back = resolve(p, &parsed, last_to)
                .unwrap_or_else(|e| panic!("{text} ({m}) on {}: {e}", p.to_sfen()));
            assert_eq!(back, m, "{text} read back wrong on {}", p.to_sfen());
        }
    }
}

fn assert_western_unique(p: &Position) {
    let moves = p.legal_moves();
    let h: HashSet<String> = moves.iter().map(|&m| hodges(p, m)).collect();
    let k: HashSet<String> = moves.iter().map(|&m| hosking(p, m)).collect();
    assert_eq!(h.len(), moves.len(), "Hodges repeats on {}", p.to_sfen());
    assert_eq!(k.len(), moves.len(), "Hosking repeats on {}", p.to_sfen());
}

// ---- Syntax ----

#[test]
fn parse_reads_every_part() {
    let (m, n) = parse_japanese_move("▲７六歩").unwrap();
    assert_eq!(n, "▲７六歩".len());
    assert_eq!(
        m,
        JapaneseMove {
            side: Some(Color::Black),
            to: Square::new(7, 6),
            piece: PieceKind::Pawn,
            relative: Relative::NONE,
            promote: None,
            drop: false,
            origin: None,
        }
    );
    for text in ["７六歩", "76歩", "７６歩", "☗７六歩"] {
        assert_eq!(parse_japanese_move(text).unwrap().0.to, Square::new(7, 6));
    }
    let (m, _) = parse_japanese_move("△同　銀左上成").unwrap();
    assert_eq!(m.side, Some(Color::White));
    assert_eq!(m.to, None);
    assert_eq!(m.piece, PieceKind::Silver);
    assert_eq!(m.relative, Relative::LEFT | Relative::UP);
    assert_eq!(m.promote, Some(true));
    for text in ["同　銀", "同 銀", "同銀", "▽同　銀"] {
        let (m, n) = parse_japanese_move(text).unwrap();
        assert_eq!((m.to, m.piece, n), (None, PieceKind::Silver, text.len()));
    }
    assert_eq!(
        parse_japanese_move("２四歩不成").unwrap().0.promote,
        Some(false)
    );
    assert_eq!(
        parse_japanese_move("２四歩生").unwrap().0.promote,
        Some(false)
    );
    assert_eq!(
        parse_japanese_move("５五成銀").unwrap().0.piece,
        PieceKind::ProSilver
    );
    assert_eq!(
        parse_japanese_move("５五全").unwrap().0.piece,
        PieceKind::ProSilver
    );
    assert_eq!(
        parse_japanese_move("５五竜引").unwrap().0.piece,
        PieceKind::Dragon
    );
    assert_eq!(
        parse_japanese_move("２三龍入").unwrap().0.relative,
        Relative::ENTER
    );
    assert_eq!(
        parse_japanese_move("５八金上右").unwrap().0.relative,
        Relative::RIGHT | Relative::UP
    );
    assert!(parse_japanese_move("４五角打").unwrap().0.drop);
}

#[test]
fn parse_reads_kif_origins_and_stops_before_times() {
    let line = "２二角成(88)   ( 0:01/00:00:01)";
    let (m, n) = parse_japanese_move(line).unwrap();
    assert_eq!(&line[..n], "２二角成(88)");
    assert_eq!((m.origin, m.promote), (Square::new(8, 8), Some(true)));
    let (m, _) = parse_japanese_move("同　歩(34)").unwrap();
    assert_eq!((m.to, m.origin), (None, Square::new(3, 4)));
    let (m, n) = parse_japanese_move("４五角(00)").unwrap();
    assert!(m.drop && m.origin.is_none() && n == "４五角(00)".len());
    let e = parse_japanese_move("７六歩(7)").unwrap_err();
    assert!(e.message().contains("two-digit origin"), "{e}");
}

#[test]
fn several_moves_on_one_ki2_line() {
    let line = "▲７六歩△３四歩▲２六歩　△８四歩";
    let mut rest = line;
    let mut read = Vec::new();
    let mut p = Position::startpos();
    while !rest.is_empty() {
        let (m, n) = parse_japanese_move(rest).unwrap();
        let mv = resolve(&p, &m, None).unwrap();
        p.play(mv).unwrap();
        read.push(mv.usi());
        rest = rest[n..].trim_start_matches([' ', '\u{3000}']);
    }
    assert_eq!(read, ["7g7f", "3c3d", "2g2f", "8c8d"]);
}

#[test]
fn parse_errors_say_what_was_expected() {
    let e = parse_japanese_move("歩").unwrap_err();
    assert!(e.message().contains("destination square"), "{e}");
    let e = parse_japanese_move("▲７六").unwrap_err();
    assert!(
        e.message().contains("piece name") && e.message().contains("nothing"),
        "{e}"
    );
    let e = parse_japanese_move("７六Ｘ").unwrap_err();
    assert!(
        e.message().contains("piece name") && e.message().contains("Ｘ"),
        "{e}"
    );
    assert!(parse_japanese_move("").is_err());
}

// ---- Writing with the 連盟's relative words ----

#[test]
fn plain_moves_captures_promotions_and_same() {
    let mut p = Position::startpos();
    assert_eq!(ja(&p, "7g7f"), "☗７六歩");
    assert_eq!(ja(&p, "3i4h"), "☗４八銀");
    assert_eq!(ja(&p, "5i5h"), "☗５八玉");
    p.play(usi_move("7g7f")).unwrap();
    p.play(usi_move("3c3d")).unwrap();
    let last = Square::new(3, 4);
    assert_eq!(japanese(&p, usi_move("8h2b+"), last), "☗２二角成");
    assert_eq!(japanese(&p, usi_move("8h2b"), last), "☗２二角不成");
    assert_eq!(kif_move_text(&p, usi_move("8h2b+"), last), "２二角成(88)");
    p.play(usi_move("8h2b+")).unwrap();
    let last = Square::new(2, 2);
    assert_eq!(japanese(&p, usi_move("3a2b"), last), "☖同　銀");
    assert_eq!(kif_move_text(&p, usi_move("3a2b"), last), "同　銀(31)");
    assert_eq!(read(&p, "△同　銀", last).unwrap(), "3a2b");
    assert_eq!(read(&p, "同銀", last).unwrap(), "3a2b");
    // A pawn reaching the zone: 成 or 不成, always written.
    let p = black("P24 k51");
    assert_eq!(ja(&p, "2d2c+"), "☗２三歩成");
    assert_eq!(ja(&p, "2d2c"), "☗２三歩不成");
    assert_eq!(read(&p, "２三歩", None).unwrap(), "2d2c");
    assert_eq!(read(&p, "２三歩成", None).unwrap(), "2d2c+");
    // Leaving the zone: promotion was possible too.
    let p = black("S33 k91");
    assert_eq!(ja(&p, "3c4d"), "☗４四銀不成");
    // A move that could not promote takes no 不成.
    assert_eq!(ja(&black("S66"), "6f6e"), "☗６五銀");
}

#[test]
fn two_golds_right_and_left() {
    let p = Position::startpos();
    assert_eq!(ja(&p, "6i5h"), "☗５八金左");
    assert_eq!(ja(&p, "4i5h"), "☗５八金右");
    assert_eq!(ja(&p, "6i7h"), "☗７八金");
    assert_eq!(read(&p, "５八金左", None).unwrap(), "6i5h");
    assert_eq!(read(&p, "58金右", None).unwrap(), "4i5h");
    // For White, right and left are seen from White's side.
    let mut p = Position::startpos();
    p.play(usi_move("7g7f")).unwrap();
    assert_eq!(ja(&p, "6a5b"), "☖５二金右");
    assert_eq!(ja(&p, "4a5b"), "☖５二金左");
    assert_eq!(read(&p, "△５二金左", None).unwrap(), "4a5b");
}

#[test]
fn straight_forward_is_choku() {
    let p = black("K99 k11 G59 G49");
    assert_eq!(ja(&p, "5i5h"), "☗５八金直");
    assert_eq!(ja(&p, "4i5h"), "☗５八金右");
    let p = black("G69 G59 G49");
    assert_eq!(ja(&p, "6i5h"), "☗５八金左");
    assert_eq!(ja(&p, "5i5h"), "☗５八金直");
    assert_eq!(ja(&p, "4i5h"), "☗５八金右");
    let p = black("S59 S49");
    assert_eq!(ja(&p, "5i5h"), "☗５八銀直");
    assert_eq!(ja(&p, "4i5h"), "☗５八銀右");
    // A gold straight below with no other piece moving up: its motion is enough.
    let p = black("G59 G48");
    assert_eq!(ja(&p, "5i5h"), "☗５八金上");
    assert_eq!(ja(&p, "4h5h"), "☗５八金寄");
}

#[test]
fn motion_words_come_first() {
    let p = black("G59 G57");
    assert_eq!(ja(&p, "5i5h"), "☗５八金上");
    assert_eq!(ja(&p, "5g5h"), "☗５八金引");
    let p = black("S69 S47");
    assert_eq!(ja(&p, "6i5h"), "☗５八銀上");
    assert_eq!(ja(&p, "4g5h"), "☗５八銀引");
    assert_eq!(read(&p, "５八銀引", None).unwrap(), "4g5h");
}

#[test]
fn position_and_motion_together() {
    let p = black("G69 G49 G68");
    assert_eq!(ja(&p, "6i5h"), "☗５八金左上");
    assert_eq!(ja(&p, "4i5h"), "☗５八金右");
    assert_eq!(ja(&p, "6h5h"), "☗５八金寄");
    let p = black("G69 G49 G68 G48");
    assert_eq!(ja(&p, "6i5h"), "☗５八金左上");
    assert_eq!(ja(&p, "4i5h"), "☗５八金右上");
    assert_eq!(ja(&p, "6h5h"), "☗５八金左寄");
    assert_eq!(ja(&p, "4h5h"), "☗５八金右寄");
    let p = black("G69 G59 G49 G57");
    assert_eq!(ja(&p, "5i5h"), "☗５八金直");
    assert_eq!(ja(&p, "5g5h"), "☗５八金引");
    let p = black("S69 S49 S67 S47");
    assert_eq!(ja(&p, "6i5h"), "☗５八銀左上");
    assert_eq!(ja(&p, "4i5h"), "☗５八銀右上");
    assert_eq!(ja(&p, "6g5h"), "☗５八銀左引");
    assert_eq!(ja(&p, "4g5h"), "☗５八銀右引");
    // The words may come in any order when read.
    assert_eq!(read(&p, "５八銀引左", None).unwrap(), "6g5h");
    assert_eq!(read(&p, "５八銀上右", None).unwrap(), "4i5h");
}

#[test]
fn knights_and_rooks() {
    let p = black("N69 N49");
    assert_eq!(ja(&p, "6i5g"), "☗５七桂左");
    assert_eq!(ja(&p, "4i5g"), "☗５七桂右");
    let p = black("R59 R19");
    assert_eq!(ja(&p, "5i2i"), "☗２九飛左");
    assert_eq!(ja(&p, "1i2i"), "☗２九飛右");
}

#[test]
fn two_dragons() {
    // Both move back to ２四: the one on the right (１三) is 右.
    let p = black("+R13 +R22");
    assert_eq!(ja(&p, "1c2d"), "☗２四龍右");
    assert_eq!(ja(&p, "2b2d"), "☗２四龍左");
    assert_eq!(read(&p, "２四竜右", None).unwrap(), "1c2d");
    assert_eq!(read(&p, "２四竜左", None).unwrap(), "2b2d");
    assert!(
        read(&p, "２四竜引", None)
            .unwrap_err()
            .contains("ambiguous")
    );
    // One moving straight up, one diagonally: 直 is not used for dragons.
    let p = black("+R26 +R16");
    assert_eq!(ja(&p, "2f2e"), "☗２五龍左");
    assert_eq!(ja(&p, "1f2e"), "☗２五龍右");
    assert!(read(&p, "２五龍直", None).is_ok());
    // Motion first: 引 and 上, 上 and 寄.
    let p = black("+R21 +R27");
    assert_eq!(ja(&p, "2a2c"), "☗２三龍引");
    assert_eq!(ja(&p, "2g2c"), "☗２三龍上");
    let p = black("+R25 +R43");
    assert_eq!(ja(&p, "2e2c"), "☗２三龍上");
    assert_eq!(ja(&p, "4c2c"), "☗２三龍寄");
    // Old records: 行 for 上, 入 for entering the zone.
    assert_eq!(read(&p, "２三龍行", None).unwrap(), "2e2c");
    assert_eq!(read(&p, "２三龍入", None).unwrap(), "2e2c");
    // For White the sides turn round.
    let w = pos(&setup("+r97 +r88", "w", "-"));
    assert_eq!(ja(&w, "9g8f"), "☖８六龍右");
    assert_eq!(ja(&w, "8h8f"), "☖８六龍左");
}

#[test]
fn two_horses() {
    let p = black("+B99 +B19");
    assert_eq!(ja(&p, "9i5e"), "☗５五馬左");
    assert_eq!(ja(&p, "1i5e"), "☗５五馬右");
    let p = black("+B56 +B19");
    assert_eq!(ja(&p, "5f5e"), "☗５五馬左");
    assert_eq!(ja(&p, "1i5e"), "☗５五馬右");
    let p = black("+B99 +B91");
    assert_eq!(ja(&p, "9i5e"), "☗５五馬上");
    assert_eq!(ja(&p, "9a5e"), "☗５五馬引");
    assert_eq!(read(&p, "５五馬引", None).unwrap(), "9a5e");
    let p = black("+B99 +B54");
    assert_eq!(ja(&p, "9i5e"), "☗５五馬上");
    assert_eq!(ja(&p, "5d5e"), "☗５五馬引");
}

#[test]
fn drops_write_uchi_only_when_a_board_piece_could_go_there() {
    let p = pos(&setup("K99 k91 B88", "b", "B"));
    assert_eq!(ja(&p, "B*5e"), "☗５五角打");
    assert_eq!(ja(&p, "8h5e"), "☗５五角");
    assert_eq!(ja(&p, "B*4e"), "☗４五角");
    assert_eq!(kif_move_text(&p, usi_move("B*4e"), None), "４五角打");
    assert_eq!(read(&p, "５五角", None).unwrap(), "8h5e");
    assert_eq!(read(&p, "５五角打", None).unwrap(), "B*5e");
    assert_eq!(read(&p, "４五角", None).unwrap(), "B*4e");
    assert_eq!(read(&p, "４五角打", None).unwrap(), "B*4e");
    assert_eq!(read(&p, "４五角(00)", None).unwrap(), "B*4e");
}

#[test]
fn kif_origins_resolve_directly() {
    let p = Position::startpos();
    assert_eq!(kif_move_text(&p, usi_move("7g7f"), None), "７六歩(77)");
    assert_eq!(read(&p, "７六歩(77)", None).unwrap(), "7g7f");
    assert_eq!(read(&p, "５八金(69)", None).unwrap(), "6i5h");
    let e = read(&p, "７六金(77)", None).unwrap_err();
    assert!(e.contains("is a pawn, not a gold"), "{e}");
    let e = read(&p, "５五歩(55)", None).unwrap_err();
    assert!(e.contains("no piece on ５五"), "{e}");
    // The KIF `同　歩(23)` after a pawn exchange.
    let mut p = Position::startpos();
    for m in ["2g2f", "8c8d", "2f2e", "8d8e", "2e2d"] {
        p.play(usi_move(m)).unwrap();
    }
    let last = Square::new(2, 4);
    assert_eq!(kif_move_text(&p, usi_move("2c2d"), last), "同　歩(23)");
    assert_eq!(read(&p, "同　歩(23)", last).unwrap(), "2c2d");
}

// ---- Illegal moves are data ----

#[test]
fn illegal_moves_are_found_when_no_legal_one_fits() {
    // The gold on ５八 is pinned by the rook on ５一; the one on ４九 is free.
    let p = black("K59 G58 G49 r51 k91");
    assert_eq!(ja(&p, "4i4h"), "☗４八金");
    assert_eq!(read(&p, "４八金", None).unwrap(), "4i4h");
    assert_eq!(ja(&p, "5h4h"), "☗４八金寄");
    assert_eq!(read(&p, "４八金寄", None).unwrap(), "5h4h");
    // Only the pinned gold reaches ６八: the illegal move is still read.
    assert_eq!(read(&p, "６八金", None).unwrap(), "5h6h");
    let mut after = p.clone();
    assert!(
        after
            .play(usi_move("5h6h"))
            .unwrap()
            .contains(Rule::KingInCheck)
    );
    // 二歩 is read as the drop it is.
    let p = pos(&setup("K59 P57 k51", "b", "P"));
    assert_eq!(ja(&p, "P*5e"), "☗５五歩");
    let m = usi_move(&read(&p, "５五歩", None).unwrap());
    assert_eq!(m, usi_move("P*5e"));
    assert!(p.clone().play(m).unwrap().contains(Rule::TwoPawns));
    // Without 成 a pawn reaching the last rank does not promote: the rules flag it.
    let p = black("P12 k91");
    let m = usi_move(&read(&p, "１一歩", None).unwrap());
    assert_eq!(m, usi_move("1b1a"));
    assert!(p.clone().play(m).unwrap().contains(Rule::DeadPiece));
}

#[test]
fn a_pinned_piece_and_a_legal_drop() {
    // The bishop on ５八 is pinned; one in hand can drop on ４七.
    let p = pos(&setup("K59 B58 r51 k91", "b", "B"));
    assert_eq!(ja(&p, "B*4g"), "☗４七角");
    assert_eq!(read(&p, "４七角", None).unwrap(), "B*4g");
    assert_eq!(ja(&p, "5h4g"), "☗４七角上");
    assert_eq!(read(&p, "４七角上", None).unwrap(), "5h4g");
}

// ---- Errors ----

#[test]
fn ambiguous_and_impossible_moves_are_errors() {
    let p = black("S39 S19 k51");
    let e = read(&p, "２八銀", None).unwrap_err();
    assert!(
        e.contains("ambiguous") && e.contains("３九 and １九") && e.contains("add"),
        "{e}"
    );
    assert!(e.contains('右') && e.contains('左'), "{e}");
    let p = Position::startpos();
    let e = read(&p, "５八金", None).unwrap_err();
    assert!(
        e.contains("ambiguous") && e.contains("６九 and ４九"),
        "{e}"
    );
    let e = read(&p, "５五金", None).unwrap_err();
    assert!(
        e.contains("impossible") && e.contains("no black gold can move to ５五"),
        "{e}"
    );
    let e = read(&p, "５八金直", None).unwrap_err();
    assert!(e.contains("impossible") && e.contains("直"), "{e}");
    let e = read(&p, "同　歩", None).unwrap_err();
    assert!(e.contains("同"), "{e}");
    let e = read(&p, "△７六歩", None).unwrap_err();
    assert!(
        e.contains("white's move") && e.contains("black's turn"),
        "{e}"
    );
    let e = read(&p, "５八金成", None).unwrap_err();
    assert!(e.contains("cannot promote"), "{e}");
    let e = read(&p, "５五角打", None).unwrap_err();
    assert!(e.contains("no bishop in hand"), "{e}");
    let e = read(&p, "７七角打", None).unwrap_err();
    assert!(e.contains("no bishop in hand"), "{e}");
    let p = pos(&setup("K59 k51", "b", "G"));
    let e = read(&p, "５八金右", None).unwrap_err();
    assert!(e.contains("impossible"), "{e}");
    let e = read(&p, "５八金右打", None).unwrap_err();
    assert!(e.contains("no relative word"), "{e}");
}

// ---- Western notation ----

#[test]
fn hodges_and_hosking() {
    let p = Position::startpos();
    let w = |p: &Position, m: &str| (hodges(p, usi_move(m)), hosking(p, usi_move(m)));
    assert_eq!(w(&p, "7g7f"), ("P-7f".into(), "P76".into()));
    assert_eq!(w(&p, "6i5h"), ("G6i-5h".into(), "G69-58".into()));
    assert_eq!(w(&p, "6i7h"), ("G-7h".into(), "G78".into()));
    let mut p = Position::startpos();
    p.play(usi_move("7g7f")).unwrap();
    p.play(usi_move("3c3d")).unwrap();
    assert_eq!(w(&p, "8h2b+"), ("Bx2b+".into(), "Bx22+".into()));
    assert_eq!(w(&p, "8h2b"), ("Bx2b=".into(), "Bx22=".into()));
    let p = black("+B22 s31 K59 k51");
    assert_eq!(w(&p, "2b3a"), ("+Bx3a".into(), "+Bx31".into()));
    let p = pos(&setup("K99 k11", "b", "B"));
    assert_eq!(w(&p, "B*4e"), ("B*4e".into(), "B*45".into()));
    let p = pos(&setup("K99 s37 k11", "w", "-"));
    assert_eq!(w(&p, "3g4h"), ("S-4h=".into(), "S48=".into()));
    assert_eq!(w(&p, "3g4h+"), ("S-4h+".into(), "S48+".into()));
    let p = black("G69 G49 p58 k51");
    assert_eq!(w(&p, "4i5h"), ("G4ix5h".into(), "G49x58".into()));
    let p = black("+P69 +P49 k51");
    assert_eq!(w(&p, "4i5h"), ("+P4i-5h".into(), "+P49-58".into()));
}

// ---- Round trips ----

/// Random legal games from the start and from crowded positions: every legal move of
/// every position is written and read back, KI2 and KIF, and its Western forms are unique.
#[test]
fn every_legal_move_round_trips_in_random_games() {
    let mut rng = Rng::new(0x6b69_3274);
    let mut checked = 0;
    for game in 0..24 {
        let mut p = Position::startpos();
        let mut last_to = None;
        for _ in 0..200 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            assert_round_trip(&p, &moves, last_to);
            if game % 4 == 0 {
                assert_western_unique(&p);
            }
            checked += moves.len();
            let m = moves[rng.below(moves.len())];
            p.play(m).unwrap();
            last_to = Some(m.to());
        }
    }
    assert!(checked > 100_000, "only {checked} moves checked");
}

#[test]
fn crowded_positions_round_trip_legal_and_illegal_moves() {
    let mut rng = Rng::new(0x00c0_ffee);
    let mut positions = 0;
    let mut several = 0;
    while positions < 150 {
        let Some(start) = crowded(&mut rng) else {
            continue;
        };
        positions += 1;
        for p in [start.clone(), start.flip(), start.mirror()] {
            let legal = p.legal_moves();
            assert_round_trip(&p, &legal, None);
            assert_round_trip(&p, &physical_moves(&p), None);
            assert_western_unique(&p);
            several += legal
                .iter()
                .filter(|m| {
                    let t = japanese(&p, **m, None);
                    t.chars().any(|c| Relative::from_char(c).is_some())
                })
                .count();
            // A short random continuation from there.
            let mut q = p.clone();
            let mut last_to = None;
            for _ in 0..12 {
                let moves = q.legal_moves();
                if moves.is_empty() {
                    break;
                }
                assert_round_trip(&q, &moves, last_to);
                let m = moves[rng.below(moves.len())];
                q.play(m).unwrap();
                last_to = Some(m.to());
            }
        }
    }
    assert!(several > 500, "only {several} moves needed relative words");
}

/// A move that cannot be read or played says what went wrong as a kind a program can match,
/// in every notation, beside the sentence a reader reports.
#[test]
fn move_errors_carry_their_kind() {
    use kifudex::notation::csa::parse_move;
    use kifudex::notation::movetext::MoveTextErrorKind as K;
    use kifudex::notation::movetext::kitao::{parse_kitao_kawasaki, resolve_kitao_kawasaki};
    let start = Position::startpos();
    let japanese = |text: &str, last_to: Option<Square>| {
        parse_japanese_move(text).and_then(|(mv, _)| resolve(&start, &mv, last_to))
    };
    for (text, kind) in [
        ("歩", K::Syntax),
        ("７六Ｘ", K::Syntax),
        ("☖７六歩", K::WrongSide),
        ("同　歩", K::NoPreviousMove),
        ("５八金成", K::CannotPromote),
        ("５五角打(77)", K::BadDrop),
        ("７五歩(76)", K::NoPiece),
        ("７六金(77)", K::WrongPiece),
        ("３四歩(33)", K::NotOwnPiece),
        ("５五龍打", K::CannotDrop),
        ("５五角打", K::NotInHand),
        ("５八金", K::Ambiguous),
        ("７六金", K::Impossible),
    ] {
        let e = japanese(text, None).expect_err(text);
        assert_eq!(e.kind(), kind, "{text}: {e}");
        assert!(
            e.message().contains(text.trim_start_matches('☖')) || kind == K::Syntax,
            "{e}"
        );
    }
    for (text, kind) in [
        ("+7776XX", K::Syntax),
        ("-3334FU", K::WrongSide),
        ("+0055RY", K::CannotDrop),
        ("+5576FU", K::NoPiece),
        ("+7776KI", K::WrongPiece),
    ] {
        let e = parse_move(&start, text).expect_err(text);
        assert_eq!(e.kind(), kind, "{text}: {e}");
    }
    for (text, kind) in [
        ("☗銀76", K::Syntax),
        ("☗銀x", K::NoPreviousMove),
        ("☗銀x84", K::NothingToCapture),
        ("☗銀-79", K::OwnPiece),
        ("☗金-58", K::Ambiguous),
    ] {
        let e = parse_kitao_kawasaki(text)
            .and_then(|(mv, _)| resolve_kitao_kawasaki(&start, &mv, None))
            .expect_err(text);
        assert_eq!(e.kind(), kind, "{text}: {e}");
    }
}
