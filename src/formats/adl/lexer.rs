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
    /// For every byte offset of `value` (and its end), the raw offset of the character there.
    raw_of: Vec<usize>,
    /// Raw bytes of the whole logical line, key to end of its last natural line.
    pub span: Range<usize>,
}

impl Property {
    /// The raw byte range holding the decoded `range` of the value.
    pub fn raw_range(&self, range: Range<usize>) -> Range<usize> {
        let start = self.raw_of[range.start.min(self.value.len())];
        let end = if range.end >= self.value.len() {
            self.value_span.end
        } else {
            self.raw_of[range.end]
        };
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
        let (line, next) = logical_line(bytes, pos);
        out.properties
            .push(split_property(&line, pos, &mut out.problems));
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

/// Reads one logical line starting at `start`: its characters with their raw positions
/// (continuation backslashes, terminators and continuation indentation removed) and where the
/// next natural line begins.
fn logical_line(bytes: &[u8], start: usize) -> (Vec<RawChar>, usize) {
    let mut chars: Vec<RawChar> = Vec::new();
    let mut pos = start;
    loop {
        let end = natural_line_end(bytes, pos);
        let mut backslash = false;
        while pos < end {
            let (ch, w) = char_at(bytes, pos);
            backslash = if ch == '\\' { !backslash } else { false };
            chars.push(RawChar {
                ch,
                raw: pos,
                raw_end: pos + w,
            });
            pos += w;
        }
        if !backslash {
            return (chars, after_terminator(bytes, end));
        }
        chars.pop();
        pos = after_terminator(bytes, end);
        if pos >= bytes.len() {
            return (chars, pos);
        }
        while pos < bytes.len() {
            let (ch, w) = char_at(bytes, pos);
            if !is_blank(ch) {
                break;
            }
            pos += w;
        }
    }
}

fn split_property(line: &[RawChar], start: usize, problems: &mut Vec<LexProblem>) -> Property {
    let mut key_len = 0;
    let mut value_start = line.len();
    let mut has_separator = false;
    let mut backslash = false;
    while key_len < line.len() {
        let ch = line[key_len].ch;
        if (ch == '=' || ch == ':') && !backslash {
            value_start = key_len + 1;
            has_separator = true;
            break;
        }
        if is_blank(ch) && !backslash {
            value_start = key_len + 1;
            break;
        }
        backslash = if ch == '\\' { !backslash } else { false };
        key_len += 1;
    }
    while value_start < line.len() {
        let ch = line[value_start].ch;
        if !is_blank(ch) {
            if !has_separator && (ch == '=' || ch == ':') {
                has_separator = true;
            } else {
                break;
            }
        }
        value_start += 1;
    }
    let line_end = line.last().map_or(start, |c| c.raw_end);
    let (key, _) = unescape(&line[..key_len], problems);
    let (value, raw_of) = unescape(&line[value_start..], problems);
    let key_end = if key_len > 0 {
        line[key_len - 1].raw_end
    } else {
        start
    };
    let value_raw_start = line.get(value_start).map_or(line_end, |c| c.raw);
    Property {
        key,
        key_span: start..key_end,
        value,
        value_span: value_raw_start..line_end,
        raw_of,
        span: start..line_end,
    }
}

/// Resolves escapes; returns the text and, for each of its bytes plus the end, the raw offset.
fn unescape(chars: &[RawChar], problems: &mut Vec<LexProblem>) -> (String, Vec<usize>) {
    let mut text = String::with_capacity(chars.len());
    let mut raw_of = Vec::with_capacity(chars.len() + 1);
    let mut i = 0;
    let push = |text: &mut String, raw_of: &mut Vec<usize>, ch: char, raw: usize| {
        text.push(ch);
        raw_of.resize(text.len(), raw);
    };
    while i < chars.len() {
        let c = chars[i];
        if c.ch != '\\' {
            push(&mut text, &mut raw_of, c.ch, c.raw);
            i += 1;
            continue;
        }
        let Some(next) = chars.get(i + 1) else {
            i += 1;
            continue;
        };
        match next.ch {
            'u' => {
                let hex: String = chars[i + 2..(i + 6).min(chars.len())]
                    .iter()
                    .map(|c| c.ch)
                    .collect();
                match (hex.len() == 4)
                    .then(|| u32::from_str_radix(&hex, 16).ok())
                    .flatten()
                {
                    Some(code) => {
                        // A lone surrogate cannot be a Rust char; Java keeps it, we show U+FFFD.
                        let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                        push(&mut text, &mut raw_of, ch, c.raw);
                        i += 6;
                    }
                    None => {
                        problems.push(LexProblem {
                            at: c.raw,
                            message: "malformed \\uXXXX escape: the game refuses the whole file"
                                .into(),
                            fatal: true,
                        });
                        push(&mut text, &mut raw_of, 'u', c.raw);
                        i += 2;
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
                push(&mut text, &mut raw_of, ch, c.raw);
                i += 2;
            }
        }
    }
    raw_of.push(chars.last().map_or(0, |c| c.raw_end));
    (text, raw_of)
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
    fn value_span_covers_continued_lines() {
        let text = "A=1;\\\n  2\n";
        let p = &lex(text.as_bytes()).properties[0];
        assert_eq!(&text[p.value_span.clone()], "1;\\\n  2");
        assert_eq!(&text[p.span.clone()], "A=1;\\\n  2");
    }
}
