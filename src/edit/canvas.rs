//! Commands from the canvas select tool: move and nudge elements, scale and rotate, move the
//! origin (pivot) of a graphic.

use super::command::Command;
use super::error::{EditError, EditResult};
use super::inspector::{check_finite, check_scale, element_mut};
use super::snapshot::Tx;
use crate::model::{ElementId, ElementKind, Fx, Graphic, Origin, Point, Shape};

/// Moves elements by an offset (drag with a gesture; arrows nudge by 1 or 10 px). Boxes move
/// where they are; for boxes a frame inherits from an AIR default use
/// [`super::boxes::MoveBoxes`].
#[derive(Clone, Debug)]
pub struct MoveElements {
    /// The elements.
    pub elements: Vec<ElementId>,
    /// The offset, in sprite pixels.
    pub delta: Point,
}

impl Command for MoveElements {
    fn label(&self) -> String {
        crate::text::acting_on("Move", self.elements.len(), "element")
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        if self.elements.is_empty() {
            return Err(EditError::new("nothing is selected to move"));
        }
        for id in &self.elements {
            let element = element_mut(tx, *id)?;
            match &mut element.kind {
                ElementKind::Graphic(g) => g.position = g.position + self.delta,
                ElementKind::Point(p) => p.position = p.position + self.delta,
                ElementKind::Box(b) => translate_shape(&mut b.shape, self.delta),
            }
        }
        Ok(())
    }
}

/// Moves a shape by an offset.
pub(crate) fn translate_shape(shape: &mut Shape, delta: Point) {
    match shape {
        Shape::Rect { x, y, .. } => {
            *x = *x + delta.x;
            *y = *y + delta.y;
        }
        Shape::Circle { center, .. } => *center = *center + delta,
    }
}

/// Sets the scale of a graphic or attachment point (scale handles).
#[derive(Clone, Debug)]
pub struct ScaleElement {
    /// The element.
    pub element: ElementId,
    /// Horizontal scale.
    pub scale_x: f64,
    /// Vertical scale.
    pub scale_y: f64,
}

impl Command for ScaleElement {
    fn label(&self) -> String {
        "Scale".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        check_scale(self.scale_x)?;
        check_scale(self.scale_y)?;
        let element = element_mut(tx, self.element)?;
        match &mut element.kind {
            ElementKind::Graphic(g) => (g.scale_x, g.scale_y) = (self.scale_x, self.scale_y),
            ElementKind::Point(p) => (p.scale_x, p.scale_y) = (self.scale_x, self.scale_y),
            ElementKind::Box(_) => {
                return Err(EditError::new(
                    "boxes have no scale; resize them by their handles instead",
                ));
            }
        }
        Ok(())
    }
}

/// Sets the rotation of a graphic, attachment point (its angle) or rectangular box.
#[derive(Clone, Debug)]
pub struct RotateElement {
    /// The element.
    pub element: ElementId,
    /// Degrees clockwise.
    pub rotation: f64,
}

impl Command for RotateElement {
    fn label(&self) -> String {
        "Rotate".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        check_finite(self.rotation, "rotation")?;
        let element = element_mut(tx, self.element)?;
        match &mut element.kind {
            ElementKind::Graphic(g) => g.rotation = self.rotation,
            ElementKind::Point(p) => p.rotation = self.rotation,
            ElementKind::Box(b) => match &mut b.shape {
                Shape::Rect { rotation, .. } => *rotation = self.rotation,
                Shape::Circle { .. } => return Err(EditError::new("a circle has no rotation")),
            },
        }
        Ok(())
    }
}

/// Moves a graphic's origin (pivot) to another point of its source.
///
/// With `keep_in_place` the graphic's position moves too, so its pixels stay where they are on
/// screen and only the pivot moves; without it the pixels move and the pivot stays.
#[derive(Clone, Debug)]
pub struct MoveOrigin {
    /// The graphic.
    pub element: ElementId,
    /// The new origin, in the source's pixels from its top-left corner.
    pub origin: Point,
    /// Keep the pixels where they are on screen.
    pub keep_in_place: bool,
}

impl Command for MoveOrigin {
    fn label(&self) -> String {
        "Move origin".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let element = element_mut(tx, self.element)?;
        let ElementKind::Graphic(graphic) = &mut element.kind else {
            return Err(EditError::new("only graphics have an origin"));
        };
        let Origin::At(old) = graphic.origin else {
            return Err(EditError::new(
                "this graphic uses its SFF sprite's own axis, which lives in the SFF file; move the frame's offset instead",
            ));
        };
        if self.keep_in_place {
            let shift = on_screen(graphic, self.origin - old);
            graphic.position = graphic.position + shift;
        }
        graphic.origin = Origin::At(self.origin);
        Ok(())
    }
}

/// Where a vector in the source's pixels goes on screen under the graphic's flips, scale and
/// rotation (exact when there are none).
fn on_screen(graphic: &Graphic, v: Point) -> Point {
    let (mut x, mut y) = (v.x, v.y);
    if graphic.flip_h {
        x = -x;
    }
    if graphic.flip_v {
        y = -y;
    }
    if graphic.scale_x == 1.0 && graphic.scale_y == 1.0 && graphic.rotation == 0.0 {
        return Point { x, y };
    }
    let (sx, sy) = (x.to_f64() * graphic.scale_x, y.to_f64() * graphic.scale_y);
    let (sin, cos) = graphic.rotation.to_radians().sin_cos();
    Point {
        x: Fx::from_f64(sx * cos - sy * sin),
        y: Fx::from_f64(sx * sin + sy * cos),
    }
}
