//! Exact before/after copies of the parts of a document an edit touched.
//!
//! Commands never write their own undo code. They change the document through a [`Tx`], which
//! copies each part (a frame, the tree, the image list, ...) the first time it is touched. Undo
//! puts those copies back, so it restores the document bit for bit, ids and arena order included,
//! whatever the command did; a refused command is rolled back the same way.

use super::error::{EditError, EditResult};
use super::selection::Selection;
use crate::model::{
    AnimationSet, EditedFile, Frame, FrameId, Group, Metadata, Sequence, SequenceId, Slice,
    SourceImage,
};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Copies of some parts of a document; `None` fields were not touched.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Snapshot {
    /// Touched frames: their content, or `None` if absent.
    frames: BTreeMap<FrameId, Option<Frame>>,
    /// The order of the frame arena, kept once any frame is touched.
    frame_order: Option<Vec<FrameId>>,
    root: Option<Group>,
    images: Option<Vec<SourceImage>>,
    slices: Option<Vec<Slice>>,
    default_sequence: Option<Option<SequenceId>>,
    set_fields: Option<(Metadata, Option<u32>)>,
    next_id: Option<u64>,
    /// Unsaved contents of edited files (SFF archives); the bytes are shared, not copied.
    edited_files: Option<Vec<EditedFile>>,
}

impl Snapshot {
    /// The current state of the same parts this snapshot holds.
    pub(crate) fn capture_like(&self, doc: &AnimationSet) -> Snapshot {
        Snapshot {
            frames: self
                .frames
                .keys()
                .map(|id| (*id, doc.frames.get(id).cloned()))
                .collect(),
            frame_order: self
                .frame_order
                .as_ref()
                .map(|_| doc.frames.keys().copied().collect()),
            root: self.root.as_ref().map(|_| doc.root.clone()),
            images: self.images.as_ref().map(|_| doc.images.clone()),
            slices: self.slices.as_ref().map(|_| doc.slices.clone()),
            default_sequence: self.default_sequence.map(|_| doc.default_sequence),
            set_fields: self
                .set_fields
                .as_ref()
                .map(|_| (doc.metadata.clone(), doc.frame_rate)),
            next_id: self.next_id.map(|_| doc.next_id),
            edited_files: self.edited_files.as_ref().map(|_| doc.edited_files.clone()),
        }
    }

    /// Puts the held parts back into `doc`.
    pub(crate) fn restore(&self, doc: &mut AnimationSet) {
        let mut absent: HashSet<FrameId> = HashSet::new();
        for (id, slot) in &self.frames {
            match slot {
                Some(frame) => {
                    doc.frames.insert(*id, frame.clone());
                }
                None => {
                    absent.insert(*id);
                }
            }
        }
        // One pass over the arena, however many frames go (removing them one by one would
        // shift the rest each time).
        if !absent.is_empty() {
            doc.frames.retain(|id, _| !absent.contains(id));
        }
        if let Some(order) = &self.frame_order {
            let position: HashMap<FrameId, usize> =
                order.iter().enumerate().map(|(i, id)| (*id, i)).collect();
            doc.frames
                .sort_by_cached_key(|id, _| position.get(id).copied().unwrap_or(usize::MAX));
        }
        if let Some(root) = &self.root {
            doc.root = root.clone();
        }
        if let Some(images) = &self.images {
            doc.images = images.clone();
        }
        if let Some(slices) = &self.slices {
            doc.slices = slices.clone();
        }
        if let Some(default) = self.default_sequence {
            doc.default_sequence = default;
        }
        if let Some((metadata, rate)) = &self.set_fields {
            doc.metadata = metadata.clone();
            doc.frame_rate = *rate;
        }
        if let Some(next) = self.next_id {
            doc.next_id = next;
        }
        if let Some(files) = &self.edited_files {
            doc.edited_files = files.clone();
        }
    }

    /// The frames that differ between this copy and `after` (a copy of the same parts taken
    /// later): the frames a step added, removed or changed.
    pub(crate) fn changed_frames(&self, after: &Snapshot) -> Vec<FrameId> {
        self.frames
            .iter()
            .filter(|(id, frame)| after.frames.get(id) != Some(frame))
            .map(|(id, _)| *id)
            .collect()
    }

    /// The "before" of two consecutive steps done as one: the earlier copy of each part wins.
    pub(crate) fn merge_before(earlier: Snapshot, later: Snapshot) -> Snapshot {
        let mut frames = later.frames;
        frames.extend(earlier.frames);
        Snapshot {
            frames,
            frame_order: earlier.frame_order.or(later.frame_order),
            root: earlier.root.or(later.root),
            images: earlier.images.or(later.images),
            slices: earlier.slices.or(later.slices),
            default_sequence: earlier.default_sequence.or(later.default_sequence),
            set_fields: earlier.set_fields.or(later.set_fields),
            next_id: earlier.next_id.or(later.next_id),
            edited_files: earlier.edited_files.or(later.edited_files),
        }
    }
}

/// An edit in progress: the document, plus copies of everything changed so far.
///
/// Reading goes through [`Tx::doc`]; every change goes through a `*_mut` method or one of the
/// frame arena helpers, which record the part first.
pub struct Tx<'a> {
    doc: &'a mut AnimationSet,
    before: Snapshot,
    selection: Selection,
}

impl<'a> Tx<'a> {
    pub(crate) fn new(doc: &'a mut AnimationSet, selection: &Selection) -> Tx<'a> {
        Tx {
            doc,
            before: Snapshot::default(),
            selection: selection.clone(),
        }
    }

    /// Ends the edit: what was touched (as it was before) and the selection to show after it.
    pub(crate) fn finish(self) -> (Snapshot, Selection) {
        (self.before, self.selection)
    }

    /// Undoes everything done through this transaction.
    pub(crate) fn roll_back(self) {
        self.before.restore(self.doc);
    }

    /// The document as it is now, for reading.
    pub fn doc(&self) -> &AnimationSet {
        self.doc
    }

    /// The selection to show after the command: the editor's current one until a command
    /// changes it.
    pub fn selection(&self) -> &Selection {
        &self.selection
    }

    /// Asks the editor to show this selection after the command.
    pub fn select(&mut self, selection: Selection) {
        self.selection = selection;
    }

    /// A fresh id.
    pub fn alloc_id(&mut self) -> u64 {
        self.before.next_id.get_or_insert(self.doc.next_id);
        self.doc.alloc_id()
    }

    /// A frame, for changing.
    pub fn frame_mut(&mut self, id: FrameId) -> EditResult<&mut Frame> {
        self.touch_frame(id);
        self.doc
            .frames
            .get_mut(&id)
            .ok_or_else(|| EditError::new(format!("frame {id} does not exist")))
    }

    /// Adds a frame at the end of the arena under a fresh id.
    pub fn add_frame(&mut self, frame: Frame) -> FrameId {
        let id = FrameId(self.alloc_id());
        self.touch_frame(id);
        self.doc.frames.insert(id, frame);
        id
    }

    /// Removes frames from the arena in one pass over it, the others keeping their order
    /// (callers make sure nothing refers to them).
    pub fn remove_frames(&mut self, ids: &[FrameId]) {
        for id in ids {
            self.touch_frame(*id);
        }
        let gone: HashSet<FrameId> = ids.iter().copied().collect();
        self.doc.frames.retain(|id, _| !gone.contains(id));
    }

    fn touch_frame(&mut self, id: FrameId) {
        if self.before.frame_order.is_none() {
            self.before.frame_order = Some(self.doc.frames.keys().copied().collect());
        }
        if !self.before.frames.contains_key(&id) {
            let slot = self.doc.frames.get(&id).cloned();
            self.before.frames.insert(id, slot);
        }
    }

    /// The hierarchy tree (groups, sequences, directions), for changing.
    pub fn root_mut(&mut self) -> &mut Group {
        self.before
            .root
            .get_or_insert_with(|| self.doc.root.clone());
        &mut self.doc.root
    }

    /// A sequence, for changing.
    pub fn sequence_mut(&mut self, id: SequenceId) -> EditResult<&mut Sequence> {
        if self.doc.sequence(id).is_none() {
            return Err(EditError::new(format!("sequence {id} does not exist")));
        }
        self.root_mut();
        Ok(self.doc.sequence_mut(id).expect("checked above"))
    }

    /// The source images, for changing.
    pub fn images_mut(&mut self) -> &mut Vec<SourceImage> {
        self.before
            .images
            .get_or_insert_with(|| self.doc.images.clone());
        &mut self.doc.images
    }

    /// The unsaved contents of edited files (SFF archives), for changing.
    pub fn edited_files_mut(&mut self) -> &mut Vec<EditedFile> {
        self.before
            .edited_files
            .get_or_insert_with(|| self.doc.edited_files.clone());
        &mut self.doc.edited_files
    }

    /// The slices, for changing.
    pub fn slices_mut(&mut self) -> &mut Vec<Slice> {
        self.before
            .slices
            .get_or_insert_with(|| self.doc.slices.clone());
        &mut self.doc.slices
    }

    /// Sets the default sequence.
    pub fn set_default_sequence(&mut self, id: Option<SequenceId>) {
        self.before
            .default_sequence
            .get_or_insert(self.doc.default_sequence);
        self.doc.default_sequence = id;
    }

    /// The set's metadata and master frame rate, for changing.
    pub fn set_fields_mut(&mut self) -> (&mut Metadata, &mut Option<u32>) {
        self.before
            .set_fields
            .get_or_insert_with(|| (self.doc.metadata.clone(), self.doc.frame_rate));
        (&mut self.doc.metadata, &mut self.doc.frame_rate)
    }
}
