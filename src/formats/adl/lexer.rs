//! The `.properties` layer, as `java.util.Properties.load(Reader)` reads it, with byte spans.
//!
//! Every property keeps where its key and value came from in the original bytes, so an edit can
//! replace a few bytes of one value and leave every other byte of the file (comments, blank
//! lines, continuations, spacing) as it was. Rules followed:
//! - a natural line ends at `\n`, `\r` or `\r\n`; leading spaces, tabs and form feeds are skipped;
//! - a line whose first other character is `#` or `!` is a comment (it never continues);
//! - an odd number of `\` at the end of a line continues it on the next one, whose leading
//!   whitespace is dropped (a continuation line starting with `#` is not a comment);
//! - the key ends at the first unescaped `=`, `:` or whitespace; whitespace and at most one
//!   `=`/`:` separate it from the value;
//! - `\uXXXX`, `\t`, `\n`, `\r`, `\f` and `\<any>` are escapes in keys and values.

use std::ops::Range;

/// One decoded character of a logical line and the raw bytes it came from.
#[derive(Clone, Copy, Debug)]
struct RawChar {
    ch: char,
    raw: usize,
    raw_end: usize,
}

/// One `key=value` property of the file.
#[derive(Clone, Debug)]
pub struct Property {
    /// The key, unescaped (case as written).
    pub key: String,
    /// Raw bytes of the key.
    pub key_span: Range<usize>,
    /// The value, unescaped, continuations joined.
    pub value: String,
    /// Raw bytes of the value (from its first character to the end of its last line, before
    /// the line terminator); empty (at the end of the line) for an empty value.
    pub value_span: Range<usize>,
    /// Where the value's raw bytes stop matching its decoded bytes one for one: each entry is
    /// a decoded offset and the raw offset of the character there, after an escape, a line
    /// continuation or a malformed byte. Empty for a value spelled as it reads, so a file
    /// costs memory by its escapes, not by its characters. 32-bit: files are at most 2 GiB,
    /// and past 4 GiB of decoded text (only malformed bytes, each decoded to three, reach it)
    /// no more are noted; [`Property::clean_raw_range`] compares bytes, so an edit stays safe.
    breaks: Vec<(u32, u32)>,
    /// Raw bytes of the whole logical line, key to end of its last natural line.
    pub span: Range<usize>,
}

impl Property {
    /// The raw offset of the character at decoded offset `at` of the value (the end of the
    /// value's raw bytes at or past its end).
    fn raw_at(&self, at: usize) -> usize {
        if at >= self.value.len() {
            return self.value_span.end;
        }
        let run = self
            .breaks
            .partition_point(|&(decoded, _)| decoded as usize <= at);
        let (decoded, raw) = match run {
            0 => (0, self.value_span.start),
            _ => {
                let (decoded, raw) = self.breaks[run - 1];
                (decoded as usize, raw as usize)
            }
        };
        raw + (at - decoded)
    }

    /// The raw byte range holding the decoded `range` of the value.
    pub fn raw_range(&self, range: Range<usize>) -> Range<usize> {
        let start = self.raw_at(range.start);
        let end = self.raw_at(range.end);
        start..end.max(start)
    }

    /// The raw byte range of the decoded `range` if those bytes spell exactly the decoded text
    /// (no escape and no line continuation inside), so replacing them is a safe edit.
    pub fn clean_raw_range(&self, bytes: &[u8], range: Range<usize>) -> Option<Range<usize>> {
        let raw = self.raw_range(range.clone());
        (bytes.get(raw.clone())? == self.value.as_bytes().get(range)?).then_some(raw)
    }
}

/// Something in the file the game's loader would refuse or read oddly.
#[derive(Clone, Debug)]
pub struct LexProblem {
    /// Raw byte offset.
    pub at: usize,
    /// A plain sentence.
    pub message: String,
    /// True when the game's loader throws on it (an error), false for a warning.
    pub fatal: bool,
}

/// The properties of a file, in file order (repeated keys included), and lexical problems.
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    /// Every property line, in order.
    pub properties: Vec<Property>,
    /// Problems found while lexing.
    pub problems: Vec<LexProblem>,
}

fn is_blank(ch: char) -> bool {
    matches!(ch, ' ' | '\t' | '\x0c')
}

/// Decodes the UTF-8 character at `at` (U+FFFD and one byte for malformed input, as Java's
/// decoder replaces it).
fn char_at(bytes: &[u8], at: usize) -> (char, usize) {
    let width = match bytes[at] {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => return ('\u{fffd}', 1),
    };
    match bytes
        .get(at..at + width)
        .and_then(|b| std::str::from_utf8(b).ok())
    {
        Some(s) => (s.chars().next().unwrap_or('\u{fffd}'), width),
        None => ('\u{fffd}', 1),
    }
}

/// Lexes a whole file.
pub fn lex(bytes: &[u8]) -> Lexed {
    let mut out = Lexed::default();
    if std::str::from_utf8(bytes).is_err() {
        let at = std::str::from_utf8(bytes)
            .err()
            .map_or(0, |e| e.valid_up_to());
        out.problems.push(LexProblem {
            at,
            message: "the file is not valid UTF-8; the game reads the bad bytes as U+FFFD".into(),
            fatal: false,
        });
    }
    if bytes.starts_with(&[0xef, 0xbb, 0xbf]) {
        out.problems.push(LexProblem {
            at: 0,
            message: "the file starts with a byte-order mark, which the game reads as part of the first key".into(),
            fatal: false,
        });
    }
    let mut pos = 0;
    while pos < bytes.len() {
        // Skip the leading whitespace of a natural line.
        let (ch, w) = char_at(bytes, pos);
        if is_blank(ch) {
            pos += w;
            continue;
        }
        if ch == '\n' || ch == '\r' {
            pos += w;
            continue;
        }
        if ch == '#' || ch == '!' {
            pos = natural_line_end(bytes, pos);
            continue;
        }
        let (property, next) = split_property(bytes, pos, &mut out.problems);
        out.properties.push(property);
        pos = next;
    }
    out
}

/// The end of the natural line starting at or before `pos` (the terminator's first byte).
fn natural_line_end(bytes: &[u8], pos: usize) -> usize {
    bytes[pos..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(bytes.len(), |p| pos + p)
}

/// Position after the line terminator at `end` (a no-op at the end of the file).
fn after_terminator(bytes: &[u8], end: usize) -> usize {
    match bytes.get(end) {
        Some(b'\r') if bytes.get(end + 1) == Some(&b'\n') => end + 2,
        Some(b'\r') | Some(b'\n') => end + 1,
        _ => end,
    }
}

/// The characters of one logical line, decoded as they are walked (continuation
/// backslashes, terminators and continuation indentation left out), so no line is ever held
/// as a list of characters. Cloning it is cheap: a clone walks the same line again.
#[derive(Clone)]
struct LineChars<'a> {
    bytes: &'a [u8],
    /// The next character's raw offset.
    pos: usize,
    /// The end of the current natural line.
    end: usize,
    /// True after an odd run of backslashes on the current natural line.
    backslash: bool,
}

impl<'a> LineChars<'a> {
    fn new(bytes: &'a [u8], start: usize) -> Self {
        LineChars {
            bytes,
            pos: start,
            end: natural_line_end(bytes, start),
            backslash: false,
        }
    }

    /// Where the natural line after the current one begins; once the walk is over, where
    /// the next logical line begins.
    fn next_line(&self) -> usize {
        after_terminator(self.bytes, self.end)
    }
}

impl Iterator for LineChars<'_> {
    type Item = RawChar;

    fn next(&mut self) -> Option<RawChar> {
        while self.pos < self.end {
            let raw = self.pos;
            let (ch, w) = char_at(self.bytes, raw);
            self.pos += w;
            self.backslash = ch == '\\' && !self.backslash;
            if !(self.backslash && self.pos >= self.end) {
                return Some(RawChar {
                    ch,
                    raw,
                    raw_end: raw + w,
                });
            }
            // An odd backslash ends the natural line: the line goes on after the terminator
            // and the next line's indentation.
            self.pos = self.next_line();
            while self.pos < self.bytes.len() {
                let (ch, w) = char_at(self.bytes, self.pos);
                if !is_blank(ch) {
                    break;
                }
                self.pos += w;
            }
            self.end = natural_line_end(self.bytes, self.pos);
            self.backslash = false;
        }
        None
    }
}

/// Reads the logical line starting at `start` as a property; returns it and where the next
/// natural line begins.
fn split_property(bytes: &[u8], start: usize, problems: &mut Vec<LexProblem>) -> (Property, usize) {
    let line = LineChars::new(bytes, start);
    // The key ends at the first unescaped separator or blank.
    let mut key_chars = 0;
    let mut key_end = start;
    let mut has_separator = false;
    let mut backslash = false;
    let mut value = line.clone();
    for c in value.by_ref() {
        if (c.ch == '=' || c.ch == ':') && !backslash {
            has_separator = true;
            break;
        }
        if is_blank(c.ch) && !backslash {
            break;
        }
        backslash = c.ch == '\\' && !backslash;
        key_chars += 1;
        key_end = c.raw_end;
    }
    // Blanks and at most one separator before the value.
    loop {
        let before = value.clone();
        let Some(c) = value.next() else { break };
        if !is_blank(c.ch) {
            if !has_separator && (c.ch == '=' || c.ch == ':') {
                has_separator = true;
            } else {
                value = before;
                break;
            }
        }
    }
    let mut rest = line.clone();
    let line_end = rest.by_ref().last().map_or(start, |c| c.raw_end);
    let value_raw_start = value.clone().next().map_or(line_end, |c| c.raw);
    let (key, _) = unescape(line.take(key_chars), start, key_end - start, problems);
    let (value, breaks) = unescape(value, value_raw_start, line_end - value_raw_start, problems);
    let property = Property {
        key,
        key_span: start..key_end,
        value,
        value_span: value_raw_start..line_end,
        breaks,
        span: start..line_end,
    };
    (property, rest.next_line())
}

/// Resolves escapes in `chars` (whose first character is at raw offset `first_raw`, spread
/// over `raw_len` raw bytes); returns the text and where its bytes stop following the raw
/// bytes one for one ([`Property::breaks`]).
fn unescape(
    mut chars: impl Iterator<Item = RawChar> + Clone,
    first_raw: usize,
    raw_len: usize,
    problems: &mut Vec<LexProblem>,
) -> (String, Vec<(u32, u32)>) {
    let mut text = String::with_capacity(raw_len);
    let mut breaks: Vec<(u32, u32)> = Vec::new();
    let mut push = |text: &mut String, ch: char, raw: usize| {
        let (decoded, from) = breaks
            .last()
            .map_or((0, first_raw), |&(d, r)| (d as usize, r as usize));
        if from + (text.len() - decoded) != raw
            && let (Ok(decoded), Ok(raw)) = (u32::try_from(text.len()), u32::try_from(raw))
        {
            breaks.push((decoded, raw));
        }
        text.push(ch);
    };
    while let Some(c) = chars.next() {
        if c.ch != '\\' {
            push(&mut text, c.ch, c.raw);
            continue;
        }
        let Some(next) = chars.next() else {
            continue;
        };
        match next.ch {
            'u' => {
                let mut ahead = chars.clone();
                let hex: String = ahead.by_ref().take(4).map(|c| c.ch).collect();
                match (hex.chars().count() == 4)
                    .then(|| u32::from_str_radix(&hex, 16).ok())
                    .flatten()
                {
                    Some(code) => {
                        // A lone surrogate cannot be a Rust char; Java keeps it, we show U+FFFD.
                        let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                        push(&mut text, ch, c.raw);
                        chars = ahead;
                    }
                    None => {
                        problems.push(LexProblem {
                            at: c.raw,
                            message: "malformed \\uXXXX escape: the game refuses the whole file"
                                .into(),
                            fatal: true,
                        });
                        push(&mut text, 'u', c.raw);
                    }
                }
            }
            other => {
                let ch = match other {
                    't' => '\t',
                    'r' => '\r',
                    'n' => '\n',
                    'f' => '\x0c',
                    x => x,
                };
                push(&mut text, ch, c.raw);
            }
        }
    }
    (text, breaks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(text: &str) -> Vec<(String, String)> {
        lex(text.as_bytes())
            .properties
            .into_iter()
            .map(|p| (p.key, p.value))
            .collect()
    }

    #[test]
    fn separators_comments_and_blank_lines() {
        let got = props("# c\n! c\n\n  A=1\nB : 2\nC 3\nD\n E:=x\n");
        let want = [("A", "1"), ("B", "2"), ("C", "3"), ("D", ""), ("E", "=x")];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn continuations_drop_the_backslash_and_the_indentation() {
        let got = props("A=x;\\\n    # not a comment;\\\r\n  y\nB=z\\\\\n");
        assert_eq!(got[0], ("A".into(), "x;# not a comment;y".into()));
        assert_eq!(got[1], ("B".into(), "z\\".into()));
    }

    #[test]
    fn escapes_and_their_raw_spans() {
        let text = "K\\=ey=a\\u0041b\\tc";
        let lexed = lex(text.as_bytes());
        let p = &lexed.properties[0];
        assert_eq!(p.key, "K=ey");
        assert_eq!(p.value, "aAb\tc");
        assert_eq!(p.raw_range(1..2), 7..13);
        assert_eq!(p.clean_raw_range(text.as_bytes(), 1..2), None);
        assert_eq!(p.clean_raw_range(text.as_bytes(), 0..1), Some(6..7));
        assert!(lexed.problems.is_empty());
    }

    #[test]
    fn malformed_unicode_escape_is_fatal_but_lexing_goes_on() {
        let lexed = lex(b"A=\\u12\nB=2");
        assert!(lexed.problems[0].fatal);
        assert_eq!(lexed.properties.len(), 2);
    }

    #[test]
    fn raw_offsets_follow_continuations_and_malformed_bytes() {
        let text = b"A=ab\\\n   c\xffd";
        let p = &lex(text).properties[0];
        assert_eq!(p.value, "abc\u{fffd}d");
        // "ab" ends where "c" starts: the continuation between them is part of its bytes.
        assert_eq!(p.raw_range(0..2), 2..9);
        assert_eq!(p.clean_raw_range(text, 0..2), None);
        assert_eq!(p.clean_raw_range(text, 0..1), Some(2..3));
        assert_eq!(p.raw_range(2..3), 9..10);
        assert_eq!(p.raw_range(3..6), 10..11);
        assert_eq!(p.raw_range(6..7), 11..12);
        assert_eq!(p.breaks, [(2, 9), (6, 11)]);
    }

    #[test]
    fn value_span_covers_continued_lines() {
        let text = "A=1;\\\n  2\n";
        let p = &lex(text.as_bytes()).properties[0];
        assert_eq!(&text[p.value_span.clone()], "1;\\\n  2");
        assert_eq!(&text[p.span.clone()], "A=1;\\\n  2");
    }
}
