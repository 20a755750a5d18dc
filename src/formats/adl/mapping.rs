//! From a read ADL file to the document model.
//!
//! - Each animation becomes a looping sequence named after its key (`ANIM_RUN`), ordered by ROW
//!   (the game's animation index) and then by file order.
//! - Each frame lasts DELAY seconds and holds one graphic per drawn part, in the game's draw
//!   order (the skeleton reversed: the last joint is painted first), then one attachment point
//!   per joint, in skeleton order, named after the joint.
//! - Sprite space has its origin at `(ORIGINX, bottom row)` of the cell, y down: a joint at
//!   `(jx, jy)` (y up) moved by transforms `(dx, dy)` lands at `(jx + dx, -(jy + dy))`, and the
//!   part's anchor pixel is placed there (adl-rules.md rule 11).

use super::assets_root::{RootEvidence, find_assets_root};
use super::lexer::Lexed;
use super::semantics::{AdlFile, AnimFrame, Dialect, Skeleton, Target};
use crate::formats::ReadContext;
use crate::formats::diagnostics::{Diagnostic, Location, Severity, Subject};
use crate::model::{
    AnimationSet, AttachmentPoint, DirectionId, Element, ElementId, ElementKind, Frame,
    FrameDuration, FrameId, Graphic, GraphicSource, ImageId, ImageKind, Name, Origin, Point,
    Sequence, SequenceId, SourceImage, TreeItem,
};
use indexmap::IndexMap;
use std::borrow::Cow;
use std::path::PathBuf;

/// Each element of the document takes at least this many bytes of input (plus a fixed
/// allowance), so a small file cannot ask for millions of frames times joints. An element
/// holds 112 bytes in the document (its name is shared with the joint's other elements), so
/// this bounds the document by about 56 times the file's length. The game's files are far below it: a frame
/// line of 80 bytes makes 22 elements (11 joints, a picture and a point each), one for every
/// four bytes, and a whole file (its header, body parts and skeletons) one for every nine to
/// sixteen.
const INPUT_BYTES_PER_ELEMENT: usize = 2;

/// The image of a body part and the anchor it is placed by.
#[derive(Clone, Copy, Debug)]
struct PartImage {
    image: ImageId,
    anchor: (i32, i32),
}

/// Where every joint of one frame lands, in skeleton order, y up from the origin.
pub fn landings(
    skeleton: &Skeleton,
    transforms: &[super::semantics::Transform],
) -> Vec<(i32, i32)> {
    let mut out: Vec<(i32, i32)> = skeleton.joints.iter().map(|j| j.position).collect();
    for transform in transforms {
        let (dx, dy) = transform.offset;
        match transform.target {
            Target::All => {
                for p in &mut out {
                    *p = (p.0.saturating_add(dx), p.1.saturating_add(dy));
                }
            }
            Target::Joint(index) => {
                if let Some(p) = out.get_mut(index) {
                    *p = (p.0.saturating_add(dx), p.1.saturating_add(dy));
                }
            }
        }
    }
    out
}

/// A y-up landing as a sprite-space point (y down).
pub fn sprite_point(landing: (i32, i32)) -> Point {
    Point::from_ints(landing.0, landing.1.saturating_neg())
}

/// The animations in sequence order: by ROW (missing last), then file order.
pub fn animation_order(file: &AdlFile) -> Vec<usize> {
    let mut order: Vec<usize> = (0..file.animations.len()).collect();
    order.sort_by_key(|&i| file.animations[i].row.unwrap_or(i32::MAX));
    order
}

/// Builds the document and adds the diagnostics about images and the file's form.
pub fn build(
    file: &AdlFile,
    input_len: usize,
    context: &ReadContext,
) -> (AnimationSet, Vec<Diagnostic>) {
    build_from(file, None, file.diagnostics.clone(), input_len, context)
}

/// [`build`], using the file up on the way (a read, which keeps nothing of it): its
/// properties go first (the writer reads the original bytes again), and each animation's
/// frames as soon as they are in the document, so the parsed file and the document it becomes
/// are not both held whole at once.
pub fn build_consuming(
    mut file: AdlFile,
    input_len: usize,
    context: &ReadContext,
) -> (AnimationSet, Vec<Diagnostic>) {
    file.lexed = Lexed::default();
    file.table = IndexMap::new();
    let mut frames: Vec<Vec<AnimFrame>> = file
        .animations
        .iter_mut()
        .map(|animation| std::mem::take(&mut animation.frames))
        .collect();
    let diagnostics = std::mem::take(&mut file.diagnostics);
    build_from(&file, Some(&mut frames), diagnostics, input_len, context)
}

/// Builds the document from `file`, whose animations' frames are in `taken` (by animation,
/// each taken out once mapped) when given, else in the file.
fn build_from(
    file: &AdlFile,
    mut taken: Option<&mut [Vec<AnimFrame>]>,
    mut diagnostics: Vec<Diagnostic>,
    input_len: usize,
    context: &ReadContext,
) -> (AnimationSet, Vec<Diagnostic>) {
    let severity = match file.dialect {
        Dialect::Current => Severity::Info,
        Dialect::Legacy => Severity::Warning,
    };
    diagnostics.push(Diagnostic::new(
        severity,
        Location::File,
        file.dialect.describe(),
    ));
    let mut set = AnimationSet::new();
    let root = assets_root(file, context, &mut diagnostics);
    let parts = images(file, root.as_ref(), &mut set, &mut diagnostics);
    let order = animation_order(file);
    // Each joint's name, made once: the elements of every frame drawing the joint share it.
    let joint_names: Vec<Vec<Name>> = file
        .skeletons
        .iter()
        .map(|s| {
            s.joints
                .iter()
                .map(|j| Name::from(j.name.as_str()))
                .collect()
        })
        .collect();
    let mut rows: IndexMap<i32, &str> = IndexMap::new();
    let mut budget = (input_len / INPUT_BYTES_PER_ELEMENT).saturating_add(4096);
    for index in order {
        let animation = &file.animations[index];
        if let Some(row) = animation.row
            && let Some(other) = rows.insert(row, &animation.key)
        {
            diagnostics.push(Diagnostic::new(
                Severity::Warning,
                Location::File,
                format!(
                    "{} and {other} share ROW {row}: one overwrites the other in the game's sheet",
                    animation.key
                ),
            ));
        }
        let sequence_id = SequenceId(set.alloc_id());
        let mut sequence = Sequence::new(
            sequence_id,
            animation.key.clone(),
            DirectionId(set.alloc_id()),
        );
        sequence.loop_point = Some(0);
        let skeleton = animation.skeleton.map(|s| &file.skeletons[s]);
        let names = animation.skeleton.map_or(&[][..], |s| &joint_names[s][..]);
        let frames: Cow<'_, [AnimFrame]> = match taken.as_deref_mut() {
            Some(taken) => Cow::Owned(std::mem::take(&mut taken[index])),
            None => Cow::Borrowed(&animation.frames),
        };
        for frame in frames.iter() {
            let joint_count = skeleton.map_or(0, |s| s.joints.len());
            let cost = joint_count.saturating_mul(2).max(1);
            if cost > budget {
                diagnostics.push(Diagnostic::new(
                    Severity::Error,
                    Location::File,
                    format!(
                        "{} has more frames and joints than a file this size can describe; the rest is not shown",
                        animation.key
                    ),
                ));
                break;
            }
            budget -= cost;
            let id = FrameId(set.alloc_id());
            let mut model_frame = Frame::new(FrameDuration::Seconds {
                nanos: animation.delay_nanos,
            });
            if let Some(skeleton) = skeleton {
                // Exactly as many as are pushed: a frame's elements, grown by doubling, left
                // a third of a large file's document unused.
                let drawn = skeleton
                    .joints
                    .iter()
                    .filter(|joint| parts.contains_key(&joint.name))
                    .count();
                model_frame
                    .elements
                    .reserve_exact(drawn + skeleton.joints.len());
                let landed = landings(skeleton, &frame.transforms);
                for ((joint, name), landing) in skeleton.joints.iter().zip(names).zip(&landed).rev()
                {
                    let Some(part) = parts.get(&joint.name) else {
                        continue;
                    };
                    let graphic = Graphic::new(
                        GraphicSource::Image(part.image),
                        sprite_point(*landing),
                        Origin::At(Point::from_ints(part.anchor.0, part.anchor.1)),
                    );
                    model_frame.elements.push(Element {
                        id: ElementId(set.alloc_id()),
                        name: name.clone(),
                        kind: ElementKind::Graphic(graphic),
                    });
                }
                for (name, landing) in names.iter().zip(&landed) {
                    model_frame.elements.push(Element {
                        id: ElementId(set.alloc_id()),
                        name: name.clone(),
                        kind: ElementKind::Point(AttachmentPoint::at(sprite_point(*landing))),
                    });
                }
            }
            set.frames.insert(id, model_frame);
            sequence.directions[0].frames.push(id);
        }
        set.root.items.push(TreeItem::Sequence(sequence));
    }
    (set, diagnostics)
}

fn assets_root(
    file: &AdlFile,
    context: &ReadContext,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<PathBuf> {
    let Some(path) = context.path.as_deref() else {
        diagnostics.push(Diagnostic::new(
            Severity::Info,
            Location::File,
            "the file's location is unknown, so body-part images were not looked up",
        ));
        return None;
    };
    let (root, evidence) = find_assets_root(path, file.spritesheet.as_deref().unwrap_or(""));
    if evidence == RootEvidence::FileFolderFallback {
        diagnostics.push(Diagnostic::new(
            Severity::Warning,
            Location::File,
            format!(
                "the game's assets folder was not found above the file; body-part images are looked up from {}",
                root.display()
            ),
        ));
    }
    Some(root)
}

/// The part images: one per BODYPARTS entry (current form) or per joint (legacy form), keyed
/// by the joint name that draws them.
fn images(
    file: &AdlFile,
    root: Option<&PathBuf>,
    set: &mut AnimationSet,
    diagnostics: &mut Vec<Diagnostic>,
) -> IndexMap<String, PartImage> {
    let prefix = file.spritesheet.clone().unwrap_or_default();
    let extension = file.extension.clone().unwrap_or_default();
    if extension.to_ascii_lowercase().ends_with(".gz") {
        diagnostics.push(Diagnostic::new(
            Severity::Warning,
            Location::File,
            format!("EXTENSION {extension}: the game's image loader does not un-gzip, so it cannot load these images today"),
        ));
    }
    let names: Vec<(String, Option<(i32, i32)>)> = match file.dialect {
        Dialect::Current => file
            .body_parts
            .values()
            .map(|p| (p.name.clone(), Some(p.anchor)))
            .collect(),
        Dialect::Legacy => {
            let mut seen: IndexMap<String, ()> = IndexMap::new();
            for animation in &file.animations {
                if let Some(s) = animation.skeleton {
                    for joint in &file.skeletons[s].joints {
                        seen.insert(joint.name.clone(), ());
                    }
                }
            }
            seen.into_keys().map(|n| (n, None)).collect()
        }
    };
    let mut out = IndexMap::new();
    for (name, anchor) in names {
        let path = format!("{prefix}{}{extension}", name.to_lowercase());
        let resolved = root
            .map(|r| r.join(&path))
            .filter(|p| crate::formats::input::is_file(p));
        let id = ImageId(set.alloc_id());
        if let (Some(root), None) = (root, &resolved) {
            diagnostics.push(
                Diagnostic::new(
                    Severity::Warning,
                    Location::File,
                    format!(
                        "body part {name}: image {path} is missing (looked for {}); the part is not drawn",
                        root.join(&path).display()
                    ),
                )
                .about(Subject::Image(id)),
            );
        }
        let anchor = anchor.unwrap_or_else(|| legacy_anchor(resolved.as_ref()));
        set.images.push(SourceImage {
            id,
            path,
            resolved,
            kind: ImageKind::File,
            nearest_neighbour: true,
        });
        out.insert(name, PartImage { image: id, anchor });
    }
    out
}

/// The legacy form anchors an image at its centre (integer halves of its size); unknown when
/// the image is missing or gzipped, where (0, 0) is used since nothing is drawn.
fn legacy_anchor(resolved: Option<&PathBuf>) -> (i32, i32) {
    resolved
        .and_then(|p| crate::formats::input::image_dimensions(p).ok())
        .map_or((0, 0), |(w, h)| ((w / 2) as i32, (h / 2) as i32))
}
