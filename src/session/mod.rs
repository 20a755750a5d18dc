//! An open document: its file and format, undo history, selection, unsaved-changes state,
//! safe saving, autosave to a recovery file, and noticing changes on disk.
//!
//! Reading order: [`Session`] here, then [`atomic`] (how files are written), [`backups`]
//! (previous versions, in Sprat's data folder), [`fingerprint`] (what each file held when
//! read, compared before a save replaces it), [`recovery`] (autosave and crash recovery) and
//! [`watch`] (changes on disk). Time is given by the caller
//! ([`Session::tick`]), so everything here is testable without waiting.

pub mod atomic;
pub mod backups;
pub mod fingerprint;
mod kept_pictures;
mod needs_a_frame;
pub mod recovery;
pub mod target;
#[cfg(test)]
mod test_files;
pub mod watch;

pub use atomic::SaveError;
pub use backups::{Backup, BackupStore};
pub use fingerprint::{Fingerprint, Fingerprints, ReadBytes};
pub use recovery::{AUTOSAVE_INTERVAL, RecoveryEntry, RecoveryStore};
pub use watch::{FileChange, FileWatch};

use crate::edit::{Command, EditResult, Gesture, History, HistoryPosition, Selection};
use crate::formats::{
    Diagnostic, Format, Loss, ReadContext, ReadFailure, WriteContext, Written, registry,
};
use crate::model::AnimationSet;
use crate::pixels::PixelSource;
use atomic::FileToSave;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often files on disk are checked for changes.
pub const WATCH_INTERVAL: Duration = Duration::from_secs(1);

/// One open document.
#[derive(Debug)]
pub struct Session {
    document: AnimationSet,
    history: History,
    selection: Selection,
    path: Option<PathBuf>,
    /// The format it is saved in.
    format: &'static dyn Format,
    /// The history position that matches the file on disk; `None` = nothing on disk matches.
    saved_at: Option<HistoryPosition>,
    diagnostics: Vec<Diagnostic>,
    /// Bumped whenever `diagnostics` is replaced, so what is derived from it is redone.
    diagnostics_version: u64,
    /// How many saves this session has written to disk.
    saves: u64,
    watch: FileWatch,
    last_watch: Option<Instant>,
    autosave: Option<Autosave>,
    /// Where saves keep the versions they replace; `None` keeps none.
    backups: Option<BackupStore>,
    /// What each file of the document held when read, or when a save of this session last
    /// wrote it: a save stops before replacing a file that holds something else now.
    read: Fingerprints,
    /// The frames whose pictures the format writes as the file has them: edits that would
    /// change them are refused ([`kept_pictures`]).
    frames_as_read: std::collections::HashSet<crate::model::FrameId>,
}

#[derive(Debug)]
struct Autosave {
    store: RecoveryStore,
    folder: PathBuf,
    /// When the document was first seen dirty and not yet written aside.
    pending_since: Option<Instant>,
    /// The history position last written aside.
    written_at: Option<HistoryPosition>,
    original_written: bool,
    /// Write on a thread of its own (the editor, whose frames must not wait for the disk);
    /// else within [`Session::tick`].
    in_background: bool,
    /// A write under way on its thread, with the history position it writes.
    writing: Option<(
        HistoryPosition,
        std::thread::JoinHandle<std::io::Result<()>>,
    )>,
}

impl Autosave {
    /// Waits for a write under way and takes its result.
    fn finish_writing(&mut self, report: &mut TickReport) {
        let Some((position, handle)) = self.writing.take() else {
            return;
        };
        let result = handle
            .join()
            .unwrap_or_else(|_| Err(std::io::Error::other("the writing thread stopped")));
        self.record(position, result, report);
    }

    /// Records the outcome of a write of the document at `position`.
    fn record(
        &mut self,
        position: HistoryPosition,
        result: std::io::Result<()>,
        report: &mut TickReport,
    ) {
        match result {
            Ok(()) => {
                self.written_at = Some(position);
                self.original_written = true;
                report.autosaved = Some(self.folder.clone());
            }
            Err(error) => {
                report.autosave_error = Some(format!(
                    "Could not write the recovery file: {}",
                    atomic::plain_io_error(&error)
                ));
            }
        }
    }
}

/// A write prepared by [`Session::prepare_save_as`]: show [`PendingSave::losses`], and if the user
/// agrees, pass it to [`Session::commit_save_as`].
#[derive(Debug)]
pub struct PendingSave {
    path: PathBuf,
    format: &'static dyn Format,
    written: Written,
    prepared_at: HistoryPosition,
    /// Companions that would be written outside the main file's folder.
    outside: Vec<PathBuf>,
    /// The user agreed to write `outside`.
    outside_confirmed: bool,
    /// Files this save would replace that another program changed since they were read.
    changed_outside: Vec<PathBuf>,
    /// The user chose to replace them anyway.
    changed_outside_confirmed: bool,
    /// The user agreed to replace files without write permission.
    read_only_confirmed: bool,
}

impl PendingSave {
    /// What the target format cannot hold; empty for a lossless save.
    pub fn losses(&self) -> &[Loss] {
        &self.written.losses
    }

    /// Where it will be written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The target format.
    pub fn format(&self) -> &'static dyn Format {
        self.format
    }

    /// The bytes of the main file and its companions, as they will be written.
    pub fn written(&self) -> &Written {
        &self.written
    }

    /// Files this save would write outside the main file's folder (a companion the document
    /// names by an absolute path or one climbing with `..`): written only once confirmed.
    pub fn writes_outside(&self) -> &[PathBuf] {
        &self.outside
    }

    /// The user confirmed the exact paths of [`PendingSave::writes_outside`].
    pub fn confirm_outside(&mut self) {
        self.outside_confirmed = true;
    }

    /// Files this save would replace that another program changed since the document read
    /// them (or this session last saved them): replaced only once the user says so
    /// ([`PendingSave::overwrite_changes_outside`]), the version replaced then kept in the
    /// backups when the session keeps them.
    pub fn changed_outside(&self) -> &[PathBuf] {
        &self.changed_outside
    }

    /// The user chose "Save anyway" over the files of [`PendingSave::changed_outside`].
    pub fn overwrite_changes_outside(&mut self) {
        self.changed_outside_confirmed = true;
    }

    /// The user said files without write permission may be replaced (after a save was refused
    /// with [`target::RefusalReason::ReadOnly`]); each keeps its mode.
    pub fn confirm_read_only(&mut self) {
        self.read_only_confirmed = true;
    }

    /// Whether the user must see something before this save is committed: losses, files
    /// outside the folder, or files changed by another program.
    pub fn needs_confirmation(&self) -> bool {
        !self.written.losses.is_empty()
            || (!self.outside.is_empty() && !self.outside_confirmed)
            || (!self.changed_outside.is_empty() && !self.changed_outside_confirmed)
    }

    /// Every file this save writes, with its bytes: the main file, then its companions.
    fn targets(&self) -> Vec<(PathBuf, &[u8])> {
        let dir = self.path.parent().unwrap_or(Path::new(""));
        std::iter::once((self.path.clone(), self.written.bytes.as_slice()))
            .chain(
                self.written
                    .companions
                    .iter()
                    .map(|c| (dir.join(&c.relative_path), c.bytes.as_slice())),
            )
            .collect()
    }
}

/// A successful save.
#[derive(Clone, Debug, Default)]
pub struct SaveReport {
    /// The main file written.
    pub path: PathBuf,
    /// Companion files written beside it.
    pub companions: Vec<PathBuf>,
    /// Those of the files above that already held their new bytes, and were not written.
    pub unchanged: Vec<PathBuf>,
    /// What the format could not hold (empty when saving in the file's own format).
    pub losses: Vec<Loss>,
}

/// What one [`Session::tick`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    /// The recovery file written, if one was due.
    pub autosaved: Option<PathBuf>,
    /// Why an autosave that was due failed (it is retried next interval).
    pub autosave_error: Option<String>,
    /// Files that changed on disk.
    pub changes: Vec<FileChange>,
}

/// Removes what a killed save of `path` and of the other files `document` was read from left
/// beside them: its companions, and the archives, palettes and sheets a save may write too
/// (done when a document is opened; the next save does it too).
pub fn remove_stale_temporaries_of(path: &Path, document: &AnimationSet) {
    atomic::remove_stale_temporaries(path);
    for file in target::files_read_by(document) {
        atomic::remove_stale_temporaries(&file);
    }
}

impl Session {
    /// Opens a file in whichever format it is in.
    pub fn open(path: &Path, options: &ReadContext) -> Result<Session, ReadFailure> {
        let (loaded, format) = registry().open(path, options)?;
        let mut session = Session::with_document(loaded.document, format, Some(path.into()));
        session.diagnostics = loaded.diagnostics;
        remove_stale_temporaries_of(path, &session.document);
        session.read = Fingerprints::of_document(Some(path), &session.document);
        // Record the files as they are now, so a change made before the first tick is seen.
        session.check_files();
        Ok(session)
    }

    /// A session for a document read elsewhere (the editor reads on a thread of its own), or
    /// that came from elsewhere (a new document, a recovery). It counts as saved until edited;
    /// `path` is `None` for a document never saved.
    pub fn with_document(
        document: AnimationSet,
        format: &'static dyn Format,
        path: Option<PathBuf>,
    ) -> Session {
        let history = History::new();
        let saved_at = Some(history.position());
        // Whoever read it, the frames a format writes as read are held to that.
        let frames_as_read = kept_pictures::frames_as_read(&document, format);
        Session {
            document,
            history,
            selection: Selection::none(),
            path,
            format,
            saved_at,
            diagnostics: Vec::new(),
            diagnostics_version: 0,
            saves: 0,
            watch: FileWatch::new(),
            last_watch: None,
            autosave: None,
            backups: None,
            read: Fingerprints::new(),
            frames_as_read,
        }
    }

    /// What each file of the document held when it was read (the editor reads a document on
    /// a thread of its own and records this there, see [`Fingerprints::of_document`]); a
    /// save compares the disk with it before replacing a file.
    pub fn set_fingerprints(&mut self, read: Fingerprints) {
        self.read = read;
    }

    /// What each file of the document held when read, or when this session last saved it.
    pub fn fingerprints(&self) -> &Fingerprints {
        &self.read
    }

    /// The document.
    pub fn document(&self) -> &AnimationSet {
        &self.document
    }

    /// The file it belongs to; `None` for a document never saved.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The id of the format it is saved in.
    pub fn format_id(&self) -> &'static str {
        self.format.id()
    }

    /// The format it is saved in.
    pub fn format(&self) -> &'static dyn Format {
        self.format
    }

    /// Warnings from reading the file.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Replaces what the reader said (a document read elsewhere, on a worker thread; the
    /// saved file read again).
    pub fn set_diagnostics(&mut self, diagnostics: Vec<Diagnostic>) {
        self.diagnostics = diagnostics;
        self.diagnostics_version += 1;
    }

    /// Changes whenever what the reader said is replaced (a reload, [`Session::set_diagnostics`]):
    /// the editor checks the document again then.
    pub fn diagnostics_version(&self) -> u64 {
        self.diagnostics_version
    }

    /// How many saves were written to disk: after one, the editor reads the saved file again
    /// for its reader's diagnostics, whose line numbers are those of the bytes written.
    pub fn saves(&self) -> u64 {
        self.saves
    }

    /// The selection.
    pub fn selection(&self) -> &Selection {
        &self.selection
    }

    /// Replaces the selection (clicks in the editor).
    pub fn set_selection(&mut self, selection: Selection) {
        self.selection = selection;
    }

    /// The undo history (labels for the menu and the history list).
    pub fn history(&self) -> &History {
        &self.history
    }

    /// True when the document differs from the file on disk (the title's marker).
    pub fn is_dirty(&self) -> bool {
        self.saved_at != Some(self.history.position())
    }

    /// The name for the title bar: the file name, or "Untitled", with `*` when unsaved.
    pub fn title(&self) -> String {
        let name = self.path.as_deref().and_then(Path::file_name).map_or_else(
            || "Untitled".to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        if self.is_dirty() {
            format!("{name} *")
        } else {
            name
        }
    }

    /// Runs a command as an undo step (see [`History::apply`]) and takes the selection it reports.
    /// Refused, nothing changed, when it changes the pictures of frames the format writes as
    /// the file has them (an Aseprite file's cels), or leaves no frame in a format whose files
    /// need one.
    pub fn apply(&mut self, command: &dyn Command, gesture: Option<Gesture>) -> EditResult {
        let needs_a_frame = self.format.capabilities().needs_a_frame;
        if needs_a_frame || !self.frames_as_read.is_empty() {
            // Tried on a copy first: what the format cannot hold is refused unchanged.
            let mut tried = self.document.clone();
            History::new().apply(&mut tried, &self.selection, command, None)?;
            kept_pictures::check(&self.document, &tried, self.format, &self.frames_as_read)?;
            if needs_a_frame {
                needs_a_frame::check(&tried, self.format)?;
            }
        }
        self.selection =
            self.history
                .apply(&mut self.document, &self.selection, command, gesture)?;
        Ok(())
    }

    /// Why the graphics of `frame` cannot be edited: it was read from the file and the format
    /// writes its pictures as the file has them (an Aseprite file's cels); `None` when they can.
    pub fn why_pictures_kept(&self, frame: crate::model::FrameId) -> Option<String> {
        self.frames_as_read
            .contains(&frame)
            .then(|| kept_pictures::why_kept(self.format))
    }

    /// Undoes the last step; false if there was none.
    pub fn undo(&mut self) -> bool {
        let selection = self.history.undo(&mut self.document);
        self.take_selection(selection)
    }

    /// Redoes the last undone step; false if there was none.
    pub fn redo(&mut self) -> bool {
        let selection = self.history.redo(&mut self.document);
        self.take_selection(selection)
    }

    /// Goes to a point of the history list (`done_count` steps in effect).
    pub fn jump_to(&mut self, done_count: usize) {
        let selection = self.history.jump_to(&mut self.document, done_count);
        self.take_selection(selection);
    }

    /// Takes the selection a step through the history reports; false when there was no step.
    fn take_selection(&mut self, selection: Option<Selection>) -> bool {
        let stepped = selection.is_some();
        if let Some(selection) = selection {
            self.selection = selection;
        }
        stepped
    }

    /// Saves in the file's own format, to its own path.
    pub fn save(&mut self, pixels: Option<&dyn PixelSource>) -> Result<SaveReport, SaveError> {
        let path = self.path.clone().ok_or_else(|| {
            SaveError::new("This document has never been saved; choose where to save it.")
        })?;
        let pending = self.prepare_save_as(&path, self.format.id(), pixels)?;
        self.commit_save_as(pending)
    }

    /// Writes the document in `format` for saving to `path`, without touching the disk, so the
    /// losses can be shown and confirmed first.
    pub fn prepare_save_as(
        &self,
        path: &Path,
        format: &str,
        pixels: Option<&dyn PixelSource>,
    ) -> Result<PendingSave, SaveError> {
        let target = registry().by_id(format).ok_or_else(|| {
            SaveError::new(format!(
                "Sprat does not know the format \"{format}\". Nothing was written."
            ))
        })?;
        if !target.capabilities().write {
            return Err(SaveError::new(format!(
                "Sprat can read {} files but not write them. Nothing was written.",
                target.name()
            )));
        }
        let context = WriteContext {
            path: Some(crate::formats::absolute(path.to_path_buf())),
            pixels,
        };
        let written = target.write(&self.document, &context).map_err(|e| {
            SaveError::new(format!(
                "Could not write \"{}\" as {}: {e}. Nothing was saved.",
                path.display(),
                target.name()
            ))
        })?;
        let dir = path.parent().unwrap_or(Path::new(""));
        let outside = written
            .companions
            .iter()
            .filter(|c| crate::formats::escapes_folder(&c.relative_path))
            .map(|c| dir.join(&c.relative_path))
            .collect();
        let mut pending = PendingSave {
            path: path.to_path_buf(),
            format: target,
            written,
            prepared_at: self.history.position(),
            outside,
            outside_confirmed: false,
            changed_outside: Vec::new(),
            changed_outside_confirmed: false,
            read_only_confirmed: false,
        };
        pending.changed_outside = self.changed_before_writing(&pending);
        Ok(pending)
    }

    /// The files `pending` would replace that another program changed since they were read.
    fn changed_before_writing(&self, pending: &PendingSave) -> Vec<PathBuf> {
        let targets = pending.targets();
        self.read
            .changed_before_writing(targets.iter().map(|(path, bytes)| (path.as_path(), *bytes)))
    }

    /// Saves a prepared write. The session then belongs to the new file and format.
    pub fn commit_save_as(&mut self, pending: PendingSave) -> Result<SaveReport, SaveError> {
        if pending.prepared_at != self.history.position() {
            return Err(SaveError::new(
                "The document changed after the save was prepared; nothing was written. Save again.",
            ));
        }
        if !pending.outside.is_empty() && !pending.outside_confirmed {
            let list: Vec<String> = pending
                .outside
                .iter()
                .map(|p| format!("\"{}\"", p.display()))
                .collect();
            return Err(SaveError::new(format!(
                "Not saved: this document names {} outside the folder of \"{}\"; Sprat writes there only when you confirm that path. Nothing was written.",
                list.join(", "),
                pending.path.display()
            )));
        }
        // Looked at again: another program may have written since the save was prepared.
        let changed = self.changed_before_writing(&pending);
        let unconfirmed = !pending.changed_outside_confirmed
            || changed.iter().any(|p| !pending.changed_outside.contains(p));
        if !changed.is_empty() && unconfirmed {
            return Err(SaveError::changed_outside(changed));
        }
        let dir = pending.path.parent().unwrap_or(Path::new(""));
        let companions: Vec<PathBuf> = pending
            .written
            .companions
            .iter()
            .map(|c| dir.join(&c.relative_path))
            .collect();
        let mut files = vec![FileToSave {
            path: pending.path.clone(),
            bytes: &pending.written.bytes,
        }];
        for (companion, path) in pending.written.companions.iter().zip(&companions) {
            files.push(FileToSave {
                path: path.clone(),
                bytes: &companion.bytes,
            });
        }
        let saved_over = crate::formats::sff::document::as_read_before_saving(
            &self.document,
            &files.iter().map(|f| f.path.clone()).collect::<Vec<_>>(),
        );
        let mut rule = target::WriteRule {
            replace_read_only: pending.read_only_confirmed,
            ..target::WriteRule::save()
        };
        // Saved as another format, the document is converted: the files it reads (its own
        // file, its archives, sheets and palettes) are never written over.
        if pending.format.id() != self.format.id() {
            rule = rule.sparing(target::files_read_by(&self.document));
            rule.read_by_document.extend(self.path.clone());
        }
        let written = atomic::save_files_with_rule(
            &files,
            self.backups
                .as_ref()
                .map(|b| b as &dyn atomic::OldVersionSink),
            &rule,
        )?;
        let unchanged: Vec<PathBuf> = files
            .iter()
            .map(|f| f.path.clone())
            .filter(|path| !written.contains(path))
            .collect();
        // Kept whatever is undone: what an undo back to before an edit of these files means.
        self.document.companion_originals.extend(saved_over);
        self.path = Some(pending.path.clone());
        if pending.format.id() != self.format.id() {
            // Converted: the new format writes every frame's pictures anew, or holds the
            // frames read from a file of its own (none, since the document came from another).
            self.frames_as_read = kept_pictures::frames_as_read(&self.document, pending.format);
        }
        self.format = pending.format;
        self.saved_at = Some(self.history.position());
        self.saves += 1;
        self.watch.refresh(&pending.path);
        for path in &companions {
            self.watch.refresh(path);
        }
        for file in &files {
            self.read.record(&file.path, file.bytes);
        }
        self.discard_recovery();
        Ok(SaveReport {
            path: pending.path,
            companions,
            unchanged,
            losses: pending.written.losses,
        })
    }

    /// Keeps the version each save replaces in `store` (the editor: the `backups` folder of
    /// its data folder), never beside the files. Without it a save keeps no backup.
    pub fn enable_backups(&mut self, store: BackupStore) {
        self.backups = Some(store);
    }

    /// The kept versions of this document's file, newest first (for File > Restore backup;
    /// [`BackupStore::restore`] puts one back, after which the file is opened again).
    pub fn backups(&self) -> Vec<Backup> {
        match (&self.backups, &self.path) {
            (Some(store), Some(path)) => store.list(path),
            _ => Vec::new(),
        }
    }

    /// The backup store saves keep versions in, when enabled.
    pub fn backup_store(&self) -> Option<&BackupStore> {
        self.backups.as_ref()
    }

    /// Turns on autosave into `store` (a folder for this document is made on first write).
    pub fn enable_autosave(&mut self, store: RecoveryStore) {
        let folder = store.new_folder(self.path.as_deref());
        self.autosave = Some(Autosave {
            store,
            folder,
            pending_since: None,
            written_at: None,
            original_written: false,
            in_background: false,
            writing: None,
        });
    }

    /// Writes the recovery files on a thread of their own from now on, so [`Session::tick`]
    /// never waits for the disk (the editor); the result shows in a later tick's report.
    pub fn autosave_in_background(&mut self) {
        if let Some(autosave) = self.autosave.as_mut() {
            autosave.in_background = true;
        }
    }

    /// Whether a recovery write is under way on its thread.
    pub fn autosave_writing(&self) -> bool {
        self.autosave.as_ref().is_some_and(|a| a.writing.is_some())
    }

    /// The recovery folder this session writes to, when autosave is on.
    pub fn recovery_folder(&self) -> Option<&Path> {
        self.autosave.as_ref().map(|a| a.folder.as_path())
    }

    /// Called regularly by the caller with the current time: writes the recovery file once
    /// the document has had unsaved changes for [`AUTOSAVE_INTERVAL`], and checks files on disk
    /// every [`WATCH_INTERVAL`].
    pub fn tick(&mut self, now: Instant) -> TickReport {
        let mut report = self.tick_autosave(now);
        let watch_due = self
            .last_watch
            .is_none_or(|last| now.saturating_duration_since(last) >= WATCH_INTERVAL);
        if watch_due {
            self.last_watch = Some(now);
            report.changes = self.check_files();
        }
        report
    }

    /// [`Session::tick`] without looking at the disk: for a caller that learns of changed
    /// files otherwise (the editor's watching thread, given [`Session::watched_stamps`]) and
    /// then calls [`Session::check_files`].
    pub fn tick_autosave(&mut self, now: Instant) -> TickReport {
        let mut report = TickReport::default();
        self.autosave_if_due(now, &mut report);
        report
    }

    /// Every file [`Session::check_files`] looks at, with the stamp it last saw of each (one
    /// not seen yet is looked at now).
    pub fn watched_stamps(&mut self) -> Vec<(PathBuf, watch::Stamp)> {
        let paths = watch::watched_paths(self.path.as_deref(), &self.document);
        self.watch.baseline(paths)
    }

    /// How long until [`Session::tick`] writes the recovery file, when one is waiting (the
    /// editor wakes up then rather than ticking on a timer).
    pub fn autosave_due_in(&self, now: Instant) -> Option<Duration> {
        let autosave = self.autosave.as_ref()?;
        if autosave.writing.is_some() {
            // Look again soon for the write's result.
            return Some(Duration::from_millis(100));
        }
        let since = autosave.pending_since?;
        Some(AUTOSAVE_INTERVAL.saturating_sub(now.saturating_duration_since(since)))
    }

    fn autosave_if_due(&mut self, now: Instant, report: &mut TickReport) {
        let position = self.history.position();
        let dirty = self.is_dirty();
        let Some(autosave) = self.autosave.as_mut() else {
            return;
        };
        if autosave
            .writing
            .as_ref()
            .is_some_and(|(_, handle)| handle.is_finished())
        {
            autosave.finish_writing(report);
        }
        if autosave.writing.is_some() {
            return;
        }
        if !dirty || autosave.written_at == Some(position) {
            autosave.pending_since = None;
            return;
        }
        let since = *autosave.pending_since.get_or_insert(now);
        if now.saturating_duration_since(since) < AUTOSAVE_INTERVAL {
            return;
        }
        self.write_recovery(report);
    }

    /// Writes the unsaved document to its recovery folder now, whatever the time since the
    /// last edit, and waits until it is written: for a process told to stop (SIGTERM, a
    /// logout), which keeps the last edit rather than the one of up to
    /// [`AUTOSAVE_INTERVAL`] ago. A write under way on its thread is waited for first; a
    /// document without unsaved changes, or already written at this point of its history,
    /// writes nothing. Without autosave on, nothing is written.
    pub fn autosave_now(&mut self) -> TickReport {
        let mut report = TickReport::default();
        let position = self.history.position();
        let dirty = self.is_dirty();
        let Some(autosave) = self.autosave.as_mut() else {
            return report;
        };
        autosave.finish_writing(&mut report);
        if !dirty || autosave.written_at == Some(position) {
            return report;
        }
        let in_background = std::mem::replace(&mut autosave.in_background, false);
        self.write_recovery(&mut report);
        if let Some(autosave) = self.autosave.as_mut() {
            autosave.in_background = in_background;
        }
        report
    }

    /// Writes the document to its recovery folder: on a thread of its own when autosave runs
    /// in the background (recorded by a later tick), else now.
    fn write_recovery(&mut self, report: &mut TickReport) {
        let position = self.history.position();
        let Some(autosave) = self.autosave.as_mut() else {
            return;
        };
        autosave.pending_since = None;
        let with_original = !autosave.original_written;
        if autosave.in_background {
            // The thread writes a copy of the document as it is now; the next tick after it
            // finishes records the result.
            let (store, folder) = (autosave.store.clone(), autosave.folder.clone());
            let (path, format) = (self.path.clone(), self.format.id());
            let (document, diagnostics) = (self.document.clone(), self.diagnostics.clone());
            let read = self.read.clone();
            let handle = std::thread::spawn(move || {
                store.write(
                    &folder,
                    path.as_deref(),
                    format,
                    &document,
                    &diagnostics,
                    &read,
                    with_original,
                )
            });
            autosave.writing = Some((position, handle));
            return;
        }
        let result = autosave.store.write(
            &autosave.folder,
            self.path.as_deref(),
            self.format.id(),
            &self.document,
            &self.diagnostics,
            &self.read,
            with_original,
        );
        autosave.record(position, result, report);
    }

    /// Checks the open file and the files its pixels come from, now.
    pub fn check_files(&mut self) -> Vec<FileChange> {
        self.watch.poll(self.path.as_deref(), &self.document)
    }

    /// Re-reads the open file from disk (after the user agreed to take the outside change).
    /// The history is cleared, since its ids belong to the old content; the selection keeps
    /// whatever still exists.
    pub fn reload(&mut self, options: &ReadContext) -> Result<(), ReadFailure> {
        let Some(path) = self.path.clone() else {
            return Ok(());
        };
        let fresh = Session::open(&path, options)?;
        self.selection = self.selection.valid_in(&fresh.document);
        self.document = fresh.document;
        self.format = fresh.format;
        self.frames_as_read = fresh.frames_as_read;
        self.set_diagnostics(fresh.diagnostics);
        self.history.clear();
        self.saved_at = Some(self.history.position());
        self.watch = fresh.watch;
        self.read = fresh.read;
        self.discard_recovery();
        Ok(())
    }

    /// Reads again the pixels of imported pictures (held in memory, see
    /// [`crate::edit::import`]) that came from `path`, after it changed on disk, so a picture
    /// redrawn in another program shows in place. Like the pixels of any image file, this is
    /// not an undo step; the document then differs from its file. Returns true when a
    /// picture was refreshed; a file that cannot be decoded now leaves the pixels as they were.
    pub fn refresh_imported(&mut self, path: &Path) -> bool {
        let imported = |image: &crate::model::SourceImage| {
            matches!(image.kind, crate::model::ImageKind::Memory(_))
                && image.resolved.as_deref() == Some(path)
        };
        if !self.document.images.iter().any(imported) {
            return false;
        }
        let Ok(pixels) = crate::assets::decode::decode_file(path) else {
            return false;
        };
        let pixels = crate::model::MemoryImage::new(pixels);
        for image in self.document.images.iter_mut().filter(|i| imported(i)) {
            image.kind = crate::model::ImageKind::Memory(pixels.clone());
        }
        self.mark_unsaved();
        true
    }

    /// Keeps the document as it is in memory after the file changed on disk: it now differs
    /// from the disk, so it counts as unsaved.
    pub fn keep_mine(&mut self) {
        self.saved_at = None;
    }

    /// Marks the document as differing from anything on disk.
    pub(crate) fn mark_unsaved(&mut self) {
        self.saved_at = None;
    }

    pub(crate) fn adopt_recovery_folder(&mut self, store: RecoveryStore, folder: PathBuf) {
        self.autosave = Some(Autosave {
            store,
            folder,
            pending_since: None,
            written_at: None,
            original_written: true,
            in_background: false,
            writing: None,
        });
    }

    /// Removes this session's recovery files (after a save, or when the user closes the
    /// document, saved or not).
    pub fn discard_recovery(&mut self) {
        if let Some(autosave) = self.autosave.as_mut() {
            // A write under way would bring the folder back after it is removed.
            autosave.finish_writing(&mut TickReport::default());
            if let Err(error) = recovery::remove_folder(&autosave.folder)
                && error.kind() != std::io::ErrorKind::NotFound
            {
                log::warn!(
                    "could not remove the recovery files in {}: {error}",
                    autosave.folder.display()
                );
            }
            autosave.written_at = None;
            autosave.pending_since = None;
            autosave.original_written = false;
        }
    }

    /// Closes the document: its recovery files go (the caller has asked about unsaved changes).
    pub fn close(mut self) {
        self.discard_recovery();
    }
}
