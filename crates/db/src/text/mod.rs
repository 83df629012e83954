//! Text: the Japanese tokenizer and the full-text index (tantivy, in `DIR/text`); the
//! normalisation it shares with name search is [`crate::normalize`].
//!
//! The index is derived from the database, never the record: one document per game (players,
//! event, opening, title, site, every header value) and one per commented position (comments,
//! file remarks, engine lines in a field of their own). It stores no text: a hit names a game
//! and a ply, and the snippet is cut from the game's text as the database holds it, run
//! through [`documents`] again. What the index holds is described by [`GameText`], which the
//! store hands out ([`TextSource`]); this module knows nothing of SQLite.

pub mod generation;
pub mod index;
pub mod names;
mod readonly;
pub mod tokenizer;

pub use index::{Highlighter, Hit, SearchOptions, Snippet, SyncReport, TextIndex};

use std::borrow::Cow;

/// The text of one game, as the index sees it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GameText {
    pub id: i64,
    pub sente: Option<String>,
    pub gote: Option<String>,
    /// The players' ids in the database (sente's, gote's): every document of the game is
    /// indexed under them, so that a search in one player's games reads only theirs.
    pub player_ids: [Option<i64>; 2],
    pub event: Option<String>,
    pub opening: Option<String>,
    /// The opening label, strategies and castles recognised from the moves, each once
    /// (indexed in the opening field beside the header's). Borrowed when they are this
    /// program's names (as an import gives them): no name is copied for the index.
    pub recognised: Vec<Cow<'static, str>>,
    pub title: Option<String>,
    /// Every header `(key, value)` in file order.
    pub headers: Vec<(String, String)>,
    /// `(ply, kind, text)`: kind 0 a comment, 1 an engine line, 2 a remark of the file.
    pub comments: Vec<(i64, u8, String)>,
}

/// The recognised names as [`GameText::recognised`] holds them: each once, in order.
pub fn unique_names(names: impl IntoIterator<Item = Cow<'static, str>>) -> Vec<Cow<'static, str>> {
    let mut out: Vec<Cow<'static, str>> = Vec::new();
    for n in names {
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// Where the games to index come from (the database).
pub trait TextSource {
    type Error: std::error::Error + Send + Sync + 'static;
    /// The largest id ever given to a game (removed games included) and the number of games.
    fn text_span(&self) -> Result<(i64, u64), Self::Error>;
    /// Games with `after < id <= upto` in id order, at most `limit` of them.
    fn text_games(&self, after: i64, upto: i64, limit: usize)
    -> Result<Vec<GameText>, Self::Error>;
    /// The stored games among `ids` (sorted, without repeats), in id order.
    fn text_games_of(&self, ids: &[i64]) -> Result<Vec<GameText>, Self::Error>;
    /// Every game id.
    fn text_game_ids(&self) -> Result<Vec<i64>, Self::Error>;
    /// A number that changes whenever the recognised openings of stored games are computed
    /// again: the index is rebuilt when it no longer matches.
    fn text_epoch(&self) -> Result<i64, Self::Error>;
    /// Whether every game whose recognised openings changed since epoch `since` was revised
    /// since ([`TextSource::text_revised`]): the index then indexes those games again
    /// instead of being rebuilt.
    fn text_epoch_revised(&self, _since: i64) -> Result<bool, Self::Error> {
        Ok(false)
    }
    /// The last revision of a stored game's text (facts a game took from a twin, a merge):
    /// 0 when none was ever made.
    fn text_revision(&self) -> Result<i64, Self::Error> {
        Ok(0)
    }
    /// The games whose text was revised after revision `after`.
    fn text_revised(&self, _after: i64) -> Result<Vec<i64>, Self::Error> {
        Ok(Vec::new())
    }
}

/// What can go wrong with the text index.
#[derive(Debug, thiserror::Error)]
pub enum TextError {
    #[error("text index: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    #[error("cannot read the text query: {0}")]
    Query(String),
    #[error("text index in {0}: {1}")]
    Io(std::path::PathBuf, std::io::Error),
    #[error(transparent)]
    Source(Box<dyn std::error::Error + Send + Sync>),
    #[error("the database has no text index yet ({}): `kifudex upgrade` builds it", .0.display())]
    Missing(std::path::PathBuf),
    #[error(
        "the text index was built by {found}, this kifudex reads {known}'s: `kifudex upgrade` builds it again"
    )]
    Outdated { found: String, known: String },
    #[error(
        "the text index in {} is damaged ({cause}): `kifudex check --repair` builds it again",
        dir.display()
    )]
    Damaged {
        dir: std::path::PathBuf,
        cause: String,
    },
}

/// A searchable field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextField {
    Players,
    Event,
    Opening,
    Title,
    Site,
    Header,
    Comment,
    Remark,
    Engine,
}

impl TextField {
    /// Every field, in the order a hit names the field it matched in.
    pub const ALL: [TextField; 9] = [
        TextField::Players,
        TextField::Event,
        TextField::Opening,
        TextField::Title,
        TextField::Site,
        TextField::Header,
        TextField::Comment,
        TextField::Remark,
        TextField::Engine,
    ];

    /// The name in queries (`opening:矢倉`) and in hits.
    pub fn name(self) -> &'static str {
        match self {
            TextField::Players => "players",
            TextField::Event => "event",
            TextField::Opening => "opening",
            TextField::Title => "title",
            TextField::Site => "site",
            TextField::Header => "header",
            TextField::Comment => "comment",
            TextField::Remark => "remark",
            TextField::Engine => "engine",
        }
    }
}

/// One document of the index: the game (`ply` `None`) or one position of it.
#[derive(Debug, Clone, PartialEq)]
pub struct TextDoc {
    pub ply: Option<i64>,
    pub fields: Vec<(TextField, String)>,
}

impl TextDoc {
    /// The text of a field (empty when the document has none).
    pub fn field(&self, field: TextField) -> &str {
        self.fields
            .iter()
            .find(|(f, _)| *f == field)
            .map_or("", |(_, t)| t)
    }
}

/// Header keys that name the place of a game.
/// Compared ignoring ASCII case (`SITE`, `$SITE`, `Site`).
const SITE_KEYS: &[&str] = &["場所", "site", "$site", "対局場所"];

/// Joins the values of one field.
const SEPARATOR: &str = " / ";

/// The documents of a game: the game's own first, then one per commented position in ply
/// order.
pub fn documents(game: &GameText) -> Vec<TextDoc> {
    let mut docs = Vec::new();
    each_document(game, |ply, fields| {
        docs.push(TextDoc {
            ply,
            fields: fields.iter().map(|&(f, t)| (f, t.to_string())).collect(),
        });
    });
    docs
}

/// Calls `f` with each document of a game, as [`documents`] makes them (its ply and its
/// fields), without a string of its own for each field.
pub fn each_document(game: &GameText, f: impl FnMut(Option<i64>, &[(TextField, &str)])) {
    each_document_as(game, false, f)
}

/// The documents as the index takes them: the recognised names kifudex knows are not in the
/// opening field's text, since the index holds each of them whole ([`names`]).
pub(crate) fn each_indexed_document(
    game: &GameText,
    f: impl FnMut(Option<i64>, &[(TextField, &str)]),
) {
    each_document_as(game, true, f)
}

fn each_document_as(
    game: &GameText,
    names_apart: bool,
    mut f: impl FnMut(Option<i64>, &[(TextField, &str)]),
) {
    let mut doc = DocBuf::default();
    doc.put(
        TextField::Players,
        [&game.sente, &game.gote]
            .into_iter()
            .flatten()
            .map(String::as_str),
        SEPARATOR,
    );
    doc.put(
        TextField::Event,
        game.event.as_deref().into_iter(),
        SEPARATOR,
    );
    let header_opening = game.opening.as_deref();
    let recognised = game
        .recognised
        .iter()
        .map(|n| &**n)
        .filter(|n| Some(*n) != header_opening && !(names_apart && names::is_known(n)));
    doc.put(
        TextField::Opening,
        header_opening.into_iter().chain(recognised),
        SEPARATOR,
    );
    doc.put(
        TextField::Title,
        game.title.as_deref().into_iter(),
        SEPARATOR,
    );
    let site = || {
        game.headers
            .iter()
            .filter(|(k, _)| SITE_KEYS.iter().any(|s| s.eq_ignore_ascii_case(k)))
            .map(|(_, v)| v.as_str())
    };
    doc.put(TextField::Site, site(), SEPARATOR);
    // The other headers' values: a value already in a field above is not indexed twice.
    let typed = [
        &game.sente,
        &game.gote,
        &game.event,
        &game.opening,
        &game.title,
    ];
    let is_typed =
        |v: &str| typed.iter().any(|t| t.as_deref() == Some(v)) || site().any(|s| s == v);
    let values = game
        .headers
        .iter()
        .map(|(_, v)| v.as_str())
        .filter(|v| !is_typed(v));
    doc.put(TextField::Header, values, SEPARATOR);
    doc.emit(None, &mut f);

    let mut i = 0;
    while i < game.comments.len() {
        let ply = game.comments[i].0;
        let end = i + game.comments[i..]
            .iter()
            .take_while(|(p, _, _)| *p == ply)
            .count();
        let group = &game.comments[i..end];
        for (kind, field) in [TextField::Comment, TextField::Engine, TextField::Remark]
            .into_iter()
            .enumerate()
        {
            let texts = group
                .iter()
                .filter(|(_, k, _)| (*k as usize).min(2) == kind)
                .map(|(_, _, t)| t.as_str());
            doc.put(field, texts, "\n");
        }
        doc.emit(Some(ply), &mut f);
        i = end;
    }
}

/// The fields of the document being made: their texts one after the other in `text`.
#[derive(Default)]
struct DocBuf {
    text: String,
    fields: Vec<(TextField, std::ops::Range<usize>)>,
}

impl DocBuf {
    /// Adds a field of `parts` joined by `separator`, unless that is blank.
    fn put<'a>(&mut self, field: TextField, parts: impl Iterator<Item = &'a str>, separator: &str) {
        let start = self.text.len();
        for (n, part) in parts.enumerate() {
            if n > 0 {
                self.text.push_str(separator);
            }
            self.text.push_str(part);
        }
        if self.text[start..].trim().is_empty() {
            self.text.truncate(start);
        } else {
            self.fields.push((field, start..self.text.len()));
        }
    }

    /// Hands the document to `f`, if it has a field, and starts the next.
    fn emit(&mut self, ply: Option<i64>, f: &mut impl FnMut(Option<i64>, &[(TextField, &str)])) {
        let mut fields = [(TextField::Players, ""); TextField::ALL.len()];
        let n = self.fields.len();
        for (slot, (field, range)) in fields.iter_mut().zip(&self.fields) {
            *slot = (*field, &self.text[range.clone()]);
        }
        if n > 0 || ply.is_none() {
            f(ply, &fields[..n]);
        }
        self.text.clear();
        self.fields.clear();
    }
}
