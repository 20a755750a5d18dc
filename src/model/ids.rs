//! Stable identifiers for everything a user can select.
//!
//! Ids are plain numbers handed out by [`crate::model::AnimationSet::alloc_id`]. They never
//! change when things around them are edited, so selections and undo steps that name them stay
//! valid. Readers hand them out in file order, so reading the same bytes twice gives the same ids.

use serde::{Deserialize, Serialize};

macro_rules! define_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub u64);

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "#{}", self.0)
            }
        }
    };
}

define_id!(
    /// A group in the hierarchy tree.
    GroupId
);
define_id!(
    /// A sequence (an animation, a MUGEN action).
    SequenceId
);
define_id!(
    /// One direction of a sequence.
    DirectionId
);
define_id!(
    /// A frame; frames may be shared by several sequences.
    FrameId
);
define_id!(
    /// An element of a frame: graphic, attachment point or collision box.
    ElementId
);
define_id!(
    /// A source image (PNG sheet, TGA body part, SFF archive, tileset placeholder).
    ImageId
);
define_id!(
    /// A rectangle on a source image.
    SliceId
);
