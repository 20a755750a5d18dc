//! Finding a sequence by name the way ISPRITE's "Setting Animation" section describes.

use crate::model::{AnimationSet, Group, SequenceId, TreeItem};

/// The sequence called `name` (ASCII case-insensitive) seen from `active`: first among the
/// sequences directly in the active sequence's group, then in each parent group up to the root.
pub fn find_sequence_by_name(
    document: &AnimationSet,
    active: SequenceId,
    name: &str,
) -> Option<SequenceId> {
    let path = document.group_path(active);
    let groups: Vec<&Group> = if path.is_empty() {
        vec![&document.root]
    } else {
        path.into_iter().rev().collect()
    };
    groups.into_iter().find_map(|group| {
        group.items.iter().find_map(|item| match item {
            TreeItem::Sequence(s) if s.name.eq_ignore_ascii_case(name) => Some(s.id),
            _ => None,
        })
    })
}
