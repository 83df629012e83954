//! `docs/openings.md` lists every name kifudex knows, by family, with its shape in words:
//! the list is made from the definitions, and this test fails when the page and the data
//! part. `KIFUDEX_BLESS_DOCS=1` writes the list made from the data into the page instead.

use kifudex::classify::names::{LABELS, about, lineage};
use kifudex::classify::{DEFS, Kind};

const PAGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/openings.md");
const START: &str = "<!-- names: made from the definitions by tests/it/classify/docs.rs -->\n";
const END: &str = "<!-- names end -->\n";

/// One name and, indented below it, the names whose parent it is, in the order of the
/// definitions.
fn tree(out: &mut String, name: &str, depth: usize, names: &[&'static str]) {
    let line = about(name).unwrap_or_default();
    out.push_str(&format!("{}- **{name}**: {line}\n", "  ".repeat(depth)));
    for child in names
        .iter()
        .filter(|n| lineage(n).get(1).copied() == Some(name))
    {
        tree(out, child, depth + 1, names);
    }
}

/// The list as the page holds it: strategies, castles, then the game labels that are no
/// side's name, each family under the name at its head.
fn listing() -> String {
    let mut out = String::new();
    for (kind, title) in [
        (Kind::Strategy, "Strategies (戦法)"),
        (Kind::Castle, "Castles (囲い)"),
    ] {
        let names: Vec<&'static str> = DEFS
            .iter()
            .filter(|d| d.kind == kind)
            .map(|d| d.name)
            .collect();
        out.push_str(&format!("\n### {title}: {}\n\n", names.len()));
        for head in names.iter().filter(|n| lineage(n).len() == 1) {
            tree(&mut out, head, 0, &names);
        }
    }
    out.push_str(&format!(
        "\n### Game labels that are no side's name: {}\n\n",
        LABELS.len()
    ));
    for l in LABELS {
        let under = l
            .parent
            .map(|p| format!(" (under {p})"))
            .unwrap_or_default();
        out.push_str(&format!("- **{}**{under}: {}\n", l.name, l.about));
    }
    out.push('\n');
    out
}

#[test]
fn the_openings_page_lists_every_name_from_the_definitions() {
    let page = std::fs::read_to_string(PAGE).expect("docs/openings.md");
    let (Some(a), Some(b)) = (page.find(START), page.find(END)) else {
        panic!("docs/openings.md has no list between {START:?} and {END:?}");
    };
    let listed = &page[a + START.len()..b];
    let made = listing();
    if std::env::var_os("KIFUDEX_BLESS_DOCS").is_some() {
        let mut new = page[..a + START.len()].to_string();
        new.push_str(&made);
        new.push_str(&page[b..]);
        std::fs::write(PAGE, new).expect("write docs/openings.md");
        return;
    }
    // Every name once, under its parent: the count of bullets is the count of names.
    let bullets = made
        .lines()
        .filter(|l| l.trim_start().starts_with("- **"))
        .count();
    assert_eq!(bullets, DEFS.len() + LABELS.len());
    assert!(
        listed == made,
        "docs/openings.md lists other names than the definitions: run the test with KIFUDEX_BLESS_DOCS=1 and read the diff"
    );
}
