//! `kifudex show ID --ply N --svg`: the picture is read back as XML (by a small reader
//! written here) and what it shows is compared with the position, written out by hand.

use std::collections::BTreeMap;

use crate::util::{Kifudex, TempDb};

// ---- a small XML reader: elements, attributes, text, the five entities ---------------------

#[derive(Debug)]
enum Node {
    El(El),
    Text(String),
}

#[derive(Debug)]
struct El {
    name: String,
    attrs: BTreeMap<String, String>,
    children: Vec<Node>,
}

impl El {
    fn attr(&self, k: &str) -> Option<&str> {
        self.attrs.get(k).map(String::as_str)
    }

    fn class(&self) -> &str {
        self.attr("class").unwrap_or("")
    }

    /// Every element below this one, depth first.
    fn all(&self) -> Vec<&El> {
        let mut out = Vec::new();
        for c in &self.children {
            if let Node::El(e) = c {
                out.push(e);
                out.extend(e.all());
            }
        }
        out
    }

    fn text(&self) -> String {
        self.children
            .iter()
            .map(|c| match c {
                Node::Text(t) => t.clone(),
                Node::El(e) => e.text(),
            })
            .collect()
    }

    fn with_class(&self, class: &str) -> Vec<&El> {
        self.all()
            .into_iter()
            .filter(|e| e.class() == class)
            .collect()
    }
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let end = rest[i..].find(';').expect("an entity ends with ;") + i;
        out.push(match &rest[i + 1..end] {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            e => panic!("unknown entity &{e};"),
        });
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The document's one root element; panics on anything not well formed.
fn parse_xml(doc: &str) -> El {
    let mut stack: Vec<El> = vec![El {
        name: String::new(),
        attrs: BTreeMap::new(),
        children: Vec::new(),
    }];
    let mut rest = doc;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            assert!(rest.trim().is_empty(), "text after the root: {rest:?}");
            break;
        };
        let text = &rest[..lt];
        assert!(!text.contains('>'), "a bare > in text: {text:?}");
        if !text.trim().is_empty() {
            stack
                .last_mut()
                .unwrap()
                .children
                .push(Node::Text(unescape(text)));
        }
        let gt = rest[lt..].find('>').expect("a tag ends with >") + lt;
        let tag = &rest[lt + 1..gt];
        rest = &rest[gt + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let el = stack.pop().expect("an open element");
            assert_eq!(el.name, name.trim(), "</{name}> closes <{}>", el.name);
            stack.last_mut().unwrap().children.push(Node::El(el));
            continue;
        }
        let (tag, closed) = match tag.strip_suffix('/') {
            Some(t) => (t, true),
            None => (tag, false),
        };
        let name_end = tag.find(char::is_whitespace).unwrap_or(tag.len());
        let mut el = El {
            name: tag[..name_end].to_string(),
            attrs: BTreeMap::new(),
            children: Vec::new(),
        };
        let mut a = tag[name_end..].trim_start();
        while !a.is_empty() {
            let eq = a.find('=').expect("name=\"value\"");
            let key = a[..eq].trim().to_string();
            let v = a[eq + 1..].strip_prefix('"').expect("a quoted value");
            let close = v.find('"').expect("a closing quote");
            assert!(!v[..close].contains('<'), "< in an attribute");
            let old = el.attrs.insert(key.clone(), unescape(&v[..close]));
            assert!(old.is_none(), "attribute {key} given twice");
            a = v[close + 1..].trim_start();
        }
        if closed {
            stack.last_mut().unwrap().children.push(Node::El(el));
        } else {
            stack.push(el);
        }
    }
    assert_eq!(stack.len(), 1, "unclosed <{}>", stack.last().unwrap().name);
    let mut roots: Vec<El> = stack
        .pop()
        .unwrap()
        .children
        .into_iter()
        .filter_map(|n| match n {
            Node::El(e) => Some(e),
            Node::Text(_) => None,
        })
        .collect();
    assert_eq!(roots.len(), 1, "one root element");
    roots.pop().unwrap()
}

// ---- the position written out by hand ------------------------------------------------------

/// The board of an SFEN: square (USI, `7g`) to piece (`P`, `+b`).
fn sfen_board(sfen: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let rows = sfen.split(' ').next().unwrap();
    for (r, row) in rows.split('/').enumerate() {
        let mut file = 9;
        let mut promoted = false;
        for c in row.chars() {
            if let Some(n) = c.to_digit(10) {
                file -= n;
            } else if c == '+' {
                promoted = true;
            } else {
                let rank = (b'a' + r as u8) as char;
                let p = if promoted {
                    format!("+{c}")
                } else {
                    c.to_string()
                };
                out.insert(format!("{file}{rank}"), p);
                file -= 1;
                promoted = false;
            }
        }
    }
    out
}

/// The kanji a diagram draws for a piece (either side).
fn kanji(piece: &str) -> &'static str {
    match piece.to_ascii_uppercase().as_str() {
        "P" => "歩",
        "L" => "香",
        "N" => "桂",
        "S" => "銀",
        "G" => "金",
        "B" => "角",
        "R" => "飛",
        "K" => "玉",
        "+P" => "と",
        "+L" => "杏",
        "+N" => "圭",
        "+S" => "全",
        "+B" => "馬",
        "+R" => "龍",
        p => panic!("no piece {p}"),
    }
}

const EVEN: &str = "開始日時：2024/01/02
棋戦：絵の試験
先手：甲田 一
後手：乙川 二
手合割：平手
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)
   3 ２二角成(88)
   4 同　銀(31)
   5 ４五角打
";

const HANDICAP: &str = "開始日時：2024/02/03
棋戦：駒落ちの試験
手合割：香落ち
上手：上田名人
下手：下山初段
手数----指手---------消費時間--
   1 ３四歩(33)
   2 ７六歩(77)
";

/// A database of the two games; their ids, even game first.
pub(crate) fn games(dir: &TempDb) -> (std::path::PathBuf, i64, i64) {
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(files.join("a-even.kifu"), EVEN).unwrap();
    std::fs::write(files.join("b-handicap.kifu"), HANDICAP).unwrap();
    let db = dir.join("db");
    let games = crate::util::import_and_list(&db, &files);
    assert_eq!(games.len(), 2, "{games:?}");
    let id = |event: &str| {
        games
            .iter()
            .find(|g| g["event"] == event)
            .unwrap_or_else(|| panic!("{games:?}"))["id"]
            .as_i64()
            .unwrap()
    };
    (db, id("絵の試験"), id("駒落ちの試験"))
}

fn svg(db: &std::path::Path, id: i64, ply: &str) -> String {
    Kifudex::new()
        .db(db)
        .args(["show", &id.to_string(), "--ply", ply, "--svg"])
        .output()
        .success()
        .stdout
}

/// Each piece drawn: square to (piece, kanji, turned upside down); checks on the way that
/// every piece stands where its square is drawn (one column per file, one row per rank).
fn pieces(root: &El) -> BTreeMap<String, (String, String, bool)> {
    let mut out = BTreeMap::new();
    let mut origin: Option<(i64, i64)> = None;
    for g in root.with_class("piece") {
        let sq = g.attr("data-square").unwrap().to_string();
        let piece = g.attr("data-piece").unwrap().to_string();
        let turned = g
            .attr("transform")
            .is_some_and(|t| t.starts_with("rotate(180 "));
        let text = g.all().into_iter().find(|e| e.name == "text").unwrap();
        let file = i64::from(sq.as_bytes()[0] - b'0');
        let rank = i64::from(sq.as_bytes()[1] - b'a' + 1);
        let x: i64 = text.attr("x").unwrap().parse().unwrap();
        let y: i64 = text.attr("y").unwrap().parse().unwrap();
        // x falls by a square's width per file, y grows by one per rank.
        let o = (x + file * 48, y - rank * 48);
        assert_eq!(
            *origin.get_or_insert(o),
            o,
            "{sq} drawn out of its column or row"
        );
        assert_eq!(g.attr("data-side").unwrap() == "gote", turned, "{sq}");
        out.insert(sq, (piece, text.text(), turned));
    }
    out
}

/// What the picture must show of a board: each piece's kanji, gote's upside down.
fn expected(sfen: &str) -> BTreeMap<String, (String, String, bool)> {
    sfen_board(sfen)
        .into_iter()
        .map(|(sq, p)| {
            let gote = p.chars().last().unwrap().is_ascii_lowercase();
            let k = kanji(&p).to_string();
            (sq, (p, k, gote))
        })
        .collect()
}

fn hand<'a>(root: &'a El, side: &str) -> (&'a str, String) {
    let h = root
        .with_class("hand")
        .into_iter()
        .find(|e| e.attr("data-side") == Some(side))
        .unwrap();
    (h.attr("data-hand").unwrap(), h.text())
}

#[test]
fn the_board_after_a_bishop_exchange_is_drawn_exactly() {
    let dir = TempDb::new("picture-even");
    let (db, id, _) = games(&dir);
    let doc = svg(&db, id, "4");
    let root = parse_xml(&doc);
    assert_eq!(root.name, "svg");
    assert_eq!(root.attr("xmlns"), Some("http://www.w3.org/2000/svg"));
    let sfen = "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5";
    assert_eq!(root.attr("data-sfen"), Some(sfen));
    let got = pieces(&root);
    assert_eq!(got.len(), 38);
    assert_eq!(got, expected(sfen));
    // Gote's silver took on 2b: upside down; sente's rook on 2h upright.
    assert_eq!(got["2b"], ("s".into(), "銀".into(), true));
    assert_eq!(got["2h"], ("R".into(), "飛".into(), false));
    // One bishop in each hand.
    assert_eq!(hand(&root, "sente"), ("B1", "☗角".to_string()));
    assert_eq!(hand(&root, "gote"), ("B1", "☖角".to_string()));
    // The last move (同銀) is marked on 2b alone.
    let last: Vec<&str> = root
        .with_class("last-move")
        .iter()
        .map(|e| e.attr("data-square").unwrap())
        .collect();
    assert_eq!(last, ["2b"]);
    // The coordinates: files ９ to １ left to right, ranks 一 to 九 top to bottom.
    let files: String = root.with_class("file").iter().map(|e| e.text()).collect();
    let ranks: String = root.with_class("rank").iter().map(|e| e.text()).collect();
    assert_eq!(files, "９８７６５４３２１");
    assert_eq!(ranks, "一二三四五六七八九");
    let players: Vec<String> = root.with_class("player").iter().map(|e| e.text()).collect();
    assert_eq!(players, ["☖後手 乙川 二", "☗先手 甲田 一"]);
    let caption: Vec<String> = root
        .with_class("caption")
        .iter()
        .map(|e| e.text())
        .collect();
    assert_eq!(caption, ["4手目 ☖２二銀まで"]);

    // One more move: the bishop dropped on 4e leaves sente's hand empty.
    let root = parse_xml(&svg(&db, id, "5"));
    let got = pieces(&root);
    assert_eq!(got["4e"], ("B".into(), "角".into(), false));
    assert_eq!(hand(&root, "sente"), ("", "☗なし".to_string()));
    assert_eq!(hand(&root, "gote"), ("B1", "☖角".to_string()));

    // The start: every piece of the even start, nothing marked.
    let root = parse_xml(&svg(&db, id, "0"));
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    assert_eq!(pieces(&root), expected(start));
    assert!(root.with_class("last-move").is_empty());
    assert_eq!(
        root.with_class("caption")[0].text(),
        "開始局面",
        "the start's caption"
    );
}

#[test]
fn a_handicap_game_names_its_sides_shitate_and_uwate() {
    let dir = TempDb::new("picture-handicap");
    let (db, _, id) = games(&dir);
    let root = parse_xml(&svg(&db, id, "1"));
    let players: Vec<String> = root.with_class("player").iter().map(|e| e.text()).collect();
    assert_eq!(players, ["☖上手 上田名人", "☗下手 下山初段"]);
    // 香落ち: 上手's lance on 1a is gone; 上手 moved first (３四歩).
    let sfen = "lnsgkgsn1/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2";
    assert_eq!(root.attr("data-sfen"), Some(sfen));
    assert_eq!(pieces(&root), expected(sfen));
    assert_eq!(root.with_class("caption")[0].text(), "1手目 ☖３四歩まで");
}

#[test]
fn the_picture_goes_to_a_file_and_a_ply_past_the_end_is_an_error() {
    let dir = TempDb::new("picture-file");
    let (db, id, _) = games(&dir);
    let file = dir.join("board.svg");
    let out = Kifudex::new()
        .db(&db)
        .args(["show", &id.to_string(), "--ply", "3", "--svg", "-o"])
        .args([file.as_os_str()])
        .output()
        .success();
    assert_eq!(out.stdout, "");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), svg(&db, id, "3"));
    // Without --ply: after the last move.
    let last = Kifudex::new()
        .db(&db)
        .args(["show", &id.to_string(), "--svg"])
        .output()
        .success()
        .stdout;
    assert_eq!(last, svg(&db, id, "5"));
    let (code, _, err) = Kifudex::new()
        .db(&db)
        .args(["show", &id.to_string(), "--ply", "6", "--svg"])
        .output()
        .parts();
    assert_eq!(code, 1);
    assert_eq!(
        err.trim(),
        format!("kifudex: game {id} has 5 moves: there is no ply 6")
    );
}
