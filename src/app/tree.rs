//! The hierarchy tree: groups, sequences and directions, with a filter.
//!
//! The rows are flattened once per change (document, filter or folding) and only the visible
//! ones are laid out, so a MUGEN character with hundreds of actions costs no more than a few.

use super::workspace::{OpenDocument, matches_filter, total_duration_text, total_native};
use crate::model::{Group, GroupId, SequenceId, TreeItem};
use std::collections::HashSet;

/// One line of the tree.
#[derive(Clone, Debug, PartialEq)]
pub enum RowKind {
    /// A group header.
    Group(GroupId),
    /// A sequence.
    Sequence(SequenceId),
    /// One direction of a multi-direction sequence.
    Direction(SequenceId, usize),
}

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
    rows: Vec<Row>,
    rows_key: Option<(u64, String, usize, usize)>,
}

impl TreeState {
    /// The rows for this document, rebuilt when something they show changed.
    pub fn rows(&mut self, open: &OpenDocument) -> &[Row] {
        let key = (
            open.revision,
            self.filter.clone(),
            self.folded.len(),
            open.session.document().root.items.len(),
        );
        if self.rows_key.as_ref() != Some(&key) {
            self.rows.clear();
            let filter = self.filter.trim().to_string();
            build_rows(
                open,
                &open.session.document().root,
                0,
                &filter,
                false,
                &self.folded,
                &mut self.rows,
            );
            self.rows_key = Some(key);
        }
        &self.rows
    }

    /// Forgets the cached rows (a new document was opened).
    pub fn reset(&mut self) {
        self.rows_key = None;
        self.folded.clear();
    }
}

fn build_rows(
    open: &OpenDocument,
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
                    build_rows(open, g, depth + 1, filter, matches, folded, &mut children);
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
                        details: format!("{count} sequences"),
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
                    .or(open.session.document().frame_rate)
                    .unwrap_or(0);
                let frames = open.session.document().direction_frames(s, 0);
                let mut details = format!("{} frames", frames.len());
                let total = total_duration_text(&frames, frame_rate);
                match total_native(&frames) {
                    Some(native) if !native.ends_with("ms") => {
                        details.push_str(&format!(" · {native} ({total})"))
                    }
                    _ => details.push_str(&format!(" · {total}")),
                }
                if open.session.document().default_sequence == Some(s.id) {
                    details = format!("default · {details}");
                }
                rows.push(Row {
                    depth,
                    kind: RowKind::Sequence(s.id),
                    text: s.name.clone(),
                    details,
                });
                if s.directions.len() > 1 {
                    for d in 0..s.directions.len() {
                        rows.push(Row {
                            depth: depth + 1,
                            kind: RowKind::Direction(s.id, d),
                            text: s.direction_label(d),
                            details: format!("{} frames", s.directions[d].frames.len()),
                        });
                    }
                }
            }
        }
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

/// Paints the tree panel.
pub fn show(ui: &mut egui::Ui, state: &mut TreeState, open: &mut OpenDocument) {
    ui.horizontal(|ui| {
        ui.label("Filter");
        let edit = egui::TextEdit::singleline(&mut state.filter)
            .hint_text("name or number")
            .desired_width(f32::INFINITY);
        let response = ui.add(edit);
        if state.focus_filter {
            response.request_focus();
            state.focus_filter = false;
        }
        if response.has_focus() {
            // Arrow keys move through the matches while typing, like a command palette.
            let (up, down) = ui.input_mut(|i| {
                (
                    i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowUp),
                    i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowDown),
                )
            });
            if up {
                open.select_neighbour_sequence(&state.filter, -1);
            }
            if down {
                open.select_neighbour_sequence(&state.filter, 1);
            }
        }
    });
    ui.separator();

    let rows = state.rows(open).to_vec();
    if rows.is_empty() {
        ui.weak(if state.filter.trim().is_empty() {
            "No sequences."
        } else {
            "Nothing matches the filter."
        });
        return;
    }
    let selected_sequence = open.player.sequence();
    let selected_direction = open.player.direction();
    let row_height = ui.spacing().interact_size.y;
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show_rows(ui, row_height, rows.len(), |ui, range| {
            for row in &rows[range] {
                ui.horizontal(|ui| {
                    ui.add_space(row.depth as f32 * 14.0);
                    let selected = match row.kind {
                        RowKind::Sequence(id) => id == selected_sequence,
                        RowKind::Direction(id, d) => {
                            id == selected_sequence && d == selected_direction
                        }
                        RowKind::Group(_) => false,
                    };
                    let text = match row.kind {
                        RowKind::Group(id) => {
                            paint_fold_arrow(ui, state.folded.contains(&id));
                            egui::RichText::new(&row.text).strong()
                        }
                        _ => egui::RichText::new(&row.text),
                    };
                    let response = ui.selectable_label(selected, text);
                    if response.clicked() {
                        clicked = Some(row.kind.clone());
                    }
                    ui.weak(&row.details);
                });
            }
        });
    match clicked {
        Some(RowKind::Group(id)) => {
            if !state.folded.remove(&id) {
                state.folded.insert(id);
            }
            state.rows_key = None;
        }
        Some(RowKind::Sequence(id)) => open.select_sequence(id),
        Some(RowKind::Direction(id, d)) => {
            if open.player.sequence() != id {
                open.select_sequence(id);
            }
            open.player.set_direction(open.session.document(), d);
        }
        None => {}
    }
}

/// A small triangle: pointing right for a folded group, down for an open one.
fn paint_fold_arrow(ui: &mut egui::Ui, folded: bool) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
    let c = rect.center();
    let points = if folded {
        vec![
            c + egui::vec2(-3.0, -4.0),
            c + egui::vec2(4.0, 0.0),
            c + egui::vec2(-3.0, 4.0),
        ]
    } else {
        vec![
            c + egui::vec2(-4.0, -3.0),
            c + egui::vec2(4.0, -3.0),
            c + egui::vec2(0.0, 4.0),
        ]
    };
    let colour = ui.visuals().text_color();
    ui.painter().add(egui::Shape::convex_polygon(
        points,
        colour,
        egui::Stroke::NONE,
    ));
}
