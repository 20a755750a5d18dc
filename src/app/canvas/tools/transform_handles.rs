//! The handles of a lone selected element that turn and scale it: a point's angle knob, and a
//! graphic's pivot, rotation knob and scale corner. The canvas paints them and a press near
//! one grabs it.

use super::FrameContext;
use crate::app::canvas::view::View;
use crate::app::context::document::OpenDocument;
use crate::model::{ElementId, Origin};
use crate::pixels::PixelSource;
use crate::render::Placement;

/// How far above a box its rotation knob sits (screen points).
pub const ROTATE_REACH: f32 = 22.0;

/// How long a point's angle knob is (screen points).
pub const ANGLE_REACH: f32 = 18.0;

/// The selected point's position and angle-knob tip, when a point is selected and the format
/// can hold its angle.
pub fn angle_knob(doc: &OpenDocument, context: &FrameContext, view: &View) -> Option<AngleKnob> {
    if !context.capabilities.transforms {
        return None;
    }
    let id = doc.single_element()?;
    let frame = doc.frame()?;
    let point = frame.elements.iter().find(|e| e.id == id)?.as_point()?;
    let position = (point.position.x.to_f64(), point.position.y.to_f64());
    let (sin, cos) = point.rotation.to_radians().sin_cos();
    let reach = (ANGLE_REACH / view.scale) as f64;
    Some(AngleKnob {
        element: id,
        position,
        tip: (position.0 + cos * reach, position.1 + sin * reach),
    })
}

/// A selected point's angle knob.
#[derive(Clone, Copy, Debug)]
pub struct AngleKnob {
    /// The point.
    pub element: ElementId,
    /// The point's position.
    pub position: (f64, f64),
    /// The knob, in sprite space.
    pub tip: (f64, f64),
}

/// The origin (pivot) of the selected graphic in sprite space, when it has its own origin
/// (not an SFF sprite's axis, which lives in the SFF file).
pub fn graphic_origin(doc: &OpenDocument) -> Option<(ElementId, (f64, f64))> {
    let id = doc.single_element()?;
    let frame = doc.frame()?;
    let graphic = frame.elements.iter().find(|e| e.id == id)?.as_graphic()?;
    matches!(graphic.origin, Origin::At(_)).then(|| {
        (
            id,
            (graphic.position.x.to_f64(), graphic.position.y.to_f64()),
        )
    })
}

/// The rotation knob and scale corner of a selected graphic.
#[derive(Clone, Copy, Debug)]
pub struct GraphicHandles {
    /// The graphic.
    pub element: ElementId,
    /// Its pivot in sprite space.
    pub pivot: (f64, f64),
    /// Its rotation, degrees clockwise.
    pub rotation: f64,
    /// The rotation knob.
    pub knob: (f64, f64),
    /// The corner of its source's far side (right, bottom) from the pivot, when it has one.
    pub corner: Option<(f64, f64)>,
    /// Source pixels from the pivot to that corner, mirrored as the graphic is.
    pub reach: (f64, f64),
}

/// The transform handles of the selected graphic, where the format can hold a rotation and
/// scale on graphics.
pub fn graphic_handles(
    doc: &OpenDocument,
    context: &FrameContext,
    view: &View,
    pixels: &dyn PixelSource,
) -> Option<GraphicHandles> {
    if !context.capabilities.transforms {
        return None;
    }
    let id = doc.single_element()?;
    let frame = doc.frame()?;
    let graphic = frame.elements.iter().find(|e| e.id == id)?.as_graphic()?;
    let source = pixels.pixels(doc.document(), &graphic.source)?;
    let placement = Placement::of(graphic, source.axis)?;
    let pivot = placement.position;
    let (sin, cos) = graphic.rotation.to_radians().sin_cos();
    let reach = (ROTATE_REACH / view.scale) as f64;
    let knob = (pivot.0 + sin * reach, pivot.1 - cos * reach);
    let (w, h) = (source.image.width() as f64, source.image.height() as f64);
    let far = (w - placement.origin.0, h - placement.origin.1);
    let sign = |flip: bool| if flip { -1.0 } else { 1.0 };
    let corner = (far.0 != 0.0 && far.1 != 0.0).then(|| placement.to_sprite((w, h)));
    Some(GraphicHandles {
        element: id,
        pivot,
        rotation: graphic.rotation,
        knob,
        corner,
        reach: (far.0 * sign(graphic.flip_h), far.1 * sign(graphic.flip_v)),
    })
}

/// The scale that puts a graphic's corner handle under `pointer` (`uniform`: the same both
/// ways), at least 1% and in thousandths.
pub fn scale_for(handles: &GraphicHandles, pointer: (f64, f64), uniform: bool) -> (f64, f64) {
    let (sin, cos) = handles.rotation.to_radians().sin_cos();
    let (dx, dy) = (pointer.0 - handles.pivot.0, pointer.1 - handles.pivot.1);
    let local = (dx * cos + dy * sin, -dx * sin + dy * cos);
    let fit = |v: f64, reach: f64| ((v / reach).max(0.01) * 1000.0).round() / 1000.0;
    let (sx, sy) = (fit(local.0, handles.reach.0), fit(local.1, handles.reach.1));
    if uniform {
        let both = sx.max(sy);
        (both, both)
    } else {
        (sx, sy)
    }
}
