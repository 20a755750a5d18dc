//! Driving the real editor in tests: open a file through File > Open with scripted dialog
//! answers, pick a sequence in the tree, read the status bar, undo.

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sprat::app::SpratApp;
use sprat::app::context::platform::{DialogOutcome, ScriptedDialogs};
use sprat::app::context::settings::Settings;
use sprat::formats::sprat::SpratFormat;
use sprat::formats::{Format, WriteContext};
use std::path::{Path, PathBuf};

/// The editor window at `size` with `path` opened through File > Open, once it has loaded;
/// `later` answers the file dialogs that follow, in order.
pub fn editor_opening(
    path: &Path,
    later: &[PathBuf],
    size: egui::Vec2,
) -> Harness<'static, SpratApp> {
    editor_opening_with(path, later, Vec::new(), size)
}

/// [`editor_opening`], with `file_lists` answering the dialogs that ask for several files
/// (import, add sprites, .act files), in order.
pub fn editor_opening_with(
    path: &Path,
    later: &[PathBuf],
    file_lists: Vec<Vec<PathBuf>>,
    size: egui::Vec2,
) -> Harness<'static, SpratApp> {
    let mut dialogs = ScriptedDialogs::default();
    for answer in std::iter::once(&path.to_path_buf()).chain(later) {
        dialogs
            .answers
            .push_back(DialogOutcome::Chosen(answer.clone()));
    }
    dialogs.file_lists.extend(file_lists);
    let mut harness = Harness::builder()
        .with_size(size)
        .build_eframe(move |_| SpratApp::new(Settings::default(), Box::new(dialogs)));
    open_next(&mut harness);
    assert!(
        harness.state().active_document().is_some(),
        "{path:?} did not open"
    );
    harness
}

/// File > Open with the next scripted answer, and waits until the new file has loaded and
/// shows in its own tab.
pub fn open_next(harness: &mut Harness<'_, SpratApp>) {
    let path_of = |h: &Harness<'_, SpratApp>| {
        h.state()
            .active_document()
            .map(|o| o.path().map(Path::to_path_buf))
    };
    let before = path_of(harness);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::O);
    for _ in 0..1000 {
        harness.step();
        let now = path_of(harness);
        if now.is_some() && now != before && !harness.state().is_loading() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    harness.run_steps(3);
}

/// Steps the editor until the check of the document on show (its diagnostics as
/// `sprat check` gives them, computed in the background) has ended and the timeline's
/// thumbnails (made on a worker) have come.
pub fn wait_for_check(harness: &mut Harness<'_, SpratApp>) {
    let options = sprat::check::CheckOptions::default();
    for _ in 0..3000 {
        harness.step();
        let doc = harness
            .state()
            .active_document()
            .expect("a document is open");
        // The timeline's thumbnails are made on a worker too, each a change to paint.
        if !doc.is_checking(&options) && !harness.state().textures.thumbnails_pending() {
            harness.run_steps(2);
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("the check did not end");
}

/// Clicks the tree row named `name` (a sequence or a group).
pub fn click_row(harness: &mut Harness<'_, SpratApp>, name: &str) {
    harness.get_by_role_and_label(Role::Button, name).click();
    harness.run_steps(2);
}

/// The name of the sequence on show.
pub fn sequence_name(harness: &Harness<'_, SpratApp>) -> String {
    let doc = harness
        .state()
        .active_document()
        .expect("a document is open");
    doc.sequence().expect("a sequence is selected").name.clone()
}

/// The status bar's last message.
pub fn status(harness: &Harness<'_, SpratApp>) -> String {
    harness
        .state()
        .status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

/// Focuses the text field labelled `label` and types `text` into it (not applied: no Enter).
pub fn type_into(harness: &mut Harness<'_, SpratApp>, label: &str, text: &str) {
    harness
        .get_by_role_and_label(Role::TextInput, label)
        .focus();
    harness.run();
    harness
        .get_by_role_and_label(Role::TextInput, label)
        .type_text(text);
}

/// A fresh folder for one test (its path, and the `tempfile` guard that removes it when the
/// test ends, failed or not).
pub struct TempDir(pub PathBuf, tempfile::TempDir);

impl TempDir {
    /// An empty folder named after the test (`sprat-gui-<name>-…`) in the temporary folder.
    pub fn new(name: &str) -> TempDir {
        let guard = tempfile::Builder::new()
            .prefix(&format!("sprat-gui-{name}-"))
            .tempdir()
            .unwrap();
        TempDir(guard.path().to_path_buf(), guard)
    }

    /// The showcase set as a Sprat project named `name` in this folder.
    pub fn showcase(&self, name: &str) -> PathBuf {
        showcase_as(&self.0, &SpratFormat, name)
    }
}

/// What hangs from the points of the tab on show (hung sequences, files read, the picker).
pub fn hanging<'a>(
    harness: &'a Harness<'_, SpratApp>,
) -> &'a sprat::app::canvas::tools::hang::Hanging {
    &harness.state().active_tab().unwrap().canvas.tools.hang
}

/// The number of steps the undo history holds (what Ctrl+Z can take back).
pub fn undo_steps(harness: &Harness<'_, SpratApp>) -> usize {
    harness
        .state()
        .active_document()
        .unwrap()
        .session
        .history()
        .done_count()
}

/// How many frames the shown direction of the active document has (the timeline's cells).
pub fn frame_count(harness: &Harness<'_, SpratApp>) -> usize {
    harness
        .state()
        .active_document()
        .unwrap()
        .direction_frames()
        .len()
}

/// Asks the window to close, as the desktop's close button does.
pub fn request_quit(harness: &mut Harness<'_, SpratApp>) {
    harness
        .input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    harness.run_steps(3);
}

/// What an earlier run left behind when it ended without saving: `path` edited (the punch's
/// loop point set to `loop_point`) and autosaved into `recovery`.
pub fn leave_autosaved_edit(path: &Path, recovery: &Path, loop_point: usize) {
    use sprat::edit::inspector::{SequenceField, SetSequenceField};
    use sprat::formats::ReadContext;
    use sprat::session::{AUTOSAVE_INTERVAL, RecoveryStore, Session};
    let mut session = Session::open(path, &ReadContext::for_path(path)).unwrap();
    session.enable_autosave(RecoveryStore::new(recovery));
    let punch = session.document().sequence_by_name("punch").unwrap().id;
    let field = SequenceField::LoopPoint(Some(loop_point));
    session
        .apply(
            &SetSequenceField {
                sequence: punch,
                field,
            },
            None,
        )
        .unwrap();
    let start = std::time::Instant::now();
    session.tick(start);
    let report = session.tick(start + AUTOSAVE_INTERVAL);
    assert!(report.autosaved.is_some(), "{report:?}");
}

/// A fresh editor that looks for unsaved work in `recovery` at start, as after a crash.
pub fn editor_after_crash(recovery: &Path) -> Harness<'static, SpratApp> {
    let dir = recovery.to_path_buf();
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |_| {
            let mut app = SpratApp::new(Settings::default(), Box::new(ScriptedDialogs::default()));
            app.recovery_dir = Some(dir);
            app.look_for_recovery();
            app
        });
    harness.run_steps(2);
    harness
}

/// Ctrl+Z.
pub fn undo(harness: &mut Harness<'_, SpratApp>) {
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
}

/// Presses at `from`, moves in eight small steps to `to` and releases there, a frame per step
/// (what egui needs to see a drag start, move and drop).
pub fn drag(harness: &mut Harness<'_, SpratApp>, from: egui::Pos2, to: egui::Pos2) {
    harness.hover_at(from);
    harness.run_steps(1);
    harness.drag_at(from);
    harness.run_steps(1);
    for step in 1..=8 {
        let t = step as f32 / 8.0;
        harness.hover_at(from + (to - from) * t);
        harness.run_steps(1);
    }
    harness.drop_at(to);
    harness.run_steps(2);
}

/// A press (`pressed`) or release of the primary button at `pos`.
pub fn primary(pos: egui::Pos2, pressed: bool) -> egui::Event {
    egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    }
}

/// A click where no widget is labelled (the canvas): the pointer rests there a frame, then
/// the button goes down and up.
pub fn canvas_click(harness: &mut Harness<'_, SpratApp>, at: egui::Pos2) {
    harness.hover_at(at);
    harness.step();
    harness.event(primary(at, true));
    harness.event(primary(at, false));
    harness.run_steps(2);
}

/// A primary-button drag where no widget is labelled (the canvas), in four moves, one frame
/// each.
pub fn canvas_drag(harness: &mut Harness<'_, SpratApp>, from: egui::Pos2, to: egui::Pos2) {
    harness.hover_at(from);
    harness.step();
    harness.event(primary(from, true));
    harness.step();
    for i in 1..=4 {
        let at = if i == 4 {
            to
        } else {
            from + (to - from) * (i as f32 / 4.0)
        };
        harness.event(egui::Event::PointerMoved(at));
        harness.step();
    }
    harness.event(primary(to, false));
    harness.run_steps(2);
}

/// KFM's `.def`, `.air` and `.sff` copied into `dir`, writable (the corpus may be read-only);
/// the copy's `.def`.
pub fn kfm_copy(dir: &Path) -> PathBuf {
    let source = crate::common::corpus().join("mugen/kfm");
    for name in ["kfm.def", "kfm.air", "kfm.sff"] {
        let to = dir.join(name);
        std::fs::copy(source.join(name), &to).unwrap();
        let mut permissions = std::fs::metadata(&to).unwrap().permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        permissions.set_readonly(false);
        std::fs::set_permissions(&to, permissions).unwrap();
    }
    dir.join("kfm.def")
}

/// The corpus file at `relative` copied, writable, under its own name into a fresh folder
/// named after `name`; the folder goes when the returned guard is dropped.
pub fn corpus_copy(name: &str, relative: &str) -> (TempDir, PathBuf) {
    let dir = TempDir::new(name);
    let source = crate::common::corpus().join(relative);
    let path = dir.0.join(source.file_name().unwrap());
    crate::common::copy_writable(&source, &path);
    (dir, path)
}

/// zsdx's hero tunic (Solarus 1.x Lua) copied, writable, into `sprites/hero/` of a fresh
/// folder named after `name`; the folder goes when the returned guard is dropped.
pub fn tunic_copy(name: &str) -> (TempDir, PathBuf) {
    let root = TempDir::new(name);
    let dir = root.0.join("sprites/hero");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tunic1.dat");
    let source = crate::common::corpus().join("solarus/lua-1.x/zsdx/sprites/hero/tunic1.dat");
    std::fs::copy(source, &path).unwrap();
    let mut permissions = std::fs::metadata(&path).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    permissions.set_readonly(false);
    std::fs::set_permissions(&path, permissions).unwrap();
    (root, path)
}

/// The editor at 1280x800 on a copy of KFM in a fresh folder named after `name`; the folder
/// goes when the returned guard is dropped.
pub fn kfm_editor(name: &str) -> (TempDir, Harness<'static, SpratApp>) {
    let dir = TempDir::new(name);
    let def = kfm_copy(&dir.0);
    let mut harness = editor_opening(&def, &[], egui::vec2(1280.0, 800.0));
    harness.run_steps(2);
    (dir, harness)
}

/// The showcase set written in `format` as `dir/name`.
pub fn showcase_as(dir: &Path, format: &dyn Format, name: &str) -> PathBuf {
    let path = dir.join(name);
    let written = format
        .write(&super::showcase(), &WriteContext::for_path(&path))
        .unwrap();
    std::fs::write(&path, written.bytes).unwrap();
    path
}

/// The showcase set as a Sprat project in a fresh folder named after the test file (`suite`)
/// and the test (`name`); the folder goes when the returned guard is dropped.
pub fn showcase_file(suite: &str, name: &str) -> (TempDir, PathBuf) {
    let dir = TempDir::new(&format!("{suite}-{name}"));
    let path = showcase_as(&dir.0, &SpratFormat, "showcase.sprat");
    (dir, path)
}

/// A file dropped on the window, as the desktop hands it over.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

/// `path` as a file dropped on the window.
pub fn dropped(path: &Path) -> egui::DroppedFileHandle {
    std::sync::Arc::new(Dropped(path.to_path_buf()))
}
