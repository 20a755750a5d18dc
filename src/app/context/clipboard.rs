//! The editor's frame clipboard. It belongs to the app, not to a document, so frames copied
//! from one file can be pasted after opening another; pasted frames keep their elements and
//! images where the target can refer to them (see [`crate::edit::clipboard`]).

use crate::app::context::document::{FrameLayoutChange, OpenDocument, box_rule};
use crate::app::context::settings::Settings;
use crate::edit::clipboard::{FrameClipboard, PasteFrames};
use crate::edit::paste_special::{PastePart, PasteSpecial};

/// Frames copied with where they came from.
#[derive(Clone, Debug)]
pub struct CopiedFrames {
    /// The frames and what they draw from.
    pub frames: FrameClipboard,
    /// "sequence in file", for the status bar.
    pub origin: String,
}

/// What was copied last, if anything.
#[derive(Default)]
pub struct AppClipboard {
    /// The copied frames.
    pub content: Option<CopiedFrames>,
}

impl AppClipboard {
    /// Copies the selected cells; returns what to tell the user.
    pub fn copy(&mut self, doc: &OpenDocument) -> Result<String, String> {
        let positions = doc.selected_frames();
        if positions.is_empty() {
            return Err("select the frames to copy in the timeline first".to_string());
        }
        let frames = FrameClipboard::copy(
            doc.session.document(),
            doc.player.sequence(),
            doc.player.direction(),
            &positions,
        )
        .map_err(|e| e.message)?;
        let name = doc.sequence().map(|s| s.name.clone()).unwrap_or_default();
        let origin = format!("\"{name}\" in {}", doc.display_name());
        let text = format!("Copied {} from {origin}", count_text(frames.frames.len()));
        self.content = Some(CopiedFrames { frames, origin });
        Ok(text)
    }

    /// Pastes after the last selected cell (at the end when none is selected).
    pub fn paste(&self, doc: &mut OpenDocument) -> Result<String, String> {
        let Some(content) = &self.content else {
            return Err("the frame clipboard is empty; copy frames first".to_string());
        };
        if doc.sequence().is_none() {
            return Err("no sequence is selected".to_string());
        }
        if let Some(why) = doc.frame_layout_refusal(FrameLayoutChange::Paste) {
            return Err(why);
        }
        let index = doc
            .selected_frames()
            .last()
            .map_or(doc.direction_frames().len(), |last| last + 1);
        let command = PasteFrames {
            clipboard: content.frames.clone(),
            sequence: doc.player.sequence(),
            direction: doc.player.direction(),
            index,
        };
        doc.apply(&command, None)?;
        Ok(format!(
            "Pasted {} from {}",
            count_text(content.frames.frames.len()),
            content.origin
        ))
    }
}

impl AppClipboard {
    /// Paste special: only the timing, the boxes or the points of the copied frames onto the
    /// selected cells, as one undo step; returns what to tell the user.
    pub fn paste_part(
        &self,
        doc: &mut OpenDocument,
        settings: &Settings,
        part: PastePart,
    ) -> Result<String, String> {
        let Some(content) = &self.content else {
            return Err("the frame clipboard is empty; copy frames first".to_string());
        };
        let capabilities = doc.session.format().capabilities();
        let what = match part {
            PastePart::Timing => "timing",
            PastePart::Boxes => "boxes",
            PastePart::Points => "points",
        };
        let cannot_hold = match part {
            PastePart::Timing => None,
            PastePart::Boxes => (!capabilities.boxes).then_some("collision boxes"),
            PastePart::Points => (!capabilities.points).then_some("attachment points"),
        };
        if let Some(kind) = cannot_hold {
            return Err(format!("{} files cannot hold {kind}", doc.format_name()));
        }
        if part == PastePart::Timing && !capabilities.per_frame_durations {
            return Err(format!(
                "{} files hold one duration per sequence, not one per frame: use Edit > Retime",
                doc.format_name()
            ));
        }
        let positions = doc.selected_frames();
        if positions.is_empty() {
            return Err(format!(
                "select the frames to paste the {what} onto in the timeline first"
            ));
        }
        let command = PasteSpecial {
            clipboard: content.frames.clone(),
            part,
            sequence: doc.player.sequence(),
            direction: doc.player.direction(),
            positions: positions.clone(),
            rule: box_rule(settings.view.documented_default_box_rule),
            default_boxes: capabilities.default_boxes,
        };
        doc.apply(&command, None)?;
        Ok(format!(
            "Pasted the {what} of {} from {} onto {}",
            count_text(content.frames.frames.len()),
            content.origin,
            count_text(positions.len())
        ))
    }
}

fn count_text(count: usize) -> String {
    crate::text::count(count, "frame")
}
