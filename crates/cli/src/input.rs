//! Reading datasets and configs from files or stdin, and telling JSONL (streamed row by row)
//! from whole JSON documents. Also the `validate` command.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use agenteval_core::dataset::{self, Loaded};
use agenteval_core::json::Value;
use agenteval_core::{json, plan, Diagnostic, InputError, Severity};

use crate::terminal::visible;
use crate::UsageError;

/// The most bytes of a dataset read whole (JSON documents, CSV, and JSON Lines scored with a judge
/// or templates); JSON Lines scored without them are streamed row by row, with no limit.
pub const MAX_WHOLE_DATASET: u64 = 1 << 30;

/// The most bytes of a config or prompt template file.
pub const MAX_SIDE_FILE: u64 = 16 << 20;

/// How far into an input the first-bytes check looks.
const START_CHECKED: usize = 8192;

/// Refuses an input whose first bytes show it is no text: a NUL byte (a binary file, `/dev/zero`).
/// UTF-16 text, which has NULs, starts with its byte-order mark and is left for the reader to
/// explain.
fn check_start(prefix: &[u8], name: &str) -> Result<(), UsageError> {
    if prefix.starts_with(b"\xFF\xFE") || prefix.starts_with(b"\xFE\xFF") {
        return Ok(());
    }
    let prefix = prefix.get(..START_CHECKED).unwrap_or(prefix);
    match memchr::memchr(0, prefix) {
        Some(position) => Err(UsageError(format!(
            "{name}: byte {position} is NUL: this is not a text file (expected JSON, JSON Lines \
             or CSV text)"
        ))),
        None => Ok(()),
    }
}

/// Reads the rest of `reader` into `into`, refusing to grow it past `limit` bytes.
pub fn read_bounded(reader: &mut dyn Read, into: &mut Vec<u8>, limit: u64) -> io::Result<()> {
    let room = limit.saturating_sub(into.len() as u64);
    reader.take(room.saturating_add(1)).read_to_end(into)?;
    if into.len() as u64 > limit {
        let why = if limit == MAX_WHOLE_DATASET {
            "the most agenteval reads whole (JSON Lines scored without a judge are streamed row \
             by row, with no limit)"
        } else {
            "the most a config or template may be"
        };
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {} MiB, {why}", limit >> 20),
        ));
    }
    Ok(())
}

/// A config or template file, refused when it is not text or is larger than [`MAX_SIDE_FILE`].
pub fn read_side_file(path: &Path, what: &str) -> Result<Vec<u8>, UsageError> {
    let name = path.display().to_string();
    let cannot = |error: io::Error| UsageError(format!("{name}: cannot read the {what}: {error}"));
    let mut file = BufReader::new(File::open(path).map_err(cannot)?);
    check_start(file.fill_buf().map_err(cannot)?, &name)?;
    let mut bytes = Vec::new();
    read_bounded(&mut file, &mut bytes, MAX_SIDE_FILE).map_err(cannot)?;
    Ok(bytes)
}

/// The name diagnostics use for a dataset argument.
pub fn source_name(dataset: &str) -> &str {
    if dataset == "-" {
        "<stdin>"
    } else {
        dataset
    }
}

/// A dataset being read, with its size when known.
pub struct Opened {
    reader: Box<dyn BufRead>,
    size: Option<u64>,
}

/// Opens a dataset file, or stdin for `-`, and checks its first bytes are text.
pub fn open(dataset: &str) -> Result<Opened, UsageError> {
    let mut opened = if dataset == "-" {
        Opened {
            reader: Box::new(BufReader::new(io::stdin())),
            size: None,
        }
    } else {
        let file = File::open(dataset)
            .map_err(|error| UsageError(format!("{dataset}: cannot read the dataset: {error}")))?;
        Opened {
            size: file.metadata().ok().map(|meta| meta.len()),
            reader: Box::new(BufReader::with_capacity(1 << 16, file)),
        }
    };
    let name = source_name(dataset);
    let prefix = opened
        .reader
        .fill_buf()
        .map_err(|error| UsageError(format!("{name}: cannot read: {error}")))?;
    check_start(prefix, name)?;
    Ok(opened)
}

impl Opened {
    /// Everything, read into a buffer sized up front when the size is known.
    pub fn read_all(mut self) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::with_capacity(first_line_capacity(self.size));
        read_bounded(&mut self.reader, &mut bytes, MAX_WHOLE_DATASET)?;
        Ok(bytes)
    }
}

/// Room reserved for the first line: a whole single-line document is then read without being
/// copied as its buffer grows. Capped, because the first line of JSON Lines is one row.
fn first_line_capacity(size: Option<u64>) -> usize {
    const CAP: u64 = 1 << 30;
    size.map_or(0, |size| usize::try_from(size.min(CAP)).unwrap_or(0))
}

/// Reads and parses a `--config` file.
pub fn read_config(path: Option<&Path>) -> Result<Option<Value>, UsageError> {
    let Some(path) = path else {
        return Ok(None);
    };
    let name = path.display().to_string();
    let bytes = read_side_file(path, "config")?;
    json::parse(&bytes)
        .map(Some)
        .map_err(|diagnostic| UsageError(diagnostic.in_source(&name).to_string()))
}

/// A dataset's text, either whole or as JSON Lines still to be read.
pub enum Source {
    /// A whole JSON document (or anything that is not JSONL).
    Whole(Vec<u8>),
    /// JSON Lines: the first lines already read (with their 1-based numbers) and the rest.
    Lines {
        /// Lines read while sniffing.
        head: Vec<(usize, Vec<u8>)>,
        /// The unread rest.
        rest: Box<dyn BufRead>,
        /// Number of the last line read.
        last_line: usize,
    },
}

/// Reads enough of `reader` to tell JSONL from a JSON document, by the core's rule
/// ([`plan::is_json_lines`]) on the first two non-empty lines: a one-line object is JSONL when
/// `config_given`.
pub fn sniff(opened: Opened, name: &str, config_given: bool) -> Result<Source, UsageError> {
    let Opened { mut reader, size } = opened;
    let read_error = |error: io::Error| UsageError(format!("{name}: cannot read: {error}"));
    let mut consumed = Vec::new();
    let mut head = Vec::new();
    let mut number = 0;
    let mut reached_end = false;
    while head.len() < 2 {
        let mut line = Vec::with_capacity(if number == 0 {
            first_line_capacity(size)
        } else {
            0
        });
        if read_line(&mut *reader, &mut line).map_err(read_error)? == 0 {
            reached_end = true;
            break;
        }
        number += 1;
        let start = consumed.len();
        if consumed.is_empty() {
            consumed = line;
        } else {
            consumed.extend_from_slice(&line);
        }
        let trimmed = consumed.get(start..).unwrap_or_default().trim_ascii();
        if trimmed.is_empty() {
            continue;
        }
        if !trimmed.starts_with(b"{") {
            break;
        }
        head.push((number, start..consumed.len()));
    }
    let line = |index: usize| {
        head.get(index)
            .and_then(|(_, range): &(usize, std::ops::Range<usize>)| consumed.get(range.clone()))
    };
    let lines = match (line(0), line(1)) {
        (Some(first), second) if second.is_some() || reached_end => {
            plan::is_json_lines(first, second, config_given)
        }
        _ => false,
    };
    if lines {
        let head = head
            .into_iter()
            .map(|(number, range)| {
                let line = consumed.get(range).unwrap_or_default();
                let line = line.strip_suffix(b"\n").unwrap_or(line);
                (number, line.to_vec())
            })
            .collect();
        return Ok(Source::Lines {
            head,
            rest: reader,
            last_line: number,
        });
    }
    read_bounded(&mut reader, &mut consumed, MAX_WHOLE_DATASET).map_err(read_error)?;
    Ok(Source::Whole(consumed))
}

/// `BufRead::read_until(b'\n', line)` with `memchr`'s vectorised search: a document written on
/// one line is searched to its end.
fn read_line(reader: &mut dyn BufRead, line: &mut Vec<u8>) -> io::Result<usize> {
    let mut read = 0;
    loop {
        let buffered = match reader.fill_buf() {
            Ok(buffered) => buffered,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        let (taken, complete) = match memchr::memchr(b'\n', buffered) {
            Some(newline) => (newline + 1, true),
            None => (buffered.len(), buffered.is_empty()),
        };
        line.extend_from_slice(buffered.get(..taken).unwrap_or_default());
        reader.consume(taken);
        read += taken;
        if complete {
            return Ok(read);
        }
    }
}

/// Prints diagnostics to stderr, naming the source.
pub fn report_diagnostics(diagnostics: &[Diagnostic], name: &str) {
    for diagnostic in diagnostics {
        eprintln!(
            "{}",
            visible(&in_cli_words(diagnostic.clone()).in_source(name).to_string())
        );
    }
}

/// `diagnostic` with the CLI's way of fixing it, for the problems each host fixes with a control
/// of its own ([`Diagnostic::code`]).
fn in_cli_words(mut diagnostic: Diagnostic) -> Diagnostic {
    if diagnostic.code == Some(dataset::foundry::CONFIG_MISSING) {
        diagnostic.message.push_str(" (pass --config FILE)");
    }
    diagnostic
}

/// Loads a whole dataset, printing its diagnostics.
pub fn load_whole(bytes: &[u8], config: Option<&Value>, name: &str) -> Result<Loaded, UsageError> {
    match dataset::load(bytes, config) {
        Ok(loaded) => {
            report_diagnostics(&loaded.diagnostics, name);
            Ok(loaded)
        }
        Err(error) => Err(input_error(error, name)),
    }
}

/// A dataset the core refused, as the usage error naming `name` and each problem's place.
pub fn input_error(error: InputError, name: &str) -> UsageError {
    let rendered: Vec<String> = error
        .diagnostics
        .into_iter()
        .map(|diagnostic| {
            visible(&in_cli_words(diagnostic).in_source(name).to_string()).into_owned()
        })
        .collect();
    UsageError(rendered.join("\n"))
}

/// `agenteval validate`: reports every problem; exit 2 when any is an error.
pub fn validate(dataset: &str, config: Option<&Path>) -> Result<u8, UsageError> {
    let name = source_name(dataset);
    let config = read_config(config)?;
    let bytes = open(dataset)?
        .read_all()
        .map_err(|error| UsageError(format!("{name}: cannot read: {error}")))?;
    let loaded = load_whole(&bytes, config.as_ref(), name)?;
    let errors = loaded
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.severity == Severity::Error)
        .count();
    let (dialect, entries) = match &loaded.dataset {
        dataset::Dataset::M365(document) => ("m365", document.items().len()),
        dataset::Dataset::Foundry(rows) => ("foundry", rows.rows.len()),
        dataset::Dataset::CopilotStudio(set) => ("copilot_studio", set.rows.len()),
    };
    if errors > 0 {
        eprintln!("{name}: invalid: {errors} error(s) in {entries} item(s) ({dialect})");
        return Ok(2);
    }
    eprintln!("{name}: valid {dialect} dataset with {entries} item(s)");
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_as_read_until_reads_them_across_buffer_refills() {
        let text = b"first line\n\n{\"a\": 1}\r\nno newline at the end";
        for capacity in [1, 2, 3, 7, 64] {
            let mut ours = BufReader::with_capacity(capacity, &text[..]);
            let mut std = BufReader::with_capacity(capacity, &text[..]);
            loop {
                let (mut line, mut expected) = (b"kept ".to_vec(), b"kept ".to_vec());
                let read = read_line(&mut ours, &mut line).unwrap();
                let expected_read = std.read_until(b'\n', &mut expected).unwrap();
                assert_eq!((read, &line), (expected_read, &expected), "{capacity}");
                if read == 0 {
                    break;
                }
            }
        }
    }

    fn sniffed(text: &str) -> Source {
        let opened = Opened {
            reader: Box::new(io::Cursor::new(text.as_bytes().to_vec())),
            size: None,
        };
        sniff(opened, "test", false).unwrap()
    }

    fn whole(text: &str) -> Vec<u8> {
        match sniffed(text) {
            Source::Whole(bytes) => bytes,
            Source::Lines { head, .. } => panic!("{text:?} read as JSON Lines: {head:?}"),
        }
    }

    #[test]
    fn two_object_lines_are_json_lines() {
        let Source::Lines {
            head,
            mut rest,
            last_line,
        } = sniffed("\n{\"a\": 1}\n\n{\"b\": 2}\n{\"c\": 3}\n")
        else {
            panic!("not read as JSON Lines");
        };
        let rows: Vec<(usize, &[u8])> = head.iter().map(|(n, line)| (*n, &line[..])).collect();
        assert_eq!(rows, [(2, &b"{\"a\": 1}"[..]), (4, &b"{\"b\": 2}"[..])]);
        assert_eq!(last_line, 4);
        let mut unread = String::new();
        rest.read_to_string(&mut unread).unwrap();
        assert_eq!(unread, "{\"c\": 3}\n");
    }

    #[test]
    fn documents_are_read_whole_and_unchanged() {
        for text in [
            "{\"items\": []}",
            "{\"items\": []}\n",
            "\n\n{\"items\": [{\"prompt\": \"p\"}]}\n\n",
            "{\n  \"items\": []\n}\n",
            "[\n{\"prompt\": \"p\"},\n{\"prompt\": \"q\"}\n]",
            "{\"a\":\n{\"b\": 2}\n}",
            "not json at all\n{\"b\": 2}\n",
            "",
        ] {
            assert_eq!(whole(text), text.as_bytes(), "{text:?}");
        }
    }
}
