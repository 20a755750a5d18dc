//! The document model: an animation set as the editor holds it, free of any file format and
//! of any user interface.
//!
//! Reading order: [`set`] (the whole document), [`sequence`], [`frame`], [`element`], then the
//! small value types ([`fixed`], [`timing`], [`ids`]) and the box rule ([`boxes`]).

pub mod boxes;
pub mod element;
pub mod fixed;
pub mod fixtures;
pub mod frame;
pub mod ids;
pub mod name;
pub mod play_order;
pub mod sequence;
pub mod set;
pub mod timing;

pub use boxes::{BoxOrigin, DefaultBoxRule, EffectiveBox, effective_boxes};
pub use element::{
    AttachmentPoint, BlendMode, BoxClass, CollisionBox, CornerOrder, Element, ElementKind, Graphic,
    GraphicSource, OPAQUE, Origin, RectF64, Shape, ShapeF64,
};
pub use fixed::{Fx, Point};
pub use frame::{BoxDeclaration, BoxScope, Frame, Interpolation};
pub use ids::*;
pub use name::Name;
pub use play_order::PlayDirection;
pub use sequence::{Direction, EndBehavior, Sequence};
pub use set::{
    AnimationSet, EditedFile, Group, ImageKind, MemoryImage, Metadata, OriginalSource,
    PaletteSource, PixelRect, Slice, SourceImage, Timestamp, TreeItem,
};
pub use timing::{ExactTime, FrameDuration, TICKS_PER_SECOND, TimeUnit};
