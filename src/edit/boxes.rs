//! Collision box commands, including AIR frames that inherit default boxes.
//!
//! On an AIR frame that shows boxes declared as the default by an earlier frame, an edit must
//! say what it means: change this frame only (the frame gets its own copy of the inherited
//! boxes, declared for this frame, then edited) or set a new default from this frame on (the
//! copies are declared as a default). The caller asks the user and passes the answer as
//! [`InheritedBoxes`]; without an answer such an edit is refused with a message saying so.

use super::canvas::translate_shape;
use super::command::Command;
use super::common_steps::direction_frames;
use super::error::{EditError, EditResult};
use super::inspector::check_shape;
use super::selection::Selection;
use super::snapshot::Tx;
use crate::boxes::matching::{overlap, pair_boxes};
use crate::model::{
    AnimationSet, BoxClass, BoxDeclaration, BoxOrigin, BoxScope, CollisionBox, DefaultBoxRule,
    Element, ElementId, ElementKind, Frame, FrameId, Name, Point, SequenceId, Shape,
    effective_boxes,
};
use std::collections::HashMap;

/// A frame at a position of a sequence's direction (box inheritance depends on the frames
/// before it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameAt {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// The frame's position in the direction.
    pub index: usize,
}

/// What an edit of inherited default boxes means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InheritedBoxes {
    /// Only this frame changes: it gets a `ClsnN:` declaration with copies of the inherited boxes.
    ThisFrameOnly,
    /// The edited boxes become the default from this frame on: a `ClsnNDefault:` declaration.
    DefaultFromHereOn,
}

/// Where a box edit happens and how inherited boxes are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxTarget {
    /// The frame edited.
    pub at: FrameAt,
    /// The default-box rule the preview shows (decides which boxes the frame inherits).
    pub rule: DefaultBoxRule,
    /// The user's answer for inherited boxes; `None` refuses edits that touch them.
    pub inherited: Option<InheritedBoxes>,
}

impl BoxTarget {
    /// A target on a frame with the usual MUGEN rule and no answer for inherited boxes.
    pub fn new(at: FrameAt) -> BoxTarget {
        BoxTarget {
            at,
            rule: DefaultBoxRule::default(),
            inherited: None,
        }
    }

    /// The same target with an answer for inherited boxes.
    pub fn inherited(mut self, choice: InheritedBoxes) -> BoxTarget {
        self.inherited = Some(choice);
        self
    }
}

fn frame_id_at(doc: &AnimationSet, at: FrameAt) -> EditResult<FrameId> {
    let frames = direction_frames(doc, at.sequence, at.direction)?;
    frames.get(at.index).copied().ok_or_else(|| {
        EditError::new(format!(
            "there is no frame {} (the direction has {})",
            at.index,
            crate::text::count(frames.len(), "frame")
        ))
    })
}

fn frames_of(doc: &AnimationSet, at: FrameAt) -> EditResult<Vec<&Frame>> {
    direction_frames(doc, at.sequence, at.direction)?
        .iter()
        .map(|id| {
            doc.frame(*id)
                .ok_or_else(|| EditError::new(format!("frame {id} does not exist")))
        })
        .collect()
}

/// The boxes of `class` this frame shows but inherits, with the frame index they come from.
fn inherited_of_class(
    doc: &AnimationSet,
    target: BoxTarget,
    class: &BoxClass,
) -> EditResult<(Vec<Element>, Option<usize>)> {
    let frames = frames_of(doc, target.at)?;
    let mut source = None;
    let boxes = effective_boxes(&frames, target.at.index, target.rule)
        .into_iter()
        .filter(|b| &b.collision.class == class)
        .filter_map(|b| match b.origin {
            BoxOrigin::DefaultFrom(i) => {
                source = Some(i);
                Some(b.element.clone())
            }
            BoxOrigin::ThisFrame => None,
        })
        .collect();
    Ok((boxes, source))
}

/// Makes the frame declare `class` itself, copying inherited boxes in per the user's answer.
/// Returns the frame and a map from inherited box ids to their copies.
fn claim_class(
    tx: &mut Tx,
    target: BoxTarget,
    class: &BoxClass,
) -> EditResult<(FrameId, HashMap<ElementId, ElementId>)> {
    let frame_id = frame_id_at(tx.doc(), target.at)?;
    let mut map = HashMap::new();
    let declared = tx
        .doc()
        .frame(frame_id)
        .and_then(|f| f.declared_scope(class))
        .is_some();
    if declared {
        return Ok((frame_id, map));
    }
    let (inherited, source) = inherited_of_class(tx.doc(), target, class)?;
    let Some(source) = source else {
        return Ok((frame_id, map));
    };
    let Some(choice) = target.inherited else {
        return Err(EditError::new(format!(
            "this frame uses the default {} boxes of frame {source}; choose whether the change is for this frame only or the default from here on",
            class.label()
        )));
    };
    let mut copies = Vec::new();
    for element in inherited {
        let new_id = ElementId(tx.alloc_id());
        map.insert(element.id, new_id);
        copies.push(Element {
            id: new_id,
            ..element
        });
    }
    let frame = tx.frame_mut(frame_id)?;
    frame.elements.extend(copies);
    frame.box_declarations.push(BoxDeclaration {
        class: class.clone(),
        scope: match choice {
            InheritedBoxes::ThisFrameOnly => BoxScope::ThisFrame,
            InheritedBoxes::DefaultFromHereOn => BoxScope::FromHereOn,
        },
    });
    Ok((frame_id, map))
}

/// The class of a box the frame shows (its own or inherited), or a refusal.
fn shown_box_class(doc: &AnimationSet, target: BoxTarget, id: ElementId) -> EditResult<BoxClass> {
    let frames = frames_of(doc, target.at)?;
    effective_boxes(&frames, target.at.index, target.rule)
        .into_iter()
        .find(|b| b.element.id == id)
        .map(|b| b.collision.class.clone())
        .ok_or_else(|| EditError::new(format!("box {id} is not shown on this frame")))
}

/// Claims the classes of `ids` and returns the frame and the ids to edit on it.
fn own_boxes_for_edit(
    tx: &mut Tx,
    target: BoxTarget,
    ids: &[ElementId],
) -> EditResult<(FrameId, Vec<ElementId>)> {
    if ids.is_empty() {
        return Err(EditError::new("no box is selected"));
    }
    let mut classes = Vec::new();
    for id in ids {
        let class = shown_box_class(tx.doc(), target, *id)?;
        if !classes.contains(&class) {
            classes.push(class);
        }
    }
    let mut map = HashMap::new();
    let mut frame = frame_id_at(tx.doc(), target.at)?;
    for class in &classes {
        let (f, m) = claim_class(tx, target, class)?;
        frame = f;
        map.extend(m);
    }
    Ok((
        frame,
        ids.iter().map(|id| *map.get(id).unwrap_or(id)).collect(),
    ))
}

fn box_mut<'t>(tx: &'t mut Tx, frame: FrameId, id: ElementId) -> EditResult<&'t mut CollisionBox> {
    tx.frame_mut(frame)?
        .elements
        .iter_mut()
        .find(|e| e.id == id)
        .and_then(|e| match &mut e.kind {
            ElementKind::Box(b) => Some(b),
            _ => None,
        })
        .ok_or_else(|| EditError::new(format!("box {id} is not on this frame")))
}

fn select_on_frame(tx: &mut Tx, at: FrameAt, elements: Vec<ElementId>) {
    tx.select(Selection::frames(at.sequence, at.direction, vec![at.index]).with_elements(elements));
}

/// Draws a new rectangle or circle box of a class on a frame.
///
/// On a frame that has no box of the class yet and inherits none, the answer
/// [`InheritedBoxes::DefaultFromHereOn`] makes the new box a default (`ClsnNDefault`) for the
/// frames after it; otherwise the box belongs to this frame only.
#[derive(Clone, Debug)]
pub struct AddBox {
    /// Where.
    pub target: BoxTarget,
    /// Its class.
    pub class: BoxClass,
    /// Its geometry.
    pub shape: Shape,
}

impl Command for AddBox {
    fn label(&self) -> String {
        format!("Add {}", crate::text::box_of(self.class.name()))
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        check_shape(&self.shape)?;
        if let BoxClass::Custom(name) = &self.class
            && name.trim().is_empty()
        {
            return Err(EditError::new("a custom box class needs a name"));
        }
        let frame_id = frame_id_at(tx.doc(), self.target.at)?;
        let first_of_class = tx
            .doc()
            .frame(frame_id)
            .is_some_and(|f| f.declared_scope(&self.class).is_none());
        let (frame_id, _) = claim_class(tx, self.target, &self.class)?;
        // A frame's first box of a class, drawn with "default from here on" chosen and nothing
        // inherited, starts a default: the frames after it show it until they declare their own.
        let inherits = tx
            .doc()
            .frame(frame_id)
            .is_some_and(|f| f.declared_scope(&self.class).is_some());
        if first_of_class
            && !inherits
            && self.target.inherited == Some(InheritedBoxes::DefaultFromHereOn)
        {
            tx.frame_mut(frame_id)?
                .box_declarations
                .push(BoxDeclaration {
                    class: self.class.clone(),
                    scope: BoxScope::FromHereOn,
                });
        }
        let id = ElementId(tx.alloc_id());
        let frame = tx.frame_mut(frame_id)?;
        let box_id = frame
            .boxes()
            .map(|(_, b)| b.box_id)
            .max()
            .map_or(0, |m| m.saturating_add(1));
        frame.elements.push(Element {
            id,
            name: Name::default(),
            kind: ElementKind::Box(CollisionBox {
                class: self.class.clone(),
                shape: self.shape.clone(),
                box_id,
                corners: None,
            }),
        });
        select_on_frame(tx, self.target.at, vec![id]);
        Ok(())
    }
}

/// Gives a box a new geometry: move, resize by a handle, rotate (give a drag a gesture, and
/// pass the id the previous step selected, since an inherited box is copied on the first step).
#[derive(Clone, Debug)]
pub struct SetBoxShape {
    /// Where.
    pub target: BoxTarget,
    /// The box (own or inherited).
    pub element: ElementId,
    /// Its new geometry.
    pub shape: Shape,
}

impl Command for SetBoxShape {
    fn label(&self) -> String {
        "Change box".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        check_shape(&self.shape)?;
        let (frame, ids) = own_boxes_for_edit(tx, self.target, &[self.element])?;
        box_mut(tx, frame, ids[0])?.shape = self.shape.clone();
        select_on_frame(tx, self.target.at, ids);
        Ok(())
    }
}

/// Moves boxes of a frame by an offset (own or inherited ones).
#[derive(Clone, Debug)]
pub struct MoveBoxes {
    /// Where.
    pub target: BoxTarget,
    /// The boxes.
    pub elements: Vec<ElementId>,
    /// The offset.
    pub delta: Point,
}

impl Command for MoveBoxes {
    fn label(&self) -> String {
        "Move boxes".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let (frame, ids) = own_boxes_for_edit(tx, self.target, &self.elements)?;
        for id in &ids {
            translate_shape(&mut box_mut(tx, frame, *id)?.shape, self.delta);
        }
        select_on_frame(tx, self.target.at, ids);
        Ok(())
    }
}

/// Deletes boxes from a frame (own or inherited ones).
#[derive(Clone, Debug)]
pub struct DeleteBoxes {
    /// Where.
    pub target: BoxTarget,
    /// The boxes.
    pub elements: Vec<ElementId>,
}

impl Command for DeleteBoxes {
    fn label(&self) -> String {
        crate::text::acting_on("Delete", self.elements.len(), "box")
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let (frame_id, ids) = own_boxes_for_edit(tx, self.target, &self.elements)?;
        let frame = tx.frame_mut(frame_id)?;
        let mut classes = Vec::new();
        for id in &ids {
            if let Some(i) = frame.elements.iter().position(|e| e.id == *id) {
                if let ElementKind::Box(b) = &frame.elements[i].kind
                    && !classes.contains(&b.class)
                {
                    classes.push(b.class.clone());
                }
                frame.elements.remove(i);
            }
        }
        // A frame whose boxes of a class were implicit would fall back to an earlier default
        // once its last one is gone; declare the now empty set so it keeps showing none.
        for class in classes {
            let frame = tx.doc().frame(frame_id).expect("edited above");
            if frame.declared_scope(&class).is_none()
                && !inherited_of_class(tx.doc(), self.target, &class)?
                    .0
                    .is_empty()
            {
                tx.frame_mut(frame_id)?
                    .box_declarations
                    .push(BoxDeclaration {
                        class,
                        scope: BoxScope::ThisFrame,
                    });
            }
        }
        select_on_frame(tx, self.target.at, Vec::new());
        Ok(())
    }
}

/// Which frames boxes are copied to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyBoxesTo {
    /// The frame before.
    Previous,
    /// The frame after.
    Next,
    /// Every other frame of the direction.
    All,
}

/// Copies boxes a frame shows to other frames of its direction. Every box the frame shows
/// copied: on each target frame they replace that frame's own boxes of the same classes. Some
/// of them (a selection): each replaces the target's box of its class it overlaps most (the
/// one covering the same part of the body), or is added where none overlaps; the target's
/// other boxes stay.
#[derive(Clone, Debug)]
pub struct CopyBoxes {
    /// The frame copied from.
    pub target: BoxTarget,
    /// The boxes copied (own or inherited).
    pub elements: Vec<ElementId>,
    /// Where to.
    pub to: CopyBoxesTo,
}

/// What copying boxes did, for the status line: frames reached, boxes that replaced one there,
/// boxes added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CopiedBoxes {
    /// The boxes copied.
    pub boxes: usize,
    /// Whether every box the frame shows was copied (the targets' boxes of those classes were
    /// replaced).
    pub whole_frame: bool,
    /// The frames copied to.
    pub frames: usize,
    /// The first of them (its position in the direction).
    pub first_frame: usize,
    /// Copies that took the place of a box they overlap, over all frames.
    pub replaced: usize,
    /// Copies added beside the boxes already there, over all frames.
    pub added: usize,
}

impl CopiedBoxes {
    /// "Copied the selected box to frame 3, replacing the box it overlaps there", "Copied 2
    /// boxes to 5 frames: 4 replacing boxes they overlap, 6 added", "Copied 3 boxes to
    /// frame 4 in place of its boxes".
    pub fn sentence(&self) -> String {
        let what = if self.whole_frame {
            crate::text::count(self.boxes, "box")
        } else if self.boxes == 1 {
            "the selected box".to_string()
        } else {
            format!("the {} selected boxes", self.boxes)
        };
        let place = if self.frames == 1 {
            format!("frame {}", self.first_frame)
        } else {
            crate::text::count(self.frames, "frame")
        };
        if self.whole_frame {
            let theirs = if self.frames == 1 { "its" } else { "their" };
            return format!("Copied {what} to {place} in place of {theirs} boxes");
        }
        match (self.replaced, self.added) {
            (_, 0) if self.boxes == 1 && self.frames == 1 => {
                format!("Copied {what} to {place}, replacing the box it overlaps there")
            }
            (0, _) if self.frames == 1 => {
                format!("Copied {what} to {place}, beside its boxes (none overlaps)")
            }
            (replaced, added) => format!(
                "Copied {what} to {place}: {replaced} replacing boxes they overlap, {added} added"
            ),
        }
    }
}

impl CopyBoxes {
    /// The boxes copied, as elements, and whether they are every box the frame shows.
    fn copied(&self, doc: &AnimationSet) -> EditResult<(Vec<Element>, bool)> {
        if self.elements.is_empty() {
            return Err(EditError::new("no box is selected"));
        }
        let at = self.target.at;
        let shown = frames_of(doc, at)?;
        let effective = effective_boxes(&shown, at.index, self.target.rule);
        let mut copied: Vec<Element> = Vec::new();
        for id in &self.elements {
            let found = effective
                .iter()
                .find(|b| b.element.id == *id)
                .ok_or_else(|| EditError::new(format!("box {id} is not shown on this frame")))?;
            copied.push(found.element.clone());
        }
        let whole = effective
            .iter()
            .all(|b| self.elements.contains(&b.element.id));
        Ok((copied, whole))
    }

    /// The positions copied to.
    fn positions(&self, doc: &AnimationSet) -> EditResult<Vec<usize>> {
        let at = self.target.at;
        let count = direction_frames(doc, at.sequence, at.direction)?.len();
        Ok(match self.to {
            CopyBoxesTo::Previous => vec![
                at.index
                    .checked_sub(1)
                    .ok_or_else(|| EditError::new("the first frame has no previous frame"))?,
            ],
            CopyBoxesTo::Next if at.index + 1 < count => vec![at.index + 1],
            CopyBoxesTo::Next => return Err(EditError::new("the last frame has no next frame")),
            CopyBoxesTo::All => (0..count).filter(|p| *p != at.index).collect(),
        })
    }

    /// What the copy does to `doc`, without changing it (the editor says it once applied).
    pub fn outcome(&self, doc: &AnimationSet) -> EditResult<CopiedBoxes> {
        let mut scratch = doc.clone();
        let mut tx = Tx::new(&mut scratch, &Selection::none());
        self.copy(&mut tx)
    }

    fn copy(&self, tx: &mut Tx) -> EditResult<CopiedBoxes> {
        let at = self.target.at;
        let (copied, whole_frame) = self.copied(tx.doc())?;
        let source_frame = frame_id_at(tx.doc(), at)?;
        let frames = direction_frames(tx.doc(), at.sequence, at.direction)?.to_vec();
        let classes: Vec<BoxClass> = copied.iter().fold(Vec::new(), |mut acc, e| {
            if let ElementKind::Box(b) = &e.kind
                && !acc.contains(&b.class)
            {
                acc.push(b.class.clone());
            }
            acc
        });
        let positions = self.positions(tx.doc())?;
        let mut outcome = CopiedBoxes {
            boxes: copied.len(),
            whole_frame,
            first_frame: positions.first().copied().unwrap_or_default(),
            ..CopiedBoxes::default()
        };
        let mut done = vec![source_frame];
        for p in positions {
            let target = frames[p];
            if done.contains(&target) {
                continue;
            }
            done.push(target);
            outcome.frames += 1;
            if whole_frame {
                let mut copies = Vec::new();
                for element in &copied {
                    copies.push(Element {
                        id: ElementId(tx.alloc_id()),
                        ..element.clone()
                    });
                }
                let frame = tx.frame_mut(target)?;
                frame.elements.retain(
                    |e| !matches!(&e.kind, ElementKind::Box(b) if classes.contains(&b.class)),
                );
                frame.elements.extend(copies);
                continue;
            }
            let there = BoxTarget {
                at: FrameAt { index: p, ..at },
                rule: self.target.rule,
                inherited: Some(InheritedBoxes::ThisFrameOnly),
            };
            for class in &classes {
                let (replaced, added) = copy_into(tx, there, target, class, &copied)?;
                outcome.replaced += replaced;
                outcome.added += added;
            }
        }
        Ok(outcome)
    }
}

/// Copies the boxes of `class` among `copied` onto frame `frame_id` (at `there`): each takes
/// the place of the frame's box it overlaps most, else is added. Inherited boxes of the class
/// become the frame's own first (for this frame only), so none is lost. Gives (replaced, added).
fn copy_into(
    tx: &mut Tx,
    there: BoxTarget,
    frame_id: FrameId,
    class: &BoxClass,
    copied: &[Element],
) -> EditResult<(usize, usize)> {
    let copied: Vec<(&Element, &CollisionBox)> = copied
        .iter()
        .filter_map(|e| e.as_box().filter(|b| &b.class == class).map(|b| (e, b)))
        .collect();
    claim_class(tx, there, class)?;
    let own: Vec<(ElementId, CollisionBox)> = tx
        .doc()
        .frame(frame_id)
        .ok_or_else(|| EditError::new(format!("frame {frame_id} does not exist")))?
        .elements
        .iter()
        .filter_map(|e| {
            e.as_box()
                .filter(|b| &b.class == class)
                .map(|b| (e.id, b.clone()))
        })
        .collect();
    let pairs = pair_boxes(
        &copied
            .iter()
            .map(|(_, b)| b.shape.clone())
            .collect::<Vec<_>>(),
        &own.iter().map(|(_, b)| b.shape.clone()).collect::<Vec<_>>(),
    );
    let mut replaced = 0;
    let mut added = Vec::new();
    for (i, (element, collision)) in copied.iter().enumerate() {
        let over = pairs
            .iter()
            .find(|(a, _)| *a == i)
            .map(|(_, j)| &own[*j])
            .filter(|(_, b)| overlap(&b.shape, &collision.shape) > 0.0);
        match over {
            Some((id, old)) => {
                let id = *id;
                let new = CollisionBox {
                    box_id: old.box_id,
                    ..(*collision).clone()
                };
                let frame = tx.frame_mut(frame_id)?;
                if let Some(e) = frame.elements.iter_mut().find(|e| e.id == id) {
                    e.kind = ElementKind::Box(new);
                }
                replaced += 1;
            }
            None => added.push(Element {
                id: ElementId(tx.alloc_id()),
                ..(*element).clone()
            }),
        }
    }
    let count = added.len();
    tx.frame_mut(frame_id)?.elements.extend(added);
    Ok((replaced, count))
}

impl Command for CopyBoxes {
    fn label(&self) -> String {
        match self.to {
            CopyBoxesTo::Previous => "Copy boxes to previous frame",
            CopyBoxesTo::Next => "Copy boxes to next frame",
            CopyBoxesTo::All => "Copy boxes to all frames",
        }
        .to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        self.copy(tx).map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::{History, Selection};
    use crate::model::{DirectionId, FrameDuration, Fx, Sequence, TreeItem};

    /// A two-frame sequence without boxes.
    fn two_frames() -> (AnimationSet, FrameAt) {
        let mut doc = AnimationSet::new();
        let id = SequenceId(doc.alloc_id());
        let mut sequence = Sequence::new(id, "0", DirectionId(doc.alloc_id()));
        for _ in 0..2 {
            let frame = FrameId(doc.alloc_id());
            doc.frames
                .insert(frame, Frame::new(FrameDuration::Ticks(5)));
            sequence.directions[0].frames.push(frame);
        }
        doc.root.items.push(TreeItem::Sequence(sequence));
        let at = FrameAt {
            sequence: id,
            direction: 0,
            index: 0,
        };
        (doc, at)
    }

    fn shown_on(doc: &AnimationSet, at: FrameAt, index: usize) -> usize {
        let frames = frames_of(doc, FrameAt { index, ..at }).unwrap();
        effective_boxes(&frames, index, DefaultBoxRule::default()).len()
    }

    #[test]
    fn a_first_box_drawn_as_the_default_from_here_on_starts_a_default() {
        let shape = Shape::Circle {
            center: Point::from_ints(0, 0),
            radius: Fx::from_int(3),
        };
        for (choice, scope, shown_after) in [
            (InheritedBoxes::DefaultFromHereOn, BoxScope::FromHereOn, 1),
            (InheritedBoxes::ThisFrameOnly, BoxScope::ThisFrame, 0),
        ] {
            let (mut doc, at) = two_frames();
            let add = AddBox {
                target: BoxTarget::new(at).inherited(choice),
                class: BoxClass::Hit,
                shape: shape.clone(),
            };
            History::new()
                .apply(&mut doc, &Selection::none(), &add, None)
                .unwrap();
            let first = frame_id_at(&doc, at).unwrap();
            let frame = doc.frame(first).unwrap();
            assert_eq!(frame.declared_scope(&BoxClass::Hit), Some(scope));
            assert_eq!(shown_on(&doc, at, 1), shown_after, "{choice:?}");
        }
    }
}

#[cfg(test)]
mod copy_tests {
    use super::*;
    use crate::boxes::test_shapes::hurt_box as hurt;
    use crate::edit::{History, Selection};

    /// Frames showing these hurt boxes (as their own), and where the first is.
    fn frames_showing(boxes: &[Vec<CollisionBox>]) -> (AnimationSet, FrameAt) {
        let boxes: Vec<&[CollisionBox]> = boxes.iter().map(Vec::as_slice).collect();
        let (doc, sequence) = crate::model::fixtures::frames_with_boxes("200", 4, &boxes);
        let at = FrameAt {
            sequence,
            direction: 0,
            index: 0,
        };
        (doc, at)
    }

    fn shapes_on(doc: &AnimationSet, at: FrameAt, index: usize) -> Vec<Shape> {
        let frames = frames_of(doc, FrameAt { index, ..at }).unwrap();
        effective_boxes(&frames, index, DefaultBoxRule::default())
            .into_iter()
            .map(|b| b.collision.shape.clone())
            .collect()
    }

    fn copy(doc: &mut AnimationSet, command: &CopyBoxes) -> CopiedBoxes {
        let said = command.outcome(doc).unwrap();
        History::new()
            .apply(doc, &Selection::none(), command, None)
            .unwrap();
        said
    }

    #[test]
    fn copying_one_selected_box_replaces_the_box_it_overlaps_and_keeps_the_others() {
        // A body and a head on both frames; the body of the first was made taller.
        let (body, head) = (hurt((-13, -82), (16, 0)), hurt((5, -79), (-7, -93)));
        let (next_body, next_head) = (hurt((-12, 0), (17, -79)), hurt((6, -79), (-6, -93)));
        let (mut doc, at) = frames_showing(&[
            vec![body.clone(), head.clone()],
            vec![next_head.clone(), next_body],
        ]);
        let first = frame_id_at(&doc, at).unwrap();
        let body_id = doc.frame(first).unwrap().elements[0].id;
        let command = CopyBoxes {
            target: BoxTarget::new(at),
            elements: vec![body_id],
            to: CopyBoxesTo::Next,
        };
        let said = copy(&mut doc, &command);
        assert_eq!(
            shapes_on(&doc, at, 1),
            vec![next_head.shape.clone(), body.shape.clone()],
            "the head box stays; the body box is the copy, where the old body box was"
        );
        assert_eq!((said.replaced, said.added, said.frames), (1, 0, 1));
        assert_eq!(
            said.sentence(),
            "Copied the selected box to frame 1, replacing the box it overlaps there"
        );

        // A box that overlaps nothing there is added beside the others.
        let (mut doc, at) = frames_showing(&[
            vec![hurt((40, -20), (60, -10)), head.clone()],
            vec![next_head.clone()],
        ]);
        let first = frame_id_at(&doc, at).unwrap();
        let arm = doc.frame(first).unwrap().elements[0].id;
        let said = copy(
            &mut doc,
            &CopyBoxes {
                target: BoxTarget::new(at),
                elements: vec![arm],
                to: CopyBoxesTo::Next,
            },
        );
        assert_eq!(shapes_on(&doc, at, 1).len(), 2);
        assert_eq!((said.replaced, said.added), (0, 1));
    }

    #[test]
    fn copying_one_box_onto_a_frame_that_inherits_its_boxes_keeps_the_inherited_others() {
        let (body, head) = (hurt((-13, -80), (16, 0)), hurt((5, -79), (-7, -93)));
        let (mut doc, at) = frames_showing(&[vec![body.clone(), head.clone()], vec![], vec![]]);
        // The first frame's boxes are the default from there on (M.U.G.E.N `Clsn2Default`).
        let first = frame_id_at(&doc, at).unwrap();
        doc.frames
            .get_mut(&first)
            .unwrap()
            .box_declarations
            .push(BoxDeclaration {
                class: BoxClass::Hurt,
                scope: BoxScope::FromHereOn,
            });
        let taller = hurt((-13, -84), (16, 0));
        let second = frame_id_at(&doc, FrameAt { index: 1, ..at }).unwrap();
        let body_id = doc.frame(first).unwrap().elements[0].id;
        doc.frames
            .get_mut(&first)
            .unwrap()
            .elements
            .retain(|e| e.id != body_id);
        let body_id = ElementId(doc.alloc_id());
        doc.frames.get_mut(&first).unwrap().elements.insert(
            0,
            Element {
                id: body_id,
                name: Name::default(),
                kind: ElementKind::Box(taller.clone()),
            },
        );
        let said = copy(
            &mut doc,
            &CopyBoxes {
                target: BoxTarget::new(at),
                elements: vec![body_id],
                to: CopyBoxesTo::Next,
            },
        );
        let mut on_second = shapes_on(&doc, at, 1);
        on_second.sort_by_key(|s| format!("{s:?}"));
        let mut expected = vec![taller.shape.clone(), head.shape.clone()];
        expected.sort_by_key(|s| format!("{s:?}"));
        assert_eq!(on_second, expected);
        assert_eq!(said.replaced, 1);
        // The frame after it still inherits the first frame's default.
        assert_eq!(shapes_on(&doc, at, 2).len(), 2);
        assert!(
            doc.frame(second)
                .unwrap()
                .declared_scope(&BoxClass::Hurt)
                .is_some()
        );
    }
}
