//! Recognition of strategies, castles and openings: every name has its pair of tests
//! (`pairs*.rs`), the game label its rules and reasons (`labels.rs`); here the hierarchy,
//! handicaps, the spelling table, what the database keeps, and the matcher against a plain
//! reading of the definitions.

mod docs;
mod labels;
mod pairs;
mod pairs_castles;
mod pairs_labels;
mod pairs_ranging;
mod pairs_static;

use kifudex::classify::{
    self, Kind, PATTERNS, Recognised, canonical, descendants, family, lineage, recognise,
    recognise_record, split_header,
};
use kifudex::notation::read_bytes;
use kifudex::shogi::{Color, Move, Position};

use crate::util::corpus;
use pairs::{parse, solo};

/// Plays the USI moves from `start`, checking each is legal, and recognises the game.
fn run_from(start: &Position, moves: &[Move]) -> Recognised {
    let mut p = start.clone();
    for (i, &m) in moves.iter().enumerate() {
        let v = p
            .play(m)
            .unwrap_or_else(|e| panic!("move {} ({}) cannot be played: {e}", i + 1, m.usi()));
        assert!(
            v.is_empty(),
            "move {} ({}) breaks a rule: {:?}",
            i + 1,
            m.usi(),
            v.first()
        );
    }
    recognise(start, moves.iter().copied())
}

#[test]
fn a_name_brings_its_ancestors_at_the_same_ply() {
    let r = run_from(
        &Position::startpos(),
        &solo("2h7h 5i4h 4h3h 3h2h 3i3h 4g4f 7i6h 6h5i 5i4h 4h4g"),
    );
    let castles: Vec<(&str, u32)> = r
        .side(Color::Black)
        .filter(|i| i.kind == Kind::Castle)
        .map(|i| (i.name, i.ply))
        .collect();
    assert_eq!(
        castles,
        vec![
            ("早囲い", 5),
            ("片美濃囲い", 9),
            ("美濃囲い", 9),
            ("ダイヤモンド美濃", 19)
        ]
    );
    let strategies: Vec<(&str, u32)> = r
        .side(Color::Black)
        .filter(|i| i.kind == Kind::Strategy)
        .map(|i| (i.name, i.ply))
        .collect();
    // A name before its ancestors at one ply.
    let at = |n: &str| strategies.iter().position(|s| *s == (n, 1)).unwrap();
    assert!(at("初手▲7八飛戦法") < at("三間飛車") && at("三間飛車") < at("振り飛車"));
    assert!(at("先手三間飛車") < at("三間飛車"));
}

#[test]
fn handicap_games_get_no_label_that_cannot_hold() {
    // 飛車落ち: the 上手 (gote, to move) has no rook, so no 相振り飛車 and no 相居飛車 opening,
    // whatever the 下手 does; the 下手's ranging rook names the game.
    let rook_off =
        Position::from_sfen("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
            .unwrap();
    let r = run_from(&rook_off, &parse("3c3d 7g7f 4a3b 2h6h"));
    assert_eq!(r.opening, Some("四間飛車"));
    let r = run_from(&rook_off, &parse("3c3d 2g2f 4a3b 2f2e"));
    assert_eq!(r.opening, Some("その他の戦型"));
    assert!(r.side(Color::White).all(|i| i.kind == Kind::Castle));
    // 角落ち: no 角換わり, even when the 下手's bishop is taken and the 上手 holds one.
    let bishop_off =
        Position::from_sfen("lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
            .unwrap();
    let r = run_from(&bishop_off, &parse("3c3d 7g7f 8c8d 2g2f 8d8e 8h2b+ 3a2b"));
    assert!(!r.has(Color::Black, "角換わり") && !r.has(Color::White, "角換わり"));
    // A position set up by hand (a problem) gets nothing.
    let problem = Position::from_sfen("8k/9/9/9/9/9/9/9/K8 b G 1").unwrap();
    assert_eq!(recognise(&problem, parse("4i4h")), Recognised::default());
}

#[test]
fn one_table_of_spellings() {
    assert_eq!(canonical("相振飛車"), Some("相振り飛車"));
    assert_eq!(canonical("向飛車"), Some("向かい飛車"));
    assert_eq!(canonical("角交換腰掛銀"), Some("角換わり腰掛け銀"));
    assert_eq!(canonical("YAGURA"), Some("矢倉"));
    assert_eq!(canonical("Yagura"), Some("矢倉"));
    assert_eq!(canonical("ＹＡＧＵＲＡ"), Some("矢倉"));
    assert_eq!(canonical("５筋位取り"), Some("5筋位取り"));
    assert_eq!(canonical("片美濃"), Some("片美濃囲い"));
    assert_eq!(canonical("片美濃囲い"), Some("片美濃囲い"));
    assert_eq!(canonical("金無双囲い"), Some("金無双"));
    assert_eq!(canonical("ミレニアム"), Some("ミレニアム囲い"));
    assert_eq!(canonical("角換わりその他"), Some("角換わり"));
    assert_eq!(canonical(" 四間飛車 "), Some("四間飛車"));
    assert_eq!(canonical("銀立ち矢倉"), Some("銀立ち矢倉"));
    assert_eq!(canonical("流れ矢倉"), None);
    assert_eq!(canonical("四枚矢倉"), Some("総矢倉"));
    assert_eq!(canonical("四枚美濃"), Some("ダイヤモンド美濃"));
    assert_eq!(canonical("elmo囲い"), Some("エルモ囲い"));
    assert_eq!(canonical("横歩取り△8五飛"), Some("中座飛車"));
    assert_eq!(canonical("相振"), Some("相振り飛車"));
    assert_eq!(canonical("石田流本組"), Some("石田流本組み"));
    assert_eq!(canonical(""), None);
    assert_eq!(split_header("早石田, 石田流"), vec!["早石田", "石田流"]);
    assert_eq!(
        split_header("四間飛車、相振飛車"),
        vec!["四間飛車", "相振り飛車"]
    );
    // Every name is its own spelling, and every other spelling stands for the name that
    // lists it (no spelling is claimed by two names).
    for name in classify::canonical_names() {
        assert_eq!(canonical(name), Some(name));
    }
    let aliases = classify::DEFS
        .iter()
        .flat_map(|d| d.aliases.iter().map(move |a| (*a, d.name)))
        .chain(
            classify::names::LABELS
                .iter()
                .flat_map(|l| l.aliases.iter().map(move |a| (*a, l.name))),
        );
    for (alias, name) in aliases {
        assert_eq!(canonical(alias), Some(name), "{alias}");
    }
}

#[test]
fn the_hierarchy() {
    assert_eq!(
        lineage("ゴキゲン中飛車"),
        vec!["ゴキゲン中飛車", "中飛車", "振り飛車"]
    );
    assert_eq!(
        lineage("ダイヤモンド美濃"),
        vec!["ダイヤモンド美濃", "片美濃囲い", "美濃囲い"]
    );
    assert_eq!(lineage("居飛車穴熊"), vec!["居飛車穴熊", "穴熊"]);
    assert_eq!(family("藤井システム"), "四間飛車");
    assert_eq!(family("相振り飛車"), "相振り飛車");
    assert_eq!(family("銀冠"), "美濃囲い");
    assert_eq!(family("力戦"), "その他の戦型");
    let under = descendants("石田流");
    assert_eq!(
        under,
        vec!["石田流", "石田流本組み", "石田流7七角型", "石田流穴熊"]
    );
    assert_eq!(lineage("ウソ矢倉"), vec!["ウソ矢倉", "矢倉"]);
    assert!(descendants("三間飛車").contains(&"升田式石田流"));
    assert!(descendants("矢倉").contains(&"相矢倉"));
    assert_eq!(family("相三間飛車"), "相振り飛車");
    assert_eq!(family("一手損角換わり"), "角換わり");
    assert_eq!(family("角換わり相腰掛け銀"), "角換わり");
    assert!(descendants("振り飛車").contains(&"相振り飛車"));
    assert!(descendants("振り飛車").contains(&"藤井システム"));
}

/// The database keeps only the names the others do not imply (an ancestor that held from
/// the same ply as a name below it is left out); `with_ancestors` gives back exactly what
/// was recognised, names, plies and order, on generated games.
#[test]
fn the_stored_names_give_back_every_name_with_its_ply() {
    let mut synth = kifudex::synth::Synth::new(kifudex::synth::SynthOptions {
        seed: 11,
        ..kifudex::synth::SynthOptions::default()
    });
    let (mut all, mut kept) = (0, 0);
    for _ in 0..2000 {
        let r = recognise_record(&synth.game());
        for side in Color::ALL {
            for kind in [Kind::Strategy, Kind::Castle] {
                let mine = |implied_too: bool| -> Vec<(&str, u32)> {
                    r.side(side)
                        .filter(|i| i.kind == kind && (implied_too || !i.implied))
                        .map(|i| (i.name, i.ply))
                        .collect()
                };
                assert_eq!(classify::with_ancestors(mine(false)), mine(true), "{r:?}");
                all += mine(true).len();
                kept += mine(false).len();
            }
        }
        assert_eq!(
            r.stored().count(),
            r.items.iter().filter(|i| !i.implied).count()
        );
    }
    // 振り飛車 is implied in every ranging rook game: fewer rows for the database.
    assert!(kept * 5 < all * 4, "{kept} of {all} kept");
}

#[test]
fn a_name_below_another_at_the_same_ply_implies_it_and_not_at_a_later_one() {
    let r = run_from(
        &Position::startpos(),
        &solo("2h7h 5i4h 4h3h 3h2h 3i3h 4g4f 7i6h 6h5i 5i4h 4h4g"),
    );
    let stored: Vec<(&str, u32)> = r
        .stored()
        .filter(|i| i.side == Color::Black)
        .map(|i| (i.name, i.ply))
        .collect();
    // 振り飛車 and 三間飛車 came with 初手▲7八飛戦法 (and 先手三間飛車), 美濃囲い with 片美濃囲い;
    // ダイヤモンド美濃 came later, so 片美濃囲い stays.
    let castles: Vec<(&str, u32)> = stored
        .iter()
        .copied()
        .filter(|(n, _)| classify::names::kind_of(n) == Some(Kind::Castle))
        .collect();
    assert_eq!(
        castles,
        vec![("早囲い", 5), ("片美濃囲い", 9), ("ダイヤモンド美濃", 19)]
    );
    assert!(stored.contains(&("初手▲7八飛戦法", 1)) && stored.contains(&("先手三間飛車", 1)));
    assert!(
        !stored
            .iter()
            .any(|(n, _)| ["三間飛車", "振り飛車"].contains(n))
    );
}

/// What the matcher finds equals a plain reading of the definitions, on generated games and
/// on the games of the corpus: after every ply, every pattern of both sides tested against
/// the whole board (no triggers, no cut by the king's square), again and again until no name
/// is added (a name found may complete another pattern of either side in the same ply),
/// each name with its ancestors at the first ply one of its patterns held, and the move
/// played then; "not had" reads the names found before the ply.
#[test]
fn the_matcher_equals_testing_every_pattern_after_every_ply() {
    use kifudex::classify::DEFS;
    use kifudex::classify::patterns::Cond;
    use kifudex::shogi::{PieceKind, Square};

    fn def(name: &str) -> usize {
        DEFS.iter()
            .position(|d| d.name == name)
            .expect("a defined name")
    }
    // found[side][def]: the ply it first held, 0 for never.
    fn brute(start: &Position, moves: &[Move]) -> [Vec<u32>; 2] {
        let mut found = [vec![0u32; DEFS.len()], vec![0u32; DEFS.len()]];
        // Whether the name was first found through one of its own patterns.
        let mut direct = [vec![false; DEFS.len()], vec![false; DEFS.len()]];
        let mut pos = start.clone();
        let last = PATTERNS.iter().map(|p| p.plies.1).max().unwrap_or(0) as usize;
        // The rook's home rank, ▲'s eighth (△'s second), files 2–8.
        let home = |pos: &Position, side: Color| {
            (2..=8).any(|f| {
                let rank = if side == Color::Black { 8 } else { 2 };
                pos.piece_at(Square::new(f, rank).unwrap())
                    .is_some_and(|p| p.color == side && p.kind == PieceKind::Rook)
            })
        };
        let mut rook_home = [home(&pos, Color::Black), home(&pos, Color::White)];
        let mut opening = true;
        for (i, &mv) in moves.iter().enumerate().take(last) {
            let ply = i as u32 + 1;
            let taken = pos.piece_at(mv.to()).map(|p| p.kind);
            if !matches!(
                taken,
                None | Some(PieceKind::Pawn | PieceKind::Bishop | PieceKind::Horse)
            ) {
                opening = false;
            }
            pos.play(mv).expect("a recorded move plays");
            for side in Color::ALL {
                rook_home[side.index()] &= home(&pos, side);
            }
            loop {
                let mut added = false;
                for side in Color::ALL {
                    let s = side.index();
                    let o = side.opponent().index();
                    for p in PATTERNS {
                        let d = def(p.name);
                        let window = (p.plies.0.max(1) as u32..=p.plies.1 as u32).contains(&ply);
                        if found[s][d] != 0 || !window {
                            continue;
                        }
                        // The squares of a set, read for `side` (gote's rotated).
                        let squares = |set: u128| -> Vec<Square> {
                            (0..81)
                                .filter(|b| set & (1u128 << b) != 0)
                                .map(|b| if s == 0 { b } else { 80 - b })
                                .map(|b| Square::from_index(b).expect("a square"))
                                .collect()
                        };
                        let on = |who: Color, kinds: u16, sq: Square| {
                            pos.piece_at(sq).is_some_and(|pc| {
                                pc.color == who && kinds & (1 << pc.kind.index()) != 0
                            })
                        };
                        let me = side;
                        let them = side.opponent();
                        let not_before = |f: u32| f == 0 || f == ply;
                        let holds = p.conds.iter().all(|c| match *c {
                            Cond::Own(k, set) => squares(set).iter().all(|&q| on(me, k, q)),
                            Cond::OwnAny(k, set) => squares(set).iter().any(|&q| on(me, k, q)),
                            Cond::OwnNone(k, set) => !squares(set).iter().any(|&q| on(me, k, q)),
                            Cond::Opp(k, set) => squares(set).iter().all(|&q| on(them, k, q)),
                            Cond::OppAny(k, set) => squares(set).iter().any(|&q| on(them, k, q)),
                            Cond::OppNone(k, set) => !squares(set).iter().any(|&q| on(them, k, q)),
                            Cond::OwnHand(k) => pos.hand(me).count(k) > 0,
                            Cond::OppHand(k) => pos.hand(them).count(k) > 0,
                            Cond::Had(n) => found[s][def(n)] != 0,
                            Cond::Just(n) => found[s][def(n)] == ply,
                            Cond::NotHad(n) => not_before(found[s][def(n)]),
                            Cond::OppHad(n) => found[o][def(n)] != 0,
                            Cond::OppNotHad(n) => not_before(found[o][def(n)]),
                            Cond::OppDid(n) => direct[o][def(n)],
                            Cond::Opening => opening,
                            Cond::RookHome => rook_home[s],
                            Cond::Side(c) => c == side,
                        });
                        if holds {
                            for name in lineage(p.name) {
                                let a = def(name);
                                if found[s][a] == 0 {
                                    found[s][a] = ply;
                                    direct[s][a] = a == d;
                                    added = true;
                                }
                            }
                        }
                    }
                }
                if !added {
                    break;
                }
            }
        }
        found
    }

    let mut synth = kifudex::synth::Synth::new(kifudex::synth::SynthOptions {
        seed: 5,
        ..kifudex::synth::SynthOptions::default()
    });
    let mut records: Vec<kifudex::notation::Record> = (0..300).map(|_| synth.game()).collect();
    if let Some(files) = corpus(&[]) {
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            records.extend(
                read_bytes(&bytes, Some(&path))
                    .games
                    .into_iter()
                    .filter(|g| g.start == Position::startpos() && g.first_illegal().is_none()),
            );
        }
    }
    let mut names = 0;
    for (game, rec) in records.iter().enumerate() {
        let moves: Vec<Move> = rec.main.moves.iter().map(|m| m.mv).collect();
        let want = brute(&rec.start, &moves);
        let got = recognise_record(rec);
        for side in Color::ALL {
            let mut want_side: Vec<(&str, u32, Move)> = DEFS
                .iter()
                .zip(&want[side.index()])
                .filter(|(_, ply)| **ply > 0)
                .map(|(d, ply)| (d.name, *ply, moves[*ply as usize - 1]))
                .collect();
            let mut got_side: Vec<(&str, u32, Move)> =
                got.side(side).map(|i| (i.name, i.ply, i.mv)).collect();
            want_side.sort_by_key(|w| (w.0, w.1));
            got_side.sort_by_key(|w| (w.0, w.1));
            assert_eq!(
                got_side, want_side,
                "game {game}, {side:?}: {:?}",
                rec.headers
            );
            names += got_side.len();
        }
    }
    assert!(names > 1000, "{names} names in {} games", records.len());
}

#[test]
fn a_row_recognises_its_moves_as_the_record_does() {
    // The importer recognises a batch of rows at a time from the moves the row holds: the
    // same answer as from the record, for generated games, handicap games, a position set up
    // by hand, and every game of the corpus.
    use kifudex::notation::Format;
    use kifudex::store::GameRow;
    let mut records: Vec<kifudex::notation::Record> = Vec::new();
    let mut synth = kifudex::synth::Synth::new(kifudex::synth::SynthOptions::default());
    records.extend((0..300).map(|_| synth.game()));
    for text in [
        "手合割：飛車落ち\n1 ３四歩(33)\n2 ７六歩(77)\n3 ４二銀(31)\n4 ６八飛(28)\n",
        "手合割：角落ち\n1 ３四歩(33)\n2 ２六歩(27)\n3 ４四歩(43)\n4 ４八銀(39)\n",
        "手合割：平手\n1 ７六歩(77)\n2 ３四歩(33)\n3 ６六歩(67)\n4 ８四歩(83)\n5 ６八飛(28)\n",
    ] {
        records.extend(read_bytes(text.as_bytes(), None).games);
    }
    records.extend(
        read_bytes(
            b"position sfen 8k/9/9/9/9/9/9/9/K8 b G 1 moves 9i9h\n",
            None,
        )
        .games,
    );
    if let Some(files) = corpus(&[]) {
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            records.extend(read_bytes(&bytes, Some(&path)).games);
        }
    }
    let (mut handicap, mut other, mut named) = (0, 0, 0);
    for rec in &records {
        let want = recognise_record(rec);
        let mut row = GameRow::from_record(rec.clone(), Format::Kif, false);
        assert_eq!(row.recognised, None);
        row.recognise();
        assert_eq!(row.recognised.as_ref(), Some(&want), "{:?}", rec.headers);
        match rec.handicap() {
            kifudex::shogi::Handicap::Even => {}
            kifudex::shogi::Handicap::Other => other += 1,
            _ => handicap += 1,
        }
        named += usize::from(!want.items.is_empty());
    }
    assert!(
        handicap >= 2 && other >= 1 && named >= 250,
        "{handicap} {other} {named}"
    );
}
