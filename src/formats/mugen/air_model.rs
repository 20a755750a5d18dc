//! An AIR syntax tree to the document model, and the values of a model frame as AIR sees them.
//!
//! One action becomes one [`Sequence`] named by its number in decimal; one frame line becomes
//! one [`Frame`] holding one SFF [`Graphic`] and its Clsn boxes. Ids are handed out in file
//! order, so reading the same bytes into a set prepared the same way gives the same ids (the
//! writer relies on this to find what the user edited).

use super::air_syntax::{AirSyntax, ClsnGroup, FrameSyntax, FrameValues, InterpolateKind};
use crate::formats::Subject;
use crate::model::{
    AnimationSet, BoxClass, BoxDeclaration, BoxScope, CollisionBox, CornerOrder, DirectionId,
    Element, ElementId, ElementKind, Frame, FrameDuration, FrameId, Graphic, GraphicSource,
    ImageId, Name, Origin, Point, Sequence, SequenceId, TreeItem,
};

/// Which model object each action and frame line became.
#[derive(Clone, Debug, Default)]
pub struct SyntaxMap {
    /// The sequence of each action, in file order.
    pub sequences: Vec<SequenceId>,
    /// The frames of each action, in file order.
    pub frames: Vec<Vec<FrameId>>,
}

/// Adds the actions of `syntax` to `set` as sequences drawing from the SFF `archive`.
/// Diagnostics about actions and frames get their subject.
pub fn add_to_model(syntax: &mut AirSyntax, set: &mut AnimationSet, archive: ImageId) -> SyntaxMap {
    build_model(syntax, set, archive, false)
}

/// [`add_to_model`] for a read, which keeps nothing of the syntax but its diagnostics: each
/// action's frames are dropped as soon as they are in the document, so the syntax tree and
/// the document it becomes are not both held whole at once. The actions keep no frames.
pub fn take_into_model(syntax: &mut AirSyntax, set: &mut AnimationSet, archive: ImageId) {
    build_model(syntax, set, archive, true);
}

fn build_model(
    syntax: &mut AirSyntax,
    set: &mut AnimationSet,
    archive: ImageId,
    drop_frames: bool,
) -> SyntaxMap {
    let mut map = SyntaxMap::default();
    // Room for every frame at once: the arena would otherwise grow (and move) a dozen times.
    set.frames
        .reserve_exact(syntax.actions.iter().map(|a| a.frames.len()).sum());
    set.root.items.reserve_exact(syntax.actions.len());
    // The diagnostics on text lines, by line: each action gives those inside it their subject
    // while its frames are at hand.
    let mut by_line: Vec<(usize, usize)> = syntax
        .diagnostics
        .iter()
        .enumerate()
        .filter_map(|(index, diagnostic)| match diagnostic.location {
            crate::formats::Location::Text { line, .. } => Some((line as usize - 1, index)),
            _ => None,
        })
        .collect();
    by_line.sort_unstable();
    for a in 0..syntax.actions.len() {
        let action = &syntax.actions[a];
        let sequence_id = SequenceId(set.alloc_id());
        let direction_id = DirectionId(set.alloc_id());
        let mut sequence = Sequence::new(sequence_id, action.number.to_string(), direction_id);
        sequence.title = action.title.as_ref().map(|t| t.text.clone());
        sequence.loop_point = Some(action.loop_frame);
        let mut frame_ids = Vec::with_capacity(action.frames.len());
        for frame in &action.frames {
            let id = FrameId(set.alloc_id());
            let model = frame_to_model(set, archive, syntax, frame);
            set.frames.insert(id, model);
            frame_ids.push(id);
        }
        attach_subjects(syntax, a, &by_line, sequence_id, &frame_ids);
        if drop_frames {
            syntax.actions[a].frames = Vec::new();
            sequence.directions[0].frames = frame_ids;
        } else {
            sequence.directions[0].frames = frame_ids.clone();
            map.frames.push(frame_ids);
        }
        set.root.items.push(TreeItem::Sequence(sequence));
        map.sequences.push(sequence_id);
    }
    map
}

/// Gives each diagnostic inside action `a` (found by `by_line`: the diagnostics' lines and
/// indices, sorted) the action, or the frame it is in, as subject.
fn attach_subjects(
    syntax: &mut AirSyntax,
    a: usize,
    by_line: &[(usize, usize)],
    sequence: SequenceId,
    frame_ids: &[FrameId],
) {
    let action = &syntax.actions[a];
    let first = by_line.partition_point(|&(line, _)| line < action.header);
    let inside = by_line[first..]
        .iter()
        .take_while(|&&(line, _)| line < action.end);
    for &(line, index) in inside {
        let frame = action
            .frames
            .iter()
            .position(|f| f.lead <= line && line <= f.line);
        syntax.diagnostics[index].subject = Some(match frame {
            Some(index) => Subject::Frame {
                sequence,
                direction: 0,
                index,
                frame: frame_ids[index],
            },
            None => Subject::Sequence(sequence),
        });
    }
}

fn frame_to_model(
    set: &mut AnimationSet,
    archive: ImageId,
    air: &AirSyntax,
    syntax: &FrameSyntax,
) -> Frame {
    let values = &syntax.values;
    let clsn = air.clsn(syntax);
    let duration = if values.ticks < 0 {
        FrameDuration::Forever
    } else {
        FrameDuration::Ticks(values.ticks as u32)
    };
    let mut frame = Frame::new(duration);
    // The graphic and every box line: one allocation for the elements.
    let box_count: usize = clsn.iter().map(|g| g.boxes.len()).sum();
    frame.elements.reserve_exact(1 + box_count);
    for &(_, kind) in &syntax.interpolations {
        match kind {
            InterpolateKind::Offset => frame.interpolation.offset = true,
            InterpolateKind::Blend => frame.interpolation.blend = true,
            InterpolateKind::Scale => frame.interpolation.scale = true,
            InterpolateKind::Angle => frame.interpolation.angle = true,
        }
    }
    frame.elements.push(Element {
        id: ElementId(set.alloc_id()),
        name: Name::default(),
        kind: ElementKind::Graphic(graphic_from_values(archive, values)),
    });
    // A class declared twice before one frame: the later declaration counts.
    let counted: Vec<&ClsnGroup> = clsn
        .iter()
        .enumerate()
        .filter(|(i, g)| !clsn[i + 1..].iter().any(|later| later.class == g.class))
        .map(|(_, g)| g)
        .collect();
    // Exactly as many as are pushed: grown from empty, the first push makes room for four.
    frame.box_declarations.reserve_exact(counted.len());
    for group in counted {
        let class = class_of(group.class);
        frame.box_declarations.push(BoxDeclaration {
            class: class.clone(),
            scope: if group.default {
                BoxScope::FromHereOn
            } else {
                BoxScope::ThisFrame
            },
        });
        for line in air.boxes(group) {
            let [left, top, right, bottom] = line.corners;
            let boxed = CollisionBox {
                corners: Some(CornerOrder::of(left, top, right, bottom)),
                ..CollisionBox::rect_from_corners(
                    class.clone(),
                    Point { x: left, y: top },
                    Point {
                        x: right,
                        y: bottom,
                    },
                )
            };
            frame.elements.push(Element {
                id: ElementId(set.alloc_id()),
                name: Name::default(),
                kind: ElementKind::Box(boxed),
            });
        }
    }
    frame
}

/// The model class of `ClsnN`.
pub fn class_of(number: u8) -> BoxClass {
    if number == 1 {
        BoxClass::Hit
    } else {
        BoxClass::Hurt
    }
}

/// The graphic a frame line describes.
pub fn graphic_from_values(archive: ImageId, values: &FrameValues) -> Graphic {
    let mut graphic = Graphic::new(
        GraphicSource::SffSprite {
            archive,
            group: values.group,
            image: values.image,
        },
        Point {
            x: values.x,
            y: values.y,
        },
        Origin::SourceAxis,
    );
    graphic.flip_h = values.flip_h;
    graphic.flip_v = values.flip_v;
    graphic.blend = values.blend;
    graphic.scale_x = values.scale_x;
    graphic.scale_y = values.scale_y;
    // AIR turns counter-clockwise, the model clockwise. `0.0 - a` keeps 0 a positive zero.
    graphic.rotation = 0.0 - values.angle;
    graphic
}

/// The frame-line values of a graphic and a duration (the inverse of [`graphic_from_values`]).
/// `None` for the sprite means a blank frame.
pub fn values_from_graphic(graphic: Option<&Graphic>, ticks: i64) -> FrameValues {
    let mut values = FrameValues {
        ticks,
        ..FrameValues::default()
    };
    let Some(graphic) = graphic else {
        return values;
    };
    if let GraphicSource::SffSprite { group, image, .. } = graphic.source {
        values.group = group;
        values.image = image;
    }
    values.x = graphic.position.x;
    values.y = graphic.position.y;
    values.flip_h = graphic.flip_h;
    values.flip_v = graphic.flip_v;
    values.blend = graphic.blend;
    values.scale_x = graphic.scale_x;
    values.scale_y = graphic.scale_y;
    values.angle = 0.0 - graphic.rotation;
    values
}
