//! Whether each [`UICommand`] applies now, and why not, in one place.
//!
//! The menus grey out an item that does not apply and give the reason as its hover text; the
//! command handler carries out no command that does not apply (from a shortcut, a menu, a
//! panel's button or context menu) and says the reason in the status bar instead. Aseprite
//! gives each command an `onEnabled`; here one exhaustive match answers for every command.

use crate::app::context::commands::UICommand;
use crate::app::context::deletion::{Deletion, keeps_the_last_frames, keeps_the_selected_frames};
use crate::app::context::document::OpenDocument;
use crate::formats::Capabilities;

/// What a command needs to know to say whether it applies: the document on show (its
/// history, its format's capabilities), whether a reference is pinned and what Delete removes.
#[derive(Clone, Default)]
pub struct CommandView<'a> {
    /// The document of the tab on show, if a tab is open.
    pub doc: Option<&'a OpenDocument>,
    /// A frame is pinned as the reference drawn under the canvas.
    pub reference_pinned: bool,
    /// What Delete removes, where the asker knows it (the shell, the tree's context menu);
    /// `None` asks nothing of Delete's rules.
    pub deletion: Option<Deletion>,
}

/// Why a command does not apply now, as the user reads it (no final full stop).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// There is nothing for the command to act on: no document is open, nothing to undo, no
    /// reference is pinned. Said as plain information.
    NothingToActOn(String),
    /// The document's format cannot hold what the command would make or change. Said as a
    /// refused edit ("Not changed: …").
    FormatCannotHold(String),
}

impl Reason {
    /// The sentence, without its final full stop (menus show it as hover text).
    pub fn text(&self) -> &str {
        match self {
            Reason::NothingToActOn(text) | Reason::FormatCannotHold(text) => text,
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text())
    }
}

impl UICommand {
    /// `Ok` when the command applies to `view`, else why not. Menus, shortcuts, panel buttons
    /// and the command handler all go by this answer.
    pub fn availability(self, view: &CommandView) -> Result<(), Reason> {
        let nothing = |text: &str| Err(Reason::NothingToActOn(text.to_string()));
        match self {
            // Commands that need no document: they open one, or change the editor itself.
            UICommand::NewDocument
            | UICommand::Open
            | UICommand::OpenPath
            | UICommand::OpenDemo
            | UICommand::Quit
            | UICommand::ToggleGrid
            | UICommand::ToggleOnionSkin
            | UICommand::ToggleOverlay
            | UICommand::ToggleFacingLeft
            | UICommand::ToggleProportionalTimeline
            | UICommand::ToggleTree
            | UICommand::ToggleInspector
            | UICommand::ToggleTimeline
            | UICommand::ToggleSheet
            | UICommand::ToggleDiagnostics
            | UICommand::ShowShortcuts => Ok(()),
            // The pinned reference outlives the tab it came from.
            UICommand::UnpinReference if !view.reference_pinned => {
                nothing("No reference is pinned")
            }
            UICommand::UnpinReference => Ok(()),
            // The rest act on the document on show.
            UICommand::Save
            | UICommand::SaveAs
            | UICommand::Import
            | UICommand::Export
            | UICommand::RestoreBackup
            | UICommand::CloseTab
            | UICommand::NextTab
            | UICommand::PreviousTab
            | UICommand::Undo
            | UICommand::Redo
            | UICommand::ShowHistory
            | UICommand::PlayPause
            | UICommand::StepBack
            | UICommand::StepForward
            | UICommand::FirstFrame
            | UICommand::LastFrame
            | UICommand::ToggleLoop
            | UICommand::FasterSpeed
            | UICommand::SlowerSpeed
            | UICommand::ResetSpeed
            | UICommand::PreviousSequence
            | UICommand::NextSequence
            | UICommand::PreviousDirection
            | UICommand::NextDirection
            | UICommand::ZoomIn
            | UICommand::ZoomOut
            | UICommand::ZoomFit
            | UICommand::ZoomActualSize
            | UICommand::PinReference
            | UICommand::FocusFilter
            | UICommand::Rename
            | UICommand::DeleteSelection
            | UICommand::Duplicate
            | UICommand::CopyFrames
            | UICommand::CutFrames
            | UICommand::PasteFrames
            | UICommand::PasteTiming
            | UICommand::PasteBoxes
            | UICommand::PastePoints
            | UICommand::Retime
            | UICommand::AlignFrames
            | UICommand::InsertFrame
            | UICommand::AddSequence
            | UICommand::AddGroup
            | UICommand::AddDirection
            | UICommand::SetDefaultSequence
            | UICommand::SelectTool
            | UICommand::BoxTool
            | UICommand::CircleTool
            | UICommand::PointTool
            | UICommand::SelectAllElements
            | UICommand::ClearElementSelection => match view.doc {
                None => nothing("No document is open"),
                Some(doc) => self.availability_on(doc, view.deletion.as_ref()),
            },
        }
    }

    /// Whether a command that acts on the document on show applies to `doc`, Delete removing
    /// `deletion`.
    fn availability_on(
        self,
        doc: &OpenDocument,
        deletion: Option<&Deletion>,
    ) -> Result<(), Reason> {
        let history = doc.session.history();
        let capabilities = doc.session.format().capabilities();
        let format = doc.format_name();
        let cannot = |text: String| Err(Reason::FormatCannotHold(text));
        let holds = |holds: fn(&Capabilities) -> bool, what: &str| {
            if holds(&capabilities) {
                Ok(())
            } else {
                cannot(format!("{format} files cannot hold {what}"))
            }
        };
        match self {
            UICommand::Undo if !history.can_undo() => {
                Err(Reason::NothingToActOn("Nothing to undo".to_string()))
            }
            UICommand::Redo if !history.can_redo() => {
                Err(Reason::NothingToActOn("Nothing to redo".to_string()))
            }
            UICommand::BoxTool => holds(|c| c.boxes, "boxes"),
            UICommand::CircleTool => holds(|c| c.boxes && c.circles, "circles"),
            UICommand::PointTool => holds(|c| c.points, "attachment points"),
            UICommand::PasteBoxes => holds(|c| c.boxes, "collision boxes"),
            UICommand::PastePoints => holds(|c| c.points, "attachment points"),
            UICommand::PasteTiming if !capabilities.per_frame_durations => cannot(format!(
                "{format} files hold one duration per sequence, not one per frame: use Edit > Retime"
            )),
            UICommand::AddGroup if !capabilities.groups => {
                cannot(format!("{format} files have no groups"))
            }
            UICommand::AddDirection if !capabilities.directions => {
                cannot(format!("{format} sequences have one direction"))
            }
            UICommand::DeleteSelection => match deletion {
                Some(Deletion::TreeItem(Some(item))) => keeps_the_last_frames(doc, item),
                Some(Deletion::Frames) => keeps_the_selected_frames(doc),
                _ => Ok(()),
            },
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::Format;
    use crate::model::{AnimationSet, DirectionId, Sequence, SequenceId, TreeItem};

    /// A document of one sequence in `format`, as opened (nothing to undo).
    fn document_in(format: &'static dyn Format) -> OpenDocument {
        let mut set = AnimationSet::new();
        let id = SequenceId(set.alloc_id());
        let direction = DirectionId(set.alloc_id());
        set.root
            .items
            .push(TreeItem::Sequence(Sequence::new(id, "walk", direction)));
        OpenDocument::new(set, None, format, Vec::new())
    }

    fn unavailable(view: &CommandView) -> Vec<(UICommand, Reason)> {
        UICommand::ALL
            .iter()
            .filter_map(|c| c.availability(view).err().map(|why| (*c, why)))
            .collect()
    }

    #[test]
    fn without_a_document_only_the_commands_that_need_none_apply() {
        let view = CommandView::default();
        for command in UICommand::ALL {
            let answer = command.availability(&view);
            let needs_none = [
                UICommand::NewDocument,
                UICommand::Open,
                UICommand::OpenPath,
                UICommand::OpenDemo,
                UICommand::Quit,
                UICommand::ShowShortcuts,
                UICommand::ToggleGrid,
                UICommand::ToggleOnionSkin,
                UICommand::ToggleOverlay,
                UICommand::ToggleFacingLeft,
                UICommand::ToggleProportionalTimeline,
                UICommand::ToggleTree,
                UICommand::ToggleInspector,
                UICommand::ToggleTimeline,
                UICommand::ToggleSheet,
                UICommand::ToggleDiagnostics,
            ]
            .contains(command);
            match answer {
                Ok(()) => assert!(needs_none, "{command:?} applies without a document"),
                Err(why) => {
                    assert!(!needs_none, "{command:?} refused: {why}");
                    assert!(!why.text().is_empty() && !why.text().ends_with('.'));
                }
            }
        }
    }

    #[test]
    fn a_format_without_boxes_refuses_the_box_commands_saying_why() {
        let doc = document_in(&crate::formats::solarus::SolarusLegacyFormat);
        let view = CommandView {
            doc: Some(&doc),
            ..CommandView::default()
        };
        let refused = unavailable(&view);
        let cannot_hold = |command: UICommand| {
            refused
                .iter()
                .find(|(c, _)| *c == command)
                .map(|(_, why)| why.clone())
        };
        for command in [
            UICommand::BoxTool,
            UICommand::CircleTool,
            UICommand::PasteBoxes,
            UICommand::PointTool,
            UICommand::PastePoints,
        ] {
            let why = cannot_hold(command).unwrap_or_else(|| panic!("{command:?} applies"));
            assert!(
                matches!(&why, Reason::FormatCannotHold(text) if text.starts_with("Solarus") && text.contains("cannot hold")),
                "{command:?}: {why:?}"
            );
        }
        assert_eq!(
            cannot_hold(UICommand::AddGroup),
            Some(Reason::FormatCannotHold(format!(
                "{} files have no groups",
                doc.format_name()
            )))
        );
        // Solarus has directions, but one duration per sequence.
        assert_eq!(cannot_hold(UICommand::AddDirection), None);
        assert!(cannot_hold(UICommand::PasteTiming).is_some());
        assert_eq!(cannot_hold(UICommand::SelectTool), None);
    }

    #[test]
    fn a_format_that_holds_everything_refuses_only_what_has_nothing_to_act_on() {
        let doc = document_in(&crate::formats::sprat::SpratFormat);
        let mut view = CommandView {
            doc: Some(&doc),
            ..CommandView::default()
        };
        let refused: Vec<UICommand> = unavailable(&view).into_iter().map(|(c, _)| c).collect();
        assert_eq!(
            refused,
            vec![UICommand::Undo, UICommand::Redo, UICommand::UnpinReference],
            "a fresh document has no history and no reference is pinned"
        );
        assert_eq!(
            UICommand::Undo.availability(&view),
            Err(Reason::NothingToActOn("Nothing to undo".to_string()))
        );
        view.reference_pinned = true;
        assert_eq!(UICommand::UnpinReference.availability(&view), Ok(()));
    }
}
