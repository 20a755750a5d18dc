//! Attachment point commands. Moving uses [`super::canvas::MoveElements`], the angle
//! [`super::canvas::RotateElement`], the name [`super::inspector::SetElementField`]; this module
//! adds points.

use super::command::Command;
use super::error::{EditError, EditResult};
use super::snapshot::Tx;
use crate::model::{AttachmentPoint, Element, ElementId, ElementKind, FrameId, Point};

/// Places a named attachment point on a frame.
#[derive(Clone, Debug)]
pub struct AddPoint {
    /// The frame.
    pub frame: FrameId,
    /// Where, in sprite space.
    pub position: Point,
    /// Its name (points are matched across frames by name).
    pub name: String,
}

impl Command for AddPoint {
    fn label(&self) -> String {
        format!("Add point \"{}\"", self.name)
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        if self.name.trim().is_empty() {
            return Err(EditError::new("an attachment point needs a name"));
        }
        let frame = tx
            .doc()
            .frame(self.frame)
            .ok_or_else(|| EditError::new(format!("frame {} does not exist", self.frame)))?;
        if frame
            .elements
            .iter()
            .any(|e| e.as_point().is_some() && e.name == self.name)
        {
            return Err(EditError::new(format!(
                "this frame already has a point named \"{}\"",
                self.name
            )));
        }
        let point_id = point_number(tx, &self.name);
        let id = ElementId(tx.alloc_id());
        let mut point = AttachmentPoint::at(self.position);
        point.point_id = point_id;
        tx.frame_mut(self.frame)?.elements.push(Element {
            id,
            name: self.name.as_str().into(),
            kind: ElementKind::Point(point),
        });
        let selection = tx.selection().clone().with_elements(vec![id]);
        tx.select(selection);
        Ok(())
    }
}

/// The number a point of this name has elsewhere in the set, else one past the largest.
fn point_number(tx: &Tx, name: &str) -> u16 {
    let points = tx
        .doc()
        .frames
        .values()
        .flat_map(|f| f.elements.iter())
        .filter_map(|e| e.as_point().map(|p| (e.name.as_str(), p.point_id)));
    let mut largest = None;
    for (other, number) in points {
        if other == name {
            return number;
        }
        largest = Some(largest.map_or(number, |l: u16| l.max(number)));
    }
    largest.map_or(0, |l| l.saturating_add(1))
}
