//! The menu bar. Every item is a [`UICommand`] (so it shows its shortcut, and is greyed out
//! where it does not apply) except the lists that depend on the document: recent files and open
//! tabs (picked as [`SystemCommand`]s), box classes, backgrounds.

use crate::app::context::availability::CommandView;
use crate::app::context::command_sender::{CommandSender, SystemCommand};
use crate::app::context::commands::UICommand;
use crate::app::context::deletion::Deletion;
use crate::app::context::document::OpenDocument;
use crate::app::context::pictures::PictureMemory;
use crate::app::context::settings::{
    Background, OnionStyle, Settings, Theme, UI_SCALES, ViewSettings,
};
use crate::app::shell::tabs::TabEntry;

/// The menus being painted: what the commands need to know to say whether they apply, and
/// what was picked so far.
struct Menu<'a> {
    view: CommandView<'a>,
    picked: CommandSender,
}

/// A menu item for `command`, under its own label.
fn item(ui: &mut egui::Ui, command: UICommand, menu: &mut Menu) {
    labelled(ui, command, command.label().to_string(), menu);
}

/// A menu item for `command` under `label`: greyed out, saying why as its hover text, where
/// the command does not apply (see [`UICommand::availability`]).
fn labelled(ui: &mut egui::Ui, command: UICommand, label: String, menu: &mut Menu) {
    let button = egui::Button::new(label).shortcut_text(command.shortcut_text(ui.ctx()));
    add_item(ui, command, button, menu);
}

/// A menu item that shows whether what `command` switches is `on`.
fn toggle(ui: &mut egui::Ui, command: UICommand, on: bool, menu: &mut Menu) {
    let button = egui::Button::selectable(on, command.label())
        .shortcut_text(command.shortcut_text(ui.ctx()));
    add_item(ui, command, button, menu);
}

fn add_item(ui: &mut egui::Ui, command: UICommand, button: egui::Button, menu: &mut Menu) {
    let availability = command.availability(&menu.view);
    let response = ui.add_enabled(availability.is_ok(), button);
    match availability {
        Err(why) => {
            response.on_disabled_hover_text(why.text());
        }
        Ok(()) if response.clicked() => menu.picked.send_ui(command),
        Ok(()) => {}
    }
}

/// The memory budgets offered in View > Picture memory, in MiB (256 is the default).
const PICTURE_MEMORY_CHOICES: [u32; 6] = [64, 128, 256, 512, 1024, 2048];

/// What the menus show besides the settings and the document on show.
pub struct MenuState<'a> {
    /// The tabs, for the Window menu.
    pub tabs: &'a [TabEntry],
    /// The document on show is playing.
    pub playing: bool,
    /// A frame is pinned as the reference.
    pub pinned: bool,
    /// What Delete removes, if a tab is open.
    pub deletion: Option<Deletion>,
}

/// Paints the menu bar; returns the commands picked.
pub fn show(
    ui: &mut egui::Ui,
    settings: &mut Settings,
    doc: Option<&OpenDocument>,
    state: MenuState,
) -> CommandSender {
    let MenuState {
        tabs,
        playing,
        pinned,
        deletion,
    } = state;
    let mut menu = Menu {
        view: CommandView {
            doc,
            reference_pinned: pinned,
            deletion,
        },
        picked: CommandSender::default(),
    };
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            item(ui, UICommand::NewDocument, &mut menu);
            item(ui, UICommand::Open, &mut menu);
            item(ui, UICommand::OpenPath, &mut menu);
            ui.menu_button("Open Recent", |ui| {
                if settings.recent_files.is_empty() {
                    ui.weak("No recent files");
                }
                for path in &settings.recent_files {
                    if ui.button(path.display().to_string()).clicked() {
                        let open = SystemCommand::OpenFile(path.clone());
                        menu.picked.send_system(open);
                    }
                }
            });
            item(ui, UICommand::OpenDemo, &mut menu);
            ui.checkbox(
                &mut settings.aseprite_layers,
                "Open Aseprite files with a graphic per layer",
            )
            .on_hover_text(
                "Else each frame is one picture, composited as Aseprite shows it (every blend mode)",
            );
            ui.separator();
            item(ui, UICommand::Save, &mut menu);
            item(ui, UICommand::SaveAs, &mut menu);
            item(ui, UICommand::Import, &mut menu);
            item(ui, UICommand::Export, &mut menu);
            item(ui, UICommand::RestoreBackup, &mut menu);
            ui.separator();
            item(ui, UICommand::CloseTab, &mut menu);
            item(ui, UICommand::NextTab, &mut menu);
            item(ui, UICommand::PreviousTab, &mut menu);
            ui.separator();
            item(ui, UICommand::Quit, &mut menu);
        });
        ui.menu_button("Edit", |ui| {
            let history = doc.map(|o| o.session.history());
            let undo = history
                .and_then(|h| h.undo_label())
                .map(|l| format!("Undo {l}"));
            let redo = history
                .and_then(|h| h.redo_label())
                .map(|l| format!("Redo {l}"));
            for (command, label) in [(UICommand::Undo, undo), (UICommand::Redo, redo)] {
                let text = label.unwrap_or_else(|| command.label().to_string());
                labelled(ui, command, text, &mut menu);
            }
            ui.separator();
            item(ui, UICommand::ShowHistory, &mut menu);
            ui.separator();
            for command in [
                UICommand::CutFrames,
                UICommand::CopyFrames,
                UICommand::PasteFrames,
            ] {
                item(ui, command, &mut menu);
            }
            ui.menu_button("Paste special", |ui| {
                for command in [
                    UICommand::PasteTiming,
                    UICommand::PasteBoxes,
                    UICommand::PastePoints,
                ] {
                    item(ui, command, &mut menu);
                }
            });
            for command in [
                UICommand::Duplicate,
                UICommand::DeleteSelection,
                UICommand::InsertFrame,
                UICommand::Rename,
            ] {
                item(ui, command, &mut menu);
            }
            ui.separator();
            item(ui, UICommand::Retime, &mut menu);
            item(ui, UICommand::AlignFrames, &mut menu);
            ui.separator();
            item(ui, UICommand::SelectAllElements, &mut menu);
            item(ui, UICommand::ClearElementSelection, &mut menu);
            ui.separator();
            for command in [
                UICommand::AddSequence,
                UICommand::AddGroup,
                UICommand::AddDirection,
                UICommand::SetDefaultSequence,
            ] {
                item(ui, command, &mut menu);
            }
        });
        ui.menu_button("View", |ui| {
            let layout = &settings.layout;
            toggle(ui, UICommand::ToggleTree, layout.tree, &mut menu);
            toggle(
                ui,
                UICommand::ToggleInspector,
                layout.inspector,
                &mut menu,
            );
            toggle(ui, UICommand::ToggleTimeline, layout.timeline, &mut menu);
            let sheet_shown = crate::app::sheet::tab_shown(layout.sheet, doc);
            toggle(ui, UICommand::ToggleSheet, sheet_shown, &mut menu);
            toggle(
                ui,
                UICommand::ToggleDiagnostics,
                layout.diagnostics,
                &mut menu,
            );
            ui.menu_button("Appearance", |ui| {
                let appearance = &mut settings.appearance;
                for theme in Theme::ALL {
                    ui.radio_value(&mut appearance.theme, theme, theme.label());
                }
                ui.separator();
                ui.label("UI scale");
                for scale in UI_SCALES {
                    let label = format!("{:.0} %", scale * 100.0);
                    if ui
                        .radio((appearance.clamped_scale() - scale).abs() < 0.01, label)
                        .clicked()
                    {
                        appearance.ui_scale = scale;
                    }
                }
            });
            ui.menu_button("Picture memory", |ui| {
                ui.label("Decoded pictures and textures kept, at most")
                    .on_hover_text("The least recently shown go first when it is full.");
                for megabytes in PICTURE_MEMORY_CHOICES {
                    let memory = PictureMemory { megabytes };
                    ui.radio_value(&mut settings.picture_memory, memory, format!("{megabytes} MiB"));
                }
            });
            ui.separator();
            item(ui, UICommand::ZoomIn, &mut menu);
            item(ui, UICommand::ZoomOut, &mut menu);
            item(ui, UICommand::ZoomFit, &mut menu);
            item(ui, UICommand::ZoomActualSize, &mut menu);
            ui.separator();
            toggle(
                ui,
                UICommand::ToggleGrid,
                settings.view.pixel_grid,
                &mut menu,
            );
            ui.checkbox(&mut settings.view.axis_cross, "Origin cross");
            toggle(
                ui,
                UICommand::ToggleFacingLeft,
                settings.view.facing_left,
                &mut menu,
            );
            toggle(
                ui,
                UICommand::ToggleOnionSkin,
                settings.view.onion_skin,
                &mut menu,
            );
            ui.menu_button("Onion skin settings", |ui| onion_settings(ui, &mut settings.view));
            item(ui, UICommand::PinReference, &mut menu);
            item(ui, UICommand::UnpinReference, &mut menu);
            toggle(
                ui,
                UICommand::ToggleProportionalTimeline,
                settings.view.proportional_timeline,
                &mut menu,
            );
            ui.menu_button("Background", |ui| {
                let bg = &mut settings.view.background;
                ui.radio_value(bg, Background::Checkerboard, "Checkerboard");
                let mut colour = match *bg {
                    Background::Colour(c) => c,
                    Background::Checkerboard => [40, 40, 48],
                };
                ui.horizontal(|ui| {
                    let is_colour = matches!(bg, Background::Colour(_));
                    if ui.radio(is_colour, "Colour").clicked()
                        || ui.color_edit_button_srgb(&mut colour).changed()
                    {
                        *bg = Background::Colour(colour);
                    }
                });
            });
        });
        ui.menu_button("Overlay", |ui| {
            toggle(
                ui,
                UICommand::ToggleOverlay,
                settings.view.overlay,
                &mut menu,
            );
            ui.checkbox(&mut settings.view.points, "Attachment points");

            ui.separator();
            ui.label("Box classes");
            match doc {
                Some(doc) => {
                    let classes = doc.session.document().box_classes();
                    if classes.is_empty() {
                        ui.weak("This file has no boxes");
                    }
                    let capabilities = doc.session.format().capabilities();
                    for class in classes {
                        let mut visible = settings.box_class_visible(class.label());
                        let shown = capabilities.box_class_label(&class);
                        if ui.checkbox(&mut visible, shown).changed() {
                            settings.set_box_class_visible(class.label(), visible);
                        }
                    }
                }
                None => {
                    ui.weak("No file open");
                }
            }
            // Only where boxes can be defaults later frames inherit (the format says so).
            if doc.is_some_and(|d| d.session.format().capabilities().default_boxes) {
                ui.separator();
                ui.label("AIR default boxes after a one-frame override");
                let rule = &mut settings.view.documented_default_box_rule;
                ui.radio_value(rule, false, "return to the default (MUGEN 1.1, Ikemen GO)");
                ui.radio_value(rule, true, "end at the override (AIR documentation)");
            }
        });
        ui.menu_button("Tools", |ui| {
            // Only the tools whose work the document's format can save.
            for command in [
                UICommand::SelectTool,
                UICommand::BoxTool,
                UICommand::CircleTool,
                UICommand::PointTool,
            ] {
                item(ui, command, &mut menu);
            }
        });
        ui.menu_button("Playback", |ui| {
            let play = if playing { "Pause" } else { "Play" };
            labelled(ui, UICommand::PlayPause, play.to_string(), &mut menu);
            for command in [
                UICommand::StepBack,
                UICommand::StepForward,
                UICommand::FirstFrame,
                UICommand::LastFrame,
                UICommand::ToggleLoop,
                UICommand::SlowerSpeed,
                UICommand::FasterSpeed,
                UICommand::ResetSpeed,
            ] {
                item(ui, command, &mut menu);
            }
            ui.separator();
            for command in [
                UICommand::PreviousSequence,
                UICommand::NextSequence,
                UICommand::PreviousDirection,
                UICommand::NextDirection,
                UICommand::FocusFilter,
            ] {
                item(ui, command, &mut menu);
            }
        });
        ui.menu_button("Window", |ui| {
            item(ui, UICommand::NextTab, &mut menu);
            item(ui, UICommand::PreviousTab, &mut menu);
            ui.separator();
            if tabs.is_empty() {
                ui.weak("No file open");
            }
            for entry in tabs {
                let button = egui::Button::selectable(entry.active, entry.title());
                if ui.add(button).on_hover_text(&entry.location).clicked() {
                    menu.picked.send_system(SystemCommand::ShowTab(entry.tab));
                }
            }
        });
        ui.menu_button("Help", |ui| {
            item(ui, UICommand::ShowShortcuts, &mut menu);
        });
    });
    menu.picked
}

/// The shortcuts window: every command with its shortcut.
pub fn shortcuts_window(ctx: &egui::Context, shown: &mut bool) {
    // The list is longer than a 800-pixel window (and far longer at UI scale 2): it scrolls,
    // and the window never reaches past the screen.
    let screen = ctx.content_rect();
    egui::Window::new("Keyboard shortcuts")
        .open(shown)
        .resizable(true)
        .vscroll(true)
        .default_height((screen.height() - 120.0).max(200.0))
        .max_height((screen.height() - 80.0).max(160.0))
        .show(ctx, |ui| {
            egui::Grid::new("shortcuts")
                .num_columns(2)
                .striped(true)
                .show(ui, |ui| {
                    for command in UICommand::ALL {
                        let text = command.shortcut_text(ctx);
                        if text.is_empty() {
                            continue;
                        }
                        ui.label(command.label());
                        ui.monospace(text);
                        ui.end_row();
                    }
                    ui.label("Pan");
                    ui.monospace("Middle drag, Space+drag");
                    ui.end_row();
                    ui.label("Zoom about the cursor");
                    ui.monospace("Wheel");
                    ui.end_row();
                });
        });
}

/// The history list: every step, done ones first; clicking a step goes back (or forward) to
/// just after it. Returns the number of steps to have in effect, when one was clicked.
pub fn history_window(
    ctx: &egui::Context,
    shown: &mut bool,
    history: &crate::edit::History,
) -> Option<usize> {
    let mut jump = None;
    egui::Window::new("History")
        .open(shown)
        .default_width(260.0)
        .show(ctx, |ui| {
            let entries = history.entries();
            let done = history.done_count();
            if ui.selectable_label(done == 0, "(as opened)").clicked() {
                jump = Some(0);
            }
            for (i, entry) in entries.iter().enumerate() {
                let text = if entry.done {
                    egui::RichText::new(&entry.label)
                } else {
                    egui::RichText::new(&entry.label).weak().italics()
                };
                if ui.selectable_label(i + 1 == done, text).clicked() {
                    jump = Some(i + 1);
                }
            }
        });
    jump
}

/// How the onion skin and the pinned reference are drawn.
fn onion_settings(ui: &mut egui::Ui, view: &mut ViewSettings) {
    ui.add(
        egui::Slider::new(&mut view.onion_frames, 1..=ViewSettings::MAX_ONION_FRAMES)
            .text("frames before and after"),
    );
    ui.horizontal(|ui| {
        for style in OnionStyle::ALL {
            ui.radio_value(&mut view.onion_style, style, style.label());
        }
    });
    ui.horizontal(|ui| {
        ui.radio_value(&mut view.onion_above, false, "Below the frame");
        ui.radio_value(&mut view.onion_above, true, "Above the frame");
    });
    ui.horizontal(|ui| {
        ui.color_edit_button_srgb(&mut view.onion_before_colour);
        ui.label("Before");
        ui.color_edit_button_srgb(&mut view.onion_after_colour);
        ui.label("After");
    });
    ui.separator();
    ui.add(
        egui::Slider::new(&mut view.reference_opacity, 10..=90)
            .suffix(" %")
            .text("reference opacity"),
    );
}
