//! A request's query string: decoded once, read by name, and checked so that a parameter the
//! endpoint does not know is an error rather than silently ignored.

use super::api::ApiError;

/// The longest query string accepted (a long `play` list is a few KB).
const MAX_QUERY: usize = 64 * 1024;

/// The decoded `name=value` pairs of a query string, in order.
#[derive(Debug, Clone, Default)]
pub struct Params(Vec<(String, String)>);

impl Params {
    /// Decodes `a=1&b=x%20y` (`+` is a space, `%XX` a byte; the bytes must be UTF-8).
    pub fn parse(query: &str) -> Result<Params, ApiError> {
        if query.len() > MAX_QUERY {
            return Err(ApiError::BadRequest(format!(
                "the query string is longer than {MAX_QUERY} bytes"
            )));
        }
        let mut pairs = Vec::new();
        for part in query.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            pairs.push((decode(k)?, decode(v)?));
        }
        Ok(Params(pairs))
    }

    /// The parameters as one text, the same for the same parameters in the same order: the
    /// key of a kept answer.
    pub fn key(&self) -> String {
        let mut key = String::new();
        for (k, v) in &self.0 {
            key.push_str(k);
            key.push('\0');
            key.push_str(v);
            key.push('\0');
        }
        key
    }

    /// The value of `name` (the last one when given twice), empty values counting as absent.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, v)| k == name && !v.trim().is_empty())
            .map(|(_, v)| v.trim())
    }

    /// `name` as a number in `1..=max`, `default` when absent.
    pub fn limit(&self, name: &str, default: usize, max: usize) -> Result<usize, ApiError> {
        match self.get(name) {
            None => Ok(default),
            Some(v) => match v.parse::<usize>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                _ => Err(ApiError::BadRequest(format!(
                    "{name}={v:?}: give a number from 1 to {max}"
                ))),
            },
        }
    }

    /// `name` as a whole number, `None` when absent.
    pub fn number(&self, name: &str) -> Result<Option<u64>, ApiError> {
        self.get(name)
            .map(|v| {
                v.parse::<u64>().map_err(|_| {
                    ApiError::BadRequest(format!("{name}={v:?} is not a whole number"))
                })
            })
            .transpose()
    }

    /// `name` as a flag: `1`, `true` or `yes` (absent: false).
    pub fn flag(&self, name: &str) -> Result<bool, ApiError> {
        match self.get(name) {
            None | Some("0" | "false" | "no") => Ok(false),
            Some("1" | "true" | "yes") => Ok(true),
            Some(v) => Err(ApiError::BadRequest(format!("{name}={v:?}: give 1 or 0"))),
        }
    }

    /// An error naming the first parameter not in `known`.
    pub fn only(&self, known: &[&[&str]]) -> Result<(), ApiError> {
        for (k, _) in &self.0 {
            if !known.iter().any(|set| set.contains(&k.as_str())) {
                let mut all: Vec<&str> = known.iter().flat_map(|s| s.iter().copied()).collect();
                all.sort_unstable();
                return Err(ApiError::BadRequest(format!(
                    "unknown parameter {k:?} (this call takes: {})",
                    all.join(", ")
                )));
            }
        }
        Ok(())
    }
}

fn decode(s: &str) -> Result<String, ApiError> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = b
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| {
                        ApiError::BadRequest(format!("a bad %-escape in the query string: {s:?}"))
                    })?;
                out.push(hex);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out)
        .map_err(|_| ApiError::BadRequest("the query string is not UTF-8".to_string()))
}
