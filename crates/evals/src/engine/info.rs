//! The engine's answers during a search: `info` lines (depth, seldepth, nodes, multipv,
//! `score cp N [lowerbound|upperbound]`, `score mate N|+|-`, `pv …`) and the `bestmove` line
//! (`bestmove 7g7f [ponder 3c3d]`, `bestmove resign`, `bestmove win`). Scores here are the
//! side to move's, as USI gives them.

use crate::Score;
use kifudex_shogi::Color;

/// What one `info` line says; `None` fields were not given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Info<'l> {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub nodes: Option<u64>,
    pub multipv: Option<u32>,
    /// From the side to move's point of view: `winner` Black means the side to move mates.
    pub score: Option<Score>,
    /// The variation's moves as written.
    pub pv: Vec<&'l str>,
}

/// Reads an `info` line (the word `info` included). `None` when it is not one or a field the
/// line gives cannot be read: such a line is not trusted at all.
pub(crate) fn parse_info(line: &str) -> Option<Info<'_>> {
    let mut words = line.split_ascii_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let mut info = Info::default();
    while let Some(word) = words.next() {
        match word {
            "depth" => info.depth = Some(words.next()?.parse().ok()?),
            "seldepth" => info.seldepth = Some(words.next()?.parse().ok()?),
            "nodes" => info.nodes = Some(words.next()?.parse().ok()?),
            "multipv" => info.multipv = Some(words.next()?.parse().ok()?),
            "time" | "nps" | "hashfull" | "currmovenumber" | "tbhits" | "cpuload" => {
                words.next()?.parse::<u64>().ok()?;
            }
            "currmove" => {
                words.next()?;
            }
            "score" => {
                info.score = Some(match words.next()? {
                    "cp" => Score::Value(words.next()?.parse().ok()?),
                    "mate" => mate(words.next()?)?,
                    _ => return None,
                })
            }
            // Bounds qualify the score; the value is taken as it is.
            "lowerbound" | "upperbound" => {}
            "pv" => {
                info.pv = words.by_ref().collect();
            }
            // Free text to the end of the line.
            "string" => return Some(info),
            _ => return None,
        }
    }
    Some(info)
}

/// `score mate N` (plies, positive: the side to move mates), `mate +`, `mate -`. A mate of 0
/// (also `-0`) is the side to move being mated.
fn mate(word: &str) -> Option<Score> {
    let (mover_wins, digits) = match word.as_bytes().first()? {
        b'+' => (true, &word[1..]),
        b'-' => (false, &word[1..]),
        _ => (true, word),
    };
    let plies: Option<u32> = if digits.is_empty() {
        None
    } else {
        Some(digits.parse().ok()?)
    };
    let mover_wins = mover_wins && plies != Some(0);
    Some(Score::Mate {
        winner: if mover_wins {
            Color::Black
        } else {
            Color::White
        },
        plies,
    })
}

/// What `bestmove` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BestWord<'l> {
    Move(&'l str),
    Resign,
    Win,
}

/// Reads a `bestmove` line; `None` when it is not one or names nothing.
pub(crate) fn parse_bestmove(line: &str) -> Option<BestWord<'_>> {
    let mut words = line.split_ascii_whitespace();
    if words.next() != Some("bestmove") {
        return None;
    }
    Some(match words.next()? {
        "resign" => BestWord::Resign,
        "win" => BestWord::Win,
        mv => BestWord::Move(mv),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_as_engines_print_them() {
        let i = parse_info(
            "info depth 7 seldepth 9 multipv 1 score cp 181 nodes 6273 nps 104550 tbhits 0 time 60 pv 7g7f 5a4b 4g4f",
        )
        .unwrap();
        assert_eq!(i.depth, Some(7));
        assert_eq!(i.seldepth, Some(9));
        assert_eq!(i.multipv, Some(1));
        assert_eq!(i.nodes, Some(6273));
        assert_eq!(i.score, Some(Score::Value(181)));
        assert_eq!(i.pv, ["7g7f", "5a4b", "4g4f"]);
        // gpsusi's order, and its lost positions.
        let i = parse_info(
            "info depth 10 seldepth 1 time 4 score cp -1148897 nodes 31 nps 6238 pv resign",
        )
        .unwrap();
        assert_eq!(i.score, Some(Score::Value(-1148897)));
        assert_eq!(i.pv, ["resign"]);
        let i = parse_info("info depth 20 score cp 35 upperbound nodes 100").unwrap();
        assert_eq!(i.score, Some(Score::Value(35)));
        assert_eq!(i.nodes, Some(100));
    }

    #[test]
    fn mate_scores_name_the_side_to_move_as_black() {
        let m = |w: Color, p| {
            Some(Score::Mate {
                winner: w,
                plies: p,
            })
        };
        let score = |l: &str| parse_info(l).unwrap().score;
        assert_eq!(score("info score mate 3 pv G*5b"), m(Color::Black, Some(3)));
        assert_eq!(score("info score mate -4"), m(Color::White, Some(4)));
        assert_eq!(score("info score mate +"), m(Color::Black, None));
        assert_eq!(score("info score mate -"), m(Color::White, None));
        assert_eq!(score("info score mate 0"), m(Color::White, Some(0)));
        assert_eq!(score("info score mate -0"), m(Color::White, Some(0)));
    }

    #[test]
    fn lines_that_are_not_info_or_cannot_be_read() {
        for bad in [
            "",
            "infox depth 3",
            "info depth x",
            "info depth",
            "info score cp",
            "info score cp 1.5",
            "info score wdl 1 2 3",
            "info frobnicate 3",
            "bestmove 7g7f",
        ] {
            assert_eq!(parse_info(bad), None, "{bad:?}");
        }
        let i = parse_info("info string book move, no search").unwrap();
        assert_eq!(i, Info::default());
    }

    #[test]
    fn bestmove_lines() {
        assert_eq!(
            parse_bestmove("bestmove 7g7f ponder 3c3d"),
            Some(BestWord::Move("7g7f"))
        );
        assert_eq!(
            parse_bestmove("bestmove G*5b"),
            Some(BestWord::Move("G*5b"))
        );
        assert_eq!(parse_bestmove("bestmove resign"), Some(BestWord::Resign));
        assert_eq!(parse_bestmove("bestmove win"), Some(BestWord::Win));
        assert_eq!(parse_bestmove("bestmove"), None);
        assert_eq!(parse_bestmove("best move 7g7f"), None);
    }
}
