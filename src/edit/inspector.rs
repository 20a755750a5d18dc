//! Setting one field of the document, a sequence, a frame or an element, with validation (the
//! inspector).

use super::command::Command;
use super::common_steps::{check_sequence_name, sequence};
use super::error::{EditError, EditResult};
use super::snapshot::Tx;
use super::timeline::{SetFrameDuration, SetLoopPoint};
use crate::model::{
    AnimationSet, BlendMode, BoxClass, ElementId, ElementKind, EndBehavior, FrameDuration, FrameId,
    GraphicSource, Interpolation, Metadata, Origin, Point, SequenceId, Shape, ShapeF64,
};

/// A sequence field and its new value.
#[derive(Clone, Debug, PartialEq)]
pub enum SequenceField {
    /// Its name (unique in the set).
    Name(String),
    /// The frame looped to; must be one of its frames.
    LoopPoint(Option<usize>),
    /// What happens after the last frame without a loop.
    OnEnd(EndBehavior),
    /// The sequence started after this one (must exist), or none.
    FollowUp(Option<String>),
    /// Frames per second for hold-based durations; `None` = the set's rate.
    FrameRate(Option<u32>),
    /// The human title shown beside the name; one line, `None` (or blank) for none.
    Title(Option<String>),
}

/// Sets a field of a sequence.
#[derive(Clone, Debug)]
pub struct SetSequenceField {
    /// The sequence.
    pub sequence: SequenceId,
    /// The field and value.
    pub field: SequenceField,
}

impl Command for SetSequenceField {
    fn label(&self) -> String {
        let what = match &self.field {
            SequenceField::Name(_) => "name",
            SequenceField::LoopPoint(_) => "loop point",
            SequenceField::OnEnd(_) => "end behaviour",
            SequenceField::FollowUp(_) => "follow-up",
            SequenceField::FrameRate(_) => "frame rate",
            SequenceField::Title(_) => "title",
        };
        format!("Set sequence {what}")
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        sequence(tx.doc(), self.sequence)?;
        match &self.field {
            SequenceField::Name(name) => {
                check_sequence_name(tx.doc(), name, Some(self.sequence))?;
                tx.sequence_mut(self.sequence)?.name = name.clone();
            }
            SequenceField::LoopPoint(loop_point) => {
                return SetLoopPoint {
                    sequence: self.sequence,
                    loop_point: *loop_point,
                }
                .apply(tx);
            }
            SequenceField::OnEnd(on_end) => tx.sequence_mut(self.sequence)?.on_end = *on_end,
            SequenceField::FollowUp(follow_up) => {
                if let Some(name) = follow_up
                    && tx.doc().sequence_by_name(name).is_none()
                {
                    return Err(EditError::new(format!("no sequence is named \"{name}\"")));
                }
                tx.sequence_mut(self.sequence)?.follow_up = follow_up.clone();
            }
            SequenceField::FrameRate(rate) => {
                if *rate == Some(0) {
                    return Err(EditError::new(
                        "a frame rate must be at least 1 frame per second",
                    ));
                }
                tx.sequence_mut(self.sequence)?.frame_rate = *rate;
            }
            SequenceField::Title(title) => {
                let title = title.as_deref().map(str::trim).filter(|t| !t.is_empty());
                if title.is_some_and(|t| t.contains(['\n', '\r'])) {
                    return Err(EditError::new("a title is one line of text"));
                }
                tx.sequence_mut(self.sequence)?.title = title.map(str::to_string);
            }
        }
        Ok(())
    }
}

/// A field of the whole document and its new value.
#[derive(Clone, Debug, PartialEq)]
pub enum DocumentField {
    /// Title, author and the other descriptive data.
    Metadata(Box<Metadata>),
    /// The master frame rate for hold-based durations; `Some(0)` = no automatic playback.
    FrameRate(Option<u32>),
}

/// Sets a field of the document itself.
#[derive(Clone, Debug)]
pub struct SetDocumentField {
    /// The field and value.
    pub field: DocumentField,
}

impl Command for SetDocumentField {
    fn label(&self) -> String {
        match self.field {
            DocumentField::Metadata(_) => "Set document information",
            DocumentField::FrameRate(_) => "Set frame rate",
        }
        .to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let (metadata, frame_rate) = tx.set_fields_mut();
        match &self.field {
            DocumentField::Metadata(value) => *metadata = value.as_ref().clone(),
            DocumentField::FrameRate(value) => *frame_rate = *value,
        }
        Ok(())
    }
}

/// A frame field and its new value.
#[derive(Clone, Debug, PartialEq)]
pub enum FrameField {
    /// How long it shows, in the document's unit.
    Duration(FrameDuration),
    /// Its label.
    Label(String),
    /// Its triggers.
    Triggers(String),
    /// Its notes.
    Notes(String),
    /// What is interpolated into it.
    Interpolation(Interpolation),
}

/// Sets a field of a frame.
#[derive(Clone, Debug)]
pub struct SetFrameField {
    /// The frame.
    pub frame: FrameId,
    /// The field and value.
    pub field: FrameField,
}

impl Command for SetFrameField {
    fn label(&self) -> String {
        // The value says what the step did, as the timeline's duration field says it.
        match self.field {
            FrameField::Duration(FrameDuration::Forever) => {
                return "Set frame to show forever".to_string();
            }
            FrameField::Duration(duration) => return format!("Set duration to {duration}"),
            _ => {}
        }
        let what = match &self.field {
            FrameField::Duration(_) => "duration",
            FrameField::Label(_) => "label",
            FrameField::Triggers(_) => "triggers",
            FrameField::Notes(_) => "notes",
            FrameField::Interpolation(_) => "interpolation",
        };
        format!("Set frame {what}")
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        if let FrameField::Duration(duration) = self.field {
            return SetFrameDuration {
                frame: self.frame,
                duration,
            }
            .apply(tx);
        }
        let frame = tx.frame_mut(self.frame)?;
        match &self.field {
            FrameField::Duration(_) => unreachable!("handled above"),
            FrameField::Label(text) => frame.label = text.clone(),
            FrameField::Triggers(text) => frame.triggers = text.clone(),
            FrameField::Notes(text) => frame.notes = text.clone(),
            FrameField::Interpolation(flags) => frame.interpolation = *flags,
        }
        Ok(())
    }
}

/// An element field and its new value. Each applies to the kinds of element that have it.
#[derive(Clone, Debug, PartialEq)]
pub enum ElementField {
    /// Any element: its name.
    Name(String),
    /// Graphic or point: where it is.
    Position(Point),
    /// Graphic: its pivot.
    Origin(Origin),
    /// Graphic: where its pixels come from (must exist in the set).
    Source(GraphicSource),
    /// Graphic or point: mirror left-right.
    FlipH(bool),
    /// Graphic or point: mirror top-bottom.
    FlipV(bool),
    /// Graphic, point or rectangle box: degrees clockwise.
    Rotation(f64),
    /// Graphic or point: horizontal scale (not 0).
    ScaleX(f64),
    /// Graphic or point: vertical scale (not 0).
    ScaleY(f64),
    /// Graphic or point: opacity.
    Opacity(u16),
    /// Graphic: blend mode (add factors 0 to 256).
    Blend(BlendMode),
    /// Point: the format's point number.
    PointId(u16),
    /// Box: its class.
    BoxClass(BoxClass),
    /// Box: its geometry (no negative size).
    Shape(Shape),
    /// Box: the format's box number.
    BoxId(u16),
}

impl ElementField {
    fn name(&self) -> &'static str {
        match self {
            ElementField::Name(_) => "name",
            ElementField::Position(_) => "position",
            ElementField::Origin(_) => "origin",
            ElementField::Source(_) => "source",
            ElementField::FlipH(_) => "horizontal flip",
            ElementField::FlipV(_) => "vertical flip",
            ElementField::Rotation(_) => "rotation",
            ElementField::ScaleX(_) => "horizontal scale",
            ElementField::ScaleY(_) => "vertical scale",
            ElementField::Opacity(_) => "opacity",
            ElementField::Blend(_) => "blend mode",
            ElementField::PointId(_) => "point number",
            ElementField::BoxClass(_) => "box class",
            ElementField::Shape(_) => "shape",
            ElementField::BoxId(_) => "box number",
        }
    }
}

/// Sets a field of an element.
#[derive(Clone, Debug)]
pub struct SetElementField {
    /// The element.
    pub element: ElementId,
    /// The field and value.
    pub field: ElementField,
}

impl Command for SetElementField {
    fn label(&self) -> String {
        format!("Set {}", self.field.name())
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        validate(tx.doc(), &self.field)?;
        if let ElementField::Name(name) = &self.field {
            check_point_name(tx.doc(), self.element, name)?;
        }
        let element = element_mut(tx, self.element)?;
        let field = &self.field;
        let refused = || {
            EditError::new(format!(
                "this kind of element has no {} to set",
                field.name()
            ))
        };
        match (&mut element.kind, field) {
            (_, ElementField::Name(name)) => element.name = name.as_str().into(),
            (ElementKind::Graphic(g), ElementField::Position(p)) => g.position = *p,
            (ElementKind::Point(a), ElementField::Position(p)) => a.position = *p,
            (ElementKind::Graphic(g), ElementField::Origin(o)) => g.origin = *o,
            (ElementKind::Graphic(g), ElementField::Source(s)) => g.source = s.clone(),
            (ElementKind::Graphic(g), ElementField::FlipH(v)) => g.flip_h = *v,
            (ElementKind::Point(a), ElementField::FlipH(v)) => a.flip_h = *v,
            (ElementKind::Graphic(g), ElementField::FlipV(v)) => g.flip_v = *v,
            (ElementKind::Point(a), ElementField::FlipV(v)) => a.flip_v = *v,
            (ElementKind::Graphic(g), ElementField::Rotation(r)) => g.rotation = *r,
            (ElementKind::Point(a), ElementField::Rotation(r)) => a.rotation = *r,
            (ElementKind::Box(b), ElementField::Rotation(r)) => match &mut b.shape {
                Shape::Rect { rotation, .. } => *rotation = *r,
                Shape::Circle { .. } => {
                    return Err(EditError::new("a circle has no rotation"));
                }
            },
            (ElementKind::Graphic(g), ElementField::ScaleX(s)) => g.scale_x = *s,
            (ElementKind::Point(a), ElementField::ScaleX(s)) => a.scale_x = *s,
            (ElementKind::Graphic(g), ElementField::ScaleY(s)) => g.scale_y = *s,
            (ElementKind::Point(a), ElementField::ScaleY(s)) => a.scale_y = *s,
            (ElementKind::Graphic(g), ElementField::Opacity(o)) => g.opacity = *o,
            (ElementKind::Point(a), ElementField::Opacity(o)) => a.opacity = *o,
            (ElementKind::Graphic(g), ElementField::Blend(b)) => g.blend = *b,
            (ElementKind::Point(a), ElementField::PointId(id)) => a.point_id = *id,
            (ElementKind::Box(b), ElementField::BoxClass(c)) => b.class = c.clone(),
            (ElementKind::Box(b), ElementField::Shape(s)) => b.shape = s.clone(),
            (ElementKind::Box(b), ElementField::BoxId(id)) => b.box_id = *id,
            _ => return Err(refused()),
        }
        Ok(())
    }
}

/// The element with this id, for changing (through the frame that holds it).
pub(crate) fn element_mut<'t>(
    tx: &'t mut Tx,
    id: ElementId,
) -> EditResult<&'t mut crate::model::Element> {
    let (frame, _) = tx
        .doc()
        .element(id)
        .ok_or_else(|| EditError::new(format!("element {id} does not exist")))?;
    let frame = tx.frame_mut(frame)?;
    Ok(frame
        .elements
        .iter_mut()
        .find(|e| e.id == id)
        .expect("found above"))
}

/// Attachment points are found by name (hanging a sequence on "hand"), so a point's name must
/// be non-empty and unique on its frame.
fn check_point_name(doc: &AnimationSet, element: ElementId, name: &str) -> EditResult {
    let Some((frame, found)) = doc.element(element) else {
        return Ok(());
    };
    if found.as_point().is_none() {
        return Ok(());
    }
    if name.trim().is_empty() {
        return Err(EditError::new("an attachment point needs a name"));
    }
    let taken = doc.frame(frame).is_some_and(|f| {
        f.elements
            .iter()
            .any(|e| e.id != element && e.as_point().is_some() && e.name == name)
    });
    if taken {
        return Err(EditError::new(format!(
            "this frame already has a point named \"{name}\""
        )));
    }
    Ok(())
}

/// Refuses values no format can hold or that point nowhere.
fn validate(doc: &AnimationSet, field: &ElementField) -> EditResult {
    match field {
        ElementField::Rotation(r) => check_finite(*r, "rotation"),
        ElementField::ScaleX(s) | ElementField::ScaleY(s) => check_scale(*s),
        ElementField::Blend(BlendMode::Add {
            source,
            destination,
        }) if *source > 256 || *destination > 256 => {
            Err(EditError::new("add blending factors go from 0 to 256"))
        }
        ElementField::Source(source) => {
            let exists = match source {
                GraphicSource::Slice(id) => doc.slice(*id).is_some(),
                GraphicSource::Image(id) | GraphicSource::SffSprite { archive: id, .. } => {
                    doc.image(*id).is_some()
                }
            };
            if exists {
                Ok(())
            } else {
                Err(EditError::new(
                    "that image or slice is not in this document",
                ))
            }
        }
        ElementField::BoxClass(BoxClass::Custom(name)) if name.trim().is_empty() => {
            Err(EditError::new("a custom box class needs a name"))
        }
        ElementField::Shape(shape) => check_shape(shape),
        _ => Ok(()),
    }
}

pub(crate) fn check_finite(value: f64, what: &str) -> EditResult {
    if value.is_finite() {
        Ok(())
    } else {
        Err(EditError::new(format!("the {what} must be a number")))
    }
}

pub(crate) fn check_scale(value: f64) -> EditResult {
    check_finite(value, "scale")?;
    if value == 0.0 {
        return Err(EditError::new(
            "a scale of 0 would make it invisible; use a small value instead",
        ));
    }
    Ok(())
}

/// Refuses negative sizes and non-numbers.
pub(crate) fn check_shape(shape: &Shape) -> EditResult {
    match shape.to_f64() {
        ShapeF64::Rect(rect) => {
            if rect.width < 0.0 || rect.height < 0.0 {
                return Err(EditError::new(
                    "a box cannot have a negative width or height",
                ));
            }
            check_finite(rect.rotation, "rotation")
        }
        ShapeF64::Circle { radius, .. } if radius < 0.0 => {
            Err(EditError::new("a circle cannot have a negative radius"))
        }
        ShapeF64::Circle { .. } => Ok(()),
    }
}
