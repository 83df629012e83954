//! The seventeen 手合割: names, SFEN and CSA PI lists, each way round.

use kifudex::shogi::{Color, Handicap, PieceKind, Position, Square};

const TABLE: [(&str, &str, &str); 16] = [
    (
        "平手",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "PI",
    ),
    (
        "香落ち",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "PI11KY",
    ),
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "PI91KY",
    ),
    (
        "角落ち",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "PI22KA",
    ),
    (
        "飛車落ち",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "PI82HI",
    ),
    (
        "飛香落ち",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "PI82HI11KY",
    ),
    (
        "二枚落ち",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "PI82HI22KA",
    ),
    (
        "三枚落ち",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "PI82HI22KA11KY",
    ),
    (
        "四枚落ち",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "PI82HI22KA11KY91KY",
    ),
    (
        "五枚落ち",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "PI82HI22KA11KY91KY21KE",
    ),
    (
        "左五枚落ち",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "PI82HI22KA11KY91KY81KE",
    ),
    (
        "六枚落ち",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "PI82HI22KA11KY91KY21KE81KE",
    ),
    (
        "左七枚落ち",
        "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "PI82HI22KA11KY91KY21KE81KE31GI",
    ),
    (
        "右七枚落ち",
        "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "PI82HI22KA11KY91KY21KE81KE71GI",
    ),
    (
        "八枚落ち",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "PI82HI22KA11KY91KY21KE81KE31GI71GI",
    ),
    (
        "十枚落ち",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "PI82HI22KA11KY91KY21KE81KE31GI71GI41KI61KI",
    ),
];

#[test]
fn every_named_handicap_has_its_sfen_and_pi() {
    assert_eq!(Handicap::ALL.len(), 17);
    for (h, (name, sfen, pi)) in Handicap::ALL.iter().zip(TABLE) {
        assert_eq!(h.kif_name(), name);
        assert_eq!(h.sfen().as_deref(), Some(sfen), "{name}");
        assert_eq!(h.csa_pi().as_deref(), Some(pi), "{name}");
    }
    assert_eq!(Handicap::Other.kif_name(), "その他");
    assert_eq!(Handicap::Other.sfen(), None);
    assert_eq!(Handicap::Other.csa_pi(), None);
}

#[test]
fn names_sfen_and_removals_map_back() {
    for (name, sfen, _) in TABLE {
        let h = Handicap::from_kif_name(name).unwrap();
        assert_eq!(Handicap::from_sfen(sfen), h, "{name}");
        assert_eq!(Handicap::from_removals(&h.removals()), Some(h), "{name}");
        // Removal order does not matter.
        let mut reversed = h.removals();
        reversed.reverse();
        assert_eq!(Handicap::from_removals(&reversed), Some(h), "{name}");
        // The CSA way: take the pieces off the even position.
        let side = if h == Handicap::Even {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(
            Position::startpos().without(&h.removals(), side).to_sfen(),
            sfen
        );
    }
    assert_eq!(
        Handicap::from_kif_name("  角落ち　"),
        Some(Handicap::Bishop)
    );
    assert_eq!(Handicap::from_kif_name("香落"), Some(Handicap::Lance));
    assert_eq!(Handicap::from_kif_name("その他"), Some(Handicap::Other));
    assert_eq!(Handicap::from_kif_name("詰将棋"), None);
    let gold_only = [(Square::new(4, 1).unwrap(), PieceKind::Gold)];
    assert_eq!(Handicap::from_removals(&gold_only), None);
}

#[test]
fn handicap_games_start_with_white_and_other_positions_are_other() {
    let p = Handicap::TwoPieces.position().unwrap();
    assert_eq!(p.side_to_move(), Color::White);
    // 9 pawn pushes, 2 lance steps, 3 for each silver and gold, 3 for the king.
    assert_eq!(p.legal_moves().len(), 26);
    // Black to move in a handicap layout is no named handicap.
    assert_eq!(
        Handicap::from_sfen("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
        Handicap::Other
    );
    // The move number does not matter.
    assert_eq!(
        Handicap::from_sfen("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 7"),
        Handicap::TwoPieces
    );
    assert_eq!(
        Handicap::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1"),
        Handicap::Other
    );
}
