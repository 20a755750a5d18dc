//! Align frames: move each frame's content so an anchor (its feet, its centre of mass, a named
//! point) sits on the origin, so frames of different sizes line up when played. One undo step.
//!
//! The plan ([`plan_alignment`]) renders the frames to find their anchors; the command
//! ([`AlignFrames`]) only moves elements, so undo and redo need no pixels. A frame is moved by
//! translating everything on it: graphics (in M.U.G.E.N their AIR offset, elsewhere their
//! position), attachment points and collision boxes, so boxes stay on the body. Boxes a frame
//! inherits (M.U.G.E.N defaults) are given back to it moved, the way the box tools do.
//!
//! A frame without the anchor (no opaque pixels, no point of that name) is skipped and named
//! in [`AlignPlan::skipped`]; when no frame has it, the plan is refused. A format whose frames
//! share one origin per direction (ask
//! [`crate::formats::Capabilities::one_origin_per_direction`]; a Solarus direction has one)
//! cannot hold per-frame moves, and the plan is refused with a sentence saying so.
//!
//! The editor's window and `sprat align` both decide through [`align_for_format`]: the plan,
//! then a trial save of the aligned document in the file's format, refused before anything
//! changes when that save could not hold what the alignment moved (an Aseprite file keeps its
//! cels where they were, so its slices would leave the pictures behind).

use super::box_tools::{BoxRun, set_class_boxes, shown_boxes};
use super::command::Command;
use super::common_steps::sequence;
use super::error::{EditError, EditResult};
use super::scope::FrameScope;
use super::snapshot::Tx;
use crate::formats::{Format, Loss, Place, WriteContext};
use crate::model::{
    AnimationSet, BoxClass, CollisionBox, DefaultBoxRule, ElementKind, FrameId, Fx, Point,
    SequenceId,
};
use crate::pixels::PixelSource;
use crate::tools::anchor::{Anchor, NoAnchor, find_anchor};
use std::collections::{BTreeMap, HashSet};

/// What the format can hold, for the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlignLimits {
    /// Each frame may be placed on its own (false: one origin per direction).
    pub per_frame_origins: bool,
    /// Positions may be fractions of a pixel; else moves are rounded to whole pixels.
    pub subpixel: bool,
}

/// The moves of one direction's frames.
#[derive(Clone, Debug, PartialEq)]
pub struct AlignedDirection {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// `(position, move)`: what to add to everything on the frame at that position.
    pub moves: Vec<(usize, Point)>,
}

/// A frame left as it is, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedFrame {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// The position in the direction.
    pub position: usize,
    /// Why it has no anchor.
    pub reason: NoAnchor,
}

/// What an alignment would do: the moves to preview (a ghost) and apply, and the frames
/// skipped, for a warning.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AlignPlan {
    /// The moves, by direction.
    pub directions: Vec<AlignedDirection>,
    /// Frames without the anchor.
    pub skipped: Vec<SkippedFrame>,
}

impl AlignPlan {
    /// How many frames move.
    pub fn moved(&self) -> usize {
        self.directions
            .iter()
            .flat_map(|d| &d.moves)
            .filter(|(_, m)| *m != Point::ZERO)
            .count()
    }

    /// "frame 3 of "walk" (direction 0): it has no opaque pixels", one line per skipped frame.
    pub fn skipped_lines(&self, doc: &AnimationSet) -> Vec<String> {
        self.skipped
            .iter()
            .map(|s| {
                let name = doc.sequence(s.sequence).map_or("?", |q| q.name.as_str());
                format!(
                    "frame {} of \"{name}\" (direction {}): {}",
                    s.position, s.direction, s.reason
                )
            })
            .collect()
    }
}

/// Finds each frame's anchor in `scope` and the move that puts it on the origin. A frame
/// listed in several places moves once. Refused for an empty selection, a format with one
/// origin per direction, or when no frame has the anchor.
pub fn plan_alignment(
    doc: &AnimationSet,
    scope: &FrameScope,
    anchor: &Anchor,
    pixels: &dyn PixelSource,
    limits: AlignLimits,
) -> EditResult<AlignPlan> {
    let groups = scope.cells(doc)?;
    if !limits.per_frame_origins {
        return Err(EditError::new(
            "this format holds one origin for all the frames of a direction, so frames cannot be aligned one by one; nothing changed",
        ));
    }
    let mut plan = AlignPlan::default();
    let mut seen: HashSet<FrameId> = HashSet::new();
    for cells in groups.into_iter().flatten() {
        let s = sequence(doc, cells.sequence)?;
        let ids = &s.directions[cells.direction].frames;
        let mut moves = Vec::new();
        for position in cells.positions {
            let id = ids[position];
            if !seen.insert(id) {
                continue;
            }
            let frame = doc
                .frame(id)
                .ok_or_else(|| EditError::new(format!("frame {id} does not exist")))?;
            match find_anchor(doc, frame, anchor, pixels) {
                Ok((x, y)) => moves.push((position, move_onto_origin(x, y, limits.subpixel))),
                Err(reason) => plan.skipped.push(SkippedFrame {
                    sequence: cells.sequence,
                    direction: cells.direction,
                    position,
                    reason,
                }),
            }
        }
        if !moves.is_empty() {
            plan.directions.push(AlignedDirection {
                sequence: cells.sequence,
                direction: cells.direction,
                moves,
            });
        }
    }
    if plan.directions.is_empty() {
        let lines = plan.skipped_lines(doc);
        let shown: Vec<&str> = lines.iter().take(5).map(String::as_str).collect();
        let more = lines.len().saturating_sub(shown.len());
        return Err(EditError::new(format!(
            "no frame has the {anchor} to align on ({}{}); nothing changed",
            shown.join("; "),
            if more > 0 {
                format!("; and {more} more")
            } else {
                String::new()
            }
        )));
    }
    Ok(plan)
}

/// What to do where the format holds one origin per direction (a Solarus direction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnePerDirection {
    /// Refuse, saying why (`sprat align`).
    Refuse,
    /// Move each whole direction by the mean of its frames' moves (the editor's window, which
    /// says so before Apply).
    MeanMove,
}

/// The alignment of a document saved in `format`, as both the editor and `sprat align` decide
/// it: [`plan_alignment`] with the format's limits, then the aligned document written in
/// `format` (nowhere: only the loss list is read). Refused, nothing changed, when that save
/// would lose something the unaligned document's save keeps: what the editor would show
/// after Apply could not be saved, so it is not applied. `rule` is the default-box rule the
/// editor shows.
pub fn align_for_format(
    doc: &AnimationSet,
    scope: &FrameScope,
    anchor: &Anchor,
    pixels: &dyn PixelSource,
    format: &dyn Format,
    one_per_direction: OnePerDirection,
    rule: DefaultBoxRule,
) -> EditResult<AlignFrames> {
    let capabilities = format.capabilities();
    let whole_directions =
        capabilities.one_origin_per_direction && one_per_direction == OnePerDirection::MeanMove;
    let limits = AlignLimits {
        per_frame_origins: !capabilities.one_origin_per_direction || whole_directions,
        subpixel: capabilities.subpixel,
    };
    let mut plan = plan_alignment(doc, scope, anchor, pixels, limits)?;
    if whole_directions {
        plan = one_move_per_direction(doc, plan, capabilities.subpixel);
    }
    let command = AlignFrames {
        plan,
        anchor: anchor.clone(),
        rule,
        default_boxes: capabilities.default_boxes,
    };
    let mut aligned = doc.clone();
    super::History::new().apply(&mut aligned, &super::Selection::none(), &command, None)?;
    let context = WriteContext {
        path: doc.original.as_ref().and_then(|o| o.path.clone()),
        pixels: Some(pixels),
    };
    let losses = |document: &AnimationSet| -> EditResult<Vec<Loss>> {
        let written = format.write(document, &context).map_err(|e| {
            EditError::new(format!(
                "{} cannot write the aligned frames ({e}); nothing changed",
                format.name()
            ))
        })?;
        Ok(written.losses)
    };
    let before = losses(doc)?;
    let new: Vec<Loss> = losses(&aligned)?
        .into_iter()
        .filter(|loss| !before.contains(loss))
        .collect();
    if let Some(first) = new.first() {
        let first = if first.place == Place::document() {
            first.what.clone()
        } else {
            first.to_string()
        };
        let more = match new.len() {
            1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        return Err(EditError::new(format!(
            "{} files cannot hold these frames aligned: saving would lose {first}{more}, so the boxes and points would part from the pictures; nothing changed",
            format.name()
        )));
    }
    Ok(command)
}

/// The plan a format with one origin per direction can hold: every frame of each planned
/// direction moves by one move, the mean of the frames' own moves (whole pixels unless the
/// format holds fractions). Frames without the anchor move with their direction.
fn one_move_per_direction(document: &AnimationSet, plan: AlignPlan, subpixel: bool) -> AlignPlan {
    let directions = plan
        .directions
        .into_iter()
        .map(|d| {
            let count = d.moves.len().max(1) as f64;
            let mean = |pick: fn(&Point) -> Fx| {
                d.moves.iter().map(|(_, m)| pick(m).to_f64()).sum::<f64>() / count
            };
            let (x, y) = (mean(|p| p.x), mean(|p| p.y));
            let by = if subpixel {
                Point {
                    x: Fx::from_f64(x),
                    y: Fx::from_f64(y),
                }
            } else {
                let whole = |v: f64| Fx::from_int((v + 0.5).floor() as i32);
                Point {
                    x: whole(x),
                    y: whole(y),
                }
            };
            let len = document
                .sequence(d.sequence)
                .and_then(|s| s.directions.get(d.direction))
                .map_or(0, |listed| listed.frames.len());
            AlignedDirection {
                sequence: d.sequence,
                direction: d.direction,
                moves: (0..len).map(|position| (position, by)).collect(),
            }
        })
        .collect();
    AlignPlan {
        directions,
        skipped: Vec::new(),
    }
}

/// The move that takes (`x`, `y`) to the origin: whole pixels (nearest, halves up) unless the
/// format holds fractions.
fn move_onto_origin(x: f64, y: f64, subpixel: bool) -> Point {
    let whole = |v: f64| Fx::from_int((-v + 0.5).floor() as i32);
    if subpixel {
        Point {
            x: Fx::from_f64(-x),
            y: Fx::from_f64(-y),
        }
    } else {
        Point {
            x: whole(x),
            y: whole(y),
        }
    }
}

/// Applies an [`AlignPlan`]: every element of each planned frame moves by its frame's move.
#[derive(Clone, Debug, PartialEq)]
pub struct AlignFrames {
    /// The moves.
    pub plan: AlignPlan,
    /// What was aligned, for the label.
    pub anchor: Anchor,
    /// The default-box rule the preview shows.
    pub rule: DefaultBoxRule,
    /// The format has default boxes (ask [`crate::formats::Capabilities::default_boxes`]).
    pub default_boxes: bool,
}

impl Command for AlignFrames {
    fn label(&self) -> String {
        format!("Align frames on the {}", self.anchor)
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        if self.plan.directions.iter().all(|d| d.moves.is_empty()) {
            return Err(EditError::new("no frame to align"));
        }
        for direction in &self.plan.directions {
            let run = BoxRun {
                sequence: direction.sequence,
                direction: direction.direction,
                rule: self.rule,
                default_boxes: self.default_boxes,
            };
            if self.default_boxes {
                move_shown_boxes(tx, run, &direction.moves)?;
            }
            let ids = super::common_steps::direction_frames(tx.doc(), run.sequence, run.direction)?
                .to_vec();
            for &(position, by) in &direction.moves {
                let id = *ids.get(position).ok_or_else(|| {
                    EditError::new(format!("there is no frame {position} any more"))
                })?;
                if by == Point::ZERO {
                    continue;
                }
                let boxes_too = !self.default_boxes;
                for element in &mut tx.frame_mut(id)?.elements {
                    match &mut element.kind {
                        ElementKind::Graphic(g) => g.position = g.position + by,
                        ElementKind::Point(p) => p.position = p.position + by,
                        ElementKind::Box(b) if boxes_too => b.shape = b.shape.translated(by),
                        ElementKind::Box(_) => {}
                    }
                }
            }
        }
        Ok(())
    }
}

/// Makes each moved frame show the boxes it showed (own or inherited), moved with it; frames
/// not moved keep showing what they showed.
fn move_shown_boxes(tx: &mut Tx, run: BoxRun, moves: &[(usize, Point)]) -> EditResult {
    let mut classes: Vec<BoxClass> = Vec::new();
    let mut shown: Vec<(usize, Point, Vec<CollisionBox>)> = Vec::new();
    let all = tx.doc().box_classes();
    for &(position, by) in moves {
        if by == Point::ZERO {
            continue;
        }
        let mut boxes = Vec::new();
        for class in &all {
            let of_class = shown_boxes(tx.doc(), run, position, class)?;
            if !of_class.is_empty() && !classes.contains(class) {
                classes.push(class.clone());
            }
            boxes.extend(of_class);
        }
        shown.push((position, by, boxes));
    }
    for class in &classes {
        let wanted: BTreeMap<usize, Vec<CollisionBox>> = shown
            .iter()
            .map(|(position, by, boxes)| {
                let moved_boxes = boxes
                    .iter()
                    .filter(|b| &b.class == class)
                    .map(|b| CollisionBox {
                        shape: b.shape.translated(*by),
                        ..b.clone()
                    })
                    .collect();
                (*position, moved_boxes)
            })
            .collect();
        set_class_boxes(tx, run, class, &wanted)?;
    }
    Ok(())
}
