//! The pinned reference: one frame of any sequence of any open tab, drawn faintly under the
//! canvas while another frame (of this tab or another) is worked on, lined up by the origin,
//! to draw or place the next frame against it. It is the frame as it was when pinned: pinning
//! again takes it afresh.

use crate::app::context::document::{OpenDocument, box_rule};
use crate::app::context::pictures::{RenderedFrame, render_texture};
use crate::assets::ImageStore;
use crate::render::Scene;

/// The frame pinned, rendered, and what it is.
#[derive(Clone)]
pub struct PinnedReference {
    /// Its picture, placed in sprite space like the frame it was.
    pub picture: RenderedFrame,
    /// "walk, frame 3 of 8 (demo.sprat)".
    pub label: String,
}

impl PinnedReference {
    /// The frame `doc` shows now (the frame itself, not a tween between two), rendered with
    /// the box rule the view uses; a sentence when there is no frame or it draws nothing.
    pub fn of_frame_on_show(
        ctx: &egui::Context,
        doc: &OpenDocument,
        pixels: &ImageStore,
        documented_box_rule: bool,
    ) -> Result<PinnedReference, String> {
        let document = doc.session.document();
        let sequence = doc
            .sequence()
            .ok_or_else(|| "there is no frame on show to pin".to_string())?;
        let (direction, index) = (doc.player.direction(), doc.player.frame_index());
        let count = doc.direction_frames().len();
        let scene = Scene::at(
            document,
            sequence.id,
            direction,
            index,
            box_rule(documented_box_rule),
        )
        .ok_or_else(|| "there is no frame on show to pin".to_string())?;
        let picture = render_texture(ctx, document, &scene, pixels, "reference")
            .ok_or_else(|| format!("frame {} of \"{}\" draws nothing", index + 1, sequence.name))?;
        Ok(PinnedReference {
            picture,
            label: format!(
                "{}, frame {} of {count} ({})",
                sequence.name,
                index + 1,
                doc.display_name()
            ),
        })
    }
}
