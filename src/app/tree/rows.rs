//! The tree's rows and state: the flattened lines of groups, sequences and directions the
//! tree panel shows, rebuilt only when what they show changes, and what the user has folded,
//! filtered, selected or is renaming. The panel (`tree`) and the editing commands
//! (`tree_edit`) both use it, without using each other's insides.

use crate::app::context::document::{OpenDocument, matches_filter};
use crate::app::context::duration_text::{total_duration_text, total_native};
use crate::model::{Group, GroupId, TreeItem};
use std::collections::HashSet;

pub use crate::app::context::tree_row::RowKind;

/// A line of the tree with its text.
#[derive(Clone, Debug)]
pub struct Row {
    /// Nesting depth.
    pub depth: usize,
    /// What it shows.
    pub kind: RowKind,
    /// The main text.
    pub text: String,
    /// Details in a weaker colour (frames, duration).
    pub details: String,
}

/// The tree's state: filter text, folded groups and the cached rows.
#[derive(Default)]
pub struct TreeState {
    /// The filter box's text.
    pub filter: String,
    /// Put the cursor in the filter box at the next paint.
    pub focus_filter: bool,
    /// Groups the user folded.
    pub folded: HashSet<GroupId>,
    /// The row last clicked: which of a sequence's rows (itself or a direction) or which group
    /// the tree commands act on.
    pub active: Option<RowKind>,
    /// The row whose name is being edited.
    pub renaming: Option<Renaming>,
    /// The row being dragged.
    pub(crate) dragging: Option<RowKind>,
    /// How far the rows are scrolled (to bring a row being renamed into view).
    pub(crate) scroll_offset: f32,
    /// Shared, so a paint takes them without copying every row's text.
    rows: std::sync::Arc<[Row]>,
    rows_key: Option<(u64, String, usize, usize)>,
}

/// An inline rename in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Renaming {
    /// The row renamed.
    pub row: RowKind,
    /// The text in the field.
    pub text: String,
    /// Why the last try was refused.
    pub refused: Option<String>,
    /// The field has not been focused yet (it takes focus and selects its text once).
    pub(crate) fresh: bool,
}

impl TreeState {
    /// The rows for this document, rebuilt when something they show changed (otherwise the
    /// same rows again: taking them costs nothing, however long the tree).
    pub fn rows(&mut self, doc: &OpenDocument) -> std::sync::Arc<[Row]> {
        let key = (
            doc.revision,
            self.filter.clone(),
            self.folded.len(),
            doc.session.document().root.items.len(),
        );
        if self.rows_key.as_ref() != Some(&key) {
            let mut rows = Vec::new();
            let filter = self.filter.trim().to_string();
            build_rows(
                doc,
                &doc.session.document().root,
                0,
                &filter,
                false,
                &self.folded,
                &mut rows,
            );
            self.rows = rows.into();
            self.rows_key = Some(key);
        }
        std::sync::Arc::clone(&self.rows)
    }

    /// Rebuilds the rows at the next paint (a group was folded or unfolded).
    pub fn rebuild_rows(&mut self) {
        self.rows_key = None;
    }

    /// Forgets the cached rows (a new document was opened).
    pub fn reset(&mut self) {
        self.rows_key = None;
        self.folded.clear();
        self.active = None;
        self.renaming = None;
        self.dragging = None;
    }

    /// Opens the name of `row` for editing in place.
    pub fn start_rename(&mut self, doc: &OpenDocument, row: RowKind) {
        let document = doc.session.document();
        let text = match row {
            RowKind::Group(id) => document.group(id).map(|g| g.name.clone()),
            RowKind::Sequence(id) => document.sequence(id).map(|s| s.name.clone()),
            RowKind::Direction(id, d) => document
                .sequence(id)
                .and_then(|s| s.directions.get(d))
                .map(|d| d.name.clone().unwrap_or_default()),
        };
        if let Some(text) = text {
            self.renaming = Some(Renaming {
                row,
                text,
                refused: None,
                fresh: true,
            });
        }
    }
}

fn build_rows(
    doc: &OpenDocument,
    group: &Group,
    depth: usize,
    filter: &str,
    group_matches: bool,
    folded: &HashSet<GroupId>,
    rows: &mut Vec<Row>,
) {
    for item in &group.items {
        match item {
            TreeItem::Group(g) => {
                let matches = group_matches
                    || (!filter.is_empty()
                        && g.name.to_lowercase().contains(&filter.to_lowercase()));
                let mut children = Vec::new();
                if !folded.contains(&g.id) || !filter.is_empty() {
                    build_rows(doc, g, depth + 1, filter, matches, folded, &mut children);
                }
                let shown = filter.is_empty() || matches || !children.is_empty();
                if shown {
                    let count = count_sequences(g);
                    rows.push(Row {
                        depth,
                        kind: RowKind::Group(g.id),
                        text: if g.name.is_empty() {
                            "(unnamed group)".into()
                        } else {
                            g.name.clone()
                        },
                        details: crate::text::count(count, "sequence"),
                    });
                    rows.extend(children);
                }
            }
            TreeItem::Sequence(s) => {
                if !(group_matches || matches_filter(s, filter)) {
                    continue;
                }
                let frame_rate = s
                    .frame_rate
                    .or(doc.session.document().frame_rate)
                    .unwrap_or(0);
                let frames = doc.session.document().direction_frames(s, 0);
                let mut details = crate::text::count(frames.len(), "frame");
                let total = total_duration_text(&frames, frame_rate);
                match total_native(&frames) {
                    Some(native) if !native.ends_with("ms") => {
                        details.push_str(&format!(" · {native} ({total})"))
                    }
                    _ => details.push_str(&format!(" · {total}")),
                }
                if doc.session.document().default_sequence == Some(s.id) {
                    details = format!("default · {details}");
                }
                rows.push(Row {
                    depth,
                    kind: RowKind::Sequence(s.id),
                    text: sequence_label(s),
                    details,
                });
                if s.directions.len() > 1 {
                    for d in 0..s.directions.len() {
                        rows.push(Row {
                            depth: depth + 1,
                            kind: RowKind::Direction(s.id, d),
                            text: s.direction_label(d),
                            details: crate::text::count(s.directions[d].frames.len(), "frame"),
                        });
                    }
                }
            }
        }
    }
}

/// A sequence's row text: its name, then its title when it has one ("0 · Standing Animation").
pub fn sequence_label(sequence: &crate::model::Sequence) -> String {
    match sequence.title.as_deref() {
        Some(title) if !title.is_empty() => format!("{} · {title}", sequence.name),
        _ => sequence.name.clone(),
    }
}

fn count_sequences(group: &Group) -> usize {
    group
        .items
        .iter()
        .map(|i| match i {
            TreeItem::Group(g) => count_sequences(g),
            TreeItem::Sequence(_) => 1,
        })
        .sum()
}
