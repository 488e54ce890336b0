//! The JSON layout of written scenes and the exact writing of `f32` values.
//!
//! Layout: objects one member per line; an array of numbers on one line
//! (`[0, 0, -9.8]`), an array of arrays one element per line (a mesh's
//! vertices), so that a written terrain stays readable and diffable.
//!
//! Exactness: a scene reader parses a number to the nearest `f64`
//! (serde_json with `float_roundtrip`) and then rounds to `f32`. That double
//! rounding can differ from the direct rounding for which Rust prints the
//! shortest `f32` digits, when the `f64` lands on a midpoint between two
//! `f32` values. [`exact_f32`] therefore prints the shortest digits only
//! when they read back to the same bits by the reader's own route, and the
//! exact decimal of the value (via its `f64`, which is exact) otherwise: a
//! written scene always reads back bit for bit. Negative zero is written
//! `-0.0` (an integer `-0` would read as `+0`).

use std::io::{self, Write};

use serde_json::ser::{CompactFormatter, Formatter};

/// The text of `value` that reads back (decimal to `f64` to `f32`) to the
/// same bits, as short as the shortest `f32` digits when they do. `None` for
/// a NaN or an infinity, which JSON cannot hold.
pub fn exact_f32(value: f32) -> Option<String> {
    if !value.is_finite() {
        return None;
    }
    if value == 0.0 && value.is_sign_negative() {
        // "-0" would be read as the integer 0, which loses the sign.
        return Some("-0.0".to_owned());
    }
    let short = if value == 0.0 || (1e-4..1e9).contains(&value.abs()) {
        format!("{value}")
    } else {
        format!("{value:e}")
    };
    let reads_back = short
        .parse::<f64>()
        .is_ok_and(|wide| (wide as f32).to_bits() == value.to_bits());
    Some(if reads_back {
        short
    } else {
        format!("{:e}", f64::from(value))
    })
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    array: bool,
    first: bool,
    nested: bool,
    members: bool,
}

/// A serde_json formatter with the layout and the exact `f32` of the module
/// documentation.
#[derive(Debug, Default)]
pub struct SceneFormatter {
    stack: Vec<Frame>,
}

impl SceneFormatter {
    fn newline<W: ?Sized + Write>(&self, writer: &mut W, depth: usize) -> io::Result<()> {
        writer.write_all(b"\n")?;
        for _ in 0..depth {
            writer.write_all(b"  ")?;
        }
        Ok(())
    }

    /// Places a value that is about to be written inside an array.
    fn start_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        container: bool,
    ) -> io::Result<()> {
        let depth = self.stack.len();
        let Some(top) = self.stack.last_mut() else {
            return Ok(());
        };
        if !top.array {
            return Ok(());
        }
        let first = top.first;
        if container {
            top.nested = true;
            self.newline(writer, depth)
        } else if !first {
            writer.write_all(b" ")
        } else {
            Ok(())
        }
    }
}

macro_rules! scalar {
    ($($name:ident: $t:ty),*) => {$(
        fn $name<W: ?Sized + Write>(&mut self, writer: &mut W, value: $t) -> io::Result<()> {
            self.start_value(writer, false)?;
            CompactFormatter.$name(writer, value)
        }
    )*};
}

impl Formatter for SceneFormatter {
    scalar!(write_bool: bool, write_i32: i32, write_i64: i64, write_u8: u8, write_u16: u16,
        write_u32: u32, write_u64: u64, write_f64: f64);

    fn write_null<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.start_value(writer, false)?;
        writer.write_all(b"null")
    }

    fn write_f32<W: ?Sized + Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        self.start_value(writer, false)?;
        match exact_f32(value) {
            Some(text) => writer.write_all(text.as_bytes()),
            None => writer.write_all(b"null"),
        }
    }

    fn begin_string<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.start_value(writer, false)?;
        writer.write_all(b"\"")
    }

    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.start_value(writer, true)?;
        self.stack.push(Frame {
            array: true,
            first: true,
            nested: false,
            members: false,
        });
        writer.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        let frame = self.stack.pop();
        if frame.is_some_and(|f| f.nested) {
            self.newline(writer, self.stack.len())?;
        }
        writer.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if let Some(top) = self.stack.last_mut() {
            top.first = first;
        }
        if first {
            Ok(())
        } else {
            writer.write_all(b",")
        }
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.start_value(writer, true)?;
        self.stack.push(Frame {
            array: false,
            first: true,
            nested: false,
            members: false,
        });
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        let frame = self.stack.pop();
        if frame.is_some_and(|f| f.members) {
            self.newline(writer, self.stack.len())?;
        }
        writer.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if let Some(top) = self.stack.last_mut() {
            top.members = true;
        }
        if !first {
            writer.write_all(b",")?;
        }
        self.newline(writer, self.stack.len())
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reader's route: serde_json (with `float_roundtrip`) into an `f32`.
    fn read_back(text: &str) -> f32 {
        serde_json::from_str::<f32>(text).expect("a JSON number")
    }

    #[test]
    fn every_written_f32_reads_back_to_the_same_bits() {
        // SplitMix64 over raw bit patterns: every exponent, subnormals and
        // negative zero included (NaN and infinities are skipped: JSON has none).
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut checked = 0;
        for _ in 0..200_000 {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            let value = f32::from_bits((z ^ (z >> 31)) as u32);
            if let Some(text) = exact_f32(value) {
                assert_eq!(
                    read_back(&text).to_bits(),
                    value.to_bits(),
                    "{value:e} as {text}"
                );
                checked += 1;
            }
        }
        assert!(checked > 190_000, "{checked}");
        for value in [
            0.0,
            -0.0,
            0.1,
            1.0 / 3.0,
            f32::MAX,
            f32::MIN_POSITIVE,
            f32::from_bits(1),
        ] {
            let text = exact_f32(value).expect("finite");
            assert_eq!(read_back(&text).to_bits(), value.to_bits(), "{text}");
        }
    }

    #[test]
    fn short_values_keep_their_short_digits() {
        assert_eq!(exact_f32(0.1).as_deref(), Some("0.1"));
        assert_eq!(exact_f32(-9.8).as_deref(), Some("-9.8"));
        assert_eq!(exact_f32(1e-7).as_deref(), Some("1e-7"));
        assert_eq!(exact_f32(f32::NAN), None);
    }
}
