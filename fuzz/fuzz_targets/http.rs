//! The explorer server's request heads: `serve::http::parse_head` on any bytes. Nothing may
//! panic; a head read has a method of capitals, a path, and closes when it has a body.
#![no_main]

use kifudex::serve::http::parse_head;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(head) = parse_head(data) {
        assert!(!head.method.is_empty());
        assert!(head.method.bytes().all(|b| b.is_ascii_uppercase()));
        assert!(head.target.starts_with('/'));
        assert!(!(head.has_body && head.keep_alive));
        // The same head with CRLF line ends reads the same.
        let text = std::str::from_utf8(data).unwrap();
        if !text.contains('\r') {
            let crlf = text.replace('\n', "\r\n");
            assert_eq!(parse_head(crlf.as_bytes()).as_ref(), Ok(&head));
        }
    }
});
