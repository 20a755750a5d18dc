//! Editing the hierarchy: which tree item the commands act on and the tree commands (the
//! shell's command handling carries them out for the keyboard, the menus and the context
//! menus).

use crate::app::context::document::OpenDocument;
use crate::app::tree::rows::{RowKind, TreeState};
use crate::edit::Selection;
use crate::edit::tree::{
    AddDirection, AddGroup, AddSequence, Delete, DeleteDirection, DuplicateDirection,
    DuplicateSequence, MoveDirection, MoveNode, Rename, RenameDirection, SetDefaultSequence,
    TreeNode, parent_of,
};
use crate::model::{GroupId, SequenceId};

/// The tree item the tree commands act on: the clicked row while the selection still names it,
/// else the sequence on show.
pub fn current_node(doc: &OpenDocument, tree: &TreeState) -> Option<RowKind> {
    let selection = doc.session.selection();
    let document = doc.session.document();
    match tree.active {
        Some(RowKind::Group(id)) if selection.group == Some(id) && document.group(id).is_some() => {
            return Some(RowKind::Group(id));
        }
        Some(RowKind::Direction(id, d))
            if selection.group.is_none()
                && selection.sequence == Some(id)
                && selection.direction == d
                && document
                    .sequence(id)
                    .is_some_and(|s| d < s.directions.len()) =>
        {
            return Some(RowKind::Direction(id, d));
        }
        _ => {}
    }
    let id = doc.player.sequence();
    document.sequence(id).map(|_| RowKind::Sequence(id))
}

/// Selects a tree row: a sequence or direction goes on show with no cell selected (so Delete
/// and Ctrl+D act on it), a group is selected for renaming, moving or deleting.
pub fn select_row(doc: &mut OpenDocument, tree: &mut TreeState, row: &RowKind) {
    match *row {
        RowKind::Group(id) => {
            doc.session.set_selection(Selection {
                group: Some(id),
                ..Selection::none()
            });
        }
        RowKind::Sequence(id) => {
            if doc.player.sequence() != id {
                doc.select_sequence(id);
            }
            let direction = doc.player.direction();
            doc.session
                .set_selection(Selection::frames(id, direction, Vec::new()));
        }
        RowKind::Direction(id, d) => {
            if doc.player.sequence() != id {
                doc.select_sequence(id);
            }
            doc.player.set_direction(doc.session.document(), d);
            doc.session
                .set_selection(Selection::frames(id, d, Vec::new()));
        }
    }
    doc.clear_elements();
    tree.active = Some(row.clone());
}

/// The group new items go into and their index there: inside a selected group (at the end),
/// else right after the current sequence, else at the end of the root.
fn insertion_point(doc: &OpenDocument, tree: &TreeState) -> (GroupId, Option<usize>) {
    let root = &doc.session.document().root;
    match current_node(doc, tree) {
        Some(RowKind::Group(id)) => (id, None),
        Some(RowKind::Sequence(id)) | Some(RowKind::Direction(id, _)) => {
            match parent_of(root, TreeNode::Sequence(id)) {
                Some((group, index)) => (group, Some(index + 1)),
                None => (root.id, None),
            }
        }
        None => (root.id, None),
    }
}

/// A name no sequence has: the next action number when every name is a number (MUGEN),
/// else "new sequence", "new sequence 2", ...
pub fn fresh_sequence_name(doc: &OpenDocument) -> String {
    let sequences = doc.session.document().sequences();
    let numbered = doc.session.format().capabilities().numbered_sequences;
    let numbers: Option<Vec<i32>> = sequences.iter().map(|s| s.name.parse().ok()).collect();
    // Numbers when the format names sequences so, or when every sequence already has one.
    if let Some(numbers) = numbers.filter(|n| numbered || !n.is_empty()) {
        // The number after the largest; when that is the largest number there is, the
        // smallest free one (AIR action numbers are 32-bit).
        let next = numbers.iter().max().and_then(|m| m.checked_add(1));
        if let Some(free) = next.or_else(|| (0..=i32::MAX).find(|n| !numbers.contains(n))) {
            return free.to_string();
        }
    }
    let taken = |name: &str| sequences.iter().any(|s| s.name == name);
    if !taken("new sequence") {
        return "new sequence".to_string();
    }
    (2..)
        .map(|n| format!("new sequence {n}"))
        .find(|name| !taken(name))
        .expect("an unused name exists")
}

/// Adds a sequence and opens its name for editing.
pub fn add_sequence(doc: &mut OpenDocument, tree: &mut TreeState) -> Result<(), String> {
    let (parent, index) = insertion_point(doc, tree);
    let name = fresh_sequence_name(doc);
    doc.apply(
        &AddSequence {
            parent,
            index,
            name,
        },
        None,
    )?;
    let added = doc.session.selection().sequence.map(RowKind::Sequence);
    rename_added(doc, tree, added);
    Ok(())
}

/// Makes the item just added the tree's current row and opens its name for editing.
fn rename_added(doc: &OpenDocument, tree: &mut TreeState, added: Option<RowKind>) {
    if let Some(row) = added {
        tree.active = Some(row.clone());
        tree.start_rename(doc, row);
    }
}

/// Adds a group and opens its name for editing (the command applies only where the format
/// nests groups, see `UICommand::availability`).
pub fn add_group(doc: &mut OpenDocument, tree: &mut TreeState) -> Result<(), String> {
    let (parent, index) = insertion_point(doc, tree);
    doc.apply(
        &AddGroup {
            parent,
            index,
            name: "new group".to_string(),
        },
        None,
    )?;
    let added = doc.session.selection().group.map(RowKind::Group);
    rename_added(doc, tree, added);
    Ok(())
}

/// Adds a direction after the last one of the sequence on show (the command applies only
/// where the format has directions, see `UICommand::availability`).
pub fn add_direction(doc: &mut OpenDocument, tree: &mut TreeState) -> Result<(), String> {
    let sequence = doc.player.sequence();
    doc.apply(
        &AddDirection {
            sequence,
            index: None,
            name: None,
        },
        None,
    )?;
    let selection = doc.session.selection().clone();
    tree.active = Some(RowKind::Direction(sequence, selection.direction));
    Ok(())
}

/// Renames a tree item; an empty or taken name is refused with the reason.
pub fn rename(doc: &mut OpenDocument, row: &RowKind, name: &str) -> Result<(), String> {
    match *row {
        RowKind::Group(id) => doc.apply(
            &Rename {
                node: TreeNode::Group(id),
                name: name.to_string(),
            },
            None,
        ),
        RowKind::Sequence(id) => doc.apply(
            &Rename {
                node: TreeNode::Sequence(id),
                name: name.to_string(),
            },
            None,
        ),
        RowKind::Direction(id, d) => {
            let name = name.trim();
            doc.apply(
                &RenameDirection {
                    sequence: id,
                    direction: d,
                    // An empty name goes back to the conventional one (right, up, ...).
                    name: (!name.is_empty()).then(|| name.to_string()),
                },
                None,
            )
        }
    }
}

/// Duplicates the current tree item (a sequence or a direction with copies of its frames).
pub fn duplicate_node(doc: &mut OpenDocument, tree: &mut TreeState) -> Result<(), String> {
    match current_node(doc, tree) {
        Some(RowKind::Sequence(id)) => {
            // An AIR action's copy takes the next free number ("0 copy" is no action number).
            let name = doc
                .session
                .format()
                .capabilities()
                .numbered_sequences
                .then(|| fresh_sequence_name(doc));
            doc.apply(&DuplicateSequence { sequence: id, name }, None)?;
            tree.active = doc.session.selection().sequence.map(RowKind::Sequence);
            Ok(())
        }
        Some(RowKind::Direction(id, d)) => {
            doc.apply(
                &DuplicateDirection {
                    sequence: id,
                    direction: d,
                },
                None,
            )?;
            tree.active = Some(RowKind::Direction(id, d + 1));
            Ok(())
        }
        Some(RowKind::Group(_)) => Err("groups are not duplicated; duplicate a sequence".into()),
        None => Err("nothing is selected in the tree".into()),
    }
}

/// Deletes the current tree item.
pub fn delete_node(doc: &mut OpenDocument, tree: &mut TreeState) -> Result<(), String> {
    let result = match current_node(doc, tree) {
        Some(RowKind::Group(id)) => doc.apply(
            &Delete {
                node: TreeNode::Group(id),
            },
            None,
        ),
        Some(RowKind::Sequence(id)) => doc.apply(
            &Delete {
                node: TreeNode::Sequence(id),
            },
            None,
        ),
        Some(RowKind::Direction(id, d)) => doc.apply(
            &DeleteDirection {
                sequence: id,
                direction: d,
            },
            None,
        ),
        None => Err("nothing is selected in the tree".into()),
    };
    if result.is_ok() {
        tree.active = None;
    }
    result
}

/// Moves a tree item to a gap of a group (drag and drop), one undo step.
pub fn move_node(
    doc: &mut OpenDocument,
    dragged: &RowKind,
    to_group: GroupId,
    index: usize,
) -> Result<(), String> {
    let node = match *dragged {
        RowKind::Group(id) => TreeNode::Group(id),
        RowKind::Sequence(id) => TreeNode::Sequence(id),
        RowKind::Direction(..) => return Err("directions are moved within their sequence".into()),
    };
    // The index is counted before the move; moving down inside the same group shifts it.
    let root = &doc.session.document().root;
    let index = match parent_of(root, node) {
        Some((group, at)) if group == to_group && at < index => index - 1,
        _ => index,
    };
    doc.apply(
        &MoveNode {
            node,
            to_group,
            index,
        },
        None,
    )
}

/// Moves a direction to a gap among its sequence's directions (counted before the move).
pub fn move_direction(
    doc: &mut OpenDocument,
    sequence: SequenceId,
    from: usize,
    gap: usize,
) -> Result<(), String> {
    let to = if from < gap { gap - 1 } else { gap };
    if to == from {
        return Ok(());
    }
    doc.apply(&MoveDirection { sequence, from, to }, None)
}

/// Makes a sequence the default.
pub fn set_default(doc: &mut OpenDocument, sequence: SequenceId) -> Result<(), String> {
    doc.apply(
        &SetDefaultSequence {
            sequence: Some(sequence),
        },
        None,
    )
}

/// F2: renames the row the tree commands act on, in place.
pub fn rename_current(doc: &mut OpenDocument, tree: &mut TreeState) {
    if let Some(row) = current_node(doc, tree) {
        tree.start_rename(doc, row);
    }
}

/// Makes the sequence on show the default.
pub fn set_default_sequence(doc: &mut OpenDocument) -> Result<(), String> {
    let id = doc.player.sequence();
    set_default(doc, id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AnimationSet, DirectionId, Sequence, SequenceId, TreeItem};

    fn named(names: &[&str]) -> OpenDocument {
        let mut set = AnimationSet::new();
        for name in names {
            let id = SequenceId(set.alloc_id());
            let direction = DirectionId(set.alloc_id());
            set.root
                .items
                .push(TreeItem::Sequence(Sequence::new(id, *name, direction)));
        }
        OpenDocument::new(set, None, &crate::formats::mugen::AirFormat, Vec::new())
    }

    #[test]
    fn new_actions_get_the_next_free_number() {
        assert_eq!(fresh_sequence_name(&named(&["0", "200", "5"])), "201");
        let top = i32::MAX.to_string();
        assert_eq!(fresh_sequence_name(&named(&["0", &top])), "1");
        assert_eq!(fresh_sequence_name(&named(&["stand"])), "new sequence");
        assert_eq!(
            fresh_sequence_name(&named(&["new sequence", "new sequence 2"])),
            "new sequence 3"
        );
    }
}
