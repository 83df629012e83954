//! The text index's tokenizer and folding on arbitrary text. Nothing may panic; every token's
//! offsets are character boundaries of the text, positions grow, and a query's tokens are
//! tokens the same text gets in a document, at the same positions.
#![no_main]

use kifudex::normalize::fold;
use kifudex::text::tokenizer::{Mode, tokenize};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = fold(&text);
    let index = tokenize(&text, Mode::Index);
    let mut last = None;
    for t in &index {
        assert!(text.is_char_boundary(t.offset_from) && text.is_char_boundary(t.offset_to));
        assert!(t.offset_from < t.offset_to && !t.text.is_empty());
        assert!(last.is_none_or(|p| p < t.position));
        last = Some(t.position);
    }
    for q in tokenize(&text, Mode::Query) {
        assert!(
            index
                .iter()
                .any(|t| t.position == q.position && t.text == q.text),
            "query token {q:?} is no document token"
        );
    }
});
