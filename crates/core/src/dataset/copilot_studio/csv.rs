//! A small RFC 4180 reader over text already decoded as UTF-8 (the BOM already stripped): records
//! of fields separated by `,`, ended by CRLF or LF, fields optionally quoted with `"` (quotes
//! inside doubled, commas, quotes and line breaks allowed inside).
//!
//! It never stops at a bad record: a quote inside an unquoted field, text after a closing quote or
//! a quoted field never closed makes that record a [`BadRecord`] naming its line, field and
//! column, and reading resumes at the line after the one where the bad field began, so no other
//! record is lost. Lines with nothing on them are skipped. It decides nothing about columns.

/// One record and the 1-based line it starts on.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// 1-based line where the record starts.
    pub line: usize,
    /// The fields, unquoted.
    pub fields: Vec<String>,
}

/// A record that could not be read, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct BadRecord {
    /// 1-based line where the record starts.
    pub line: usize,
    /// 1-based field (column of the table) where reading failed.
    pub field: usize,
    /// 1-based line and character column of the failure in the text.
    pub at: (usize, usize),
    /// What was wrong and what was expected.
    pub message: String,
    /// The fields read before the failure.
    pub fields: Vec<String>,
}

/// Every record of `text`, good or bad, in order.
pub fn records(text: &str) -> Vec<Result<Record, BadRecord>> {
    let mut reader = Reader {
        text,
        position: 0,
        line: 1,
    };
    let mut records = Vec::new();
    while reader.position < text.len() {
        if reader.skip_empty_line() {
            continue;
        }
        records.push(reader.record());
    }
    records
}

struct Reader<'t> {
    text: &'t str,
    /// Byte offset of the next character.
    position: usize,
    /// 1-based line of `position`.
    line: usize,
}

/// How a field ended.
enum End {
    Comma,
    LineBreak,
    Eof,
}

impl Reader<'_> {
    fn rest(&self) -> &str {
        self.text.get(self.position..).unwrap_or("")
    }

    /// Skips a line with nothing on it; `false` when the next line has something.
    fn skip_empty_line(&mut self) -> bool {
        let rest = self.rest();
        let width = if rest.starts_with("\r\n") {
            2
        } else if rest.starts_with('\n') {
            1
        } else {
            return false;
        };
        self.position += width;
        self.line += 1;
        true
    }

    /// The character column (1-based) of byte offset `at` on its line.
    fn column(&self, at: usize) -> usize {
        let before = self.text.get(..at).unwrap_or("");
        let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
        before
            .get(line_start..)
            .map_or(0, |line| line.chars().count())
            + 1
    }

    fn record(&mut self) -> Result<Record, BadRecord> {
        let line = self.line;
        let mut fields = Vec::new();
        loop {
            let start = (self.position, self.line);
            let read = if self.rest().starts_with('"') {
                self.quoted()
            } else {
                self.unquoted()
            };
            match read {
                Ok((field, end)) => {
                    fields.push(field);
                    if !matches!(end, End::Comma) {
                        return Ok(Record { line, fields });
                    }
                }
                Err((at, message)) => {
                    let bad = BadRecord {
                        line,
                        field: fields.len() + 1,
                        at: (self.line_of(at), self.column(at)),
                        message,
                        fields,
                    };
                    self.resume_after_line(start.0, start.1);
                    return Err(bad);
                }
            }
        }
    }

    /// The 1-based line of byte offset `at`.
    fn line_of(&self, at: usize) -> usize {
        self.text
            .get(..at)
            .map_or(1, |before| before.matches('\n').count() + 1)
    }

    /// Continues at the start of the line after the one holding byte offset `at` (line `line`).
    fn resume_after_line(&mut self, at: usize, line: usize) {
        let rest = self.text.get(at..).unwrap_or("");
        match rest.find('\n') {
            Some(newline) => {
                self.position = at + newline + 1;
                self.line = line + 1;
            }
            None => {
                self.position = self.text.len();
                self.line = line;
            }
        }
    }

    /// After a field: the separator or line break, consumed.
    fn end(&mut self) -> Option<End> {
        let rest = self.rest();
        if rest.is_empty() {
            Some(End::Eof)
        } else if rest.starts_with(',') {
            self.position += 1;
            Some(End::Comma)
        } else if rest.starts_with("\r\n") {
            self.position += 2;
            self.line += 1;
            Some(End::LineBreak)
        } else if rest.starts_with('\n') {
            self.position += 1;
            self.line += 1;
            Some(End::LineBreak)
        } else {
            None
        }
    }

    fn unquoted(&mut self) -> Result<(String, End), (usize, String)> {
        let rest = self.rest();
        let length = rest.find([',', '\n', '"']).unwrap_or(rest.len());
        let mut field = rest.get(..length).unwrap_or("");
        if rest
            .get(length..)
            .is_some_and(|after| after.starts_with('"'))
        {
            return Err((
                self.position + length,
                "a quote inside an unquoted field; expected the whole field in quotes, with each quote inside doubled (\"\")".to_owned(),
            ));
        }
        if length == rest.len()
            || rest
                .get(length..)
                .is_some_and(|after| after.starts_with('\n'))
        {
            field = field.strip_suffix('\r').unwrap_or(field);
        }
        let field = field.to_owned();
        self.position += length;
        let end = self.end().unwrap_or(End::Eof);
        Ok((field, end))
    }

    fn quoted(&mut self) -> Result<(String, End), (usize, String)> {
        let opening = self.position;
        self.position += 1;
        let mut field = String::new();
        loop {
            let rest = self.rest();
            let Some(quote) = rest.find('"') else {
                return Err((
                    opening,
                    "unbalanced quote: the quoted field that starts here is never closed; expected a closing quote (a quote inside a quoted field is written twice)".to_owned(),
                ));
            };
            let chunk = rest.get(..quote).unwrap_or("");
            field.push_str(chunk);
            self.line += chunk.matches('\n').count();
            self.position += quote + 1;
            if self.rest().starts_with('"') {
                field.push('"');
                self.position += 1;
                continue;
            }
            return match self.end() {
                Some(end) => Ok((field, end)),
                None => Err((
                    opening,
                    format!(
                        "the quoted field that starts here has text after its closing quote (line {}, column {}); expected a comma or the end of the line after a closing quote (a quote inside a quoted field is written twice)",
                        self.line_of(self.position),
                        self.column(self.position)
                    ),
                )),
            };
        }
    }
}
