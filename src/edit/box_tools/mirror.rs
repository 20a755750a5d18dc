//! Mirroring selected boxes and points onto frames.

use super::{BoxRun, set_class_boxes, shown_boxes};
use crate::boxes::mirror::{MirrorAxis, mirror_point, mirror_shape};
use crate::edit::command::Command;
use crate::edit::common_steps::direction_frames;
use crate::edit::error::{EditError, EditResult};
use crate::edit::selection::Selection;
use crate::edit::snapshot::Tx;
use crate::model::{BoxClass, CollisionBox, Element, ElementId, ElementKind, effective_boxes};
use std::collections::BTreeMap;

/// Copies boxes and points a frame shows, flipped about the origin, onto frames of the same
/// direction (added to what they have). Mirroring onto the source frame itself flips the
/// originals in place.
#[derive(Clone, Debug)]
pub struct MirrorElements {
    /// Where.
    pub run: BoxRun,
    /// The frame the elements are on.
    pub source: usize,
    /// The boxes (own or inherited) and points.
    pub elements: Vec<ElementId>,
    /// The flip.
    pub axis: MirrorAxis,
    /// The frames to copy to.
    pub targets: Vec<usize>,
}

impl Command for MirrorElements {
    fn label(&self) -> String {
        format!("Mirror boxes {}", self.axis.label())
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        if self.elements.is_empty() {
            return Err(EditError::new("select boxes or points to mirror"));
        }
        if self.targets.is_empty() {
            return Err(EditError::new("select the frames to mirror onto"));
        }
        let ids = direction_frames(tx.doc(), self.run.sequence, self.run.direction)?.to_vec();
        let source_id = *ids
            .get(self.source)
            .ok_or_else(|| EditError::new(format!("there is no frame {}", self.source)))?;
        if let Some(bad) = self.targets.iter().find(|t| **t >= ids.len()) {
            return Err(EditError::new(format!("there is no frame {bad}")));
        }
        // The boxes the source frame shows, and its points, that are selected.
        let sequence = tx.doc().sequence(self.run.sequence).expect("checked above");
        let frames = tx.doc().direction_frames(sequence, self.run.direction);
        let shown = effective_boxes(&frames, self.source, self.run.rule);
        let mut boxes: Vec<CollisionBox> = Vec::new();
        let mut points: Vec<Element> = Vec::new();
        for id in &self.elements {
            if let Some(b) = shown.iter().find(|b| b.element.id == *id) {
                boxes.push(b.collision.clone());
            } else if let Some(e) = frames[self.source]
                .elements
                .iter()
                .find(|e| e.id == *id && matches!(e.kind, ElementKind::Point(_)))
            {
                points.push(e.clone());
            } else {
                return Err(EditError::new(format!(
                    "element {id} is not a box or point shown on frame {}",
                    self.source
                )));
            }
        }
        let mut classes: Vec<BoxClass> = Vec::new();
        for b in &boxes {
            if !classes.contains(&b.class) {
                classes.push(b.class.clone());
            }
        }
        for class in &classes {
            let flipped: Vec<CollisionBox> = boxes
                .iter()
                .filter(|b| &b.class == class)
                .map(|b| CollisionBox {
                    shape: mirror_shape(&b.shape, self.axis),
                    // A new box: written in the order most of the file uses.
                    corners: None,
                    ..b.clone()
                })
                .collect();
            let mut wanted = BTreeMap::new();
            for &target in &self.targets {
                let mut now = shown_boxes(tx.doc(), self.run, target, class)?;
                if ids[target] == source_id {
                    // In place: the originals are replaced by their mirror images.
                    let originals: Vec<_> = boxes.iter().map(|b| &b.shape).collect();
                    now.retain(|b| !originals.contains(&&b.shape));
                }
                now.extend(flipped.iter().cloned());
                wanted.insert(target, now);
            }
            set_class_boxes(tx, self.run, class, &wanted)?;
        }
        let mut done = Vec::new();
        for &target in &self.targets {
            if done.contains(&ids[target]) {
                continue;
            }
            done.push(ids[target]);
            for point in &points {
                let mut copy = point.clone();
                if let ElementKind::Point(p) = &point.kind {
                    copy.kind = ElementKind::Point(mirror_point(p, self.axis));
                }
                let in_place = ids[target] == source_id;
                if !in_place {
                    copy.id = ElementId(tx.alloc_id());
                }
                let frame = tx.frame_mut(ids[target])?;
                if in_place {
                    if let Some(e) = frame.elements.iter_mut().find(|e| e.id == point.id) {
                        e.kind = copy.kind;
                    }
                } else {
                    frame.elements.push(copy);
                }
            }
        }
        // The frames the user chose stay chosen, the source with them, so the frame on show
        // stays where it was.
        let mut selected = self.targets.clone();
        selected.push(self.source);
        selected.sort_unstable();
        selected.dedup();
        tx.select(Selection::frames(
            self.run.sequence,
            self.run.direction,
            selected,
        ));
        Ok(())
    }
}
