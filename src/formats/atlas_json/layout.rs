//! The JSON text of one atlas page, laid out as Aseprite 1.3 writes it (key order, spacing,
//! one frame per block, one tag, layer and slice per line), so diffs against Aseprite's own
//! exports stay small and every engine that reads Aseprite sheets reads ours.

use super::names::{self, NameFields};
use super::{DIRECTION_DATA, ORIGIN_SLICE};
use crate::formats::WriteError;
use crate::formats::atlas::marks::MarkKind;
use crate::formats::atlas::{Atlas, JsonForm};
use crate::model::BoxClass;
use indexmap::IndexMap;
use std::fmt::Write;

/// What names one page's files and frames.
pub struct PageNames<'a> {
    /// The page's title (its file stem), the `{title}` of frame names.
    pub title: &'a str,
    /// The frame name pattern (see [`super::names`]).
    pub frame_pattern: &'a str,
    /// The sheet image, relative to the JSON file.
    pub image: &'a str,
    /// The other pages' JSON files (on the first page only).
    pub related: &'a [String],
}

/// Left, top, width, height.
type Bounds = (i32, i32, u32, u32);

/// A slice's keys as they are collected frame by frame.
struct Track {
    colour: &'static str,
    point: bool,
    keys: Vec<(usize, Option<Bounds>)>,
    shown: Option<Bounds>,
}

/// The name of every JSON frame of page `index`, in order; in the hash form names are keys,
/// so a pattern that names two frames alike is refused.
fn frame_names(atlas: &Atlas, index: usize, names: &PageNames) -> Result<Vec<String>, WriteError> {
    let page = &atlas.pages[index];
    let mut out = Vec::new();
    for &r in &page.runs {
        let run = &atlas.runs[r];
        let tag = run.name();
        for (tag_frame, o) in run.frames.iter().enumerate() {
            let fields = NameFields {
                title: names.title,
                tag: &tag,
                frame: out.len(),
                tag_frame,
                layer: LAYER,
                duration: o.millis,
            };
            out.push(names::frame_name(names.frame_pattern, &fields));
        }
    }
    if atlas.options.form == JsonForm::Hash
        && let Some((a, b)) = names::first_repeat(&out)
    {
        return Err(WriteError::new(format!(
            "the frame name pattern \"{}\" names frames {a} and {b} both \"{}\"; frames of a hash-form atlas need different names (add {{frame}}, or {{tag}} with {{tagframe}})",
            names.frame_pattern, out[b]
        )));
    }
    Ok(out)
}

/// The one layer Sprat writes: every frame flattened.
const LAYER: &str = "sprite";

/// The JSON text of page `index` of `atlas`; fails when the frame names collide (see
/// [`frame_names`]).
pub fn page_json(atlas: &Atlas, index: usize, names: &PageNames) -> Result<String, WriteError> {
    let frame_names = frame_names(atlas, index, names)?;
    let page = &atlas.pages[index];
    let (cw, ch) = atlas.canvas_size();
    let array = atlas.options.form == JsonForm::Array;
    let mut out = String::with_capacity(4096);
    out.push_str(if array {
        "{ \"frames\": [\n"
    } else {
        "{ \"frames\": {\n"
    });
    let mut tags = Vec::new();
    let mut tracks: IndexMap<String, Track> = IndexMap::new();
    let mut n = 0usize;
    let total: usize = page.runs.iter().map(|&r| atlas.runs[r].frames.len()).sum();
    for &r in &page.runs {
        let run = &atlas.runs[r];
        let from = n;
        for o in &run.frames {
            let picture = &atlas.pictures[o.picture].image;
            let (w, h) = picture.dimensions();
            let (x, y) = page.regions[o.picture].unwrap_or((0, 0));
            let trimmed = o.at != (0, 0) || (w, h) != (cw, ch);
            let name = json_string(&frame_names[n]);
            if array {
                let _ = write!(out, "   {{\n    \"filename\": {name},\n");
            } else {
                let _ = writeln!(out, "   {name}: {{");
            }
            let _ = write!(
                out,
                "    \"frame\": {{ \"x\": {x}, \"y\": {y}, \"w\": {w}, \"h\": {h} }},\n    \"rotated\": false,\n    \"trimmed\": {trimmed},\n    \"spriteSourceSize\": {{ \"x\": {}, \"y\": {}, \"w\": {w}, \"h\": {h} }},\n    \"sourceSize\": {{ \"w\": {cw}, \"h\": {ch} }},\n    \"duration\": {}\n   }}",
                o.at.0, o.at.1, o.millis
            );
            out.push_str(if n + 1 < total { ",\n" } else { "\n" });
            collect_marks(&mut tracks, n, o);
            n += 1;
        }
        tags.push((run, from, n - 1));
    }
    out.push_str(if array { " ],\n" } else { " },\n" });
    out.push_str(" \"meta\": {\n  \"app\": \"Sprat\",\n");
    let _ = writeln!(out, "  \"version\": \"{}\",", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(out, "  \"image\": {},", json_string(names.image));
    out.push_str("  \"format\": \"RGBA8888\",\n");
    let (sw, sh) = page.sheet.dimensions();
    let _ = writeln!(out, "  \"size\": {{ \"w\": {sw}, \"h\": {sh} }},");
    let _ = writeln!(out, "  \"scale\": \"{}\",", atlas.options.scale);
    if !names.related.is_empty() {
        let list: Vec<String> = names.related.iter().map(|r| json_string(r)).collect();
        let _ = writeln!(out, "  \"related_multi_packs\": [ {} ],", list.join(", "));
    }
    out.push_str("  \"frameTags\": [\n");
    for (i, (run, from, to)) in tags.iter().enumerate() {
        let _ = write!(
            out,
            "   {{ \"name\": {}, \"from\": {from}, \"to\": {to}, \"direction\": \"forward\"",
            json_string(&run.name())
        );
        if !run.loops {
            out.push_str(", \"repeat\": \"1\"");
        }
        out.push_str(", \"color\": \"#000000ff\"");
        if let Some(label) = &run.direction_label {
            let _ = write!(
                out,
                ", \"data\": {}",
                json_string(&format!("{DIRECTION_DATA}{label}"))
            );
        }
        out.push_str(if i + 1 < tags.len() { " },\n" } else { " }\n" });
    }
    let _ = write!(
        out,
        "  ],\n  \"layers\": [\n   {{ \"name\": \"{LAYER}\", \"opacity\": 255, \"blendMode\": \"normal\" }}\n  ],\n"
    );
    out.push_str("  \"slices\": [\n");
    let (ox, oy) = atlas.origin();
    let _ = write!(
        out,
        "   {{ \"name\": \"{ORIGIN_SLICE}\", \"color\": \"#ffffffff\", \"keys\": [{{ \"frame\": 0, \"bounds\": {{\"x\": 0, \"y\": 0, \"w\": {cw}, \"h\": {ch} }}, \"pivot\": {{\"x\": {ox}, \"y\": {oy} }} }}] }}"
    );
    for (name, track) in &tracks {
        let _ = write!(
            out,
            ",\n   {{ \"name\": {}, \"color\": \"{}\", \"keys\": [",
            json_string(name),
            track.colour
        );
        for (k, (frame, rect)) in track.keys.iter().enumerate() {
            let (x, y, w, h) = rect.unwrap_or((0, 0, 0, 0));
            let _ = write!(
                out,
                "{}{{ \"frame\": {frame}, \"bounds\": {{\"x\": {x}, \"y\": {y}, \"w\": {w}, \"h\": {h} }}",
                if k == 0 { "" } else { ", " }
            );
            if track.point && rect.is_some() {
                out.push_str(", \"pivot\": {\"x\": 0, \"y\": 0 }");
            }
            out.push_str(" }");
        }
        out.push_str("] }");
    }
    out.push_str("\n  ]\n }\n}\n");
    Ok(out)
}

/// Adds the marks of JSON frame `n` to the slice tracks: a key where a slice appears or
/// changes, an empty key where it goes away.
fn collect_marks(
    tracks: &mut IndexMap<String, Track>,
    n: usize,
    o: &crate::formats::atlas::Occurrence,
) {
    let mut present = Vec::with_capacity(o.marks.len());
    for mark in &o.marks {
        let (colour, point) = match &mark.kind {
            MarkKind::Box(BoxClass::Hit) => ("#ff0000ff", false),
            MarkKind::Box(BoxClass::Hurt) => ("#0000ffff", false),
            MarkKind::Box(BoxClass::Custom(_)) => ("#ffff00ff", false),
            MarkKind::Point => ("#00ff00ff", true),
        };
        let track = tracks.entry(mark.name.clone()).or_insert(Track {
            colour,
            point,
            keys: Vec::new(),
            shown: None,
        });
        if track.shown != Some(mark.rect) {
            track.keys.push((n, Some(mark.rect)));
            track.shown = Some(mark.rect);
        }
        present.push(mark.name.as_str());
    }
    for (name, track) in tracks.iter_mut() {
        if track.shown.is_some() && !present.contains(&name.as_str()) {
            track.keys.push((n, None));
            track.shown = None;
        }
    }
}

fn json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_string())
}
