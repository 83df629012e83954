//! Integration tests, one binary (see Cargo.toml).
