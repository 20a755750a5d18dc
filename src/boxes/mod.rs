//! Box tools over many frames, free of any user interface: the algorithms behind the editor's
//! Boxes menu and `sprat boxes`.
//!
//! Reading order: [`mask`] (a frame's opaque pixels, drawn by the renderer), [`mask_cache`]
//! (those kept by picture, across frames and documents), [`fit`] (one box
//! around them), [`trace`] (a few boxes covering them closely), [`plan`] (those over the frames
//! of a direction), [`matching`] (which box of one frame goes with which of another),
//! [`interpolate`] and [`mirror`] (geometry for in-between and flipped
//! frames), [`roles`] (which boxes are hit and hurt boxes), [`lint`] (warnings about boxes a
//! user can act on). The edit commands that apply
//! them live in [`crate::edit::box_tools`].

pub mod fit;
pub mod interpolate;
pub mod lint;
pub mod mask;
pub mod mask_cache;
pub mod matching;
pub mod mirror;
pub mod plan;
pub mod roles;
#[cfg(test)]
pub(crate) mod test_shapes;
pub mod trace;

pub use interpolate::Easing;
pub use mask::{OpaqueMask, PixelBox, frame_mask};
pub use mask_cache::MaskCache;
pub use mirror::MirrorAxis;
pub use plan::{BoxMethod, plan_boxes};
pub use trace::{TraceOptions, trace};
