//! The open document and everything the editor knows about it: where it came from, its
//! diagnostics, the player, the selection.

use crate::app::context::checking::{CheckInput, CheckedState, Checking};
use crate::app::context::platform::Platform;
use crate::assets::ImageStore;
use crate::check::CheckOptions;
use crate::edit::{Command, Gesture};
use crate::formats::{Diagnostic, Format, ReadOptions, Subject};
use crate::model::{
    AnimationSet, DefaultBoxRule, ElementId, Frame, FrameId, Group, Sequence, SequenceId, TreeItem,
};
use crate::playback::Player;
use crate::session::Session;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use web_time::Instant;

/// What the last edit, undo or redo of a document did, in one sentence for the status bar
/// ("Mirrored boxes horizontally on 4 frames", "Undid: Set duration to 120 ms"), and when.
#[derive(Clone, Debug)]
pub struct DoneSentence {
    /// The sentence.
    pub text: String,
    /// When the change was made: a sentence said later (a command's own, with more to
    /// say) wins over it.
    pub at: Instant,
}

impl DoneSentence {
    fn now(text: String) -> Option<DoneSentence> {
        Some(DoneSentence {
            text,
            at: Instant::now(),
        })
    }
}

/// A document open in the editor.
pub struct OpenDocument {
    /// The document with its file, format, undo history and unsaved-changes state.
    pub session: Session,
    /// The diagnostics panel lists every diagnostic, not only the first ones.
    pub all_diagnostics_listed: bool,
    /// The diagnostics panel is shown although the check found notes only (no warning or
    /// error): the user asked for them (a note alone does not open the panel).
    pub notes_shown: bool,
    /// Plays the selected sequence; its frame index is the selected frame when paused.
    pub player: Player,
    /// Bumped whenever the document changes, so caches know to refresh.
    pub revision: u64,
    /// Tells this document from every other one opened while the editor runs: its sequence ids
    /// and its revision can be another open document's too (both start from 0), so caches of
    /// pictures keep to one document by this.
    pub identity: u64,
    /// The last gesture handed out, so each drag becomes one undo step.
    gestures: u64,
    /// The full check of the document (`sprat check`'s diagnostics), kept current.
    checking: Checking,
    /// What the last change did, until the shell shows it.
    done: Option<DoneSentence>,
    /// The box names the user said are hit and hurt boxes, for the box checks of a format
    /// that only names its boxes (kept in Sprat's settings by the file's path).
    pub box_roles: crate::boxes::roles::BoxRoles,
    /// When the tab was made, and whether the canvas has shown its first picture since (the
    /// time between is logged: docs/speed.md).
    pub opened: (Instant, bool),
}

/// A number no document opened before in this run has (see [`OpenDocument::identity`]).
fn next_identity() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl OpenDocument {
    /// Opens `document` at its default sequence, paused on the first frame; `format` is the
    /// one that read it (or the one it will be saved in).
    pub fn new(
        document: AnimationSet,
        path: Option<PathBuf>,
        format: &'static dyn Format,
        diagnostics: Vec<Diagnostic>,
    ) -> OpenDocument {
        let mut session = Session::with_document(document, format, path);
        session.set_diagnostics(diagnostics);
        OpenDocument::from_session(session)
    }

    /// A document the session already holds (a recovered one), with its diagnostics.
    pub fn from_session(session: Session) -> OpenDocument {
        let document = session.document();
        let first = document.first_sequence().map(|s| s.id).unwrap_or_default();
        let player = Player::new(document, first, 0);
        OpenDocument {
            session,
            all_diagnostics_listed: false,
            notes_shown: false,
            player,
            revision: 0,
            identity: next_identity(),
            gestures: 0,
            checking: Checking::default(),
            done: None,
            box_roles: Default::default(),
            opened: (Instant::now(), false),
        }
    }

    /// After the file was read again from disk.
    pub fn after_reload(&mut self) {
        self.after_change();
    }

    /// The document's diagnostics as `sprat check` gives them (what the reader said, the
    /// images' problems, the box warnings), from the last check ([`OpenDocument::keep_checked`]);
    /// until the first check ends, what the reader said (the session keeps it, so a reload or
    /// a recovery brings its own).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.checking
            .diagnostics()
            .unwrap_or(self.session.diagnostics())
    }

    /// True when the diagnostics hold a warning or an error, not notes only.
    pub fn has_problems(&self) -> bool {
        self.diagnostics()
            .iter()
            .any(|d| d.severity != crate::formats::Severity::Info)
    }

    /// Whether the first check has not ended yet (the counts are not `sprat check`'s yet).
    pub fn first_check_pending(&self) -> bool {
        self.checking.diagnostics().is_none()
    }

    /// Whether a check is under way or due (the document changed since the last one).
    pub fn is_checking(&self, options: &CheckOptions) -> bool {
        self.checking.is_running() || !self.checking.is_current(&self.checked_state(options))
    }

    /// What a check of the document as it is now, with `options`, is of: the hit and hurt
    /// box names are the ones the user gave this file, so a change of them checks again.
    fn checked_state(&self, options: &CheckOptions) -> CheckedState {
        CheckedState {
            revision: self.revision,
            saves: self.session.saves(),
            reader: self.session.diagnostics_version(),
            options: CheckOptions {
                roles: self.box_roles.clone(),
                ..options.clone()
            },
        }
    }

    /// Keeps [`OpenDocument::diagnostics`] current, called once a frame: takes a check that
    /// has ended (dropped if the document changed since it started), and starts one in
    /// `platform`'s background when the document, its save or what its reader said changed
    /// since the last (one at a time; `read` says how to read the file again after a save,
    /// `pixels` is the editor's picture store). `ctx` is asked to repaint when it ends.
    pub fn keep_checked(
        &mut self,
        platform: &dyn Platform,
        options: &CheckOptions,
        read: &ReadOptions,
        pixels: &std::sync::Arc<ImageStore>,
        ctx: &egui::Context,
    ) {
        let now = self.checked_state(options);
        if let Some(finished) = self.checking.take_finished(&now) {
            // The saved file's reader speaks for the file from now on; the check was already
            // of it, so only the version it is recorded under changes.
            self.session.set_diagnostics(finished.reader);
            self.checking.restamp(self.checked_state(options));
        }
        let now = self.checked_state(options);
        if self.checking.is_running() || self.checking.is_current(&now) {
            return;
        }
        let saved = self
            .session
            .path()
            .filter(|_| self.checking.needs_reread(now.saves))
            .map(Path::to_path_buf);
        let input = CheckInput {
            document: self.session.document(),
            format: self.session.format(),
            reader: self.session.diagnostics(),
            saved,
            read: read.clone(),
            pixels,
        };
        let ctx = ctx.clone();
        self.checking
            .start(platform, now, input, move || ctx.request_repaint());
    }

    /// The document.
    pub fn document(&self) -> &AnimationSet {
        self.session.document()
    }

    /// Where it was read from; `None` for a document never saved.
    pub fn path(&self) -> Option<&std::path::Path> {
        self.session.path()
    }

    /// The id of its format.
    pub fn format_id(&self) -> &str {
        self.session.format_id()
    }

    /// Its format's human name.
    pub fn format_name(&self) -> &'static str {
        self.session.format().name()
    }

    /// A fresh gesture: the edits given it until the next one are one undo step.
    pub fn new_gesture(&mut self) -> Gesture {
        self.gestures += 1;
        Gesture(self.gestures)
    }

    /// Applies an edit as an undo step; a refusal comes back as its message. The selection
    /// becomes what the command reports (a drawn box, the copies of moved inherited boxes).
    /// Says what it did (see [`OpenDocument::take_done_sentence`]).
    pub fn apply(&mut self, command: &dyn Command, gesture: Option<Gesture>) -> Result<(), String> {
        let before = self.session.history().position();
        let result = self.session.apply(command, gesture).map_err(|e| e.message);
        if result.is_ok() {
            let history = self.session.history();
            if history.position() != before {
                // The command's own label: for a drag, its latest move, which says where it
                // is now ("Set duration to 7 ticks"); the frames counted are the whole step's.
                let label = command.label();
                let changed = history.last_step_frames();
                let mut text = crate::text::done(&label, changed.len());
                text.push_str(&self.shared_cells_changed(&changed));
                self.done = DoneSentence::now(text);
            } else if gesture.is_none() {
                let text = format!("{}: nothing to change", command.label());
                self.done = DoneSentence::now(text);
            }
            self.after_change();
        }
        result
    }

    /// Undoes the last step; false if there was none. Says which step it undid.
    pub fn undo(&mut self) -> bool {
        let label = self.session.history().undo_label().map(str::to_string);
        self.history_step("Undid", label, Session::undo)
    }

    /// Redoes the last undone step; false if there was none. Says which step it redid.
    pub fn redo(&mut self) -> bool {
        let label = self.session.history().redo_label().map(str::to_string);
        self.history_step("Redid", label, Session::redo)
    }

    /// Takes one step through the history with `step`; when it moved, says `verb` and the
    /// step's `label`, and refreshes what depends on the document.
    fn history_step(
        &mut self,
        verb: &str,
        label: Option<String>,
        step: impl FnOnce(&mut Session) -> bool,
    ) -> bool {
        let done = step(&mut self.session);
        if done {
            self.done = DoneSentence::now(format!("{verb}: {}", label.unwrap_or_default()));
            self.after_change();
        }
        done
    }

    /// After an edit of the frames `changed`: which cells of the direction on show changed
    /// with the edited one because they show the same frame of the file (a ping-pong tag's
    /// way back), as the end of a sentence ("; cells 3 and 5 show that frame of the file,
    /// so both changed"); empty when no changed frame is shown twice.
    fn shared_cells_changed(&self, changed: &[crate::model::FrameId]) -> String {
        let cells = self.direction_frame_ids();
        let mut said = String::new();
        for id in changed {
            let showing: Vec<usize> = cells
                .iter()
                .enumerate()
                .filter(|(_, cell)| *cell == id)
                .map(|(i, _)| i)
                .collect();
            if showing.len() < 2 {
                continue;
            }
            let numbers: Vec<String> = showing.iter().map(usize::to_string).collect();
            let (last, first) = numbers.split_last().expect("two or more");
            let all = if showing.len() == 2 { "both" } else { "all" };
            said.push_str(&format!(
                "; cells {} and {last} show that frame of the file, so {all} changed",
                first.join(", ")
            ));
        }
        said
    }

    /// The frame each cell of the direction on show shows.
    pub fn direction_frame_ids(&self) -> Vec<crate::model::FrameId> {
        self.sequence()
            .and_then(|s| s.directions.get(self.player.direction()))
            .map(|d| d.frames.clone())
            .unwrap_or_default()
    }

    /// For each cell of the direction on show, the number of the file's frame it shows
    /// (its place among the document's frames, which is the file's order as read), where the
    /// format numbers its frames apart from the cells ([`Capabilities::numbered_file_frames`]);
    /// `None` elsewhere.
    ///
    /// [`Capabilities::numbered_file_frames`]: crate::formats::Capabilities::numbered_file_frames
    pub fn file_frame_numbers(&self) -> Option<Vec<usize>> {
        if !self.session.format().capabilities().numbered_file_frames {
            return None;
        }
        let arena = &self.session.document().frames;
        let numbers = self
            .direction_frame_ids()
            .iter()
            .map(|id| arena.get_index_of(id).unwrap_or(usize::MAX))
            .collect();
        Some(numbers)
    }

    /// What the last edit, undo or redo did, once: the shell puts it in the status bar
    /// unless something was said after it.
    pub fn take_done_sentence(&mut self) -> Option<DoneSentence> {
        self.done.take()
    }

    /// Why `change` cannot be made to the direction on show, on a format whose direction's
    /// frames are consecutive cells of one grid (a Solarus direction): frame N always shows
    /// cell N, so only the last frames can go (and Insert adds the next cell). None where it
    /// can be made.
    pub fn frame_layout_refusal(&self, change: FrameLayoutChange) -> Option<String> {
        if !self.session.format().capabilities().frames_are_grid_cells {
            return None;
        }
        let what = match change {
            FrameLayoutChange::Move => "moved",
            FrameLayoutChange::Duplicate => "duplicated",
            FrameLayoutChange::Paste => "pasted",
            FrameLayoutChange::Delete(cells) => {
                let count = self.direction_frames().len();
                let mut cells = cells.to_vec();
                cells.sort_unstable();
                cells.dedup();
                let last_ones = (count - cells.len().min(count)..count).collect::<Vec<_>>();
                if cells == last_ones {
                    return None;
                }
                "deleted from the middle (the last frames can go)"
            }
        };
        Some(format!(
            "{} files show a direction's frames as consecutive cells of its picture: frames cannot be {what}",
            self.format_name()
        ))
    }

    /// The selected cells of the direction on show (sorted); empty when the selection is elsewhere.
    pub fn selected_frames(&self) -> Vec<usize> {
        let selection = self.session.selection();
        if selection.sequence != Some(self.player.sequence())
            || selection.direction != self.player.direction()
            || selection.group.is_some()
        {
            return Vec::new();
        }
        let count = self.direction_frames().len();
        let mut frames: Vec<usize> = selection
            .frames
            .iter()
            .copied()
            .filter(|&i| i < count)
            .collect();
        frames.sort_unstable();
        frames.dedup();
        frames
    }

    /// Goes to a point of the history (`done` steps in effect).
    pub fn jump_to(&mut self, done: usize) {
        let was = self.session.history().done_count();
        self.session.jump_to(done);
        let now = self.session.history().done_count();
        if now < was {
            self.done =
                DoneSentence::now(format!("Undid {}", crate::text::count(was - now, "step")));
        } else if now > was {
            self.done =
                DoneSentence::now(format!("Redid {}", crate::text::count(now - was, "step")));
        }
        self.after_change();
    }

    /// After an edit, undo or redo: the player shows the sequence, direction and first selected
    /// frame the selection names (the canvas follows the primary selected frame).
    fn follow_selection(&mut self) {
        let selection = self.session.selection().clone();
        let Some(id) = selection.sequence else {
            return;
        };
        let Some(directions) = self
            .session
            .document()
            .sequence(id)
            .map(|s| s.directions.len())
        else {
            return;
        };
        if self.player.sequence() != id {
            self.player.set_sequence(self.session.document(), id);
        }
        if self.player.direction() != selection.direction && selection.direction < directions {
            self.player
                .set_direction(self.session.document(), selection.direction);
        }
        if let Some(first) = selection.frames.iter().min()
            && !selection.frames.contains(&self.player.frame_index())
        {
            self.player.seek_frame(self.session.document(), *first);
        }
    }

    /// Keeps the player and the selection valid after the document changed.
    fn after_change(&mut self) {
        self.revision += 1;
        self.follow_selection();
        let document = self.session.document();
        if document.sequence(self.player.sequence()).is_none() {
            let first = document.first_sequence().map(|s| s.id).unwrap_or_default();
            self.player = Player::new(document, first, 0);
        } else {
            let index = self.player.frame_index();
            let count = self.direction_frames().len();
            if index >= count && count > 0 {
                self.player.seek_frame(self.session.document(), count - 1);
            }
        }
        // An undone box, a deleted point: what no longer exists is no longer selected.
        let document = self.session.document();
        let mut elements = self.session.selection().elements.clone();
        elements.retain(|id| document.element(*id).is_some());
        if elements.len() != self.selected_elements().len() {
            self.select_elements(elements);
        }
    }

    /// The selected elements (canvas and inspector), in the order they were picked. They live
    /// in the session's selection, so every edit, undo and redo keeps and gives them back.
    pub fn selected_elements(&self) -> &[ElementId] {
        &self.session.selection().elements
    }

    /// The selected element when exactly one is selected (handles and the inspector's fields
    /// are for one element).
    pub fn single_element(&self) -> Option<ElementId> {
        match self.selected_elements()[..] {
            [only] => Some(only),
            _ => None,
        }
    }

    /// True when `id` is selected.
    pub fn is_selected(&self, id: ElementId) -> bool {
        self.selected_elements().contains(&id)
    }

    /// Selects exactly these elements (each once, in this order), on the canvas, in the
    /// inspector and in the session, so an undo gives them back.
    pub fn select_elements(&mut self, mut elements: Vec<ElementId>) {
        let mut seen = Vec::with_capacity(elements.len());
        elements.retain(|id| {
            let first = !seen.contains(id);
            seen.push(*id);
            first
        });
        let selection = self.session.selection().clone().with_elements(elements);
        self.session.set_selection(selection);
    }

    /// Selects one element alone.
    pub fn select_element(&mut self, id: ElementId) {
        self.select_elements(vec![id]);
    }

    /// Adds an element to the selection, or takes it out if it is in (Shift/Ctrl+click).
    pub fn toggle_element(&mut self, id: ElementId) {
        let mut elements = self.selected_elements().to_vec();
        match elements.iter().position(|e| *e == id) {
            Some(at) => {
                elements.remove(at);
            }
            None => elements.push(id),
        }
        self.select_elements(elements);
    }

    /// Selects no element.
    pub fn clear_elements(&mut self) {
        self.select_elements(Vec::new());
    }

    /// The file name shown in the title ("kfm.def", or "untitled").
    pub fn display_name(&self) -> String {
        self.session
            .path()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "untitled".to_string())
    }

    /// The window title: file name, its folder (two open files often share a name) and the
    /// format: "demo.sprat * — ~/art/demo (Sprat project) — Sprat".
    pub fn title(&self) -> String {
        let dirty = if self.session.is_dirty() { " *" } else { "" };
        let folder = self
            .session
            .path()
            .and_then(|p| p.parent())
            .filter(|folder| !folder.as_os_str().is_empty())
            .map(|folder| format!(" — {}", home_relative(folder)))
            .unwrap_or_default();
        format!(
            "{}{dirty}{folder} ({}) — Sprat",
            self.display_name(),
            self.format_name()
        )
    }

    /// The selected sequence.
    pub fn sequence(&self) -> Option<&Sequence> {
        self.session.document().sequence(self.player.sequence())
    }

    /// The frames of the selected direction, in play order.
    pub fn direction_frames(&self) -> Vec<&Frame> {
        match self.sequence() {
            Some(s) => self
                .session
                .document()
                .direction_frames(s, self.player.direction()),
            None => Vec::new(),
        }
    }

    /// For each cell of the selected direction, the other cells that show the same frame of
    /// the file (a ping-pong tag shows its middle frames twice): editing one changes them all.
    pub fn cells_sharing_frames(&self) -> Vec<Vec<usize>> {
        let ids: &[FrameId] = self
            .sequence()
            .and_then(|s| s.directions.get(self.player.direction()))
            .map_or(&[], |d| d.frames.as_slice());
        // The cells of each frame, gathered in one pass: the timeline asks at every paint,
        // and an action can have thousands of cells.
        let mut cells_of: HashMap<FrameId, Vec<usize>> = HashMap::with_capacity(ids.len());
        for (cell, id) in ids.iter().enumerate() {
            cells_of.entry(*id).or_default().push(cell);
        }
        ids.iter()
            .enumerate()
            .map(|(i, id)| cells_of[id].iter().copied().filter(|&j| j != i).collect())
            .collect()
    }

    /// The frame showing.
    pub fn frame(&self) -> Option<&Frame> {
        self.player
            .frame_id(self.session.document())
            .and_then(|id| self.session.document().frame(id))
    }

    /// Selects a sequence: shows its first frame, keeps playing if it was.
    pub fn select_sequence(&mut self, sequence: SequenceId) {
        if self.session.document().sequence(sequence).is_some() {
            self.player.set_sequence(self.session.document(), sequence);
            self.clear_elements();
        }
    }

    /// Selects a frame of the current direction and pauses on it.
    pub fn select_frame(&mut self, index: usize) {
        self.player.seek_frame(self.session.document(), index);
    }

    /// Selects what a diagnostic is about.
    pub fn select_subject(&mut self, subject: Subject) {
        match subject {
            Subject::Sequence(id) => self.select_sequence(id),
            Subject::Frame {
                sequence,
                direction,
                index,
                ..
            } => {
                self.select_sequence(sequence);
                self.player
                    .set_direction(self.session.document(), direction);
                self.select_frame(index);
            }
            // A missing or broken image: nothing in the tree to select.
            Subject::Image(_) => {}
        }
    }

    /// The sequences the tree shows under `filter`, in tree order.
    pub fn filtered_sequences(&self, filter: &str) -> Vec<SequenceId> {
        let mut out = Vec::new();
        collect_filtered(&self.session.document().root, filter, false, &mut out);
        out
    }

    /// Moves the selection `step` sequences through the filtered list (wrapping).
    pub fn select_neighbour_sequence(&mut self, filter: &str, step: isize) {
        let visible = self.filtered_sequences(filter);
        if visible.is_empty() {
            return;
        }
        let current = visible.iter().position(|id| *id == self.player.sequence());
        let len = visible.len() as isize;
        let next = match current {
            Some(i) => (i as isize + step).rem_euclid(len),
            None if step < 0 => len - 1,
            None => 0,
        };
        self.select_sequence(visible[next as usize]);
    }

    /// Moves to the next or previous direction (wrapping).
    pub fn select_neighbour_direction(&mut self, step: isize) {
        let Some(count) = self.sequence().map(|s| s.directions.len()) else {
            return;
        };
        if count > 1 {
            let next = (self.player.direction() as isize + step).rem_euclid(count as isize);
            self.player
                .set_direction(self.session.document(), next as usize);
        }
    }

    /// The effective frame rate of the selected sequence (for hold-based durations).
    pub fn frame_rate(&self) -> u32 {
        self.sequence()
            .and_then(|s| s.frame_rate)
            .or(self.session.document().frame_rate)
            .unwrap_or(0)
    }
}

/// The rule for AIR default boxes the preview follows.
pub fn box_rule(documented: bool) -> DefaultBoxRule {
    if documented {
        DefaultBoxRule::DefaultEndsAtOverride
    } else {
        DefaultBoxRule::ReturnToDefault
    }
}

/// Whether the tree filter `filter` shows `sequence`: its name or its title (a M.U.G.E.N
/// action's comment line) contains the text, ignoring case.
pub fn matches_filter(sequence: &Sequence, filter: &str) -> bool {
    let filter = filter.trim().to_lowercase();
    filter.is_empty()
        || sequence.name.to_lowercase().contains(&filter)
        || sequence
            .title
            .as_ref()
            .is_some_and(|title| title.to_lowercase().contains(&filter))
}

fn collect_filtered(group: &Group, filter: &str, group_matches: bool, out: &mut Vec<SequenceId>) {
    for item in &group.items {
        match item {
            TreeItem::Group(g) => {
                let matches = group_matches
                    || (!filter.trim().is_empty()
                        && g.name
                            .to_lowercase()
                            .contains(&filter.trim().to_lowercase()));
                collect_filtered(g, filter, matches, out);
            }
            TreeItem::Sequence(s) => {
                if group_matches || matches_filter(s, filter) {
                    out.push(s.id);
                }
            }
        }
    }
}

/// `folder` with the user's home folder written `~`, as file managers show it.
fn home_relative(folder: &Path) -> String {
    match std::env::var_os("HOME").map(PathBuf::from) {
        Some(home) if !home.as_os_str().is_empty() => match folder.strip_prefix(&home) {
            Ok(rest) if rest.as_os_str().is_empty() => "~".to_string(),
            Ok(rest) => format!("~/{}", rest.display()),
            Err(_) => folder.display().to_string(),
        },
        _ => folder.display().to_string(),
    }
}

/// How a change would lay out a direction's frames, for formats whose frames are cells of
/// one grid (see [`OpenDocument::frame_layout_refusal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameLayoutChange<'a> {
    /// Frames moved to another place.
    Move,
    /// Frames duplicated.
    Duplicate,
    /// Copied frames pasted.
    Paste,
    /// These cells deleted.
    Delete(&'a [usize]),
}
