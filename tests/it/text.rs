//! The full-text index: the tokenizer's tokens, `kifudex text` on Japanese and Latin queries
//! (substrings, one character, phrases, AND/NOT, fields, engine lines only when asked, the
//! documented false match across word boundaries), repair after an import killed between
//! the database commit and the index commit, `reindex`, and the rebuild of an index built
//! with another version.

use std::path::{Path, PathBuf};

use crate::util::{Kifudex, TempDb};
use kifudex::text::tokenizer::{Mode, tokenize};
use kifudex::text::{GameText, SearchOptions, TextDoc, TextField, TextIndex, documents};
use serde_json::Value;

fn tokens(text: &str, mode: Mode) -> Vec<(String, usize)> {
    tokenize(text, mode)
        .into_iter()
        .map(|t| (t.text, t.position))
        .collect()
}

fn owned(v: &[(&str, usize)]) -> Vec<(String, usize)> {
    v.iter().map(|&(t, p)| (t.to_string(), p)).collect()
}

#[test]
fn a_game_makes_one_document_and_one_per_commented_position() {
    let s = |t: &str| t.to_string();
    let game = GameText {
        id: 7,
        sente: Some(s("羽生善治")),
        gote: Some(s("藤井聡太")),
        player_ids: [Some(1), Some(2)],
        event: Some(s("第1期竜王戦")),
        opening: Some(s("四間飛車")),
        recognised: vec![
            s("四間飛車").into(),
            s("振り飛車").into(),
            s("美濃囲い").into(),
        ],
        title: Some(s("  ")),
        headers: vec![
            (s("先手"), s("羽生善治")),
            (s("棋戦"), s("第1期竜王戦")),
            (s("場所"), s("東京都")),
            (s("SITE"), s("Tokyo")),
            (s("備考"), s("東京都")),
            (s("手合割"), s("平手")),
            (s("持ち時間"), s("")),
        ],
        comments: vec![
            (0, 2, s("棋譜提供")),
            (3, 0, s("定跡")),
            (3, 1, s("評価値 +50")),
            (3, 0, s("急戦")),
            (5, 0, s(" ")),
            (8, 3, s("メモ")),
        ],
    };
    let doc = |ply: Option<i64>, fields: &[(TextField, &str)]| TextDoc {
        ply,
        fields: fields.iter().map(|&(f, t)| (f, t.to_string())).collect(),
    };
    assert_eq!(
        documents(&game),
        vec![
            // A blank title is no field; a value already in a field above is not a header
            // value again (the site's values included); the values keep their file order.
            // The recognised names follow the header's opening, which is not repeated.
            doc(
                None,
                &[
                    (TextField::Players, "羽生善治 / 藤井聡太"),
                    (TextField::Event, "第1期竜王戦"),
                    (TextField::Opening, "四間飛車 / 振り飛車 / 美濃囲い"),
                    (TextField::Site, "東京都 / Tokyo"),
                    (TextField::Header, "平手 / "),
                ],
            ),
            doc(Some(0), &[(TextField::Remark, "棋譜提供")]),
            // Comments of one ply joined by line, engine lines in their own field.
            doc(
                Some(3),
                &[
                    (TextField::Comment, "定跡\n急戦"),
                    (TextField::Engine, "評価値 +50")
                ],
            ),
            // A blank comment makes no document; an unknown kind counts as a remark.
            doc(Some(8), &[(TextField::Remark, "メモ")]),
        ]
    );
}

#[test]
fn full_width_ascii_and_japanese_punctuation_tokenize_as_their_folded_forms() {
    let chars = (0xFF01..=0xFF5E)
        .chain(0x3000..=0x303F)
        .chain([0x30FB])
        .filter_map(char::from_u32);
    for c in chars {
        for mode in [Mode::Index, Mode::Query] {
            let text = format!("銀{c}Ab7将{c}{c}");
            let folded = kifudex::normalize::fold(&text);
            assert_eq!(
                tokens(&text, mode),
                tokens(&folded, mode),
                "{c} (U+{:04X})",
                c as u32
            );
        }
    }
}

#[test]
fn tokenizer_units_bigrams_and_positions() {
    assert_eq!(
        tokens("右四間", Mode::Index),
        owned(&[("右", 0), ("右四", 1), ("四", 2), ("四間", 3), ("間", 4)])
    );
    // A query keeps the bigrams, and a unigram only where no bigram covers it.
    assert_eq!(
        tokens("四間飛車", Mode::Query),
        owned(&[("四間", 1), ("間飛", 3), ("飛車", 5)])
    );
    assert_eq!(tokens("銀", Mode::Query), owned(&[("銀", 0)]));
    // Folded: width, case, katakana; Latin words stay words; punctuation ends a run.
    assert_eq!(
        tokens("ＧＰＳ将棋。ボナ", Mode::Query),
        owned(&[("gps", 0), ("将棋", 3), ("ぼな", 7)])
    );
    // Half-width kana with a voicing mark folds to one character.
    assert_eq!(tokens("ｶﾞ", Mode::Index), owned(&[("が", 0)]));
    // Offsets point into the original text (for snippets).
    let t = tokenize("ａ銀", Mode::Index);
    assert_eq!((t[1].offset_from, t[1].offset_to), (3, 6));
}

/// A KIF game: a unique date, headers, four moves, and `(ply, line)` comment lines (`*…`
/// a comment, `**…` an engine line).
fn kif(date: &str, headers: &[(&str, &str)], comments: &[(usize, &str)]) -> String {
    let mut s = format!("開始日時：{date}\n");
    for (k, v) in headers {
        s.push_str(&format!("{k}：{v}\n"));
    }
    s.push_str("手数----指手---------消費時間--\n");
    let moves = ["７六歩(77)", "３四歩(33)", "２六歩(27)", "８四歩(83)"];
    for (_, line) in comments.iter().filter(|(p, _)| *p == 0) {
        s.push_str(&format!("{line}\n"));
    }
    for (i, m) in moves.iter().enumerate() {
        s.push_str(&format!("{:>4} {m}\n", i + 1));
        for (_, line) in comments.iter().filter(|(p, _)| *p == i + 1) {
            s.push_str(&format!("{line}\n"));
        }
    }
    s.push_str("   5 投了\n");
    s
}

/// Four games in `root/games`: a.kif (1), b.kif (2), c.kif (3), d.kif (4).
fn corpus(root: &Path) -> PathBuf {
    let dir = root.join("games");
    std::fs::create_dir_all(&dir).unwrap();
    let files = [
        (
            "a.kif",
            kif(
                "2020/01/01",
                &[
                    ("棋戦", "第1期テスト戦"),
                    ("戦型", "右四間飛車"),
                    ("先手", "羽生善治"),
                    ("後手", "Bonanza"),
                ],
                &[
                    (2, "*先手が有利な展開。銀が前に出る。"),
                    (3, "**読み筋 ▲２五歩 評価値 +300"),
                ],
            ),
        ),
        (
            "b.kif",
            kif(
                "2020/01/02",
                &[
                    ("棋戦", "Floodgate 2020"),
                    ("戦型", "角交換四間飛車"),
                    ("先手", "GPS将棋"),
                    ("後手", "藤井聡太"),
                    ("場所", "東京・将棋会館"),
                ],
                &[(1, "*先手有利の定跡。")],
            ),
        ),
        (
            "c.kif",
            kif(
                "2020/01/03",
                &[("棋戦", "順位戦"), ("戦型", "矢倉"), ("先手", "木村一基")],
                &[(4, "*会場に到着手前で雨が降った。")],
            ),
        ),
        (
            "d.kif",
            kif(
                "2020/01/04",
                &[("棋戦", "王位戦"), ("戦型", "相掛かり")],
                &[(0, "*着手の前に一礼。"), (2, "*矢倉模様の駒組み。")],
            ),
        ),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

fn upgrade(db: &Path) {
    let o = Kifudex::new().db(db).args(&["upgrade"]).output();
    assert!(o.status.success(), "{}", o.stderr);
}

/// The folder of the database's current text index.
fn text_dir(db: &Path) -> std::path::PathBuf {
    kifudex::text::generation::current(&db.join("text"))
}

fn import(db: &Path, dir: &Path) {
    let o = Kifudex::new()
        .db(db)
        .args(&["import", dir.to_str().unwrap()])
        .output();
    assert!(o.status.success(), "{}", o.stderr);
}

fn hits(db: &Path, query: &str, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["text", query, "--json"];
    args.extend_from_slice(extra);
    let o = Kifudex::new().db(db).args(&args).output();
    assert!(o.status.success(), "{query}: {}", o.stderr);
    o.json_lines()
}

/// `(id, ply)` of every hit, sorted.
fn found(db: &Path, query: &str, extra: &[&str]) -> Vec<(i64, Option<i64>)> {
    let mut v: Vec<_> = hits(db, query, extra)
        .iter()
        .map(|h| (h["id"].as_i64().unwrap(), h["ply"].as_i64()))
        .collect();
    v.sort();
    v
}

#[test]
fn japanese_and_latin_queries() {
    let root = TempDb::new("text-queries");
    let db = root.join("db");
    import(&db, &corpus(&root));

    // Part of a word: 四間飛車 in 右四間飛車 and 角交換四間飛車 (the games' headers).
    assert_eq!(found(&db, "四間飛車", &[]), vec![(1, None), (2, None)]);
    // One character.
    assert_eq!(found(&db, "銀", &[]), vec![(1, Some(2))]);
    // Words are ANDed wherever they are in a document; a phrase must be as written.
    assert_eq!(
        found(&db, "先手 有利", &[]),
        vec![(1, Some(2)), (2, Some(1))]
    );
    assert_eq!(found(&db, "\"先手有利\"", &[]), vec![(2, Some(1))]);
    assert_eq!(found(&db, "先手有利", &[]), vec![(2, Some(1))]);
    // AND / OR / NOT.
    assert_eq!(found(&db, "先手 AND 銀", &[]), vec![(1, Some(2))]);
    assert_eq!(found(&db, "先手 NOT 銀", &[]), vec![(2, Some(1))]);
    assert_eq!(
        found(&db, "銀 OR 雨", &[]),
        vec![(1, Some(2)), (3, Some(4))]
    );
    // Fields: 矢倉 is the opening of game 3 and a comment of game 4.
    assert_eq!(found(&db, "矢倉", &[]), vec![(3, None), (4, Some(2))]);
    assert_eq!(found(&db, "opening:矢倉", &[]), vec![(3, None)]);
    assert_eq!(found(&db, "comment:矢倉", &[]), vec![(4, Some(2))]);
    assert_eq!(found(&db, "players:藤井", &[]), vec![(2, None)]);
    assert_eq!(found(&db, "site:東京", &[]), vec![(2, None)]);
    // Latin words, folded: case and full width do not matter.
    assert_eq!(found(&db, "floodgate", &[]), vec![(2, None)]);
    assert_eq!(found(&db, "ＢＯＮＡＮＺＡ", &[]), vec![(1, None)]);
    assert_eq!(found(&db, "gps", &[]), vec![(2, None)]);
    // Engine lines only when asked.
    assert!(found(&db, "読み筋", &[]).is_empty());
    assert_eq!(found(&db, "読み筋", &["--engine"]), vec![(1, Some(3))]);
    assert_eq!(found(&db, "engine:評価値", &[]), vec![(1, Some(3))]);
    // The documented false match: substrings do not see word boundaries, so 着手 also
    // finds 到着手前 (到着 + 手前).
    assert_eq!(found(&db, "着手", &[]), vec![(3, Some(4)), (4, Some(0))]);

    // The hit's fields, by the names of the JSON output (docs/commands.md).
    let h = &hits(&db, "銀", &[])[0];
    assert_eq!(h["id"], 1);
    assert!(h["file"].as_str().unwrap().ends_with("a.kif"));
    assert_eq!(h["game_index"], 0);
    assert_eq!(h["ply"], 2);
    assert_eq!(h["field"], "comment");
    assert_eq!(h["snippet"], "先手が有利な展開。[銀]が前に出る");
    assert!(h["score"].as_f64().unwrap() > 0.0);
    let h = &hits(&db, "四間飛車", &["--limit", "1"]);
    assert_eq!(h.len(), 1);
    assert_eq!(h[0]["ply"], Value::Null);
    assert_eq!(h[0]["field"], "opening");

    // The table marks matches with [] when not on a terminal.
    let o = Kifudex::new().db(&db).args(&["text", "四間飛車"]).output();
    assert!(o.stdout.contains("右[四間飛車]"), "{}", o.stdout);
    assert!(o.stdout.contains("2 hits"));
    // A query that cannot be read is bad usage.
    let o = Kifudex::new().db(&db).args(&["text", "opening:"]).output();
    assert_eq!(o.status.code(), Some(2), "{}", o.stderr);
    // stats counts the index.
    let o = Kifudex::new().db(&db).args(&["stats", "--json"]).output();
    let s: Value = serde_json::from_str(o.stdout.trim()).unwrap();
    assert!(s["text_bytes"].as_u64().unwrap() > 0);
    assert!(s["bytes"].as_u64().unwrap() > s["text_bytes"].as_u64().unwrap());
}

/// Game ids of the index's own hits, without the database's filtering.
fn raw_ids(db: &Path, query: &str) -> Vec<i64> {
    let index = TextIndex::open_read(&db.join("text")).unwrap();
    let (hits, _) = index
        .search(&SearchOptions {
            query: query.into(),
            limit: 100,
            engine: true,
            games: None,
            players: None,
        })
        .unwrap();
    let mut ids: Vec<i64> = hits.into_iter().map(|h| h.id).collect();
    ids.sort();
    ids.dedup();
    ids
}

fn copy_dir(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

#[test]
fn an_index_left_behind_by_a_killed_import_is_repaired() {
    let root = TempDb::new("text-repair");
    let db = root.join("db");
    let games = corpus(&root);
    let later = root.join("later");
    std::fs::create_dir_all(&later).unwrap();
    std::fs::rename(games.join("d.kif"), later.join("d.kif")).unwrap();
    import(&db, &games);
    // The index as it was before the second import: an import killed after its database
    // commit and before its index commit leaves exactly this.
    let saved = root.join("saved-text");
    copy_dir(&db.join("text"), &saved);
    import(&db, &later);
    // A changed file (of another size: an import within the same second as the last one
    // sees a file of the same size and time as unchanged): its old game (3) is deleted, a
    // new one (5) added.
    let c = games.join("c.kif");
    let text = std::fs::read_to_string(&c)
        .unwrap()
        .replace("順位戦", "第1期竜王戦")
        .replace("2020/01/03", "2020/02/03");
    std::fs::write(&c, text).unwrap();
    import(&db, &games);
    // With the index in step, the import itself takes game 3's documents out.
    assert_eq!(raw_ids(&db, "到着手前"), vec![5]);
    assert!(raw_ids(&db, "順位戦").is_empty());
    copy_dir(&saved, &db.join("text"));
    assert_eq!(raw_ids(&db, "到着手前"), vec![3]);

    // A read answers from the index as it is and says it is behind; the next command that
    // writes catches up: game 4 and game 5 are found, game 3 is gone.
    let o = Kifudex::new()
        .db(&db)
        .args(&["text", "相掛かり", "--json"])
        .output();
    assert!(o.status.success(), "{}", o.stderr);
    assert_eq!(
        o.stderr,
        "kifudex: note: the text index is behind the database by about 1 games: `kifudex upgrade` brings it up to date\n"
    );
    upgrade(&db);
    assert_eq!(found(&db, "相掛かり", &[]), vec![(4, None)]);
    assert_eq!(found(&db, "到着手前", &[]), vec![(5, Some(4))]);
    assert_eq!(raw_ids(&db, "到着手前"), vec![5]);
    assert!(found(&db, "順位戦", &[]).is_empty());

    // Losing the index's commit marker loses the index: a read says so, the upgrade builds
    // it again.
    std::fs::remove_file(db.join("text").join("meta.json")).unwrap();
    let o = Kifudex::new().db(&db).args(&["text", "四間飛車"]).output();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        o.stderr.contains("no text index yet") && o.stderr.contains("`kifudex upgrade` builds it"),
        "{}",
        o.stderr
    );
    upgrade(&db);
    assert_eq!(found(&db, "四間飛車", &[]), vec![(1, None), (2, None)]);
    assert_eq!(found(&db, "到着手前", &[]), vec![(5, Some(4))]);
}

#[test]
fn reindex_and_version_mismatch_rebuild() {
    let root = TempDb::new("text-reindex");
    let db = root.join("db");
    import(&db, &corpus(&root));

    let o = Kifudex::new().db(&db).args(&["reindex", "--json"]).output();
    assert!(o.status.success(), "{}", o.stderr);
    let r: Value = serde_json::from_str(o.stdout.trim()).unwrap();
    assert_eq!(r["games"], 4);
    assert_eq!(found(&db, "四間飛車", &[]), vec![(1, None), (2, None)]);

    // The rebuilt index is a generation of its own, named the current one.
    assert_eq!(text_dir(&db), db.join("text").join("g1"));
    // An index recorded with another schema or tokenizer version is not read: the answer
    // names the upgrade, which builds it again.
    let meta = text_dir(&db).join("meta.json");
    let text = std::fs::read_to_string(&meta).unwrap();
    assert!(text.contains("tokenizer 1"), "{text}");
    std::fs::write(&meta, text.replace("tokenizer 1", "tokenizer 0")).unwrap();
    let o = Kifudex::new()
        .db(&db)
        .args(&["text", "矢倉", "--json"])
        .output();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        o.stderr.contains("tokenizer 0") && o.stderr.contains("`kifudex upgrade` builds it again"),
        "{}",
        o.stderr
    );
    upgrade(&db);
    let o = Kifudex::new()
        .db(&db)
        .args(&["text", "矢倉", "--json"])
        .output();
    assert!(o.status.success(), "{}", o.stderr);
    assert_eq!(o.stderr, "");
    assert_eq!(o.json_lines().len(), 2);
    let text = std::fs::read_to_string(text_dir(&db).join("meta.json")).unwrap();
    assert!(text.contains("tokenizer 1"), "{text}");
}

/// `kifudex optimize` merges the text index into one segment; searches find the same.
#[test]
fn optimize_merges_the_text_index() {
    let root = TempDb::new("text-optimize");
    let db = root.join("db");
    let games = corpus(&root);
    let later = root.join("later");
    std::fs::create_dir_all(&later).unwrap();
    // The second import adds a segment of its own.
    let moved = std::fs::read_dir(&games)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::rename(&moved, later.join(moved.file_name().unwrap())).unwrap();
    for dir in [&games, &later] {
        let out = Kifudex::new()
            .db(&db)
            .args(&["import", dir.to_str().unwrap()])
            .output();
        assert!(out.status.success(), "{}", out.stderr);
    }
    let before = found(&db, "四間飛車", &[]);
    assert!(!before.is_empty());
    let out = Kifudex::new().db(&db).args(&["optimize"]).output();
    assert!(out.status.success(), "{}", out.stderr);
    assert!(
        out.stdout.contains("text index: 2 segments -> 1;"),
        "{}",
        out.stdout
    );
    assert_eq!(found(&db, "四間飛車", &[]), before);
    let out = Kifudex::new().db(&db).args(&["optimize"]).output();
    assert!(
        out.stdout.contains("text index: 1 segment -> 1;"),
        "{}",
        out.stdout
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// Text search beside a reindex: while `reindex` builds new generations of the index one
/// after another, every `text` query answers, in full, what it answered before (the readers
/// keep the generation they opened until the new one is complete). However the two
/// interleave, no answer may be empty, partial or an error.
#[test]
fn text_queries_beside_reindexes_answer_in_full() {
    let root = TempDb::new("text-beside-reindex");
    let db = root.join("db");
    let out = Kifudex::new()
        .db(&db)
        .args(["import", "sample_db/"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let ask = |db: &Path| {
        Kifudex::new()
            .db(db)
            .args(["text", "序盤", "--limit", "1000", "--json"])
            .output()
    };
    let before = ask(&db);
    assert!(before.status.success(), "{}", before.stderr);
    assert!(before.stdout.lines().count() > 3, "{}", before.stdout);
    let reindexing = std::sync::atomic::AtomicBool::new(true);
    let answers = std::thread::scope(|s| {
        let writer = s.spawn(|| {
            for _ in 0..6 {
                let o = Kifudex::new().db(&db).args(["reindex"]).output();
                assert!(o.status.success(), "{}", o.stderr);
            }
            reindexing.store(false, std::sync::atomic::Ordering::SeqCst);
        });
        let mut answers = Vec::new();
        while reindexing.load(std::sync::atomic::Ordering::SeqCst) || answers.len() < 5 {
            answers.push(ask(&db));
        }
        writer.join().unwrap();
        answers
    });
    for (i, a) in answers.iter().enumerate() {
        assert!(a.status.success(), "query {i}: {}", a.stderr);
        assert_eq!(a.stdout, before.stdout, "query {i}");
    }
}

/// The games the index reads again by id (revised games, games it lacks) are those it reads
/// by range: every id asked for that is stored, once, in id order, with nothing else, over
/// lists longer than one statement's share.
#[test]
fn games_read_by_id_are_the_games_read_by_range() {
    use kifudex::text::TextSource;
    let (dir, _) = crate::evals_db::generated("text_by_id", 1_205, 41);
    let store = kifudex::store::Store::open_read_only(&dir.join("db")).unwrap();
    let one = |id: i64| store.text_games(id - 1, id, 1).unwrap();
    let all = store.text_games(0, i64::MAX, usize::MAX).unwrap();
    assert_eq!(all.len(), 1_205);
    assert!(all.iter().any(|g| !g.comments.is_empty()));
    // Every third id, from before the first to past the last (0 and 1,207 are not games).
    let ids: Vec<i64> = (0..=1_207).filter(|i| i % 3 != 1).collect();
    let got = store.text_games_of(&ids).unwrap();
    let want: Vec<GameText> = ids.iter().flat_map(|&id| one(id)).collect();
    assert_eq!(want.len(), 803);
    let ids_of = |games: &[GameText]| games.iter().map(|g| g.id).collect::<Vec<_>>();
    assert_eq!(ids_of(&got), ids_of(&want));
    assert_eq!(got, want);
    assert_eq!(store.text_games_of(&[]).unwrap(), Vec::<GameText>::new());
    assert_eq!(store.text_games_of(&[1_205]).unwrap(), one(1_205));
}
