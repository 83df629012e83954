//! Header keys in the target's own words: every row of the key table read in one format and
//! written in another comes back under that format's key, and back again; unknown keys kept.

use kifudex::notation::csa::{CsaVersion, read_csa, write_csa};
use kifudex::notation::headers::{KEY_TABLE, KeyStyle, key_for};
use kifudex::notation::jkf::{read_jkf, write_jkf};
use kifudex::notation::kif::{read_ki2, read_kif, write_ki2, write_kif};
use kifudex::notation::psn::{read_psn, write_psn};
use kifudex::notation::{Record, read_bytes};

fn csa(text: &str) -> Record {
    let mut g = read_csa(text);
    assert_eq!(g.len(), 1, "{text}");
    let r = g.remove(0);
    assert_eq!(r.errors, [], "{text}");
    r
}

fn psn(text: &str) -> Record {
    let mut g = read_psn(text);
    assert_eq!(g.len(), 1, "{text}");
    let r = g.remove(0);
    assert_eq!(r.errors, [], "{text}");
    r
}

fn kif(text: &str) -> Record {
    let r = read_kif(text);
    assert_eq!(r.errors, [], "{text}");
    r
}

fn keys(r: &Record) -> Vec<(&str, &str)> {
    r.headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

/// A SFEN without its move number (a KIF diagram does not give it).
fn board(p: &kifudex::shogi::Position) -> String {
    let s = p.to_sfen();
    s.rsplit_once(' ').unwrap().0.to_string()
}

const MOVES_KIF: &str = "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n";

/// Each fact of the table, read from KIF, written as CSA and PSN under their keys, and
/// back to KIF under the KIF key (each one alone, the even game).
#[test]
fn every_key_of_the_table_round_trips_through_csa_and_psn() {
    for row in KEY_TABLE.iter().filter(|r| r.kif != "手合割") {
        let text = format!("{}：v\n{MOVES_KIF}", row.kif);
        let r = kif(&text);
        assert_eq!(keys(&r), [(row.kif, "v")]);
        let csa_key = row.csa.unwrap();
        // CSA: the key in CSA's words, read back, and back to KIF.
        let c = write_csa(&r, CsaVersion::V2_2);
        let line = if csa_key.starts_with('N') {
            format!("{csa_key}v\n")
        } else {
            format!("{csa_key}:v\n")
        };
        assert!(c.starts_with(&format!("V2.2\n{line}PI\n")), "{c}");
        let c = csa(&c);
        assert_eq!(keys(&c), [(csa_key, "v")]);
        assert_eq!(keys(&kif(&write_kif(&c))), [(row.kif, "v")]);
        // PSN: the tag, read back, and back to KIF and to CSA.
        let p = write_psn(&r);
        assert_eq!(p, format!("[{} \"v\"]\n\n1.P-7f Resign 1-0\n", row.psn));
        let p = psn(&p);
        assert_eq!(keys(&p)[0], (row.psn, "v"));
        assert_eq!(keys(&kif(&write_kif(&p)))[0], (row.kif, "v"));
        assert_eq!(
            keys(&csa(&write_csa(&p, CsaVersion::V2_2)))[0],
            (csa_key, "v")
        );
        // JKF keeps KIF's keys, whatever the record was read from.
        for from in [&r, &c, &p] {
            let j = read_jkf(&write_jkf(from)).unwrap();
            assert_eq!(keys(&j)[0], (row.kif, "v"));
        }
        // KI2 writes the KIF key too.
        assert_eq!(keys(&read_ki2(&write_ki2(&c)))[0], (row.kif, "v"));
    }
}

#[test]
fn a_csa_game_is_written_as_kif_with_kif_keys() {
    let c = csa(
        "V2.2\nN+Alice\nN-Bob\n$EVENT:Cup\n$SITE:Tokyo\n$START_TIME:2024/01/02 10:00:00\n\
         $END_TIME:2024/01/02 12:00:00\n$TIME_LIMIT:00:25+00\n$OPENING:YAGURA\n$ROUND:3\n\
         PI\n+\n+7776FU\n%TORYO\n",
    );
    assert_eq!(
        write_kif(&c),
        "先手：Alice\n後手：Bob\n棋戦：Cup\n場所：Tokyo\n開始日時：2024/01/02 10:00:00\n\
         終了日時：2024/01/02 12:00:00\n持ち時間：00:25+00\n戦型：YAGURA\nROUND：3\n\
         手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n"
    );
    assert_eq!(
        write_psn(&c),
        "[Sente \"Alice\"]\n[Gote \"Bob\"]\n[Event \"Cup\"]\n[Site \"Tokyo\"]\n\
         [Date \"2024/01/02 10:00:00\"]\n[EndDate \"2024/01/02 12:00:00\"]\n\
         [TimeControl \"00:25+00\"]\n[Opening \"YAGURA\"]\n[ROUND \"3\"]\n\n1.P-7f Resign 1-0\n"
    );
}

#[test]
fn a_psn_game_is_written_as_kif_and_csa_with_their_keys() {
    let p = psn(
        "[Sente \"Alice\"]\n[Gote \"Bob\"]\n[Date \"2024.01.02\"]\n[Event \"Cup\"]\n\
         [Round \"3\"]\n\n1.P-7f P-3d 2.Resign 0-1\n",
    );
    let k = write_kif(&p);
    assert!(
        k.starts_with("先手：Alice\n後手：Bob\n開始日時：2024.01.02\n棋戦：Cup\nRound：3\n"),
        "{k}"
    );
    let c = write_csa(&p, CsaVersion::V2_2);
    assert!(
        c.starts_with("V2.2\nN+Alice\nN-Bob\n$START_TIME:2024.01.02\n$EVENT:Cup\n$Round:3\n"),
        "{c}"
    );
    // And back to PSN: the same tags.
    let again = psn(&write_psn(&csa(&c)));
    assert_eq!(&keys(&again)[..5], &keys(&p)[..5]);
}

#[test]
fn handicap_games_name_the_players_shitate_and_uwate_in_kif() {
    let c = csa("V2.2\nN+下手の人\nN-上手の人\nPI82HI22KA\n-\n-5142OU\n%TORYO\n");
    let k = write_kif(&c);
    assert!(
        k.starts_with("下手：下手の人\n上手：上手の人\n手合割：二枚落ち\n"),
        "{k}"
    );
    let back = csa(&write_csa(&kif(&k), CsaVersion::V2_2));
    assert_eq!(keys(&back), [("N+", "下手の人"), ("N-", "上手の人")]);
    let p = write_psn(&kif(&k));
    assert!(
        p.starts_with("[Sente \"下手の人\"]\n[Gote \"上手の人\"]\n[Handicap \"2 piece\"]\n"),
        "{p}"
    );
    let k2 = kif(&write_kif(&psn(&p)));
    assert_eq!(
        &keys(&k2)[..3],
        [
            ("下手", "下手の人"),
            ("上手", "上手の人"),
            ("手合割", "二枚落ち")
        ]
    );
}

#[test]
fn unknown_keys_are_kept_as_they_are() {
    let r = kif(&format!("表題：名局\n備考：memo\n{MOVES_KIF}"));
    let c = write_csa(&r, CsaVersion::V2_2);
    assert!(c.starts_with("V2.2\n$表題:名局\n$備考:memo\nPI\n"), "{c}");
    assert_eq!(
        keys(&kif(&write_kif(&csa(&c)))),
        [("表題", "名局"), ("備考", "memo")]
    );
    let p = write_psn(&r);
    assert!(p.starts_with("[表題 \"名局\"]\n[備考 \"memo\"]\n"), "{p}");
    assert_eq!(
        keys(&kif(&write_kif(&psn(&p)))),
        [("表題", "名局"), ("備考", "memo")]
    );
}

#[test]
fn kif_keys_stay_kif_keys_in_kif_and_other_spellings_are_read() {
    // 対局日 is KIF's too: kept; JKF-from-CSA spellings become KIF keys.
    assert_eq!(
        key_for("対局日", KeyStyle::Kif, false).as_deref(),
        Some("対局日")
    );
    assert_eq!(
        key_for("対局日", KeyStyle::Csa, false).as_deref(),
        Some("$START_TIME")
    );
    assert_eq!(
        key_for("EVENT", KeyStyle::Kif, false).as_deref(),
        Some("棋戦")
    );
    assert_eq!(
        key_for("Black", KeyStyle::Kif, true).as_deref(),
        Some("下手")
    );
    assert_eq!(
        key_for("先手", KeyStyle::Kif, true).as_deref(),
        Some("先手")
    );
    assert_eq!(key_for("手合割", KeyStyle::Csa, false), None);
    assert_eq!(key_for("SFEN", KeyStyle::Kif, false), None);
    assert_eq!(
        key_for("SFEN", KeyStyle::Psn, false).as_deref(),
        Some("SFEN")
    );
    assert_eq!(
        key_for("$FOO", KeyStyle::Kif, false).as_deref(),
        Some("FOO")
    );
    assert_eq!(
        key_for("FOO", KeyStyle::Csa, false).as_deref(),
        Some("$FOO")
    );
    // A PSN game with a SFEN start: the KIF has a diagram, no SFEN header.
    let f = read_bytes(
        "[Sente \"A\"]\n[SFEN \"4k4/9/9/9/9/9/9/9/4K4 b G 1\"]\n\n1.G*5b *\n".as_bytes(),
        None,
    );
    let k = write_kif(&f.games[0]);
    assert!(k.starts_with("先手：A\n後手の持駒：なし\n"), "{k}");
}

/// A handicap game from a position no handicap names (上手 has moved): the diagram names the
/// sides 上手/下手 as the KIF specification does, and reads back to the same start.
#[test]
fn handicap_board_diagrams_say_shitate_and_uwate() {
    let c = csa("V2.2\nN+A\nN-B\nPI82HI22KA\n-\n-5142OU\n+7776FU\n%TORYO\n");
    let mut r = c.clone();
    let mut start = c.start.clone();
    start.play(c.main.moves[0].mv).unwrap();
    r.start = start;
    r.main.moves.clear();
    r.main.terminal = None;
    // The CSA keys say nothing of a handicap: the headers must (上手 for N-).
    r.headers = vec![
        ("下手".to_string(), "A".to_string()),
        ("上手".to_string(), "B".to_string()),
    ];
    let k = write_kif(&r);
    assert_eq!(
        k,
        "下手：A\n上手：B\n上手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n\
         +---------------------------+\n\
         |v香v桂v銀v金 ・v金v銀v桂v香|一\n\
         | ・ ・ ・ ・ ・v玉 ・ ・ ・|二\n\
         |v歩v歩v歩v歩v歩v歩v歩v歩v歩|三\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n\
         | 歩 歩 歩 歩 歩 歩 歩 歩 歩|七\n\
         | ・ 角 ・ ・ ・ ・ ・ 飛 ・|八\n\
         | 香 桂 銀 金 玉 金 銀 桂 香|九\n\
         +---------------------------+\n\
         下手の持駒：なし\n手数----指手---------消費時間--\n"
    );
    let back = kif(&k);
    assert_eq!(board(&back.start), board(&r.start));
    assert_eq!(keys(&back), [("下手", "A"), ("上手", "B")]);
    // With White to move, 上手番; an even game's diagram keeps 先手/後手.
    let mut w = r.clone();
    w.start = c.start.clone();
    w.start.play(c.main.moves[0].mv).unwrap();
    w.start.play(c.main.moves[1].mv).unwrap();
    let k = write_kif(&w);
    assert!(k.contains("|七\n| ・ 角 ・"), "{k}");
    assert!(k.contains("下手の持駒：なし\n上手番\n手数"), "{k}");
    assert_eq!(board(&kif(&k).start), board(&w.start));
    w.headers = vec![("先手".to_string(), "A".to_string())];
    let k = write_kif(&w);
    assert!(k.starts_with("先手：A\n後手の持駒：なし\n"), "{k}");
    assert!(k.contains("先手の持駒：なし\n後手番\n手数"), "{k}");
}

/// Two headers for one fact (対局日 and 開始日時): the main key takes the target's key, the
/// other keeps its own, and both come back.
#[test]
fn two_keys_for_one_fact_both_come_back() {
    let r = kif(&format!(
        "対局日：2024/01/02\n開始日時：2024/01/02 10:00\n{MOVES_KIF}"
    ));
    let c = write_csa(&r, CsaVersion::V2_2);
    assert!(
        c.starts_with("V2.2\n$対局日:2024/01/02\n$START_TIME:2024/01/02 10:00\nPI\n"),
        "{c}"
    );
    assert_eq!(keys(&kif(&write_kif(&csa(&c)))), keys(&r));
    let p = write_psn(&r);
    assert!(
        p.starts_with("[対局日 \"2024/01/02\"]\n[Date \"2024/01/02 10:00\"]\n"),
        "{p}"
    );
    assert_eq!(keys(&kif(&write_kif(&psn(&p)))), keys(&r));
}

/// Every key of the table, whatever format's, is read as its fact by the record.
#[test]
fn the_record_reads_every_key_of_the_table() {
    for row in KEY_TABLE.iter().filter(|r| r.kif != "手合割") {
        let mut keys: Vec<&str> = vec![row.kif, row.psn];
        keys.extend(row.kif_handicap);
        keys.extend(row.kif_also);
        keys.extend(row.csa);
        keys.extend(row.other);
        for key in keys {
            let r = Record {
                headers: vec![(key.to_string(), "v".to_string())],
                ..Record::default()
            };
            let got = match row.kif {
                "先手" => r.sente(),
                "後手" => r.gote(),
                "開始日時" => r.start_time(),
                "終了日時" => r.end_time(),
                "棋戦" => r.event(),
                "場所" => r.site(),
                "持ち時間" => r.time_control(),
                "戦型" => r.opening(),
                k => panic!("a fact the test does not know: {k}"),
            };
            assert_eq!(got, Some("v"), "{key}");
        }
    }
}

/// One key read twice (two `N+` lines, two `$X` lines) is written twice under that key, as
/// it was read: the second is no other fact's header.
#[test]
fn a_key_read_twice_is_written_twice_as_it_was() {
    let r = csa("V2.2\nN+first\nN+second\n$MEMO:a\n$MEMO:b\nPI\n+\n+7776FU\n%TORYO\n");
    assert_eq!(
        keys(&r),
        [
            ("N+", "first"),
            ("N+", "second"),
            ("$MEMO", "a"),
            ("$MEMO", "b")
        ]
    );
    let c = write_csa(&r, CsaVersion::V3_0);
    assert_eq!(keys(&csa(&c)), keys(&r), "{c}");
    let k = kif(&write_kif(&r));
    assert_eq!(
        keys(&k),
        [
            ("先手", "first"),
            ("先手", "second"),
            ("MEMO", "a"),
            ("MEMO", "b")
        ]
    );
}

/// JKF takes KIF's keys for the table's facts, but keeps any other key exactly, `$` and all
/// (KIF drops a CSA key's `$`; a JSON key can hold it).
#[test]
fn jkf_keeps_an_unknown_csa_key_whole() {
    let r = csa("V2.2\nN+sente\n$END_TIME:2024/01/02\n$MEMO:m\nPI\n+\n+7776FU\n%TORYO\n");
    let j = write_jkf(&r);
    let back = read_jkf(&j).unwrap();
    assert_eq!(
        keys(&back),
        [
            ("先手", "sente"),
            ("終了日時", "2024/01/02"),
            ("$MEMO", "m")
        ],
        "{j}"
    );
    // And read again from its own JKF, every key stays.
    assert_eq!(keys(&read_jkf(&write_jkf(&back)).unwrap()), keys(&back));
    assert_eq!(
        keys(&kif(&write_kif(&r))),
        [("先手", "sente"), ("終了日時", "2024/01/02"), ("MEMO", "m")]
    );
}

/// A `$` key loses its `$` in KIF only where the rest still reads back as a key: the fuzzer's
/// `$  5 投了     18p ( 0` without it would be a move line, `$6六歩` a move, `$*x` a comment.
#[test]
fn a_key_that_would_read_as_another_line_keeps_its_dollar_in_kif() {
    let odd = [
        "$  5 投了     18p ( 0",
        "$6六歩",
        "$７六歩",
        "$*x",
        "$#x",
        "$|x",
        "$変化",
        "$手数----指手",
        "$ FOO",
        "$",
    ];
    for key in odd {
        assert_eq!(key_for(key, KeyStyle::Kif, false).as_deref(), Some(key));
    }
    // CSA's keys and others lose it as before.
    for (key, kif_key) in [("$MEMO", "MEMO"), ("$備考", "備考"), ("$手数", "手数")] {
        assert_eq!(key_for(key, KeyStyle::Kif, false).as_deref(), Some(kif_key));
    }
    let text = "$  5 投了     18p ( 0：a\n$6六歩：b\n$備考：c\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:00/00:00:00)\n";
    let r = kif(text);
    let want = vec![
        ("$  5 投了     18p ( 0", "a"),
        ("$6六歩", "b"),
        ("$備考", "c"),
    ];
    assert_eq!(keys(&r), want);
    let back = kif(&write_kif(&r));
    assert_eq!(back.main, r.main);
    assert_eq!(
        keys(&back),
        vec![
            ("$  5 投了     18p ( 0", "a"),
            ("$6六歩", "b"),
            ("備考", "c")
        ]
    );
}

/// A JKF header is a JSON object, one value a key: of two headers under one key (two `$MEMO`
/// lines of a CSA file), the first is written and the other is reported as not written.
#[test]
fn jkf_writes_the_first_of_two_headers_under_one_key_and_says_so() {
    use kifudex::notation::csa::CsaVersion;
    use kifudex::notation::write::{Dropped, Target, messages, write};
    let r = csa("V2.2\nN+sente\n$MEMO:a\n$MEMO:b\n$MEMO:c\nPI\n+\n+7776FU\n%TORYO\n");
    let written = write(std::slice::from_ref(&r), Target::Jkf, CsaVersion::V3_0);
    assert!(written.dropped.contains(&Dropped::RepeatedHeaders(2)));
    assert!(
        messages(&written.dropped, Target::Jkf).contains(
            &"JKF holds one header value a key; headers that repeat a key: 2 are not written"
                .to_string()
        ),
        "{:?}",
        written.dropped
    );
    let back = read_jkf(std::str::from_utf8(&written.bytes).unwrap()).unwrap();
    assert_eq!(keys(&back), vec![("先手", "sente"), ("$MEMO", "a")]);
    // A record with each key once loses nothing.
    let one = csa("V2.2\nN+sente\n$MEMO:a\nPI\n+\n+7776FU\n%TORYO\n");
    let written = write(std::slice::from_ref(&one), Target::Jkf, CsaVersion::V3_0);
    assert!(
        !written
            .dropped
            .iter()
            .any(|d| matches!(d, Dropped::RepeatedHeaders(_)))
    );
}
