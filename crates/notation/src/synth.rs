//! Synthetic collections for benchmarks, tests and topping up samples: plausible games that
//! share real opening lines (so that positions repeat across games as in real collections),
//! then go on with random legal moves; players from a pool, events, dates, openings, times,
//! comments on some moves and variations in some games. Seeded: the same seed gives the same
//! games. Every event says `(generated)`, so no generated game passes for a real one.

use crate::{Line, MoveNode, MoveTime, Record, Terminal, TerminalKind};
use kifudex_shogi::{Move, Position};

/// Opening lines (USI) with the 戦型 name they lead to.
const OPENINGS: &[(&str, &str)] = &[
    ("相掛かり", "2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d"),
    (
        "角換わり",
        "7g7f 8c8d 2g2f 3c3d 8h2b+ 3a2b 2f2e 8d8e 7i8h 4a3b",
    ),
    ("矢倉", "7g7f 8c8d 6g6f 3c3d 6i7h 4a3b 7h6g 5a4b 5g5f 7a6b"),
    (
        "四間飛車",
        "7g7f 3c3d 6g6f 8c8d 2h6h 8d8e 8h7g 7a6b 5i4h 5a4b",
    ),
    ("三間飛車", "7g7f 3c3d 2h7h 8c8d 5i4h 8d8e 8h7g 7a6b"),
    ("中飛車", "5g5f 8c8d 2h5h 8d8e 8h7g 3c3d 5i4h 7a6b"),
    (
        "横歩取り",
        "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d3d",
    ),
    ("石田流", "7g7f 3c3d 7f7e 8c8d 2h7h 8d8e 8h7g 7a6b"),
    ("ゴキゲン中飛車", "7g7f 5c5d 2g2f 8b5b 2f2e 5d5e 5i6h 5a6b"),
    ("相振り飛車", "7g7f 3c3d 2h6h 8b3b 5i4h 5a6b 4h3h 6b7b"),
    ("雁木", "7g7f 8c8d 6g6f 3c3d 6i7h 7a6b 7i6h 6c6d 6h6g 6b6c"),
    (
        "向かい飛車",
        "7g7f 3c3d 6g6f 8c8d 6f6e 8d8e 2h6h 8e8f 8g8f 8b8f",
    ),
];

const SURNAMES: &[&str] = &[
    "佐藤",
    "鈴木",
    "高橋",
    "田中",
    "渡辺",
    "伊藤",
    "山本",
    "中村",
    "小林",
    "加藤",
    "吉田",
    "山田",
    "佐々木",
    "山口",
    "松本",
    "井上",
    "木村",
    "林",
    "斎藤",
    "清水",
    "山崎",
    "森",
    "池田",
    "橋本",
    "阿部",
    "石川",
    "前田",
    "藤田",
    "小川",
    "岡田",
];

const GIVEN: &[&str] = &[
    "一郎", "健太", "翔", "大輔", "拓也", "直樹", "誠", "優", "浩二", "隆", "美咲", "由美", "彩",
    "真央", "香織", "光", "悠真", "陽翔", "蓮", "湊",
];

const EVENTS: &[&str] = &[
    "竜王戦",
    "名人戦",
    "王位戦",
    "王座戦",
    "棋王戦",
    "王将戦",
    "棋聖戦",
    "叡王戦",
    "順位戦",
    "NHK杯",
    "朝日杯",
    "銀河戦",
];

const COMMENTS: &[&str] = &[
    "ここが勝負所。",
    "好手。",
    "疑問手だったかもしれない。",
    "形勢は互角。",
    "駒得で先手やや有利。",
    "玉の堅さが生きる展開。",
    "攻め合いに出た。",
    "受けに回った。",
    "Engine: +350 for sente.",
    "終盤の入口。",
];

/// Shape of a generated collection.
#[derive(Debug, Clone)]
pub struct SynthOptions {
    pub seed: u64,
    /// Distinct players.
    pub players: usize,
    /// Share of moves that carry a comment.
    pub comment_rate: f64,
    /// Share of games with a variation.
    pub variation_rate: f64,
    /// Give moves times (spent and running totals).
    pub times: bool,
}

impl Default for SynthOptions {
    fn default() -> SynthOptions {
        SynthOptions {
            seed: 1,
            players: 600,
            comment_rate: 0.03,
            variation_rate: 0.05,
            times: true,
        }
    }
}

/// An endless, seeded supply of generated games.
pub struct Synth {
    options: SynthOptions,
    rng: u64,
    count: u64,
    buf: Vec<Move>,
}

impl Synth {
    pub fn new(options: SynthOptions) -> Synth {
        Synth {
            rng: options.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            options,
            count: 0,
            buf: Vec::new(),
        }
    }

    fn next_u64(&mut self) -> u64 {
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 > 1.0 - p
    }

    fn player(&mut self) -> String {
        let n = self.below(self.options.players);
        let s = SURNAMES[n % SURNAMES.len()];
        let g = GIVEN[(n / SURNAMES.len()) % GIVEN.len()];
        match n / (SURNAMES.len() * GIVEN.len()) {
            0 => format!("{s}{g}"),
            k => format!("{s}{g}{}", k + 1),
        }
    }

    /// `n` random legal moves from `pos` (fewer when the game ends), played on it.
    fn random_moves(&mut self, pos: &mut Position, n: usize) -> Vec<MoveNode> {
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            self.buf.clear();
            pos.generate_legal(&mut self.buf);
            if self.buf.is_empty() {
                break;
            }
            let k = self.below(self.buf.len());
            let mv = self.buf[k];
            let _ = pos.play(mv);
            out.push(MoveNode::new(mv));
        }
        out
    }

    /// The next game.
    pub fn game(&mut self) -> Record {
        self.count += 1;
        let (opening, line) = OPENINGS[self.below(OPENINGS.len())];
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        // A prefix of the book line: games share it, then part ways.
        let book: Vec<&str> = line.split(' ').collect();
        let depth = book.len() - self.below(book.len() / 2 + 1);
        for usi in &book[..depth] {
            let Ok(mv) = Move::from_usi(usi) else { break };
            if !pos.is_legal(mv) {
                break;
            }
            let _ = pos.play(mv);
            moves.push(MoveNode::new(mv));
        }
        let total = 60 + self.below(100);
        let rest = total.saturating_sub(moves.len());
        let branch_pos = pos.clone();
        let branch_at = moves.len();
        moves.extend(self.random_moves(&mut pos, rest));
        if self.options.variation_rate > 0.0
            && self.chance(self.options.variation_rate)
            && branch_at < moves.len()
        {
            let mut p = branch_pos.clone();
            let n = 4 + self.below(8);
            let alt = self.random_moves(&mut p, n);
            if alt.first().map(|m| m.mv) != Some(moves[branch_at].mv) && !alt.is_empty() {
                moves[branch_at].variations.push(Line {
                    moves: alt,
                    terminal: None,
                });
            }
        }
        let mut sums = [0.0f64; 2];
        for (i, node) in moves.iter_mut().enumerate() {
            if self.options.times {
                let spent = self.below(if i < 20 { 30 } else { 300 }) as f64;
                sums[i % 2] += spent;
                node.time = Some(MoveTime {
                    spent,
                    total: Some(sums[i % 2]),
                });
            }
            if self.chance(self.options.comment_rate) {
                let c = COMMENTS[self.below(COMMENTS.len())];
                node.comments.push(c.to_string());
            }
        }
        let kind = match self.below(20) {
            0 => TerminalKind::Repetition,
            1 => TerminalKind::Impasse,
            2 => TerminalKind::Abort,
            3 => TerminalKind::TimeUp,
            _ => TerminalKind::Resign,
        };
        let year = 1990 + self.below(36);
        let month = 1 + self.below(12);
        let day = 1 + self.below(28);
        let event = EVENTS[self.below(EVENTS.len())];
        let headers = vec![
            (
                "開始日時".to_string(),
                format!("{year}/{month:02}/{day:02} 10:00:00"),
            ),
            (
                "棋戦".to_string(),
                format!("第{}期{event} (generated)", year - 1950),
            ),
            ("戦型".to_string(), opening.to_string()),
            ("手合割".to_string(), "平手".to_string()),
            ("先手".to_string(), self.player()),
            ("後手".to_string(), self.player()),
        ];
        Record {
            headers,
            start: Position::startpos(),
            main: Line {
                moves,
                terminal: Some(Terminal {
                    kind,
                    time: None,
                    comments: Vec::new(),
                }),
            },
            ..Record::default()
        }
    }
}

impl Iterator for Synth {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        Some(self.game())
    }
}

/// Gives every move of the main line an engine line as Floodgate's engines write one (CSA's
/// `'** <value> <variation>`: a value and up to four legal moves in CSA form), the load the
/// evaluation reader is measured on. `seed` makes the values and variations.
pub fn add_engine_lines(rec: &mut Record, seed: u64) {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut pos = rec.start.clone();
    for node in &mut rec.main.moves {
        if pos.play(node.mv).is_err() {
            return;
        }
        let value = (next() % 2001) as i64 - 1000;
        // Kept without the first `*`, as the readers keep engine lines.
        let mut line = format!(" {value}");
        let mut p = pos.clone();
        for _ in 0..4 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[(next() % moves.len() as u64) as usize];
            line.push(' ');
            crate::csa::push_csa_move(&mut line, &p, mv);
            if p.play(mv).is_err() {
                break;
            }
        }
        node.engine.push(line);
    }
}
