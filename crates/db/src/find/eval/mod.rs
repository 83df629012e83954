//! The evaluator: a [`Query`] compiled into tests on a replayed position (squares as bit
//! masks per side, castles as their patterns' conditions turned for each side), what it can
//! tell before replaying a game (the plies where it may hold, the names a game must have
//! been recognised with, and in `prefilter.rs` whether the game's moves can reach its
//! squares at all), and the evaluation itself.

use std::cell::OnceCell;

use kifudex_classify::{self as classify, Kind, Recognised, patterns::Cond as PatternCond};
use kifudex_shogi::{Color, Move, Piece, PieceKind, Position, Square};

use super::ast::{Cmp, Cond, Expr, LastMove, PieceCond, Place, Query, Term, What};
use super::board::{Board, Squares, bit};

mod prefilter;

pub(crate) use prefilter::{Prepared, Signature};

const ALL_SQUARES: Squares = (1 << 81) - 1;

/// The set turned round (1一 ↔ 9九): a pattern written for sente, read for gote.
fn rotate(set: Squares) -> Squares {
    set.reverse_bits() >> (128 - 81)
}

/// The squares of a place, seen from `side`.
pub(super) fn squares(place: &Place, side: Color) -> Squares {
    let of =
        |f: &dyn Fn(Square) -> bool| Square::all().filter(|&s| f(s)).fold(0, |m, s| m | bit(s));
    match place {
        Place::Board => ALL_SQUARES,
        Place::Squares(list) => list.iter().fold(0, |m, &s| m | bit(s)),
        Place::File(n) => of(&|s| s.file() == *n),
        Place::Rank(n) => of(&|s| s.rank() == *n),
        Place::Area(a) => of(&|s| a.contains(side, s)),
    }
}

/// Per side, the squares where a piece of that side is asked for (none for a side not
/// asked about).
fn side_masks(side: Option<Color>, place: &Place) -> [Squares; 2] {
    Color::ALL.map(|c| {
        if side.is_none_or(|s| s == c) {
            squares(place, c)
        } else {
            0
        }
    })
}

/// What the move that led to a position was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Played {
    pub mv: Move,
    /// The piece moved as it stood before (or the piece dropped).
    pub piece: Piece,
    pub captured: Option<Piece>,
}

/// A position met in a replay, with what the tests may ask of it.
pub(crate) struct Here<'a> {
    pub pos: &'a Board,
    pub ply: u32,
    pub last: Option<Played>,
    /// What was recognised in the game (present when the query asks for names).
    pub recognised: Option<&'a Names<'a>>,
}

/// What was recognised in a game, worked out the first time a test asks: most positions are
/// ruled out before a test reads the names (a castle's names are tested after its pieces).
pub(crate) struct Names<'a> {
    start: &'a Position,
    moves: &'a [Move],
    got: OnceCell<Recognised>,
}

impl<'a> Names<'a> {
    /// The names of the game from `start` with the main line `moves`.
    pub fn of(start: &'a Position, moves: &'a [Move]) -> Names<'a> {
        Names {
            start,
            moves,
            got: OnceCell::new(),
        }
    }

    fn get(&self) -> &Recognised {
        self.got
            .get_or_init(|| classify::recognise(self.start, self.moves.iter().copied()))
    }
}

/// A piece test: a piece of a side (or an empty square) on one of its squares.
#[derive(Debug, Clone)]
struct On {
    masks: [Squares; 2],
    what: What,
    /// For a kind: per side, per square, the squares a move bringing it there may come from
    /// (see `reach.rs`).
    sources: Option<[Box<[Squares; 81]>; 2]>,
}

impl On {
    fn new(p: &PieceCond) -> On {
        let masks = match p.what {
            // An empty square has no side: its area is seen from sente.
            What::Empty => [squares(&p.place, Color::Black), 0],
            _ => side_masks(p.side, &p.place),
        };
        let sources = match p.what {
            What::Kind(k) => Some(Color::ALL.map(|c| super::reach::sources(c, kind_bit(k)))),
            _ => None,
        };
        On {
            masks,
            what: p.what,
            sources,
        }
    }

    /// How many of its squares hold what it asks for.
    #[inline]
    fn count(&self, board: &Board) -> i64 {
        let n = match self.what {
            What::Kind(k) => {
                (board.pieces_of(Color::Black, k) & self.masks[0]).count_ones()
                    + (board.pieces_of(Color::White, k) & self.masks[1]).count_ones()
            }
            What::AnyPiece => {
                (board.side_squares(Color::Black) & self.masks[0]).count_ones()
                    + (board.side_squares(Color::White) & self.masks[1]).count_ones()
            }
            What::Empty => (!board.occupied() & self.masks[0]).count_ones(),
        };
        i64::from(n)
    }

    /// Whether one of its squares holds what it asks for.
    #[inline]
    fn holds(&self, board: &Board) -> bool {
        match self.what {
            What::Kind(k) => {
                board.pieces_of(Color::Black, k) & self.masks[0] != 0
                    || board.pieces_of(Color::White, k) & self.masks[1] != 0
            }
            What::AnyPiece => {
                board.side_squares(Color::Black) & self.masks[0] != 0
                    || board.side_squares(Color::White) & self.masks[1] != 0
            }
            What::Empty => !board.occupied() & self.masks[0] != 0,
        }
    }
}

/// A number of a position.
#[derive(Debug, Clone)]
enum Num {
    Const(i64),
    Ply,
    Hand(Color, PieceKind),
    Count(On),
    Material(Color),
    Advantage(Color),
}

impl Num {
    fn of(t: &Term) -> Num {
        match t {
            Term::Number(n) => Num::Const(*n),
            Term::Ply => Num::Ply,
            Term::Hand(c, k) => Num::Hand(*c, *k),
            Term::Count(p) => Num::Count(On::new(p)),
            Term::Material(c) => Num::Material(*c),
            Term::Advantage(c) => Num::Advantage(*c),
        }
    }

    #[inline]
    fn value(&self, here: &Here<'_>) -> i64 {
        match self {
            Num::Const(n) => *n,
            Num::Ply => i64::from(here.ply),
            Num::Hand(c, k) => i64::from(here.pos.hand(*c).count(*k)),
            Num::Count(on) => on.count(here.pos),
            Num::Material(c) => here.pos.material(*c),
            Num::Advantage(c) => here.pos.material(*c) - here.pos.material(c.opponent()),
        }
    }
}

#[derive(Debug, Clone)]
struct Sum {
    terms: Vec<(bool, Num)>,
}

impl Sum {
    fn of(e: &Expr) -> Sum {
        Sum {
            terms: e.terms.iter().map(|(add, t)| (*add, Num::of(t))).collect(),
        }
    }

    #[inline]
    fn value(&self, here: &Here<'_>) -> i64 {
        if let [(true, t)] = self.terms.as_slice() {
            return t.value(here);
        }
        self.terms.iter().fold(0i64, |acc, (add, t)| {
            let v = t.value(here);
            if *add {
                acc.saturating_add(v)
            } else {
                acc.saturating_sub(v)
            }
        })
    }

    /// The ply alone (`ply`), or a constant.
    fn as_ply_or_const(&self) -> Option<Result<(), i64>> {
        match self.terms.as_slice() {
            [(true, Num::Ply)] => Some(Ok(())),
            [(true, Num::Const(n))] => Some(Err(*n)),
            _ => None,
        }
    }
}

/// The last-move test, its squares per mover.
#[derive(Debug, Clone)]
struct LastTest {
    m: LastMove,
    to: Option<[Squares; 2]>,
    from: Option<[Squares; 2]>,
}

impl LastTest {
    fn holds(&self, here: &Here<'_>) -> bool {
        let Some(p) = here.last else {
            return false;
        };
        let m = &self.m;
        let mover = p.piece.color;
        let to = p.mv.to();
        m.side.is_none_or(|s| s == mover)
            && m.piece.is_none_or(|k| k == p.piece.kind)
            && self.to.is_none_or(|t| t[mover.index()] & bit(to) != 0)
            && self
                .from
                .is_none_or(|f| p.mv.from().is_some_and(|s| f[mover.index()] & bit(s) != 0))
            && (!m.drop || p.mv.is_drop())
            && (!m.promotion || p.mv.is_promotion())
            && (!m.no_promotion
                || matches!(p.mv, Move::Board { from, promote: false, .. }
                    if p.piece.kind.can_promote() && (from.in_zone(mover) || to.in_zone(mover))))
            && m.capture.is_none_or(|want| match (want, p.captured) {
                (None, c) => c.is_some(),
                (Some(k), Some(c)) => c.kind == k,
                (Some(_), None) => false,
            })
            && m.usi.is_none_or(|u| u == p.mv)
            && (!m.check || here.pos.in_check())
    }
}

/// One condition of a castle's pattern, turned for the side it is read for.
#[derive(Debug, Clone)]
enum ShapeTest {
    /// A piece of `color` of one of `kinds` on every square / on one at least / on none.
    All(Color, u16, Squares),
    Any(Color, u16, Squares),
    None(Color, u16, Squares),
    Hand(Color, PieceKind),
    /// Recognised with the name by this ply / first at this ply / not by this ply.
    Had(Color, &'static str),
    Just(Color, &'static str),
    NotHad(Color, &'static str),
}

/// A castle's pattern for one side: from which ply it may stand, and its conditions.
#[derive(Debug, Clone)]
struct Shape {
    from_ply: u32,
    tests: Vec<ShapeTest>,
    /// The squares its side's king may stand on (every square when it names none).
    king: Squares,
    /// The shape names no piece and asks that its side has had a castle of the family
    /// asked for (相穴熊 in 穴熊): it can hold only after one of the family's other shapes
    /// held, which the moves' test of those shapes covers.
    after_others: bool,
}

/// The squares of `color`'s pieces of the kinds (a set of kind bits).
#[inline]
fn pieces(board: &Board, color: Color, kinds: u16) -> Squares {
    let mut m = 0;
    let mut k = kinds;
    while k != 0 {
        let i = k.trailing_zeros() as usize;
        k &= k - 1;
        if let Some(kind) = PieceKind::from_index(i) {
            m |= board.pieces_of(color, kind);
        }
    }
    m
}

impl ShapeTest {
    fn reads_names(&self) -> bool {
        matches!(
            self,
            ShapeTest::Had(..) | ShapeTest::Just(..) | ShapeTest::NotHad(..)
        )
    }

    fn holds(&self, here: &Here<'_>) -> bool {
        let board = here.pos;
        let of = |c: Color, kinds: u16| pieces(board, c, kinds);
        let rec_ply = |c: Color, name: &str| here.recognised.and_then(|r| r.get().ply(c, name));
        match *self {
            ShapeTest::All(c, k, m) => of(c, k) & m == m,
            ShapeTest::Any(c, k, m) => of(c, k) & m != 0,
            ShapeTest::None(c, k, m) => of(c, k) & m == 0,
            ShapeTest::Hand(c, k) => board.hand(c).count(k) > 0,
            ShapeTest::Had(c, n) => rec_ply(c, n).is_some_and(|p| p <= here.ply),
            ShapeTest::Just(c, n) => rec_ply(c, n) == Some(here.ply),
            ShapeTest::NotHad(c, n) => rec_ply(c, n).is_none_or(|p| p > here.ply),
        }
    }
}

/// A side's castle patterns, by the square of the side's king: most patterns name the
/// king's square, so a position tries the few that can stand with its king where it is.
#[derive(Debug, Clone)]
struct Castle {
    shapes: Vec<Shape>,
    /// The castle's place among the query's castles (numbered by `Compiled::new`), where
    /// [`Prepared`] keeps what its shapes need of a game's moves.
    slot: usize,
    /// Per king square (81: no king on the board), the shapes that allow it.
    by_king: Vec<Vec<u16>>,
}

impl Castle {
    fn new(me: Color, shapes: Vec<Shape>) -> Castle {
        let king = kind_bit(PieceKind::King);
        let mut by_king = vec![Vec::new(); 82];
        let mut shapes = shapes;
        for s in &mut shapes {
            s.king = s.tests.iter().fold(ALL_SQUARES, |m, t| match *t {
                ShapeTest::All(c, k, sq) | ShapeTest::Any(c, k, sq) if c == me && k == king => {
                    m & sq
                }
                _ => m,
            });
        }
        for (i, s) in shapes.iter().enumerate() {
            let allowed = s.king;
            for (k, list) in by_king.iter_mut().enumerate() {
                let ok = if k == 81 {
                    allowed == ALL_SQUARES
                } else {
                    allowed & (1 << k) != 0
                };
                if ok {
                    list.push(i as u16);
                }
            }
        }
        Castle {
            shapes,
            slot: 0,
            by_king,
        }
    }

    fn holds(&self, me: Color, here: &Here<'_>) -> bool {
        let k = here.pos.king(me).map_or(81, Square::index);
        self.by_king[k].iter().any(|&i| {
            let s = &self.shapes[i as usize];
            here.ply >= s.from_ply && s.tests.iter().all(|t| t.holds(here))
        })
    }
}

fn kind_bit(k: PieceKind) -> u16 {
    1 << k.index()
}

/// Per side, the patterns of a castle and of every castle below it in the hierarchy.
fn shapes(name: &str) -> [Castle; 2] {
    let names = classify::descendants(name);
    // Whether every pattern of the family is read as a shape (a test holds castles to it).
    let complete = classify::PATTERNS
        .iter()
        .filter(|p| names.contains(&p.name))
        .all(|p| {
            p.conds
                .iter()
                .all(|c| shape_test(*c, Color::Black, &|m| m).is_some())
        });
    Color::ALL.map(|me| {
        let turn = |m: Squares| if me == Color::White { rotate(m) } else { m };
        let list = classify::PATTERNS
            .iter()
            .filter(|p| names.contains(&p.name))
            .filter_map(|p| {
                let mut tests = p
                    .conds
                    .iter()
                    .map(|c| shape_test(*c, me, &turn))
                    .collect::<Option<Vec<_>>>()?;
                // The pieces first: the names are worked out only for a position that has them.
                tests.sort_by_key(ShapeTest::reads_names);
                let after_others = complete
                    && tests.iter().all(ShapeTest::reads_names)
                    && tests.iter().any(
                        |t| matches!(*t, ShapeTest::Had(c, n) if c == me && names.contains(&n)),
                    );
                Some(Shape {
                    from_ply: u32::from(p.plies.0),
                    tests,
                    // Set by `Castle::new`.
                    king: ALL_SQUARES,
                    after_others,
                })
            })
            .collect();
        Castle::new(me, list)
    })
}

/// A castle pattern's condition as a test on one board, for the side `me`; None for the
/// conditions on the game's history (the opening still on, the rook kept home, which side
/// a name was found through), which castles do not use (a test holds every castle pattern to
/// this) and a single board cannot answer.
fn shape_test(c: PatternCond, me: Color, turn: &dyn Fn(Squares) -> Squares) -> Option<ShapeTest> {
    let them = me.opponent();
    Some(match c {
        PatternCond::Own(k, s) => ShapeTest::All(me, k, turn(s)),
        PatternCond::OwnAny(k, s) => ShapeTest::Any(me, k, turn(s)),
        PatternCond::OwnNone(k, s) => ShapeTest::None(me, k, turn(s)),
        PatternCond::Opp(k, s) => ShapeTest::All(them, k, turn(s)),
        PatternCond::OppAny(k, s) => ShapeTest::Any(them, k, turn(s)),
        PatternCond::OppNone(k, s) => ShapeTest::None(them, k, turn(s)),
        PatternCond::OwnHand(k) => ShapeTest::Hand(me, k),
        PatternCond::OppHand(k) => ShapeTest::Hand(them, k),
        PatternCond::Had(n) => ShapeTest::Had(me, n),
        PatternCond::Just(n) => ShapeTest::Just(me, n),
        PatternCond::NotHad(n) => ShapeTest::NotHad(me, n),
        PatternCond::OppHad(n) => ShapeTest::Had(them, n),
        PatternCond::OppNotHad(n) => ShapeTest::NotHad(them, n),
        PatternCond::OppDid(_)
        | PatternCond::Opening
        | PatternCond::RookHome
        | PatternCond::Side(_) => return None,
    })
}

#[derive(Debug, Clone)]
enum Leaf {
    On(On),
    Compare(Sum, Cmp, Sum),
    Between(Sum, i64, i64),
    Turn(Color),
    Last(Box<LastTest>),
    Strategy(Option<Color>, &'static str),
    Castle([bool; 2], Box<[Castle; 2]>),
}

#[derive(Debug, Clone)]
enum Node {
    And(Vec<Node>),
    Or(Vec<Node>),
    Not(Box<Node>),
    Leaf(Leaf),
}

/// A query ready to run.
#[derive(Debug, Clone)]
pub struct Compiled {
    root: Node,
    /// The first and last ply at which the query may hold.
    pub(crate) plies: (u32, u32),
    /// Whether the tests ask what was recognised in the game.
    pub(crate) needs_recognition: bool,
    /// Whether a game's moves can rule the query out before it is replayed (see
    /// `prefilter.rs`): else the moves' signature is not worth reading.
    pub(crate) prefilters: bool,
}

/// A game must have been recognised with one of these names (for a side, or either) for
/// the query to hold in it.
pub(crate) type Required = Vec<(Vec<&'static str>, Option<Color>)>;

impl Compiled {
    pub fn new(q: &Query) -> Compiled {
        let mut root = compile(q);
        number_castles(&mut root, &mut 0);
        let plies = ply_range(&root);
        Compiled {
            needs_recognition: needs_recognition(&root),
            prefilters: prefilter::tells(&root),
            plies,
            root,
        }
    }

    /// Whether the query holds at this position.
    #[inline]
    pub(crate) fn holds(&self, here: &Here<'_>) -> bool {
        eval(&self.root, here)
    }

    /// Whether the query may hold somewhere in a game that starts from `start` and plays
    /// moves with this signature (false: no replay needed).
    pub(crate) fn may_hold(&self, start: &Board, prep: &Prepared, sig: &Signature<'_>) -> bool {
        prefilter::may(&self.root, start, prep, sig)
    }

    /// What the moves' test needs to know of a start position, worked out once for it.
    pub(crate) fn prepare(&self, start: &Board) -> Prepared {
        let mut prep = Prepared::default();
        prefilter::prepare(&self.root, start, &mut prep);
        prep
    }

    /// The names a game must have been recognised with, if the query needs one.
    pub(crate) fn required_names(&self) -> Option<Required> {
        required(&self.root)
    }
}

/// Numbers the castles of a tree in the order [`prepare`] meets them.
fn number_castles(n: &mut Node, next: &mut usize) {
    match n {
        Node::And(p) | Node::Or(p) => p.iter_mut().for_each(|p| number_castles(p, next)),
        Node::Not(inner) => number_castles(inner, next),
        Node::Leaf(Leaf::Castle(_, castles)) => {
            for c in castles.iter_mut() {
                c.slot = *next;
            }
            *next += 1;
        }
        Node::Leaf(_) => {}
    }
}

fn compile(q: &Query) -> Node {
    match q {
        Query::And(parts) => Node::And(order(parts.iter().map(compile).collect())),
        Query::Or(parts) => Node::Or(order(parts.iter().map(compile).collect())),
        Query::Not(inner) => Node::Not(Box::new(compile(inner))),
        Query::Cond(c) => Node::Leaf(leaf(c)),
    }
}

/// Cheap tests first: the result is the same, the work less.
fn order(mut nodes: Vec<Node>) -> Vec<Node> {
    nodes.sort_by_key(cost);
    nodes
}

fn cost(n: &Node) -> u32 {
    match n {
        Node::And(p) | Node::Or(p) => p.iter().map(cost).sum(),
        Node::Not(n) => cost(n),
        Node::Leaf(l) => match l {
            Leaf::Turn(_) | Leaf::Between(..) | Leaf::Compare(..) if is_ply_test(l) => 1,
            Leaf::On(on) => 2 + (on.masks[0] | on.masks[1]).count_ones() / 8,
            Leaf::Last(_) => 3,
            Leaf::Compare(..) | Leaf::Between(..) => 20,
            Leaf::Turn(_) => 1,
            Leaf::Castle(..) => 30,
            // After the board's tests: its first test recognises the whole game (the scan's
            // costliest step), which a position the board rules out never needs.
            Leaf::Strategy(..) => 40,
        },
    }
}

fn is_ply_test(l: &Leaf) -> bool {
    match l {
        Leaf::Turn(_) => true,
        Leaf::Between(s, ..) => s.as_ply_or_const().is_some(),
        Leaf::Compare(a, _, b) => a.as_ply_or_const().is_some() && b.as_ply_or_const().is_some(),
        _ => false,
    }
}

fn leaf(c: &Cond) -> Leaf {
    match c {
        Cond::Piece(p) => Leaf::On(On::new(p)),
        Cond::Compare { left, op, right } => Leaf::Compare(Sum::of(left), *op, Sum::of(right)),
        Cond::Between { expr, low, high } => Leaf::Between(Sum::of(expr), *low, *high),
        Cond::Turn(c) => Leaf::Turn(*c),
        Cond::Last(m) => Leaf::Last(Box::new(LastTest {
            to: m.to.as_ref().map(|p| side_masks(None, p)),
            from: m.from.as_ref().map(|p| side_masks(None, p)),
            m: m.clone(),
        })),
        Cond::Name {
            side,
            name,
            kind: Kind::Strategy,
        } => Leaf::Strategy(*side, name),
        Cond::Name {
            side,
            name,
            kind: Kind::Castle,
        } => Leaf::Castle(
            Color::ALL.map(|c| side.is_none_or(|s| s == c)),
            Box::new(shapes(name)),
        ),
    }
}

fn eval(n: &Node, here: &Here<'_>) -> bool {
    match n {
        Node::And(parts) => parts.iter().all(|p| eval(p, here)),
        Node::Or(parts) => parts.iter().any(|p| eval(p, here)),
        Node::Not(inner) => !eval(inner, here),
        Node::Leaf(l) => match l {
            Leaf::On(on) => on.holds(here.pos),
            Leaf::Compare(a, op, b) => op.holds(a.value(here), b.value(here)),
            Leaf::Between(s, low, high) => (*low..=*high).contains(&s.value(here)),
            Leaf::Turn(c) => here.pos.side_to_move() == *c,
            Leaf::Last(t) => t.holds(here),
            Leaf::Strategy(side, name) => here.recognised.map(Names::get).is_some_and(|r| {
                Color::ALL.into_iter().any(|c| {
                    side.is_none_or(|s| s == c) && r.ply(c, name).is_some_and(|p| p <= here.ply)
                })
            }),
            Leaf::Castle(sides, castles) => Color::ALL
                .into_iter()
                .any(|c| sides[c.index()] && castles[c.index()].holds(c, here)),
        },
    }
}

fn needs_recognition(n: &Node) -> bool {
    match n {
        Node::And(p) | Node::Or(p) => p.iter().any(needs_recognition),
        Node::Not(n) => needs_recognition(n),
        Node::Leaf(Leaf::Strategy(..)) => true,
        Node::Leaf(Leaf::Castle(_, castles)) => castles
            .iter()
            .flat_map(|c| &c.shapes)
            .any(|s| s.tests.iter().any(ShapeTest::reads_names)),
        Node::Leaf(_) => false,
    }
}

const ALL_PLIES: (u32, u32) = (0, u32::MAX);

/// The plies at which a node may hold.
fn ply_range(n: &Node) -> (u32, u32) {
    match n {
        Node::And(p) => p
            .iter()
            .map(ply_range)
            .fold(ALL_PLIES, |a, b| (a.0.max(b.0), a.1.min(b.1))),
        Node::Or(p) => p
            .iter()
            .map(ply_range)
            .filter(|r| r.0 <= r.1)
            .fold((u32::MAX, 0), |a, b| (a.0.min(b.0), a.1.max(b.1))),
        Node::Not(_) => ALL_PLIES,
        Node::Leaf(l) => match l {
            Leaf::Last(_) | Leaf::Strategy(..) => (1, u32::MAX),
            Leaf::Castle(sides, shapes) => Color::ALL
                .into_iter()
                .filter(|c| sides[c.index()])
                .flat_map(|c| shapes[c.index()].shapes.iter().map(|s| s.from_ply))
                .min()
                .map_or((1, 0), |lo| (lo, u32::MAX)),
            Leaf::Between(s, lo, hi) if s.as_ply_or_const() == Some(Ok(())) => {
                (clamp(*lo), clamp(*hi))
            }
            Leaf::Compare(a, op, b) => match (a.as_ply_or_const(), b.as_ply_or_const()) {
                (Some(Ok(())), Some(Err(n))) => ply_cmp(*op, n),
                (Some(Err(n)), Some(Ok(()))) => ply_cmp(flip(*op), n),
                _ => ALL_PLIES,
            },
            _ => ALL_PLIES,
        },
    }
}

fn clamp(n: i64) -> u32 {
    n.clamp(0, i64::from(u32::MAX)) as u32
}

/// `ply OP n` as a range of plies (empty: low above high).
fn ply_cmp(op: Cmp, n: i64) -> (u32, u32) {
    match op {
        Cmp::Eq if n < 0 => (1, 0),
        Cmp::Eq => (clamp(n), clamp(n)),
        Cmp::Ne => ALL_PLIES,
        Cmp::Lt if n <= 0 => (1, 0),
        Cmp::Lt => (0, clamp(n - 1)),
        Cmp::Le if n < 0 => (1, 0),
        Cmp::Le => (0, clamp(n)),
        Cmp::Gt => (clamp(n + 1), u32::MAX),
        Cmp::Ge => (clamp(n), u32::MAX),
    }
}

/// `a OP b` written `b OP' a`.
fn flip(op: Cmp) -> Cmp {
    match op {
        Cmp::Lt => Cmp::Gt,
        Cmp::Le => Cmp::Ge,
        Cmp::Gt => Cmp::Lt,
        Cmp::Ge => Cmp::Le,
        o => o,
    }
}

/// The names one of which a game must have been recognised with (a strategy asked for, in
/// every way the query may hold).
fn required(n: &Node) -> Option<Required> {
    match n {
        Node::And(p) => p.iter().find_map(required),
        Node::Or(p) => {
            let mut out = Vec::new();
            for part in p {
                out.extend(required(part)?);
            }
            Some(out)
        }
        Node::Leaf(Leaf::Strategy(side, name)) => Some(vec![(classify::descendants(name), *side)]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pattern of every castle can be read as a shape on one board: none is dropped
    /// when a castle's name is asked as a shape.
    #[test]
    fn every_castle_pattern_is_a_shape() {
        let castles: Vec<&str> = classify::DEFS
            .iter()
            .filter(|d| d.kind == Kind::Castle)
            .map(|d| d.name)
            .collect();
        let patterns: Vec<_> = classify::PATTERNS
            .iter()
            .filter(|p| castles.contains(&p.name))
            .collect();
        assert!(patterns.len() > 40, "{} castle patterns", patterns.len());
        for p in patterns {
            for c in p.conds {
                assert!(
                    shape_test(*c, Color::Black, &|m| m).is_some(),
                    "{}: {c:?}",
                    p.name
                );
            }
        }
    }
}
