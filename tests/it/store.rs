//! The storage layer: what goes into the database comes back the same; dates and names are
//! normalised as users type them.

use kifudex::ingest::{ImportOptions, Observer, import};
use kifudex::normalize::{fold, name_matches};
use kifudex::notation::dates::{GameDate, read_date};
use kifudex::notation::kif::read_kif;
use kifudex::notation::{Format, MoveTime, Record};
use kifudex::store::{GameRow, Inserted, SourceRow, Store};

use crate::util::TempDb;

#[test]
fn dates_as_records_write_them() {
    let cases = [
        ("2019/04/08(月) 10:00", Some("2019-04-08")),
        ("2019/4/8 9:00:00", Some("2019-04-08")),
        ("2019年4月8日", Some("2019-04-08")),
        ("２０１９年４月８日（月）", Some("2019-04-08")),
        ("2019-04-08T10:00:00+09:00", Some("2019-04-08")),
        ("2019.04.08", Some("2019-04-08")),
        ("20190408", Some("2019-04-08")),
        ("平成31年4月8日", Some("2019-04-08")),
        ("令和元年5月1日", Some("2019-05-01")),
        ("昭和60年", Some("1985")),
        ("2019/04", Some("2019-04")),
        ("2019", Some("2019")),
        ("2019/13/01", Some("2019")),
        ("2019/02/40", Some("2019-02")),
        ("1711/11/21", Some("1711-11-21")),
        ("不明", None),
        ("", None),
        ("19", None),
    ];
    for (text, want) in cases {
        let date = read_date(text);
        assert_eq!(date.map(|d| d.to_string()).as_deref(), want, "{text}");
        // What the database holds reads back as the same date, and so does its index code.
        if let Some(d) = date {
            assert_eq!(GameDate::parse(&d.to_string()), Some(d), "{text}");
            assert_eq!(GameDate::from_code(d.code()), Some(d), "{text}");
        }
    }
}

/// Dates order as their text does, their codes too, and text that is no stored date is
/// refused rather than guessed.
#[test]
fn game_dates_order_and_refuse_what_is_no_date() {
    let texts = [
        "1711-11-21",
        "1985",
        "2019",
        "2019-02",
        "2019-02-03",
        "2019-02-28",
        "2019-04",
        "2019-04-08",
        "2020",
    ];
    let dates: Vec<GameDate> = texts
        .iter()
        .map(|t| GameDate::parse(t).unwrap_or_else(|| panic!("{t}")))
        .collect();
    for (w, t) in dates.windows(2).zip(texts.windows(2)) {
        assert!(w[0] < w[1], "{t:?}");
        assert!(w[0].code() < w[1].code(), "{t:?}");
    }
    assert_eq!(GameDate::parse("2019-04-08").unwrap().code(), 20190408);
    assert_eq!(GameDate::parse("2019").unwrap().code(), 20190000);
    for bad in [
        "",
        "19",
        "2019-4",
        "2019-04-8",
        "2019-13",
        "2019-00-01",
        "2019-04-32",
        "0999",
        "2019-04-08-01",
        "2019/04/08",
        "２０１９",
    ] {
        assert_eq!(GameDate::parse(bad), None, "{bad}");
    }
    assert_eq!(GameDate::from_code(0), None);
    assert_eq!(GameDate::from_code(20191301), None);
}

#[test]
fn names_match_as_users_type_them() {
    let yes = [
        ("羽生善治", "羽生"),
        ("羽生 善治", "羽生善治"),
        ("羽生善治九段", "羽生善治"),
        ("羽生善治", "羽生九段"),
        ("羽生善治竜王", "羽生名人"),
        ("渡邉明", "渡辺"),
        ("髙見泰地", "高見"),
        ("山﨑隆之", "山崎"),
        ("濵田", "浜田"),
        ("ハブ太郎", "はぶ"),
        ("ﾊﾌﾞ太郎", "ハブ"),
        ("ＦＵＪＩＩ Ｓｏｕｔａ", "fujii"),
        ("里見香奈 女流四冠", "里見香奈"),
        ("西山朋佳女流二段", "西山"),
        ("伊藤匠(七段)", "伊藤匠"),
        ("Player-3", "player-3"),
    ];
    for (name, q) in yes {
        assert!(name_matches(name, q), "{name} should match {q}");
    }
    let no = [
        ("羽生善治", "羽生治"),
        ("佐藤天彦", "佐藤康光"),
        ("渡辺明", "渡部"),
    ];
    for (name, q) in no {
        assert!(!name_matches(name, q), "{name} should not match {q}");
    }
    assert_eq!(fold("ＡＢＣ　ｱｲｳ　竜王戦"), "abc あいう 竜王戦");
}

struct Quiet;
impl Observer for Quiet {}

/// Imports the folder `dir` quietly.
fn import_dir(
    store: &mut Store,
    dir: &std::path::Path,
    options: &ImportOptions,
) -> Result<kifudex::ingest::ImportCounts, kifudex::ingest::IngestError> {
    import(
        store,
        &[dir.to_path_buf()],
        options,
        &mut Quiet,
        &kifudex::progress::Quiet,
    )
}

fn store(name: &str) -> (TempDb, Store) {
    let dir = TempDb::new(name);
    let store = Store::create(&dir.join("db")).unwrap();
    (dir, store)
}

fn source(path: &str) -> SourceRow {
    SourceRow {
        path: path.to_string(),
        key: kifudex::ingest::walk::file_key(std::path::Path::new(path)),
        size: 1,
        mtime: 0,
        content_hash: "0".into(),
        format: Some(kifudex::notation::Format::Kif),
        encoding: Some(kifudex::notation::Encoding::Utf8),
        games: 1,
        error: None,
        replaces: None,
        options: "",
    }
}

/// Writes `n` generated games (seed `seed`), each changed by `edit` first, as KIFU files
/// `g0000.kifu`, `g0001.kifu` … into `dir/games`; returns the folder and the files' paths.
fn synth_files(
    dir: &std::path::Path,
    seed: u64,
    n: usize,
    mut edit: impl FnMut(usize, &mut Record),
) -> (std::path::PathBuf, Vec<String>) {
    use kifudex::synth::{Synth, SynthOptions};
    let files = dir.join("games");
    std::fs::create_dir_all(&files).unwrap();
    let mut synth = Synth::new(SynthOptions {
        seed,
        ..SynthOptions::default()
    });
    let mut paths = Vec::new();
    for i in 0..n {
        let mut rec = synth.game();
        edit(i, &mut rec);
        let path = files.join(format!("g{i:04}.kifu"));
        std::fs::write(&path, kifudex::notation::kif::write_kif(&rec)).unwrap();
        paths.push(path.to_string_lossy().into_owned());
    }
    (files, paths)
}

/// Stores a record and reads it back.
fn round_trip(store: &mut Store, path: &str, rec: &Record) -> Record {
    let row = GameRow::new(rec, Format::Kif);
    let mut w = store.writer().unwrap();
    w.begin().unwrap();
    let s = w.put_source(&source(path)).unwrap();
    let Inserted::New(id) = w.put_game(s, 0, &row).unwrap() else {
        panic!("new game expected")
    };
    w.commit().unwrap();
    drop(w);
    store.game(id).unwrap().unwrap().record
}

fn same(a: &Record, b: &Record) {
    assert_eq!(a.headers, b.headers);
    assert_eq!(a.start, b.start);
    assert_eq!(a.start_comments, b.start_comments);
    assert_eq!(a.start_bookmarks, b.start_bookmarks);
    assert_eq!(a.start_engine, b.start_engine);
    assert_eq!(a.notes, b.notes);
    assert_eq!(a.main, b.main);
}

#[test]
fn csa_engine_lines_and_remarks_come_back() {
    let (dir, mut store) = store("store-csa");
    let csa = "V2.2
N+甲
N-乙
$EVENT:例会
'初期局面の注記
PI
+
+7776FU,T3
'*角道を開ける
'** 30 -7776FU +3334FU
-3334FU,T5
%TORYO
";
    let games = kifudex::notation::csa::read_csa(csa);
    let rec = &games[0];
    assert!(rec.errors.is_empty(), "{:?}", rec.errors);
    assert_eq!(rec.notes.len(), 1);
    assert_eq!(rec.main.moves[0].engine.len(), 1);
    same(&round_trip(&mut store, "a.csa", rec), rec);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn games_come_back_as_they_went_in() {
    let (dir, mut store) = store("store-round-trip");
    // Times with totals that are no running sum, a terminal with time and comment, comments
    // on the start and on moves.
    let kif = "先手：甲
後手：乙
*始まり
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:10/01:00:10)
*一手目
   2 ３四歩(33)   ( 0:20/00:00:20)
   3 ２六歩(27)   ( 1:05/01:01:15)
   4 投了   ( 0:03/00:00:23)
*終わり
";
    let rec = read_kif(kif);
    assert!(rec.errors.is_empty(), "{:?}", rec.errors);
    same(&round_trip(&mut store, "a.kif", &rec), &rec);

    // Fractional times (CSA V3 style), a move without time.
    let mut frac = read_kif(
        "開始日時：2019/01/01\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n",
    );
    frac.main.moves[0].time = Some(MoveTime {
        spent: 1.234,
        total: Some(1.234),
    });
    same(&round_trip(&mut store, "b.kif", &frac), &frac);

    // An absurd time is stored capped, not overflowed (another day makes it another game).
    let mut huge = frac.clone();
    huge.headers[0].1 = "2020/01/01".into();
    huge.main.moves[1].time = Some(MoveTime {
        spent: 1e30,
        total: None,
    });
    let back = round_trip(&mut store, "b2.kif", &huge);
    assert_eq!(
        back.main.moves[1].time.map(|t| t.spent),
        Some((1u64 << 53) as f64 / 1000.0)
    );

    // Variations and bookmarks: kept whole (another player: not a twin of the first game).
    let tree = "先手：丙
手数----指手---------消費時間--
   1 ７六歩(77)
&定跡
   2 ３四歩(33)
   3 ２六歩(27)

変化：2手
   2 ８四歩(83)
   3 ６八銀(79)
";
    let rec = read_kif(tree);
    assert_eq!(rec.main.variation_count(), 1);
    same(&round_trip(&mut store, "c.kif", &rec), &rec);

    // A handicap start and a board set-up with hands, side to move and an illegal move.
    let handicap = read_kif("手合割：二枚落ち\n手数----指手---------消費時間--\n   1 ６二銀(71)\n");
    same(&round_trip(&mut store, "d.kif", &handicap), &handicap);
    let bod = "後手の持駒：飛　角
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・v玉 ・ ・ ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ ・ ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ 歩 ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九
+---------------------------+
先手の持駒：歩
手数----指手---------消費時間--
   1 ５六歩打
";
    let rec = read_kif(bod);
    assert_eq!(
        rec.first_illegal().map(|(p, r)| (p, r.code())),
        Some((1, "two_pawns"))
    );
    let back = round_trip(&mut store, "e.kif", &rec);
    same(&back, &rec);
    assert_eq!(back.main.moves[0].violations, rec.main.moves[0].violations);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_game_twice_is_stored_once_with_both_sources() {
    let (dir, mut store) = store("store-duplicates");
    let rec = read_kif(
        "開始日時：2020/01/02\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n",
    );
    let row = GameRow::new(&rec, Format::Kif);
    let mut w = store.writer().unwrap();
    w.begin().unwrap();
    let a = w.put_source(&source("a.kif")).unwrap();
    let b = w.put_source(&source("b.kif")).unwrap();
    assert_eq!(w.put_game(a, 0, &row).unwrap(), Inserted::New(1));
    assert_eq!(w.put_game(b, 0, &row).unwrap(), Inserted::Duplicate(1));
    // Another date is another game (engines replay the same game on other days).
    let mut other = rec.clone();
    other.headers[0].1 = "2020/01/03".into();
    assert_eq!(
        w.put_game(b, 1, &GameRow::new(&other, Format::Kif))
            .unwrap(),
        Inserted::New(2)
    );
    w.commit().unwrap();
    drop(w);
    let g = store.game(1).unwrap().unwrap();
    assert_eq!(g.sources, ["a.kif", "b.kif"]);
    assert_eq!(store.stats().unwrap().duplicates, 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn import_through_the_library_reports_missing_paths_and_goes_on() {
    let (dir, mut store) = store("store-missing");
    let file = dir.join("one.kifu");
    std::fs::write(&file, "手数----指手---------消費時間--\n   1 ７六歩(77)\n").unwrap();
    let missing = dir.join("nope");
    let summary = import(
        &mut store,
        &[missing, file],
        &ImportOptions::default(),
        &mut Quiet,
        &kifudex::progress::Quiet,
    )
    .unwrap();
    assert_eq!(summary.games, 1);
    assert_eq!(summary.failed_files, 1);
    assert_eq!(summary.errors, 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn variation_trees_come_back_whole_and_older_trees_still_read() {
    let (dir, mut store) = store("store-trees");
    // Nested variations with times, comments, engine lines, bookmarks and a terminal of
    // their own; a bookmark on the start and on a main-line move.
    let kif = "先手：甲
後手：乙
&開始
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:01/00:00:01)
   2 ３四歩(33)   ( 0:02/00:00:02)
&角道
   3 ２六歩(27)   ( 0:03/00:00:04)
   4 ８四歩(83)   ( 0:04/00:00:06)
   5 ２五歩(26)   ( 0:05/00:00:09)

変化：2手
   2 ８四歩(83)   ( 0:07/00:00:07)
*居飛車
**評価値 +120
   3 ２六歩(27)   ( 0:08/00:00:09)
   4 投了   ( 0:09/00:00:16)
*変化の終わり

変化：3手
   3 ６八銀(79)   ( 0:10/00:00:11)
&銀
   4 ８五歩(84)   ( 0:11/00:00:18)

変化：4手
   4 ３二金(41)   ( 0:12/00:00:14)
";
    let rec = read_kif(kif);
    assert!(rec.errors.is_empty(), "{:?}", rec.errors);
    assert_eq!(rec.main.variation_count(), 3);
    assert_eq!(rec.start_bookmarks, ["開始"]);
    let back = round_trip(&mut store, "a.kif", &rec);
    same(&back, &rec);

    let id: i64 = crate::util::sql(&store)
        .query_row("SELECT max(id) FROM games", [], |r| r.get(0))
        .unwrap();
    let blob: Vec<u8> = crate::util::sql(&store)
        .query_row("SELECT tree FROM games WHERE id = ?1", [id], |r| r.get(0))
        .unwrap();
    assert_eq!(blob[0], 0x07, "the binary tree's marker");

    // Schema 3's first trees (raw-deflated KIF) and schema 2's (KIF text) still read.
    let kif_text = kifudex::notation::kif::write_kif(&rec);
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut z, kif_text.as_bytes()).unwrap();
    let deflated = z.finish().unwrap();
    for value in [
        rusqlite::types::Value::Blob(deflated),
        rusqlite::types::Value::Text(kif_text.clone()),
    ] {
        crate::util::sql(&store)
            .execute("UPDATE games SET tree = ?1 WHERE id = ?2", (&value, id))
            .unwrap();
        same(&store.game(id).unwrap().unwrap().record, &rec);
    }

    // A damaged tree names the game instead of panicking or losing the rest silently.
    let mut cut = blob.clone();
    cut.truncate(blob.len() / 2);
    for bad in [cut, vec![0x07, 0x00, 0x09, 0x00, 0x00, 0x00]] {
        crate::util::sql(&store)
            .execute("UPDATE games SET tree = ?1 WHERE id = ?2", (&bad, id))
            .unwrap();
        let err = store.game(id).unwrap_err().to_string();
        assert!(err.contains(&format!("game {id}")), "{err}");
        assert!(err.contains("tree: "), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn headers_stored_once_with_their_columns_come_back_word_for_word() {
    let (dir, mut store) = store("store-headers");
    // 棋戦, 先手, 後手, 表題 and 手合割 are their columns' values and are stored as a
    // reference; 戦型 has spaces the column trims, the second 先手 differs, `\=` is a real
    // value and `\a` a real key. Common keys are stored as a code.
    let mut rec = read_kif("手数----指手---------消費時間--\n   1 ７六歩(77)\n");
    let pairs = [
        ("棋戦", "例会"),
        ("戦型", " 矢倉 "),
        ("表題", "\\="),
        ("先手", "甲"),
        ("先手", "乙"),
        ("後手", "後手\t花子"),
        ("作品名", "題"),
        ("Event", "例会"),
        ("手合割", "平手"),
        ("\\a", "x"),
    ];
    rec.headers = pairs.map(|(k, v)| (k.to_string(), v.to_string())).to_vec();
    assert_eq!(rec.title(), Some("\\="));
    assert_eq!(rec.opening(), Some("矢倉"));
    let back = round_trip(&mut store, "a.kif", &rec);
    assert_eq!(back.headers, rec.headers);
    let stored: String = crate::util::sql(&store)
        .query_row(
            "SELECT headers FROM games ORDER BY id DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        stored,
        "\\c\t\\=\n\\d\t 矢倉 \n\\j\t\\=\n\\f\t\\=\n\\f\t乙\n\\g\t\\=\n作品名\t題\nEvent\t\\=\n\\e\t\\=\n\\\\a\tx"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn segments_prepared_beside_the_writer_index_every_position_in_game_order() {
    use kifudex::store::postings::key_of;

    // Small segments, so that full batches are sorted beside the writer and written by
    // later transactions.
    let (dir, mut store) = store("store-segments");
    let (files, _) = synth_files(&dir, 5, 400, |_, _| {});
    let options = ImportOptions {
        batch_games: 40,
        segment_entries: 3_000,
        ..ImportOptions::default()
    };
    let summary = import_dir(&mut store, &files, &options).unwrap();
    assert_eq!(summary.games, 400);

    let index = store.position_index(true).unwrap();
    assert!(
        index.segments.len() > 5,
        "{} segments",
        index.segments.len()
    );
    // In game order, one after the other, covering every game.
    let mut next = 1;
    for s in &index.segments {
        assert_eq!(s.first_game, next);
        next = s.last_game + 1;
    }
    assert_eq!(next, 401);
    let mut total = 0;
    for id in 1..=400 {
        let line = store.game_line(id).unwrap().unwrap();
        total += line.moves.len() as i64 + 1;
        if id % 37 != 0 {
            continue;
        }
        let mut pos = line.start.clone();
        for (ply, &mv) in line.moves.iter().enumerate() {
            let mut found = false;
            index
                .for_each(&store, key_of(pos.board_hash()), None, |_, e| {
                    found |= e.game == id;
                    !found
                })
                .unwrap();
            assert!(found, "game {id}, ply {ply}");
            pos.play(mv).unwrap();
        }
    }
    let entries: i64 = index.segments.iter().map(|s| s.entries).sum();
    assert_eq!(entries, total);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn big_files_read_in_parts_are_written_in_file_order() {
    // Files of about 100 KB (a long comment each): a worker hands over what it read of a
    // batch of 32 files every 256 KB, so a batch arrives in parts, from two workers.
    let (dir, mut store) = store("store-parts");
    let (files, names) = synth_files(&dir, 3, 40, |i, rec| {
        rec.start_comments
            .push(format!("{i} {}", "長考".repeat(17_000)));
    });
    let options = ImportOptions {
        jobs: Some(2),
        ..ImportOptions::default()
    };
    let summary = import_dir(&mut store, &files, &options).unwrap();
    assert_eq!((summary.games, summary.files), (40, 40));
    let stored: Vec<(i64, String, String)> = crate::util::sql(&store)
        .prepare(
            "SELECT g.id, s.path, g.comments ->> '$[0][2]' FROM games g
             JOIN sources s ON s.id = g.source_id ORDER BY g.id",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for (i, (id, path, comment)) in stored.iter().enumerate() {
        assert_eq!((*id, path), (i as i64 + 1, &names[i]));
        assert!(comment.starts_with(&format!("{i} 長考")), "game {id}");
    }
    assert_eq!(stored.len(), 40);

    // Read again: every file is unchanged, none is read.
    let again = import_dir(&mut store, &files, &options).unwrap();
    assert_eq!((again.games, again.unchanged, again.files), (0, 40, 40));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The log is copied into the database beside the writer (store::checkpoint), and started
/// again once the writer has written more than the import's limit to it: it stays near that
/// limit however much the import writes, however the checkpointer's thread is scheduled.
#[test]
fn the_log_stays_near_its_limit_while_an_import_writes_much_more() {
    let (dir, mut store) = store("store-log");
    let (files, _) = synth_files(&dir, 9, 6000, |_, _| {});
    let options = ImportOptions {
        batch_games: 25,
        segment_entries: 20_000,
        log_limit: 256 << 10,
        // Commits of 25 games: the recognised rows' name index would add some sixty
        // pages to each, a log overshoot this test is not about (imports commit 16,384).
        recognise: false,
        ..ImportOptions::default()
    };
    let summary = import_dir(&mut store, &files, &options).unwrap();
    assert_eq!(summary.games, 6000);
    // The log file keeps its largest size until the database is closed (the store is open).
    let wal = dir.join("db").join("kifudex.sqlite-wal");
    let largest = std::fs::metadata(&wal).map_or(0, |m| m.len());
    // The database's own size, whatever part of it the log still holds.
    let size: i64 = crate::util::sql(&store)
        .query_row(
            "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size",
            [],
            |r| r.get(0),
        )
        .unwrap();
    // Kept whole, the log would hold at least what the database holds. The writer copies the
    // rest itself at the commit that takes what it wrote past the limit: the log holds at
    // most the limit and that commit (25 games, or a segment of 20,000 postings, or the
    // indexes built at the end).
    assert!(size > 9 << 20, "the import wrote {size} bytes");
    assert!(largest > 0, "the import wrote through the log");
    assert!(
        largest < 3 << 20,
        "the log grew to {largest} bytes for a limit of 256 KB and {size} bytes written"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The position index a store keeps between questions follows the database: games this
/// store imports, and games another connection imports, are in the next answer.
#[test]
fn a_kept_position_index_follows_the_writes_of_any_connection() {
    use kifudex::query::PositionOptions;
    use kifudex::query::filter::GameFilter;
    use kifudex::query::tree::tree_filtered;
    use kifudex::shogi::Position;
    let (dir, mut store) = store("store-index-kept");
    let games = |store: &Store| {
        let o = PositionOptions::default();
        tree_filtered(store, &Position::startpos(), o, &GameFilter::default())
            .unwrap()
            .rows
            .iter()
            .map(|r| r.count)
            .sum::<u64>()
    };
    let batch = |seed: u64, n: usize| {
        let (files, _) = synth_files(&dir.join(format!("s{seed}")), seed, n, |_, _| {});
        files
    };
    // More games than are verified one by one: the tree counts from the index's columns.
    let options = ImportOptions::default();
    import_dir(&mut store, &batch(1, 1200), &options).unwrap();
    assert_eq!(games(&store), 1200);
    import_dir(&mut store, &batch(2, 300), &options).unwrap();
    assert_eq!(games(&store), 1500, "this store's own import");
    let mut other = Store::open(&dir.join("db")).unwrap();
    import_dir(&mut other, &batch(3, 200), &options).unwrap();
    assert_eq!(games(&store), 1700, "another connection's import");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file of many games goes to the writer in parts as it is read: every game is stored in
/// file order with its index, a problem names its game by its place in the whole file, the
/// source row counts them all, and the next import finds the file unchanged.
#[test]
fn a_file_of_many_games_is_written_in_parts() {
    let (dir, mut store) = store("store-parts");
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    let mut text = String::new();
    for i in 0..10 {
        // Game 6 moves a piece that is not there.
        let second = if i == 6 { "-5554FU" } else { "-3334FU" };
        text.push_str(&format!(
            "V2.2\nN+先手{i}\nN-後手{i}\nPI\n+\n+7776FU\n{second}\n+2726FU\n%TORYO\n/\n"
        ));
    }
    std::fs::write(files.join("many.csa"), &text).unwrap();
    let options = ImportOptions {
        source_part_games: 3,
        batch_games: 2,
        ..ImportOptions::default()
    };
    let summary = import_dir(&mut store, &files, &options).unwrap();
    assert_eq!((summary.games, summary.files, summary.errors), (10, 1, 1));
    let conn = crate::util::sql(&store);
    let rows: Vec<(i64, String)> = conn
        .prepare("SELECT g.game_index, p.name FROM games g JOIN players p ON p.id = g.sente_id ORDER BY g.id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let want: Vec<(i64, String)> = (0..10).map(|i| (i, format!("先手{i}"))).collect();
    assert_eq!(rows, want);
    let (games, format, hash): (i64, String, String) = conn
        .query_row("SELECT games, format, content_hash FROM sources", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    assert_eq!((games, format.as_str()), (10, "csa"));
    assert!(!hash.is_empty());
    let problem: Option<i64> = conn
        .query_row("SELECT game_index FROM import_errors", [], |r| r.get(0))
        .unwrap();
    assert_eq!(problem, Some(6));
    drop(conn);
    let again = import_dir(&mut store, &files, &options).unwrap();
    assert_eq!((again.games, again.unchanged), (0, 1));
    // As an import killed after a commit between two parts leaves it: the first games, and
    // the row as its first part wrote it. The next import reads the file again whole.
    {
        let conn = crate::util::sql(&store);
        conn.execute_batch(
            "UPDATE sources SET mtime = 0, content_hash = '', games = 0;
             DELETE FROM games WHERE game_index >= 5;",
        )
        .unwrap();
    }
    let again = import_dir(&mut store, &files, &options).unwrap();
    assert_eq!((again.games, again.unchanged, again.duplicates), (10, 0, 0));
    assert_eq!(store.game_count().unwrap(), 10);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Times whose running sums pass 2^64 (a damaged column; found by the `codecs` fuzz target)
/// are a damaged game, not an overflow.
#[test]
fn damaged_times_are_an_error_not_an_overflow() {
    let rec = read_kif("1 ７六歩(77)\n2 ３四歩(33)\n3 ２六歩(27)\n");
    let mut row = GameRow::new(&rec, Format::Kif);
    assert_eq!(kifudex::store::read_back(&row).unwrap().main, rec.main);
    // Moves 1 and 3 (one side's) each spent 2^64 − 2 ms.
    let max = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    let mut blob = vec![0u8];
    blob.extend(max);
    blob.push(1);
    blob.extend(max);
    row.times = Some(blob);
    let e = kifudex::store::read_back(&row).unwrap_err();
    assert_eq!(e.to_string(), "game 0 is damaged in the database: times");
}

/// The main lines a store keeps for replays are those of the database as it is: a change by
/// another connection is seen at the next question (which asks for the position index).
#[test]
fn kept_game_lines_follow_the_database() {
    let (dir, mut store) = store("store-kept-lines");
    let (files, _) = synth_files(&dir, 5, 3, |_, _| {});
    import_dir(&mut store, &files, &ImportOptions::default()).unwrap();
    store.position_index(false).unwrap();
    let before = store.kept_game_line(1).unwrap().unwrap();
    let other = store.game_line(2).unwrap().unwrap();
    assert_ne!(before.moves, other.moves);
    // Another connection gives game 1 the moves of game 2.
    crate::util::sql(&store)
        .execute(
            "UPDATE games SET moves = (SELECT moves FROM games WHERE id = 2) WHERE id = 1",
            [],
        )
        .unwrap();
    store.position_index(false).unwrap();
    let after = store.kept_game_line(1).unwrap().unwrap();
    assert_eq!(after.moves, other.moves);
    let _ = std::fs::remove_dir_all(&dir);
}
