//! The seventeen KIF 手合割 (handicaps) and their start positions, in KIF names, SFEN and
//! CSA `PI` removal lists, each way round. In a handicap game 上手 (White) moves first.

use std::sync::OnceLock;

use super::position::Position;
use super::types::{Color, PieceKind, Square};

/// A KIF 手合割.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// 平手: no handicap.
    Even,
    /// 香落ち: 上手's left lance (1a).
    Lance,
    /// 右香落ち: 上手's right lance (9a).
    RightLance,
    /// 角落ち
    Bishop,
    /// 飛車落ち
    Rook,
    /// 飛香落ち: rook and left lance.
    RookLance,
    /// 二枚落ち: rook and bishop.
    TwoPieces,
    /// 三枚落ち: rook, bishop, left lance.
    ThreePieces,
    /// 四枚落ち: rook, bishop, both lances.
    FourPieces,
    /// 五枚落ち: four pieces and the left knight (2a).
    FivePieces,
    /// 左五枚落ち: four pieces and the right knight (8a).
    LeftFivePieces,
    /// 六枚落ち: rook, bishop, lances, knights.
    SixPieces,
    /// 左七枚落ち: six pieces and the left silver (3a).
    LeftSevenPieces,
    /// 右七枚落ち: six pieces and the right silver (7a).
    RightSevenPieces,
    /// 八枚落ち: six pieces and both silvers.
    EightPieces,
    /// 十枚落ち: eight pieces and both golds: the king alone.
    TenPieces,
    /// その他: any other start position.
    Other,
}

use PieceKind::{Bishop, Gold, Knight, Lance, Rook, Silver};

const ROOK: (u8, PieceKind) = (82, Rook);
const BISHOP: (u8, PieceKind) = (22, Bishop);
const LEFT_LANCE: (u8, PieceKind) = (11, Lance);
const RIGHT_LANCE: (u8, PieceKind) = (91, Lance);
const LEFT_KNIGHT: (u8, PieceKind) = (21, Knight);
const RIGHT_KNIGHT: (u8, PieceKind) = (81, Knight);
const LEFT_SILVER: (u8, PieceKind) = (31, Silver);
const RIGHT_SILVER: (u8, PieceKind) = (71, Silver);
const LEFT_GOLD: (u8, PieceKind) = (41, Gold);
const RIGHT_GOLD: (u8, PieceKind) = (61, Gold);

const SIX: [(u8, PieceKind); 6] = [
    ROOK,
    BISHOP,
    LEFT_LANCE,
    RIGHT_LANCE,
    LEFT_KNIGHT,
    RIGHT_KNIGHT,
];

impl Handicap {
    /// Every handicap, in the order the KIF specification lists them.
    pub const ALL: [Handicap; 17] = [
        Handicap::Even,
        Handicap::Lance,
        Handicap::RightLance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPieces,
        Handicap::ThreePieces,
        Handicap::FourPieces,
        Handicap::FivePieces,
        Handicap::LeftFivePieces,
        Handicap::SixPieces,
        Handicap::LeftSevenPieces,
        Handicap::RightSevenPieces,
        Handicap::EightPieces,
        Handicap::TenPieces,
        Handicap::Other,
    ];

    /// The KIF 手合割 name.
    pub fn kif_name(self) -> &'static str {
        match self {
            Handicap::Even => "平手",
            Handicap::Lance => "香落ち",
            Handicap::RightLance => "右香落ち",
            Handicap::Bishop => "角落ち",
            Handicap::Rook => "飛車落ち",
            Handicap::RookLance => "飛香落ち",
            Handicap::TwoPieces => "二枚落ち",
            Handicap::ThreePieces => "三枚落ち",
            Handicap::FourPieces => "四枚落ち",
            Handicap::FivePieces => "五枚落ち",
            Handicap::LeftFivePieces => "左五枚落ち",
            Handicap::SixPieces => "六枚落ち",
            Handicap::LeftSevenPieces => "左七枚落ち",
            Handicap::RightSevenPieces => "右七枚落ち",
            Handicap::EightPieces => "八枚落ち",
            Handicap::TenPieces => "十枚落ち",
            Handicap::Other => "その他",
        }
    }

    /// The handicap a KIF 手合割 value names. Surrounding (also full-width) spaces are
    /// ignored, and 落 without ち is accepted ("香落").
    pub fn from_kif_name(name: &str) -> Option<Handicap> {
        let name = name.trim_matches(|c: char| c.is_whitespace());
        Handicap::ALL.into_iter().find(|h| {
            let n = h.kif_name();
            n == name || n.strip_suffix('ち') == Some(name)
        })
    }

    /// The White pieces taken off the even-game position, as (CSA square digits, kind).
    fn removed(self) -> &'static [(u8, PieceKind)] {
        match self {
            Handicap::Even | Handicap::Other => &[],
            Handicap::Lance => &[LEFT_LANCE],
            Handicap::RightLance => &[RIGHT_LANCE],
            Handicap::Bishop => &[BISHOP],
            Handicap::Rook => &[ROOK],
            Handicap::RookLance => &[ROOK, LEFT_LANCE],
            Handicap::TwoPieces => &[ROOK, BISHOP],
            Handicap::ThreePieces => &[ROOK, BISHOP, LEFT_LANCE],
            Handicap::FourPieces => &[ROOK, BISHOP, LEFT_LANCE, RIGHT_LANCE],
            Handicap::FivePieces => &[ROOK, BISHOP, LEFT_LANCE, RIGHT_LANCE, LEFT_KNIGHT],
            Handicap::LeftFivePieces => &[ROOK, BISHOP, LEFT_LANCE, RIGHT_LANCE, RIGHT_KNIGHT],
            Handicap::SixPieces => &SIX,
            Handicap::LeftSevenPieces => &[
                ROOK,
                BISHOP,
                LEFT_LANCE,
                RIGHT_LANCE,
                LEFT_KNIGHT,
                RIGHT_KNIGHT,
                LEFT_SILVER,
            ],
            Handicap::RightSevenPieces => &[
                ROOK,
                BISHOP,
                LEFT_LANCE,
                RIGHT_LANCE,
                LEFT_KNIGHT,
                RIGHT_KNIGHT,
                RIGHT_SILVER,
            ],
            Handicap::EightPieces => &[
                ROOK,
                BISHOP,
                LEFT_LANCE,
                RIGHT_LANCE,
                LEFT_KNIGHT,
                RIGHT_KNIGHT,
                LEFT_SILVER,
                RIGHT_SILVER,
            ],
            Handicap::TenPieces => &[
                ROOK,
                BISHOP,
                LEFT_LANCE,
                RIGHT_LANCE,
                LEFT_KNIGHT,
                RIGHT_KNIGHT,
                LEFT_SILVER,
                RIGHT_SILVER,
                LEFT_GOLD,
                RIGHT_GOLD,
            ],
        }
    }

    /// The pieces removed from the even-game position (all White's), as squares and kinds.
    pub fn removals(self) -> Vec<(Square, PieceKind)> {
        self.removed()
            .iter()
            .filter_map(|&(d, k)| Square::new(d / 10, d % 10).map(|s| (s, k)))
            .collect()
    }

    /// The CSA `PI` line: `PI` alone for an even game, `PI82HI22KA` for 二枚落ち.
    /// `None` for [`Handicap::Other`], which has no `PI` form.
    pub fn csa_pi(self) -> Option<String> {
        if self == Handicap::Other {
            return None;
        }
        let mut s = String::from("PI");
        for &(d, k) in self.removed() {
            s.push_str(&format!("{d}{}", k.csa()));
        }
        Some(s)
    }

    /// The handicap a CSA `PI` removal list gives, in any order; `None` when the list
    /// matches no named handicap.
    pub fn from_removals(removals: &[(Square, PieceKind)]) -> Option<Handicap> {
        let mut given: Vec<(u8, PieceKind)> = removals
            .iter()
            .map(|&(s, k)| (s.file() * 10 + s.rank(), k))
            .collect();
        given.sort();
        given.dedup();
        Handicap::ALL
            .into_iter()
            .filter(|&h| h != Handicap::Other)
            .find(|h| {
                let mut want = h.removed().to_vec();
                want.sort();
                want == given
            })
    }

    /// The start position: Black (下手) to move in an even game, White (上手) in a handicap
    /// game. `None` for [`Handicap::Other`].
    pub fn position(self) -> Option<Position> {
        self.start().cloned()
    }

    /// [`Handicap::position`] without a copy.
    pub fn start(self) -> Option<&'static Position> {
        Handicap::starts()
            .iter()
            .find(|(h, _)| *h == self)
            .map(|(_, p)| p)
    }

    /// Every named handicap with its start position, built once: reading a game needs one.
    fn starts() -> &'static [(Handicap, Position)] {
        static STARTS: OnceLock<Vec<(Handicap, Position)>> = OnceLock::new();
        STARTS.get_or_init(|| {
            Handicap::ALL
                .into_iter()
                .filter_map(|h| h.build_position().map(|p| (h, p)))
                .collect()
        })
    }

    /// The start position (see [`Handicap::position`]), built from the even one.
    fn build_position(self) -> Option<Position> {
        if self == Handicap::Other {
            return None;
        }
        let side = if self == Handicap::Even {
            Color::Black
        } else {
            Color::White
        };
        Some(Position::startpos().without(&self.removals(), side))
    }

    /// The start position as SFEN (with move number 1). `None` for [`Handicap::Other`].
    pub fn sfen(self) -> Option<String> {
        self.position().map(|p| p.to_sfen())
    }

    /// The named handicap whose start position is `pos` (board, hands and side to move;
    /// the move number is ignored), or [`Handicap::Other`].
    pub fn detect(pos: &Position) -> Handicap {
        Handicap::starts()
            .iter()
            .find(|(_, p)| {
                p.hash() == pos.hash()
                    && p.board() == pos.board()
                    && p.hand(Color::Black) == pos.hand(Color::Black)
                    && p.hand(Color::White) == pos.hand(Color::White)
            })
            .map_or(Handicap::Other, |&(h, _)| h)
    }

    /// The handicap named by a SFEN start position (see [`Handicap::detect`]).
    pub fn from_sfen(sfen: &str) -> Handicap {
        Position::from_sfen(sfen)
            .map(|p| Handicap::detect(&p))
            .unwrap_or(Handicap::Other)
    }
}

impl Position {
    /// This position with the pieces on `removals` taken off the board (whatever their
    /// kind or colour; a square that does not hold the named kind is left alone) and
    /// `side` to move. The CSA `PI` line builds handicap positions this way.
    pub fn without(&self, removals: &[(Square, PieceKind)], side: Color) -> Position {
        let mut board = *self.board();
        for &(s, k) in removals {
            if board[s.index()].is_some_and(|p| p.kind == k) {
                board[s.index()] = None;
            }
        }
        let hands = [*self.hand(Color::Black), *self.hand(Color::White)];
        // Removing pieces never breaks a rule the original position kept.
        Position::new(
            board,
            hands,
            side,
            self.move_number(),
            super::position::Strictness::PiecesOnly,
        )
        .unwrap_or_else(|_| self.clone())
    }
}
