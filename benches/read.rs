//! Read + replay + hash throughput of the KIF, KI2 and CSA readers on generated games, one core.
//!
//! `cargo bench --bench read [-- GAMES] [kif|ki2|csa|bytes]` prints games/s and plies/s for each format. The
//! games are random legal games of 60–160 plies (seeded, so every run reads the same text),
//! written by kifudex's own writers with headers and times. `KIFUDEX_BENCH_ROUNDS=N` reads
//! every text N times (for profiling the reader rather than the generator).
//!
//! `bytes` measures what the importer does with a file: `read_bytes` (decoding, format
//! detection, reading) on the KIF texts as UTF-8 bytes and as Shift-JIS bytes.
//!
//! `recognise` measures the recognition of openings and castles (`classify`) on games of the
//! generator `gen_games` uses (openings as people play them, not random moves).
//!
//! `evals` measures what reading evaluations (`kifudex::evals::read`) adds to reading CSA
//! games that carry a Floodgate engine line (`'** value variation`) on every move: the two
//! are timed (CPU time, on Linux) in alternate rounds and the fastest round of each compared.

use std::hint::black_box;
use std::time::Instant;

use kifudex::notation::csa::{CsaVersion, read_csa, write_csa};
use kifudex::notation::kif::{read_ki2, read_kif, write_ki2, write_kif};
use kifudex::notation::{MoveNode, MoveTime, Record, read_bytes};
use kifudex::shogi::Position;

fn main() {
    let games: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(20_000);
    let only: Option<String> = std::env::args()
        .skip(1)
        .find(|a| ["kif", "ki2", "csa", "bytes", "recognise", "evals"].contains(&a.as_str()));
    let wanted = |name: &str| only.as_deref().is_none_or(|o| o == name);
    if wanted("recognise") {
        recognise(games);
        if only.is_some() {
            return;
        }
    }
    let records = generate(games);
    let plies: usize = records.iter().map(|r| r.main.moves.len()).sum();
    println!("{games} generated games, {plies} plies");
    if only.as_deref() == Some("evals") {
        evals_cost(&records, plies);
        return;
    }
    if wanted("kif") {
        let kif: Vec<String> = records.iter().map(write_kif).collect();
        measure("KIF", &kif, plies, read_kif);
    }
    if wanted("ki2") {
        let ki2: Vec<String> = records.iter().map(write_ki2).collect();
        measure("KI2", &ki2, plies, read_ki2);
    }
    if wanted("csa") {
        let csa: Vec<String> = records
            .iter()
            .map(|r| write_csa(r, CsaVersion::V2_2))
            .collect();
        measure("CSA", &csa, plies, read_one_csa);
    }
    if wanted("bytes") {
        let utf8: Vec<Vec<u8>> = records.iter().map(|r| write_kif(r).into_bytes()).collect();
        measure_bytes("read_bytes, KIF in UTF-8", &utf8, plies);
        let sjis: Vec<Vec<u8>> = utf8
            .iter()
            .map(|t| {
                let text = std::str::from_utf8(t).unwrap_or_default();
                encoding_rs::SHIFT_JIS.encode(text).0.into_owned()
            })
            .collect();
        measure_bytes("read_bytes, KIF in Shift-JIS", &sjis, plies);
    }
}

/// Recognition on `games` games of the generator `gen_games` uses.
fn recognise(games: usize) {
    let mut synth = kifudex::synth::Synth::new(kifudex::synth::SynthOptions {
        seed: 7,
        ..kifudex::synth::SynthOptions::default()
    });
    let records: Vec<Record> = (0..games).map(|_| synth.game()).collect();
    let plies: usize = records.iter().map(|r| r.main.moves.len()).sum();
    for r in records.iter().take(1000) {
        black_box(kifudex::classify::recognise_record(r));
    }
    // Five rounds, the fastest reported: the machine is shared, and a round slowed by a
    // neighbour says nothing of the code.
    let mut rounds = Vec::new();
    let mut items = 0usize;
    for _ in 0..5 {
        let start = Instant::now();
        items = 0;
        for r in &records {
            items += black_box(kifudex::classify::recognise_record(r))
                .items
                .len();
        }
        rounds.push(start.elapsed().as_secs_f64());
    }
    rounds.sort_by(f64::total_cmp);
    let secs = rounds[0];
    // What was recognised, as one number: two builds that print the same one name the same
    // games alike (the check before an optimisation of the matcher is kept).
    let mut digest = std::hash::DefaultHasher::new();
    for r in &records {
        let found = kifudex::classify::recognise_record(r);
        std::hash::Hash::hash(&found.opening, &mut digest);
        std::hash::Hash::hash(&found.reason.map(|x| x.to_string()), &mut digest);
        for i in &found.items {
            std::hash::Hash::hash(&(i.side.index(), i.name, i.ply, i.implied), &mut digest);
            std::hash::Hash::hash(&i.mv.usi(), &mut digest);
        }
    }
    println!(
        "recognise: {games} games ({plies} plies) in {secs:.3} s = {:.0} games/s, {:.2} µs per game (median of 5 rounds {:.2} µs), {:.1} names per game, digest {:016x}",
        games as f64 / secs,
        secs * 1e6 / games as f64,
        rounds[2] * 1e6 / games as f64,
        items as f64 / games as f64,
        std::hash::Hasher::finish(&digest)
    );
}

/// Reading CSA games with an engine line on every move, without and with the evaluations
/// read from them, in alternate rounds; each round's CPU time on this thread (the machine is
/// shared: the fastest of 7 rounds each).
fn evals_cost(records: &[Record], plies: usize) {
    let texts: Vec<String> = records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut r = r.clone();
            kifudex::synth::add_engine_lines(&mut r, i as u64 + 1);
            write_csa(&r, CsaVersion::V2_2)
        })
        .collect();
    let mb = texts.iter().map(String::len).sum::<usize>() as f64 / 1e6;
    let mut rounds = [Vec::new(), Vec::new()];
    let mut evaluated = 0usize;
    for round in 0..14 {
        let with_evals = round % 2 == 1;
        let start = thread_cpu();
        let mut count = 0usize;
        for t in &texts {
            let r = read_one_csa(t);
            if with_evals {
                count += black_box(kifudex::evals::read(&r)).len();
            }
            count += black_box(&r).main.moves.len();
        }
        rounds[usize::from(with_evals)].push(thread_cpu() - start);
        if with_evals {
            evaluated = count - plies;
        }
    }
    let best = |r: &mut Vec<f64>| {
        r.sort_by(f64::total_cmp);
        r[0]
    };
    let (read, with) = (best(&mut rounds[0]), best(&mut rounds[1]));
    println!(
        "evals: {} CSA games ({plies} plies, {evaluated} evaluations, {mb:.1} MB), CPU: read {read:.3} s, read + evals {with:.3} s: evaluations add {:.1}% ({:.0} ns an evaluation)",
        texts.len(),
        (with / read - 1.0) * 100.0,
        (with - read) * 1e9 / evaluated.max(1) as f64
    );
}

/// Seconds of CPU this thread has used (the wall clock elsewhere).
#[cfg(target_os = "linux")]
fn thread_cpu() -> f64 {
    // SAFETY: getrusage fills the struct it is given; a zeroed rusage is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a rusage the call may write.
    unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut usage) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// The first game of a file's bytes, as the importer reads them.
fn read_one_file(bytes: &[u8]) -> Record {
    read_bytes(bytes, None)
        .games
        .into_iter()
        .next()
        .unwrap_or_default()
}

fn measure_bytes(name: &str, files: &[Vec<u8>], plies: usize) {
    let texts: Vec<&[u8]> = files.iter().map(Vec::as_slice).collect();
    run(name, &texts, plies, read_one_file);
}

/// The first game of a CSA text (the generated files hold one each).
fn read_one_csa(text: &str) -> Record {
    read_csa(text).into_iter().next().unwrap_or_default()
}

fn measure(name: &str, texts: &[String], plies: usize, read: fn(&str) -> Record) {
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    run(name, &texts, plies, read);
}

/// Reads every text (after a warm-up), `KIFUDEX_BENCH_ROUNDS` times, and prints the rates.
fn run<T: AsRef<[u8]> + ?Sized>(name: &str, texts: &[&T], plies: usize, read: fn(&T) -> Record) {
    // One warm-up pass, then the timed one.
    for t in texts.iter().take(1000) {
        black_box(read(t));
    }
    let rounds: usize = std::env::var("KIFUDEX_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    let start = Instant::now();
    let mut hash = 0u64;
    for t in texts.iter().cycle().take(texts.len() * rounds) {
        let r = read(t);
        // The reader replays every move; take the final hash so nothing is optimised away.
        hash ^= r.main.moves.len() as u64;
        hash ^= black_box(&r).start.hash();
    }
    let secs = start.elapsed().as_secs_f64() / rounds as f64;
    let mb: usize = texts.iter().map(|t| t.as_ref().len()).sum();
    println!(
        "{name}: {} games in {secs:.3} s = {:.0} games/s, {:.0} plies/s, {:.1} MB/s (check {hash:x})",
        texts.len(),
        texts.len() as f64 / secs,
        plies as f64 / secs,
        mb as f64 / secs / 1e6
    );
}

fn generate(n: usize) -> Vec<Record> {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        seed.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut out = Vec::with_capacity(n);
    let mut moves = Vec::new();
    for i in 0..n {
        let mut rec = Record {
            headers: vec![
                (
                    "開始日時".into(),
                    format!("2024/01/{:02} 10:00:00", i % 28 + 1),
                ),
                ("棋戦".into(), "generated sample".into()),
                ("先手".into(), format!("player{}", i % 97)),
                ("後手".into(), format!("player{}", i % 89)),
            ],
            ..Record::default()
        };
        let mut pos = Position::startpos();
        let len = 60 + (next() % 100) as usize;
        for _ in 0..len {
            pos.generate_legal(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[(next() % moves.len() as u64) as usize];
            let _ = pos.play(mv);
            let mut node = MoveNode::new(mv);
            node.time = Some(MoveTime {
                spent: (next() % 60) as f64,
                total: None,
            });
            rec.main.moves.push(node);
        }
        out.push(rec);
    }
    out
}
