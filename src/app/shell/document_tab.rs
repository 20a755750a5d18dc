//! One open document and everything the editor keeps about it.
//!
//! Each tab owns its document (with its history, selection and player) and the state of every
//! panel that shows it: the tree's folding and filter, the timeline's range and drag, the
//! canvas's zoom, pan, tools and the sequences hung on its points, the sheet view, text being
//! typed in the inspector, a pending Save As, the last export's choices, the Retime and Align
//! windows' choices, an unanswered change on disk and the status bar's last sentence about
//! it. Switching tabs only changes which tab is on show; nothing moves between tabs, and each
//! tab's widgets live in an id scope of their own, so typed text cannot show up in another
//! document.

use crate::app::align::AlignState;
use crate::app::canvas::CanvasState;
use crate::app::context::document::OpenDocument;
use crate::app::context::feedback::Feedback;
use crate::app::context::tab_id::TabId;
use crate::app::export::dialog::ExportState;
use crate::app::import::dialog::ImportState;
use crate::app::inspector::InspectorState;
use crate::app::retime::RetimeState;
use crate::app::sheet::SheetState;
use crate::app::shell::restore_backup::RestoreBackupState;
use crate::app::shell::save_as::SaveAsState;
use crate::app::sprites::state::SpriteBrowser;
use crate::app::timeline::edit::TimelineState;
use crate::app::tree::rows::TreeState;

/// A document in a tab, with its panels' state.
pub struct DocumentTab {
    /// Names the tab while it is open.
    pub id: TabId,
    /// The document, its history, selection and player.
    pub doc: OpenDocument,
    /// The tree's filter, folding, rename and cached rows.
    pub tree: TreeState,
    /// The timeline's range anchor and drag.
    pub timeline: TimelineState,
    /// Zoom and pan, the editing tools with their drag, and the hung sequences.
    pub canvas: CanvasState,
    /// The source-sheet view.
    pub sheet: SheetState,
    /// The sprite browser (documents with an SFF archive).
    pub sprites: SpriteBrowser,
    /// The inspector's drag and the text typed in its fields.
    pub inspector: InspectorState,
    /// The Save As window and its prepared write.
    pub save_as: SaveAsState,
    /// The Export window, its last choices and the export under way.
    pub export: ExportState,
    /// The Import window: the files chosen, read, and how they become frames.
    pub import: ImportState,
    /// The Retime window and its choices.
    pub retime: RetimeState,
    /// The Align frames window, its choices and the plan its ghost shows.
    pub align: AlignState,
    /// A file of the document (its own, or one read with it) changed on disk and the user
    /// has not answered yet.
    pub changed_on_disk: bool,
    /// Which files changed, first seen first (the document's own file, or the `.air` a
    /// `.def` names), until the user answers.
    pub changed_files: Vec<std::path::PathBuf>,
    /// The Restore backup window: the versions listed, the one chosen.
    pub restore_backup: RestoreBackupState,
    /// The status bar's last sentence about this tab, kept while another tab is on show and
    /// said again when this one comes back.
    pub status: Option<Feedback>,
}

impl DocumentTab {
    /// A new tab for `doc`; its frame is fitted to the canvas when first shown.
    pub fn new(id: TabId, doc: OpenDocument) -> DocumentTab {
        DocumentTab {
            id,
            doc,
            tree: TreeState::default(),
            timeline: TimelineState::default(),
            canvas: CanvasState::default(),
            sheet: SheetState::default(),
            sprites: SpriteBrowser::default(),
            inspector: InspectorState::default(),
            save_as: SaveAsState::default(),
            export: ExportState::default(),
            import: ImportState::default(),
            retime: RetimeState::default(),
            align: AlignState::default(),
            changed_on_disk: false,
            changed_files: Vec::new(),
            restore_backup: RestoreBackupState::default(),
            status: None,
        }
    }

    /// The id salt of this tab's widgets (the panels push it before painting).
    pub fn widget_scope(&self) -> (&'static str, u64) {
        ("document tab", self.id.0)
    }
}
