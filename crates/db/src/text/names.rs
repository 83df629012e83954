//! The recognised names in the text index.
//!
//! A game's recognised openings, strategies and castles are a handful of names from a fixed
//! list ([`kifudex_classify::canonical_names`]). Cut into unigrams and bigrams like the rest of
//! the text, they made about forty tokens a game with their positions, most of what
//! recognition cost the text index. So each is indexed whole, as one number ([`number`]) in a
//! field of its own ([`FIELD`]); a name not on the list (from a database of older
//! definitions) goes into the opening field as text, as before.
//!
//! Queries keep their meaning: a word searched in the opening field (`opening:美濃`, or a
//! word with no field, which searches every field) finds a game whose header opening holds it,
//! or that has a recognised name holding it (片美濃囲い, 美濃囲い, 銀美濃 …). To know which
//! names hold it, the query's leaf is run, with the same tokenizer and the same phrase rules,
//! over a small index in memory with one document per known name ([`names_matching`]); the
//! names it finds are added to the leaf as `names: IN [...]`. A phrase can no longer run from
//! one name into the next, as it could when the names were one text joined by ` / `.

use std::collections::HashMap;
use std::sync::OnceLock;

use tantivy::collector::DocSetCollector;
use tantivy::query::QueryParser;
use tantivy::query_grammar::{Occur, UserInputAst, UserInputLeaf};
use tantivy::schema::{FAST, IndexRecordOption, Schema, TextFieldIndexing, TextOptions};
use tantivy::{Index, Searcher, TantivyDocument};

use super::TextError;
use super::index::tokenizers;
use super::tokenizer::{self, Mode};
use crate::numhash::NumberHash;

/// The field of the text index that holds each recognised name as one number ([`number`]).
pub const FIELD: &str = "names";

/// The field the opening's words are searched in.
const OPENING: &str = "opening";

/// The text field of the in-memory index of names, and its column of name numbers.
const TEXT: &str = "name";
const NUMBER: &str = "number";

/// Whether a name is indexed whole in [`FIELD`] (a name kifudex can recognise).
pub fn is_known(name: &str) -> bool {
    number(name).is_some()
}

/// The number a known name is indexed under in [`FIELD`] (None for a name kifudex does not
/// know): a 64-bit FNV-1a hash of its text, so that it depends on nothing but the name (not on
/// the order of the definitions). The known names' numbers differ (checked when the list is
/// made). A number term costs the index less than a text term: no tokenizer, no copy.
pub fn number(name: &str) -> Option<u64> {
    static KNOWN: OnceLock<HashMap<u64, &'static str, NumberHash>> = OnceLock::new();
    let known = KNOWN.get_or_init(|| {
        let mut map = HashMap::default();
        for n in kifudex_classify::canonical_names() {
            let was = map.insert(fnv(n), n);
            assert!(
                was.is_none_or(|w| w == n),
                "text: two names with one number ({n})"
            );
        }
        map
    });
    let n = fnv(name);
    // The name itself compared too: another text with the same hash is not known.
    (known.get(&n) == Some(&name)).then_some(n)
}

/// 64-bit FNV-1a.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The known names, each once, and an index in memory with one document each.
struct Vocabulary {
    names: Vec<&'static str>,
    parser: QueryParser,
    searcher: Searcher,
}

fn build() -> Result<Vocabulary, TextError> {
    let mut names: Vec<&'static str> = Vec::new();
    for n in kifudex_classify::canonical_names() {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let mut b = Schema::builder();
    let indexing = TextFieldIndexing::default()
        .set_tokenizer(tokenizer::NAME)
        .set_index_option(IndexRecordOption::WithFreqsAndPositions);
    let text = b.add_text_field(TEXT, TextOptions::default().set_indexing_options(indexing));
    let number = b.add_u64_field(NUMBER, FAST);
    let mut index = Index::create_in_ram(b.build());
    index.set_tokenizers(tokenizers(Mode::Index));
    let mut writer = index.writer_with_num_threads::<TantivyDocument>(1, 15 << 20)?;
    for (i, name) in names.iter().enumerate() {
        let mut d = TantivyDocument::default();
        d.add_text(text, *name);
        d.add_u64(number, i as u64);
        writer.add_document(d)?;
    }
    writer.commit()?;
    writer.wait_merging_threads()?;
    let parser = QueryParser::new(index.schema(), vec![text], tokenizers(Mode::Query));
    let searcher = index.reader()?.searcher();
    Ok(Vocabulary {
        names,
        parser,
        searcher,
    })
}

fn vocabulary() -> Result<&'static Vocabulary, TextError> {
    static VOCABULARY: OnceLock<Result<Vocabulary, String>> = OnceLock::new();
    VOCABULARY
        .get_or_init(|| build().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| TextError::Query(format!("cannot make the index of names: {e}")))
}

/// The known names a query leaf finds when each name is a document of its own, searched as
/// the opening field is (same tokenizer, same phrase rules). The leaf's own field is ignored.
pub fn names_matching(leaf: &UserInputLeaf) -> Result<Vec<&'static str>, TextError> {
    let v = vocabulary()?;
    let leaf = match leaf.clone() {
        UserInputLeaf::Literal(mut l) => {
            l.field_name = Some(TEXT.into());
            UserInputLeaf::Literal(l)
        }
        UserInputLeaf::Range { lower, upper, .. } => UserInputLeaf::Range {
            field: Some(TEXT.into()),
            lower,
            upper,
        },
        UserInputLeaf::Set { elements, .. } => UserInputLeaf::Set {
            field: Some(TEXT.into()),
            elements,
        },
        // A field's existence and regular expressions are not searched in text fields (the
        // query fails on the opening field itself), and `*` is every document anyway.
        UserInputLeaf::Exists { .. } | UserInputLeaf::Regex { .. } | UserInputLeaf::All => {
            return Ok(Vec::new());
        }
    };
    let query = v
        .parser
        .build_query_from_user_input_ast(UserInputAst::Leaf(Box::new(leaf)))
        .map_err(|e| TextError::Query(e.to_string()))?;
    let docs = v.searcher.search(&query, &DocSetCollector)?;
    let mut numbers = Vec::with_capacity(docs.len());
    for addr in docs {
        let column = v
            .searcher
            .segment_reader(addr.segment_ord)
            .fast_fields()
            .u64(NUMBER)?;
        numbers.extend(column.first(addr.doc_id));
    }
    numbers.sort_unstable();
    let out = numbers.into_iter().map(|i| v.names[i as usize]).collect();
    Ok(out)
}

/// The query with every leaf that searches the opening field (by name, or with no field)
/// also looking for the recognised names it finds ([`names_matching`]).
pub fn expand(ast: UserInputAst) -> Result<UserInputAst, TextError> {
    Ok(match ast {
        UserInputAst::Clause(clauses) => UserInputAst::Clause(
            clauses
                .into_iter()
                .map(|(occur, a)| Ok((occur, expand(a)?)))
                .collect::<Result<_, TextError>>()?,
        ),
        UserInputAst::Boost(inner, boost) => UserInputAst::Boost(Box::new(expand(*inner)?), boost),
        UserInputAst::Leaf(leaf) => {
            let field = match &*leaf {
                UserInputLeaf::Literal(l) => l.field_name.as_deref(),
                UserInputLeaf::Range { field, .. }
                | UserInputLeaf::Set { field, .. }
                | UserInputLeaf::Regex { field, .. } => field.as_deref(),
                UserInputLeaf::Exists { field } => Some(field.as_str()),
                UserInputLeaf::All => Some(""),
            };
            // A literal with no field searches every field; a range or a set with none is
            // refused by the parser, as before.
            let searches_opening = match field {
                None => matches!(&*leaf, UserInputLeaf::Literal(_)),
                Some(f) => f == OPENING,
            };
            let names = if searches_opening {
                names_matching(&leaf)?
            } else {
                Vec::new()
            };
            if names.is_empty() {
                UserInputAst::Leaf(leaf)
            } else {
                let set = UserInputLeaf::Set {
                    field: Some(FIELD.into()),
                    elements: names
                        .into_iter()
                        .filter_map(number)
                        .map(|n| n.to_string())
                        .collect(),
                };
                UserInputAst::Clause(vec![
                    (Some(Occur::Should), UserInputAst::Leaf(leaf)),
                    (Some(Occur::Should), UserInputAst::Leaf(Box::new(set))),
                ])
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matching(query: &str) -> Vec<&'static str> {
        match tantivy::query_grammar::parse_query(query).unwrap() {
            UserInputAst::Leaf(leaf) => names_matching(&leaf).unwrap(),
            other => panic!("not a leaf: {other:?}"),
        }
    }

    #[test]
    fn a_leaf_finds_the_names_that_hold_it() {
        // Brute force: a word of CJK characters finds exactly the names that hold it.
        for word in [
            "美濃",
            "四間飛車",
            "穴熊",
            "矢倉",
            "銀",
            "振り飛車",
            "居飛車",
        ] {
            let want: Vec<&str> = kifudex_classify::canonical_names()
                .filter(|n| n.contains(word))
                .fold(Vec::new(), |mut v, n| {
                    if !v.contains(&n) {
                        v.push(n);
                    }
                    v
                });
            let mut got = matching(word);
            let mut want = want;
            got.sort_unstable();
            want.sort_unstable();
            assert!(!want.is_empty(), "{word}");
            assert_eq!(got, want, "{word}");
        }
        assert!(matching("opening:片美濃囲い").contains(&"片美濃囲い"));
        assert_eq!(matching("将棋"), Vec::<&str>::new());
        // A phrase of two words holds both, next to each other.
        assert_eq!(matching("\"居飛車 穴熊\""), vec!["居飛車穴熊"]);
        // A phrase does not run from one name into the next.
        assert_eq!(matching("\"囲い 居玉\""), Vec::<&str>::new());
    }

    #[test]
    fn only_leaves_on_the_opening_field_grow() {
        let ast = |q: &str| expand(tantivy::query_grammar::parse_query(q).unwrap()).unwrap();
        let grown = |a: &UserInputAst| format!("{a:?}").contains("names");
        assert!(grown(&ast("opening:美濃")));
        assert!(grown(&ast("美濃")));
        assert!(grown(&ast("comment:序盤 AND -opening:穴熊")));
        assert!(!grown(&ast("comment:美濃")));
        assert!(!grown(&ast("players:藤井")));
        assert!(!grown(&ast("opening:将棋")));
    }

    #[test]
    fn every_name_recognised_is_known() {
        for def in kifudex_classify::DEFS {
            assert!(is_known(def.name), "{}", def.name);
        }
        assert!(!is_known("将棋"));
    }

    #[test]
    fn each_known_name_has_a_number_of_its_own() {
        let mut names: Vec<&str> = kifudex_classify::canonical_names().collect();
        names.sort_unstable();
        names.dedup();
        let mut numbers: Vec<u64> = names.iter().map(|n| number(n).unwrap()).collect();
        numbers.sort_unstable();
        numbers.dedup();
        assert_eq!(numbers.len(), names.len());
        // The number is the name's text hashed (FNV-1a), whatever the order of the list.
        assert_eq!(number("穴熊"), Some(fnv("穴熊")));
        assert_eq!(fnv(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(number("片美濃"), None);
        // A leaf on the opening field also asks for the numbers of the names it finds.
        let ast = expand(tantivy::query_grammar::parse_query("opening:片美濃囲い").unwrap());
        let text = format!("{:?}", ast.unwrap());
        assert!(text.contains(&fnv("片美濃囲い").to_string()), "{text}");
    }
}
