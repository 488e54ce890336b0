//! Finding a field in the source text: the line and column of the value at a
//! [`FieldPath`], for the errors that serde cannot position (a negative mass,
//! an index past the vertex list, a rotation that is not a unit quaternion).
//!
//! Method: a second, position-aware pass over the text that follows the path
//! only (each member or element off the path is skipped, not stored), so the
//! cost is one scan of the file and no copy of it. The choice over
//! `serde_json::Value` (which keeps no positions) or a span-carrying
//! deserializer (every number of a terrain mesh would carry a span) is that
//! positions are only needed on the error path. The pass runs on text that
//! serde_json has already accepted, so it needs no error reporting of its
//! own: on anything unexpected it stops and the deepest position reached is
//! returned. Columns count bytes, as serde_json's do.

use super::error::{FieldPath, Segment};

/// The 1-based line and column (bytes) of the value at `path` in `text`, or
/// of the deepest enclosing value that exists (the object that lacks a
/// required member, say).
pub fn locate(text: &str, path: &FieldPath) -> (usize, usize) {
    let mut scanner = Scanner {
        bytes: text.as_bytes(),
        pos: 0,
    };
    scanner.skip_ws();
    let mut found = scanner.pos;
    for segment in &path.0 {
        let next = match segment {
            Segment::Key(key) => scanner.member(key),
            Segment::Index(index) => scanner.element(*index),
        };
        match next {
            Some(pos) => found = pos,
            None => break,
        }
    }
    line_column(text, found)
}

/// The 1-based line and column (bytes) of byte offset `offset`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..offset.min(text.len())];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (line, offset.min(text.len()) - line_start + 1)
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Consumes `byte` (after white space) or fails.
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_ws();
        (self.peek() == Some(byte)).then(|| self.pos += 1)
    }

    /// The raw contents of a string (escapes kept), consumed.
    fn string(&mut self) -> Option<&[u8]> {
        self.expect(b'"')?;
        let start = self.pos;
        loop {
            match self.peek()? {
                b'"' => break,
                b'\\' => self.pos += 2,
                _ => self.pos += 1,
            }
        }
        let raw = &self.bytes[start..self.pos];
        self.pos += 1;
        Some(raw)
    }

    /// Skips one value of any kind (the scanner is at its first byte or the
    /// white space before it). Nesting is bounded by serde_json's recursion
    /// limit, which the text has already passed.
    fn skip_value(&mut self) -> Option<()> {
        self.skip_ws();
        match self.peek()? {
            b'"' => self.string().map(|_| ()),
            b'{' => {
                self.pos += 1;
                if self.expect(b'}').is_some() {
                    return Some(());
                }
                loop {
                    self.string()?;
                    self.expect(b':')?;
                    self.skip_value()?;
                    if self.expect(b',').is_none() {
                        return self.expect(b'}');
                    }
                }
            }
            b'[' => {
                self.pos += 1;
                if self.expect(b']').is_some() {
                    return Some(());
                }
                loop {
                    self.skip_value()?;
                    if self.expect(b',').is_none() {
                        return self.expect(b']');
                    }
                }
            }
            _ => {
                while matches!(self.peek(), Some(b) if !b",]} \t\n\r".contains(&b)) {
                    self.pos += 1;
                }
                Some(())
            }
        }
    }

    /// Enters member `key` of the object at the scanner: the offset of its
    /// value, with the scanner there.
    fn member(&mut self, key: &str) -> Option<usize> {
        self.expect(b'{')?;
        if self.expect(b'}').is_some() {
            return None;
        }
        loop {
            let matched = self.string()? == key.as_bytes();
            self.expect(b':')?;
            self.skip_ws();
            if matched {
                return Some(self.pos);
            }
            self.skip_value()?;
            self.expect(b',')?;
        }
    }

    /// Enters element `index` of the array at the scanner.
    fn element(&mut self, index: usize) -> Option<usize> {
        self.expect(b'[')?;
        self.skip_ws();
        if self.peek() == Some(b']') {
            return None;
        }
        for _ in 0..index {
            self.skip_value()?;
            self.expect(b',')?;
        }
        self.skip_ws();
        Some(self.pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(parts: &[&str]) -> FieldPath {
        FieldPath(
            parts
                .iter()
                .map(|p| match p.parse::<usize>() {
                    Ok(i) => Segment::Index(i),
                    Err(_) => Segment::Key((*p).to_owned()),
                })
                .collect(),
        )
    }

    const TEXT: &str =
        "{\n  \"a\": [1, {\"b\": \"x,]}\"}, {\"c\": [[0, 1], [2, 3]]}],\n  \"d\": {}\n}";

    #[test]
    fn values_are_found_past_strings_holding_delimiters() {
        // Line 2 is `  "a": [1, {"b": "x,]}"}, {"c": [[0, 1], [2, 3]]}],`.
        assert_eq!(locate(TEXT, &path(&["a", "2", "c", "1", "1"])), (2, 46));
        assert_eq!(locate(TEXT, &path(&["a", "1", "b"])), (2, 18));
        assert_eq!(locate(TEXT, &path(&["d"])), (3, 8));
    }

    #[test]
    fn a_missing_member_gives_the_enclosing_value() {
        assert_eq!(locate(TEXT, &path(&["d", "e"])), (3, 8));
        assert_eq!(locate(TEXT, &path(&["a", "9"])), (2, 8));
        assert_eq!(locate(TEXT, &FieldPath::root()), (1, 1));
    }
}
