//! Writes the line-based `.zsd` / 0.9 `.dat` syntax: the header line with spaces, direction
//! lines with tabs, as the Solarus files were written. A changed animation keeps every line
//! whose content did not change.

use super::data::{AnimationData, DirectionData, Entry, EntryExtra};
use super::splice::Syntax;

/// The legacy syntax.
pub struct LegacySyntax;

fn header_line(data: &AnimationData, directions: usize) -> String {
    format!(
        "{} {} {} {} {}",
        data.name, data.src_image, directions, data.frame_delay, data.loop_on_frame
    )
}

fn direction_line(d: &DirectionData) -> String {
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
        d.x,
        d.y,
        d.frame_width,
        d.frame_height,
        d.origin_x,
        d.origin_y,
        d.num_frames,
        d.num_columns
    )
}

impl Syntax for LegacySyntax {
    fn new_animation(&self, data: &AnimationData, newline: &str) -> String {
        let mut lines = vec![header_line(data, data.directions.len())];
        lines.extend(data.directions.iter().map(direction_line));
        lines.join(newline)
    }

    fn changed_animation(
        &self,
        original: &[u8],
        entry: &Entry,
        data: &AnimationData,
        newline: &str,
    ) -> String {
        let EntryExtra::Lines { header, directions } = &entry.extra else {
            return self.new_animation(data, newline);
        };
        let text = |range: &std::ops::Range<usize>| {
            String::from_utf8_lossy(&original[range.clone()]).into_owned()
        };
        let old = &entry.data;
        let same_header = old.name == data.name
            && old.src_image == data.src_image
            && old.frame_delay == data.frame_delay
            && old.loop_on_frame == data.loop_on_frame
            && directions.len() == data.directions.len();
        let mut lines = vec![if same_header {
            text(header)
        } else {
            header_line(data, data.directions.len())
        }];
        for (index, direction) in data.directions.iter().enumerate() {
            match (old.directions.get(index), directions.get(index)) {
                (Some(before), Some(range)) if before == direction => lines.push(text(range)),
                _ => lines.push(direction_line(direction)),
            }
        }
        lines.join(newline)
    }

    fn separator(&self) -> &'static str {
        "\n\n"
    }

    fn ending(&self) -> &'static str {
        "\n"
    }
}

/// Why `data` cannot be written in this syntax, if it cannot: tokens are split on spaces.
pub fn unwritable(data: &AnimationData) -> Option<String> {
    let bad = |s: &str| s.is_empty() || s.chars().any(char::is_whitespace);
    if bad(&data.name) {
        return Some(format!(
            "animation name '{}' is empty or has spaces, which this line-based format cannot hold",
            data.name
        ));
    }
    if bad(&data.src_image) {
        return Some(format!(
            "image path '{}' of animation '{}' is empty or has spaces, which this line-based format cannot hold",
            data.src_image, data.name
        ));
    }
    None
}
