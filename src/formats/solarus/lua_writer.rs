//! Writes the Lua form in the engine's own style: the default animation first, `frame_delay`
//! left out when 0, `frame_to_loop_on` left out when the delay is 0 or there is no loop,
//! `num_frames` left out when 1, `num_columns` when equal to `num_frames`; the origin always.

use super::data::{AnimationData, DirectionData, Entry, EntryExtra};
use super::splice::Syntax;

/// The Lua syntax.
pub struct LuaSyntax;

impl Syntax for LuaSyntax {
    fn new_animation(&self, data: &AnimationData, newline: &str) -> String {
        animation_text(data, &[], newline)
    }

    fn changed_animation(
        &self,
        _original: &[u8],
        entry: &Entry,
        data: &AnimationData,
        newline: &str,
    ) -> String {
        let unknown = match &entry.extra {
            EntryExtra::UnknownFields(fields) => fields.as_slice(),
            _ => &[],
        };
        animation_text(data, unknown, newline)
    }

    fn separator(&self) -> &'static str {
        "\n\n"
    }

    fn ending(&self) -> &'static str {
        "\n\n"
    }
}

fn animation_text(data: &AnimationData, unknown: &[String], newline: &str) -> String {
    let mut lines = vec![
        "animation{".to_string(),
        format!("  name = {},", quoted(&data.name)),
        format!("  src_image = {},", quoted(&data.src_image)),
    ];
    if data.frame_delay != 0 {
        lines.push(format!("  frame_delay = {},", data.frame_delay));
        if data.loop_on_frame != -1 {
            lines.push(format!("  frame_to_loop_on = {},", data.loop_on_frame));
        }
    }
    for field in unknown {
        lines.push(format!("  {field},"));
    }
    lines.push("  directions = {".to_string());
    for direction in &data.directions {
        lines.push(format!("    {},", direction_text(direction)));
    }
    lines.push("  },".to_string());
    lines.push("}".to_string());
    lines.join(newline)
}

fn direction_text(d: &DirectionData) -> String {
    let mut text = format!(
        "{{ x = {}, y = {}, frame_width = {}, frame_height = {}, origin_x = {}, origin_y = {}",
        d.x, d.y, d.frame_width, d.frame_height, d.origin_x, d.origin_y
    );
    if d.num_frames != 1 {
        text.push_str(&format!(", num_frames = {}", d.num_frames));
    }
    if d.num_columns != d.num_frames {
        text.push_str(&format!(", num_columns = {}", d.num_columns));
    }
    text.push_str(" }");
    text
}

/// A Lua string literal that reads back as `value`.
pub fn quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\{:03}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_animations_follow_the_engine_style() {
        let data = AnimationData {
            name: "walking".into(),
            src_image: "hero/tunic1.png".into(),
            frame_delay: 100,
            loop_on_frame: 0,
            directions: vec![DirectionData {
                x: 0,
                y: 32,
                frame_width: 24,
                frame_height: 32,
                origin_x: 12,
                origin_y: 29,
                num_frames: 8,
                num_columns: 8,
            }],
        };
        assert_eq!(
            LuaSyntax.new_animation(&data, "\n"),
            "animation{\n  name = \"walking\",\n  src_image = \"hero/tunic1.png\",\n  \
             frame_delay = 100,\n  frame_to_loop_on = 0,\n  directions = {\n    \
             { x = 0, y = 32, frame_width = 24, frame_height = 32, origin_x = 12, origin_y = 29, \
             num_frames = 8 },\n  },\n}"
        );
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(quoted("a\"b\\c\n\u{1}é"), "\"a\\\"b\\\\c\\n\\001é\"");
    }
}
