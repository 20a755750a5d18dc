//! Commands on the hierarchy tree: sequences, groups and directions.

use super::command::Command;
use super::common_steps::{
    add_frame_copy, check_sequence_name, drop_orphans, sequence, unique_sequence_name,
};
use super::error::{EditError, EditResult};
use super::selection::Selection;
use super::snapshot::Tx;
use crate::model::{
    AnimationSet, Direction, DirectionId, FrameId, Group, GroupId, Sequence, SequenceId, TreeItem,
};

/// Something in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TreeNode {
    /// A group.
    Group(GroupId),
    /// A sequence.
    Sequence(SequenceId),
}

impl TreeNode {
    fn matches(self, item: &TreeItem) -> bool {
        match (self, item) {
            (TreeNode::Group(id), TreeItem::Group(g)) => g.id == id,
            (TreeNode::Sequence(id), TreeItem::Sequence(s)) => s.id == id,
            _ => false,
        }
    }
}

/// The group holding `node` and its index there.
pub fn parent_of(root: &Group, node: TreeNode) -> Option<(GroupId, usize)> {
    for (index, item) in root.items.iter().enumerate() {
        if node.matches(item) {
            return Some((root.id, index));
        }
        if let TreeItem::Group(g) = item
            && let Some(found) = parent_of(g, node)
        {
            return Some(found);
        }
    }
    None
}

fn group_mut(group: &mut Group, id: GroupId) -> Option<&mut Group> {
    if group.id == id {
        return Some(group);
    }
    group.items.iter_mut().find_map(|item| match item {
        TreeItem::Group(g) => group_mut(g, id),
        TreeItem::Sequence(_) => None,
    })
}

fn existing_group(doc: &AnimationSet, id: GroupId) -> EditResult<&Group> {
    doc.group(id)
        .ok_or_else(|| EditError::new(format!("group {id} does not exist")))
}

fn insert_item(tx: &mut Tx, parent: GroupId, index: Option<usize>, item: TreeItem) -> EditResult {
    existing_group(tx.doc(), parent)?;
    let group = group_mut(tx.root_mut(), parent).expect("checked above");
    let index = index.unwrap_or(group.items.len()).min(group.items.len());
    group.items.insert(index, item);
    Ok(())
}

fn take_item(tx: &mut Tx, node: TreeNode) -> EditResult<TreeItem> {
    let (parent, index) = parent_of(&tx.doc().root, node)
        .ok_or_else(|| EditError::new("that item is not in the tree"))?;
    let group = group_mut(tx.root_mut(), parent).expect("parent exists");
    Ok(group.items.remove(index))
}

fn frames_of_item(item: &TreeItem, out: &mut Vec<FrameId>) {
    match item {
        TreeItem::Sequence(s) => {
            for d in &s.directions {
                out.extend(d.frames.iter().copied());
            }
        }
        TreeItem::Group(g) => g.items.iter().for_each(|i| frames_of_item(i, out)),
    }
}

fn sequences_of_item(item: &TreeItem, out: &mut Vec<SequenceId>) {
    match item {
        TreeItem::Sequence(s) => out.push(s.id),
        TreeItem::Group(g) => g.items.iter().for_each(|i| sequences_of_item(i, out)),
    }
}

/// Adds an empty sequence (one empty direction) to a group.
#[derive(Clone, Debug)]
pub struct AddSequence {
    /// The group to add it to.
    pub parent: GroupId,
    /// Where among the group's items; `None` = at the end.
    pub index: Option<usize>,
    /// Its name (must be unused).
    pub name: String,
}

impl Command for AddSequence {
    fn label(&self) -> String {
        format!("Add sequence \"{}\"", self.name)
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        check_sequence_name(tx.doc(), &self.name, None)?;
        existing_group(tx.doc(), self.parent)?;
        let id = SequenceId(tx.alloc_id());
        let direction = DirectionId(tx.alloc_id());
        let sequence = Sequence::new(id, self.name.clone(), direction);
        insert_item(tx, self.parent, self.index, TreeItem::Sequence(sequence))?;
        tx.select(Selection::sequence(id));
        Ok(())
    }
}

/// Adds an empty group to a group.
#[derive(Clone, Debug)]
pub struct AddGroup {
    /// The group to add it to.
    pub parent: GroupId,
    /// Where among the group's items; `None` = at the end.
    pub index: Option<usize>,
    /// Its name.
    pub name: String,
}

impl Command for AddGroup {
    fn label(&self) -> String {
        format!("Add group \"{}\"", self.name)
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        if self.name.trim().is_empty() {
            return Err(EditError::new("a group needs a name"));
        }
        let id = GroupId(tx.alloc_id());
        let group = Group {
            id,
            name: self.name.clone(),
            items: Vec::new(),
        };
        insert_item(tx, self.parent, self.index, TreeItem::Group(group))?;
        tx.select(Selection {
            group: Some(id),
            ..Selection::default()
        });
        Ok(())
    }
}

/// Renames a sequence or a group.
#[derive(Clone, Debug)]
pub struct Rename {
    /// What to rename.
    pub node: TreeNode,
    /// The new name.
    pub name: String,
}

impl Command for Rename {
    fn label(&self) -> String {
        format!("Rename to \"{}\"", self.name)
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        match self.node {
            TreeNode::Sequence(id) => {
                check_sequence_name(tx.doc(), &self.name, Some(id))?;
                tx.sequence_mut(id)?.name = self.name.clone();
            }
            TreeNode::Group(id) => {
                if self.name.trim().is_empty() {
                    return Err(EditError::new("a group needs a name"));
                }
                if id == tx.doc().root.id {
                    return Err(EditError::new("the root of the tree has no name"));
                }
                existing_group(tx.doc(), id)?;
                group_mut(tx.root_mut(), id).expect("checked above").name = self.name.clone();
            }
        }
        Ok(())
    }
}

/// Copies a sequence, with copies of its frames, right after it.
#[derive(Clone, Debug)]
pub struct DuplicateSequence {
    /// The sequence to copy.
    pub sequence: SequenceId,
    /// The copy's name: `None` for "NAME copy" (made unique); a format that names its
    /// sequences by number (an AIR action) is given a free number instead.
    pub name: Option<String>,
}

impl Command for DuplicateSequence {
    fn label(&self) -> String {
        "Duplicate sequence".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let original = sequence(tx.doc(), self.sequence)?.clone();
        let (parent, index) =
            parent_of(&tx.doc().root, TreeNode::Sequence(self.sequence)).expect("it exists");
        let mut copy = original.clone();
        copy.id = SequenceId(tx.alloc_id());
        let base = self
            .name
            .clone()
            .unwrap_or_else(|| format!("{} copy", original.name));
        copy.name = unique_sequence_name(tx.doc(), &base);
        for direction in &mut copy.directions {
            direction.id = DirectionId(tx.alloc_id());
            direction.frames = copy_frames(tx, &direction.frames);
        }
        let id = copy.id;
        insert_item(tx, parent, Some(index + 1), TreeItem::Sequence(copy))?;
        tx.select(Selection::sequence(id));
        Ok(())
    }
}

/// Copies of `frames` under new ids; a frame listed twice is copied once and listed twice.
fn copy_frames(tx: &mut Tx, frames: &[FrameId]) -> Vec<FrameId> {
    let mut copies: Vec<(FrameId, FrameId)> = Vec::new();
    let mut out = Vec::with_capacity(frames.len());
    for id in frames {
        if let Some((_, copy)) = copies.iter().find(|(from, _)| from == id) {
            out.push(*copy);
            continue;
        }
        let Some(frame) = tx.doc().frame(*id).cloned() else {
            continue;
        };
        let copy = add_frame_copy(tx, &frame);
        copies.push((*id, copy));
        out.push(copy);
    }
    out
}

/// Deletes a sequence or a whole group, and the frames only they used.
#[derive(Clone, Debug)]
pub struct Delete {
    /// What to delete.
    pub node: TreeNode,
}

impl Command for Delete {
    fn label(&self) -> String {
        match self.node {
            TreeNode::Group(_) => "Delete group".to_string(),
            TreeNode::Sequence(_) => "Delete sequence".to_string(),
        }
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        if self.node == TreeNode::Group(tx.doc().root.id) {
            return Err(EditError::new("the root of the tree cannot be deleted"));
        }
        let item = take_item(tx, self.node)?;
        let mut frames = Vec::new();
        frames_of_item(&item, &mut frames);
        let mut sequences = Vec::new();
        sequences_of_item(&item, &mut sequences);
        drop_orphans(tx, frames);
        if let Some(default) = tx.doc().default_sequence
            && sequences.contains(&default)
        {
            tx.set_default_sequence(None);
        }
        tx.select(Selection::none());
        Ok(())
    }
}

/// Moves a sequence or group to a position in a group (drag and drop in the tree).
#[derive(Clone, Debug)]
pub struct MoveNode {
    /// What to move.
    pub node: TreeNode,
    /// The group to move it into (may be its current group).
    pub to_group: GroupId,
    /// Its index among the target group's items after the move (clamped).
    pub index: usize,
}

impl Command for MoveNode {
    fn label(&self) -> String {
        "Move in tree".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        existing_group(tx.doc(), self.to_group)?;
        if let TreeNode::Group(moved) = self.node {
            if moved == tx.doc().root.id {
                return Err(EditError::new("the root of the tree cannot be moved"));
            }
            let inside = existing_group(tx.doc(), moved)?;
            if inside.id == self.to_group || find_in(inside, self.to_group) {
                return Err(EditError::new("a group cannot be moved into itself"));
            }
        }
        let item = take_item(tx, self.node)?;
        insert_item(tx, self.to_group, Some(self.index), item)
    }
}

fn find_in(group: &Group, id: GroupId) -> bool {
    group.items.iter().any(|item| match item {
        TreeItem::Group(g) => g.id == id || find_in(g, id),
        TreeItem::Sequence(_) => false,
    })
}

/// Makes a sequence the one shown first (or clears the choice with `None`).
#[derive(Clone, Debug)]
pub struct SetDefaultSequence {
    /// The new default.
    pub sequence: Option<SequenceId>,
}

impl Command for SetDefaultSequence {
    fn label(&self) -> String {
        "Set default sequence".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        if let Some(id) = self.sequence {
            sequence(tx.doc(), id)?;
        }
        tx.set_default_sequence(self.sequence);
        Ok(())
    }
}

/// Adds an empty direction to a sequence.
#[derive(Clone, Debug)]
pub struct AddDirection {
    /// The sequence.
    pub sequence: SequenceId,
    /// Where among its directions; `None` = at the end.
    pub index: Option<usize>,
    /// Its name; `None` = the conventional one.
    pub name: Option<String>,
}

impl Command for AddDirection {
    fn label(&self) -> String {
        "Add direction".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        sequence(tx.doc(), self.sequence)?;
        let id = DirectionId(tx.alloc_id());
        let seq = tx.sequence_mut(self.sequence)?;
        let index = self
            .index
            .unwrap_or(seq.directions.len())
            .min(seq.directions.len());
        seq.directions.insert(
            index,
            Direction {
                id,
                name: self.name.clone(),
                frames: Vec::new(),
            },
        );
        tx.select(Selection::frames(self.sequence, index, Vec::new()));
        Ok(())
    }
}

/// Copies a direction, with copies of its frames, right after it.
#[derive(Clone, Debug)]
pub struct DuplicateDirection {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction to copy.
    pub direction: usize,
}

impl Command for DuplicateDirection {
    fn label(&self) -> String {
        "Duplicate direction".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let original = direction(tx.doc(), self.sequence, self.direction)?.clone();
        let frames = copy_frames(tx, &original.frames);
        let id = DirectionId(tx.alloc_id());
        let copy = Direction {
            id,
            name: original.name.map(|n| format!("{n} copy")),
            frames,
        };
        tx.sequence_mut(self.sequence)?
            .directions
            .insert(self.direction + 1, copy);
        tx.select(Selection::frames(
            self.sequence,
            self.direction + 1,
            Vec::new(),
        ));
        Ok(())
    }
}

fn direction(doc: &AnimationSet, sequence_id: SequenceId, index: usize) -> EditResult<&Direction> {
    let seq = sequence(doc, sequence_id)?;
    seq.directions.get(index).ok_or_else(|| {
        EditError::new(format!(
            "sequence \"{}\" has no direction {index}",
            seq.name
        ))
    })
}

/// Deletes a direction and the frames only it used. The last direction cannot be deleted.
#[derive(Clone, Debug)]
pub struct DeleteDirection {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction.
    pub direction: usize,
}

impl Command for DeleteDirection {
    fn label(&self) -> String {
        "Delete direction".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let frames = direction(tx.doc(), self.sequence, self.direction)?
            .frames
            .clone();
        if sequence(tx.doc(), self.sequence)?.directions.len() == 1 {
            return Err(EditError::new(
                "a sequence needs at least one direction; delete the sequence instead",
            ));
        }
        let seq = tx.sequence_mut(self.sequence)?;
        seq.directions.remove(self.direction);
        let left = seq.directions.len();
        drop_orphans(tx, frames);
        tx.select(Selection::frames(
            self.sequence,
            self.direction.min(left - 1),
            Vec::new(),
        ));
        Ok(())
    }
}

/// Moves a direction to another index (Solarus direction order is meaningful: 0 = right).
#[derive(Clone, Debug)]
pub struct MoveDirection {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction's index now.
    pub from: usize,
    /// Its index after the move (clamped).
    pub to: usize,
}

impl Command for MoveDirection {
    fn label(&self) -> String {
        "Move direction".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        direction(tx.doc(), self.sequence, self.from)?;
        let seq = tx.sequence_mut(self.sequence)?;
        let moved = seq.directions.remove(self.from);
        let to = self.to.min(seq.directions.len());
        seq.directions.insert(to, moved);
        tx.select(Selection::frames(self.sequence, to, Vec::new()));
        Ok(())
    }
}

/// Names a direction (`None` = the conventional name).
#[derive(Clone, Debug)]
pub struct RenameDirection {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction.
    pub direction: usize,
    /// The new name.
    pub name: Option<String>,
}

impl Command for RenameDirection {
    fn label(&self) -> String {
        "Rename direction".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        direction(tx.doc(), self.sequence, self.direction)?;
        if self.name.as_deref().is_some_and(|n| n.trim().is_empty()) {
            return Err(EditError::new(
                "a direction name cannot be blank (clear it to use the conventional name)",
            ));
        }
        tx.sequence_mut(self.sequence)?.directions[self.direction].name = self.name.clone();
        Ok(())
    }
}
