//! AIR and `.def` text as bytes: lines, comments, fields and numbers.
//!
//! Real files mix encodings (a UTF-8 BOM, Latin-1 or Shift-JIS comments), so nothing here ever
//! decodes text: every piece is a byte range into the original file, and only the ASCII parts
//! that carry meaning (keywords, numbers) are ever looked at.

use std::ops::Range;

/// The UTF-8 byte order mark some files start with.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// One line of the file, as byte offsets into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// First byte of the line (after the BOM on the first line).
    pub start: usize,
    /// End of the line's text, before its line ending.
    pub end: usize,
    /// First byte of the next line (after `\n` or `\r\n`).
    pub next: usize,
    /// The meaningful text: from the first non-blank byte to the last non-blank byte before
    /// any `;` comment. Empty (`code.start == code.end`) for blank and comment-only lines.
    pub code: (usize, usize),
}

impl Line {
    /// The meaningful text as a range.
    pub fn code_range(&self) -> Range<usize> {
        self.code.0..self.code.1
    }

    /// True for a line with nothing but blanks and a comment.
    pub fn is_blank(&self) -> bool {
        self.code.0 == self.code.1
    }

    /// The whole line including its ending.
    pub fn full(&self) -> Range<usize> {
        self.start..self.next
    }
}

/// True for the blanks AIR trims: spaces and tabs (and a stray `\r`).
pub fn is_blank_byte(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\x0B' | b'\x0C')
}

/// Splits `bytes` into lines. A leading BOM belongs to no line.
pub fn split_lines(bytes: &[u8]) -> Vec<Line> {
    let mut lines = Vec::with_capacity(bytes.len() / 24 + 1);
    let mut start = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    while start < bytes.len() {
        let newline = memchr(b'\n', &bytes[start..]).map(|p| start + p);
        let (end, next) = match newline {
            Some(n) if n > start && bytes[n - 1] == b'\r' => (n - 1, n + 1),
            Some(n) => (n, n + 1),
            None => (bytes.len(), bytes.len()),
        };
        let comment = memchr(b';', &bytes[start..end]).map_or(end, |p| start + p);
        lines.push(Line {
            start,
            end,
            next,
            code: trim(bytes, start..comment),
        });
        start = next;
    }
    lines
}

/// The first position of `needle` in `haystack`.
fn memchr(needle: u8, haystack: &[u8]) -> Option<usize> {
    haystack.iter().position(|&b| b == needle)
}

/// `range` without blanks on either side, as (start, end).
pub fn trim(bytes: &[u8], range: Range<usize>) -> (usize, usize) {
    let mut start = range.start;
    let mut end = range.end;
    while start < end && is_blank_byte(bytes[start]) {
        start += 1;
    }
    while end > start && is_blank_byte(bytes[end - 1]) {
        end -= 1;
    }
    (start, end)
}

/// True if `text` starts with the ASCII `prefix`, ignoring ASCII case.
pub fn starts_with_ignore_case(text: &[u8], prefix: &[u8]) -> bool {
    text.len() >= prefix.len() && text[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// One comma-separated field: the text between the commas and its trimmed part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// From just after the previous comma (or the start) to just before the next comma.
    pub raw: (usize, usize),
    /// The field without surrounding blanks.
    pub value: (usize, usize),
}

impl Field {
    /// The trimmed value as a range.
    pub fn value_range(&self) -> Range<usize> {
        self.value.0..self.value.1
    }

    /// True when the field holds nothing but blanks.
    pub fn is_empty(&self) -> bool {
        self.value.0 == self.value.1
    }
}

/// The comma-separated fields of `range`; at most `limit` are split off, the rest stays in the
/// last field.
pub fn split_fields(bytes: &[u8], range: Range<usize>, limit: usize) -> Vec<Field> {
    let mut fields = Vec::new();
    let mut start = range.start;
    for position in range.clone() {
        if bytes[position] == b',' && fields.len() + 1 < limit {
            fields.push(field(bytes, start, position));
            start = position + 1;
        }
    }
    fields.push(field(bytes, start, range.end));
    fields
}

fn field(bytes: &[u8], start: usize, end: usize) -> Field {
    Field {
        raw: (start, end),
        value: trim(bytes, start..end),
    }
}

/// A whole number written in decimal with an optional sign (`-1`, `+3`, `000`).
pub fn parse_int(text: &[u8]) -> Option<i64> {
    let (negative, digits) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || digits.len() > 18 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut value: i64 = 0;
    for &d in digits {
        value = value * 10 + i64::from(d - b'0');
    }
    Some(if negative { -value } else { value })
}

/// A whole number that fits an `i32`.
pub fn parse_i32(text: &[u8]) -> Option<i32> {
    parse_int(text).and_then(|v| i32::try_from(v).ok())
}

/// A decimal number as MUGEN 1.1 writes scales and angles (`1`, `-4`, `.3`, `1.25`, `2.`).
pub fn parse_decimal(text: &[u8]) -> Option<f64> {
    // Almost every number in real files is a whole one: no allocation for those.
    if let Some(whole) = parse_int(text) {
        return Some(whole as f64);
    }
    let digits = text
        .strip_prefix(b"-")
        .or(text.strip_prefix(b"+"))
        .unwrap_or(text);
    let valid = !digits.is_empty()
        && digits.len() <= 32
        && digits.iter().filter(|&&b| b == b'.').count() <= 1
        && digits.iter().all(|&b| b.is_ascii_digit() || b == b'.')
        && digits.iter().any(u8::is_ascii_digit);
    if !valid {
        return None;
    }
    // Only ASCII digits, a sign and one dot remain: always valid UTF-8 and a valid f64 text
    // once a bare leading or trailing dot gets its zero.
    let text = std::str::from_utf8(text).ok()?;
    let mut owned = String::with_capacity(text.len() + 2);
    for (i, c) in text.char_indices() {
        if c == '.' && (i == 0 || !text.as_bytes()[i - 1].is_ascii_digit()) {
            owned.push('0');
        }
        owned.push(c);
    }
    if owned.ends_with('.') {
        owned.push('0');
    }
    owned.parse().ok()
}

/// One-based line and column of `offset`, knowing the line it is on. Columns count characters
/// when the line is UTF-8, bytes otherwise.
pub fn column_of(bytes: &[u8], line: &Line, offset: usize) -> u32 {
    let before = &bytes[line.start..offset.clamp(line.start, line.end)];
    let count = match std::str::from_utf8(before) {
        Ok(text) => text.chars().count(),
        Err(_) => before.len(),
    };
    count as u32 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_their_endings_and_drop_the_bom() {
        let text = b"\xEF\xBB\xBFa ; x\r\n\tb,c \n;only\nlast";
        let lines = split_lines(text);
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0].start, 3);
        assert_eq!(&text[lines[0].code_range()], b"a");
        assert_eq!(&text[lines[0].start..lines[0].end], b"a ; x");
        assert_eq!(lines[0].next, 10);
        assert_eq!(&text[lines[1].code_range()], b"b,c");
        assert!(lines[2].is_blank());
        assert_eq!(&text[lines[3].code_range()], b"last");
        assert_eq!(lines[3].next, text.len());
    }

    #[test]
    fn comments_in_any_encoding_are_only_bytes() {
        // Latin-1 "é" and a Shift-JIS pair in comments.
        let text = b"0,0, 0,0, 1 ;\xE9\x82\xA0\n";
        let lines = split_lines(text);
        assert_eq!(&text[lines[0].code_range()], b"0,0, 0,0, 1");
    }

    #[test]
    fn fields_are_split_with_their_blanks() {
        let text = b"0,1, 2 , ,A";
        let fields = split_fields(text, 0..text.len(), 10);
        let values: Vec<&[u8]> = fields.iter().map(|f| &text[f.value_range()]).collect();
        assert_eq!(values, vec![&b"0"[..], b"1", b"2", b"", b"A"]);
        assert_eq!(fields[2].raw, (4, 7));
        let limited = split_fields(text, 0..text.len(), 2);
        assert_eq!(&text[limited[1].value_range()], b"1, 2 , ,A");
    }

    #[test]
    fn numbers_accept_what_real_files_write() {
        assert_eq!(parse_int(b"000"), Some(0));
        assert_eq!(parse_int(b"-1"), Some(-1));
        assert_eq!(parse_int(b"+7"), Some(7));
        assert_eq!(parse_int(b"1.0"), None);
        assert_eq!(parse_int(b"-"), None);
        assert_eq!(parse_i32(b"99999999999"), None);
        assert_eq!(parse_decimal(b".3"), Some(0.3));
        assert_eq!(parse_decimal(b"-.5"), Some(-0.5));
        assert_eq!(parse_decimal(b"2."), Some(2.0));
        assert_eq!(parse_decimal(b"1.25"), Some(1.25));
        assert_eq!(parse_decimal(b"1.2.3"), None);
        assert_eq!(parse_decimal(b"."), None);
        assert_eq!(parse_decimal(b"1e5"), None);
    }
}
