//! Every [`UICommand`] carried out, in one exhaustive match, with the small helpers that run
//! a change on the player, the canvas or the document on show.

use crate::app::canvas::{self, tools::Tool};
use crate::app::shell::app::{CentreTab, SpratApp, active_tab_in};
use crate::app::shell::commands::UICommand;
use crate::app::shell::dialogs::DialogOutcome;
use crate::app::tree::edit::{EditOutcome, EditScope};
use crate::app::{import, timeline, tree};
use crate::formats::{Severity, registry};
use crate::model::AnimationSet;

impl SpratApp {
    /// Carries out a command.
    pub fn execute(&mut self, ctx: &egui::Context, command: UICommand) {
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
                match self.dialogs.pick_file_to_open(&extensions) {
                    DialogOutcome::Chosen(path) => self.open_path(ctx, path),
                    DialogOutcome::Cancelled => {}
                    DialogOutcome::Unavailable => {
                        self.say(
                            Severity::Warning,
                            "No file dialog can be shown on this desktop; type the path instead.",
                        );
                        self.path_field.get_or_insert_with(String::new);
                    }
                }
            }
            UICommand::OpenPath => {
                self.path_field.get_or_insert_with(String::new);
            }
            UICommand::OpenDemo => self.open_demo(),
            UICommand::Save => self.save(),
            UICommand::SaveAs => {
                if let Some(tab) = self.active_tab_mut() {
                    tab.save_as.start(&tab.open);
                }
            }
            UICommand::Export => {
                if let Some(tab) = self.active_tab_mut() {
                    tab.export.start(&tab.open);
                }
            }
            UICommand::Import => self.import_files(ctx),
            UICommand::Undo => {
                if let Some(open) = self.open_mut()
                    && !open.undo()
                {
                    self.say(Severity::Info, "Nothing to undo.");
                }
            }
            UICommand::Redo => {
                if let Some(open) = self.open_mut()
                    && !open.redo()
                {
                    self.say(Severity::Info, "Nothing to redo.");
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
                layout.sheet = !layout.sheet;
                self.centre = if layout.sheet {
                    CentreTab::Sheet
                } else {
                    CentreTab::Canvas
                };
            }
            UICommand::ToggleDiagnostics => layout.diagnostics = !layout.diagnostics,
            UICommand::ToggleGrid => view.pixel_grid = !view.pixel_grid,
            UICommand::ToggleOnionSkin => view.onion_skin = !view.onion_skin,
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
            UICommand::CircleTool => match self.open() {
                Some(open) if !open.session.format().capabilities().circles => {
                    let said = format!("{} files cannot hold circles", open.format_name());
                    self.say_refused(&said);
                }
                _ => self.on_canvas(|canvas| canvas.tools.choose(Tool::Box, true)),
            },
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
                if let Some(open) = self.open_mut() {
                    open.select_neighbour_direction(-1);
                }
            }
            UICommand::NextDirection => {
                if let Some(open) = self.open_mut() {
                    open.select_neighbour_direction(1);
                }
            }
            UICommand::Rename => self.edit(tree::edit::rename_current),
            UICommand::DeleteSelection => self.edit(tree::edit::delete_selection),
            UICommand::Duplicate => self.edit(tree::edit::duplicate_selection),
            UICommand::CopyFrames => self.edit(|s| s.clipboard.copy(s.open).map(Some)),
            UICommand::CutFrames => self.edit(|s| s.clipboard.cut(s.open).map(Some)),
            UICommand::PasteFrames => self.edit(|s| s.clipboard.paste(s.open).map(Some)),
            UICommand::InsertFrame => {
                self.edit(|s| timeline::edit::insert_frame(s.open).map(|_| None))
            }
            UICommand::AddSequence => {
                self.edit(|s| tree::edit::add_sequence(s.open, s.tree).map(|_| None))
            }
            UICommand::AddGroup => {
                self.edit(|s| tree::edit::add_group(s.open, s.tree).map(|_| None))
            }
            UICommand::AddDirection => {
                self.edit(|s| tree::edit::add_direction(s.open, s.tree).map(|_| None))
            }
            UICommand::SetDefaultSequence => self.edit(tree::edit::set_default_sequence),
            UICommand::SelectAllElements => self.edit(|s| {
                canvas::select_all_elements(s.open, s.settings);
                Ok(None)
            }),
            UICommand::ClearElementSelection => self.edit(|s| {
                s.open.clear_elements();
                Ok(None)
            }),
        }
    }

    /// Runs `change` on the player of the document on show, if any.
    pub(super) fn on_player(
        &mut self,
        change: impl FnOnce(&mut crate::playback::Player, &AnimationSet),
    ) {
        if let Some(open) = self.open_mut() {
            change(&mut open.player, open.session.document());
        }
    }

    /// Runs `change` on the canvas of the tab on show, if any.
    pub(super) fn on_canvas(&mut self, change: impl FnOnce(&mut canvas::CanvasState)) {
        if let Some(tab) = self.active_tab_mut() {
            change(&mut tab.canvas);
        }
    }

    /// Shows the sequence `step` rows away among those the tree's filter lets through.
    pub(super) fn neighbour_sequence(&mut self, step: isize) {
        if let Some(tab) = self.active_tab_mut() {
            let filter = tab.tree.filter.clone();
            tab.open.select_neighbour_sequence(&filter, step);
        }
    }

    /// Opens the Import window of the tab on show and asks for the files to import.
    pub(super) fn import_files(&mut self, ctx: &egui::Context) {
        let dialogs = self.dialogs.as_mut();
        let Some(tab) = active_tab_in(&mut self.documents, self.active) else {
            return;
        };
        if let Some((severity, text)) = import::start(ctx, &mut tab.import, dialogs) {
            self.say(severity, text);
        }
    }

    /// Carries out an editing command on the document on show (nothing without one) and says
    /// what came of it.
    pub(super) fn edit(&mut self, edit: impl FnOnce(EditScope) -> EditOutcome) {
        let Some(id) = self.active_tab_id() else {
            return;
        };
        let Some(tab) = self.documents.iter_mut().find(|t| t.id == id) else {
            return;
        };
        let outcome = edit(EditScope {
            open: &mut tab.open,
            tree: &mut tab.tree,
            tools: &tab.canvas.tools,
            settings: &self.settings,
            clipboard: &mut self.frame_clipboard,
        });
        match outcome {
            Ok(Some(text)) => self.say(Severity::Info, text),
            Ok(None) => {}
            Err(message) => self.say_refused(&message),
        }
    }
}
