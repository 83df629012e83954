//! What the test modules share, in the manner of ripgrep's `tests/util.rs`: a scratch
//! directory per test ([`TempDb`]), one way to run the binary ([`Kifudex`]), the random
//! generator ([`Rng`]), the walk over the shared corpus ([`corpus`]), the USI helpers and the
//! fixtures more than one module reads. No test module borrows from another; they all come
//! here.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use std::collections::HashSet;

use kifudex::notation::csa::read_csa;
use kifudex::notation::{Encoding, Line, Record, read_bytes};
use kifudex::shogi::{Move, Position, Rule, Square};
use serde_json::Value;

// ---- scratch directories ----------------------------------------------------------------

/// A fresh directory for one test's database and files, removed when dropped (kept when
/// `KIFUDEX_KEEP_TEST_DBS` is set, to look at after a failure). Its name is the test's name,
/// the process id and a counter, so no two tests (or two runs at once) share one.
pub struct TempDb {
    dir: PathBuf,
}

impl TempDb {
    pub fn new(name: &str) -> TempDb {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir()
            .join("kifudex-tests")
            .join(format!("{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDb { dir }
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        if std::env::var_os("KIFUDEX_KEEP_TEST_DBS").is_none() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

impl std::ops::Deref for TempDb {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.dir
    }
}

impl AsRef<Path> for TempDb {
    fn as_ref(&self) -> &Path {
        &self.dir
    }
}

impl AsRef<std::ffi::OsStr> for TempDb {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.dir.as_os_str()
    }
}

// ---- the binary ---------------------------------------------------------------------------

/// `kifudex` run as a user runs it: `Kifudex::new().db(path).args([...]).output()`.
#[derive(Default)]
pub struct Kifudex {
    db: Option<PathBuf>,
    args: Vec<OsString>,
    cwd: Option<PathBuf>,
    stdin: Option<Vec<u8>>,
    env: Vec<(OsString, OsString)>,
    /// Run as this user and group (when the tests run as root, who may write anything).
    user: Option<u32>,
}

impl Kifudex {
    pub fn new() -> Kifudex {
        Kifudex::default()
    }

    /// `--db path`, given before the other arguments.
    pub fn db(mut self, path: impl AsRef<Path>) -> Kifudex {
        self.db = Some(path.as_ref().to_path_buf());
        self
    }

    pub fn args<I>(mut self, args: I) -> Kifudex
    where
        I: IntoIterator,
        I::Item: AsRef<std::ffi::OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_os_string()));
        self
    }

    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Kifudex {
        self.cwd = Some(dir.as_ref().to_path_buf());
        self
    }

    /// What the program reads on its standard input.
    pub fn stdin(mut self, input: impl AsRef<[u8]>) -> Kifudex {
        self.stdin = Some(input.as_ref().to_vec());
        self
    }

    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Kifudex {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Run as the unprivileged user `nobody` when the tests run as root (root may write
    /// what the file modes forbid); as the tests' own user otherwise.
    pub fn unprivileged(mut self) -> Kifudex {
        // SAFETY: geteuid has no preconditions and cannot fail.
        if unsafe { libc::geteuid() } == 0 {
            self.user = Some(65534);
        }
        self
    }

    /// The command as configured (standard input aside), for a test that spawns it itself.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_kifudex"));
        if let Some(id) = self.user {
            use std::os::unix::process::CommandExt;
            cmd.uid(id).gid(id);
        }
        if let Some(db) = &self.db {
            cmd.arg("--db").arg(db);
        }
        cmd.args(&self.args);
        if let Some(dir) = &self.cwd {
            cmd.current_dir(dir);
        }
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd
    }

    /// Runs it to its end.
    pub fn output(self) -> Run {
        let mut cmd = self.command();
        let out = match &self.stdin {
            None => cmd.output().expect("run kifudex"),
            Some(input) => {
                let mut child = cmd
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("run kifudex");
                child.stdin.take().unwrap().write_all(input).unwrap();
                child.wait_with_output().expect("run kifudex")
            }
        };
        Run {
            args: self.args,
            status: out.status,
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// Imports the folder `files` into a new database `db`, which must succeed, and lists
/// every game it then holds.
pub fn import_and_list(db: &Path, files: &Path) -> Vec<Value> {
    Kifudex::new()
        .db(db)
        .args([std::ffi::OsStr::new("import"), files.as_os_str()])
        .output()
        .success();
    list_games(db)
}

/// Every game the database holds, as `search --json` lists them (no limit that matters).
pub fn list_games(db: &Path) -> Vec<Value> {
    Kifudex::new()
        .db(db)
        .args(["search", "--json", "--limit", "100000"])
        .output()
        .json_lines()
}

/// What a run gave.
#[derive(Debug)]
pub struct Run {
    /// The arguments given (`--db` aside), for messages.
    pub args: Vec<OsString>,
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The exit code; -1 when killed by a signal.
    pub fn code(&self) -> i32 {
        self.status.code().unwrap_or(-1)
    }

    /// (code, stdout, stderr), for a test that takes them apart.
    pub fn parts(self) -> (i32, String, String) {
        (self.code(), self.stdout, self.stderr)
    }

    /// The run, which must have succeeded: a failure panics with the arguments and stderr.
    #[track_caller]
    pub fn success(self) -> Run {
        assert!(self.status.success(), "{:?}: {}", self.args, self.stderr);
        self
    }

    /// Each line of the standard output as JSON.
    pub fn json_lines(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect()
    }
}

// ---- random games -------------------------------------------------------------------------

/// A small deterministic generator (xorshift64*) for random games.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Parses a SFEN that a test knows to be valid.
pub fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("bad test SFEN {sfen}: {e}"))
}

/// A connection of its own on a store's database file (the store speaks no SQL to others).
pub fn sql(store: &kifudex::store::Store) -> rusqlite::Connection {
    rusqlite::Connection::open(store.db().sqlite()).expect("open the file")
}

// ---- the shared corpus --------------------------------------------------------------------

/// The shared corpus's files directory (`../shared/corpus/files` beside the project), or None
/// after saying so on stderr when it is absent. Absent under CI (`CI=true`) is a failure: CI
/// always has it.
pub fn corpus_root() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/files");
    if !root.exists() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "the shared corpus is missing under CI"
        );
        eprintln!("skipped: no corpus at {}", root.display());
        return None;
    }
    Some(root)
}

/// Every file of the shared corpus (recursive, sorted) whose extension is one of `exts`
/// (any case; every file when `exts` is empty); None when the corpus is absent (see
/// [`corpus_root`]).
pub fn corpus(exts: &[&str]) -> Option<Vec<PathBuf>> {
    fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                collect(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let root = corpus_root()?;
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.retain(|p| {
        exts.is_empty()
            || p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| exts.iter().any(|x| x.eq_ignore_ascii_case(e)))
    });
    files.sort();
    Some(files)
}

// ---- USI ----------------------------------------------------------------------------------

/// The USI of a record's main line.
pub fn usi_moves(r: &Record) -> Vec<String> {
    usi_line(&r.main)
}

/// The USI of a line's moves.
pub fn usi_line(line: &Line) -> Vec<String> {
    line.moves.iter().map(|m| m.mv.usi()).collect()
}

/// The move of a USI string a test knows to be valid.
pub fn usi_move(s: &str) -> Move {
    Move::from_usi(s).unwrap()
}

// ---- fixtures more than one module reads ------------------------------------------------

/// A KIF game (矢倉, six moves and 投了) with a comment.
pub const YAGURA_KIF: &str = "開始日時：2019/04/08(月) 10:00
棋戦：第32期竜王戦
戦型：矢倉
先手：羽生善治 九段
後手：渡邉明 竜王
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:01/00:00:01)
   2 ８四歩(83)   ( 0:02/00:00:02)
   3 ６八銀(79)   ( 0:03/00:00:04)
   4 ３四歩(33)   ( 0:01/00:00:03)
   5 ６六歩(67)   ( 0:01/00:00:05)
*先手は矢倉を目指す。
   6 ６二銀(71)   ( 0:05/00:00:08)
   7 投了
まで6手で後手の勝ち
";

/// A stored (uncompressed) zip archive whose entry names are raw bytes without the UTF-8
/// flag, as Japanese Windows tools write Shift-JIS names.
pub fn zip_stored(entries: &[(Vec<u8>, Vec<u8>)]) -> Vec<u8> {
    fn crc32(data: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in data {
            crc ^= b as u32;
            for _ in 0..8 {
                crc = if crc & 1 != 0 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in entries {
        let offset = out.len() as u32;
        let crc = crc32(data);
        let common = |v: &mut Vec<u8>| {
            v.extend_from_slice(&20u16.to_le_bytes()); // version needed
            v.extend_from_slice(&0u16.to_le_bytes()); // flags: no UTF-8 bit
            v.extend_from_slice(&0u16.to_le_bytes()); // stored
            v.extend_from_slice(&0u16.to_le_bytes()); // time
            v.extend_from_slice(&0x5A21u16.to_le_bytes()); // date 2025-01-01
            v.extend_from_slice(&crc.to_le_bytes());
            v.extend_from_slice(&(data.len() as u32).to_le_bytes());
            v.extend_from_slice(&(data.len() as u32).to_le_bytes());
            v.extend_from_slice(&(name.len() as u16).to_le_bytes());
            v.extend_from_slice(&0u16.to_le_bytes()); // extra length
        };
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        common(&mut out);
        out.extend_from_slice(name);
        out.extend_from_slice(data);
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&20u16.to_le_bytes()); // version made by
        common(&mut central);
        central.extend_from_slice(&[0; 6]); // comment length, disk, internal attributes
        central.extend_from_slice(&0u32.to_le_bytes()); // external attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name);
    }
    let cd_offset = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

pub const CSA_GAME: &str = "\
V2.2
N+先手太郎
N-後手花子
$EVENT:第1回テスト棋戦
$SITE:東京
$START_TIME:2024/03/01 10:00:00
$END_TIME:2024/03/01 12:00:00
$TIME_LIMIT:00:25+00
$OPENING:相掛かり
$NOTE:a remark, with a comma
PI
+
+2726FU
T5
-8384FU
T10
+2625FU
T62
-8485FU
T3
%TORYO
T1
";

/// The one game of `text`, read without errors.
pub fn csa_clean(text: &str) -> Record {
    let mut games = read_csa(text);
    assert_eq!(games.len(), 1, "one game expected");
    let r = games.remove(0);
    assert_eq!(r.errors, [], "unexpected errors");
    r
}

/// Every fixture is also read from its Shift-JIS (CP932) and EUC-JP bytes, as a file would
/// hold it, and must give the same record (when the text can be written in that encoding).
pub fn same_in_every_encoding(text: &str, ext: &str, want: &Record) {
    let path = std::path::PathBuf::from(format!("fixture.{ext}"));
    for (enc, name) in [
        (encoding_rs::SHIFT_JIS, Encoding::ShiftJis),
        (encoding_rs::EUC_JP, Encoding::EucJp),
        (encoding_rs::UTF_8, Encoding::Utf8),
    ] {
        let (bytes, _, unmappable) = enc.encode(text);
        if unmappable {
            continue;
        }
        let read = read_bytes(&bytes, Some(&path));
        assert_eq!(read.encoding, name, "{name:?} detected");
        if read.games.is_empty() {
            // Nothing readable: the file as a whole is refused, as the record says.
            assert!(want.is_blank() && read.error.is_some(), "{name:?}");
            continue;
        }
        assert_eq!(read.games.len(), 1);
        assert_eq!(&read.games[0], want, "the same record from {name:?} bytes");
    }
}

/// A SFEN from a piece list such as `"K59 G69 g41 +R13"` (piece, file, rank; upper case
/// Black), the side to move (`b`/`w`) and the hands (`B2p`, `-`).
pub fn setup(pieces: &str, side: &str, hands: &str) -> String {
    let mut grid: [[Option<String>; 9]; 9] = Default::default();
    for tok in pieces.split_whitespace() {
        let (piece, at) = tok.split_at(tok.len() - 2);
        let b = at.as_bytes();
        grid[(b[1] - b'1') as usize][(b[0] - b'1') as usize] = Some(piece.to_string());
    }
    let rows: Vec<String> = grid
        .iter()
        .map(|rank| {
            let mut row = String::new();
            let mut empty = 0;
            for file in (0..9).rev() {
                match &rank[file] {
                    Some(p) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push_str(p);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    format!("{} {side} {hands} 1", rows.join("/"))
}

/// Every move the rules of movement allow, legal or not (二歩, self-check, dead pieces…).
pub fn physical_moves(p: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    let playable = |m: Move| {
        let mut after = p.clone();
        matches!(after.play(m), Ok(v) if !v.contains(Rule::IllegalMovement))
    };
    for from in Square::all() {
        if p.piece_at(from)
            .is_none_or(|pc| pc.color != p.side_to_move())
        {
            continue;
        }
        for to in Square::all() {
            for promote in [false, true] {
                let m = Move::Board { from, to, promote };
                if from != to && playable(m) {
                    out.push(m);
                }
            }
        }
    }
    for (kind, _) in p.hand(p.side_to_move()).iter() {
        for to in Square::all() {
            let m = Move::Drop { kind, to };
            if playable(m) {
                out.push(m);
            }
        }
    }
    out
}

/// A random crowded position: golds, silvers, majors (promoted or not), knights and a few
/// pawns packed around the centre, some pieces in the mover's hand.
pub fn crowded(rng: &mut Rng) -> Option<Position> {
    let mut pieces: Vec<String> = Vec::new();
    let mut taken = HashSet::new();
    let mut hand = String::new();
    let mut place = |rng: &mut Rng, piece: String, near: bool| loop {
        let (f, r) = if near {
            (3 + rng.below(5), 3 + rng.below(5))
        } else {
            (1 + rng.below(9), 1 + rng.below(9))
        };
        if taken.insert((f, r)) {
            pieces.push(format!("{piece}{f}{r}"));
            break;
        }
    };
    place(rng, "K".into(), false);
    place(rng, "k".into(), false);
    let kinds = [
        ("G", ""),
        ("G", ""),
        ("G", ""),
        ("G", ""),
        ("S", "+"),
        ("S", "+"),
        ("S", "+"),
        ("S", "+"),
        ("R", "+"),
        ("R", "+"),
        ("B", "+"),
        ("B", "+"),
        ("N", "+"),
        ("N", "+"),
        ("L", "+"),
        ("P", "+"),
        ("P", "+"),
    ];
    for (letter, promo) in kinds {
        let black = rng.below(4) != 0;
        if rng.below(6) == 0 {
            hand.push_str(letter);
            continue;
        }
        let promoted = !promo.is_empty() && rng.below(3) == 0;
        let mut piece = format!("{}{letter}", if promoted { promo } else { "" });
        if !black {
            piece = piece.to_lowercase();
        }
        place(rng, piece, true);
    }
    let mut counted = String::new();
    for letter in ["R", "B", "G", "S", "N", "L", "P"] {
        match hand.matches(letter).count() {
            0 => {}
            1 => counted.push_str(letter),
            n => counted.push_str(&format!("{n}{letter}")),
        }
    }
    let hand = if counted.is_empty() {
        "-".into()
    } else {
        counted
    };
    Position::from_sfen(&setup(&pieces.join(" "), "b", &hand)).ok()
}

/// The SQL that takes a database of schema 17 back to schema 16 (the players' totals over
/// every year only, without a year), as a literal for `concat!`.
macro_rules! back_to_schema_16 {
    () => {
        "CREATE TABLE player_totals_16 (
        player INTEGER NOT NULL, side INTEGER NOT NULL, games INTEGER NOT NULL,
        wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,
        first_date TEXT, last_date TEXT, PRIMARY KEY (player, side)) WITHOUT ROWID;
    INSERT INTO player_totals_16
        SELECT player, side, games, wins, draws, losses, first_date, last_date
        FROM player_totals WHERE year = -1;
    DROP TABLE player_totals;
    ALTER TABLE player_totals_16 RENAME TO player_totals;
    CREATE TABLE player_openings_16 (
        player INTEGER NOT NULL, side INTEGER NOT NULL, opening TEXT NOT NULL,
        games INTEGER NOT NULL, PRIMARY KEY (player, side, opening)) WITHOUT ROWID;
    INSERT INTO player_openings_16
        SELECT player, side, opening, games FROM player_openings WHERE year = -1;
    DROP TABLE player_openings;
    ALTER TABLE player_openings_16 RENAME TO player_openings;
    "
    };
}

/// Takes a database of schema 17 back to schema 16 (its `user_version` is the caller's).
pub const BACK_TO_SCHEMA_16: &str = back_to_schema_16!();

/// The SQL that takes a database of schema 17 back to schema 14 (before the players' totals
/// by year, twins, and the pairings in the opening totals), as a literal for `concat!`.
macro_rules! back_to_schema_14 {
    () => {
        concat!(
            back_to_schema_16!(),
            "DELETE FROM opening_totals WHERE kind = 'pair';
    DROP TABLE game_revisions;
    DROP TABLE twins_apart;
    DROP TABLE game_fields;
    ALTER TABLE game_sources DROP COLUMN facts;
    "
        )
    };
}

/// Takes a database of schema 17 back to schema 14 (its `user_version` is the caller's).
pub const BACK_TO_SCHEMA_14: &str = back_to_schema_14!();

/// The SQL that takes a database of schema 17 back to schema 13 (before evaluations and
/// twins), as a literal for `concat!`; [`BACK_TO_SCHEMA_13`] is the same text.
macro_rules! back_to_schema_13 {
    () => {
        concat!(
            back_to_schema_14!(),
            "DROP TABLE engine_evals;
    DROP TABLE game_evals;
    DROP TABLE engine_analyses;"
        )
    };
}

/// Takes a database of schema 17 back to schema 13 (its `user_version` is the caller's).
pub const BACK_TO_SCHEMA_13: &str = back_to_schema_13!();

/// SQL that takes a database of schema 17 back to what schema 10 made of it: no twins'
/// tables, no evaluations, no labels by number nor opening totals, no checksums,
/// the recognised names as rows of a table indexed by name, no lists, no `games.recognised`
/// (for the tests of older databases, which go back further from there).
pub const BACK_TO_SCHEMA_10: &str = concat!(
    back_to_schema_13!(),
    "
    DROP INDEX games_label;
    DROP INDEX IF EXISTS games_date;
    CREATE INDEX games_date ON games(date);
    ALTER TABLE games DROP COLUMN label_id;
    DROP TABLE game_labels;
    DROP TABLE opening_totals;
    ALTER TABLE position_blocks DROP COLUMN crc;
    ALTER TABLE position_segments DROP COLUMN crc;
    ALTER TABLE games DROP COLUMN moves_crc;
    CREATE TABLE recognised_10 (
        game_id INTEGER NOT NULL, side INTEGER NOT NULL, name_id INTEGER NOT NULL,
        ply INTEGER NOT NULL, PRIMARY KEY (game_id, side, name_id)) WITHOUT ROWID;
    INSERT INTO recognised_10 SELECT game_id, side, name_id, ply FROM recognised;
    DROP VIEW recognised_items;
    DROP VIEW recognised;
    DROP TABLE recognised_names;
    ALTER TABLE games DROP COLUMN recognised;
    ALTER TABLE recognised_10 RENAME TO recognised;
    CREATE INDEX recognised_name ON recognised(name_id, side, game_id);
    CREATE VIEW recognised_items AS
        SELECT r.game_id, CASE r.side WHEN 0 THEN 'sente' ELSE 'gote' END AS side, n.kind,
               n.name, r.ply
        FROM recognised r JOIN opening_names n ON n.id = r.name_id;
    PRAGMA user_version = 10;"
);

/// A database of an older format: a read refuses it with words that name `kifudex upgrade`
/// and leaves the database and its log as they were (SQLite's side files aside: the
/// shared-memory file where readers mark what they read, and an empty log a reader opens);
/// then `kifudex upgrade` brings it up to date.
pub fn upgrade_old(db: &Path) {
    let files = |db: &Path| -> Vec<(String, Vec<u8>)> {
        let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(db)
            .unwrap()
            .flatten()
            .filter(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let empty = e.metadata().is_ok_and(|m| m.len() == 0);
                e.path().is_file() && !name.ends_with("-shm") && !(name.ends_with("-wal") && empty)
            })
            .map(|e| {
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        out.sort();
        out
    };
    let before = files(db);
    let out = Kifudex::new().db(db).args(&["stats", "--json"]).output();
    assert_eq!(out.status.code(), Some(1), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("run `kifudex upgrade` to bring it up to date"),
        "{}",
        out.stderr
    );
    let after = files(db);
    if after != before {
        let names = |f: &[(String, Vec<u8>)]| -> Vec<(String, usize)> {
            f.iter().map(|(n, b)| (n.clone(), b.len())).collect()
        };
        panic!(
            "a read changed the database's files: {:?} -> {:?}",
            names(&before),
            names(&after)
        );
    }
    let out = Kifudex::new().db(db).args(&["upgrade"]).output();
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr);
    assert!(
        out.stdout.starts_with("upgraded: schema "),
        "{}",
        out.stdout
    );
}
