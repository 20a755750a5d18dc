//! The editor on the web page's canvas. The page's script (`web/index.html`) lists what is
//! dropped on the page (folders too) or named in its address, asks [`choose_files`] which to
//! read, reads only those and hands them over with [`give_files`]; the next frame puts them in
//! the library's store of provided files and opens the document they make. The page wraps
//! the editor: each frame runs the page's part, then the editor's.

use super::given;
use super::wake;
use crate::app::SpratApp;
use crate::app::context::tab_id::TabId;
use crate::formats::Severity;
use crate::formats::input;
use crate::formats::registry;
use std::cell::RefCell;
use std::path::PathBuf;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The id of the page's canvas the editor paints on.
const CANVAS_ID: &str = "sprat_canvas";
/// How many refused files the window names one by one; the rest are counted.
const REFUSALS_NAMED: usize = 12;

#[wasm_bindgen]
extern "C" {
    /// Hands a file to the user as a download (the page's script; in a test it posts it).
    #[wasm_bindgen(js_name = spratDownload)]
    pub(super) fn download_in_page(name: &str, bytes: &[u8]);
    /// Whether the page's script gives files (named in its address) once it has fetched them:
    /// then the demo does not open.
    #[wasm_bindgen(js_name = spratWillGiveFiles)]
    fn page_will_give_files() -> bool;
    /// Whether the page asks a document to stay still when it opens (`?still`): else it plays.
    #[wasm_bindgen(js_name = spratStill)]
    fn page_still() -> bool;
    /// Tells the page whether leaving it would lose edits (it then asks before the tab
    /// closes or reloads).
    #[wasm_bindgen(js_name = spratSetUnsaved)]
    fn page_set_unsaved(unsaved: bool);
}

/// What the page holds between frames. The web has one thread: the script's calls and the
/// frames take turns on it.
#[derive(Default)]
struct Page {
    /// Files listed and refused, waiting for the files of the same drop to be read.
    listed_refused: Vec<(PathBuf, String)>,
    /// Drops read and waiting for the next frame.
    arrived: Vec<Arrival>,
    /// What the last drop read and refused, while its window is shown.
    shown_report: Option<Arrival>,
    /// The tabs seen so far: a tab new since the last frame starts playing.
    tabs_seen: Vec<TabId>,
    /// What the page was last told about unsaved edits.
    told_unsaved: bool,
}

/// Files given to the page at once, read (with their bytes) or refused.
#[derive(Default)]
struct Arrival {
    files: Vec<(PathBuf, Vec<u8>)>,
    refused: Vec<(PathBuf, String)>,
    /// The files the store took, once it has.
    accepted: Vec<PathBuf>,
    /// The document opened from them.
    opened: Option<PathBuf>,
    /// They were pictures, taken to the Import window of the document on show.
    imported: bool,
}

thread_local! {
    static PAGE: RefCell<Page> = RefCell::default();
}

/// Starts the editor `create` makes on the page's canvas, wrapped in the page's own frame.
pub(super) fn start(create: impl FnOnce(&eframe::CreationContext) -> SpratApp + 'static) {
    eframe::WebLogger::init(log::LevelFilter::Info).ok();
    wasm_bindgen_futures::spawn_local(async move {
        let canvas = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(CANVAS_ID))
            .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok());
        let Some(canvas) = canvas else {
            log::error!("the page has no canvas with the id {CANVAS_ID}");
            return;
        };
        let started = eframe::WebRunner::new()
            .start(
                canvas,
                eframe::WebOptions::default(),
                Box::new(move |cc| {
                    wake::remember(&cc.egui_ctx);
                    let mut app = create(cc);
                    if !page_will_give_files() {
                        app.open_demo();
                    }
                    Ok(Box::new(PageApp { app }))
                }),
            )
            .await;
        if let Err(error) = started {
            log::error!("the editor could not start: {error:?}");
        }
    });
}

/// Whether the editor gives a command for this key (`code`, its place on the keyboard, as
/// `KeyboardEvent.code` names it) with these modifiers: the page's script then keeps the
/// browser from acting on it too (Ctrl+D would bookmark the page, Ctrl+1 switch the
/// browser's tab, Alt+Left go back a page, F1 open the browser's help). Keys without Ctrl, Alt
/// or the Mac's Cmd are left alone but F1 (they type text), and so are Ctrl+C, Ctrl+X and
/// Ctrl+V, which must reach the page as copy, cut and paste. Whether the command applies now
/// ([`UICommand::availability`](crate::app::context::commands::UICommand::availability)) does
/// not matter here: the editor answers each such key, by carrying out the command or by
/// saying in the status bar why it does not apply, so the browser never acts on it.
#[wasm_bindgen(js_name = spratKeepsKey)]
pub fn keeps_key(code: &str, ctrl: bool, shift: bool, alt: bool, meta: bool) -> bool {
    let Some(key) = egui::Key::from_name(code) else {
        return false;
    };
    let clipboard = matches!(key, egui::Key::C | egui::Key::X | egui::Key::V);
    if (!(ctrl || alt || meta) && key != egui::Key::F1) || (clipboard && (ctrl || meta)) {
        return false;
    }
    let modifiers = egui::Modifiers {
        alt,
        ctrl,
        shift,
        mac_cmd: meta,
        command: ctrl || meta,
    };
    crate::app::context::commands::UICommand::answering(key, modifiers).is_some()
}

/// Which of the files the page lists (`paths` relative to what was given, with their
/// `sizes` in bytes) it should read: their indexes. The others are refused by size or count
/// without being read, and said so once the rest arrive.
#[wasm_bindgen(js_name = spratChooseFiles)]
pub fn choose_files(paths: Vec<String>, sizes: Vec<f64>) -> Vec<u32> {
    let listing: Vec<(PathBuf, u64)> = paths
        .iter()
        .zip(&sizes)
        .map(|(path, size)| (given::given_path(path), *size as u64))
        .collect();
    let choice = given::choose_files_to_read(&listing, input::refusal_before_reading);
    PAGE.with_borrow_mut(|page| page.listed_refused.extend(choice.refused));
    choice.read.into_iter().map(|i| i as u32).collect()
}

/// The files chosen, read: `paths` as given to [`choose_files`], `contents` their bytes
/// (`Uint8Array`s). They open at the next frame.
#[wasm_bindgen(js_name = spratGiveFiles)]
pub fn give_files(paths: Vec<String>, contents: js_sys::Array) {
    let files = paths
        .iter()
        .zip(contents.iter())
        .map(|(path, bytes)| {
            let bytes = js_sys::Uint8Array::new(&bytes).to_vec();
            (given::given_path(path), bytes)
        })
        .collect();
    arrive(files);
}

fn arrive(files: Vec<(PathBuf, Vec<u8>)>) {
    PAGE.with_borrow_mut(|page| {
        let refused = std::mem::take(&mut page.listed_refused);
        page.arrived.push(Arrival {
            files,
            refused,
            ..Arrival::default()
        });
    });
    wake::wake();
}

/// Shows the browser's file dialog (several files at once, of `extensions` when some are
/// named); what is picked is read and opened like a drop (pictures alone go to the Import
/// window of the document on show).
pub(super) fn pick_files(title: &'static str, extensions: &[&str]) {
    let mut dialog = rfd::AsyncFileDialog::new().set_title(title);
    if !extensions.is_empty() {
        dialog = dialog.add_filter("Pictures", extensions);
    }
    wasm_bindgen_futures::spawn_local(async move {
        let Some(handles) = dialog.pick_files().await else {
            return;
        };
        let listing: Vec<(PathBuf, u64)> = handles
            .iter()
            .map(|h| (given::given_path(&h.file_name()), h.inner().size() as u64))
            .collect();
        let choice = given::choose_files_to_read(&listing, input::refusal_before_reading);
        PAGE.with_borrow_mut(|page| page.listed_refused.extend(choice.refused));
        let mut files = Vec::new();
        for index in choice.read {
            files.push((listing[index].0.clone(), handles[index].read().await));
        }
        arrive(files);
    });
}

/// The editor wrapped by the page: each frame runs the page's part, then the editor's.
struct PageApp {
    app: SpratApp,
}

impl eframe::App for PageApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        // A read that has ended opens its tab first, so the page sees it in this frame (and
        // starts it playing) before the editor's frame guards the close and paints it.
        self.app.poll_pending(&ctx);
        page_frame(&mut self.app, &ctx);
        eframe::App::ui(&mut self.app, ui, frame);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::App::save(&mut self.app, storage);
    }

    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        eframe::App::clear_color(&self.app, visuals)
    }
}

/// The page's part of each frame: files that arrived open, a new tab starts playing, the
/// window saying what a drop read and refused, and the test's reports.
fn page_frame(app: &mut SpratApp, ctx: &egui::Context) {
    let arrivals = PAGE.with_borrow_mut(|page| std::mem::take(&mut page.arrived));
    for arrival in arrivals {
        open_arrival(app, ctx, arrival);
    }
    play_new_tabs(app);
    tell_unsaved(app);
    report_window(ctx);
    super::test_hook::frame(app, ctx);
}

/// Puts the files in the store of provided files and opens the document they make.
fn open_arrival(app: &mut SpratApp, ctx: &egui::Context, mut arrival: Arrival) {
    let files = std::mem::take(&mut arrival.files);
    let provided = input::provide_files(files);
    for path in &provided.accepted {
        // A file dropped again under the same name replaces the pictures read before.
        app.pixels.invalidate(path);
    }
    arrival.refused.extend(provided.refused);
    arrival.opened = registry().document_among(&provided.accepted).cloned();
    arrival.accepted = provided.accepted;
    // Pictures alone are imported into the document on show, as dropped on the desktop.
    arrival.imported = arrival.opened.is_none() && app.import_if_pictures(ctx, &arrival.accepted);
    match &arrival.opened {
        Some(path) => app.open_path(ctx, path.clone()),
        None if arrival.imported || (arrival.accepted.is_empty() && arrival.refused.is_empty()) => {
        }
        None => app.say(
            Severity::Warning,
            "None of the files given is an animation Sprat opens.",
        ),
    }
    log::info!(
        "given to the page: {} files read, {} refused",
        arrival.accepted.len(),
        arrival.refused.len()
    );
    let needs_window =
        !arrival.refused.is_empty() || (arrival.opened.is_none() && !arrival.imported);
    PAGE.with_borrow_mut(|page| page.shown_report = needs_window.then_some(arrival));
}

/// What the last drop read and refused, when something was refused or nothing opened.
fn report_window(ctx: &egui::Context) {
    PAGE.with_borrow_mut(|page| {
        let Some(arrival) = &page.shown_report else {
            return;
        };
        let mut close = false;
        egui::Window::new("Files given to the page")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 60.0))
            .show(ctx, |ui| {
                ui.label(read_sentence(arrival));
                if !arrival.refused.is_empty() {
                    ui.label(format!("Not read ({}):", arrival.refused.len()));
                    for (path, why) in arrival.refused.iter().take(REFUSALS_NAMED) {
                        ui.label(format!("• {}: {why}", given::shown_name(path)));
                    }
                    let more = arrival.refused.len().saturating_sub(REFUSALS_NAMED);
                    if more > 0 {
                        ui.label(format!("… and {more} more."));
                    }
                }
                close = ui.button("OK").clicked();
            });
        if close {
            page.shown_report = None;
        }
    });
}

/// "Read 7 files; opened kfm/kfm.def." and the like.
fn read_sentence(arrival: &Arrival) -> String {
    let read = match arrival.accepted.len() {
        1 => "Read 1 file".to_string(),
        n => format!("Read {n} files"),
    };
    match &arrival.opened {
        Some(path) => format!("{read}; opened {}.", given::shown_name(path)),
        None if arrival.imported => format!("{read}; they are in the Import window."),
        None => format!("{read}; none of them is an animation Sprat opens."),
    }
}

/// The page asks before it is left while a document has unsaved edits: a browser tab closed
/// or reloaded would otherwise lose them without a word (a download does not clear the mark,
/// as nothing the page can reopen holds the edits).
fn tell_unsaved(app: &SpratApp) {
    let unsaved = app.any_unsaved();
    PAGE.with_borrow_mut(|page| {
        if page.told_unsaved != unsaved {
            page.told_unsaved = unsaved;
            page_set_unsaved(unsaved);
        }
    });
}

/// A document opened in the page starts playing: the page is where someone who just dropped a
/// character comes to see it move.
fn play_new_tabs(app: &mut SpratApp) {
    let still = page_still();
    PAGE.with_borrow_mut(|page| {
        for tab in &mut app.documents {
            if !page.tabs_seen.contains(&tab.id) {
                page.tabs_seen.push(tab.id);
                let doc = &mut tab.doc;
                if !still {
                    doc.player.play(doc.session.document());
                }
            }
        }
    });
}
