//! The `%` words of CSA, read and written from one table; JKF's `special` names are the same
//! words (those of CSA V2.2) without the `%`.

use crate::record::TerminalKind;
use kifudex_shogi::Color;

/// Every terminal word with the kind it names, `%` included; the first word of a kind is
/// the one written. `%+ILLEGAL_ACTION` and `%-ILLEGAL_ACTION` name the side that fouled
/// rather than a kind: see [`read`] and [`write`].
const WORDS: [(&str, TerminalKind); 14] = {
    use TerminalKind::*;
    [
        ("%TORYO", Resign),
        ("%CHUDAN", Abort),
        ("%SENNICHITE", Repetition),
        // Perpetual check: no V2.2 word, but servers write it; the result of a repetition
        // is worked out from the moves either way. Read only.
        ("%OUTE_SENNICHITE", Repetition),
        ("%TIME_UP", TimeUp),
        ("%ILLEGAL_MOVE", IllegalMove),
        ("%JISHOGI", Impasse),
        ("%KACHI", EnteringKingWin),
        ("%HIKIWAKE", EnteringKingDraw),
        ("%MATTA", Takeback),
        ("%TSUMI", Mate),
        ("%FUZUMI", NoMate),
        ("%ERROR", Error),
        ("%MAX_MOVES", MaxMoves),
    ]
};

/// `%+ILLEGAL_ACTION`: sente (下手) fouled and gote wins, whoever is to move.
const ACTIONS: [(&str, Color); 2] = [
    ("%+ILLEGAL_ACTION", Color::Black),
    ("%-ILLEGAL_ACTION", Color::White),
];

/// The kind a word names (given without its `%`), `to_move` being the side to move when it
/// comes; `None` when it is no CSA terminal.
pub fn read(word: &str, to_move: Color) -> Option<TerminalKind> {
    let bare = |w: &'static str| &w[1..];
    if let Some(&(_, fouler)) = ACTIONS.iter().find(|(w, _)| bare(w) == word) {
        return Some(if fouler == to_move {
            TerminalKind::IllegalLoss
        } else {
            TerminalKind::IllegalWin
        });
    }
    WORDS.iter().find(|(w, _)| bare(w) == word).map(|&(_, k)| k)
}

/// The word (with its `%`) for a kind, `to_move` being the side to move when it comes;
/// `None` for the kinds CSA has no word for (不戦勝, 不戦敗).
pub fn write(kind: TerminalKind, to_move: Color) -> Option<&'static str> {
    let fouler = match kind {
        TerminalKind::IllegalWin => Some(to_move.opponent()),
        TerminalKind::IllegalLoss => Some(to_move),
        _ => None,
    };
    if let Some(fouler) = fouler {
        return ACTIONS.iter().find(|(_, c)| *c == fouler).map(|(w, _)| *w);
    }
    WORDS.iter().find(|(_, k)| *k == kind).map(|(w, _)| *w)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind written is read back as itself, for either side to move; the kinds CSA
    /// cannot say are the two defaults; every word of the table reads.
    #[test]
    fn the_table_reads_what_it_writes() {
        use TerminalKind::*;
        let kinds = [
            Resign,
            Abort,
            Repetition,
            TimeUp,
            IllegalMove,
            IllegalWin,
            IllegalLoss,
            Impasse,
            EnteringKingWin,
            EnteringKingDraw,
            Takeback,
            Mate,
            NoMate,
            Error,
            MaxMoves,
            DefaultWin,
            DefaultLoss,
        ];
        for to_move in Color::ALL {
            for kind in kinds {
                match write(kind, to_move) {
                    Some(word) => assert_eq!(read(&word[1..], to_move), Some(kind), "{word}"),
                    None => assert!(matches!(kind, DefaultWin | DefaultLoss), "{kind:?}"),
                }
            }
            let words = WORDS.iter().map(|(w, _)| *w);
            for word in words.chain(ACTIONS.iter().map(|(w, _)| *w)) {
                assert!(read(&word[1..], to_move).is_some(), "{word}");
            }
        }
        assert_eq!(
            read("%TORYO", Color::Black),
            None,
            "the caller takes the % off"
        );
        assert_eq!(read("OUTE_SENNICHITE", Color::White), Some(Repetition));
        assert_eq!(write(Repetition, Color::Black), Some("%SENNICHITE"));
        assert_eq!(write(IllegalWin, Color::Black), Some("%-ILLEGAL_ACTION"));
        assert_eq!(read("+ILLEGAL_ACTION", Color::White), Some(IllegalWin));
    }
}
