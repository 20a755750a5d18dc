//! Reading an atlas: every JSON frame becomes a frame showing one slice of its sheet, tags
//! become sequences, slices become collision boxes (`hit…`, `hurt…`, other names as custom
//! classes) and attachment points (slices with a pivot). Related packs (`related_multi_packs`)
//! are read into the same document.
//!
//! The sprite's origin is the pivot of a slice named `origin` covering the canvas (Sprat
//! writes one); without it the canvas's top-left corner is the origin, as in Aseprite.

use super::schema::{self, Rect, SheetJson, SliceJson, Tag};
use super::{DIRECTION_DATA, FORMAT_ID, ORIGIN_SLICE};
use crate::formats::{Diagnostic, Loaded, ReadContext, ReadFailure, Severity, input};
use crate::model::*;
use std::path::Path;

/// The most frames a tag's repeats may expand to, so a huge `repeat` cannot exhaust memory.
const MAX_EXPANDED_FRAMES: usize = 100_000;

/// Reads the atlas in `bytes` (and the packs it names).
pub fn read(bytes: &[u8], context: &ReadContext) -> Result<Loaded, ReadFailure> {
    let mut reader = Reader {
        doc: AnimationSet::new(),
        diagnostics: Vec::new(),
        directions: Vec::new(),
    };
    let sheet = parse(bytes, None)?;
    let stem = context
        .path
        .as_deref()
        .and_then(Path::file_stem)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "frames".to_string());
    let related_packs = sheet.meta.related_multi_packs.clone();
    for page in sheet.pages() {
        reader.add_sheet(bytes, &page, context.dir(), None, &stem)?;
    }
    if let Some(dir) = context.dir() {
        for related in &related_packs {
            let path = dir.join(related);
            let file = Some(related.as_str());
            let more = crate::formats::read_file(&path).map_err(|e| {
                let at = locate(bytes, "related_multi_packs", 0, 0);
                ReadFailure::single(error_at(
                    bytes,
                    at,
                    format!("cannot read the related pack {related}: {e}"),
                ))
            })?;
            let pack = parse(&more, file)?;
            let stem = Path::new(related)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            for page in pack.pages() {
                reader.add_sheet(&more, &page, path.parent(), file, &stem)?;
            }
        }
    }
    reader.group_directions();
    let mut document = reader.doc;
    document.original = Some(context.original(FORMAT_ID, bytes));
    Ok(Loaded {
        document,
        diagnostics: reader.diagnostics,
    })
}

fn parse(bytes: &[u8], file: Option<&str>) -> Result<SheetJson, ReadFailure> {
    schema::parse(bytes).map_err(|(line, column, message)| {
        let d = if line == 0 {
            Diagnostic::new(Severity::Error, crate::formats::Location::File, message)
        } else {
            Diagnostic::error_at(line, column, message)
        };
        ReadFailure::single(in_file(d, file))
    })
}

fn in_file(d: Diagnostic, file: Option<&str>) -> Diagnostic {
    match file {
        Some(f) => d.in_file(f),
        None => d,
    }
}

/// The offsets of `"key"` used as an object key, from `from` on.
fn key_offsets<'a>(bytes: &'a [u8], key: &str, from: usize) -> impl Iterator<Item = usize> + 'a {
    let needle = format!("\"{key}\"").into_bytes();
    let mut at = from.min(bytes.len());
    std::iter::from_fn(move || {
        while let Some(found) = bytes[at..]
            .windows(needle.len())
            .position(|w| w == needle.as_slice())
        {
            let start = at + found;
            at = start + needle.len();
            let is_key = bytes[at..]
                .iter()
                .find(|b| !b.is_ascii_whitespace())
                .is_some_and(|b| *b == b':');
            if is_key {
                return Some(start);
            }
        }
        None
    })
}

/// The offset of the `n`th (from 0) `"key"` used as an object key at or after `from`, or
/// `fallback` when there is none.
fn locate(bytes: &[u8], key: &str, n: usize, from: usize) -> usize {
    key_offsets(bytes, key, from).nth(n).unwrap_or(from)
}

fn error_at(bytes: &[u8], offset: usize, message: String) -> Diagnostic {
    let (line, column) = crate::formats::line_column(bytes, offset);
    Diagnostic::error_at(line, column, message)
}

fn warning_at(bytes: &[u8], offset: usize, message: String) -> Diagnostic {
    let (line, column) = crate::formats::line_column(bytes, offset);
    Diagnostic::warning_at(line, column, message)
}

/// A sequence direction read from a tag, before tags that are directions of one sequence
/// are grouped.
struct TagSequence {
    sequence: SequenceId,
    /// `(base name, direction label)` when the tag says it is a direction.
    direction_of: Option<(String, String)>,
}

struct Reader {
    doc: AnimationSet,
    diagnostics: Vec<Diagnostic>,
    directions: Vec<TagSequence>,
}

impl Reader {
    /// Adds one atlas file: its sheet image, frames, tags and slices.
    fn add_sheet(
        &mut self,
        bytes: &[u8],
        sheet: &SheetJson,
        dir: Option<&Path>,
        file: Option<&str>,
        stem: &str,
    ) -> Result<(), ReadFailure> {
        let fail = |offset: usize, message: String| {
            ReadFailure::single(in_file(error_at(bytes, offset, message), file))
        };
        let meta_at = locate(bytes, "meta", 0, 0);
        let Some(image_path) = sheet.meta.image.clone() else {
            return Err(fail(
                meta_at,
                "meta has no \"image\": the atlas names no sheet".into(),
            ));
        };
        let image_at = locate(bytes, "image", 0, meta_at);
        let resolved = dir.map(|d| sheet_path(d, &image_path));
        let sheet_size =
            match &resolved {
                Some(path) => Some(sheet_dimensions(path).map_err(|e| {
                    fail(image_at, format!("meta.image names \"{image_path}\": {e}"))
                })?),
                None => sheet.meta.size.map(|s| (s.w, s.h)),
            };
        let image = ImageId(self.doc.alloc_id());
        self.doc.images.push(SourceImage {
            id: image,
            path: image_path.clone(),
            resolved,
            kind: ImageKind::File,
            nearest_neighbour: true,
        });
        let origin = canvas_origin(&sheet.meta.slices);
        let mut frame_ids = Vec::with_capacity(sheet.frames.list.len());
        for (index, entry) in sheet.frames.list.iter().enumerate() {
            let r = entry.frame;
            let (fw, fh) = if entry.rotated {
                (r.h, r.w)
            } else {
                (r.w, r.h)
            };
            if let Some((sw, sh)) = sheet_size {
                let inside = r.x >= 0
                    && r.y >= 0
                    && r.x as u64 + fw as u64 <= sw as u64
                    && r.y as u64 + fh as u64 <= sh as u64;
                if !inside {
                    let at = frame_offset(bytes, index);
                    return Err(fail(
                        at,
                        format!(
                            "frame {index} (\"{}\") is the region {}x{} at ({}, {}), outside the {sw}x{sh} sheet {image_path}",
                            entry.filename, fw, fh, r.x, r.y
                        ),
                    ));
                }
            }
            let slice = SliceId(self.doc.alloc_id());
            self.doc.slices.push(Slice {
                id: slice,
                image,
                rect: PixelRect {
                    x: r.x,
                    y: r.y,
                    width: r.w,
                    height: r.h,
                },
                rotated: entry.rotated,
            });
            let placed = entry.sprite_source_size.unwrap_or(Rect {
                x: 0,
                y: 0,
                w: r.w,
                h: r.h,
            });
            let mut frame = Frame::new(FrameDuration::Millis(entry.duration));
            let position = Point::from_ints(
                placed.x.saturating_sub(origin.0),
                placed.y.saturating_sub(origin.1),
            );
            frame.elements.push(Element {
                id: ElementId(self.doc.alloc_id()),
                name: Name::default(),
                kind: ElementKind::Graphic(Graphic::new(
                    GraphicSource::Slice(slice),
                    position,
                    Origin::At(Point::from_ints(0, 0)),
                )),
            });
            self.add_slice_elements(&mut frame, &sheet.meta.slices, index, origin);
            let id = FrameId(self.doc.alloc_id());
            self.doc.frames.insert(id, frame);
            frame_ids.push(id);
        }
        let tags_at = locate(bytes, "frameTags", 0, meta_at);
        let mut covered = vec![false; frame_ids.len()];
        // Tag positions are looked up once, and only when a tag is refused.
        let mut tag_offsets: Option<Vec<usize>> = None;
        for (n, tag) in sheet.meta.frame_tags.iter().enumerate() {
            match tag_frames(tag, &frame_ids) {
                Ok((frames, loop_point)) => {
                    covered[tag.from..=tag.to]
                        .iter_mut()
                        .for_each(|c| *c = true);
                    let direction_of = direction_of(tag);
                    self.add_sequence(tag.name.clone(), frames, loop_point, direction_of);
                }
                Err(message) => {
                    let offsets = tag_offsets.get_or_insert_with(|| {
                        key_offsets(bytes, "name", tags_at)
                            .take(sheet.meta.frame_tags.len())
                            .collect()
                    });
                    let at = offsets.get(n).copied().unwrap_or(tags_at);
                    self.diagnostics
                        .push(in_file(warning_at(bytes, at, message), file));
                }
            }
        }
        self.add_untagged(sheet, &frame_ids, &covered, stem);
        Ok(())
    }

    /// Frames no tag covers, grouped by the name Aseprite gave them (`{title} {frame}`, so one
    /// sequence per source file, or per layer in a sheet of split layers), each group a looping
    /// sequence in sheet order. Frames named otherwise share one sequence named after the atlas,
    /// as does a sheet without tags whose frames all come from one source.
    fn add_untagged(
        &mut self,
        sheet: &SheetJson,
        frame_ids: &[FrameId],
        covered: &[bool],
        stem: &str,
    ) {
        let mut groups: Vec<(Option<&str>, Vec<FrameId>)> = Vec::new();
        let uncovered = sheet.frames.list.iter().zip(frame_ids).zip(covered);
        for ((entry, &id), _) in uncovered.filter(|(_, covered)| !**covered) {
            let title = frame_title(&entry.filename);
            match groups.iter_mut().find(|(name, _)| *name == title) {
                Some((_, frames)) => frames.push(id),
                None => groups.push((title, vec![id])),
            }
        }
        let whole_sheet = covered.iter().all(|c| !c);
        let mut taken: Vec<String> = self
            .doc
            .sequences()
            .iter()
            .map(|s| s.name.clone())
            .collect();
        let single = groups.len() == 1;
        for (title, frames) in groups {
            let base = match title {
                Some(title) if !(single && whole_sheet) => title.to_string(),
                _ => stem.to_string(),
            };
            let mut name = base.clone();
            let mut number = 2;
            while taken.contains(&name) {
                name = format!("{base} ({number})");
                number += 1;
            }
            taken.push(name.clone());
            self.add_sequence(name, frames, Some(0), None);
        }
    }

    fn add_sequence(
        &mut self,
        name: String,
        frames: Vec<FrameId>,
        loop_point: Option<usize>,
        direction_of: Option<(String, String)>,
    ) {
        let id = SequenceId(self.doc.alloc_id());
        let direction = DirectionId(self.doc.alloc_id());
        let mut sequence = Sequence::new(id, name, direction);
        sequence.directions[0].frames = frames;
        sequence.loop_point = loop_point;
        self.doc.root.items.push(TreeItem::Sequence(sequence));
        self.directions.push(TagSequence {
            sequence: id,
            direction_of,
        });
    }

    /// The boxes and points the slices put on frame `index`.
    fn add_slice_elements(
        &mut self,
        frame: &mut Frame,
        slices: &[SliceJson],
        index: usize,
        origin: (i32, i32),
    ) {
        for slice in slices {
            if is_origin_slice(slice) {
                continue;
            }
            let Some(key) = slice.keys.iter().rev().find(|k| k.frame <= index) else {
                continue;
            };
            let b = key.bounds;
            if b.w == 0 || b.h == 0 {
                continue;
            }
            let (x, y) = (b.x.saturating_sub(origin.0), b.y.saturating_sub(origin.1));
            let kind = match key.pivot {
                Some(p) => ElementKind::Point(AttachmentPoint::at(Point::from_ints(
                    x.saturating_add(p.x),
                    y.saturating_add(p.y),
                ))),
                None => ElementKind::Box(CollisionBox {
                    class: box_class(&slice.name),
                    shape: Shape::Rect {
                        x: Fx::from_int(x),
                        y: Fx::from_int(y),
                        width: Fx::from_int(i32::try_from(b.w).unwrap_or(i32::MAX)),
                        height: Fx::from_int(i32::try_from(b.h).unwrap_or(i32::MAX)),
                        rotation: 0.0,
                    },
                    box_id: 0,
                    corners: None,
                }),
            };
            let name = match kind {
                ElementKind::Point(_) => slice.name.clone(),
                _ => String::new(),
            };
            frame.elements.push(Element {
                id: ElementId(self.doc.alloc_id()),
                name: name.into(),
                kind,
            });
        }
    }

    /// Tags that Sprat wrote as directions of one sequence (`walk_right` with data
    /// `direction:right`, then `walk_up`, ...) become one sequence again.
    fn group_directions(&mut self) {
        let mut i = 0;
        while i < self.directions.len() {
            let Some((base, _)) = self.directions[i].direction_of.clone() else {
                i += 1;
                continue;
            };
            let mut end = i + 1;
            while end < self.directions.len()
                && self.directions[end]
                    .direction_of
                    .as_ref()
                    .is_some_and(|(b, _)| *b == base)
            {
                end += 1;
            }
            let members: Vec<(SequenceId, String)> = self.directions[i..end]
                .iter()
                .map(|t| (t.sequence, t.direction_of.clone().expect("checked").1))
                .collect();
            let mut directions = Vec::new();
            let mut loop_point = None;
            for (id, label) in &members {
                let sequence = self.doc.sequence(*id).expect("added").clone();
                loop_point = sequence.loop_point;
                let mut direction = sequence.directions[0].clone();
                direction.name = Some(label.clone());
                directions.push(direction);
            }
            let first = members[0].0;
            let kept: Vec<SequenceId> = members.iter().skip(1).map(|m| m.0).collect();
            self.doc
                .root
                .items
                .retain(|item| !matches!(item, TreeItem::Sequence(s) if kept.contains(&s.id)));
            if let Some(sequence) = self.doc.sequence_mut(first) {
                sequence.name = base;
                sequence.directions = directions;
                sequence.loop_point = loop_point;
                // Conventional labels (right, up, left, down) need no name.
                let count = sequence.directions.len();
                for d in 0..count {
                    let conventional = {
                        let mut probe = sequence.clone();
                        probe.directions[d].name = None;
                        probe.direction_label(d)
                    };
                    if sequence.directions[d].name.as_deref() == Some(conventional.as_str()) {
                        sequence.directions[d].name = None;
                    }
                }
            }
            i = end;
        }
    }
}

/// The part of a frame's file name that names where it came from, when the name follows
/// Aseprite's `{title} {frame}.{extension}` (`{title} ({layer}) {frame}...` for split layers):
/// the extension and the trailing frame number go. `None` for names of another pattern.
fn frame_title(filename: &str) -> Option<&str> {
    let name = match filename.rsplit_once('.') {
        Some((head, extension))
            if !head.is_empty() && !extension.is_empty() && !extension.contains(['/', ' ']) =>
        {
            head
        }
        _ => filename,
    };
    let (title, number) = name.rsplit_once(' ')?;
    let numbered = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit());
    (numbered && !title.is_empty()).then_some(title)
}

/// The frames a tag plays, expanded for its direction and repeat count, and its loop point.
fn tag_frames(tag: &Tag, frames: &[FrameId]) -> Result<(Vec<FrameId>, Option<usize>), String> {
    if tag.from > tag.to || tag.to >= frames.len() {
        return Err(format!(
            "tag \"{}\" covers frames {}..{}, but the atlas has {} frames; the tag is skipped",
            tag.name,
            tag.from,
            tag.to,
            frames.len()
        ));
    }
    let range = &frames[tag.from..=tag.to];
    let forward: Vec<FrameId> = range.to_vec();
    let backward: Vec<FrameId> = range.iter().rev().copied().collect();
    let (first, second, ping_pong) = match tag.direction.as_str() {
        "" | "forward" => (forward, Vec::new(), false),
        "reverse" => (backward, Vec::new(), false),
        "pingpong" => (forward, backward, true),
        "pingpong_reverse" => (backward, forward, true),
        other => {
            return Err(format!(
                "tag \"{}\" has direction \"{other}\", which is not forward, reverse, pingpong or pingpong_reverse; the tag is skipped",
                tag.name
            ));
        }
    };
    let repeat = tag.repeat.as_ref().map(|r| r.count().ok_or(()));
    let repeat = match repeat {
        None => 0,
        Some(Ok(n)) => n,
        Some(Err(())) => {
            return Err(format!(
                "tag \"{}\" has a repeat count that is not a whole number; the tag is skipped",
                tag.name
            ));
        }
    };
    if repeat == 0 {
        // Forever: a ping-pong pass turns at each end without showing the end frame twice.
        let mut out = first.clone();
        if ping_pong && second.len() > 2 {
            out.extend_from_slice(&second[1..second.len() - 1]);
        }
        return Ok((out, Some(0)));
    }
    if repeat as u128 * first.len() as u128 > MAX_EXPANDED_FRAMES as u128 {
        return Err(format!(
            "tag \"{}\" repeats {repeat} times, more than Sprat expands; the tag is skipped",
            tag.name
        ));
    }
    let mut out = first.clone();
    for pass in 1..repeat {
        let next = if ping_pong && pass % 2 == 1 {
            &second
        } else {
            &first
        };
        let skip = usize::from(ping_pong);
        out.extend_from_slice(&next[skip.min(next.len())..]);
    }
    Ok((out, None))
}

fn direction_of(tag: &Tag) -> Option<(String, String)> {
    let label = tag.data.strip_prefix(DIRECTION_DATA)?;
    let base = tag.name.strip_suffix(label)?.strip_suffix('_')?;
    Some((base.to_string(), label.to_string()))
}

fn is_origin_slice(slice: &SliceJson) -> bool {
    slice.name == ORIGIN_SLICE
        && slice
            .keys
            .first()
            .is_some_and(|k| k.pivot.is_some() && k.bounds.x == 0 && k.bounds.y == 0)
}

/// Where the sprite's origin is on the canvas.
fn canvas_origin(slices: &[SliceJson]) -> (i32, i32) {
    slices
        .iter()
        .find(|s| is_origin_slice(s))
        .and_then(|s| s.keys.first())
        .and_then(|k| {
            k.pivot.map(|p| {
                (
                    k.bounds.x.saturating_add(p.x),
                    k.bounds.y.saturating_add(p.y),
                )
            })
        })
        .unwrap_or((0, 0))
}

/// `hit…` and `hurt…` slices are hit and hurt boxes; any other name (less its number) is a
/// class of its own.
fn box_class(name: &str) -> BoxClass {
    let lower = name.to_ascii_lowercase();
    if lower.starts_with("hurt") {
        BoxClass::Hurt
    } else if lower.starts_with("hit") {
        BoxClass::Hit
    } else {
        let base = name
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .trim_end();
        BoxClass::Custom(if base.is_empty() { name } else { base }.to_string())
    }
}

/// The offset of frame `index`'s `"frame": {` key (slice keys' `"frame": N` do not count).
fn frame_offset(bytes: &[u8], index: usize) -> usize {
    key_offsets(bytes, "frame", 0)
        .filter(|&at| {
            bytes[at + "\"frame\"".len()..]
                .iter()
                .find(|b| !b.is_ascii_whitespace() && **b != b':')
                == Some(&b'{')
        })
        .nth(index)
        .unwrap_or(0)
}

/// Where the sheet is: `meta.image` relative to the JSON's folder, else (Aseprite writes the
/// path it was given, sometimes absolute and from another machine) its file name there.
fn sheet_path(dir: &Path, image: &str) -> std::path::PathBuf {
    let direct = dir.join(image);
    if input::is_file(&direct) {
        return direct;
    }
    let name = image.rsplit(['/', '\\']).next().unwrap_or(image);
    let beside = dir.join(name);
    if input::is_file(&beside) {
        beside
    } else {
        direct
    }
}

/// The sheet's size from its header, or why it cannot be had.
fn sheet_dimensions(path: &Path) -> Result<(u32, u32), String> {
    if !input::is_file(path) {
        return Err(format!("there is no such file ({})", path.display()));
    }
    input::image_dimensions(path).map_err(|e| format!("cannot read it as an image: {e}"))
}
