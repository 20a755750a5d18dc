//! What Delete removes now, and the rule that keeps a format's last frames: an Aseprite file
//! holds at least one frame, so the tree item holding every frame left cannot be deleted.
//! [`UICommand::availability`](crate::app::context::commands::UICommand::availability) asks
//! [`keeps_the_last_frames`], so the menu, the Delete key, the tree's context menu and the
//! command handler refuse it alike, with one sentence.

use crate::app::context::availability::Reason;
use crate::app::context::document::{FrameLayoutChange, OpenDocument};
use crate::app::context::tree_row::RowKind;
use crate::model::SequenceId;

/// What Delete removes: the selected elements on the canvas, else the selected frames, else
/// the tree item the tree commands act on. The shell decides it once for both the question
/// whether Delete applies and the deletion itself.
#[derive(Clone, Debug, PartialEq)]
pub enum Deletion {
    /// The selected elements on the frame on show.
    Elements,
    /// The frames selected in the timeline.
    Frames,
    /// The tree item the tree commands act on (none when the document has no sequence).
    TreeItem(Option<RowKind>),
}

/// Refuses deleting `item` where the document's format needs a frame in its files (see
/// [`Capabilities::needs_a_frame`](crate::formats::Capabilities::needs_a_frame)) and every
/// direction with frames left is in `item`.
pub fn keeps_the_last_frames(doc: &OpenDocument, item: &RowKind) -> Result<(), Reason> {
    if !doc.session.format().capabilities().needs_a_frame {
        return Ok(());
    }
    let document = doc.session.document();
    let inside = |sequence: SequenceId, direction: usize| match *item {
        RowKind::Group(group) => document.group_path(sequence).iter().any(|g| g.id == group),
        RowKind::Sequence(id) => id == sequence,
        RowKind::Direction(id, d) => id == sequence && d == direction,
    };
    let mut with_frames = document.sequences().into_iter().flat_map(|sequence| {
        let directions = sequence.directions.iter().enumerate();
        directions
            .filter(|(_, d)| !d.frames.is_empty())
            .map(move |(index, _)| (sequence.id, index))
    });
    let mut any = false;
    let holds_them_all = with_frames.all(|(sequence, direction)| {
        any = true;
        inside(sequence, direction)
    });
    if !(any && holds_them_all) {
        return Ok(());
    }
    Err(Reason::FormatCannotHold(format!(
        "{} files hold at least one frame: this {} has the last ones",
        doc.format_name(),
        item.noun()
    )))
}

/// Refuses deleting the frames selected in the timeline where the format lays a direction's
/// frames out as cells of one picture and they are not the last ones, or where they are every
/// frame the document has left and its format needs a frame.
pub fn keeps_the_selected_frames(doc: &OpenDocument) -> Result<(), Reason> {
    let selected = doc.selected_frames();
    if let Some(why) = doc.frame_layout_refusal(FrameLayoutChange::Delete(&selected)) {
        return Err(Reason::FormatCannotHold(why));
    }
    if selected.len() < doc.direction_frames().len() {
        return Ok(());
    }
    let direction = RowKind::Direction(doc.player.sequence(), doc.player.direction());
    keeps_the_last_frames(doc, &direction).map_err(|_| {
        Reason::FormatCannotHold(format!(
            "{} files hold at least one frame: these are the last ones",
            doc.format_name()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::Format;
    use crate::model::{AnimationSet, DirectionId, Frame, FrameId, Group, GroupId, Sequence};
    use crate::model::{FrameDuration, TreeItem};

    /// A group of sequences in `format`, sequence `n` with `frames[n]` frames in its one
    /// direction.
    fn document_in(format: &'static dyn Format, frames: &[usize]) -> (OpenDocument, GroupId) {
        let mut set = AnimationSet::new();
        let group = GroupId(set.alloc_id());
        let mut items = Vec::new();
        for (n, count) in frames.iter().enumerate() {
            let id = SequenceId(set.alloc_id());
            let mut sequence = Sequence::new(id, format!("s{n}"), DirectionId(set.alloc_id()));
            for _ in 0..*count {
                let frame = FrameId(set.alloc_id());
                set.frames
                    .insert(frame, Frame::new(FrameDuration::Millis(100)));
                sequence.directions[0].frames.push(frame);
            }
            items.push(TreeItem::Sequence(sequence));
        }
        set.root.items.push(TreeItem::Group(Group {
            id: group,
            name: "all".to_string(),
            items,
        }));
        (OpenDocument::new(set, None, format, Vec::new()), group)
    }

    fn sequence(doc: &OpenDocument, n: usize) -> SequenceId {
        doc.session.document().sequences()[n].id
    }

    #[test]
    fn the_item_holding_every_frame_left_is_kept_where_the_format_needs_a_frame() {
        let aseprite = &crate::formats::aseprite::AsepriteFormat;
        let (doc, group) = document_in(aseprite, &[0, 2]);
        let why = keeps_the_last_frames(&doc, &RowKind::Sequence(sequence(&doc, 1)));
        assert_eq!(
            why,
            Err(Reason::FormatCannotHold(
                "Aseprite sprite files hold at least one frame: this sequence has the last ones"
                    .into()
            ))
        );
        let in_direction = RowKind::Direction(sequence(&doc, 1), 0);
        assert!(keeps_the_last_frames(&doc, &in_direction).is_err());
        let in_group = keeps_the_last_frames(&doc, &RowKind::Group(group));
        assert!(in_group.is_err_and(|why| why.text().ends_with("this group has the last ones")));
        // The empty sequence may go.
        let empty = RowKind::Sequence(sequence(&doc, 0));
        assert_eq!(keeps_the_last_frames(&doc, &empty), Ok(()));
    }

    #[test]
    fn an_item_may_go_where_frames_stay_elsewhere_or_the_format_needs_none() {
        let aseprite = &crate::formats::aseprite::AsepriteFormat;
        let (doc, _) = document_in(aseprite, &[1, 2]);
        let first = RowKind::Sequence(sequence(&doc, 0));
        assert_eq!(keeps_the_last_frames(&doc, &first), Ok(()));
        let (doc, group) = document_in(&crate::formats::sprat::SpratFormat, &[0, 2]);
        let last = RowKind::Sequence(sequence(&doc, 1));
        assert_eq!(keeps_the_last_frames(&doc, &last), Ok(()));
        assert_eq!(keeps_the_last_frames(&doc, &RowKind::Group(group)), Ok(()));
    }
}
