//! Reads the line-based syntax shared by Zelda Solarus DX `.zsd` files and Solarus 0.9/1.0
//! `sprites/*.dat` files: a header line `name image nb_directions frame_delay loop_on_frame`,
//! then one line per direction `x y frame_width frame_height origin_x origin_y nb_frames
//! nb_columns`. Tokens are separated by spaces or tabs; empty lines are skipped; extra tokens at
//! a line's end are ignored, as the engine's stream reader ignores them.

use super::data::{AnimationData, DirectionData, Entry, EntryExtra};
use super::problems::{Problems, check_grid};
use std::ops::Range;

/// A line of the file without its line end, and its tokens.
struct Line {
    range: Range<usize>,
    tokens: Vec<Range<usize>>,
}

/// Reads every animation, recording problems; never fails as a whole.
pub fn read_entries(text: &[u8], problems: &mut Problems) -> Vec<Entry> {
    let lines: Vec<Line> = split_lines(text)
        .filter(|line| !line.tokens.is_empty())
        .collect();
    let mut entries = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let header = &lines[index];
        index += 1;
        if header.tokens.len() >= 8 && header.tokens.iter().all(|t| integer(text, t).is_some()) {
            problems.error(
                header.range.start,
                "a direction line where an animation line was expected: the animation above \
                 declares fewer directions than it has lines",
            );
            continue;
        }
        if header.tokens.len() < 5 {
            problems.error(
                header.range.start,
                "expected an animation line: name image nb_directions frame_delay loop_on_frame",
            );
            continue;
        }
        let errors_before = problems.error_count();
        let token = |i: usize| &header.tokens[i];
        let name = lossy(text, token(0));
        let src_image = lossy(text, token(1));
        let nb_directions = number(text, token(2), "nb_directions", 1, i64::MAX, problems);
        let frame_delay = number(text, token(3), "frame_delay", 0, u32::MAX as i64, problems);
        let loop_on_frame = number(
            text,
            token(4),
            "loop_on_frame",
            -1,
            i32::MAX as i64,
            problems,
        );
        let mut directions = Vec::new();
        let mut direction_lines = Vec::new();
        let mut direction_at = Vec::new();
        // Without a valid count, take every following direction-shaped line.
        let wanted = nb_directions.map_or(usize::MAX, |n| n as usize);
        while direction_lines.len() < wanted {
            let Some(line) = lines.get(index) else { break };
            if line.tokens.len() < 8 && nb_directions.is_some() {
                break;
            }
            if nb_directions.is_none()
                && !(line.tokens.len() >= 8 && integer(text, &line.tokens[0]).is_some())
            {
                break;
            }
            index += 1;
            direction_lines.push(line.range.clone());
            direction_at.push(line.range.start);
            if let Some(direction) = direction_line(text, line, problems) {
                directions.push(direction);
            }
        }
        let usable = problems.error_count() == errors_before;
        if let Some(n) = nb_directions
            && direction_lines.len() < n as usize
        {
            problems.error(
                token(2).start,
                format!(
                    "too few direction lines: animation '{name}' declares {n} directions but {} \
                     follow",
                    direction_lines.len()
                ),
            );
        }
        let end = direction_lines.last().map_or(header.range.end, |r| r.end);
        entries.push(Entry {
            data: AnimationData {
                name,
                src_image,
                frame_delay: frame_delay.unwrap_or(0) as u32,
                loop_on_frame: loop_on_frame.unwrap_or(-1) as i32,
                directions,
            },
            span: header.range.start..end,
            name_at: token(0).start,
            loop_at: token(4).start,
            direction_at,
            usable: usable && !direction_lines.is_empty(),
            extra: EntryExtra::Lines {
                header: header.range.clone(),
                directions: direction_lines,
            },
        });
    }
    entries
}

fn direction_line(text: &[u8], line: &Line, problems: &mut Problems) -> Option<DirectionData> {
    let at = line.range.start;
    if line.tokens.len() < 8 {
        problems.error(
            at,
            format!(
                "a direction line needs 8 numbers (x y frame_width frame_height origin_x \
                 origin_y nb_frames nb_columns), this one has {}",
                line.tokens.len()
            ),
        );
        return None;
    }
    if line.tokens.len() == 9 && line.tokens.iter().all(|t| integer(text, t).is_some()) {
        problems.warning(
            line.tokens[8].start,
            "nine numbers on a direction line: this is the early (2008) Zelda Solarus DX variant \
             of the syntax; the engine reads only the first eight (x y frame_width frame_height \
             origin_x origin_y nb_frames nb_columns) and ignores the ninth, and so does Sprat: \
             check the frames against the image",
        );
    }
    let errors_before = problems.error_count();
    let min = i32::MIN as i64;
    let max = i32::MAX as i64;
    let t = &line.tokens;
    let x = number(text, &t[0], "x", min, max, problems);
    let y = number(text, &t[1], "y", min, max, problems);
    let frame_width = number(text, &t[2], "frame_width", 1, max, problems);
    let frame_height = number(text, &t[3], "frame_height", 1, max, problems);
    let origin_x = number(text, &t[4], "origin_x", min, max, problems);
    let origin_y = number(text, &t[5], "origin_y", min, max, problems);
    let num_frames = number(text, &t[6], "nb_frames", 1, max, problems);
    let num_columns = number(text, &t[7], "nb_columns", 1, max, problems);
    if problems.error_count() != errors_before {
        return None;
    }
    let direction = DirectionData {
        x: x? as i32,
        y: y? as i32,
        frame_width: frame_width? as u32,
        frame_height: frame_height? as u32,
        origin_x: origin_x? as i32,
        origin_y: origin_y? as i32,
        num_frames: num_frames? as u32,
        num_columns: num_columns? as u32,
    };
    check_grid(&direction, t[7].start, problems).then_some(direction)
}

/// Every line of `text` (split on `\n`, a trailing `\r` left out) with its tokens.
fn split_lines(text: &[u8]) -> impl Iterator<Item = Line> + '_ {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        let end = text[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |p| start + p);
        let next = end + 1;
        let content_end = if end > start && text[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        let mut tokens = Vec::new();
        let mut i = start;
        while i < content_end {
            if is_space(text[i]) {
                i += 1;
                continue;
            }
            let token_start = i;
            while i < content_end && !is_space(text[i]) {
                i += 1;
            }
            tokens.push(token_start..i);
        }
        let line = Line {
            range: start..content_end,
            tokens,
        };
        start = next;
        Some(line)
    })
}

fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

fn lossy(text: &[u8], range: &Range<usize>) -> String {
    String::from_utf8_lossy(&text[range.clone()]).into_owned()
}

fn integer(text: &[u8], range: &Range<usize>) -> Option<i64> {
    std::str::from_utf8(&text[range.clone()]).ok()?.parse().ok()
}

fn number(
    text: &[u8],
    range: &Range<usize>,
    what: &str,
    min: i64,
    max: i64,
    problems: &mut Problems,
) -> Option<i64> {
    match integer(text, range) {
        Some(value) if (min..=max).contains(&value) => Some(value),
        Some(value) => {
            problems.error(
                range.start,
                format!("{what} = {value} is out of range ({min} to {max})"),
            );
            None
        }
        None => {
            problems.error(
                range.start,
                format!(
                    "bad number for {what}: '{}' is not a whole number",
                    lossy(text, range)
                ),
            );
            None
        }
    }
}
