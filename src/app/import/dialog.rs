//! File > Import… (Ctrl+I), or image files dropped on the editor: drawn frames into the
//! document on show. Several pictures become one frame each in natural name order; one sprite
//! sheet is cut by a grid (found from its transparent gutters, or given as a cell size or as
//! rows × columns, with margin, spacing, frame count and order) with a live preview of the cut,
//! or into the separate sprites found on it, or (the default for a sheet) automatically: the
//! frames its data file names, else its layout read, as `sprat cut` does (see
//! [`super::sprites`]). Pictures of several
//! sequences (a folder of sub-folders, or names such as `run_0` … `run_7` beside `jump_0` …
//! `jump_5`) can become one named sequence per group (see [`super::groups`]).
//! The frames go to the end of the sequence on show or into a new sequence named after the
//! files, with the origin where the document's own frames have theirs (the canvas' top-left
//! corner in an Aseprite file; the bottom centre where nothing tells) unless another place is
//! picked, all as one undo step. Files are read on a thread of their own with progress and Cancel; a file that
//! cannot be read is named and skipped.

use crate::app::context::document::OpenDocument;
use crate::app::context::feedback::{Feedback, PathWindow};
use crate::app::context::memo::Memo;
use crate::app::context::panel::PanelCtx;
use crate::app::context::pictures::texture_of;
use crate::app::context::platform::{DialogOutcome, Platform};
use crate::app::import::groups::{self as group_list, Groups};
use crate::app::import::sprites::{self as separate, SeparateSprites};
use crate::assets::import::{
    ImportProgress, ReadPictures, SheetCut, common_name, natural_sort, read_pictures,
};
use crate::assets::layout::CutMethod;
use crate::assets::sheet_data::{SheetData, data_beside};
use crate::edit::Command;
use crate::edit::import::{
    ImportFrames, ImportSequences, ImportTarget, OriginPlace, duration_like,
};
use crate::formats::Severity;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Receiver;
use std::time::Duration;

/// How the pictures become frames.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FramesFrom {
    /// Each picture is one frame.
    #[default]
    EachPicture,
    /// The one picture is a sheet whose layout is read: the frames its data file names, else
    /// a lattice's cells, else its separate sprites (as `sprat cut` does by default).
    Automatic,
    /// The one picture is a sheet cut by a grid.
    SheetGrid,
    /// The one picture is a sheet of separate sprites, each a frame.
    SeparateSprites,
    /// The pictures are grouped into sequences, one new sequence per group.
    Groups,
}

/// A frame to import: a picture (index into the pictures read) and the part of it shown
/// (`None`: all of it).
type Cell = (usize, Option<crate::model::PixelRect>);

/// What the frames to import depend on: how they are made, the grid, skipping empty cells,
/// and how many pictures were read.
type CellsKey = (FramesFrom, SheetCut, bool, usize);

/// Files being read on a thread of their own.
struct Reading {
    progress: Arc<ImportProgress>,
    /// The pictures, and for one sheet the data file beside it naming its frames.
    result: Receiver<(ReadPictures, Option<SheetData>)>,
    total: usize,
}

/// A tab's Import window.
#[derive(Default)]
pub struct ImportState {
    /// The window is shown.
    pub shown: bool,
    /// The files, in natural order.
    pub files: Vec<PathBuf>,
    /// A path typed where no file dialog can be shown.
    pub path_field: String,
    /// Put the keyboard in the path field at the next frame (no file dialog could be shown).
    pub focus_path: bool,
    /// What the last read gave.
    pub read: ReadPictures,
    reading: Option<Reading>,
    /// Each picture a frame, or one sheet cut by a grid.
    pub frames_from: FramesFrom,
    /// The grid over the sheet.
    pub cut: SheetCut,
    /// The separate sprites found on the sheet, as edited.
    pub sprites: SeparateSprites,
    /// The sequences the pictures make, one per group.
    pub groups: Groups,
    /// Where each frame's origin is.
    pub origin: OriginPlace,
    /// The window has just opened: `origin` and `millis` start as the document's frames have
    /// them (the origin where theirs is, the duration of the last frame of the sequence on
    /// show).
    from_document: bool,
    /// How long each frame shows, in milliseconds.
    pub millis: u32,
    /// Leave out the sheet's cells that are fully transparent.
    pub skip_empty: bool,
    /// Into a new sequence (named `name`), else after the last frame of the one on show.
    pub new_sequence: bool,
    /// The new sequence's name.
    pub name: String,
    /// Why the last import was refused.
    pub failure: Option<String>,
    /// The sheet's picture on the GPU for the preview.
    preview: Option<egui::TextureHandle>,
    /// The frames the choices made last, and those choices.
    cells_cache: Memo<CellsKey, Arc<Vec<Cell>>>,
}

impl ImportState {
    /// Opens the window (empty, or with the files already chosen).
    pub fn start(&mut self) {
        if !self.shown {
            *self = ImportState {
                millis: 100,
                new_sequence: true,
                skip_empty: true,
                from_document: true,
                ..ImportState::default()
            };
        }
        self.shown = true;
    }

    /// Adds files (a file already listed is not listed twice) and reads them all again, in
    /// the background of `platform`.
    pub fn add_files(
        &mut self,
        paths: impl IntoIterator<Item = PathBuf>,
        platform: &dyn Platform,
        wake: impl Fn() + Send + 'static,
    ) {
        self.start();
        for path in paths {
            // A folder gives the pictures in it and in its sub-folders.
            let found = if crate::formats::input::is_dir(&path) {
                self.groups.from_folder = true;
                crate::assets::groups::pictures_in_folder(&path)
            } else {
                vec![path]
            };
            for path in found {
                if !self.files.contains(&path) {
                    self.files.push(path);
                }
            }
        }
        natural_sort(&mut self.files);
        self.name = common_name(&self.files);
        self.groups.set_files(&self.files);
        self.read_files(platform, wake);
    }

    /// True while files are being read.
    pub fn is_reading(&self) -> bool {
        self.reading.is_some()
    }

    fn read_files(&mut self, platform: &dyn Platform, wake: impl Fn() + Send + 'static) {
        if let Some(old) = &self.reading {
            old.progress.cancel.store(true, Ordering::Relaxed);
        }
        let progress = Arc::new(ImportProgress::default());
        let (send, result) = std::sync::mpsc::channel();
        let files = self.files.clone();
        let counted = Arc::clone(&progress);
        platform.run_in_background(Box::new(move || {
            let read = read_pictures(&files, &counted);
            let data = match (read.pictures.as_slice(), files.as_slice()) {
                ([_], [file]) => data_beside(file, None),
                _ => None,
            };
            let _ = send.send((read, data));
            wake();
        }));
        self.reading = Some(Reading {
            progress,
            result,
            total: self.files.len(),
        });
        self.preview = None;
    }

    /// Takes the read's result when it has come: one picture is offered as a sheet whose
    /// layout is read when its data names frames or the layout finds more than one, else cut
    /// by its grid when it has one.
    fn take_read(&mut self) {
        let Some(reading) = &self.reading else {
            return;
        };
        let Ok((read, data)) = reading.result.try_recv() else {
            return;
        };
        self.reading = None;
        if read.cancelled {
            return;
        }
        self.read = read;
        self.frames_from = FramesFrom::EachPicture;
        self.sprites.forget();
        self.sprites.data = data;
        self.groups.keep_read(&self.read);
        if self.groups.offered_first() {
            self.frames_from = FramesFrom::Groups;
        }
        if let [only] = self.read.pictures.as_slice() {
            self.cut = SheetCut::detected(&only.pixels.0);
            let (width, height) = only.pixels.0.dimensions();
            self.sprites.refresh(&only.pixels.0, CutMethod::Automatic);
            if self.sprites.found.rects.len() > 1 {
                self.frames_from = FramesFrom::Automatic;
            } else if self.cut.cells(width, height).len() > 1 {
                self.frames_from = FramesFrom::SheetGrid;
            }
        }
    }

    /// The frames the choices make: (picture, cell) in order. Worked out again only when a
    /// choice changed: skipping empty cells looks at every pixel of the sheet.
    fn cells(&mut self) -> Arc<Vec<Cell>> {
        if let (FramesFrom::Automatic | FramesFrom::SeparateSprites, [_]) =
            (self.frames_from, self.read.pictures.as_slice())
        {
            let cells = self.sprites.cells().into_iter().map(|r| (0, Some(r)));
            return Arc::new(cells.collect());
        }
        let key = (
            self.frames_from,
            self.cut,
            self.skip_empty,
            self.read.pictures.len(),
        );
        let (frames_from, cut, skip_empty) = (self.frames_from, &self.cut, self.skip_empty);
        let pictures = self.read.pictures.as_slice();
        let (cells, _) = self.cells_cache.get_or_make(key, || {
            let cells: Vec<Cell> = match (frames_from, pictures) {
                (FramesFrom::SheetGrid, [sheet]) => {
                    let (width, height) = sheet.pixels.0.dimensions();
                    cut.cells(width, height)
                        .into_iter()
                        .filter(|cell| !skip_empty || !is_empty(&sheet.pixels.0, *cell))
                        .map(|cell| (0, Some(cell)))
                        .collect()
                }
                (_, pictures) => (0..pictures.len()).map(|i| (i, None)).collect(),
            };
            Arc::new(cells)
        });
        Arc::clone(cells)
    }

    /// How long each imported frame shows, in the unit of `doc`'s frames.
    fn duration(&self, doc: &OpenDocument) -> crate::model::FrameDuration {
        duration_like(self.example_duration(doc), self.millis, doc.frame_rate())
    }

    /// A duration of `doc`'s frames, for the unit and the first value: the last of the
    /// direction on show, else any.
    fn example_duration(&self, doc: &OpenDocument) -> Option<crate::model::FrameDuration> {
        doc.direction_frames()
            .last()
            .map(|f| f.duration)
            .or_else(|| doc.document().frames.values().next().map(|f| f.duration))
    }

    /// The edit the choices describe for `doc`, with what the status bar says once it is
    /// done.
    fn command(&mut self, doc: &OpenDocument) -> (Box<dyn Command>, String) {
        if self.frames_from == FramesFrom::Groups {
            let sequences =
                self.groups
                    .imports(&self.read.pictures, self.origin, self.duration(doc));
            let frames: usize = sequences.iter().map(|s| s.cells.len()).sum();
            let said = format!(
                "Imported {} into {}.",
                crate::text::count(frames, "frame"),
                crate::text::count(sequences.len(), "new sequence"),
            );
            return (Box::new(ImportSequences { sequences }), said);
        }
        let target = match doc.sequence() {
            Some(sequence) if !self.new_sequence => ImportTarget::Append {
                sequence: sequence.id,
                direction: doc.player.direction(),
            },
            _ => ImportTarget::NewSequence(self.name.trim().to_string()),
        };
        let into = match &target {
            ImportTarget::NewSequence(name) => name.clone(),
            ImportTarget::Append { .. } => {
                doc.sequence().map(|s| s.name.clone()).unwrap_or_default()
            }
        };
        let cells = self.cells().to_vec();
        let said = format!(
            "Imported {} into \"{into}\".",
            crate::text::count(cells.len(), "frame")
        );
        let command = ImportFrames {
            images: self.read.pictures.clone(),
            cells,
            origin: self.origin,
            duration: self.duration(doc),
            target,
        };
        (Box::new(command), said)
    }
}

/// True when every pixel of `cell` is fully transparent.
fn is_empty(sheet: &image::RgbaImage, cell: crate::model::PixelRect) -> bool {
    let (x0, y0) = (cell.x.max(0) as u32, cell.y.max(0) as u32);
    let x1 = (x0 + cell.width).min(sheet.width());
    let y1 = (y0 + cell.height).min(sheet.height());
    (y0..y1).all(|y| (x0..x1).all(|x| sheet.get_pixel(x, y).0[3] == 0))
}

/// Paints the Import window of the tab on show; what the status bar should say goes into
/// `panel`.
pub fn show(ctx: &egui::Context, state: &mut ImportState, panel: &mut PanelCtx) {
    let said = window(ctx, state, panel.doc, panel.platform);
    panel.out.tell(said);
}

/// Paints the Import window; returns what the status bar should say.
fn window(
    ctx: &egui::Context,
    state: &mut ImportState,
    doc: &mut OpenDocument,
    platform: &mut dyn Platform,
) -> Option<Feedback> {
    if !state.shown {
        return None;
    }
    state.take_read();
    if std::mem::take(&mut state.from_document) {
        state.origin = OriginPlace::matching(doc.document());
        if let Some(millis) = state.example_duration(doc).and_then(|d| {
            let exact = d.exact(doc.frame_rate())?;
            Some(
                exact
                    .as_millis_f64()
                    .round()
                    .clamp(1.0, f64::from(u32::MAX)) as u32,
            )
        }) {
            state.millis = millis;
        }
    }
    let mut pressed = Pressed::default();
    egui::Window::new("Import frames")
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            files_section(ui, state, &mut pressed, platform.has_disk());
            if state.reading.is_none() && !state.read.pictures.is_empty() {
                ui.separator();
                frames_section(ui, state, doc);
                ui.separator();
                placement_section(ui, state, doc);
            }
            if let Some(failure) = &state.failure {
                ui.colored_label(ui.visuals().error_fg_color, failure);
            }
            ui.horizontal(|ui| {
                let ready = state.reading.is_none() && !state.cells().is_empty();
                pressed.import = ui.add_enabled(ready, egui::Button::new("Import")).clicked();
                pressed.close = ui.button("Cancel").clicked();
            });
        });
    if let Some(reading) = &state.reading {
        ctx.request_repaint_after(Duration::from_millis(100));
        if pressed.stop_reading {
            reading.progress.cancel.store(true, Ordering::Relaxed);
            state.reading = None;
        }
    }
    pressed.close |= ctx.input(|i| i.key_pressed(egui::Key::Escape));
    let wake = {
        let ctx = ctx.clone();
        move || ctx.request_repaint()
    };
    if pressed.close {
        if let Some(reading) = &state.reading {
            reading.progress.cancel.store(true, Ordering::Relaxed);
        }
        *state = ImportState::default();
        return None;
    }
    if pressed.clear {
        state.files.clear();
        state.read = ReadPictures::default();
        state.preview = None;
        state.groups = Groups::default();
        state.sprites.forget();
        state.sprites.data = None;
    }
    if pressed.add_typed {
        let path = PathBuf::from(state.path_field.trim());
        state.path_field.clear();
        state.add_files([path], platform, wake);
        return None;
    }
    if pressed.browse || pressed.browse_folder {
        let dialogs = platform.dialogs();
        let chosen = if pressed.browse_folder {
            dialogs.pick_folder_to_import().map(|folder| vec![folder])
        } else {
            dialogs.pick_files_to_import(&crate::assets::import::PICTURE_EXTENSIONS)
        };
        match chosen {
            DialogOutcome::Chosen(files) => state.add_files(files, platform, wake),
            DialogOutcome::Cancelled => {}
            DialogOutcome::Unavailable => {
                state.focus_path = true;
                return Some(Feedback::no_file_dialog(PathWindow::Import));
            }
        }
        return None;
    }
    if pressed.import {
        let (command, said) = state.command(doc);
        match doc.apply(command.as_ref(), None) {
            Err(message) => state.failure = Some(message),
            Ok(()) => {
                let skipped = std::mem::take(&mut state.read.skipped);
                *state = ImportState::default();
                let mut text = said;
                if !skipped.is_empty() {
                    text.push_str(&format!(" Skipped: {}.", skipped.join("; ")));
                    return Some(Feedback::new(Severity::Warning, text));
                }
                return Some(Feedback::new(Severity::Info, text));
            }
        }
    }
    None
}

#[derive(Default)]
struct Pressed {
    import: bool,
    close: bool,
    browse: bool,
    browse_folder: bool,
    add_typed: bool,
    clear: bool,
    stop_reading: bool,
}

/// The files, how to add more, the read's progress and what was skipped.
fn files_section(ui: &mut egui::Ui, state: &mut ImportState, pressed: &mut Pressed, folders: bool) {
    let names: Vec<String> = state
        .files
        .iter()
        .filter_map(|f| f.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    match names.as_slice() {
        [] => ui.label(
            "Choose PNG files (one frame each), one sprite sheet, or a folder of sequences.",
        ),
        [one] => ui.label(format!("1 file: {one}")),
        [first, .., last] => ui.label(format!("{} files: {first} … {last}", names.len())),
    };
    ui.horizontal(|ui| {
        pressed.browse = ui.button("Add files…").clicked();
        // Where there is no disk (the web page), folders are dropped, not chosen.
        pressed.browse_folder = folders
            && ui
                .button("Add folder…")
                .on_hover_text("Every picture in a folder and its sub-folders")
                .clicked();
        let label = ui.label("Path");
        let field = ui
            .add(
                egui::TextEdit::singleline(&mut state.path_field)
                    .hint_text("/path/to/run_1.png")
                    .desired_width(220.0),
            )
            .labelled_by(label.id);
        if std::mem::take(&mut state.focus_path) {
            field.request_focus();
        }
        let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        pressed.add_typed =
            (ui.button("Add").clicked() || entered) && !state.path_field.trim().is_empty();
        if !state.files.is_empty() {
            pressed.clear = ui.button("Clear").clicked();
        }
    });
    if let Some(reading) = &state.reading {
        let done = reading.progress.done.load(Ordering::Relaxed);
        ui.horizontal(|ui| {
            ui.add(
                egui::ProgressBar::new(done as f32 / reading.total.max(1) as f32)
                    .desired_width(240.0)
                    .text(format!(
                        "Reading {done} of {}",
                        crate::text::count(reading.total, "file")
                    )),
            );
            pressed.stop_reading = ui.button("Stop").clicked();
        });
    }
    if !state.read.skipped.is_empty() {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!(
                "Skipped (cannot be read): {}",
                state.read.skipped.join("; ")
            ),
        );
    }
}

/// Each picture a frame, the sheet's grid with its preview, the separate sprites on the
/// sheet, or one sequence per group of pictures.
fn frames_section(ui: &mut egui::Ui, state: &mut ImportState, doc: &OpenDocument) {
    let one = state.read.pictures.len() == 1;
    let grouped = state.groups.offered();
    ui.horizontal_wrapped(|ui| {
        ui.radio_value(
            &mut state.frames_from,
            FramesFrom::EachPicture,
            "Each file is a frame",
        );
        ui.add_enabled_ui(grouped, |ui| {
            ui.radio_value(
                &mut state.frames_from,
                FramesFrom::Groups,
                "One sequence per group",
            );
        });
        // The three ways of cutting one sheet stay on one line, as the list's second row.
        ui.add_enabled_ui(one, |ui| {
            ui.horizontal(|ui| {
                ui.radio_value(&mut state.frames_from, FramesFrom::Automatic, "Automatic")
                    .on_hover_text(
                        "The frames the sheet's data file names, else its lattice of cells, else \
                     its separate sprites, as sprat cut finds them",
                    );
                ui.radio_value(
                    &mut state.frames_from,
                    FramesFrom::SheetGrid,
                    "Cut the sheet into a grid",
                );
                ui.radio_value(
                    &mut state.frames_from,
                    FramesFrom::SeparateSprites,
                    "Separate sprites",
                );
            })
        });
    });
    match state.frames_from {
        FramesFrom::SheetGrid if one => {
            grid_fields(ui, state);
            sheet_preview(ui, state);
        }
        FramesFrom::Automatic | FramesFrom::SeparateSprites if one => {
            let method = if state.frames_from == FramesFrom::Automatic {
                CutMethod::Automatic
            } else {
                CutMethod::Sprites
            };
            let sheet = &state.read.pictures[0].pixels.0;
            let texture = state.preview.get_or_insert_with(|| {
                texture_of(
                    ui.ctx(),
                    "import sheet",
                    sheet,
                    egui::TextureOptions::NEAREST,
                )
            });
            separate::section(ui, &mut state.sprites, sheet, texture, method);
        }
        FramesFrom::Groups if grouped => group_list::section(ui, &mut state.groups, doc),
        _ => {}
    }
    let count = state.cells().len();
    ui.label(format!(
        "{count} frame{}",
        if count == 1 { "" } else { "s" }
    ));
}

fn grid_fields(ui: &mut egui::Ui, state: &mut ImportState) {
    let (width, height) = state.read.pictures[0].pixels.0.dimensions();
    let cut = &mut state.cut;
    let number = |ui: &mut egui::Ui, label: &str, value: &mut u32, min: u32, max: u32| {
        let name = ui.label(label);
        ui.add(egui::DragValue::new(value).range(min..=max))
            .labelled_by(name.id)
            .changed()
    };
    egui::Grid::new("import grid")
        .num_columns(4)
        .show(ui, |ui| {
            number(ui, "Cell width", &mut cut.cell_width, 1, width.max(1));
            number(ui, "Cell height", &mut cut.cell_height, 1, height.max(1));
            ui.end_row();
            let (mut columns, mut rows) = cut.columns_rows(width, height);
            let c = number(ui, "Columns", &mut columns, 1, width.max(1));
            let r = number(ui, "Rows", &mut rows, 1, height.max(1));
            if c || r {
                cut.set_columns_rows(width, height, columns, rows);
            }
            ui.end_row();
            number(ui, "Margin x", &mut cut.margin_x, 0, width);
            number(ui, "Margin y", &mut cut.margin_y, 0, height);
            ui.end_row();
            number(ui, "Spacing x", &mut cut.spacing_x, 0, width);
            number(ui, "Spacing y", &mut cut.spacing_y, 0, height);
            ui.end_row();
            let mut count = cut.count.unwrap_or(0);
            if number(ui, "Frame count", &mut count, 0, 4096) {
                cut.count = (count > 0).then_some(count);
            }
            ui.weak(if cut.count.is_none() {
                "0 = every cell"
            } else {
                ""
            });
            ui.end_row();
        });
    ui.horizontal(|ui| {
        ui.radio_value(&mut cut.column_major, false, "Row by row");
        ui.radio_value(&mut cut.column_major, true, "Column by column");
        ui.checkbox(&mut state.skip_empty, "Skip empty cells");
        if ui.button("Detect grid").clicked() {
            *cut = SheetCut::detected(&state.read.pictures[0].pixels.0);
        }
    });
}

/// The sheet with the cells the grid cuts, numbered in frame order.
fn sheet_preview(ui: &mut egui::Ui, state: &mut ImportState) {
    let kept = state.cells();
    let sheet = &state.read.pictures[0].pixels.0;
    let texture = state.preview.get_or_insert_with(|| {
        texture_of(
            ui.ctx(),
            "import sheet",
            sheet,
            egui::TextureOptions::NEAREST,
        )
    });
    let (width, height) = (sheet.width().max(1) as f32, sheet.height().max(1) as f32);
    let scale = (420.0 / width).min(220.0 / height).min(8.0);
    let (response, painter) = ui.allocate_painter(
        egui::vec2(width * scale, height * scale),
        egui::Sense::hover(),
    );
    let rect = response.rect;
    painter.rect_filled(rect, 0.0, egui::Color32::from_gray(60));
    painter.image(
        texture.id(),
        rect,
        egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
        egui::Color32::WHITE,
    );
    let cells = state.cut.cells(sheet.width(), sheet.height());
    // The frames kept are some of the grid's cells, in the grid's order.
    let mut next_kept = 0;
    let stroke = egui::Stroke::new(1.0, egui::Color32::from_rgb(255, 200, 0));
    let left_out = egui::Stroke::new(1.0, egui::Color32::from_gray(110));
    for cell in &cells {
        let min = rect.min + egui::vec2(cell.x as f32 * scale, cell.y as f32 * scale);
        let cell_rect = egui::Rect::from_min_size(
            min,
            egui::vec2(cell.width as f32 * scale, cell.height as f32 * scale),
        );
        // Cells left out (empty ones) are drawn grey and have no frame number.
        let frame = (kept.get(next_kept).and_then(|k| k.1) == Some(*cell)).then(|| {
            next_kept += 1;
            next_kept - 1
        });
        let Some(frame) = frame else {
            painter.rect_stroke(cell_rect, 0.0, left_out, egui::StrokeKind::Inside);
            continue;
        };
        painter.rect_stroke(cell_rect, 0.0, stroke, egui::StrokeKind::Inside);
        if cell_rect.height() >= 14.0 && cells.len() <= 256 {
            painter.text(
                cell_rect.min + egui::vec2(2.0, 1.0),
                egui::Align2::LEFT_TOP,
                frame.to_string(),
                egui::FontId::monospace(10.0),
                egui::Color32::from_rgb(255, 200, 0),
            );
        }
    }
}

/// Origin, duration and where the frames go.
fn placement_section(ui: &mut egui::Ui, state: &mut ImportState, doc: &OpenDocument) {
    egui::Grid::new("import placement")
        .num_columns(2)
        .show(ui, |ui| {
            let label = ui.label("Origin");
            egui::ComboBox::from_id_salt("import origin")
                .selected_text(state.origin.label())
                .show_ui(ui, |ui| {
                    for place in OriginPlace::ALL {
                        ui.selectable_value(&mut state.origin, place, place.label());
                    }
                })
                .response
                .labelled_by(label.id);
            ui.end_row();
            let label = ui.label("Duration");
            ui.add(
                egui::DragValue::new(&mut state.millis)
                    .range(1..=60_000)
                    .suffix(" ms"),
            )
            .labelled_by(label.id);
            ui.end_row();
            if state.frames_from == FramesFrom::Groups {
                return;
            }
            ui.label("Into");
            ui.vertical(|ui| {
                ui.horizontal(|ui| {
                    ui.radio_value(&mut state.new_sequence, true, "A new sequence");
                    let label = ui.label("Name");
                    ui.add_enabled(
                        state.new_sequence,
                        egui::TextEdit::singleline(&mut state.name).desired_width(160.0),
                    )
                    .labelled_by(label.id);
                });
                let current = doc.sequence().map(|s| s.name.clone());
                ui.add_enabled_ui(current.is_some(), |ui| {
                    ui.radio_value(
                        &mut state.new_sequence,
                        false,
                        format!("The end of \"{}\"", current.unwrap_or_default()),
                    );
                });
            });
            ui.end_row();
        });
}
