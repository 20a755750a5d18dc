//! Every [`UICommand`] and [`SystemCommand`] carried out, each in one exhaustive match, with
//! the small helpers that run a change on the player, the canvas or the document on show.

use crate::app::canvas::tools::ToolState;
use crate::app::canvas::{self, tools::Tool};
use crate::app::context::availability::{CommandView, Reason};
use crate::app::context::command_sender::{Command, SystemCommand};
use crate::app::context::commands::UICommand;
use crate::app::context::deletion::Deletion;
use crate::app::context::document::{FrameLayoutChange, OpenDocument};
use crate::app::context::edit::{EditOutcome, EditScope};
use crate::app::context::feedback::{Feedback, PathWindow};
use crate::app::context::platform::DialogOutcome;
use crate::app::context::reference::PinnedReference;
use crate::app::context::settings::Settings;
use crate::app::shell::app::{CentreTab, SpratApp, active_tab_in};
use crate::app::shell::document_tab::DocumentTab;
use crate::app::tree::rows::TreeState;
use crate::app::{import, sheet, timeline, tree};
use crate::edit::paste_special::PastePart;
use crate::formats::{Severity, registry};
use crate::model::AnimationSet;

impl SpratApp {
    /// What the commands need to know to say whether they apply (see
    /// [`UICommand::availability`]).
    pub fn command_view(&self) -> CommandView<'_> {
        CommandView {
            doc: self.active_document(),
            reference_pinned: self.reference.is_some(),
            deletion: self.deletion(),
        }
    }

    /// What Delete removes in the tab on show, if a tab is open.
    pub(super) fn deletion(&self) -> Option<Deletion> {
        let tab = self.active_tab()?;
        Some(deletion(&tab.doc, &self.settings, &tab.tree))
    }

    /// Carries out a command, or says why it does not apply now.
    pub fn execute(&mut self, ctx: &egui::Context, command: UICommand) {
        // A refusal holds until the next thing the user does.
        if self.status.as_ref().is_some_and(|s| s.refused_at.is_some()) {
            self.status = None;
        }
        if let Err(why) = command.availability(&self.command_view()) {
            self.say_unavailable(why);
            return;
        }
        let layout = &mut self.settings.layout;
        let view = &mut self.settings.view;
        match command {
            UICommand::NewDocument => {
                self.new_document.get_or_insert_with(Default::default);
            }
            UICommand::Open => {
                let extensions: Vec<&str> = registry()
                    .formats()
                    .filter(|f| f.capabilities().read)
                    .flat_map(|f| f.extensions().iter().copied())
                    .collect();
                match self.platform.dialogs().pick_file_to_open(&extensions) {
                    DialogOutcome::Chosen(path) => self.open_path(ctx, path),
                    DialogOutcome::Cancelled => {}
                    DialogOutcome::Unavailable => {
                        self.status = Some(Feedback::no_file_dialog(PathWindow::Open));
                        self.path_field.get_or_insert_with(String::new);
                    }
                }
            }
            UICommand::OpenPath => {
                self.path_field.get_or_insert_with(String::new);
            }
            UICommand::OpenDemo => self.open_demo(),
            UICommand::Save => self.save(),
            UICommand::SaveAs => self.on_active_tab(|tab| tab.save_as.start(&tab.doc)),
            UICommand::Export => self.on_active_tab(|tab| tab.export.start(&tab.doc)),
            UICommand::Import => self.import_files(ctx),
            UICommand::RestoreBackup => self.on_active_tab(|tab| tab.restore_backup.open(&tab.doc)),
            UICommand::Undo => {
                if let Some(doc) = self.active_document_mut() {
                    doc.undo();
                }
            }
            UICommand::Redo => {
                if let Some(doc) = self.active_document_mut() {
                    doc.redo();
                }
            }
            UICommand::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            UICommand::CloseTab => {
                if let Some(tab) = self.active {
                    self.request_close_tab(tab);
                }
            }
            UICommand::NextTab => self.step_tab(1),
            UICommand::PreviousTab => self.step_tab(-1),
            UICommand::ToggleTree => layout.tree = !layout.tree,
            UICommand::ToggleInspector => layout.inspector = !layout.inspector,
            UICommand::ToggleTimeline => layout.timeline = !layout.timeline,
            UICommand::ToggleSheet => {
                let always = active_tab_in(&mut self.documents, self.active)
                    .is_some_and(|t| sheet::frames_come_from_sheets(&t.doc));
                if always {
                    // The tab stays: the command goes to it, or back to the preview.
                    self.centre = if self.centre == CentreTab::Sheet {
                        CentreTab::Canvas
                    } else {
                        CentreTab::Sheet
                    };
                } else {
                    layout.sheet = !layout.sheet;
                    self.centre = if layout.sheet {
                        CentreTab::Sheet
                    } else {
                        CentreTab::Canvas
                    };
                }
            }
            UICommand::ToggleDiagnostics => {
                let doc = active_tab_in(&mut self.documents, self.active).map(|t| &mut t.doc);
                match doc {
                    // Notes only: they show when asked for, and go when asked again.
                    Some(doc) if !doc.has_problems() && !doc.diagnostics().is_empty() => {
                        doc.notes_shown = !(doc.notes_shown && layout.diagnostics);
                        layout.diagnostics = true;
                    }
                    _ => layout.diagnostics = !layout.diagnostics,
                }
            }
            UICommand::ToggleGrid => view.pixel_grid = !view.pixel_grid,
            UICommand::ToggleOnionSkin => view.onion_skin = !view.onion_skin,
            UICommand::PinReference => self.pin_reference(ctx),
            UICommand::UnpinReference => {
                if let Some(reference) = self.reference.take() {
                    let said = format!("Unpinned the reference {}.", reference.label);
                    self.say(Severity::Info, said);
                }
            }
            UICommand::ToggleOverlay => view.overlay = !view.overlay,
            UICommand::ToggleFacingLeft => view.facing_left = !view.facing_left,
            UICommand::ToggleProportionalTimeline => {
                view.proportional_timeline = !view.proportional_timeline
            }
            UICommand::ZoomIn => self.on_canvas(|canvas| canvas.zoom_step(true)),
            UICommand::ZoomOut => self.on_canvas(|canvas| canvas.zoom_step(false)),
            UICommand::ZoomFit => self.on_canvas(|canvas| canvas.fit_requested = true),
            UICommand::ZoomActualSize => self.on_canvas(|canvas| canvas.actual_size()),
            UICommand::ShowShortcuts => self.show_shortcuts = !self.show_shortcuts,
            UICommand::ShowHistory => self.show_history = !self.show_history,
            UICommand::FocusFilter => {
                self.settings.layout.tree = true;
                if let Some(tab) = self.active_tab_mut() {
                    tab.tree.focus_filter = true;
                }
            }
            UICommand::SelectTool => {
                self.on_canvas(|canvas| canvas.tools.choose(Tool::Select, false))
            }
            UICommand::BoxTool => self.on_canvas(|canvas| canvas.tools.choose(Tool::Box, false)),
            UICommand::CircleTool => self.on_canvas(|canvas| canvas.tools.choose(Tool::Box, true)),
            UICommand::PointTool => {
                self.on_canvas(|canvas| canvas.tools.choose(Tool::Point, false))
            }
            UICommand::PlayPause => self.on_player(|player, document| player.toggle(document)),
            UICommand::StepBack => self.on_player(|player, document| player.step_back(document)),
            UICommand::StepForward => {
                self.on_player(|player, document| player.step_forward(document))
            }
            UICommand::FirstFrame => {
                self.on_player(|player, document| player.seek_frame(document, 0))
            }
            UICommand::LastFrame => {
                self.on_player(|player, document| player.seek_frame(document, usize::MAX))
            }
            UICommand::ToggleLoop => self.on_player(|player, _| {
                player.set_looping(!player.looping());
            }),
            UICommand::FasterSpeed => self.on_player(|player, _| {
                player.set_speed_milli(timeline::transport::next_speed(player.speed_milli(), true));
            }),
            UICommand::SlowerSpeed => self.on_player(|player, _| {
                player
                    .set_speed_milli(timeline::transport::next_speed(player.speed_milli(), false));
            }),
            UICommand::ResetSpeed => self.on_player(|player, _| player.set_speed_milli(1000)),
            UICommand::PreviousSequence => self.neighbour_sequence(-1),
            UICommand::NextSequence => self.neighbour_sequence(1),
            UICommand::PreviousDirection => {
                if let Some(doc) = self.active_document_mut() {
                    doc.select_neighbour_direction(-1);
                }
            }
            UICommand::NextDirection => {
                if let Some(doc) = self.active_document_mut() {
                    doc.select_neighbour_direction(1);
                }
            }
            UICommand::Rename => self.edit(|s, panels| {
                tree::edit::rename_current(s.doc, panels.tree);
                Ok(None)
            }),
            UICommand::DeleteSelection => self.edit(delete_selection),
            UICommand::Duplicate => self.edit(duplicate_selection),
            UICommand::CopyFrames => self.edit(|s, _| s.clipboard.copy(s.doc).map(Some)),
            UICommand::CutFrames => self.edit(|s, _| cut_frames(s).map(Some)),
            UICommand::PasteFrames => self.edit(|s, _| s.clipboard.paste(s.doc).map(Some)),
            UICommand::PasteTiming => self.paste_part(PastePart::Timing),
            UICommand::PasteBoxes => self.paste_part(PastePart::Boxes),
            UICommand::PastePoints => self.paste_part(PastePart::Points),
            UICommand::Retime => self.on_active_tab(|tab| tab.retime.start(&tab.doc)),
            UICommand::AlignFrames => self.on_active_tab(|tab| tab.align.start(&tab.doc)),
            UICommand::InsertFrame => {
                self.edit(|s, _| timeline::edit::insert_frame(s.doc).map(|_| None))
            }
            UICommand::AddSequence => {
                self.edit(|s, panels| tree::edit::add_sequence(s.doc, panels.tree).map(|_| None))
            }
            UICommand::AddGroup => {
                self.edit(|s, panels| tree::edit::add_group(s.doc, panels.tree).map(|_| None))
            }
            UICommand::AddDirection => {
                self.edit(|s, panels| tree::edit::add_direction(s.doc, panels.tree).map(|_| None))
            }
            UICommand::SetDefaultSequence => {
                self.edit(|s, _| tree::edit::set_default_sequence(s.doc).map(|_| None))
            }
            UICommand::SelectAllElements => self.edit(|s, _| {
                canvas::select_all_elements(s.doc, s.settings);
                Ok(None)
            }),
            UICommand::ClearElementSelection => self.edit(|s, _| {
                s.doc.clear_elements();
                Ok(None)
            }),
        }
    }

    /// Carries out the commands given this pass, in the order given, once every panel has
    /// painted.
    pub(super) fn execute_all(&mut self, ctx: &egui::Context, commands: Vec<Command>) {
        for command in commands {
            match command {
                Command::Ui(command) => self.execute(ctx, command),
                Command::System(command) => self.apply(ctx, command),
            }
        }
    }

    /// Carries out a command that carries what it acts on: a file to open, a tab, a loop
    /// point, a click that selects. Applied once every panel has painted, so a field painted
    /// after the click, which applies its typed value when the click leaves it, gives it to
    /// what it was typed for.
    pub fn apply(&mut self, ctx: &egui::Context, command: SystemCommand) {
        // What the click selects is painted at the next pass.
        ctx.request_repaint();
        match command {
            SystemCommand::OpenFile(path) => self.open_path(ctx, path),
            SystemCommand::ShowTab(tab) => self.show_tab(tab),
            SystemCommand::CloseTab(tab) => self.request_close_tab(tab),
            SystemCommand::SetLoopPoint(loop_point) => {
                let Some(doc) = self.active_document_mut() else {
                    return;
                };
                if let Err(why) = timeline::edit::set_loop_point(doc, loop_point) {
                    self.say_refused(&why);
                }
            }
            SystemCommand::SelectCell { index, modifiers } => {
                if let Some(tab) = self.active_tab_mut()
                    && index < tab.doc.direction_frames().len()
                {
                    timeline::edit::click_cell(&mut tab.doc, &mut tab.timeline, index, modifiers);
                }
            }
            SystemCommand::SelectRow(row) => {
                self.on_active_tab(|tab| tree::edit::select_row(&mut tab.doc, &mut tab.tree, &row))
            }
            SystemCommand::SelectElement { element, adding } => {
                if let Some(doc) = self.active_document_mut() {
                    match adding {
                        true => doc.toggle_element(element),
                        false => doc.select_element(element),
                    }
                }
            }
            SystemCommand::SelectSprite { number, modifiers } => {
                self.on_active_tab(|tab| tab.sprites.click(number, modifiers))
            }
        }
    }

    /// Says why a command does not apply: a sentence when there is nothing for it to act on,
    /// a refused edit when the document's format cannot hold what it would make.
    fn say_unavailable(&mut self, why: Reason) {
        match why {
            Reason::NothingToActOn(text) => self.say(Severity::Info, format!("{text}.")),
            Reason::FormatCannotHold(text) => self.say_refused(&text),
        }
    }

    /// Paste special: one part of the copied frames onto the selected frames.
    fn paste_part(&mut self, part: PastePart) {
        self.edit(|s, _| s.clipboard.paste_part(s.doc, s.settings, part).map(Some));
    }

    /// Runs `change` on the player of the document on show, if any.
    pub(super) fn on_player(
        &mut self,
        change: impl FnOnce(&mut crate::playback::Player, &AnimationSet),
    ) {
        if let Some(doc) = self.active_document_mut() {
            change(&mut doc.player, doc.session.document());
        }
    }

    /// Runs `act` on the tab on show, if any.
    fn on_active_tab(&mut self, act: impl FnOnce(&mut DocumentTab)) {
        if let Some(tab) = self.active_tab_mut() {
            act(tab);
        }
    }

    /// Runs `change` on the canvas of the tab on show, if any.
    pub(super) fn on_canvas(&mut self, change: impl FnOnce(&mut canvas::CanvasState)) {
        self.on_active_tab(|tab| change(&mut tab.canvas));
    }

    /// Shows the sequence `step` rows away among those the tree's filter lets through.
    pub(super) fn neighbour_sequence(&mut self, step: isize) {
        if let Some(tab) = self.active_tab_mut() {
            let filter = tab.tree.filter.clone();
            tab.doc.select_neighbour_sequence(&filter, step);
        }
    }

    /// Pins the frame on show as the reference drawn under the canvas of every tab.
    fn pin_reference(&mut self, ctx: &egui::Context) {
        let documented = self.settings.view.documented_default_box_rule;
        let Some(doc) = self.active_document() else {
            return;
        };
        match PinnedReference::of_frame_on_show(ctx, doc, &self.pixels, documented) {
            Ok(reference) => {
                let said = format!(
                    "Pinned {} as the reference; View > Unpin reference lets it go.",
                    reference.label
                );
                self.reference = Some(reference);
                self.say(Severity::Info, said);
            }
            Err(why) => self.say(Severity::Warning, format!("Cannot pin a reference: {why}.")),
        }
    }

    /// Opens the Import window of the tab on show and asks for the files to import.
    pub(super) fn import_files(&mut self, ctx: &egui::Context) {
        let platform = self.platform.as_mut();
        let Some(tab) = active_tab_in(&mut self.documents, self.active) else {
            return;
        };
        if let Some(feedback) = import::start(ctx, &mut tab.import, platform) {
            self.status = Some(feedback);
        }
    }

    /// Carries out an editing command on the document on show (nothing without one) and says
    /// what came of it.
    pub(super) fn edit(&mut self, edit: impl FnOnce(EditScope, TabPanels) -> EditOutcome) {
        let Some(id) = self.active_tab_id() else {
            return;
        };
        let Some(tab) = self.documents.iter_mut().find(|t| t.id == id) else {
            return;
        };
        let scope = EditScope {
            doc: &mut tab.doc,
            settings: &self.settings,
            clipboard: &mut self.frame_clipboard,
        };
        let panels = TabPanels {
            tree: &mut tab.tree,
            tools: &tab.canvas.tools,
        };
        let outcome = edit(scope, panels);
        match outcome {
            Ok(Some(text)) => self.say(Severity::Info, text),
            Ok(None) => {}
            Err(message) => self.say_refused(&message),
        }
    }
}

/// The panels of the tab on show that an editing command may act on besides the document.
pub(super) struct TabPanels<'a> {
    /// The tree's state (the row commands act on, renaming).
    tree: &'a mut TreeState,
    /// The canvas tools (which inherited boxes an element edit touches).
    tools: &'a ToolState,
}

/// What Delete removes: the selected elements on the canvas, else the selected frames, else
/// the tree node.
fn deletion(doc: &OpenDocument, settings: &Settings, tree: &TreeState) -> Deletion {
    // Most passes have no element selected: the boxes in force are not worked out then.
    if !doc.selected_elements().is_empty() && canvas::has_selection_on_frame(doc, settings) {
        Deletion::Elements
    } else if !doc.selected_frames().is_empty() {
        Deletion::Frames
    } else {
        Deletion::TreeItem(tree::edit::current_node(doc, tree))
    }
}

/// Delete: removes what [`deletion`] says.
fn delete_selection(scope: EditScope, panels: TabPanels) -> EditOutcome {
    let EditScope { doc, settings, .. } = scope;
    match deletion(doc, settings, panels.tree) {
        Deletion::Elements => canvas::delete_selected_elements(doc, settings, panels.tools)?,
        Deletion::Frames => timeline::edit::delete_frames(doc)?,
        Deletion::TreeItem(_) => tree::edit::delete_node(doc, panels.tree)?,
    }
    Ok(None)
}

/// Ctrl+D: the selected frames, else the tree node.
fn duplicate_selection(scope: EditScope, panels: TabPanels) -> EditOutcome {
    if !scope.doc.selected_frames().is_empty() {
        timeline::edit::duplicate_frames(scope.doc)?;
    } else {
        tree::edit::duplicate_node(scope.doc, panels.tree)?;
    }
    Ok(None)
}

/// Copies the selected cells and deletes them (one undo step: the delete).
fn cut_frames(scope: EditScope) -> Result<String, String> {
    let cells = scope.doc.selected_frames();
    if let Some(why) = scope
        .doc
        .frame_layout_refusal(FrameLayoutChange::Delete(&cells))
    {
        return Err(why);
    }
    let copied = scope.clipboard.copy(scope.doc)?;
    timeline::edit::delete_frames(scope.doc)?;
    Ok(copied.replacen("Copied", "Cut", 1))
}
