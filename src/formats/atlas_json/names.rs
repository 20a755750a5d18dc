//! Frame names in an atlas JSON, made from a pattern with Aseprite's own tokens (its
//! `--filename-format`): `{title}`, `{tag}`, `{frame}`, `{tagframe}`, `{layer}`,
//! `{extension}` and `{duration}`. `{frame}` and `{tagframe}` take Aseprite's padding form too:
//! `{frame000}` counts from 0 in three digits, `{frame01}` from 1 in two. Any other text in
//! braces stays as written, as in Aseprite.
//!
//! The default is [`NUMBERS`] (`"0"`, `"1"`, …): Phaser's `createFromAseprite` looks frames up
//! by their number and finds nothing under any other name. A document read from an atlas
//! keeps the naming that atlas used, when a pattern explains every one of its names.

use super::schema;
use crate::model::AnimationSet;

/// Frames named by their number, the pattern most engines load without settings.
pub const NUMBERS: &str = "{frame}";

/// What the tokens of one frame's name stand for.
pub struct NameFields<'a> {
    /// The title (the atlas file's stem).
    pub title: &'a str,
    /// The name of the tag (animation) the frame belongs to.
    pub tag: &'a str,
    /// The frame's index in the JSON file.
    pub frame: usize,
    /// The frame's index in its tag.
    pub tag_frame: usize,
    /// The layer the frame is drawn from (Sprat writes one, flattened).
    pub layer: &'a str,
    /// How long the frame shows, in milliseconds.
    pub duration: u32,
}

/// The name `pattern` gives a frame.
pub fn frame_name(pattern: &str, fields: &NameFields) -> String {
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let token = &after[..close];
        match expand(token, fields) {
            Some(text) => out.push_str(&text),
            None => {
                out.push('{');
                out.push_str(token);
                out.push('}');
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The text of one token, `None` when it is not one of Aseprite's.
fn expand(token: &str, fields: &NameFields) -> Option<String> {
    match token {
        "title" => return Some(fields.title.to_string()),
        "tag" => return Some(fields.tag.to_string()),
        "layer" => return Some(fields.layer.to_string()),
        "extension" => return Some("png".to_string()),
        "duration" => return Some(fields.duration.to_string()),
        _ => {}
    }
    // `tagframe` first: `frame` is its suffix, not its prefix, but keep the longer key first.
    for (key, value) in [("tagframe", fields.tag_frame), ("frame", fields.frame)] {
        if let Some(digits) = token.strip_prefix(key) {
            return counter(digits, value);
        }
    }
    None
}

/// A counter with Aseprite's padding form: `""` plain, `"000"` three digits from 0, `"01"`
/// two digits from 1.
fn counter(digits: &str, value: usize) -> Option<String> {
    if digits.is_empty() {
        return Some(value.to_string());
    }
    if digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let start: usize = digits.parse().ok()?;
    Some(format!("{:0width$}", value + start, width = digits.len()))
}

/// The pattern the frames of `document` are named by when the user chose none: the one its
/// atlas used when it was read from one and a pattern explains every name, else [`NUMBERS`].
pub fn default_pattern(document: &AnimationSet) -> String {
    document
        .original
        .as_ref()
        .filter(|o| o.format == super::FORMAT_ID)
        .and_then(|o| schema::parse(&o.bytes).ok())
        .and_then(|sheet| pattern_of(&sheet))
        .unwrap_or_else(|| NUMBERS.to_string())
}

/// The pattern that names every frame of `sheet` as it is named, if one does. The title and
/// layer are unknown to a reader, so they stay as literal text.
fn pattern_of(sheet: &schema::SheetJson) -> Option<String> {
    let frames = &sheet.frames.list;
    let first = frames.first()?;
    let tag_of = |i: usize| {
        sheet
            .meta
            .frame_tags
            .iter()
            .find(|t| t.from <= i && i <= t.to)
    };
    let first_tag = tag_of(0).map(|t| t.name.as_str()).unwrap_or("");
    let explains = |pattern: &str| {
        frames.iter().enumerate().all(|(i, entry)| {
            let tag = tag_of(i);
            let fields = NameFields {
                title: "",
                tag: tag.map(|t| t.name.as_str()).unwrap_or(""),
                frame: i,
                tag_frame: tag.map(|t| i.saturating_sub(t.from)).unwrap_or(0),
                layer: "",
                duration: entry.duration,
            };
            frame_name(pattern, &fields) == entry.filename
        })
    };
    candidates(&first.filename, first_tag)
        .into_iter()
        .find(|pattern| explains(pattern))
}

/// Patterns that could have named the first frame `name` of tag `tag`: each run of digits
/// read as a frame or tag-frame counter (from 0 or 1, padded to its length), with the tag's
/// name as `{tag}` or as literal text.
fn candidates(name: &str, tag: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = name.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let run = &name[start..i];
        let value: Option<u64> = run.parse().ok();
        let padding = match value {
            Some(0) if run.len() == 1 => String::new(),
            Some(v @ (0 | 1)) => format!("{v:0width$}", width = run.len()),
            _ => continue,
        };
        // Aseprite has no escape for braces: a name whose literal text reads as a token fails
        // the check in `pattern_of` and falls back to the default.
        let (before, after) = (&name[..start], &name[i..]);
        for key in ["frame", "tagframe"] {
            out.push(format!("{before}{{{key}{padding}}}{after}"));
            if !tag.is_empty() {
                let tagged = |s: &str| s.replace(tag, "{tag}");
                out.push(format!(
                    "{}{{{key}{padding}}}{}",
                    tagged(before),
                    tagged(after)
                ));
            }
        }
    }
    out
}

/// The first name `names` gives twice, with the indices of both frames.
pub fn first_repeat(names: &[String]) -> Option<(usize, usize)> {
    let mut seen = std::collections::HashMap::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        if let Some(&earlier) = seen.get(name.as_str()) {
            return Some((earlier, i));
        }
        seen.insert(name.as_str(), i);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(frame: usize, tag_frame: usize) -> NameFields<'static> {
        NameFields {
            title: "hero",
            tag: "walk",
            frame,
            tag_frame,
            layer: "sprite",
            duration: 100,
        }
    }

    #[test]
    fn tokens_expand_as_in_aseprite() {
        assert_eq!(frame_name(NUMBERS, &fields(7, 2)), "7");
        assert_eq!(
            frame_name("{title} {frame}.{extension}", &fields(7, 2)),
            "hero 7.png"
        );
        assert_eq!(frame_name("{tag}_{tagframe}", &fields(7, 2)), "walk_2");
        assert_eq!(frame_name("{frame000}", &fields(7, 2)), "007");
        assert_eq!(frame_name("{tagframe01}", &fields(7, 2)), "03");
        assert_eq!(
            frame_name("{layer}/{duration}", &fields(0, 0)),
            "sprite/100"
        );
        assert_eq!(frame_name("{nope}{frame", &fields(1, 0)), "{nope}{frame");
    }

    fn sheet(names: &[&str], tags: &str) -> schema::SheetJson {
        let frames: Vec<String> = names
            .iter()
            .map(|n| {
                format!("{{\"filename\": \"{n}\", \"frame\": {{\"x\":0,\"y\":0,\"w\":1,\"h\":1}}}}")
            })
            .collect();
        let text = format!(
            "{{\"frames\": [{}], \"meta\": {{\"frameTags\": [{tags}]}}}}",
            frames.join(",")
        );
        schema::parse(text.as_bytes()).unwrap()
    }

    #[test]
    fn the_pattern_of_an_export_is_found_again() {
        let default = sheet(&["hero 0.aseprite", "hero 1.aseprite"], "");
        assert_eq!(
            pattern_of(&default).as_deref(),
            Some("hero {frame}.aseprite")
        );
        let tags = "{\"name\":\"idle\",\"from\":0,\"to\":1},{\"name\":\"run\",\"from\":2,\"to\":2}";
        let tagged = sheet(&["idle_00", "idle_01", "run_00"], tags);
        assert_eq!(pattern_of(&tagged).as_deref(), Some("{tag}_{tagframe00}"));
        let numbers = sheet(&["0", "1", "2"], "");
        assert_eq!(pattern_of(&numbers).as_deref(), Some(NUMBERS));
        let arbitrary = sheet(&["stand", "jump"], "");
        assert_eq!(pattern_of(&arbitrary), None);
    }

    #[test]
    fn repeated_names_are_found() {
        let names: Vec<String> = ["a", "b", "a"].iter().map(|s| s.to_string()).collect();
        assert_eq!(first_repeat(&names), Some((0, 2)));
        assert_eq!(first_repeat(&names[..2]), None);
    }
}
