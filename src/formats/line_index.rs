//! Line and column of many byte offsets in one text, without scanning the text again for each.
//!
//! A reader that finds thousands of problems (a binary file opened as text, say) asks for
//! thousands of positions; counting lines from the start each time made that quadratic. The
//! index finds line starts once, and counts characters with a cursor that moves forward through
//! the line, so positions asked for in file order cost one pass over the text in all.

/// Line starts of a text, and a cursor for counting characters within a line.
pub struct LineIndex<'a> {
    text: &'a [u8],
    /// The offset each line starts at (the first is 0).
    starts: Vec<usize>,
    cursor: Cursor,
}

/// How far into a line characters have been counted.
#[derive(Clone, Copy)]
struct Cursor {
    /// The line's start.
    line_start: usize,
    /// The end of the longest prefix of the line known to be whole UTF-8 characters.
    valid_end: usize,
    /// Characters in `line_start..valid_end`.
    chars: usize,
    /// The line has a byte that no longer prefix can make valid: columns count bytes past it.
    broken_at: Option<usize>,
}

impl Cursor {
    fn at(line_start: usize) -> Cursor {
        Cursor {
            line_start,
            valid_end: line_start,
            chars: 0,
            broken_at: None,
        }
    }
}

impl<'a> LineIndex<'a> {
    /// Indexes `text` (one pass over it).
    pub fn new(text: &'a [u8]) -> LineIndex<'a> {
        let starts = std::iter::once(0)
            .chain(
                text.iter()
                    .enumerate()
                    .filter(|(_, b)| **b == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        LineIndex {
            text,
            starts,
            cursor: Cursor::at(0),
        }
    }

    /// The one-based line of `offset`.
    pub fn line_of(&self, offset: usize) -> u32 {
        let offset = offset.min(self.text.len());
        self.starts.partition_point(|&s| s <= offset) as u32
    }

    /// One-based line and column of `offset`; columns count characters when the line up to
    /// `offset` is UTF-8, bytes otherwise (as [`super::line_column`] does).
    pub fn line_column(&mut self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.text.len());
        let line = self.line_of(offset);
        let line_start = self.starts[line as usize - 1];
        if self.cursor.line_start != line_start || self.cursor.valid_end > offset {
            self.cursor = Cursor::at(line_start);
        }
        let cursor = &mut self.cursor;
        if cursor.broken_at.is_none_or(|at| at >= offset) {
            match std::str::from_utf8(&self.text[cursor.valid_end..offset]) {
                Ok(piece) => {
                    cursor.chars += piece.chars().count();
                    cursor.valid_end = offset;
                }
                Err(error) => {
                    let valid = cursor.valid_end..cursor.valid_end + error.valid_up_to();
                    let piece = std::str::from_utf8(&self.text[valid.clone()]).unwrap_or("");
                    cursor.chars += piece.chars().count();
                    cursor.valid_end = valid.end;
                    if error.error_len().is_some() {
                        cursor.broken_at = Some(valid.end);
                    }
                    // The prefix is not whole UTF-8: count bytes.
                    return (line, (offset - line_start) as u32 + 1);
                }
            }
            return (line, cursor.chars as u32 + 1);
        }
        (line, (offset - line_start) as u32 + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::line_column;

    #[test]
    fn agrees_with_counting_from_the_start_in_any_order() {
        let alphabet: [&[u8]; 7] = [
            b"a",
            b"\n",
            "\u{e7}".as_bytes(),
            b"\xE9",
            b"\xE2\x82",
            b"\xAC",
            b" ",
        ];
        let mut seed = 3u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 16) as usize
        };
        for _ in 0..2000 {
            let text: Vec<u8> = (0..next() % 40)
                .flat_map(|_| alphabet[next() % alphabet.len()].iter().copied())
                .collect();
            let mut index = LineIndex::new(&text);
            let mut offsets: Vec<usize> = (0..next() % 12)
                .map(|_| next() % (text.len() + 3))
                .collect();
            if next() % 2 == 0 {
                offsets.sort();
            }
            for offset in offsets {
                assert_eq!(
                    index.line_column(offset),
                    line_column(&text, offset),
                    "{text:?} at {offset}"
                );
                assert_eq!(index.line_of(offset), line_column(&text, offset).0);
            }
        }
    }
}
