//! A fast reader for the part of RON that project files use.
//!
//! The `ron` crate is a complete RON parser, and it pays for that on every token: a 10,000-frame
//! project took about a billion instructions to read. Project files use a small part of RON:
//! structs in parentheses, `[...]` lists, `{...}` maps, enum variants, `Some`/`None`, plain
//! decimal numbers, `"..."` strings with the common escapes, whitespace and comments. This module
//! is a serde deserializer for exactly that part, driven by the model's own `Deserialize` impls.
//!
//! It never decides anything on its own: whenever it meets something outside that part (raw
//! strings, hexadecimal numbers, struct names, extensions, unknown fields, a value out of range,
//! deep nesting) or anything wrong, it gives up with [`Unsupported`], and the caller reads the
//! file again with `ron`, which accepts everything RON allows and reports errors with their line
//! and column. Where this reader does accept a text, it reads the same values `ron` reads; a
//! property test in this module checks that on mutated project files.

use super::unsupported::Unsupported;
use serde::de::value::BorrowedStrDeserializer;
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess,
    Visitor,
};

/// Nesting deeper than this is left to `ron` (which has its own, higher limit), so hostile input
/// cannot overflow the stack here.
const MAX_DEPTH: usize = 64;

type Result<T> = std::result::Result<T, Unsupported>;

/// Reads `text` as one `T`, or `None` when `ron` has to decide.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Option<T> {
    let mut reader = Reader {
        source: text,
        text: text.as_bytes(),
        pos: 0,
        depth: 0,
    };
    let value = T::deserialize(&mut reader).ok()?;
    reader.skip_whitespace().ok()?;
    (reader.pos == reader.text.len()).then_some(value)
}

/// A cursor over `source` (read as bytes through `text`). The cursor only stops next to ASCII
/// bytes, so slicing `source` at it never fails.
struct Reader<'de> {
    source: &'de str,
    text: &'de [u8],
    pos: usize,
    depth: usize,
}

/// Bytes that may follow a number, `true`, `false` or a unit variant: anything else (a suffix,
/// `_`, `x`, a second sign) is something `ron` reads differently or rejects.
fn ends_a_scalar(byte: Option<u8>) -> bool {
    matches!(
        byte,
        None | Some(b' ' | b'\t' | b'\n' | b'\r' | b',' | b')' | b']' | b'}' | b':' | b'/')
    )
}

impl<'de> Reader<'de> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    /// Skips ASCII whitespace, `// line` comments and unnested `/* block */` comments.
    #[inline]
    fn skip_whitespace(&mut self) -> Result<()> {
        // A local cursor stays in a register; `self.pos` would be stored on every byte.
        let mut pos = self.pos;
        while let Some(&byte) = self.text.get(pos) {
            match byte {
                b' ' | b'\n' | b'\t' | b'\r' | b'\x0B' | b'\x0C' => pos += 1,
                b'/' => {
                    self.pos = pos;
                    return self.skip_comment();
                }
                _ => break,
            }
        }
        self.pos = pos;
        Ok(())
    }

    /// Moves the cursor past the bytes that satisfy `wanted`.
    #[inline]
    fn skip_while(&mut self, wanted: impl Fn(u8) -> bool) {
        let mut pos = self.pos;
        while self.text.get(pos).is_some_and(|&b| wanted(b)) {
            pos += 1;
        }
        self.pos = pos;
    }

    /// Skips the comment at the cursor and the whitespace after it.
    #[cold]
    fn skip_comment(&mut self) -> Result<()> {
        let rest = &self.text[self.pos..];
        if rest.starts_with(b"//") {
            // A comment running to the end of the file is a special case in `ron`.
            let end = rest.iter().position(|&b| b == b'\n').ok_or(Unsupported)?;
            self.pos += end + 1;
        } else if rest.starts_with(b"/*") {
            let body = &rest[2..];
            let end = body
                .windows(2)
                .position(|w| w == b"*/")
                .ok_or(Unsupported)?;
            // `ron` nests block comments; leave nesting to it.
            if body[..end].windows(2).any(|w| w == b"/*") {
                return Err(Unsupported);
            }
            self.pos += 2 + end + 2;
        } else {
            // A lone `/` is not RON; let the caller fail on it.
            return Ok(());
        }
        self.skip_whitespace()
    }

    /// Skips whitespace, then consumes `byte` if it is next.
    fn eat(&mut self, byte: u8) -> Result<bool> {
        self.skip_whitespace()?;
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    fn expect(&mut self, byte: u8) -> Result<()> {
        if self.eat(byte)? {
            Ok(())
        } else {
            Err(Unsupported)
        }
    }

    /// Enters one level of nesting.
    fn descend(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Unsupported);
        }
        Ok(())
    }

    fn ascend(&mut self) {
        self.depth -= 1;
    }

    /// An ASCII identifier (`[A-Za-z_][A-Za-z0-9_]*`); raw and Unicode identifiers go to `ron`.
    fn identifier(&mut self) -> Result<&'de str> {
        self.skip_whitespace()?;
        let start = self.pos;
        match self.peek() {
            Some(b'a'..=b'z' | b'A'..=b'Z' | b'_') => self.pos += 1,
            _ => return Err(Unsupported),
        }
        self.skip_while(|b| b.is_ascii_alphanumeric() || b == b'_');
        if matches!(self.peek(), Some(b'#' | 0x80..)) {
            return Err(Unsupported);
        }
        self.slice(start)
    }

    /// The text from `start` to the cursor. Both ends sit next to ASCII bytes (see `Reader`), so
    /// this never fails on text that came from a `&str`.
    fn slice(&self, start: usize) -> Result<&'de str> {
        self.source.get(start..self.pos).ok_or(Unsupported)
    }

    /// Skips `0` or a digit run without a leading zero.
    fn digits(&mut self) -> Result<()> {
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.skip_while(|b| b.is_ascii_digit()),
            _ => return Err(Unsupported),
        }
        Ok(())
    }

    /// A decimal integer: `-?(0|[1-9][0-9]*)` followed by a separator.
    fn integer_text(&mut self, signed: bool) -> Result<&'de str> {
        self.skip_whitespace()?;
        let start = self.pos;
        if signed && self.peek() == Some(b'-') {
            self.pos += 1;
        }
        self.digits()?;
        if !ends_a_scalar(self.peek()) {
            return Err(Unsupported);
        }
        self.slice(start)
    }

    fn unsigned(&mut self) -> Result<u64> {
        self.integer_text(false)?.parse().map_err(|_| Unsupported)
    }

    fn signed(&mut self) -> Result<i64> {
        self.integer_text(true)?.parse().map_err(|_| Unsupported)
    }

    /// A decimal float: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` followed by a separator.
    /// `ron` hands the same characters to `f64::from_str`, so the value is the same.
    fn float(&mut self) -> Result<f64> {
        self.skip_whitespace()?;
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        self.digits()?;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            self.digit_run()?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            self.digit_run()?;
        }
        if !ends_a_scalar(self.peek()) {
            return Err(Unsupported);
        }
        self.slice(start)?.parse().map_err(|_| Unsupported)
    }

    /// One or more digits.
    fn digit_run(&mut self) -> Result<()> {
        let start = self.pos;
        self.skip_while(|b| b.is_ascii_digit());
        if self.pos == start {
            return Err(Unsupported);
        }
        Ok(())
    }

    /// A `"..."` string: borrowed when it has no escapes, else unescaped (`\\ \" \' \n \r \t
    /// \0`; other escapes go to `ron`).
    fn string(&mut self) -> Result<StringValue<'de>> {
        self.expect(b'"')?;
        let start = self.pos;
        let plain_end = self.text[start..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\')
            .ok_or(Unsupported)?;
        self.pos += plain_end;
        if self.peek() == Some(b'"') {
            let value = self.slice(start)?;
            self.pos += 1;
            return Ok(StringValue::Borrowed(value));
        }
        let mut owned = self.slice(start)?.to_string();
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(StringValue::Owned(owned));
                }
                Some(b'\\') => {
                    let escaped = match self.text.get(self.pos + 1) {
                        Some(b'\\') => '\\',
                        Some(b'"') => '"',
                        Some(b'\'') => '\'',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'0') => '\0',
                        _ => return Err(Unsupported),
                    };
                    owned.push(escaped);
                    self.pos += 2;
                }
                Some(_) => {
                    let run = self.text[self.pos..]
                        .iter()
                        .position(|&b| b == b'"' || b == b'\\')
                        .ok_or(Unsupported)?;
                    let start = self.pos;
                    self.pos += run;
                    owned.push_str(self.slice(start)?);
                }
                None => return Err(Unsupported),
            }
        }
    }

    /// After an identifier: true when a `(` follows.
    fn opens_parenthesis(&mut self) -> Result<bool> {
        self.skip_whitespace()?;
        Ok(self.peek() == Some(b'('))
    }
}

enum StringValue<'de> {
    Borrowed(&'de str),
    Owned(String),
}

/// Deserializer methods for the integers narrower than 64 bits: read as an `i64` (`signed`) or
/// `u64` (`unsigned`), and left to `ron` when out of the type's range.
macro_rules! narrow_integers {
    ($($method:ident => $visit:ident from $read:ident,)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
                visitor.$visit(self.$read()?.try_into().map_err(|_| Unsupported)?)
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = Unsupported;

    /// Self-describing reading is only needed for fields the model does not know, which `ron`
    /// skips for us.
    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(Unsupported)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let value = match self.identifier()? {
            "true" => true,
            "false" => false,
            _ => return Err(Unsupported),
        };
        if !ends_a_scalar(self.peek()) {
            return Err(Unsupported);
        }
        visitor.visit_bool(value)
    }

    narrow_integers!(
        deserialize_i8 => visit_i8 from signed,
        deserialize_i16 => visit_i16 from signed,
        deserialize_i32 => visit_i32 from signed,
        deserialize_u8 => visit_u8 from unsigned,
        deserialize_u16 => visit_u16 from unsigned,
        deserialize_u32 => visit_u32 from unsigned,
    );

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_i64(self.signed()?)
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_u64(self.unsigned()?)
    }

    /// `f32` rounds differently when parsed directly; the model has none, so `ron` reads them.
    fn deserialize_f32<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(Unsupported)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_f64(self.float()?)
    }

    fn deserialize_char<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(Unsupported)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.string()? {
            StringValue::Borrowed(text) => visitor.visit_borrowed_str(text),
            StringValue::Owned(text) => visitor.visit_string(text),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(Unsupported)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(Unsupported)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.identifier()? {
            "None" if !self.opens_parenthesis()? => visitor.visit_none(),
            "Some" => {
                self.expect(b'(')?;
                self.descend()?;
                let value = visitor.visit_some(&mut *self)?;
                self.ascend();
                self.expect(b')')?;
                Ok(value)
            }
            _ => Err(Unsupported),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.expect(b'(')?;
        self.expect(b')')?;
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _visitor: V,
    ) -> Result<V::Value> {
        Err(Unsupported)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _visitor: V,
    ) -> Result<V::Value> {
        Err(Unsupported)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.expect(b'[')?;
        self.descend()?;
        let mut items = Items {
            reader: &mut *self,
            close: b']',
            first: true,
        };
        let value = visitor.visit_seq(&mut items)?;
        let read_any = !items.first;
        self.ascend();
        self.end_of_items(read_any, b']')?;
        Ok(value)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.expect(b'(')?;
        self.descend()?;
        let mut items = Items {
            reader: &mut *self,
            close: b')',
            first: true,
        };
        let value = visitor.visit_seq(&mut items)?;
        let read_any = !items.first;
        self.ascend();
        self.end_of_items(read_any, b')')?;
        Ok(value)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        _visitor: V,
    ) -> Result<V::Value> {
        Err(Unsupported)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.expect(b'{')?;
        self.descend()?;
        let value = visitor.visit_map(Entries {
            reader: &mut *self,
            first: true,
        })?;
        self.ascend();
        self.expect(b'}')?;
        Ok(value)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.expect(b'(')?;
        self.fields(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(self)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(self.identifier()?)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(Unsupported)
    }
}

impl<'de> Reader<'de> {
    /// The end of a list or tuple whose visitor has stopped: a trailing comma after the last
    /// value (a tuple's visitor stops before it), then `close`.
    fn end_of_items(&mut self, read_any: bool, close: u8) -> Result<()> {
        if read_any {
            self.eat(b',')?;
        }
        self.expect(close)
    }

    /// `name: value, ...)` after a struct's opening parenthesis.
    fn fields<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.descend()?;
        let value = visitor.visit_map(Fields {
            reader: &mut *self,
            first: true,
        })?;
        self.ascend();
        self.expect(b')')?;
        Ok(value)
    }
}

/// The comma-separated values of a list or tuple, up to `close`.
struct Items<'a, 'de> {
    reader: &'a mut Reader<'de>,
    close: u8,
    first: bool,
}

impl<'de> SeqAccess<'de> for Items<'_, 'de> {
    type Error = Unsupported;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !another(self.reader, self.close, &mut self.first)? {
            return Ok(None);
        }
        seed.deserialize(&mut *self.reader).map(Some)
    }
}

/// Whether another value follows before `close` (which is left for the caller). Values are
/// separated by commas, and one trailing comma is allowed.
fn another(reader: &mut Reader<'_>, close: u8, first: &mut bool) -> Result<bool> {
    reader.skip_whitespace()?;
    if reader.peek() == Some(close) {
        return Ok(false);
    }
    if !std::mem::replace(first, false) {
        reader.expect(b',')?;
        reader.skip_whitespace()?;
        if reader.peek() == Some(close) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The `key: value` entries of a `{...}` map.
struct Entries<'a, 'de> {
    reader: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> MapAccess<'de> for Entries<'_, 'de> {
    type Error = Unsupported;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !another(self.reader, b'}', &mut self.first)? {
            return Ok(None);
        }
        seed.deserialize(&mut *self.reader).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.reader.expect(b':')?;
        seed.deserialize(&mut *self.reader)
    }
}

/// The `name: value` fields of a struct or struct variant.
struct Fields<'a, 'de> {
    reader: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> MapAccess<'de> for Fields<'_, 'de> {
    type Error = Unsupported;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !another(self.reader, b')', &mut self.first)? {
            return Ok(None);
        }
        let name = self.reader.identifier()?;
        seed.deserialize(BorrowedStrDeserializer::new(name))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.reader.expect(b':')?;
        seed.deserialize(&mut *self.reader)
    }
}

impl<'de> EnumAccess<'de> for &mut Reader<'de> {
    type Error = Unsupported;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let name = self.identifier()?;
        let variant = seed.deserialize(BorrowedStrDeserializer::new(name))?;
        Ok((variant, self))
    }
}

impl<'de> VariantAccess<'de> for &mut Reader<'de> {
    type Error = Unsupported;

    fn unit_variant(self) -> Result<()> {
        if ends_a_scalar(self.peek()) {
            Ok(())
        } else {
            Err(Unsupported)
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        self.expect(b'(')?;
        self.descend()?;
        let value = seed.deserialize(&mut *self)?;
        self.ascend();
        self.expect(b')')?;
        Ok(value)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_tuple(self, len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.expect(b'(')?;
        self.fields(visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::AnimationSet;
    use proptest::prelude::*;
    use serde::Deserialize;

    /// The project file's top level, as the reader declares it.
    #[derive(Debug, PartialEq, Deserialize)]
    struct File {
        version: u32,
        set: AnimationSet,
    }

    fn demo() -> String {
        std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat"),
        )
        .unwrap()
    }

    /// What `ron` reads, for comparison.
    fn by_ron<T: DeserializeOwned>(text: &str) -> Option<T> {
        ron::from_str(text).ok()
    }

    #[test]
    fn reads_the_demo_as_ron_does() {
        let text = demo();
        let fast: File = from_str(&text).expect("the demo is in the fast subset");
        assert_eq!(Some(fast), by_ron::<File>(&text));
    }

    #[test]
    fn reads_comments_escapes_and_trailing_commas_as_ron_does() {
        let cases = [
            r#"("a\"b\\c\nd\te\r\0f\'g", "plain")"#,
            "( /* block */ \"x\" , // line\n \"y\" , )",
            "(\"multi\nline\", \"\")",
        ];
        for text in cases {
            let fast: (String, String) = from_str(text).expect(text);
            assert_eq!(Some(fast), by_ron(text), "{text}");
        }
        let text = "(\"a\", \"b\", \"c\")";
        assert_eq!(from_str::<(String, String)>(text), None);
        let text = "[1, 2, 3,]";
        assert_eq!(from_str::<Vec<u32>>(text), by_ron(text));
        let text = "{1: Some(-2.5e3), 2: None}";
        let fast: indexmap::IndexMap<u32, Option<f64>> = from_str(text).unwrap();
        assert_eq!(Some(fast), by_ron(text));
    }

    #[test]
    fn leaves_the_rest_of_ron_to_ron() {
        // Each is valid RON that `ron` reads; the fast reader must step aside, not misread.
        let hex: Option<u32> = from_str("0x10");
        assert_eq!(hex, None);
        assert_eq!(from_str::<u32>("1_000"), None);
        assert_eq!(from_str::<u32>("01"), None);
        assert_eq!(from_str::<String>("r\"raw\""), None);
        assert_eq!(from_str::<String>(r#""\u{41}""#), None);
        assert_eq!(
            from_str::<Vec<u32>>("/* a /* nested */ comment */ [1]"),
            None
        );
        assert_eq!(from_str::<f64>("inf"), None);
        assert_eq!(from_str::<f64>("1.5f64"), None);
        let text = "#![enable(implicit_some)]\n(version: 1, set: (root: (id: 0), next_id: 1))";
        assert!(from_str::<File>(text).is_none());
        assert!(by_ron::<File>(text).is_some());
        // A struct name and an unknown field.
        let named = "(version: 1, set: AnimationSet(root: (id: 0), next_id: 1))";
        assert!(from_str::<File>(named).is_none());
        let unknown = "(version: 1, set: (root: (id: 0), next_id: 1, later: 3))";
        assert!(from_str::<File>(unknown).is_none());
        assert!(by_ron::<File>(unknown).is_some());
    }

    #[test]
    fn refuses_what_ron_refuses() {
        for text in ["[1 2]", "[,1]", "[1,,]", "[1", "[-1]", "[4294967296]"] {
            assert_eq!(from_str::<Vec<u32>>(text), None, "{text}");
            assert_eq!(by_ron::<Vec<u32>>(text), None, "{text}");
        }
    }

    #[test]
    fn deep_nesting_is_left_to_ron_without_overflowing() {
        let depth = 10_000;
        let text = format!("{}{}", "Some(".repeat(depth), ")".repeat(depth));
        assert!(from_str::<Option<()>>(&text).is_none());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Whatever the fast reader accepts, `ron` accepts and reads the same.
        #[test]
        fn agrees_with_ron_on_mutated_project_files(
            edits in proptest::collection::vec(
                (any::<prop::sample::Index>(), prop::sample::select(
                    b" \n,:()[]{}\"\\/*-+.0123456789eExr_aNSomeT".to_vec())),
                1..6,
            ),
        ) {
            let mut bytes = demo().into_bytes();
            for (index, value) in edits {
                let i = index.index(bytes.len());
                bytes[i] = value;
            }
            if let Ok(text) = String::from_utf8(bytes)
                && let Some(fast) = from_str::<File>(&text)
            {
                prop_assert_eq!(Some(fast), by_ron::<File>(&text));
            }
        }
    }
}
