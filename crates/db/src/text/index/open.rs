//! Opening the index: to read it (nothing written), to write it (one of another version
//! thrown away and started again), brought up to date, or built again beside the current one.

use std::path::Path;

use tantivy::{Index, TantivyError};

use super::{Payload, SyncReport, TextError, TextIndex, TextSource, io, schema, source, version};

impl TextIndex {
    /// Opens the current index of the database's text folder `base` to read it: nothing is
    /// written, no lock file made. An index that is missing or was built by another version
    /// is an error that names `kifudex upgrade`; one behind the database is read as it is
    /// ([`TextIndex::behind`] says how far).
    pub fn open_read(base: &Path) -> Result<TextIndex, TextError> {
        let dir = super::super::generation::current(base);
        if !dir.join("meta.json").is_file() {
            return Err(TextError::Missing(base.to_path_buf()));
        }
        let damaged = |e: tantivy::TantivyError| TextError::Damaged {
            dir: dir.clone(),
            cause: e.to_string(),
        };
        let index =
            Index::open(super::super::readonly::ReadOnlyDirectory::open(&dir)?).map_err(damaged)?;
        let state: Payload = match index.load_metas().map_err(damaged)?.payload {
            None => Payload::default(),
            Some(p) => serde_json::from_str(&p).unwrap_or_default(),
        };
        if state.version != version() || index.schema() != schema() {
            return Err(TextError::Outdated {
                found: if state.version.is_empty() {
                    "an unknown version".into()
                } else {
                    state.version
                },
                known: version(),
            });
        }
        Ok(TextIndex::from_index(&dir, index, state))
    }

    /// Reads every file of the current index against its checksum and opens every segment:
    /// what is damaged, in words (empty when nothing is).
    pub fn check(base: &Path) -> Vec<String> {
        let index = match TextIndex::open_read(base) {
            Ok(i) => i,
            Err(e) => return vec![e.to_string()],
        };
        let mut damage = Vec::new();
        match index.index.validate_checksum() {
            Ok(bad) => {
                let mut bad: Vec<String> = bad.iter().map(|p| p.display().to_string()).collect();
                bad.sort();
                for file in bad {
                    damage.push(format!(
                        "{}: does not match its checksum",
                        index.dir.join(file).display()
                    ));
                }
            }
            Err(e) => damage.push(format!("cannot be read whole: {e}")),
        }
        if let Err(e) = index.game_ids() {
            damage.push(format!("its segments cannot be read: {e}"));
        }
        damage
    }

    /// What the index lacks of the database, in words (None: it is up to date).
    pub fn behind(&self, src: &impl TextSource) -> Result<Option<String>, TextError> {
        let (max, count) = src.text_span().map_err(source)?;
        let epoch = src.text_epoch().map_err(source)?;
        if epoch != self.state.openings
            && !src
                .text_epoch_revised(self.state.openings)
                .map_err(source)?
        {
            return Ok(Some(
                "the text index names openings recognised by older definitions: `kifudex upgrade` brings it up to date".into(),
            ));
        }
        if max == self.state.last_id
            && count == self.state.games
            && src.text_revision().map_err(source)? <= self.state.revision
        {
            return Ok(None);
        }
        let missing = count.abs_diff(self.state.games);
        Ok(Some(format!(
            "the text index is behind the database by about {missing} games: `kifudex upgrade` brings it up to date"
        )))
    }

    /// Opens the current index of the database's text folder `base` to write it, creating it
    /// when missing. An index built by another version, or one that cannot be opened, is
    /// thrown away and started again empty (the notice says so): [`TextIndex::sync`] then
    /// fills it from the database.
    pub fn open(base: &Path) -> Result<(TextIndex, Option<String>), TextError> {
        let dir = super::super::generation::current(base);
        let dir = dir.as_path();
        let mut notice = None;
        if dir.join("meta.json").is_file() {
            match Index::open_in_dir(dir) {
                Ok(index) => {
                    let payload = index.load_metas()?.payload;
                    let state: Payload = match payload {
                        None => Payload {
                            version: version(),
                            ..Payload::default()
                        },
                        Some(p) => serde_json::from_str(&p).unwrap_or_default(),
                    };
                    if state.version == version() && index.schema() == schema() {
                        return Ok((TextIndex::from_index(dir, index, state), None));
                    }
                    notice = Some(format!(
                        "the text index was built with {}, this kifudex uses {}: rebuilding it from the database",
                        if state.version.is_empty() {
                            "an unknown version"
                        } else {
                            &state.version
                        },
                        version()
                    ));
                }
                Err(e) => {
                    notice = Some(format!(
                        "cannot open the text index ({e}): rebuilding it from the database"
                    ));
                }
            }
        }
        if dir.exists() {
            std::fs::remove_dir_all(dir).map_err(io(dir))?;
        }
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let index = Index::create_in_dir(dir, schema())?;
        let state = Payload {
            version: version(),
            ..Payload::default()
        };
        Ok((TextIndex::from_index(dir, index, state), notice))
    }

    /// Opens the index and brings it up to date with the database. When another process
    /// holds the index's writer lock (an import running), the index is searched as it is.
    pub fn open_synced(
        dir: &Path,
        src: &impl TextSource,
    ) -> Result<(TextIndex, SyncReport), TextError> {
        let (mut index, notice) = TextIndex::open(dir)?;
        let mut report = match index.sync(src) {
            Ok(r) => r,
            Err(TextError::Tantivy(TantivyError::LockFailure(..))) => SyncReport {
                notice: Some(
                    "the text index is being written by another kifudex: searching it as it is"
                        .into(),
                ),
                ..SyncReport::default()
            },
            Err(e) => return Err(e),
        };
        report.notice = notice.or(report.notice);
        Ok((index, report))
    }

    /// Builds the index again from the database, in a folder of its own
    /// ([`super::generation`]), and makes it the current one once it is whole: searches
    /// beside it answer from the index before until then.
    pub fn rebuild(base: &Path, src: &impl TextSource) -> Result<SyncReport, TextError> {
        let dir = super::super::generation::next(base).map_err(io(base))?;
        let index = Index::create_in_dir(&dir, schema())?;
        let state = Payload {
            version: version(),
            ..Payload::default()
        };
        let mut index = TextIndex::from_index(&dir, index, state);
        let report = index.sync(src)?;
        index.finish()?;
        super::super::generation::switch(base, &dir).map_err(io(base))?;
        Ok(report)
    }
}
