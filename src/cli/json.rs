//! The machine-readable form `sprat check --json` and `sprat info --json` print: one JSON
//! document per run, `{"sprat": 2, "command", "files": [...], "summary"}`. Version 2 of the
//! schema (a frame's `boxes` became the boxes in force, inherited defaults marked): fields may
//! be added, none is removed or changes meaning without a new version.
//! The README's "Machine-readable output" section describes every field.

use crate::formats::{Diagnostic, Format, Location};
use crate::model::{
    AnimationSet, BoxClass, BoxOrigin, CollisionBox, DefaultBoxRule, ElementKind, EndBehavior,
    FrameDuration, GraphicSource, Group, ImageKind, Sequence, Shape, TreeItem, effective_boxes,
};
use serde::Serialize;

/// The schema version printed as `"sprat"`.
pub const SCHEMA_VERSION: u32 = 2;

/// The opening of a run's document, up to the `files` array.
pub fn header(command: &str) -> String {
    format!("{{\"sprat\":{SCHEMA_VERSION},\"command\":\"{command}\",\"files\":[")
}

/// One file's report.
#[derive(Serialize, Debug)]
pub struct FileReport {
    /// The path as given or found in a folder.
    pub path: String,
    /// The format it was read with; `null` when it could not be read.
    pub format: Option<FormatName>,
    /// Errors among `diagnostics`.
    pub errors: usize,
    /// Warnings among `diagnostics`.
    pub warnings: usize,
    /// Every diagnostic, errors first.
    pub diagnostics: Vec<JsonDiagnostic>,
    /// What the file holds (`info` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document: Option<JsonDocument>,
}

/// A format's id and name.
#[derive(Serialize, Debug)]
pub struct FormatName {
    /// The id `--to` takes.
    pub id: &'static str,
    /// The human name.
    pub name: &'static str,
}

impl FormatName {
    /// The name of `format`.
    pub fn of(format: &dyn Format) -> FormatName {
        FormatName {
            id: format.id(),
            name: format.name(),
        }
    }
}

/// A diagnostic.
#[derive(Serialize, Debug)]
pub struct JsonDiagnostic {
    /// "error", "warning" or "info".
    pub severity: String,
    /// The file it is about when not the file itself (an `.air` a `.def` names, an `.sff`).
    pub file: Option<String>,
    /// One-based line, for text files.
    pub line: Option<u32>,
    /// One-based column in characters, for text files.
    pub column: Option<u32>,
    /// Byte offset, for binary files.
    pub byte: Option<u64>,
    /// A plain sentence.
    pub message: String,
}

impl JsonDiagnostic {
    /// The JSON form of `d`.
    pub fn of(d: &Diagnostic) -> JsonDiagnostic {
        let (line, column, byte) = match d.location {
            Location::File => (None, None, None),
            Location::Text { line, column } => (Some(line), Some(column), None),
            Location::Byte(offset) => (None, None, Some(offset)),
        };
        JsonDiagnostic {
            severity: d.severity.to_string(),
            file: d.file.clone(),
            line,
            column,
            byte,
            message: d.message.clone(),
        }
    }
}

/// Every diagnostic, errors first (the order the text form prints).
pub fn diagnostics(list: &[Diagnostic]) -> Vec<JsonDiagnostic> {
    let mut sorted: Vec<&Diagnostic> = list.iter().collect();
    sorted.sort_by_key(|d| d.severity);
    sorted.into_iter().map(JsonDiagnostic::of).collect()
}

/// What a document holds.
#[derive(Serialize, Debug)]
pub struct JsonDocument {
    /// The title, when the format has one.
    pub title: Option<String>,
    /// The set's frame rate (frames per second) for durations counted in frames.
    pub frame_rate: Option<u32>,
    /// The name of the sequence that plays first.
    pub default_sequence: Option<String>,
    /// The images, sheets and archives it draws from.
    pub images: Vec<JsonImage>,
    /// Every sequence in tree order.
    pub sequences: Vec<JsonSequence>,
}

/// An image file, SFF archive or Solarus tileset placeholder.
#[derive(Serialize, Debug)]
pub struct JsonImage {
    /// The path as the file spells it.
    pub path: String,
    /// "file", "sff", "solarus-tileset" or "memory" (pixels held in the document itself).
    pub kind: &'static str,
    /// Where it was found on disk; `null` when it was not.
    pub resolved: Option<String>,
}

/// A sequence (an animation, an action).
#[derive(Serialize, Debug)]
pub struct JsonSequence {
    /// Its name (M.U.G.E.N: the action number).
    pub name: String,
    /// Its human title (M.U.G.E.N: the comment line above the action); `null` when none.
    pub title: Option<String>,
    /// The names of the groups it is in, outermost first.
    pub groups: Vec<String>,
    /// True for the sequence that plays first.
    pub default: bool,
    /// The frame index playback returns to; `null` when it does not loop.
    pub loop_point: Option<usize>,
    /// The sequence that plays after it.
    pub follow_up: Option<String>,
    /// "hold" (the last frame stays) or "disappear".
    pub on_end: &'static str,
    /// Its own frame rate, when it overrides the set's.
    pub frame_rate: Option<u32>,
    /// Its directions (one for every format but Solarus).
    pub directions: Vec<JsonDirection>,
}

/// One direction of a sequence.
#[derive(Serialize, Debug)]
pub struct JsonDirection {
    /// From 0.
    pub index: usize,
    /// "right", "up", ... or the direction's own name.
    pub label: String,
    /// The sum of the frames' durations.
    pub total: JsonTotal,
    /// The frames in order.
    pub frames: Vec<JsonFrame>,
}

/// A total duration: exact in each native unit, and in milliseconds.
#[derive(Serialize, Debug)]
pub struct JsonTotal {
    /// The sum per native unit, e.g. `{"ticks": 90}`.
    pub native: std::collections::BTreeMap<&'static str, u128>,
    /// The whole in milliseconds (frames that last forever count 0).
    pub ms: f64,
    /// True when a frame lasts forever.
    pub forever: bool,
}

/// A frame's duration.
#[derive(Serialize, Debug)]
pub struct JsonDuration {
    /// "ms", "ticks" (1/60 s), "holds" (frames at the frame rate), "ns" or "forever".
    pub unit: &'static str,
    /// The count in `unit`; `null` for "forever".
    pub value: Option<u64>,
    /// The duration in milliseconds; `null` for "forever" or when no frame rate is known.
    pub ms: Option<f64>,
}

/// A frame.
#[derive(Serialize, Debug)]
pub struct JsonFrame {
    /// From 0.
    pub index: usize,
    /// How long it shows.
    pub duration: JsonDuration,
    /// Pictures, in draw order.
    pub graphics: Vec<JsonGraphic>,
    /// The collision boxes in force on the frame (its own, and inherited defaults).
    pub boxes: Vec<JsonBox>,
    /// Attachment points.
    pub points: Vec<JsonPoint>,
}

/// A picture drawn in a frame.
#[derive(Serialize, Debug)]
pub struct JsonGraphic {
    /// Where its pixels come from: `{"image": PATH}` with `"rect": [x, y, w, h]` for a
    /// slice of a sheet, or `{"sff": [group, image]}`.
    pub source: serde_json::Value,
    /// Where its origin lands, in pixels.
    pub x: f64,
    /// Where its origin lands, in pixels (down is positive).
    pub y: f64,
    /// Mirrored left-right.
    pub flip_h: bool,
    /// Mirrored top-bottom.
    pub flip_v: bool,
    /// Degrees clockwise.
    pub rotation: f64,
    /// Horizontal scale.
    pub scale_x: f64,
    /// Vertical scale.
    pub scale_y: f64,
}

/// A collision box.
#[derive(Serialize, Debug)]
pub struct JsonBox {
    /// "hit", "hurt" or the format's own class name.
    pub class: String,
    /// "rect" or "circle".
    pub shape: &'static str,
    /// Rect: left edge; circle: centre.
    pub x: f64,
    /// Rect: top edge; circle: centre.
    pub y: f64,
    /// Rect only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<f64>,
    /// Rect only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<f64>,
    /// Rect only: degrees clockwise about the top-left corner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation: Option<f64>,
    /// Circle only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub radius: Option<f64>,
    /// True for a box the frame does not declare but inherits (a M.U.G.E.N `ClsnNDefault`
    /// of an earlier frame).
    pub inherited: bool,
}

/// An attachment point.
#[derive(Serialize, Debug)]
pub struct JsonPoint {
    /// Its name.
    pub name: String,
    /// Position in pixels.
    pub x: f64,
    /// Position in pixels (down is positive).
    pub y: f64,
    /// Degrees clockwise.
    pub angle: f64,
}

/// The JSON form of a document.
pub fn document(set: &AnimationSet) -> JsonDocument {
    let default = set.first_sequence().map(|s| s.id);
    let mut sequences = Vec::new();
    collect(set, &set.root, &mut Vec::new(), default, &mut sequences);
    JsonDocument {
        title: Some(set.metadata.title.clone()).filter(|t| !t.is_empty()),
        frame_rate: set.frame_rate,
        default_sequence: set.first_sequence().map(|s| s.name.clone()),
        images: set
            .images
            .iter()
            .map(|image| JsonImage {
                path: image.path.clone(),
                kind: match image.kind {
                    ImageKind::File => "file",
                    ImageKind::Sff { .. } => "sff",
                    ImageKind::SolarusTileset { .. } => "solarus-tileset",
                    ImageKind::Memory(_) => "memory",
                },
                resolved: image.resolved.as_ref().map(|p| p.display().to_string()),
            })
            .collect(),
        sequences,
    }
}

fn collect(
    set: &AnimationSet,
    group: &Group,
    path: &mut Vec<String>,
    default: Option<crate::model::SequenceId>,
    out: &mut Vec<JsonSequence>,
) {
    for item in &group.items {
        match item {
            TreeItem::Group(g) => {
                path.push(g.name.clone());
                collect(set, g, path, default, out);
                path.pop();
            }
            TreeItem::Sequence(s) => out.push(sequence(set, s, path, default == Some(s.id))),
        }
    }
}

fn sequence(set: &AnimationSet, s: &Sequence, groups: &[String], default: bool) -> JsonSequence {
    let rate = s.frame_rate.or(set.frame_rate).unwrap_or(0);
    JsonSequence {
        name: s.name.clone(),
        title: s.title.clone(),
        groups: groups.to_vec(),
        default,
        loop_point: s.loop_point,
        follow_up: s.follow_up.clone().filter(|f| !f.is_empty()),
        on_end: match s.on_end {
            EndBehavior::HoldLastFrame => "hold",
            EndBehavior::Disappear => "disappear",
        },
        frame_rate: s.frame_rate,
        directions: (0..s.directions.len())
            .map(|index| {
                let frames = set.direction_frames(s, index);
                JsonDirection {
                    index,
                    label: s.direction_label(index),
                    total: total(frames.iter().map(|f| f.duration), rate),
                    frames: frames
                        .iter()
                        .enumerate()
                        .map(|(i, f)| frame(set, &frames, i, f, rate))
                        .collect(),
                }
            })
            .collect(),
    }
}

fn total(durations: impl Iterator<Item = FrameDuration>, rate: u32) -> JsonTotal {
    let mut native = std::collections::BTreeMap::new();
    let mut ms = 0.0;
    let mut forever = false;
    for d in durations {
        let shown = duration(d, rate);
        match shown.value {
            Some(value) => *native.entry(shown.unit).or_insert(0u128) += value as u128,
            None => forever = true,
        }
        ms += shown.ms.unwrap_or(0.0);
    }
    JsonTotal {
        native,
        ms,
        forever,
    }
}

fn duration(d: FrameDuration, rate: u32) -> JsonDuration {
    let (unit, value) = match d {
        FrameDuration::Millis(v) => ("ms", Some(v as u64)),
        FrameDuration::Ticks(v) => ("ticks", Some(v as u64)),
        // A stored 0 plays as 1 (see FrameDuration::Holds): say what plays.
        FrameDuration::Holds(v) => ("holds", Some(v.max(1) as u64)),
        FrameDuration::Seconds { nanos } => ("ns", Some(nanos)),
        FrameDuration::Forever => ("forever", None),
    };
    JsonDuration {
        unit,
        value,
        ms: d.exact(rate).map(|t| t.as_millis_f64()),
    }
}

/// A frame of a direction (`frames`, in play order): its own pictures and points, and the boxes
/// in force on it, inherited M.U.G.E.N defaults included.
fn frame(
    set: &AnimationSet,
    frames: &[&crate::model::Frame],
    index: usize,
    f: &crate::model::Frame,
    rate: u32,
) -> JsonFrame {
    let mut out = JsonFrame {
        index,
        duration: duration(f.duration, rate),
        graphics: Vec::new(),
        boxes: Vec::new(),
        points: Vec::new(),
    };
    for element in &f.elements {
        match &element.kind {
            ElementKind::Graphic(g) => out.graphics.push(JsonGraphic {
                source: source(set, &g.source),
                x: g.position.x.to_f64(),
                y: g.position.y.to_f64(),
                flip_h: g.flip_h,
                flip_v: g.flip_v,
                rotation: g.rotation,
                scale_x: g.scale_x,
                scale_y: g.scale_y,
            }),
            ElementKind::Box(_) => {}
            ElementKind::Point(p) => out.points.push(JsonPoint {
                name: element.name.to_string(),
                x: p.position.x.to_f64(),
                y: p.position.y.to_f64(),
                angle: p.rotation,
            }),
        }
    }
    out.boxes = effective_boxes(frames, index, DefaultBoxRule::default())
        .into_iter()
        .map(|b| json_box(b.collision, matches!(b.origin, BoxOrigin::DefaultFrom(_))))
        .collect();
    out
}

fn json_box(b: &CollisionBox, inherited: bool) -> JsonBox {
    let class = match &b.class {
        BoxClass::Hit => "hit".to_string(),
        BoxClass::Hurt => "hurt".to_string(),
        BoxClass::Custom(name) => name.clone(),
    };
    match b.shape {
        Shape::Rect {
            x,
            y,
            width,
            height,
            rotation,
        } => JsonBox {
            class,
            shape: "rect",
            x: x.to_f64(),
            y: y.to_f64(),
            width: Some(width.to_f64()),
            height: Some(height.to_f64()),
            rotation: Some(rotation),
            radius: None,
            inherited,
        },
        Shape::Circle { center, radius } => JsonBox {
            class,
            shape: "circle",
            x: center.x.to_f64(),
            y: center.y.to_f64(),
            width: None,
            height: None,
            rotation: None,
            radius: Some(radius.to_f64()),
            inherited,
        },
    }
}

fn source(set: &AnimationSet, source: &GraphicSource) -> serde_json::Value {
    match source {
        GraphicSource::Slice(id) => match set.slice(*id) {
            Some(slice) => serde_json::json!({
                "image": set.image(slice.image).map(|i| i.path.clone()),
                "rect": [slice.rect.x, slice.rect.y, slice.rect.width, slice.rect.height],
            }),
            None => serde_json::Value::Null,
        },
        GraphicSource::Image(id) => serde_json::json!({
            "image": set.image(*id).map(|i| i.path.clone()),
        }),
        GraphicSource::SffSprite { group, image, .. } => serde_json::json!({
            "sff": [group, image],
        }),
    }
}
