//! What is dragged from one panel to another: the payloads egui's drag and drop carries, here
//! so that the panel that starts a drag and the one that takes it need not know each other.

use crate::edit::sprites::SpriteNumber;
use crate::model::ImageId;

/// A sprite dragged from the sprite browser (onto the timeline).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpriteDrag {
    /// The archive.
    pub archive: ImageId,
    /// The sprite.
    pub number: SpriteNumber,
}
