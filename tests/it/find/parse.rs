//! The query language's parser: every construct in each of its spellings gives the typed
//! query written out here, and every error names its column, what was expected and (for a
//! misspelt word) the nearest known one.

use kifudex::classify::Kind;
use kifudex::find::{
    Area, Cmp, Cond, Expr, LastMove, PieceCond, Place, Query, Term, What, explain, parse,
};
use kifudex::shogi::{Color, Color::*, Move, PieceKind, PieceKind::*, Square};

fn sq(usi: &str) -> Square {
    let b = usi.as_bytes();
    Square::new(b[0] - b'0', b[1] - b'a' + 1).expect("a test square")
}

fn squares(list: &[&str]) -> Place {
    Place::Squares(list.iter().map(|s| sq(s)).collect())
}

fn piece(side: Option<Color>, what: What, place: Place) -> Query {
    Query::Cond(Cond::Piece(PieceCond { side, what, place }))
}

fn on(side: Option<Color>, kind: PieceKind, square: &str) -> Query {
    piece(side, What::Kind(kind), squares(&[square]))
}

fn cmp(left: Term, op: Cmp, right: i64) -> Query {
    Query::Cond(Cond::Compare {
        left: Expr::single(left),
        op,
        right: Expr::single(Term::Number(right)),
    })
}

fn last(m: LastMove) -> Query {
    Query::Cond(Cond::Last(m))
}

fn name(side: Option<Color>, name: &'static str, kind: Kind) -> Query {
    Query::Cond(Cond::Name { side, name, kind })
}

#[track_caller]
fn parsed(text: &str) -> Query {
    parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Each spelling reads as `want`.
#[track_caller]
fn same(texts: &[&str], want: Query) {
    for t in texts {
        assert_eq!(parsed(t), want, "{t}");
    }
}

#[test]
fn a_piece_on_a_square_in_every_spelling() {
    same(
        &[
            "▲９九玉",
            "▲99玉",
            "▲９９玉",
            "☗９九玉",
            "先手９九玉",
            "下手9九玉",
            "▲玉９九",
            "▲玉将 ９九",
            "K@9i",
            "black king 9i",
            "black king on 9i",
            "sente king at 9i",
            "BLACK KING @ 9I",
            "black kings 99",
        ],
        on(Some(Black), King, "9i"),
    );
    same(
        &[
            "△５五桂",
            "▽５五桂",
            "☖５五桂",
            "後手５五桂馬",
            "上手55桂",
            "n@5e",
            "white knight on 5e",
            "gote knight 5e",
        ],
        on(Some(White), Knight, "5e"),
    );
    // No side: either side's.
    same(
        &["５五桂", "knight on 5e", "knight 55"],
        on(None, Knight, "5e"),
    );
    // Every kind, in kanji, English and USI letters.
    for (texts, kind) in [
        (&["▲５五歩", "black pawn 5e", "P@5e"][..], Pawn),
        (&["▲５五香", "▲５五香車", "black lance 5e", "L@5e"], Lance),
        (&["▲５五桂", "black knight 5e", "N@5e"], Knight),
        (&["▲５五銀", "▲５五銀将", "black silver 5e", "S@5e"], Silver),
        (&["▲５五金", "▲５五金将", "black gold 5e", "G@5e"], Gold),
        (&["▲５五角", "▲５五角行", "black bishop 5e", "B@5e"], Bishop),
        (&["▲５五飛", "▲５五飛車", "black rook 5e", "R@5e"], Rook),
        (
            &["▲５五玉", "▲５五王", "▲５五王将", "black king 5e", "K@5e"],
            King,
        ),
        (
            &[
                "▲５五と",
                "black tokin 5e",
                "black promoted pawn 5e",
                "+P@5e",
            ],
            ProPawn,
        ),
        (
            &["▲５五成香", "▲５五杏", "black promoted lance 5e", "+L@5e"],
            ProLance,
        ),
        (
            &["▲５五成桂", "▲５五圭", "black promoted knight 5e", "+N@5e"],
            ProKnight,
        ),
        (
            &["▲５五成銀", "▲５五全", "black promoted silver 5e", "+S@5e"],
            ProSilver,
        ),
        (
            &[
                "▲５五馬",
                "▲５五龍馬",
                "▲５五竜馬",
                "black horse 5e",
                "+B@5e",
            ],
            Horse,
        ),
        (
            &[
                "▲５五龍",
                "▲５五竜",
                "▲５五龍王",
                "▲５五竜王",
                "black dragon 5e",
                "+R@5e",
            ],
            Dragon,
        ),
    ] {
        same(texts, on(Some(Black), kind, "5e"));
    }
    same(&["+r@5e", "△５五龍"], on(Some(White), Dragon, "5e"));
}

#[test]
fn any_piece_empty_squares_and_the_whole_board() {
    same(
        &["５五駒", "piece on 5e", "pieces 55"],
        piece(None, What::AnyPiece, squares(&["5e"])),
    );
    same(
        &["▲５五駒", "black piece on 5e"],
        piece(Some(Black), What::AnyPiece, squares(&["5e"])),
    );
    same(
        &["５五空", "empty 5e", "empty on 55"],
        piece(None, What::Empty, squares(&["5e"])),
    );
    same(
        &["▲馬", "black horse", "+B"],
        piece(Some(Black), What::Kind(Horse), Place::Board),
    );
}

#[test]
fn sets_of_squares() {
    let want = piece(Some(Black), What::Kind(King), squares(&["9i", "8h"]));
    same(
        &[
            "▲玉{９九,８八}",
            "▲玉｛９九、８八｝",
            "▲玉{99 88}",
            "▲{99,88}玉",
            "black king on {9i, 8h}",
            "black king {9i 8h 9i}",
        ],
        want,
    );
    same(
        &["empty {5e,5f}", "{５五 ５六}空"],
        piece(None, What::Empty, squares(&["5e", "5f"])),
    );
}

#[test]
fn files_ranks_and_areas() {
    let rook = |place| piece(Some(Black), What::Kind(Rook), place);
    same(
        &[
            "▲飛２筋",
            "▲飛 2筋目",
            "▲二筋飛",
            "black rook in file 2",
            "black rook on file 2",
        ],
        rook(Place::File(2)),
    );
    same(
        &[
            "▲飛 三段目",
            "▲飛3段",
            "black rook in rank 3",
            "black rook on rank c",
        ],
        rook(Place::Rank(3)),
    );
    for (texts, area) in [
        (
            &[
                "▲飛 敵陣",
                "black rook in enemy camp",
                "black rook in promotion zone",
            ][..],
            Area::EnemyCamp,
        ),
        (&["▲飛 自陣", "black rook in own camp"], Area::OwnCamp),
        (&["▲飛 中段", "black rook in middle"], Area::Middle),
        (
            &["▲飛 中央", "black rook in centre", "black rook in center"],
            Area::Centre,
        ),
        (&["▲飛 端", "black rook on edge"], Area::Edge),
        (&["▲飛 左辺", "black rook on left side"], Area::LeftSide),
        (&["▲飛 右辺", "black rook on right side"], Area::RightSide),
    ] {
        same(texts, rook(Place::Area(area)));
    }
}

/// The areas are seen from the side of the piece: white's are black's turned round.
#[test]
fn areas_are_seen_from_each_side() {
    let count = |a: Area, c: Color| Square::all().filter(|&s| a.contains(c, s)).count();
    for (a, n) in [
        (Area::EnemyCamp, 27),
        (Area::OwnCamp, 27),
        (Area::Middle, 27),
        (Area::Centre, 9),
        (Area::Edge, 18),
        (Area::LeftSide, 36),
        (Area::RightSide, 36),
    ] {
        assert_eq!((count(a, Black), count(a, White)), (n, n), "{a:?}");
        for s in Square::all() {
            assert_eq!(
                a.contains(Black, s),
                a.contains(White, s.rotate()),
                "{a:?} {s}"
            );
        }
    }
    assert!(
        Area::EnemyCamp.contains(Black, sq("5c")) && !Area::EnemyCamp.contains(Black, sq("5d"))
    );
    assert!(
        Area::EnemyCamp.contains(White, sq("5g")) && !Area::EnemyCamp.contains(White, sq("5c"))
    );
    assert!(Area::LeftSide.contains(Black, sq("6a")) && Area::LeftSide.contains(White, sq("4i")));
    assert!(Area::Centre.contains(White, sq("4d")) && !Area::Centre.contains(White, sq("3e")));
}

#[test]
fn hands() {
    let pawns = cmp(Term::Hand(Black, Pawn), Cmp::Ge, 3);
    same(
        &[
            "▲歩 in hand >= 3",
            "持駒 ▲歩>=3",
            "持ち駒 先手 歩 ≥ 3",
            "▲持駒歩 3以上",
            "▲の持駒 歩 3枚以上",
            "black pawns in hand >= 3",
            "sente pawn in hand >= 3",
        ],
        pawns,
    );
    same(
        &["持駒▲角", "▲角 in hand", "black bishop in hand"],
        cmp(Term::Hand(Black, Bishop), Cmp::Ge, 1),
    );
    same(
        &["△歩 in hand < 2", "持駒 △歩 2未満"],
        cmp(Term::Hand(White, Pawn), Cmp::Lt, 2),
    );
    same(
        &[
            "black pawns in hand > white pawns in hand",
            "持駒▲歩 > 持駒△歩",
        ],
        Query::Cond(Cond::Compare {
            left: Expr::single(Term::Hand(Black, Pawn)),
            op: Cmp::Gt,
            right: Expr::single(Term::Hand(White, Pawn)),
        }),
    );
}

#[test]
fn material_and_counts() {
    same(
        &[
            "material(▲) - material(△) >= 5",
            "駒価値▲ - 駒価値△ >= 5",
            "material black - material white >= 5",
        ],
        Query::Cond(Cond::Compare {
            left: Expr {
                terms: vec![
                    (true, Term::Material(Black)),
                    (false, Term::Material(White)),
                ],
            },
            op: Cmp::Ge,
            right: Expr::single(Term::Number(5)),
        }),
    );
    same(
        &[
            "駒得(▲) >= 5",
            "advantage(black) >= 5",
            "advantage sente >= 5",
        ],
        cmp(Term::Advantage(Black), Cmp::Ge, 5),
    );
    let golds = PieceCond {
        side: Some(Black),
        what: What::Kind(Gold),
        place: Place::Area(Area::OwnCamp),
    };
    same(
        &[
            "count(▲金 自陣) >= 3",
            "枚数(▲金 自陣) 3以上",
            "count(black gold in own camp) >= 3",
        ],
        cmp(Term::Count(golds), Cmp::Ge, 3),
    );
    let empty = PieceCond {
        side: None,
        what: What::Empty,
        place: Place::File(5),
    };
    same(
        &["枚数(空 ５筋) = 9", "count(empty file 5) == 9"],
        cmp(Term::Count(empty), Cmp::Eq, 9),
    );
    same(
        &["ply + 2 <= 10 - 3"],
        Query::Cond(Cond::Compare {
            left: Expr {
                terms: vec![(true, Term::Ply), (true, Term::Number(2))],
            },
            op: Cmp::Le,
            right: Expr {
                terms: vec![(true, Term::Number(10)), (false, Term::Number(3))],
            },
        }),
    );
}

#[test]
fn side_to_move() {
    same(
        &[
            "手番 ▲",
            "手番は先手",
            "▲番",
            "▲の手番",
            "turn black",
            "black to move",
            "sente to move",
        ],
        Query::Cond(Cond::Turn(Black)),
    );
    same(
        &["手番 △", "△番", "white to move", "turn gote"],
        Query::Cond(Cond::Turn(White)),
    );
}

#[test]
fn plies() {
    same(
        &["ply <= 60", "手数 60以下", "ply ≤ 60", "手数 <= 60"],
        cmp(Term::Ply, Cmp::Le, 60),
    );
    same(
        &["ply = 40", "ply == 40", "手数 = 40"],
        cmp(Term::Ply, Cmp::Eq, 40),
    );
    same(&["ply != 3", "ply ≠ 3"], cmp(Term::Ply, Cmp::Ne, 3));
    same(&["ply < 10", "手数 10未満"], cmp(Term::Ply, Cmp::Lt, 10));
    same(&["ply > 5"], cmp(Term::Ply, Cmp::Gt, 5));
    same(&["ply >= 10", "手数 10以上"], cmp(Term::Ply, Cmp::Ge, 10));
    same(
        &["5 < ply"],
        Query::Cond(Cond::Compare {
            left: Expr::single(Term::Number(5)),
            op: Cmp::Lt,
            right: Expr::single(Term::Ply),
        }),
    );
    same(
        &["手数 30..60", "手数 30〜60", "ply 30~60", "ply 30..60"],
        Query::Cond(Cond::Between {
            expr: Expr::single(Term::Ply),
            low: 30,
            high: 60,
        }),
    );
}

#[test]
fn the_last_move() {
    let drop = LastMove {
        side: Some(Black),
        piece: Some(Pawn),
        to: Some(squares(&["5c"])),
        drop: true,
        ..LastMove::default()
    };
    same(
        &[
            "直前 ▲５三歩打",
            "直前▲53歩打",
            "前の手 ▲５三歩打",
            "last black pawn drop to 5c",
            "last move sente pawn dropped 5c",
            "last ▲ 打 歩 ５三",
        ],
        last(drop),
    );
    for (texts, want) in [
        (
            &[
                "last 成",
                "last promotion",
                "last promotes",
                "last promoted",
            ][..],
            LastMove {
                promotion: true,
                ..LastMove::default()
            },
        ),
        (
            &["last 不成", "last no promotion"],
            LastMove {
                no_promotion: true,
                ..LastMove::default()
            },
        ),
        (
            &[
                "last 取",
                "last 取り",
                "last capture",
                "last captures",
                "last takes",
                "last x",
            ],
            LastMove {
                capture: Some(None),
                ..LastMove::default()
            },
        ),
        (
            &["last 取 角", "last captures bishop", "last x 角"],
            LastMove {
                capture: Some(Some(Bishop)),
                ..LastMove::default()
            },
        ),
        (
            &["last 王手", "last check", "直前 王手", "王手", "check"],
            LastMove {
                check: true,
                ..LastMove::default()
            },
        ),
        (
            &["last from 7g", "last (77)", "直前 ７七から", "last from 77"],
            LastMove {
                from: Some(squares(&["7g"])),
                ..LastMove::default()
            },
        ),
        (
            &["last to 7f", "last 7f", "直前 ７六"],
            LastMove {
                to: Some(squares(&["7f"])),
                ..LastMove::default()
            },
        ),
        (
            &["last to 敵陣", "last to enemy camp", "直前 敵陣"],
            LastMove {
                to: Some(Place::Area(Area::EnemyCamp)),
                ..LastMove::default()
            },
        ),
        (
            &["last 7g7f"],
            LastMove {
                usi: Some(Move::from_usi("7g7f").unwrap()),
                ..LastMove::default()
            },
        ),
        (
            &["last 8h2b+"],
            LastMove {
                usi: Some(Move::from_usi("8h2b+").unwrap()),
                ..LastMove::default()
            },
        ),
        (
            &["last P*5c"],
            LastMove {
                usi: Some(Move::from_usi("P*5c").unwrap()),
                ..LastMove::default()
            },
        ),
        (
            &["last black promoted silver", "直前 ▲成銀"],
            LastMove {
                side: Some(Black),
                piece: Some(ProSilver),
                ..LastMove::default()
            },
        ),
        (
            &[
                "直前 △２二角成 王手",
                "last white bishop to 2b promotes check",
            ],
            LastMove {
                side: Some(White),
                piece: Some(Bishop),
                to: Some(squares(&["2b"])),
                promotion: true,
                check: true,
                ..LastMove::default()
            },
        ),
    ] {
        same(texts, last(want));
    }
}

#[test]
fn strategies_and_castles() {
    same(
        &["▲美濃囲い", "▲美濃", "先手美濃囲", "black MINO"],
        name(Some(Black), "美濃囲い", Kind::Castle),
    );
    same(
        &["△四間飛車", "後手 SHIKENBISHA"],
        name(Some(White), "四間飛車", Kind::Strategy),
    );
    same(
        &["居飛穴", "イビアナ"],
        name(None, "居飛車穴熊", Kind::Castle),
    );
    // A side word first: 先手中飛車 is sente's 中飛車 (not the alias of the whole name).
    same(&["先手中飛車"], name(Some(Black), "中飛車", Kind::Strategy));
    // Names beginning or ending in digits.
    same(
        &["5筋位取り", "５筋位取り"],
        name(None, "5筋位取り", Kind::Strategy),
    );
    same(
        &["▲ビッグ4", "▲ビッグ４"],
        name(Some(Black), "ビッグ4", Kind::Castle),
    );
    // A name beats a piece that begins it: 銀冠 is no silver.
    same(&["△銀冠"], name(Some(White), "銀冠", Kind::Castle));
}

#[test]
fn and_or_not_and_parentheses() {
    let k = on(Some(Black), King, "9i");
    let n = on(Some(White), Knight, "5e");
    let p = cmp(Term::Ply, Cmp::Lt, 10);
    let both = Query::And(vec![k.clone(), n.clone()]);
    same(
        &[
            "▲９九玉 and △５五桂",
            "▲９九玉 かつ △５五桂",
            "▲９九玉 & △５五桂",
            "▲９九玉 && △５五桂",
            "▲９九玉 AND △５五桂",
        ],
        both,
    );
    same(
        &[
            "▲９九玉 or △５五桂",
            "▲９九玉 または △５五桂",
            "▲９九玉 | △５五桂",
            "▲９九玉 || △５五桂",
        ],
        Query::Or(vec![k.clone(), n.clone()]),
    );
    same(
        &["not ▲９九玉", "!▲９九玉", "NOT ▲９九玉"],
        Query::Not(Box::new(k.clone())),
    );
    // `and` binds tighter than `or`, `not` tighter than both.
    same(
        &[
            "▲９九玉 or △５五桂 and ply < 10",
            "▲９九玉 or (△５五桂 and ply < 10)",
        ],
        Query::Or(vec![k.clone(), Query::And(vec![n.clone(), p.clone()])]),
    );
    same(
        &[
            "(▲９九玉 or △５五桂) and ply < 10",
            "（▲９九玉 or △５五桂） and ply < 10",
        ],
        Query::And(vec![Query::Or(vec![k.clone(), n.clone()]), p.clone()]),
    );
    same(
        &["not ▲９九玉 and △５五桂"],
        Query::And(vec![Query::Not(Box::new(k.clone())), n.clone()]),
    );
    same(
        &["not (▲９九玉 and △５五桂)", "!(▲９九玉 & △５五桂)"],
        Query::Not(Box::new(Query::And(vec![k.clone(), n.clone()]))),
    );
    same(&["((▲９九玉))"], k);
}

#[test]
fn explain_says_it_in_words() {
    let q = parsed("(▲９九玉 or △桂{55,44}) and not 持駒 ▲歩 >= 3 and last x 角 王手");
    assert_eq!(
        explain(&q),
        "all of:\n  any of:\n    sente's (▲) king (玉) on ９九 (9i)\n    gote's (△) knight (桂) on any of ５五 ４四 (5e 4d)\n  not: sente's (▲) pawns in hand >= 3\n  the last move was taking a bishop (角), giving check (王手)\n"
    );
    assert_eq!(
        explain(&parsed("▲穴熊 and △四間飛車 and 手数 30..60 and ▲と 敵陣")),
        "all of:\n  sente's (▲) castle 穴熊 (or 居飛車穴熊, 銀冠穴熊, 相穴熊, ビッグ4, 松尾流穴熊, 音無しの構え, 矢倉穴熊, 振り飛車穴熊) standing on the board\n  gote's (△) strategy 四間飛車 recognised by this ply\n  the ply (moves played) is from 30 to 60\n  sente's (▲) promoted pawn (と) in the enemy camp (敵陣: its far three ranks)\n"
    );
}
