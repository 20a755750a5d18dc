//! What a frame is made of: graphics, attachment points and collision boxes.

use super::fixed::{Fx, Point};
use super::ids::{ElementId, ImageId, SliceId};
use super::name::Name;
use serde::{Deserialize, Serialize};

/// Full opacity (ISPRITE stores opacity as a 16-bit value; 0xFFFF is opaque).
pub const OPAQUE: u16 = u16::MAX;

/// One element of a frame, in draw order (later elements are drawn on top).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Element {
    /// Stable id for selection and undo.
    pub id: ElementId,
    /// The element's name; empty when unnamed. ISPRITE shares names across frames (interpolation
    /// and collision classes use them); ADL names body parts and joints. Clones share the text
    /// ([`Name`]), so the same name in every frame is held once.
    #[serde(default, skip_serializing_if = "Name::is_empty")]
    pub name: Name,
    /// What the element is.
    pub kind: ElementKind,
}

/// The three kinds of element.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ElementKind {
    /// Pixels from a source image.
    Graphic(Graphic),
    /// A named point other sprites can hang on.
    Point(AttachmentPoint),
    /// A hit, hurt or custom collision shape.
    Box(CollisionBox),
}

/// Where a graphic's pixels come from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GraphicSource {
    /// A rectangle of a source image.
    Slice(SliceId),
    /// A whole image file (ADL body parts).
    Image(ImageId),
    /// A sprite of an SFF archive, by (group, image) number. Group -1 is AIR's blank frame:
    /// it draws nothing but keeps its place and time.
    SffSprite {
        /// The SFF archive (a source image of kind [`super::ImageKind::Sff`]).
        archive: ImageId,
        /// Sprite group number.
        group: i32,
        /// Image number within the group.
        image: i32,
    },
}

impl GraphicSource {
    /// True for AIR's blank sprite (`-1`), which draws nothing.
    pub fn is_blank(&self) -> bool {
        matches!(self, GraphicSource::SffSprite { group, .. } if *group < 0)
    }
}

/// The pivot of a graphic, in the source's own pixels from its top-left corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Origin {
    /// An explicit point (Solarus origin, ISPRITE origin, ADL anchor).
    At(Point),
    /// The source's own axis: the SFF sprite's axis, which lives in the archive.
    SourceAxis,
}

/// How a graphic is combined with what is under it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BlendMode {
    /// Ordinary alpha blending.
    #[default]
    Normal,
    /// `dst * destination/256 + src * source/256` (AIR `A`, `A1`, `AS<n>D<m>`); factors 0..=256.
    Add {
        /// Source factor, 0..=256.
        source: u16,
        /// Destination factor, 0..=256.
        destination: u16,
    },
    /// `dst - src` (AIR `S`).
    Subtract,
}

/// An image placed in a frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Graphic {
    /// Where the pixels come from.
    pub source: GraphicSource,
    /// Where the origin (pivot) lands in sprite space.
    pub position: Point,
    /// The pivot within the source: the point placed at `position`, and the centre of flips,
    /// rotation and scale.
    pub origin: Origin,
    /// Mirror left-right about the origin.
    #[serde(default, skip_serializing_if = "is_false")]
    pub flip_h: bool,
    /// Mirror top-bottom about the origin.
    #[serde(default, skip_serializing_if = "is_false")]
    pub flip_v: bool,
    /// Rotation in degrees, clockwise on screen (y down).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rotation: f64,
    /// Horizontal scale factor.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub scale_x: f64,
    /// Vertical scale factor.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub scale_y: f64,
    /// 0 (invisible) to [`OPAQUE`].
    #[serde(default = "opaque", skip_serializing_if = "is_opaque")]
    pub opacity: u16,
    /// Blend mode.
    #[serde(default, skip_serializing_if = "is_normal")]
    pub blend: BlendMode,
}

fn one() -> f64 {
    1.0
}

fn opaque() -> u16 {
    OPAQUE
}

// Defaults are left out of project files so they stay short and diff well.
fn is_false(value: &bool) -> bool {
    !*value
}

fn is_zero(value: &f64) -> bool {
    *value == 0.0 && value.is_sign_positive()
}

fn is_one(value: &f64) -> bool {
    *value == 1.0
}

fn is_opaque(value: &u16) -> bool {
    *value == OPAQUE
}

fn is_zero_u16(value: &u16) -> bool {
    *value == 0
}

fn is_normal(value: &BlendMode) -> bool {
    *value == BlendMode::Normal
}

impl Graphic {
    /// A graphic with no transform: the source's pivot at `position`.
    pub fn new(source: GraphicSource, position: Point, origin: Origin) -> Graphic {
        Graphic {
            source,
            position,
            origin,
            flip_h: false,
            flip_v: false,
            rotation: 0.0,
            scale_x: 1.0,
            scale_y: 1.0,
            opacity: OPAQUE,
            blend: BlendMode::Normal,
        }
    }

    /// True when the graphic has no rotation, scale, opacity or blend.
    pub fn is_plain(&self) -> bool {
        self.rotation == 0.0
            && self.scale_x == 1.0
            && self.scale_y == 1.0
            && self.opacity == OPAQUE
            && self.blend == BlendMode::Normal
    }
}

/// A named point where another sprite or an item can be attached.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AttachmentPoint {
    /// The format's own number for the point (ISPRITE attachment id); opaque.
    #[serde(default, skip_serializing_if = "is_zero_u16")]
    pub point_id: u16,
    /// Position in sprite space.
    pub position: Point,
    /// Angle in degrees, clockwise on screen.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rotation: f64,
    /// Horizontal scale given to what hangs here.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub scale_x: f64,
    /// Vertical scale given to what hangs here.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub scale_y: f64,
    /// Mirror what hangs here left-right.
    #[serde(default, skip_serializing_if = "is_false")]
    pub flip_h: bool,
    /// Mirror what hangs here top-bottom.
    #[serde(default, skip_serializing_if = "is_false")]
    pub flip_v: bool,
    /// Opacity given to what hangs here.
    #[serde(default = "opaque", skip_serializing_if = "is_opaque")]
    pub opacity: u16,
}

impl AttachmentPoint {
    /// A point with no transform.
    pub fn at(position: Point) -> AttachmentPoint {
        AttachmentPoint {
            point_id: 0,
            position,
            rotation: 0.0,
            scale_x: 1.0,
            scale_y: 1.0,
            flip_h: false,
            flip_v: false,
            opacity: OPAQUE,
        }
    }
}

/// What a collision box is for.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum BoxClass {
    /// Deals damage (AIR Clsn1, drawn red).
    Hit,
    /// Can be hit (AIR Clsn2, drawn blue).
    Hurt,
    /// Any other use, by name (ISPRITE collision objects are told apart by name).
    Custom(String),
}

impl BoxClass {
    /// A short label for the user interface.
    pub fn label(&self) -> &str {
        match self {
            BoxClass::Hit => "hit (Clsn1)",
            BoxClass::Hurt => "hurt (Clsn2)",
            BoxClass::Custom(name) => name,
        }
    }

    /// Sprat's own word for the class, the same in every format: "hit", "hurt", or a named
    /// class as written (history labels and messages that do not know the format).
    pub fn name(&self) -> &str {
        match self {
            BoxClass::Hit => "hit",
            BoxClass::Hurt => "hurt",
            BoxClass::Custom(name) => name,
        }
    }
}

/// The geometry of a collision box.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    /// `[x, x+width) × [y, y+height)`, rotated clockwise about (x, y).
    Rect {
        /// Left edge before rotation.
        x: Fx,
        /// Top edge before rotation.
        y: Fx,
        /// Width (>= 0).
        width: Fx,
        /// Height (>= 0).
        height: Fx,
        /// Degrees clockwise about the top-left corner.
        #[serde(default, skip_serializing_if = "is_zero")]
        rotation: f64,
    },
    /// A circle.
    Circle {
        /// Centre.
        center: Point,
        /// Radius.
        radius: Fx,
    },
}

impl Shape {
    /// The shape moved by `by`, its size, rotation and corner order unchanged.
    pub fn translated(&self, by: Point) -> Shape {
        match self.clone() {
            Shape::Rect {
                x,
                y,
                width,
                height,
                rotation,
            } => Shape::Rect {
                x: x + by.x,
                y: y + by.y,
                width,
                height,
                rotation,
            },
            Shape::Circle { center, radius } => Shape::Circle {
                center: center + by,
                radius,
            },
        }
    }
}

/// A rectangle shape's numbers in floating point (see [`Shape::Rect`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RectF64 {
    /// Left edge before rotation.
    pub x: f64,
    /// Top edge before rotation.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// Degrees clockwise about the top-left corner.
    pub rotation: f64,
}

/// A shape's numbers in floating point, for geometry that works in `f64` (hit tests, overlaps).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShapeF64 {
    /// A rectangle.
    Rect(RectF64),
    /// A circle: its centre and radius.
    Circle { x: f64, y: f64, radius: f64 },
}

impl Shape {
    /// The shape's numbers in floating point.
    pub fn to_f64(&self) -> ShapeF64 {
        match *self {
            Shape::Rect {
                x,
                y,
                width,
                height,
                rotation,
            } => ShapeF64::Rect(RectF64 {
                x: x.to_f64(),
                y: y.to_f64(),
                width: width.to_f64(),
                height: height.to_f64(),
                rotation,
            }),
            Shape::Circle { center, radius } => ShapeF64::Circle {
                x: center.x.to_f64(),
                y: center.y.to_f64(),
                radius: radius.to_f64(),
            },
        }
    }
}

/// A collision shape with its class.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CollisionBox {
    /// What the box is for.
    pub class: BoxClass,
    /// Its geometry, relative to the sprite's origin (AIR: the frame's axis).
    pub shape: Shape,
    /// The format's own number for the box (ISPRITE collision id); opaque.
    #[serde(default, skip_serializing_if = "is_zero_u16")]
    pub box_id: u16,
    /// The order the file wrote the rectangle's corners in, when it was read from a file that
    /// writes two corners in any order (AIR); `None` for a box made in Sprat, which the writer
    /// gives the order most of the file uses. Moving or copying the box keeps it. It is how
    /// the box is written, not what it is: equality leaves it out.
    #[serde(skip)]
    pub corners: Option<CornerOrder>,
}

/// Which corner of a rectangle a file names first on each axis (AIR's `Clsn` lines give
/// `x1, y1, x2, y2` with either corner first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CornerOrder {
    /// The right edge is written before the left.
    pub right_first: bool,
    /// The bottom edge is written before the top.
    pub bottom_first: bool,
}

impl CornerOrder {
    /// The order of the corners `(x1, y1)` and `(x2, y2)` as written; an axis whose two edges
    /// are equal counts as written in the usual order (left, top first).
    pub fn of(x1: Fx, y1: Fx, x2: Fx, y2: Fx) -> CornerOrder {
        CornerOrder {
            right_first: x1 > x2,
            bottom_first: y1 > y2,
        }
    }
}

impl PartialEq for CollisionBox {
    fn eq(&self, other: &CollisionBox) -> bool {
        // `corners` is left out: the same box written in another corner order is the same box.
        self.class == other.class && self.shape == other.shape && self.box_id == other.box_id
    }
}

impl CollisionBox {
    /// An axis-aligned rectangle from two corners given in any order.
    pub fn rect_from_corners(class: BoxClass, a: Point, b: Point) -> CollisionBox {
        let (x0, x1) = if a.x <= b.x { (a.x, b.x) } else { (b.x, a.x) };
        let (y0, y1) = if a.y <= b.y { (a.y, b.y) } else { (b.y, a.y) };
        CollisionBox {
            class,
            shape: Shape::Rect {
                x: x0,
                y: y0,
                width: x1 - x0,
                height: y1 - y0,
                rotation: 0.0,
            },
            box_id: 0,
            corners: None,
        }
    }
}

impl Element {
    /// The graphic, if this is one.
    pub fn as_graphic(&self) -> Option<&Graphic> {
        match &self.kind {
            ElementKind::Graphic(g) => Some(g),
            _ => None,
        }
    }

    /// The graphic, if this is one, for changing.
    pub fn as_graphic_mut(&mut self) -> Option<&mut Graphic> {
        match &mut self.kind {
            ElementKind::Graphic(g) => Some(g),
            _ => None,
        }
    }

    /// The attachment point, if this is one.
    pub fn as_point(&self) -> Option<&AttachmentPoint> {
        match &self.kind {
            ElementKind::Point(p) => Some(p),
            _ => None,
        }
    }

    /// The collision box, if this is one.
    pub fn as_box(&self) -> Option<&CollisionBox> {
        match &self.kind {
            ElementKind::Box(b) => Some(b),
            _ => None,
        }
    }
}
