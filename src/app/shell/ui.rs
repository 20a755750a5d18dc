//! The frame: [`eframe::App`] for [`SpratApp`]: the menu bar, tab bar and status bar, the
//! panels of the document on show, then the windows, in the order they paint.

use crate::app::canvas;
use crate::app::context::command_sender::CommandSender;
use crate::app::context::commands::UICommand;
use crate::app::context::feedback::Feedback;
use crate::app::context::panel::{PanelCtx, PanelOutput};
use crate::app::context::pictures::Pictures;
use crate::app::context::settings;
use crate::app::context::tab_id::TabId;
use crate::app::shell::app::{CentreTab, SpratApp, active_tab_in};
use crate::app::shell::backdrop::on_panel_colour;
use crate::app::shell::document_tab::DocumentTab;
use crate::app::shell::status_bar;
use crate::app::shell::{menus, new_document, restore_backup, save_as, tabs};
use crate::app::{
    align, diagnostics, export, import, inspector, retime, sheet, sprites, timeline, tree,
};
use crate::assets::ImageStore;
use crate::formats::Severity;

impl SpratApp {
    /// Keeps every open document's diagnostics equal to `sprat check`'s: a check starts in
    /// the background when a document has changed (opened, edited, saved, reloaded), and its
    /// result is taken when it has ended.
    fn keep_documents_checked(&mut self, ctx: &egui::Context) {
        let options = check_options(&self.settings);
        let read = crate::formats::ReadOptions {
            aseprite_layers: self.settings.aseprite_layers,
            ..Default::default()
        };
        for tab in &mut self.documents {
            tab.doc
                .keep_checked(self.platform.as_ref(), &options, &read, &self.pixels, ctx);
        }
    }

    /// Says why a file to hang a sequence from could not be read, once its read has ended
    /// (whichever view is on show).
    pub(super) fn hang_file_read(&mut self) {
        let Some(tab) = active_tab_in(&mut self.documents, self.active) else {
            return;
        };
        if let Some(Err(message)) = tab.canvas.tools.hang.take_read_file() {
            self.say(Severity::Error, message);
        }
    }

    /// Takes what the panels gave back: their commands, to carry out, and what they said.
    fn take_output(&mut self, output: PanelOutput, commands: &mut CommandSender) {
        commands.append(output.commands);
        if let Some(feedback) = output.feedback {
            self.status = Some(feedback);
        }
    }

    /// Puts what the last edit, undo or redo of the document on show did in the status bar,
    /// unless something was said after it (a command's own sentence, with more to say, or a
    /// save). Edits of other tabs are not told.
    fn tell_what_was_done(&mut self, ctx: &egui::Context) {
        let active = self.active;
        let mut told = None;
        for tab in &mut self.documents {
            let done = tab.doc.take_done_sentence();
            if Some(tab.id) == active {
                told = done;
            }
        }
        self.keep_box_roles();
        let Some(done) = told else {
            return;
        };
        if self.status.as_ref().is_none_or(|said| said.at < done.at) {
            self.status = Some(Feedback {
                at: done.at,
                ..Feedback::new(Severity::Info, done.text)
            });
            ctx.request_repaint();
        }
    }

    /// Keeps the hit and hurt box names the user gave the document on show in the settings,
    /// by its file's path.
    fn keep_box_roles(&mut self) {
        let Some(doc) = active_tab_in(&mut self.documents, self.active).map(|t| &t.doc) else {
            return;
        };
        if let Some(path) = doc.path()
            && self.settings.box_roles_of(path) != doc.box_roles
        {
            self.settings.remember_box_roles(path, &doc.box_roles);
        }
    }

    pub(super) fn update_title(&mut self, ctx: &egui::Context) {
        let title = match self.active_document() {
            Some(doc) => doc.title(),
            None => "Sprat".to_string(),
        };
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    pub(super) fn history_window(&mut self, ctx: &egui::Context) {
        let show = &mut self.show_history;
        let Some(doc) = active_tab_in(&mut self.documents, self.active).map(|t| &mut t.doc) else {
            return;
        };
        if let Some(done) = menus::history_window(ctx, show, doc.session.history()) {
            doc.jump_to(done);
        }
    }

    /// The windows of the tab on show that edit its document: Export, Import, Retime and
    /// Align frames, each given the same panel context (the last to speak is heard).
    pub(super) fn document_windows(&mut self, ctx: &egui::Context) {
        let Some(tab) = active_tab_in(&mut self.documents, self.active) else {
            return;
        };
        let pictures = Pictures {
            textures: &mut self.textures,
            pixels: &self.pixels,
        };
        let mut panel = PanelCtx::new(
            &mut tab.doc,
            &mut self.settings,
            pictures,
            self.platform.as_mut(),
        );
        export::window(ctx, &mut tab.export, &mut panel);
        import::dialog::show(ctx, &mut tab.import, &mut panel);
        retime::window(ctx, &mut tab.retime, &mut panel);
        align::window(ctx, &mut tab.align, &mut panel);
        let output = panel.out;
        self.take_output(output, &mut CommandSender::default());
    }

    /// The panels of the document in tab `id`: diagnostics, timeline, tree, inspector and the
    /// canvas, sheet or sprites, all inside the tab's own widget id scope, on one
    /// [`PanelCtx`].
    pub(super) fn document_panels(
        &mut self,
        ui: &mut egui::Ui,
        id: TabId,
        commands: &mut CommandSender,
    ) {
        let Some(tab) = self.documents.iter_mut().find(|t| t.id == id) else {
            return;
        };
        let scope = tab.widget_scope();
        let panel_frame = self.backdrop.side_panel_frame(ui.style());
        let DocumentTab {
            doc,
            tree,
            timeline,
            canvas,
            sheet,
            sprites,
            inspector,
            align,
            ..
        } = tab;
        // The Align window painted last frame: what it would move shows faint on the canvas.
        canvas.ghost = align.ghost(doc);
        // Panels start at sizes that leave the canvas room in a small window or at a large UI
        // scale (a 1280x800 window at scale 2 is 640x400 points), and cannot be dragged wider
        // than a share of it.
        let room = ui.available_size();
        timeline::edit::sync_with_player(doc, timeline);
        self.textures
            .begin_frame(doc.identity, doc.revision, &self.pixels);
        self.textures
            .set_memory(self.settings.picture_memory, &self.pixels);
        let pictures = Pictures {
            textures: &mut self.textures,
            pixels: &self.pixels,
        };
        let mut panel = PanelCtx::new(doc, &mut self.settings, pictures, self.platform.as_mut());
        panel.reference = self.reference.as_ref();
        if panel.settings.layout.timeline {
            let sizes = (150.0f32.min(room.y * 0.3), room.y * 0.5);
            let bottom = egui::Panel::bottom("timeline");
            let shown = tab_panel(
                ui,
                bottom.frame(panel_frame),
                sizes,
                (scope, "timeline"),
                |ui| timeline::show(ui, timeline, &mut panel),
            );
            // A sprite dragged from the browser and let go over the timeline becomes a frame.
            if let Some(drag) = shown
                .response
                .dnd_release_payload::<crate::app::context::drag::SpriteDrag>()
                && let Err(message) = timeline::edit::insert_sprite_frame(panel.doc, *drag)
            {
                panel.refuse(&message);
            }
        }
        // Above the timeline, not below it: the background check's answer comes when it comes,
        // and a panel that appears must not move the cells under the user's pointer.
        // Notes alone (a file's layers composited, a ping-pong tag spelled out) do not take
        // room from the canvas unless asked for: warnings and errors do.
        let listed = panel.doc.has_problems()
            || panel.doc.notes_shown && !panel.doc.diagnostics().is_empty();
        if panel.settings.layout.diagnostics && listed {
            let sizes = (110.0f32.min(room.y * 0.15), room.y * 0.4);
            let bottom = egui::Panel::bottom("diagnostics");
            tab_panel(
                ui,
                bottom.frame(panel_frame),
                sizes,
                (scope, "diagnostics"),
                |ui| diagnostics::show(ui, &mut panel),
            );
        }
        if panel.settings.layout.tree {
            let sizes = (240.0f32.min(room.x * 0.22), room.x * 0.35);
            tab_panel(
                ui,
                egui::Panel::left("tree").frame(panel_frame),
                sizes,
                (scope, "tree"),
                |ui| tree::show(ui, tree, &mut panel),
            );
        }
        if panel.settings.layout.inspector {
            let sizes = (360.0f32.min(room.x * 0.3), room.x * 0.4);
            let right = egui::Panel::right("inspector");
            tab_panel(
                ui,
                right.frame(panel_frame),
                sizes,
                (scope, "inspector"),
                |ui| inspector::show(ui, inspector, &mut panel),
            );
        }
        let centre = &mut self.centre;
        let backdrop = &self.backdrop;
        egui::CentralPanel::no_frame().show(ui, |ui| {
            in_tab_scope(ui, scope, "centre", |ui| {
                // The panel's colour behind the strips above the view, painted once the view
                // has taken its place: not under the canvas, whose background covers it (with
                // software GL, a layer fewer over most of the window, thirty times a second),
                // nor where the window was cleared to it.
                let strips = ui.painter().add(egui::Shape::Noop);
                let area = ui.max_rect();
                // The views this document has: the preview always, the source sheet when
                // asked for or where its frames come from, the sprites when it has an archive
                // of them.
                let has_sprites = !sprites::browser::archives(panel.doc).is_empty();
                let sheet_shown = sheet::tab_shown(panel.settings.layout.sheet, Some(panel.doc));
                if (*centre == CentreTab::Sheet && !sheet_shown)
                    || (*centre == CentreTab::Sprites && !has_sprites)
                {
                    *centre = CentreTab::Canvas;
                }
                if sheet_shown || has_sprites {
                    ui.horizontal_wrapped(|ui| {
                        ui.selectable_value(centre, CentreTab::Canvas, "Preview");
                        if sheet_shown {
                            ui.selectable_value(centre, CentreTab::Sheet, "Source sheet");
                        }
                        if has_sprites {
                            ui.selectable_value(centre, CentreTab::Sprites, "Sprites");
                        }
                    });
                }
                let covered = match centre {
                    CentreTab::Canvas => {
                        canvas::show(ui, canvas, &mut panel);
                        canvas.last_rect
                    }
                    CentreTab::Sheet => {
                        sheet::show(ui, sheet, &mut panel);
                        None
                    }
                    CentreTab::Sprites => {
                        sprites::browser::show(ui, sprites, &mut panel);
                        None
                    }
                };
                let fill = backdrop.panel_fill(ui.visuals());
                ui.painter().set(
                    strips,
                    egui::Shape::rect_filled(uncovered(area, covered), 0.0, fill),
                );
            })
        });
        let output = panel.out;
        self.take_output(output, commands);
        self.hang_file_read();
    }
}

/// What of `area` a view's own background leaves to the panel colour: the part above
/// `covered` when it takes the whole width down to the bottom (the canvas), else all of it.
fn uncovered(area: egui::Rect, covered: Option<egui::Rect>) -> egui::Rect {
    match covered {
        Some(view)
            if view.left() <= area.left()
                && view.right() >= area.right()
                && view.bottom() >= area.bottom()
                && view.top() > area.top() =>
        {
            egui::Rect::from_min_max(area.min, egui::pos2(area.max.x, view.top()))
        }
        _ => area,
    }
}

/// Runs `add_contents` in a Ui whose id is the tab's `scope` and the `panel`'s name alone.
/// egui numbers widgets by what was added before them; a panel that comes and goes (the
/// diagnostics, when a background check answers) would otherwise renumber every widget after
/// it, and a press before it came and a release after it would land on two different widgets.
fn in_tab_scope<R>(
    ui: &mut egui::Ui,
    scope: (&'static str, u64),
    panel: &'static str,
    add_contents: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    ui.scope_builder(
        egui::UiBuilder::new().scope_id(egui::Id::unique((scope, panel))),
        add_contents,
    )
    .inner
}

/// A resizable side or bottom panel of the tab on show, at `default` size and `max` at most,
/// its contents in the tab's scope for `panel` (see [`in_tab_scope`]) on the panel colour the
/// window was cleared to (see [`on_panel_colour`]).
fn tab_panel<R>(
    ui: &mut egui::Ui,
    side: egui::Panel,
    (default, max): (f32, f32),
    (scope, panel): ((&'static str, u64), &'static str),
    add_contents: impl FnOnce(&mut egui::Ui) -> R,
) -> egui::InnerResponse<R> {
    side.resizable(true)
        .default_size(default)
        .max_size(max)
        .show(ui, |ui| {
            in_tab_scope(ui, scope, panel, |ui| on_panel_colour(ui, add_contents))
        })
}

/// What the editor's checks go by: everything `sprat check` gives, boxes inheriting defaults
/// by the preview's rule (so the warnings speak of what the canvas shows; with the default
/// settings it is `sprat check`'s).
pub(super) fn check_options(settings: &settings::Settings) -> crate::check::CheckOptions {
    crate::check::CheckOptions {
        rule: crate::app::context::document::box_rule(settings.view.documented_default_box_rule),
        ..crate::check::CheckOptions::default()
    }
}

impl eframe::App for SpratApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        crate::app::shell::font_sampling::sample_fonts_nearest(&ctx, frame);
        // On the glow backend, played paletted sprites go to the GPU as indices.
        self.textures.use_gl(frame.gl());
        // One line per paint with `RUST_LOG=sprat::app::shell::ui=debug`: how the paints of
        // a playing animation are counted in the real window (see the README's Speed).
        log::debug!("paint at {:.3} s", ctx.input(|i| i.time));
        self.settings.appearance.apply(&ctx);
        if std::mem::take(&mut self.return_memory) {
            crate::app::context::allocator::return_freed_memory();
        }
        if std::mem::take(&mut self.leave_focus) {
            // Focus is in the widgets of a tab no longer on show (each tab has its own ids).
            ctx.memory_mut(|m| m.stop_text_input());
        }
        self.poll_pending(&ctx);
        self.stop_if_asked(&ctx);
        self.guard_close(&ctx);
        self.handle_dropped_files(&ctx);

        self.advance_playback(&ctx);

        let mut commands = CommandSender::default();
        for command in UICommand::pressed(&ctx) {
            commands.send_ui(command);
        }
        // Left and Right step frames unless they nudge what is selected on the canvas.
        let settings = &self.settings;
        if !self
            .active_document()
            .is_some_and(|doc| canvas::has_selection_on_frame(doc, settings))
        {
            for command in UICommand::pressed_arrows(&ctx) {
                commands.send_ui(command);
            }
        }
        if self.handle_space(&ctx) {
            commands.send_ui(UICommand::PlayPause);
        }

        let playing = self
            .active_document()
            .is_some_and(|o| o.player.is_playing());
        let tab_entries = tabs::entries(&self.documents, self.active);
        let active = self.active;
        let pinned = self.reference.is_some();
        let deletion = self.deletion();
        let panel_frame = self.backdrop.side_panel_frame(ui.style());
        let menu = egui::Panel::top("menu bar")
            .frame(panel_frame)
            .show(ui, |ui| {
                let doc = active
                    .and_then(|id| self.documents.iter().find(|t| t.id == id))
                    .map(|t| &t.doc);
                let state = menus::MenuState {
                    tabs: &tab_entries,
                    playing,
                    pinned,
                    deletion,
                };
                menus::show(ui, &mut self.settings, doc, state)
            })
            .inner;
        commands.append(menu);
        if !tab_entries.is_empty() {
            egui::Panel::top("tabs").frame(panel_frame).show(ui, |ui| {
                on_panel_colour(ui, |ui| tabs::tab_bar(ui, &tab_entries, &mut commands))
            });
        }
        self.offer_documents_to_hang(&tab_entries);

        let status = egui::Panel::bottom("status bar")
            .frame(panel_frame)
            .show(ui, |ui| {
                let tab = self.active_tab();
                status_bar::show(
                    ui,
                    self.status.as_ref(),
                    tab.map(|t| &t.doc),
                    tab.and_then(|t| t.canvas.hover_pixel),
                    tab.map_or(1.0, |t| t.canvas.zoom),
                )
            })
            .inner;
        if status.toggle_diagnostics {
            commands.send_ui(UICommand::ToggleDiagnostics);
        }

        match self.active {
            Some(id) => self.document_panels(ui, id, &mut commands),
            None => {
                let frame = self.backdrop.central_panel_frame(ui.style());
                egui::CentralPanel::default().frame(frame).show(ui, |ui| {
                    ui.centered_and_justified(|ui| {
                        ui.heading("Open an animation with File > Open, or drop a file here.");
                    });
                });
            }
        }

        // Every panel has painted: the inspector has said what is being typed for the
        // document on show before a tab change, and a field has given its typed value to what
        // it was typed for before a click selects something else.
        self.execute_all(&ctx, commands.take());
        self.schedule_next_picture(&ctx);
        self.path_field_window(&ctx);
        if let Some(format) = new_document::show(&ctx, &mut self.new_document) {
            self.install(new_document::empty_document(format));
            self.say(
                Severity::Info,
                format!(
                    "A new {} document; saving asks where to put it.",
                    format.name()
                ),
            );
        }
        self.loading_window(&ctx);
        let pixels: &ImageStore = &self.pixels;
        let platform = self.platform.as_mut();
        let said = active_tab_in(&mut self.documents, self.active).and_then(|tab| {
            let said = save_as::show(&ctx, &mut tab.save_as, Some(&mut tab.doc), platform, pixels);
            if tab.save_as.take_reloaded() {
                // Read again: the notice of the change is answered too.
                tab.changed_on_disk = false;
                tab.changed_files.clear();
            }
            said
        });
        if let Some(feedback) = said {
            self.status = Some(feedback);
        }
        let restored = active_tab_in(&mut self.documents, self.active)
            .and_then(|tab| restore_backup::show(&ctx, &mut tab.restore_backup, &mut tab.doc));
        if let Some(feedback) = restored {
            self.status = Some(feedback);
        }
        self.document_windows(&ctx);
        self.go_on_after_save(&ctx);
        self.confirm_discard_window(&ctx);
        self.tick_sessions(&ctx);
        self.keep_documents_checked(&ctx);
        self.recovery_window(&ctx);
        self.changed_on_disk_window(&ctx);
        self.history_window(&ctx);
        menus::shortcuts_window(&ctx, &mut self.show_shortcuts);
        self.forget_message_of_closed_window();
        self.tell_what_was_done(&ctx);
        self.update_title(&ctx);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, settings::STORAGE_KEY, &self.settings);
    }

    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        self.backdrop.clear_color(visuals)
    }
}

#[cfg(test)]
mod tests {
    use super::uncovered;
    use egui::{Rect, pos2};

    #[test]
    fn the_panel_colour_goes_above_a_canvas_and_behind_any_other_view() {
        let area = Rect::from_min_max(pos2(240.0, 50.0), pos2(920.0, 645.0));
        let canvas = Rect::from_min_max(pos2(240.0, 142.0), area.max);
        assert_eq!(
            uncovered(area, Some(canvas)),
            Rect::from_min_max(area.min, pos2(920.0, 142.0))
        );
        // A view that leaves a margin, or none at all: the whole area.
        let inset = canvas.shrink(4.0);
        assert_eq!(uncovered(area, Some(inset)), area);
        assert_eq!(uncovered(area, None), area);
    }
}
