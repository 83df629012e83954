//! `kifudex find` as a user runs it, on the collection of this module's own records: the
//! table, JSON Lines, CSV and count outputs, --explain, --like, and a query it cannot read.

use crate::util::{Kifudex, TempDb};

use super::OWN;

/// The records imported from a folder named relative to the run's directory (so that the
/// paths shown are short and the same every time).
fn collection() -> TempDb {
    let dir = TempDb::new("find-cli");
    std::fs::create_dir_all(dir.join("files")).unwrap();
    for (name, text) in OWN {
        std::fs::write(dir.join("files").join(name), text).unwrap();
    }
    Kifudex::new()
        .current_dir(&dir)
        .db(dir.join("db"))
        .args(["import", "files"])
        .output()
        .success();
    dir
}

fn find(dir: &TempDb, args: &[&str]) -> (i32, String, String) {
    let mut a = vec!["find"];
    a.extend_from_slice(args);
    Kifudex::new()
        .current_dir(dir)
        .db(dir.join("db"))
        .args(&a)
        .output()
        .parts()
}

#[test]
fn table_json_csv_and_count() {
    let dir = collection();
    let (code, out, err) = find(&dir, &["▲舟囲い"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "id  date  sente  gote  winner  ply  plies  event  opening        file\n\
         2                              5    12            その他の戦型*  files/castles.usi\n\
         * opening recognised from the moves (the record has no 戦型 header)\n\
         1 of 1 game\n"
    );
    let (code, out, _) = find(&dir, &["▲舟囲い or △金無双", "--all"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "id  date  sente  gote  winner  at    plies  event  opening        file\n\
         2                              5-12  12            その他の戦型*  files/castles.usi\n\
         * opening recognised from the moves (the record has no 戦型 header)\n\
         1 of 1 game, 8 positions\n"
    );
    let (_, out, _) = find(&dir, &["▲舟囲い", "--all", "--json"]);
    assert_eq!(
        out,
        "{\"id\":2,\"file\":\"files/castles.usi\",\"game_index\":0,\"date\":null,\"sente\":null,\"gote\":null,\"event\":null,\"opening\":\"その他の戦型\",\"plies\":12,\"winner\":null,\"handicap\":\"平手\",\"terminal\":null,\"incomplete\":false,\"recognised\":\"その他の戦型\",\"label_source\":\"moves\",\"ply\":5,\"matches\":[[5,10]]}\n\
         {\"total\":1,\"positions\":6}\n"
    );
    let (_, out, _) = find(&dir, &["last x", "--all", "--csv"]);
    assert_eq!(
        out,
        "id,date,sente,gote,winner,at,plies,event,opening,file,label_source\n\
         3,,,,,\"3-4,12-13,15\",15,,一手損角換わり,files/drops.usi,moves\n"
    );
    let (_, out, _) = find(&dir, &["持駒 ▲角", "--count"]);
    assert_eq!(out, "1 game\n");
    let (_, out, _) = find(&dir, &["持駒 ▲角", "--count", "--all", "--json"]);
    assert_eq!(out, "{\"total\":1,\"positions\":4}\n");
    // The filter: no game of the collection has a player.
    let (code, out, _) = find(&dir, &["▲舟囲い", "--player", "羽生"]);
    assert_eq!((code, out.as_str()), (0, "0 of 0 games\n"));
}

#[test]
fn explain_and_errors() {
    let dir = collection();
    let (code, out, _) = find(&dir, &["直前 打 and not 王手", "--explain"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "all of:\n  the last move was a drop (打)\n  not: the last move was giving check (王手)\n\
         id  date  sente  gote  winner  ply  plies  event  opening          file\n\
         3                              14   15            一手損角換わり*  files/drops.usi\n\
         * opening recognised from the moves (the record has no 戦型 header)\n\
         1 of 1 game\n"
    );
    let (code, out, err) = find(&dir, &["▲美野囲い"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "kifudex: cannot read the query: column 2: expected a piece (歩 … 龍, pawn … dragon), a castle or strategy name, 番 or \"to move\" after the side, found \"美野囲い\"; did you mean \"美濃囲い\"?\n  ▲美野囲い\n   ^^^^^^^^\n"
    );
    let (code, _, err) = find(&dir, &["▲舟囲い", "--winner", "x"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "kifudex: --winner \"x\": give sente, gote, draw (先手, 後手, 引き分け) or player\n"
    );
}

#[test]
fn like_lists_the_squares_that_differ() {
    let dir = collection();
    let (code, out, _) = find(
        &dir,
        &[
            "--like",
            "startpos moves 7g7f 3c3d 8h2b+",
            "--diff",
            "2",
            "--ignore-hands",
        ],
    );
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "id  date  sente  gote  ply  plies  diff  squares                                    file\n\
         3                      3    15     0                                                files/drops.usi\n\
         1                      3    16     2     ２二 △角 (given ▲馬), ７七 ▲角 (given ・)  files/anaguma.usi\n\
         2 of 2 games (2 positions near enough)\n"
    );
    let (_, out, _) = find(
        &dir,
        &[
            "--like",
            "startpos moves 7g7f 3c3d 8h2b+",
            "--diff",
            "2",
            "--ignore-hands",
            "--json",
            "--limit",
            "1",
        ],
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].ends_with("\"ply\":3,\"diff\":0,\"squares\":[]}"),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], "{\"total\":2,\"positions\":2}");
    // The hands compared: the game whose sente has no bishop in hand is not near.
    let (_, out, _) = find(
        &dir,
        &[
            "--like",
            "startpos moves 7g7f 3c3d 8h2b+",
            "--diff",
            "2",
            "--count",
        ],
    );
    assert_eq!(out, "1 game, 1 position\n");
    let (_, out, _) = find(&dir, &["--like", "startpos", "--diff", "2", "--all"]);
    assert_eq!(
        out,
        "id  date  sente  gote  ply  plies  diff  squares  file\n\
         1                      0    16     0              files/anaguma.usi\n\
         2                      0    12     0              files/castles.usi\n\
         3                      0    15     0              files/drops.usi\n\
         3 of 3 positions, in 3 games\n"
    );
}
