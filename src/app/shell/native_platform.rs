//! The desktop: the desktop's own file dialogs (through rfd), threads for background work,
//! saves and exports written to disk, and the demo read from the source tree. Also the
//! settings read before the window exists.

#[cfg(not(target_arch = "wasm32"))]
use crate::app::context::platform::DialogOutcome;
use crate::app::context::platform::{Dialogs, ExportDelivery, Platform};
#[cfg(not(target_arch = "wasm32"))]
use crate::app::context::settings::{STORAGE_KEY, Settings};
use crate::session::{PendingSave, SaveError, SaveReport, Session};
use std::path::{Path, PathBuf};

/// The desktop platform, with its file dialogs (the desktop's own, or scripted in tests).
pub struct NativePlatform {
    dialogs: Box<dyn Dialogs>,
}

impl NativePlatform {
    /// The desktop asking through `dialogs`.
    pub fn new(dialogs: Box<dyn Dialogs>) -> NativePlatform {
        NativePlatform { dialogs }
    }
}

impl Platform for NativePlatform {
    fn dialogs(&mut self) -> &mut dyn Dialogs {
        self.dialogs.as_mut()
    }

    /// On a thread of its own.
    fn run_in_background(&self, job: Box<dyn FnOnce() + Send>) {
        std::thread::spawn(job);
    }

    /// Written to disk, never destroying the previous file.
    fn deliver_save(
        &mut self,
        session: &mut Session,
        pending: PendingSave,
    ) -> Result<SaveReport, SaveError> {
        session.commit_save_as(pending)
    }

    fn export_delivery(&self) -> ExportDelivery {
        ExportDelivery::Disk
    }

    fn has_disk(&self) -> bool {
        true
    }

    /// Where the bundled demo lives: installed with the program (see [`installed_demo`]),
    /// else in the source tree it was built from.
    fn demo_path(&self) -> PathBuf {
        std::env::current_exe()
            .ok()
            .and_then(|program| installed_demo(&program))
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat"))
    }
}

/// The demo installed with `program`: where the Debian package puts it
/// (`/usr/share/sprat/demo/` for `/usr/bin/sprat`), or in `demo` beside the program, as
/// the Windows zip and installer do (`demo\demo.sprat` beside `sprat.exe`).
fn installed_demo(program: &Path) -> Option<PathBuf> {
    let folder = program.parent()?;
    let beside = folder.join("demo").join("demo.sprat");
    let shared = folder
        .parent()
        .map(|prefix| prefix.join("share/sprat/demo/demo.sprat"));
    shared
        .into_iter()
        .chain(std::iter::once(beside))
        .find(|path| path.is_file())
}

/// The desktop's own dialogs, through rfd (the XDG portal on Linux).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Default)]
pub struct NativeDialogs;

#[cfg(not(target_arch = "wasm32"))]
impl Dialogs for NativeDialogs {
    fn pick_file_to_open(&mut self, extensions: &[&str]) -> DialogOutcome {
        let started = std::time::Instant::now();
        let chosen = rfd::FileDialog::new()
            .set_title("Open an animation")
            .add_filter("Animation files", extensions)
            .add_filter("All files", &["*"])
            .pick_file();
        outcome(chosen, started)
    }

    fn pick_file_to_save(
        &mut self,
        format_name: &str,
        extensions: &[&str],
        suggested: &Path,
    ) -> DialogOutcome {
        let started = std::time::Instant::now();
        let mut dialog = rfd::FileDialog::new()
            .set_title(format!("Save as {format_name}"))
            .add_filter(format_name, extensions);
        if let Some(dir) = suggested.parent().filter(|d| !d.as_os_str().is_empty()) {
            dialog = dialog.set_directory(dir);
        }
        if let Some(name) = suggested.file_name() {
            dialog = dialog.set_file_name(name.to_string_lossy());
        }
        outcome(dialog.save_file(), started)
    }

    fn pick_files_to_import(&mut self, extensions: &[&str]) -> DialogOutcome<Vec<PathBuf>> {
        let started = std::time::Instant::now();
        let chosen = rfd::FileDialog::new()
            .set_title("Import frames")
            .add_filter("Images", extensions)
            .pick_files();
        outcome(chosen, started)
    }

    fn pick_folder_to_import(&mut self) -> DialogOutcome {
        let started = std::time::Instant::now();
        let chosen = rfd::FileDialog::new()
            .set_title("Import a folder of image sequences")
            .pick_folder();
        outcome(chosen, started)
    }
}

/// rfd says `None` both for "cancelled" and for "no portal to ask"; a person cannot cancel a
/// dialog in a few milliseconds, so an instant `None` means none was shown.
#[cfg(not(target_arch = "wasm32"))]
fn outcome<T>(chosen: Option<T>, started: std::time::Instant) -> DialogOutcome<T> {
    match chosen {
        Some(path) => DialogOutcome::Chosen(path),
        None if started.elapsed() < std::time::Duration::from_millis(150) => {
            DialogOutcome::Unavailable
        }
        None => DialogOutcome::Cancelled,
    }
}

/// Reads the stored settings before the window exists (its size comes from them). eframe
/// keeps its storage as a RON map of strings in `app.ron`; nothing stored yet, or anything
/// unreadable, gives the defaults.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_stored_settings(app_id: &str) -> Settings {
    let Some(dir) = eframe::storage_dir(app_id) else {
        return Settings::default();
    };
    let stored = std::fs::read_to_string(dir.join("app.ron"))
        .ok()
        .and_then(|text| ron::from_str::<std::collections::HashMap<String, String>>(&text).ok())
        .and_then(|map| map.get(STORAGE_KEY).cloned())
        .and_then(|value| ron::from_str::<Settings>(&value).ok());
    stored.unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_is_found_where_the_package_or_the_windows_zip_puts_it() {
        let root = tempfile::tempdir().unwrap();
        let program = root.path().join("Sprat").join("sprat.exe");
        std::fs::create_dir_all(program.parent().unwrap()).unwrap();
        assert_eq!(installed_demo(&program), None, "no demo installed");

        let beside = root.path().join("Sprat").join("demo").join("demo.sprat");
        std::fs::create_dir_all(beside.parent().unwrap()).unwrap();
        std::fs::write(&beside, "").unwrap();
        assert_eq!(installed_demo(&program), Some(beside));

        let shared = root.path().join("share/sprat/demo/demo.sprat");
        std::fs::create_dir_all(shared.parent().unwrap()).unwrap();
        std::fs::write(&shared, "").unwrap();
        assert_eq!(
            installed_demo(&program),
            Some(shared),
            "the package's place first"
        );
    }
}
