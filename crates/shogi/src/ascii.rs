//! Numbers written as ASCII digits into byte buffers, without the formatting machinery: where
//! one is written for every move or every game (exports, SFEN, the book, the recognised
//! names of an import), `write!` took much of the time. Knows nothing of the crate.

/// Appends `n` in decimal, after as many `fill`s as make it at least `width` bytes
/// (`{n:>4}`, `{n:02}`).
pub fn push_padded(out: &mut Vec<u8>, n: u64, width: usize, fill: u8) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for _ in digits.len() - at..width {
        out.push(fill);
    }
    out.extend_from_slice(&digits[at..]);
}

/// Appends `n` in decimal.
#[inline]
pub fn push_decimal(out: &mut Vec<u8>, n: u64) {
    push_padded(out, n, 0, b' ');
}

/// Appends `n` in decimal, with its sign when negative.
#[inline]
pub fn push_signed(out: &mut Vec<u8>, n: i64) {
    if n < 0 {
        out.push(b'-');
    }
    push_decimal(out, n.unsigned_abs());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_display_writes_them() {
        for n in [
            0i64,
            7,
            10,
            99,
            100,
            8191,
            -1,
            -10,
            1_234_567,
            i64::MAX,
            i64::MIN,
        ] {
            let mut out = b"[".to_vec();
            push_signed(&mut out, n);
            assert_eq!(String::from_utf8(out).unwrap(), format!("[{n}"));
        }
        for (n, width, fill, want) in [
            (7, 4, b' ', "   7"),
            (7, 2, b'0', "07"),
            (12345, 2, b'0', "12345"),
        ] {
            let mut out = Vec::new();
            push_padded(&mut out, n, width, fill);
            assert_eq!(String::from_utf8(out).unwrap(), want);
        }
        let mut out = Vec::new();
        push_decimal(&mut out, u64::MAX);
        assert_eq!(String::from_utf8(out).unwrap(), u64::MAX.to_string());
    }
}
