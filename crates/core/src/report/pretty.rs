//! JSON written as `serde_json::to_writer_pretty` writes it inside an enclosing document, at a
//! given nesting depth, so a document can be written one member or one element at a time.

use std::io::{self, Write};

use serde::Serialize;

use serde_json::ser::Formatter;

const INDENT: &[u8] = b"  ";

/// serde_json's pretty formatter (two-space indent) starting at a nesting depth.
struct NestedPretty {
    depth: usize,
    has_value: bool,
}

impl NestedPretty {
    fn newline<W: ?Sized + Write>(&self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b"\n")?;
        for _ in 0..self.depth {
            writer.write_all(INDENT)?;
        }
        Ok(())
    }

    fn open<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth = self.depth.saturating_sub(1);
        if self.has_value {
            self.newline(writer)?;
        }
        writer.write_all(bracket)
    }

    fn entry<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        self.newline(writer)
    }
}

impl Formatter for NestedPretty {
    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.entry(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.entry(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// Writes `value` pretty-printed as if it sat `depth` levels deep in a pretty-printed document.
/// `scratch` is reused between calls so each value reaches `out` in one write.
///
/// # Errors
/// Whatever `out` returns.
pub fn write_nested<T: Serialize + ?Sized>(
    out: &mut dyn Write,
    value: &T,
    depth: usize,
    scratch: &mut Vec<u8>,
) -> io::Result<()> {
    scratch.clear();
    let formatter = NestedPretty {
        depth,
        has_value: false,
    };
    let mut serializer = serde_json::Serializer::with_formatter(&mut *scratch, formatter);
    value.serialize(&mut serializer)?;
    out.write_all(scratch)
}

/// Starts a new member or element at `depth` (after `,` when it is not the first).
///
/// # Errors
/// Whatever `out` returns.
pub fn begin_entry(out: &mut dyn Write, depth: usize, first: bool) -> io::Result<()> {
    out.write_all(if first { b"\n" } else { b",\n" })?;
    for _ in 0..depth {
        out.write_all(INDENT)?;
    }
    Ok(())
}

/// Ends an object or array whose entries sat at `depth + 1`, with `close` (`}` or `]`).
///
/// # Errors
/// Whatever `out` returns.
pub fn end_container(out: &mut dyn Write, depth: usize, close: u8) -> io::Result<()> {
    out.write_all(b"\n")?;
    for _ in 0..depth {
        out.write_all(INDENT)?;
    }
    out.write_all(&[close])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nested_values_match_the_whole_document() {
        let inner = json!({"a": [1, {"b": "x\ny"}], "c": {}, "d": []});
        let whole = serde_json::to_vec_pretty(&json!({"k": [inner]})).unwrap();
        let mut out = Vec::new();
        let mut scratch = Vec::new();
        out.push(b'{');
        begin_entry(&mut out, 1, true).unwrap();
        out.extend_from_slice(b"\"k\": [");
        begin_entry(&mut out, 2, true).unwrap();
        write_nested(&mut out, &inner, 2, &mut scratch).unwrap();
        end_container(&mut out, 1, b']').unwrap();
        end_container(&mut out, 0, b'}').unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            String::from_utf8(whole).unwrap()
        );
    }
}
