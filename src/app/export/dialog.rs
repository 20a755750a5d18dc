//! File > Export… (Ctrl+E): pictures, animations or atlases of the sequence on show or of
//! every sequence, as [`crate::export::job`] makes them: PNG frames, a PNG strip, GIF, APNG,
//! atlas + JSON in Aseprite's layout, or Godot SpriteFrames; at a scale, on a background,
//! with or without the boxes and points. The export runs on a thread of its own with a
//! progress bar and Cancel, and asks before replacing files. Each tab keeps its own last
//! choices, so exporting a document again is one click.

use crate::app::context::centred_window::centred_window;
use crate::app::context::feedback::shown_path;
use crate::export::job::{self, ExportKind, ExportRequest, Exported};
use crate::formats::Severity;
use crate::formats::atlas::{AtlasOptions, ExportProgress, JsonForm};
use crate::model::AnimationSet;
use crate::pixels::PixelSource;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::Duration;
use web_time::Instant;

use crate::app::context::document::OpenDocument;
use crate::app::context::feedback::{Feedback, PathWindow};
use crate::app::context::platform::{DialogOutcome, Dialogs, ExportDelivery, Platform};

/// What the user chose last in a tab's Export window.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportChoices {
    /// What to produce.
    pub kind: ExportKind,
    /// Every sequence, else the one on show.
    pub all_sequences: bool,
    /// The file to write, as typed or chosen (relative to the document's folder).
    pub path: String,
    /// Output pixels per sprite pixel.
    pub scale: u32,
    /// Draw on a colour rather than on transparency.
    pub use_background: bool,
    /// The background colour (RGBA).
    pub background: [u8; 4],
    /// Draw collision boxes and attachment points.
    pub overlay: bool,
    /// How atlases are packed.
    pub atlas: AtlasOptions,
}

impl ExportChoices {
    /// The defaults for `doc`: PNG frames of the sequence on show, beside the document,
    /// named after the sequence.
    fn new(doc: &OpenDocument) -> ExportChoices {
        let kind = ExportKind::default();
        let stem = default_stem(doc, false);
        ExportChoices {
            kind,
            all_sequences: false,
            // A bare name: `request` puts it in the document's folder, and the line under the
            // field says which folder that is.
            path: format!("{stem}.{}", kind.extension()),
            scale: 1,
            use_background: false,
            background: [32, 36, 44, 255],
            overlay: false,
            atlas: AtlasOptions::default(),
        }
    }

    /// The export these choices describe for `doc` (a relative path is taken from the
    /// document's folder).
    pub fn request(&self, doc: &OpenDocument) -> ExportRequest {
        let typed = PathBuf::from(self.path.trim());
        let target = match doc.path().and_then(Path::parent) {
            Some(dir) if typed.is_relative() => dir.join(typed),
            _ => typed,
        };
        ExportRequest {
            kind: self.kind,
            only: (!self.all_sequences).then(|| doc.player.sequence()),
            target,
            scale: self.scale,
            background: self.use_background.then_some(self.background),
            overlay: self.overlay && self.kind.is_picture(),
            atlas: self.atlas.clone(),
        }
    }

    /// After the user switched between this sequence and all sequences: a file still named
    /// as the other choice names it by default (`walk.png`) takes this one's name
    /// (`demo.png`); a name the user typed stays.
    fn follow_scope(&mut self, doc: &OpenDocument) {
        let path = PathBuf::from(self.path.trim());
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
        if stem.as_deref() == Some(default_stem(doc, !self.all_sequences).as_str()) {
            let name = format!(
                "{}.{}",
                default_stem(doc, self.all_sequences),
                self.kind.extension()
            );
            self.path = path.with_file_name(name).display().to_string();
        }
    }

    /// Puts the kind's extension on the typed file name.
    fn follow_extension(&mut self) {
        let path = PathBuf::from(self.path.trim());
        if path.file_name().is_some() {
            self.path = path
                .with_extension(self.kind.extension())
                .display()
                .to_string();
        }
    }
}

/// The file name an export takes by default: the sequence's for one sequence, the
/// document's for all of them.
fn default_stem(doc: &OpenDocument, all_sequences: bool) -> String {
    let document_stem = || {
        doc.path()
            .and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
    };
    let sequence_stem = || doc.sequence().map(|s| job::file_safe(&s.name));
    let stem = if all_sequences {
        document_stem().or_else(sequence_stem)
    } else {
        sequence_stem().or_else(document_stem)
    };
    stem.unwrap_or_else(|| "export".to_string())
}

/// Draws the export and delivers its files: written to disk together, or drawn and handed
/// over (a web page has no disk: one download, a zip when there are several).
fn write_export(
    document: &AnimationSet,
    pixels: &dyn PixelSource,
    request: &ExportRequest,
    progress: &ExportProgress,
    keep: &[PathBuf],
    delivery: ExportDelivery,
) -> Result<Exported, String> {
    match delivery {
        ExportDelivery::Disk => job::run(document, pixels, request, progress, keep),
        ExportDelivery::HandedOver(hand_over) => {
            let drawn = job::draw(document, pixels, request, progress, keep)?;
            let files = hand_over(&drawn.files, &request.target)?;
            Ok(Exported {
                files,
                losses: drawn.losses,
            })
        }
    }
}

/// An export under way in the background.
pub struct RunningExport {
    progress: Arc<ExportProgress>,
    result: Receiver<Result<Exported, String>>,
    started: Instant,
}

impl RunningExport {
    /// Starts `request` in the background of `platform`, drawing from a copy of `document`
    /// and from `pixels`; `wake` is called when it ends.
    pub fn start(
        document: AnimationSet,
        pixels: Arc<dyn PixelSource + Send + Sync>,
        request: ExportRequest,
        keep: Vec<PathBuf>,
        platform: &dyn Platform,
        wake: impl Fn() + Send + 'static,
    ) -> RunningExport {
        let progress = Arc::new(ExportProgress::default());
        let (send, result) = std::sync::mpsc::channel();
        let counted = Arc::clone(&progress);
        let delivery = platform.export_delivery();
        platform.run_in_background(Box::new(move || {
            let outcome = write_export(
                &document,
                pixels.as_ref(),
                &request,
                &counted,
                &keep,
                delivery,
            );
            // The window may have gone (its tab closed): nobody waits for the answer then.
            let _ = send.send(outcome);
            wake();
        }));
        RunningExport {
            progress,
            result,
            started: Instant::now(),
        }
    }

    /// The result once the thread has ended.
    pub fn poll(&self) -> Option<Result<Exported, String>> {
        match self.result.try_recv() {
            Ok(result) => Some(result),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err("the export stopped unexpectedly".into())),
        }
    }

    /// Frames drawn and frames to draw.
    pub fn counts(&self) -> (usize, usize) {
        (
            self.progress.done.load(Ordering::Relaxed),
            self.progress.total.load(Ordering::Relaxed),
        )
    }

    /// Asks the thread to stop; it writes nothing.
    pub fn cancel(&self) {
        self.progress.cancel.store(true, Ordering::Relaxed);
    }
}

/// A tab's Export window: shown or not, the last choices, and the export under way.
#[derive(Default)]
pub struct ExportState {
    /// The window is shown.
    pub shown: bool,
    /// The last choices (kept when the window closes).
    pub choices: Option<ExportChoices>,
    /// Files that exist and would be replaced, waiting for the user's answer.
    pub confirm_replace: Option<Vec<PathBuf>>,
    /// The export under way.
    pub running: Option<RunningExport>,
    /// Why the last export failed, shown in the window.
    pub failure: Option<String>,
}

impl ExportState {
    /// Opens the window with the tab's last choices, or the defaults the first time.
    pub fn start(&mut self, doc: &OpenDocument) {
        if self.choices.is_none() {
            self.choices = Some(ExportChoices::new(doc));
        }
        self.confirm_replace = None;
        self.failure = None;
        self.shown = true;
    }
}

/// What the app must do after the window painted.
pub enum ExportAction {
    /// Start this export (the app gives it the document, the pixels and a way to wake up).
    Start(ExportRequest),
    /// Tell the user.
    Say(Feedback),
}

/// Paints the Export window of the tab on show.
pub fn show(
    ctx: &egui::Context,
    state: &mut ExportState,
    doc: &OpenDocument,
    dialogs: &mut dyn Dialogs,
) -> Option<ExportAction> {
    if let Some(said) = finish(state) {
        return Some(ExportAction::Say(said));
    }
    if !state.shown {
        return None;
    }
    if state.running.is_some() {
        progress_window(ctx, state);
        return None;
    }
    let choices = state.choices.get_or_insert_with(|| ExportChoices::new(doc));
    let mut pressed = Pressed::default();
    egui::Window::new("Export")
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            if let Some(files) = &state.confirm_replace {
                replace_question(ui, files, &mut pressed);
                return;
            }
            choice_fields(ui, choices, doc, &mut pressed);
            if let Some(failure) = &state.failure {
                ui.colored_label(ui.visuals().error_fg_color, failure);
            }
            ui.horizontal(|ui| {
                pressed.export = ui.button("Export").clicked();
                pressed.close = ui.button("Cancel").clicked();
            });
        });
    pressed.close |= ctx.input(|i| i.key_pressed(egui::Key::Escape));
    if pressed.close {
        state.shown = false;
        state.confirm_replace = None;
        return None;
    }
    if pressed.back {
        state.confirm_replace = None;
        return None;
    }
    if pressed.browse {
        let kind = choices.kind;
        let suggested = choices.request(doc).target;
        match dialogs.pick_file_to_save(kind.label(), &[kind.extension()], &suggested) {
            DialogOutcome::Chosen(path) => {
                choices.path = path.display().to_string();
                choices.follow_extension();
            }
            DialogOutcome::Cancelled => {}
            DialogOutcome::Unavailable => {
                return Some(ExportAction::Say(Feedback::no_file_dialog(
                    PathWindow::Export,
                )));
            }
        }
    }
    let request = choices.request(doc);
    if pressed.replace {
        state.confirm_replace = None;
        state.failure = None;
        return Some(ExportAction::Start(request));
    }
    if pressed.export {
        state.failure = None;
        if choices.path.trim().is_empty() {
            state.failure = Some("Name the file to write.".to_string());
            return None;
        }
        match job::plan(doc.document(), &request) {
            Err(message) => state.failure = Some(crate::text::capitalised(&message)),
            Ok(files) => {
                let read = crate::session::watch::watched_paths(doc.path(), doc.document());
                if let Some(used) = files.iter().find(|f| read.contains(f)) {
                    state.failure = Some(format!(
                        "{} is a file this document reads; choose another name.",
                        used.display()
                    ));
                    return None;
                }
                let existing: Vec<PathBuf> = files.into_iter().filter(|f| f.exists()).collect();
                if existing.is_empty() {
                    return Some(ExportAction::Start(request));
                }
                state.confirm_replace = Some(existing);
            }
        }
    }
    None
}

/// Buttons pressed this frame.
#[derive(Default)]
struct Pressed {
    export: bool,
    close: bool,
    browse: bool,
    replace: bool,
    back: bool,
}

/// The fields of the window: what, format, file, look and packing.
fn choice_fields(
    ui: &mut egui::Ui,
    choices: &mut ExportChoices,
    doc: &OpenDocument,
    pressed: &mut Pressed,
) {
    let sequence_name = doc.sequence().map(|s| s.name.clone()).unwrap_or_default();
    egui::Grid::new("export fields")
        .num_columns(2)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            ui.label("Sequences");
            let before = choices.all_sequences;
            ui.horizontal(|ui| {
                ui.radio_value(
                    &mut choices.all_sequences,
                    false,
                    format!("This sequence ({sequence_name})"),
                );
                ui.radio_value(&mut choices.all_sequences, true, "All sequences");
            });
            if choices.all_sequences != before {
                choices.follow_scope(doc);
            }
            ui.end_row();

            let label = ui.label("Format");
            let before = choices.kind;
            egui::ComboBox::from_id_salt("export format")
                .selected_text(choices.kind.label())
                .width(260.0)
                .show_ui(ui, |ui| {
                    for kind in ExportKind::ALL {
                        ui.selectable_value(&mut choices.kind, kind, kind.label());
                    }
                })
                .response
                .labelled_by(label.id);
            if choices.kind != before {
                choices.follow_extension();
            }
            ui.end_row();

            let label = ui.label("File");
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(&mut choices.path).desired_width(300.0))
                    .labelled_by(label.id);
                pressed.browse = ui
                    .button("Browse…")
                    .on_hover_text("Choose the file in the desktop's dialog")
                    .clicked();
            });
            ui.end_row();

            ui.label("");
            // Wrapped within what the screen leaves: the folder can be a long path.
            let room = ui.ctx().content_rect().width() * 0.6;
            ui.scope(|ui| {
                ui.set_max_width(room);
                ui.add(
                    egui::Label::new(egui::RichText::new(files_text(doc, choices)).weak()).wrap(),
                );
            });
            ui.end_row();

            let label = ui.label("Scale");
            ui.add(
                egui::DragValue::new(&mut choices.scale)
                    .range(1..=crate::formats::atlas::MAX_SCALE)
                    .suffix("×"),
            )
            .labelled_by(label.id);
            ui.end_row();

            let picture = choices.kind.is_picture();
            ui.label("Background");
            ui.add_enabled_ui(picture, |ui| {
                ui.horizontal(|ui| {
                    ui.checkbox(&mut choices.use_background, "Colour");
                    ui.add_enabled_ui(choices.use_background, |ui| {
                        ui.color_edit_button_srgba_unmultiplied(&mut choices.background);
                    });
                    if !choices.use_background {
                        ui.weak("transparent");
                    }
                });
            })
            .response
            .on_disabled_hover_text("Atlas sheets are transparent");
            ui.end_row();

            ui.label("Boxes and points");
            if picture {
                ui.checkbox(&mut choices.overlay, "Draw them on the frames");
            } else if choices.kind == ExportKind::AtlasJson {
                ui.weak("Stored as slices in the JSON");
            } else {
                ui.weak("Not held by SpriteFrames");
            }
            ui.end_row();

            if choices.kind.packs_atlas() {
                atlas_fields(ui, choices);
            }
        });
}

/// Packing options of the atlas kinds.
fn atlas_fields(ui: &mut egui::Ui, choices: &mut ExportChoices) {
    let atlas = &mut choices.atlas;
    if choices.kind == ExportKind::AtlasJson {
        ui.label("JSON frames");
        ui.horizontal(|ui| {
            ui.radio_value(&mut atlas.form, JsonForm::Hash, "Hash");
            ui.radio_value(&mut atlas.form, JsonForm::Array, "Array");
        });
        ui.end_row();
        let label = ui.label("Frame names");
        ui.add(
            egui::TextEdit::singleline(&mut atlas.frame_names)
                .hint_text("{frame}: numbers, as Phaser's createFromAseprite needs")
                .desired_width(300.0),
        )
        .labelled_by(label.id)
        .on_hover_text(
            "Aseprite's tokens: {title} {tag} {frame} {tagframe} {layer}; {frame000} pads. Empty: numbers, or the naming of the atlas the document was read from",
        );
        ui.end_row();
    }
    ui.label("Packing");
    ui.horizontal(|ui| {
        ui.checkbox(&mut atlas.trim, "Trim borders");
        ui.checkbox(&mut atlas.power_of_two, "Power-of-two sheets");
    });
    ui.end_row();
    pixels_row(ui, "Padding", &mut atlas.padding, 0..=64);
    pixels_row(ui, "Extrude", &mut atlas.extrude, 0..=16);
    pixels_row(ui, "Largest sheet", &mut atlas.max_sheet, 64..=16384);
}

/// A grid row of a length in pixels, between the bounds of `range`.
fn pixels_row(ui: &mut egui::Ui, label: &str, value: &mut u32, range: RangeInclusive<u32>) {
    let label = ui.label(label);
    let field = egui::DragValue::new(value).range(range).suffix(" px");
    ui.add(field).labelled_by(label.id);
    ui.end_row();
}

/// "Writes walk_0.png … walk_7.png (8 files)", or why nothing can be written.
fn files_text(doc: &OpenDocument, choices: &ExportChoices) -> String {
    let request = choices.request(doc);
    match job::plan(doc.document(), &request) {
        Err(message) => crate::text::capitalised(&message),
        Ok(files) => {
            let name = |p: &PathBuf| {
                p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            };
            let sheets = if request.kind.packs_atlas() {
                " and the sheet pictures it packs"
            } else {
                ""
            };
            let folder = files
                .first()
                .and_then(|f| f.parent())
                .filter(|dir| !dir.as_os_str().is_empty())
                .map(|dir| format!(" in {}", shown_path(dir)))
                .unwrap_or_default();
            match files.as_slice() {
                [] => String::new(),
                [one] => format!("Writes {}{sheets}{folder}", name(one)),
                [first, .., last] => format!(
                    "Writes {} … {} ({} files){folder}",
                    name(first),
                    name(last),
                    files.len()
                ),
            }
        }
    }
}

/// "3 files exist already: …. Replace them?" with Replace and Back.
fn replace_question(ui: &mut egui::Ui, files: &[PathBuf], pressed: &mut Pressed) {
    let shown: Vec<String> = files
        .iter()
        .take(5)
        .map(|f| f.display().to_string())
        .collect();
    let more = files.len().saturating_sub(shown.len());
    let count = match files.len() {
        1 => "1 file exists already".to_string(),
        n => format!("{n} files exist already"),
    };
    ui.label(format!("{count}:"));
    for name in &shown {
        ui.monospace(name);
    }
    if more > 0 {
        ui.weak(format!("… and {more} more"));
    }
    ui.label("Replace them?");
    ui.horizontal(|ui| {
        pressed.replace = ui.button("Replace").clicked();
        pressed.back = ui.button("Back").clicked();
    });
}

/// The bar of the export under way, with Cancel.
fn progress_window(ctx: &egui::Context, state: &mut ExportState) {
    let Some(running) = &state.running else {
        return;
    };
    let (done, total) = running.counts();
    let mut cancel = false;
    centred_window("Exporting").show(ctx, |ui| {
        let seconds = running.started.elapsed().as_secs_f32();
        let fraction = if total == 0 {
            0.0
        } else {
            done.min(total) as f32 / total as f32
        };
        ui.add(
            egui::ProgressBar::new(fraction)
                .desired_width(280.0)
                .text(format!(
                    "{} of {} · {seconds:.1} s",
                    done.min(total),
                    crate::text::count(total, "frame")
                )),
        );
        cancel = ui.button("Cancel").clicked();
    });
    if cancel {
        running.cancel();
    }
    // The thread wakes the editor when it ends; meanwhile repaint only to move the bar.
    ctx.request_repaint_after(Duration::from_millis(100));
}

/// Takes the result of a finished export: success closes the window and says what was
/// written; a failure (or a cancel) stays in the window.
fn finish(state: &mut ExportState) -> Option<Feedback> {
    let result = state.running.as_ref()?.poll()?;
    state.running = None;
    match result {
        Ok(exported) => {
            state.shown = false;
            Some(Feedback::new(Severity::Info, exported_text(&exported)))
        }
        Err(message) => {
            let said = format!("Not exported: {message}");
            state.failure = Some(crate::text::capitalised(&message));
            Some(Feedback::new(Severity::Warning, said))
        }
    }
}

/// "Exported 8 files to /out (walk_0.png …)", with what the output could not hold.
fn exported_text(exported: &Exported) -> String {
    let folder = exported
        .files
        .first()
        .and_then(|f| f.parent())
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    let first = exported
        .files
        .first()
        .and_then(|f| f.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut text = match exported.files.len() {
        1 => format!("Exported {first} to {folder}."),
        n => format!("Exported {n} files to {folder} ({first} …)."),
    };
    if let Some(loss) = exported.losses.first() {
        let more = exported.losses.len() - 1;
        text.push_str(&format!(" Not kept: {loss}"));
        if more > 0 {
            text.push_str(&format!(" (and {more} more)"));
        }
        text.push('.');
    }
    text
}
