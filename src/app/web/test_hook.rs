//! The test hook of the web page (`?test` in its address, for `tests/web_page.rs`): the page's
//! script is told what the editor shows (the document, sequence and frame on show, at which
//! time), and can ask for a save, an export or a screenshot, each carried out in a frame as
//! the editor's own commands are.

use super::given;
use crate::app::SpratApp;
use crate::app::context::commands::UICommand;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// Whether the page runs under a test (`?test`).
    #[wasm_bindgen(js_name = spratTesting)]
    fn page_testing() -> bool;
    /// Tells the test what the editor did (a JSON object).
    #[wasm_bindgen(js_name = spratTestReport)]
    fn test_report(report: &str);
    /// Hands the test a screenshot (PNG) with what it shows (a JSON object).
    #[wasm_bindgen(js_name = spratTestScreenshotTaken)]
    fn test_screenshot_taken(png: &[u8], shows: &str);
}

/// What the test asked for and was told.
#[derive(Default)]
struct Hook {
    /// What the test was last told is on show.
    last_shown: Option<String>,
    /// The test asked for a save, not yet carried out.
    save_asked: bool,
    /// The test asked for an export with the Export window's first choices, not yet started.
    export_asked: bool,
    /// Where the screenshot the test asked for is.
    screenshot: Screenshot,
}

/// The steps of a screenshot for the test: the canvas is set to a whole zoom (so the picture
/// compares with `sprat render --scale`), painted, then captured.
#[derive(Default)]
enum Screenshot {
    #[default]
    None,
    Asked,
    Zoomed,
}

thread_local! {
    static HOOK: RefCell<Hook> = RefCell::default();
}

/// The hook's part of a frame; nothing unless the page runs under a test.
pub(super) fn frame(app: &mut SpratApp, ctx: &egui::Context) {
    if !page_testing() {
        return;
    }
    if HOOK.with_borrow_mut(|hook| std::mem::take(&mut hook.save_asked)) {
        app.execute(ctx, UICommand::Save);
    }
    if HOOK.with_borrow_mut(|hook| std::mem::take(&mut hook.export_asked)) {
        export_for_test(app, ctx);
    }
    report_for_test(app, ctx);
    screenshot_for_test(app, ctx);
}

/// Tells the test what is on show when it changes, and saves once when asked to.
fn report_for_test(app: &mut SpratApp, ctx: &egui::Context) {
    let Some(doc) = app.active_document() else {
        return;
    };
    let shown = serde_json::json!({
        "document": doc.path().map(given::shown_name),
        "sequence": doc.sequence().map(|s| s.name.clone()),
        "frame": doc.player.frame_index(),
    })
    .to_string();
    let changed = HOOK.with_borrow_mut(|hook| {
        let changed = hook.last_shown.as_ref() != Some(&shown);
        hook.last_shown = Some(shown.clone());
        changed
    });
    if changed {
        let time = ctx.input(|i| i.time);
        test_report(&format!(r#"{{"shown":{shown},"time":{time}}}"#));
    }
}

/// The test asks for a screenshot of the canvas at a whole zoom, with what it shows.
#[wasm_bindgen(js_name = spratTestScreenshot)]
pub fn test_screenshot() {
    HOOK.with_borrow_mut(|hook| hook.screenshot = Screenshot::Asked);
    super::wake::wake();
}

/// Moves the test's screenshot on by a step (see [`Screenshot`]).
fn screenshot_for_test(app: &mut SpratApp, ctx: &egui::Context) {
    let step = HOOK.with_borrow_mut(|hook| std::mem::take(&mut hook.screenshot));
    if matches!(step, Screenshot::None) {
        return;
    }
    ctx.request_repaint();
    let ppp = ctx.pixels_per_point();
    let Some(tab) = app.active_tab_mut() else {
        HOOK.with_borrow_mut(|hook| hook.screenshot = step);
        return;
    };
    let next = match step {
        // Once the canvas has fitted the document to the window (at its first paint).
        Screenshot::Asked if !tab.canvas.fit_requested => {
            tab.canvas.zoom = tab.canvas.zoom.floor().max(1.0);
            // The picture alone: no boxes, points, axes or grid over it.
            let view = &mut app.settings.view;
            (view.overlay, view.points, view.axis_cross, view.pixel_grid) =
                (false, false, false, false);
            Screenshot::Zoomed
        }
        Screenshot::Zoomed => {
            let origin = tab
                .canvas
                .last_rect
                .map(|rect| (rect.center() + tab.canvas.pan) * ppp);
            let shows = serde_json::json!({
                "document": tab.doc.path().map(given::shown_name),
                "sequence": tab.doc.sequence().map(|s| s.name.clone()),
                "frame": tab.doc.player.frame_index(),
                "zoom": tab.canvas.zoom,
                "origin": origin.map(|o| [o.x, o.y]),
            })
            .to_string();
            let taken = egui::ScreenshotCallback::new(move |image| match png_of(&image) {
                Ok(png) => test_screenshot_taken(&png, &shows),
                Err(error) => log::error!("the screenshot could not be encoded: {error}"),
            });
            ctx.send_viewport_cmd(egui::ViewportCommand::Screenshot(taken));
            Screenshot::None
        }
        step => step,
    };
    HOOK.with_borrow_mut(|hook| hook.screenshot = next);
}

/// A screenshot as PNG.
fn png_of(image: &egui::ColorImage) -> Result<Vec<u8>, png::EncodingError> {
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, image.size[0] as u32, image.size[1] as u32);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let rgba: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
    encoder.write_header()?.write_image_data(&rgba)?;
    Ok(png)
}

/// The test asks for an export of the document on show with the Export window's first
/// choices (PNG frames of the sequence on show), as its Export button starts it.
#[wasm_bindgen(js_name = spratTestExport)]
pub fn test_export() {
    HOOK.with_borrow_mut(|hook| hook.export_asked = true);
    super::wake::wake();
}

/// Starts the export the test asked for, as the Export window's button does.
fn export_for_test(app: &mut SpratApp, ctx: &egui::Context) {
    let pixels = app.pixels.clone();
    let Some(id) = app.active_tab_id() else {
        return;
    };
    let platform = app.platform.as_ref();
    if let Some(tab) = app.documents.iter_mut().find(|t| t.id == id) {
        tab.export.start(&tab.doc);
        if let Some(choices) = &tab.export.choices {
            let request = choices.request(&tab.doc);
            let (export, doc) = (&mut tab.export, &tab.doc);
            crate::app::export::start(ctx, export, doc, &pixels, platform, request);
        }
    }
}

/// The test asks the editor to save the document on show, as the Save command does (at the
/// next frame).
#[wasm_bindgen(js_name = spratTestSave)]
pub fn test_save() {
    HOOK.with_borrow_mut(|hook| hook.save_asked = true);
    super::wake::wake();
}
