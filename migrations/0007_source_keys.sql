-- kifudex schema 4: a source is known by its exact identity, not by the path as displayed.
--
-- `key` holds the raw bytes that name it: 'f' and the file's path bytes (a name that is no
-- UTF-8 included), or 'z', the archive's path bytes, a NUL and the entry's index in the
-- archive (two entries of the same name are two sources; a file named `c.zip!x.kif` is not
-- the entry `x.kif` of `c.zip`). `path` stays the display form. Rows of an older schema have
-- no key: an import finds them by their path once, and gives them their key.
ALTER TABLE sources ADD COLUMN key BLOB;
CREATE UNIQUE INDEX sources_key ON sources(key);
