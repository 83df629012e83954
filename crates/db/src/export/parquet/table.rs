//! A Parquet file written a row group at a time ([`Table`]): its columns gathered in memory,
//! each encoded and compressed on its own on rayon's threads while the next row group is
//! gathered, then appended in order. The files and their rows are the business of the
//! module above.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{Compression, Encoding};
use parquet::column::writer::{ColumnCloseResult, get_column_writer, get_typed_column_writer};
use parquet::data_type::{ByteArray, ByteArrayType, DataType, Int32Type, Int64Type};
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesPtr};
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::{ColumnDescPtr, ColumnPath, SchemaDescPtr, SchemaDescriptor};
use rayon::prelude::*;

use super::super::{ExportError, temporary};

/// One column of a row group being gathered. Optional columns keep the values present and
/// the definition levels apart, as the column writer takes them; the fields of a list's
/// elements (`Rep…`) keep repetition levels too.
pub(super) enum Column {
    I64(Vec<i64>),
    I32(Vec<i32>),
    OptI32(Vec<i32>, Vec<i16>),
    Str(Vec<ByteArray>),
    OptStr(Vec<ByteArray>, Vec<i16>),
    /// A text field of a list's elements: values, definition and repetition levels.
    RepStr(Vec<ByteArray>, Vec<i16>, Vec<i16>),
    /// A number field of a list's elements.
    RepI32(Vec<i32>, Vec<i16>, Vec<i16>),
}

impl Column {
    pub(super) fn opt_i32() -> Column {
        Column::OptI32(Vec::new(), Vec::new())
    }

    pub(super) fn opt_str() -> Column {
        Column::OptStr(Vec::new(), Vec::new())
    }

    pub(super) fn rep_str() -> Column {
        Column::RepStr(Vec::new(), Vec::new(), Vec::new())
    }

    pub(super) fn rep_i32() -> Column {
        Column::RepI32(Vec::new(), Vec::new(), Vec::new())
    }

    /// The same kind of column, empty.
    fn empty_like(&self) -> Column {
        match self {
            Column::I64(_) => Column::I64(Vec::new()),
            Column::I32(_) => Column::I32(Vec::new()),
            Column::OptI32(..) => Column::opt_i32(),
            Column::Str(_) => Column::Str(Vec::new()),
            Column::OptStr(..) => Column::opt_str(),
            Column::RepStr(..) => Column::rep_str(),
            Column::RepI32(..) => Column::rep_i32(),
        }
    }

    fn clear(&mut self) {
        match self {
            Column::I64(v) => v.clear(),
            Column::I32(v) => v.clear(),
            Column::OptI32(v, d) => {
                v.clear();
                d.clear();
            }
            Column::Str(v) => v.clear(),
            Column::OptStr(v, d) => {
                v.clear();
                d.clear();
            }
            Column::RepStr(v, d, r) => {
                v.clear();
                d.clear();
                r.clear();
            }
            Column::RepI32(v, d, r) => {
                v.clear();
                d.clear();
                r.clear();
            }
        }
    }
}

/// Pushes one row's list onto the columns of its elements' fields, one `field` call per
/// column and element (`None` for a row whose list is empty): for a required list of
/// required elements, an element is defined at level 1 and repeats the row's list from its
/// second on; an empty list is a single level-0 entry.
pub(super) fn push_list<T>(
    values: &mut Vec<T>,
    defs: &mut Vec<i16>,
    reps: &mut Vec<i16>,
    items: impl IntoIterator<Item = T>,
) {
    let mut first = true;
    for v in items {
        values.push(v);
        defs.push(1);
        reps.push(if first { 0 } else { 1 });
        first = false;
    }
    if first {
        defs.push(0);
        reps.push(0);
    }
}

/// Pushes a value that may be missing onto an optional column's values and levels.
pub(super) fn push_opt<T>(values: &mut Vec<T>, defs: &mut Vec<i16>, v: Option<T>) {
    match v {
        Some(v) => {
            values.push(v);
            defs.push(1);
        }
        None => defs.push(0),
    }
}

pub(super) fn text(s: &str) -> ByteArray {
    ByteArray::from(s.as_bytes().to_vec())
}

/// A cell of text that lives as long as the program: copied into a row for nothing (no
/// reference count to change).
pub(super) fn static_text(s: &'static str) -> ByteArray {
    ByteArray::from(Bytes::from_static(s.as_bytes()))
}

pub(super) fn opt_text(s: Option<&str>) -> Option<ByteArray> {
    s.map(text)
}

/// One column chunk encoded (and compressed) on its own, in memory: its bytes and what the
/// row group needs to know of them.
fn encode_column(
    column: &Column,
    descr: ColumnDescPtr,
    props: WriterPropertiesPtr,
) -> Result<(Bytes, ColumnCloseResult), ParquetError> {
    fn write<T: DataType>(
        w: parquet::column::writer::ColumnWriter<'_>,
        values: &[T::T],
        defs: Option<&[i16]>,
        reps: Option<&[i16]>,
    ) -> Result<ColumnCloseResult, ParquetError> {
        let mut w = get_typed_column_writer::<T>(w);
        w.write_batch(values, defs, reps)?;
        w.close()
    }
    let mut sink = TrackedWrite::new(Vec::new());
    let close = {
        let w = get_column_writer(descr, props, Box::new(SerializedPageWriter::new(&mut sink)));
        match column {
            Column::I64(v) => write::<Int64Type>(w, v, None, None)?,
            Column::I32(v) => write::<Int32Type>(w, v, None, None)?,
            Column::OptI32(v, d) => write::<Int32Type>(w, v, Some(d), None)?,
            Column::Str(v) => write::<ByteArrayType>(w, v, None, None)?,
            Column::OptStr(v, d) => write::<ByteArrayType>(w, v, Some(d), None)?,
            Column::RepStr(v, d, r) => write::<ByteArrayType>(w, v, Some(d), Some(r))?,
            Column::RepI32(v, d, r) => write::<Int32Type>(w, v, Some(d), Some(r))?,
        }
    };
    Ok((Bytes::from(sink.into_inner()?), close))
}

/// How a column is written when not as the table's default (dictionary, Snappy).
#[derive(Debug, Clone, Copy)]
pub(super) enum Layout {
    /// No dictionary, this encoding, uncompressed: bit-packed or random values, in which
    /// compression would find nothing to take out.
    Plain(Encoding),
    /// A dictionary, uncompressed: small numbers whose bit-packed indices Snappy cannot
    /// shorten.
    Dictionary,
}

/// The columns of a row group encoded, and the gathered columns handed back to be reused.
type Encoded = (
    Result<Vec<(Bytes, ColumnCloseResult)>, ParquetError>,
    Vec<Column>,
);

/// A Parquet file written a row group at a time, under a temporary name until closed. The
/// columns of a row group are encoded and compressed in parallel on rayon's threads, each
/// into memory, while the next row group is gathered; then appended to the file in order.
/// At most two row groups are held: the one being gathered and the one being encoded.
pub(super) struct Table {
    path: PathBuf,
    tmp: PathBuf,
    writer: Option<SerializedFileWriter<BufWriter<File>>>,
    schema: SchemaDescPtr,
    props: WriterPropertiesPtr,
    pub(super) columns: Vec<Column>,
    pub(super) rows: usize,
    /// The row group being encoded, when one is.
    encoding: Option<std::sync::mpsc::Receiver<Encoded>>,
    /// Emptied columns to gather the next row group into.
    spare: Option<Vec<Column>>,
}

impl Table {
    /// A table of this schema; the columns named in `layouts` are written as said there,
    /// the others dictionary-encoded (falling back to plain past the dictionary's size
    /// limit) and Snappy-compressed.
    pub(super) fn create(
        path: &Path,
        schema: &str,
        columns: Vec<Column>,
        layouts: &[(&str, Layout)],
    ) -> Result<Table, ExportError> {
        let bad = |e: ParquetError| ExportError::Parquet(path.to_path_buf(), e.to_string());
        let schema = Arc::new(parse_message_type(schema).map_err(bad)?);
        let mut props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_statistics_enabled(EnabledStatistics::Chunk);
        for &(name, layout) in layouts {
            let col = ColumnPath::from(name);
            props = props.set_column_compression(col.clone(), Compression::UNCOMPRESSED);
            if let Layout::Plain(encoding) = layout {
                props = props
                    .set_column_dictionary_enabled(col.clone(), false)
                    .set_column_encoding(col, encoding);
            }
        }
        let props = Arc::new(props.build());
        let descr = Arc::new(SchemaDescriptor::new(schema.clone()));
        let tmp = temporary(path);
        let file = File::create(&tmp).map_err(|e| ExportError::Io(tmp.clone(), e))?;
        let writer = SerializedFileWriter::new(
            BufWriter::with_capacity(1 << 20, file),
            schema,
            props.clone(),
        )
        .map_err(bad)?;
        Ok(Table {
            path: path.to_path_buf(),
            tmp,
            writer: Some(writer),
            schema: descr,
            props,
            columns,
            rows: 0,
            encoding: None,
            spare: None,
        })
    }

    fn bad(&self, e: ParquetError) -> ExportError {
        ExportError::Parquet(self.path.clone(), e.to_string())
    }

    /// Hands the gathered rows over to be encoded as one row group, once the row group
    /// before is in the file.
    pub(super) fn flush(&mut self) -> Result<(), ExportError> {
        if self.rows == 0 {
            return Ok(());
        }
        self.append_encoded()?;
        let empty = self
            .spare
            .take()
            .unwrap_or_else(|| self.columns.iter().map(Column::empty_like).collect());
        let columns = std::mem::replace(&mut self.columns, empty);
        self.rows = 0;
        let (schema, props) = (self.schema.clone(), self.props.clone());
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        rayon::spawn(move || {
            let chunks = columns
                .par_iter()
                .enumerate()
                .map(|(i, column)| encode_column(column, schema.column(i), props.clone()))
                .collect();
            let _ = tx.send((chunks, columns));
        });
        self.encoding = Some(rx);
        Ok(())
    }

    /// Waits for the row group being encoded, if any, and appends it to the file.
    fn append_encoded(&mut self) -> Result<(), ExportError> {
        let Some(rx) = self.encoding.take() else {
            return Ok(());
        };
        let (chunks, mut columns) = rx.recv().map_err(|_| ExportError::Stopped)?;
        for c in &mut columns {
            c.clear();
        }
        self.spare = Some(columns);
        let chunks = chunks.map_err(|e| self.bad(e))?;
        let path = &self.path;
        let bad = |e: ParquetError| ExportError::Parquet(path.clone(), e.to_string());
        let writer = self.writer.as_mut().expect("open until closed");
        let mut group = writer.next_row_group().map_err(bad)?;
        for (bytes, close) in chunks {
            group.append_column(&bytes, close).map_err(bad)?;
        }
        group.close().map_err(bad)?;
        Ok(())
    }

    pub(super) fn close(mut self) -> Result<(), ExportError> {
        self.flush()?;
        self.append_encoded()?;
        let writer = self.writer.take().expect("open until closed");
        let inner = writer.into_inner().map_err(|e| self.bad(e))?;
        let file = inner
            .into_inner()
            .map_err(|e| ExportError::Io(self.path.clone(), e.into_error()))?;
        file.sync_data()
            .map_err(|e| ExportError::Io(self.path.clone(), e))?;
        std::fs::rename(&self.tmp, &self.path).map_err(|e| ExportError::Io(self.path.clone(), e))
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        // Not closed: no half-written file stays behind.
        if self.writer.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}
