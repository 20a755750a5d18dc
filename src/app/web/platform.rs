//! The page as the editor's platform: the browser's file dialogs, background work as tasks
//! of the page's one thread, saves and exports handed over as downloads (a page has no disk),
//! and the demo built into the program.

use super::given;
use super::page;
use crate::app::context::platform::{DialogOutcome, Dialogs, ExportDelivery, Platform};
use crate::session::{PendingSave, SaveError, SaveReport, Session};
use std::path::{Path, PathBuf};

/// The web page.
#[derive(Default)]
pub(super) struct WebPlatform {
    dialogs: WebDialogs,
}

impl Platform for WebPlatform {
    fn dialogs(&mut self) -> &mut dyn Dialogs {
        &mut self.dialogs
    }

    /// The web has one thread: the job runs as a task of its own once the page has painted
    /// the frame that started it, so the window saying what is under way shows first.
    fn run_in_background(&self, job: Box<dyn FnOnce() + Send>) {
        wasm_bindgen_futures::spawn_local(async move {
            after_paint().await;
            job();
        });
    }

    /// Downloaded; the document keeps its unsaved mark, as no disk holds the edits.
    fn deliver_save(
        &mut self,
        _session: &mut Session,
        pending: PendingSave,
    ) -> Result<SaveReport, SaveError> {
        download_save(&pending)
    }

    fn export_delivery(&self) -> ExportDelivery {
        ExportDelivery::HandedOver(download_export)
    }

    fn has_disk(&self) -> bool {
        false
    }

    /// The demo is inside the program: its files are given to the readers (once) as provided
    /// files, under `/demo`.
    fn demo_path(&self) -> PathBuf {
        static PROVIDED: std::sync::Once = std::sync::Once::new();
        PROVIDED.call_once(|| {
            let files = [
                (
                    "demo.sprat",
                    &include_bytes!("../../../assets/demo/demo.sprat")[..],
                ),
                (
                    "demo.png",
                    &include_bytes!("../../../assets/demo/demo.png")[..],
                ),
            ];
            crate::formats::input::provide_files(
                files
                    .iter()
                    .map(|(name, bytes)| (PathBuf::from("/demo").join(name), bytes.to_vec()))
                    .collect(),
            );
        });
        PathBuf::from("/demo/demo.sprat")
    }
}

/// Waits for a task of its own (a zero timeout): the browser paints between tasks.
async fn after_paint() {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback(&resolve);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// A prepared save, downloaded: the files the native save writes, byte for byte (in one zip
/// when there are several). The document keeps its unsaved mark, as no disk holds the edits.
fn download_save(pending: &PendingSave) -> Result<SaveReport, SaveError> {
    let written = pending.written();
    let main_name = pending
        .path()
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "saved".to_string());
    let mut files = vec![given::FileOut {
        name: main_name,
        bytes: &written.bytes,
    }];
    files.extend(written.companions.iter().map(|c| given::FileOut {
        name: c.relative_path.clone(),
        bytes: &c.bytes,
    }));
    let stem = given::stem_of(pending.path(), "saved");
    let (name, bytes) = given::download_of(&files, &stem).map_err(SaveError::new)?;
    page::download_in_page(&name, &bytes);
    Ok(SaveReport {
        path: PathBuf::from(name),
        companions: Vec::new(),
        unchanged: Vec::new(),
        losses: pending.losses().to_vec(),
    })
}

/// What an export to `target` drew (each file with the path the native export writes it to),
/// downloaded under names relative to the target's folder (in one zip named after the target
/// when there are several). Returns the paths.
fn download_export(files: &[(PathBuf, Vec<u8>)], target: &Path) -> Result<Vec<PathBuf>, String> {
    let folder = target.parent().unwrap_or(Path::new(""));
    let out: Vec<given::FileOut> = files
        .iter()
        .map(|(path, bytes)| given::FileOut {
            name: path
                .strip_prefix(folder)
                .unwrap_or(path)
                .to_string_lossy()
                .into_owned(),
            bytes,
        })
        .collect();
    let (name, bytes) = given::download_of(&out, &given::stem_of(target, "export"))?;
    page::download_in_page(&name, &bytes);
    Ok(files.iter().map(|(path, _)| path.clone()).collect())
}

/// File dialogs in the page: the browser's own for opening (what is picked arrives later, as
/// a drop does), the download's name for saving.
#[derive(Default)]
struct WebDialogs;

impl Dialogs for WebDialogs {
    /// The browser's dialog answers later: its files open when they have been read.
    fn pick_file_to_open(&mut self, _extensions: &[&str]) -> DialogOutcome {
        page::pick_files("Open an animation with its files", &[]);
        DialogOutcome::Cancelled
    }

    /// A save downloads its files; they are named after the suggested file.
    fn pick_file_to_save(
        &mut self,
        _format_name: &str,
        _extensions: &[&str],
        suggested: &Path,
    ) -> DialogOutcome {
        DialogOutcome::Chosen(suggested.to_path_buf())
    }

    /// The browser's dialog answers later: the pictures picked go to the Import window when
    /// they have been read, as dropped ones do.
    fn pick_files_to_import(&mut self, extensions: &[&str]) -> DialogOutcome<Vec<PathBuf>> {
        page::pick_files("Import frames", extensions);
        DialogOutcome::Cancelled
    }
}
