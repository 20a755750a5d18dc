//! What a target format cannot hold, named precisely.

use std::fmt;

/// Where in the document a lost thing is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Place {
    /// The sequence's name, if the loss is inside one.
    pub sequence: Option<String>,
    /// The direction index.
    pub direction: Option<usize>,
    /// The frame index within the direction.
    pub frame: Option<usize>,
    /// The element: its name or kind and index.
    pub element: Option<String>,
}

impl Place {
    /// The whole document.
    pub fn document() -> Place {
        Place::default()
    }

    /// A sequence.
    pub fn sequence(name: &str) -> Place {
        Place {
            sequence: Some(name.to_string()),
            ..Place::default()
        }
    }

    /// A frame of a sequence.
    pub fn frame(sequence: &str, direction: usize, frame: usize) -> Place {
        Place {
            sequence: Some(sequence.to_string()),
            direction: Some(direction),
            frame: Some(frame),
            element: None,
        }
    }

    /// The same place, narrowed to an element.
    pub fn element(mut self, element: impl Into<String>) -> Place {
        self.element = Some(element.into());
        self
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(s) = &self.sequence {
            parts.push(format!("sequence \"{s}\""));
        }
        if let Some(d) = self.direction {
            parts.push(format!("direction {d}"));
        }
        if let Some(fr) = self.frame {
            parts.push(format!("frame {fr}"));
        }
        if let Some(e) = &self.element {
            parts.push(e.clone());
        }
        if parts.is_empty() {
            f.write_str("document")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

/// One thing the target format cannot hold.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Loss {
    /// Where it is.
    pub place: Place,
    /// What is lost, as a plain phrase ("per-frame duration 70 ms (the animation keeps 100 ms)").
    pub what: String,
}

impl Loss {
    /// A loss at a place.
    pub fn new(place: Place, what: impl Into<String>) -> Loss {
        Loss {
            place,
            what: what.into(),
        }
    }
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.what)
    }
}

/// The sequence titles of `document` (M.U.G.E.N's comment names), for a format that holds none.
pub fn title_losses(document: &crate::model::AnimationSet) -> impl Iterator<Item = Loss> + '_ {
    document.sequences().into_iter().filter_map(|sequence| {
        sequence.title.as_ref().map(|title| {
            Loss::new(
                Place::sequence(&sequence.name),
                format!("the title \"{title}\""),
            )
        })
    })
}

/// A frame's label, triggers and notes, each a loss at `place`, for a format that holds none.
pub fn frame_text_losses(place: &Place, frame: &crate::model::Frame) -> Vec<Loss> {
    frame_text_losses_worded(place, frame, its_text)
}

/// The usual words for a lost frame text: `its label "..."` (`what` is "label", "triggers" or
/// "notes").
pub fn its_text(what: &str, text: &str) -> String {
    format!("its {what} \"{text}\"")
}

/// A frame's label, triggers and notes, each a loss at `place` in the words `phrase` gives it
/// (from what it is and its text), for a format that holds none.
pub fn frame_text_losses_worded(
    place: &Place,
    frame: &crate::model::Frame,
    phrase: impl Fn(&str, &str) -> String,
) -> Vec<Loss> {
    [
        (&frame.label, "label"),
        (&frame.triggers, "triggers"),
        (&frame.notes, "notes"),
    ]
    .into_iter()
    .filter(|(text, _)| !text.is_empty())
    .map(|(text, what)| Loss::new(place.clone(), phrase(what, text)))
    .collect()
}

/// A frame's text (worded by `phrase`, as in [`frame_text_losses_worded`]), interpolation and
/// box declarations, each a loss at `place`, for a format that holds none of them.
pub fn frame_extra_losses(
    place: &Place,
    frame: &crate::model::Frame,
    phrase: impl Fn(&str, &str) -> String,
) -> Vec<Loss> {
    let mut losses = frame_text_losses_worded(place, frame, phrase);
    if !frame.interpolation.is_none() {
        losses.push(Loss::new(place.clone(), "interpolation between frames"));
    }
    if !frame.box_declarations.is_empty() {
        losses.push(Loss::new(place.clone(), "collision box declarations"));
    }
    losses
}

/// The picture files no frame shows (a sheet added to cut frames from), for a format whose
/// files name only the pictures their frames show: each a loss of the document.
pub fn unused_picture_losses(document: &crate::model::AnimationSet) -> Vec<Loss> {
    use crate::model::{GraphicSource, ImageKind};
    let shown: std::collections::HashSet<crate::model::ImageId> = document
        .frames
        .values()
        .flat_map(|frame| frame.elements.iter().filter_map(|e| e.as_graphic()))
        .filter_map(|graphic| match &graphic.source {
            GraphicSource::Image(id) => Some(*id),
            GraphicSource::Slice(id) => document
                .slices
                .iter()
                .find(|s| s.id == *id)
                .map(|s| s.image),
            _ => None,
        })
        .collect();
    document
        .images
        .iter()
        .filter(|image| image.kind == ImageKind::File && !shown.contains(&image.id))
        .map(|image| {
            Loss::new(
                Place::document(),
                format!(
                    "the picture \"{}\", which no frame shows (the file names only the pictures its frames show)",
                    image.path
                ),
            )
        })
        .collect()
}

#[cfg(test)]
mod unused_picture_tests {
    use super::*;
    use crate::model::{ImageId, ImageKind, SourceImage, fixtures::long_sequence};

    #[test]
    fn only_a_picture_no_frame_shows_is_named() {
        let mut document = long_sequence(2);
        assert!(
            unused_picture_losses(&document).is_empty(),
            "the sheet is shown"
        );
        let id = ImageId(document.alloc_id());
        document.images.push(SourceImage {
            id,
            path: "added.png".into(),
            resolved: None,
            kind: ImageKind::File,
            nearest_neighbour: true,
        });
        let losses: Vec<String> = unused_picture_losses(&document)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            losses,
            [
                "document: the picture \"added.png\", which no frame shows (the file names only the pictures its frames show)"
            ]
        );
    }
}
