//! Sprat's own project file (`.sprat`): the whole model in RON.
//!
//! The file is `(version: 1, set: (...))`. Keys come out in the model's field order, so saved
//! files diff well in git. Image paths are relative to the project file.
//!
//! `ron` defines the format, but it is slow on large projects, so both directions have a fast
//! path that never decides anything `ron` would decide differently: `lean_ron` reads the
//! RON that project files use and leaves every other text, and every error, to `ron`;
//! `pretty_ron` writes the exact text `ron`'s pretty printer writes, and leaves to it what it
//! does not cover.

use super::diagnostics::{Diagnostic, Location, Severity};
use super::paths::relative_to;
use super::{
    Baseline, Capabilities, Format, FormatInfo, Loaded, ReadContext, ReadFailure, Sniff, Stated,
    WriteContext, WriteError, Written,
};
use crate::model::{AnimationSet, SourceImage};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

pub mod images;
mod lean_ron;
mod pretty_ron;
mod unsupported;

/// The project file version this build writes and reads.
pub const VERSION: u32 = 1;

/// The `.sprat` format.
pub struct SpratFormat;

#[derive(Serialize)]
struct FileOut<'a> {
    version: u32,
    set: &'a AnimationSet,
}

#[derive(Deserialize)]
struct FileIn {
    version: u32,
    set: AnimationSet,
}

/// The number after `version:` at the start of the file, if it is written there.
fn declared_version(text: &str) -> Option<u32> {
    let head = text.get(..text.len().min(512)).unwrap_or(text);
    let after = &head[head.find("version")? + "version".len()..];
    let after = after.trim_start().strip_prefix(':')?.trim_start();
    let digits: String = after.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

impl Stated for SpratFormat {
    /// What the `.sprat` format is: it holds the whole model.
    const INFO: FormatInfo = FormatInfo {
        id: "sprat",
        name: "Sprat project",
        extensions: &["sprat"],
        capabilities: Capabilities {
            read: true,
            write: true,
            per_frame_durations: true,
            directions: true,
            boxes: true,
            circles: true,
            rotated_boxes: true,
            points: true,
            layered_graphics: true,
            transforms: true,
            blending: true,
            frame_text: true,
            groups: true,
            subpixel: true,
            follow_ups: true,
            sequence_frame_rate: true,
            disappear_at_end: true,
            interpolation: true,
            custom_box_classes: true,
            box_classes_known: true,
            sequence_titles: true,
            ..Capabilities::NONE
        },
        baseline: Baseline::Shared,
    };
}

impl Format for SpratFormat {
    fn sniff(&self, bytes: &[u8]) -> Sniff {
        let head = &bytes[..bytes.len().min(256)];
        let text = String::from_utf8_lossy(head);
        let compact: String = text.split_whitespace().collect();
        if compact.starts_with("(version:") && compact.contains("set:") {
            Sniff::Yes
        } else if compact.starts_with("(version:") {
            Sniff::Maybe
        } else {
            Sniff::No
        }
    }

    fn read(&self, bytes: &[u8], context: &ReadContext) -> Result<Loaded, ReadFailure> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let (line, column) = super::line_column(bytes, e.valid_up_to());
            ReadFailure::single(Diagnostic::error_at(
                line,
                column,
                "the file is not UTF-8 text",
            ))
        })?;
        // Check the version first so a newer file gets a clear message, not a field error. A
        // look at the opening text is enough; parsing the whole file twice is not.
        if let Some(version) = declared_version(text)
            && version != VERSION
        {
            return Err(ReadFailure::single(Diagnostic::new(
                Severity::Error,
                Location::Text { line: 1, column: 1 },
                format!(
                    "project file version {version} is not supported (this Sprat reads version {VERSION})"
                ),
            )));
        }
        // Files Sprat wrote take the fast path; anything else, and every error, is `ron`'s call.
        let file = match lean_ron::from_str::<FileIn>(text) {
            Some(file) => file,
            None => ron::from_str(text).map_err(|e| {
                ReadFailure::single(Diagnostic::error_at(
                    e.span.start.line as u32,
                    e.span.start.col as u32,
                    e.code.to_string(),
                ))
            })?,
        };
        if file.version != VERSION {
            // `declared_version` only looks at the opening text; a `version` further in still counts.
            return Err(ReadFailure::single(Diagnostic::new(
                Severity::Error,
                Location::Text { line: 1, column: 1 },
                format!(
                    "project file version {} is not supported (this Sprat reads version {VERSION})",
                    file.version
                ),
            )));
        }
        let mut document = file.set;
        let mut diagnostics = check_references(&document);
        let min_next = document.max_used_id() + 1;
        if document.next_id < min_next {
            document.next_id = min_next;
        }
        if let Some(dir) = context.dir() {
            for image in &mut document.images {
                image.resolved = Some(dir.join(&image.path));
            }
        }
        document.original = Some(context.original(self.id(), bytes));
        diagnostics.sort_by_key(|d| d.severity);
        Ok(Loaded {
            document,
            diagnostics,
        })
    }

    fn write_document(
        &self,
        document: &AnimationSet,
        context: &WriteContext,
    ) -> Result<Written, WriteError> {
        // In-memory pictures (an imported Aseprite file's frames) become PNG files beside it.
        let with_files;
        let (document, companions) = match images::materialise(document, context)? {
            Some(images::Materialised { images, companions }) => {
                with_files = AnimationSet {
                    images,
                    ..document.clone()
                };
                (&with_files, companions)
            }
            None => (document, Vec::new()),
        };
        // Image paths are written relative to the new file. Only a set whose paths change that
        // way is copied; cloning every frame just to rewrite a path cost more than encoding them.
        let relocated = relocated_images(document, context);
        let relocated_document;
        let document = match relocated {
            Some(images) => {
                relocated_document = AnimationSet {
                    images,
                    ..document.clone()
                };
                &relocated_document
            }
            None => document,
        };
        let file = FileOut {
            version: VERSION,
            set: document,
        };
        // Sized once up front: growing a multi-megabyte string by doubling copies it each time.
        let mut text = String::with_capacity(expected_size(document));
        if pretty_ron::write(&file, &mut text).is_none() {
            text.clear();
            ron::ser::to_writer_pretty(&mut text, &file, ron_layout())
                .map_err(|e| WriteError::new(format!("cannot encode the project: {e}")))?;
        }
        text.push('\n');
        Ok(Written {
            bytes: text.into_bytes(),
            companions,
            ..Written::default()
        })
    }
}

/// The layout of project files, as `ron` settings; [`pretty_ron`] writes the same text faster.
fn ron_layout() -> ron::ser::PrettyConfig {
    ron::ser::PrettyConfig::new()
        .indentor("  ".to_string())
        .struct_names(false)
        .separate_tuple_members(false)
        .enumerate_arrays(false)
        .depth_limit(pretty_ron::DEPTH_LIMIT)
}

/// The set's images with paths relative to the file being written, when any path changes.
fn relocated_images(document: &AnimationSet, context: &WriteContext) -> Option<Vec<SourceImage>> {
    let dir = context.dir()?;
    let relative = |image: &SourceImage| {
        image
            .resolved
            .as_ref()
            .and_then(|resolved| relative_to(dir, resolved))
    };
    let changes = document
        .images
        .iter()
        .any(|image| relative(image).is_some_and(|path| path != image.path));
    changes.then(|| {
        document
            .images
            .iter()
            .map(|image| SourceImage {
                path: relative(image).unwrap_or_else(|| image.path.clone()),
                ..image.clone()
            })
            .collect()
    })
}

/// A generous guess at the encoded size: the bytes it was read from, or about 600 bytes a frame.
fn expected_size(document: &AnimationSet) -> usize {
    let read_from = document.original.as_ref().map_or(0, |o| o.bytes.len());
    let estimate = 4096 + document.frames.len() * 600;
    (read_from + read_from / 8).max(estimate)
}

/// Warnings for references that point nowhere (hand-edited files).
fn check_references(document: &AnimationSet) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let images: HashSet<_> = document.images.iter().map(|i| i.id).collect();
    let slices: HashSet<_> = document.slices.iter().map(|s| s.id).collect();
    for slice in &document.slices {
        if !images.contains(&slice.image) {
            out.push(Diagnostic::new(
                Severity::Warning,
                Location::File,
                format!(
                    "slice {} uses image {}, which does not exist",
                    slice.id, slice.image
                ),
            ));
        }
    }
    for sequence in document.sequences() {
        for direction in &sequence.directions {
            for frame in &direction.frames {
                if !document.frames.contains_key(frame) {
                    out.push(Diagnostic::new(
                        Severity::Warning,
                        Location::File,
                        format!(
                            "sequence \"{}\" lists frame {}, which does not exist",
                            sequence.name, frame
                        ),
                    ));
                }
            }
        }
        if let Some(lp) = sequence.loop_point
            && lp >= sequence.max_frames().max(1)
        {
            out.push(Diagnostic::new(
                Severity::Warning,
                Location::File,
                format!(
                    "sequence \"{}\" loops on frame {lp}, past its last frame",
                    sequence.name
                ),
            ));
        }
    }
    for frame in document.frames.values() {
        for element in &frame.elements {
            if let crate::model::ElementKind::Graphic(g) = &element.kind {
                let ok = match &g.source {
                    crate::model::GraphicSource::Slice(id) => slices.contains(id),
                    crate::model::GraphicSource::Image(id) => images.contains(id),
                    crate::model::GraphicSource::SffSprite { archive, .. } => {
                        images.contains(archive)
                    }
                };
                if !ok {
                    out.push(Diagnostic::new(
                        Severity::Warning,
                        Location::File,
                        format!(
                            "element {} draws from a slice or image that does not exist",
                            element.id
                        ),
                    ));
                }
            }
        }
    }
    if let Some(default) = document.default_sequence
        && document.sequence(default).is_none()
    {
        out.push(Diagnostic::new(
            Severity::Warning,
            Location::File,
            format!("the default sequence {default} does not exist"),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::*;

    pub(super) fn sample() -> AnimationSet {
        let mut set = AnimationSet::new();
        let slice = fixtures::sheet_slice(&mut set, 16, 24);
        let frame = FrameId(set.alloc_id());
        let mut f = Frame::new(FrameDuration::Ticks(7));
        let mut g = Graphic::new(
            GraphicSource::Slice(slice),
            Point::from_ints(3, -2),
            Origin::At(Point {
                x: Fx(1),
                y: Fx(-129),
            }),
        );
        g.rotation = 12.5;
        f.elements.push(Element {
            id: ElementId(set.alloc_id()),
            name: "body".into(),
            kind: ElementKind::Graphic(g),
        });
        f.elements.push(Element {
            id: ElementId(set.alloc_id()),
            name: Name::default(),
            kind: ElementKind::Box(CollisionBox::rect_from_corners(
                BoxClass::Hit,
                Point::from_ints(-5, 0),
                Point::from_ints(5, -10),
            )),
        });
        f.box_declarations.push(BoxDeclaration {
            class: BoxClass::Hurt,
            scope: BoxScope::FromHereOn,
        });
        set.frames.insert(frame, f);
        let mut seq = Sequence::new(
            SequenceId(set.alloc_id()),
            "idle",
            DirectionId(set.alloc_id()),
        );
        seq.directions[0].frames = vec![frame, frame];
        seq.follow_up = Some("walk".into());
        set.root.items.push(TreeItem::Sequence(seq));
        set.metadata.title = "Test".into();
        set.metadata.extra.push(("k".into(), "v".into()));
        set
    }

    #[test]
    fn write_then_read_gives_an_equal_document() {
        let set = sample();
        let written = SpratFormat.write(&set, &WriteContext::default()).unwrap();
        let loaded = SpratFormat
            .read(&written.bytes, &ReadContext::default())
            .unwrap();
        let mut back = loaded.document;
        back.original = None;
        assert_eq!(back, set);
        assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    }

    #[test]
    fn unedited_hand_written_file_saves_byte_for_byte() {
        let set = sample();
        let written = SpratFormat.write(&set, &WriteContext::default()).unwrap();
        // Reformat by hand: extra spaces and a comment survive an unedited save.
        let text = String::from_utf8(written.bytes)
            .unwrap()
            .replace("version: 1,", "version: 1,   // mine");
        let loaded = SpratFormat
            .read(text.as_bytes(), &ReadContext::default())
            .unwrap();
        let again = SpratFormat
            .write(&loaded.document, &WriteContext::default())
            .unwrap();
        assert_eq!(again.bytes, text.as_bytes());
    }

    #[test]
    fn errors_name_line_and_column() {
        let text = "(version: 1,\n set: (\n   root: (id: 0, items: [),\n))";
        let failure = SpratFormat
            .read(text.as_bytes(), &ReadContext::default())
            .unwrap_err();
        let d = &failure.diagnostics[0];
        assert!(
            matches!(d.location, Location::Text { line: 3, .. }),
            "{d:?}"
        );
    }

    #[test]
    fn a_version_written_after_the_set_is_checked_too() {
        // Past the opening text that `declared_version` looks at.
        let padding = "// padding\n".repeat(60);
        let text = format!("(set: (root: (id: 0), next_id: 1),\n{padding} version: 2)");
        let failure = SpratFormat
            .read(text.as_bytes(), &ReadContext::default())
            .unwrap_err();
        assert!(failure.diagnostics[0].message.contains("version 2"));
    }

    #[test]
    fn newer_versions_are_refused_plainly() {
        let failure = SpratFormat
            .read(b"(version: 2, set: ())", &ReadContext::default())
            .unwrap_err();
        assert!(failure.diagnostics[0].message.contains("version 2"));
    }
}
