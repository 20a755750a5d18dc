//! Which inspector fields the open file's format can hold. A field the format cannot write is
//! shown disabled, with a hover text saying why, instead of letting an edit vanish on save.
//!
//! Every answer comes from the format's [`Capabilities`]; the editor never asks a format's name.

use crate::formats::{Capabilities, Format};

/// An inspector field whose support depends on the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// A sequence's follow-up.
    FollowUp,
    /// A sequence's own frame rate.
    SequenceFrameRate,
    /// A sequence disappearing after its last frame.
    Disappear,
    /// One frame's own duration (rather than one delay for the whole sequence).
    FrameDuration,
    /// A frame's label, triggers and notes.
    FrameText,
    /// A frame's interpolation flags.
    Interpolation,
    /// Rotation, scale and opacity of graphics and points.
    Transforms,
    /// A graphic's blend mode.
    Blending,
    /// A box's rotation.
    BoxRotation,
    /// A circular box.
    Circles,
    /// Sub-pixel positions.
    Subpixel,
    /// More than one direction per sequence.
    Directions,
    /// A sequence's human title (M.U.G.E.N: the comment line above the action).
    SequenceTitle,
    /// Where one frame's graphic sits against the origin (a Solarus direction has one origin
    /// for all its frames).
    GraphicPlacement,
    /// Which picture one frame's graphic shows (a Solarus frame N shows cell N of its grid).
    GraphicSource,
}

/// What a format can hold, for the inspector.
#[derive(Clone, Copy, Debug)]
pub struct Support {
    name: &'static str,
    capabilities: Capabilities,
}

impl Support {
    /// What `format` can hold.
    pub fn of_format(format: &'static dyn Format) -> Support {
        Support {
            name: format.name(),
            capabilities: format.capabilities(),
        }
    }

    /// Why this field cannot be edited in this format, or `None` when it can.
    pub fn why_not(&self, field: Field) -> Option<String> {
        let c = &self.capabilities;
        let holds = match field {
            Field::FollowUp => c.follow_ups,
            Field::SequenceFrameRate => c.sequence_frame_rate,
            Field::Disappear => c.disappear_at_end,
            Field::FrameDuration => c.per_frame_durations,
            Field::FrameText => c.frame_text,
            Field::Interpolation => c.interpolation,
            Field::Transforms => c.transforms,
            Field::Blending => c.blending,
            Field::BoxRotation => c.rotated_boxes,
            Field::Circles => c.circles,
            Field::Subpixel => c.subpixel,
            Field::Directions => c.directions,
            Field::SequenceTitle => c.sequence_titles,
            Field::GraphicPlacement => !c.one_origin_per_direction,
            Field::GraphicSource => !c.frames_are_grid_cells,
        };
        if holds {
            return None;
        }
        let what = match field {
            Field::FollowUp => "has no follow-up sequences",
            Field::SequenceFrameRate => "has no frame rate per sequence",
            Field::Disappear => "always holds the last frame",
            Field::FrameDuration => "keeps one delay per animation (set it on the sequence)",
            Field::FrameText => "has no frame labels, triggers or notes",
            Field::Interpolation => "does not interpolate between frames",
            Field::Transforms => "has no rotation, scale or opacity here",
            Field::Blending => "has no blend modes",
            Field::BoxRotation => "has no rotated boxes",
            Field::Circles => "has no circular boxes",
            Field::Subpixel => "keeps whole pixels only",
            Field::Directions => "has one direction per sequence",
            Field::SequenceTitle => "has no titles beside sequence names",
            Field::GraphicPlacement => {
                "keeps one origin for all the frames of a direction (drag the graphic on the canvas to move them all)"
            }
            Field::GraphicSource => {
                "shows the direction's cells in order, one a frame (Insert frame adds the next)"
            }
        };
        Some(format!("{} {what}.", self.name))
    }

    /// A box class as the format's users know it ("hurt (Clsn2)" on M.U.G.E.N, "hurt"
    /// elsewhere).
    pub fn box_class_label(&self, class: &crate::model::BoxClass) -> String {
        self.capabilities.box_class_label(class)
    }

    /// True when the field can be edited.
    pub fn holds(&self, field: Field) -> bool {
        self.why_not(field).is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::registry;

    #[test]
    fn solarus_keeps_one_delay_and_no_frame_text() {
        let solarus = Support::of_format(registry().by_id("solarus-lua").unwrap());
        assert!(!solarus.holds(Field::FrameDuration));
        assert!(!solarus.holds(Field::FrameText));
        assert!(!solarus.holds(Field::FollowUp));
        let why = solarus.why_not(Field::FrameText).unwrap();
        assert!(why.contains("labels"), "{why}");
    }

    #[test]
    fn the_sprat_format_holds_everything() {
        let sprat = Support::of_format(registry().by_id("sprat").unwrap());
        for field in [
            Field::FollowUp,
            Field::SequenceFrameRate,
            Field::Disappear,
            Field::FrameDuration,
            Field::FrameText,
            Field::Interpolation,
            Field::Transforms,
            Field::Blending,
            Field::BoxRotation,
            Field::Circles,
            Field::Subpixel,
            Field::Directions,
            Field::SequenceTitle,
        ] {
            assert!(sprat.holds(field), "{field:?}");
        }
    }

    #[test]
    fn air_interpolates_but_has_no_circles() {
        let air = Support::of_format(registry().by_id("mugen-air").unwrap());
        assert!(air.holds(Field::Interpolation));
        assert!(!air.holds(Field::Circles));
        assert!(!air.holds(Field::Disappear));
        assert!(!air.holds(Field::Directions));
        assert!(air.holds(Field::SequenceTitle));
    }
}
