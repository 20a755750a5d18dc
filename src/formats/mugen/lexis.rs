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
    let start = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    // AIR lines average about twenty bytes: room for lines of sixteen, so the list is
    // allocated once for real files (counting the line endings first costs more).
    let mut lines = Vec::with_capacity(bytes.len() / 16 + 1);
    let mut start = start;
    while start < bytes.len() {
        let (comment, newline) = comment_and_newline(&bytes[start..]);
        let (end, next) = match newline.map(|p| start + p) {
            Some(n) if n > start && bytes[n - 1] == b'\r' => (n - 1, n + 1),
            Some(n) => (n, n + 1),
            None => (bytes.len(), bytes.len()),
        };
        let comment = comment.map_or(end, |p| (start + p).min(end));
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

/// The first `;` before the first `\n` of `text`, and that `\n`.
fn comment_and_newline(text: &[u8]) -> (Option<usize>, Option<usize>) {
    match find_either(text, b'\n', b';') {
        Some(i) if text[i] == b';' => {
            let newline = find_either(&text[i..], b'\n', b'\n').map(|p| i + p);
            (Some(i), newline)
        }
        newline => (None, newline),
    }
}

/// The first position of `a` or `b` in `text`, looking at eight bytes at a time.
fn find_either(text: &[u8], a: u8, b: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // A byte equal to `byte` becomes zero after the XOR; the classic zero-byte test then sets
    // its high bit. Bits above a true match may be set too, but the lowest one is exact.
    let matches = |word: u64, byte: u8| {
        let x = word ^ (ONES * u64::from(byte));
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    let mut chunks = text.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("chunks of eight bytes"));
        let found = matches(word, a) | matches(word, b);
        if found != 0 {
            return Some(offset + (found.trailing_zeros() / 8) as usize);
        }
        offset += 8;
    }
    let rest = chunks.remainder().iter().position(|&c| c == a || c == b);
    rest.map(|p| offset + p)
}

/// `range` without blanks on either side, as (start, end).
#[inline]
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
#[inline]
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

impl Field {
    /// An empty field at `at`.
    pub const fn empty_at(at: usize) -> Field {
        Field {
            raw: (at, at),
            value: (at, at),
        }
    }
}

/// The comma-separated fields of a line, split in one pass that also reads every field that is
/// a whole number (most of them): frame and box lines are nearly all numbers, and reading them
/// while splitting saves a second walk over each field.
#[derive(Clone, Copy, Debug)]
pub struct ScannedFields<const N: usize> {
    /// The first `N` fields (the rest are only counted).
    pub fields: [Field; N],
    /// The value of each kept field that is a whole number (see [`parse_int`]).
    pub numbers: [Option<i64>; N],
    /// How many fields the line has, kept or not.
    pub count: usize,
    /// Where field `N` (the first one not kept) starts, when there is one.
    pub first_dropped: Option<usize>,
}

/// The kept fields.
impl<const N: usize> std::ops::Deref for ScannedFields<N> {
    type Target = [Field];

    fn deref(&self) -> &[Field] {
        &self.fields[..self.count.min(N)]
    }
}

/// Splits `range` at its commas into fields trimmed of blanks, as described at
/// [`ScannedFields`]. An empty range is one empty field.
pub fn scan_fields<const N: usize>(bytes: &[u8], range: Range<usize>) -> ScannedFields<N> {
    let end = range.end;
    // Slicing once lets the compiler see every index below is in bounds.
    let text = &bytes[..end];
    let mut scanned = ScannedFields {
        fields: [Field::empty_at(range.start); N],
        numbers: [None; N],
        count: 0,
        first_dropped: None,
    };
    let mut i = range.start;
    loop {
        let raw_start = i;
        while i < end && is_blank_byte(text[i]) {
            i += 1;
        }
        let value_start = i;
        let negative = i < end && text[i] == b'-';
        if i < end && matches!(text[i], b'-' | b'+') {
            i += 1;
        }
        let digits_start = i;
        let mut value: i64 = 0;
        while i < end {
            let digit = text[i].wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            // Wrapping is harmless: more than 18 digits is not a whole number below.
            value = value.wrapping_mul(10).wrapping_add(i64::from(digit));
            i += 1;
        }
        let digits = i - digits_start;
        let mut whole = digits > 0 && digits <= MAX_DIGITS;
        let mut value_end = i;
        while i < end && text[i] != b',' {
            if !is_blank_byte(text[i]) {
                whole = false;
                value_end = i + 1;
            }
            i += 1;
        }
        match scanned.fields.get_mut(scanned.count) {
            Some(field) => {
                *field = Field {
                    raw: (raw_start, i),
                    value: (value_start, value_end),
                };
                scanned.numbers[scanned.count] =
                    whole.then_some(if negative { -value } else { value });
            }
            None if scanned.count == N => scanned.first_dropped = Some(raw_start),
            None => {}
        }
        scanned.count += 1;
        if i >= end {
            return scanned;
        }
        // Past the comma.
        i += 1;
    }
}

/// The most digits a whole number may have: any more could overflow an `i64`.
const MAX_DIGITS: usize = 18;

/// A whole number written in decimal with an optional sign (`-1`, `+3`, `000`).
#[inline]
pub fn parse_int(text: &[u8]) -> Option<i64> {
    let (negative, digits) = match text {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, text),
    };
    if digits.is_empty() || digits.len() > MAX_DIGITS {
        return None;
    }
    let mut value: i64 = 0;
    for &d in digits {
        let digit = d.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        value = value * 10 + i64::from(digit);
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
        assert_eq!(split_lines(b"a;b;c\n;\n").len(), 2);
        assert!(split_lines(b" ;x\r\ny")[0].is_blank());
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
    fn the_eight_byte_search_agrees_with_a_plain_scan() {
        let plain = |text: &[u8]| text.iter().position(|&c| c == b'\n' || c == b';');
        for value in 0..=255u8 {
            for at in 0..20 {
                let mut text = [b'a'; 20];
                text[at] = value;
                text[19 - at / 2] = value.wrapping_add(1);
                assert_eq!(
                    find_either(&text, b'\n', b';'),
                    plain(&text),
                    "{value} at {at}"
                );
            }
        }
        let mut seed = 7u32;
        let noise: Vec<u8> = (0..4000)
            .map(|_| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                (seed >> 16) as u8
            })
            .collect();
        for start in 0..noise.len() {
            assert_eq!(
                find_either(&noise[start..], b'\n', b';'),
                plain(&noise[start..])
            );
        }
    }

    #[test]
    fn comments_in_any_encoding_are_only_bytes() {
        // Latin-1 "é" and a Shift-JIS pair in comments.
        let text = b"0,0, 0,0, 1 ;\xE9\x82\xA0\n";
        let lines = split_lines(text);
        assert_eq!(&text[lines[0].code_range()], b"0,0, 0,0, 1");
    }

    #[test]
    fn fields_are_split_with_their_blanks_and_numbers() {
        let text = b"0,1, 2 , ,A,-7";
        let scanned = scan_fields::<10>(text, 0..text.len());
        let values: Vec<&[u8]> = scanned.iter().map(|f| &text[f.value_range()]).collect();
        assert_eq!(values, vec![&b"0"[..], b"1", b"2", b"", b"A", b"-7"]);
        assert_eq!(scanned.fields[2].raw, (4, 7));
        assert_eq!(
            scanned.numbers[..6],
            [Some(0), Some(1), Some(2), None, None, Some(-7)]
        );
        let four = scan_fields::<4>(text, 0..text.len());
        assert_eq!((four.count, four.first_dropped), (6, Some(10)));
        assert_eq!(four.len(), 4);
        let empty = scan_fields::<4>(text, 3..3);
        assert_eq!((empty.count, empty.fields[0]), (1, Field::empty_at(3)));
    }

    /// The one-pass scanner against the plain way: split at commas, trim, read the number.
    #[test]
    fn the_field_scanner_agrees_with_splitting_and_trimming() {
        let alphabet = b"0123456789-+ ,\t.aH;";
        let mut seed = 11u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 16) as usize
        };
        for _ in 0..20_000 {
            let len = next() % 40;
            let text: Vec<u8> = (0..len)
                .map(|_| alphabet[next() % alphabet.len()])
                .collect();
            let start = next() % (len + 1);
            let scanned = scan_fields::<6>(&text, start..len);
            let pieces: Vec<&[u8]> = text[start..].split(|&b| b == b',').collect();
            assert_eq!(scanned.count, pieces.len(), "{text:?}");
            let mut at = start;
            for (i, piece) in pieces.iter().enumerate() {
                let value = trim(&text, at..at + piece.len());
                if i < 6 {
                    assert_eq!(scanned.fields[i].raw, (at, at + piece.len()), "{text:?}");
                    assert_eq!(scanned.fields[i].value, value, "{text:?}");
                    let number = parse_int(&text[value.0..value.1]);
                    assert_eq!(scanned.numbers[i], number, "{text:?}");
                } else if i == 6 {
                    assert_eq!(scanned.first_dropped, Some(at), "{text:?}");
                }
                at += piece.len() + 1;
            }
        }
        let long = b"1234567890123456789, 123456789012345678";
        let scanned = scan_fields::<2>(long, 0..long.len());
        assert_eq!(scanned.numbers, [None, Some(123_456_789_012_345_678)]);
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
