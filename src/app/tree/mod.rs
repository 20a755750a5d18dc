//! The hierarchy tree: groups, sequences and directions, with a filter.
//!
//! The rows are flattened once per change (document, filter or folding) and only the visible
//! ones are laid out, so a MUGEN character with hundreds of actions costs no more than a few.
//!
//! Editing: a click selects a row (Delete, F2 and Ctrl+D then act on it), a double click or F2
//! renames it in place (Enter commits, Esc cancels, a refused name stays in the field with the
//! reason), a right click opens its context menu, and dragging a sequence or group moves it,
//! with a line showing where it will land (or a frame around the group it will go into).

pub mod edit;
pub mod rows;

use crate::app::context::availability::{CommandView, Reason};
use crate::app::context::command_sender::SystemCommand;
use crate::app::context::commands::UICommand;
use crate::app::context::deletion::Deletion;
use crate::app::context::document::OpenDocument;
use crate::app::context::panel::{PanelCtx, PanelOutput};
use crate::app::tree::edit::current_node;
pub use crate::app::tree::rows::{Renaming, Row, RowKind, TreeState, sequence_label};
use crate::edit::tree::{TreeNode, parent_of};
use crate::model::{GroupId, SequenceId};

/// Where a dragged row would land.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DropTarget {
    /// Into this group at this index (before the move).
    Gap { group: GroupId, index: usize },
    /// A direction to this gap among its sequence's directions (before the move).
    Direction { gap: usize },
}

/// Paints the tree panel.
pub fn show(ui: &mut egui::Ui, state: &mut TreeState, ctx: &mut PanelCtx) {
    // The commands that add to the tree, where they apply (groups and directions only where
    // the format has them).
    let view = ctx.command_view();
    let adds: Vec<UICommand> = [
        UICommand::AddSequence,
        UICommand::AddGroup,
        UICommand::AddDirection,
    ]
    .into_iter()
    .filter(|command| command.availability(&view).is_ok())
    .collect();
    let PanelCtx {
        doc, out: output, ..
    } = ctx;
    let doc: &mut OpenDocument = doc;
    // Wrapped: in a narrow panel "Add direction" goes under "Add sequence", not past the edge.
    ui.horizontal_wrapped(|ui| {
        let mut button = |ui: &mut egui::Ui, command: UICommand| {
            let hint = match command.shortcut_text(ui.ctx()) {
                text if text.is_empty() => command.label().to_string(),
                text => format!("{} ({text})", command.label()),
            };
            if ui.button(command.label()).on_hover_text(hint).clicked() {
                output.commands.send_ui(command);
            }
        };
        for command in &adds {
            button(ui, *command);
        }
    });
    ui.horizontal(|ui| {
        let label = ui.label("Filter");
        // The hint only where it fits whole; the hover text always says it.
        let hint = "name, number or title";
        let hint_width = ui
            .painter()
            .layout_no_wrap(
                hint.to_string(),
                egui::TextStyle::Body.resolve(ui.style()),
                egui::Color32::WHITE,
            )
            .size()
            .x;
        let fits = ui.available_width() > hint_width + 4.0 * ui.spacing().item_spacing.x;
        let edit = egui::TextEdit::singleline(&mut state.filter)
            .hint_text(if fits { hint } else { "" })
            .desired_width(f32::INFINITY);
        let response = ui
            .add(edit)
            .labelled_by(label.id)
            .on_hover_text(format!("Filter sequences by {hint}"));
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
                doc.select_neighbour_sequence(&state.filter, -1);
            }
            if down {
                doc.select_neighbour_sequence(&state.filter, 1);
            }
        }
        // Enter takes the first match when the sequence on show is filtered out, as a
        // command palette does; a match already on show stays.
        if response.lost_focus()
            && ui.input(|i| i.key_pressed(egui::Key::Enter))
            && !doc
                .filtered_sequences(&state.filter)
                .contains(&doc.player.sequence())
        {
            doc.select_neighbour_sequence(&state.filter, 1);
        }
    });
    ui.separator();

    let rows = state.rows(doc);
    if rows.is_empty() {
        ui.weak(if state.filter.trim().is_empty() {
            "No sequences."
        } else {
            "Nothing matches the filter."
        });
        return;
    }
    let current = current_node(doc, state);
    let group_selected = doc.session.selection().group;
    let selected_sequence = doc.player.sequence();
    let selected_direction = doc.player.direction();
    let default_sequence = doc.session.document().default_sequence;
    let row_height = ui.spacing().interact_size.y;
    let mut clicked = None;
    let mut fold = None;
    let mut menu_row = None;
    let mut rename_row = None;
    let mut row_rects: Vec<(RowKind, egui::Rect)> = Vec::new();
    let mut scroll = egui::ScrollArea::vertical().auto_shrink([false, false]);
    // A name just opened for editing (a new sequence) may be out of view: bring it in.
    if let Some(renaming) = state.renaming.as_ref().filter(|r| r.fresh)
        && let Some(index) = rows.iter().position(|r| r.kind == renaming.row)
    {
        let step = row_height + ui.spacing().item_spacing.y;
        let offset = state.scroll_offset;
        let height = ui.available_height();
        let top = index as f32 * step;
        if top < offset || top + step > offset + height {
            scroll = scroll.vertical_scroll_offset((top - height / 2.0).max(0.0));
        }
    }
    // Each row is its name with its frame count and duration under it, both whole: they
    // wrap in a narrow panel rather than being cut. A very long tree keeps one line per row
    // (cut with "…", the whole text in the hover) so only the rows in view are laid out.
    let wrap = rows.len() <= WRAPPED_ROWS;
    let mut paint_row = |ui: &mut egui::Ui, row: &rows::Row| {
        let line = ui.horizontal(|ui| {
            ui.add_space(row.depth as f32 * 14.0);
            let selected = match row.kind {
                RowKind::Sequence(id) => {
                    group_selected.is_none()
                        && id == selected_sequence
                        && !matches!(current, Some(RowKind::Direction(..)))
                }
                RowKind::Direction(id, d) => {
                    group_selected.is_none() && id == selected_sequence && d == selected_direction
                }
                RowKind::Group(id) => group_selected == Some(id),
            };
            if let RowKind::Group(id) = row.kind
                && paint_fold_arrow(ui, state.folded.contains(&id)).clicked()
            {
                fold = Some(id);
            }
            if state.renaming.as_ref().is_some_and(|r| r.row == row.kind) {
                rename_field(ui, state, doc, output);
                return;
            }
            let text = match row.kind {
                RowKind::Group(_) => egui::RichText::new(&row.text).strong(),
                _ => egui::RichText::new(&row.text),
            };
            let (response, details) = if wrap {
                ui.vertical(|ui| {
                    let name = ui
                        .add(
                            egui::Button::selectable(selected, text)
                                .wrap_mode(egui::TextWrapMode::Wrap),
                        )
                        .interact(egui::Sense::drag());
                    let details = ui.add(
                        egui::Label::new(egui::RichText::new(&row.details).weak().small())
                            .wrap()
                            .selectable(false)
                            .sense(egui::Sense::click_and_drag()),
                    );
                    (name, details)
                })
                .inner
            } else {
                // The name keeps at least 60% of the row; the details get the rest, so
                // both are cut with "…" in a narrow panel instead of widening it.
                let details_width = ui
                    .painter()
                    .layout_no_wrap(
                        row.details.clone(),
                        egui::TextStyle::Body.resolve(ui.style()),
                        egui::Color32::WHITE,
                    )
                    .size()
                    .x
                    + ui.spacing().item_spacing.x;
                let available = ui.available_width();
                let name_width = available - details_width.min(available * 0.4);
                let name = ui
                    .scope(|ui| {
                        ui.set_max_width(name_width.max(0.0));
                        ui.add(egui::Button::selectable(selected, text).truncate())
                    })
                    .inner
                    .interact(egui::Sense::drag())
                    .on_hover_text(format!("{} · {}", row.text, row.details));
                // The grey counts and durations belong to the row too: a click, a drag or a
                // right click on them does what it does on the name, as in every tree widget.
                let details = ui.add(
                    egui::Label::new(egui::RichText::new(&row.details).weak())
                        .selectable(false)
                        .sense(egui::Sense::click_and_drag()),
                );
                (name, details)
            };
            let response = response | details;
            if response.clicked() || response.secondary_clicked() {
                clicked = Some(row.kind.clone());
            }
            if response.double_clicked() {
                rename_row = Some(row.kind.clone());
            }
            if response.drag_started() {
                state.dragging = Some(row.kind.clone());
            }
            response.context_menu(|ui| {
                menu_row = Some(row.kind.clone());
                // Picked, the row is selected first: Delete then removes it.
                let deleting_row = CommandView {
                    doc: Some(doc),
                    deletion: Some(Deletion::TreeItem(Some(row.kind.clone()))),
                    ..CommandView::default()
                };
                let why_kept = UICommand::DeleteSelection.availability(&deleting_row).err();
                context_menu(ui, &row.kind, default_sequence, &adds, why_kept, output);
            });
        });
        row_rects.push((row.kind.clone(), line.response.rect));
    };
    let shown = if wrap {
        scroll.show(ui, |ui| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
            for row in rows.iter() {
                paint_row(ui, row);
            }
        })
    } else {
        scroll.show_rows(ui, row_height, rows.len(), |ui, range| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
            for row in &rows[range] {
                paint_row(ui, row);
            }
        })
    };
    state.scroll_offset = shown.state.clamped_offset().y;

    if let Some(id) = fold {
        if !state.folded.remove(&id) {
            state.folded.insert(id);
        }
        state.rebuild_rows();
    }
    // Selected once every panel has painted: a field of the inspector applies what was typed
    // in it to the row it was typed for first.
    let clicked = clicked.or(menu_row.filter(|r| current.as_ref() != Some(r)));
    if let Some(row) = clicked {
        output.commands.send_system(SystemCommand::SelectRow(row));
    }
    if let Some(row) = rename_row {
        state.start_rename(doc, row);
    }
    drag_and_drop(ui, state, doc, &row_rects, output);
}

/// Up to this many rows, the tree lays out every row whole (wrapped in a narrow panel); a
/// longer one lays out only the rows in view, one line each.
const WRAPPED_ROWS: usize = 400;

/// The context menu of a row: every action with its shortcut; Delete disabled, saying why,
/// where `why_kept` says the row cannot go.
fn context_menu(
    ui: &mut egui::Ui,
    row: &RowKind,
    default_sequence: Option<SequenceId>,
    adds: &[UICommand],
    why_kept: Option<Reason>,
    output: &mut PanelOutput,
) {
    let mut item = |ui: &mut egui::Ui, command: UICommand, label: &str, why_not: Option<&str>| {
        let button = egui::Button::new(label).shortcut_text(command.shortcut_text(ui.ctx()));
        let response = ui.add_enabled(why_not.is_none(), button);
        let response = match why_not {
            Some(why) => response.on_disabled_hover_text(why),
            None => response,
        };
        if response.clicked() {
            output.commands.send_ui(command);
            ui.close();
        }
    };

    let what = row.noun();
    item(ui, UICommand::Rename, &format!("Rename {what}"), None);
    if !matches!(row, RowKind::Group(_)) {
        item(ui, UICommand::Duplicate, &format!("Duplicate {what}"), None);
    }
    item(
        ui,
        UICommand::DeleteSelection,
        &format!("Delete {what}"),
        why_kept.as_ref().map(Reason::text),
    );
    if let RowKind::Sequence(id) = row
        && default_sequence != Some(*id)
    {
        item(
            ui,
            UICommand::SetDefaultSequence,
            UICommand::SetDefaultSequence.label(),
            None,
        );
    }
    ui.separator();
    for &command in adds {
        // A direction is added to a sequence, not a group.
        if command != UICommand::AddDirection || !matches!(row, RowKind::Group(_)) {
            item(ui, command, command.label(), None);
        }
    }
}

/// The inline name field: Enter commits, Esc cancels, a refusal stays shown in the field.
fn rename_field(
    ui: &mut egui::Ui,
    state: &mut TreeState,
    doc: &mut OpenDocument,
    output: &mut PanelOutput,
) {
    let Some(renaming) = state.renaming.as_mut() else {
        return;
    };
    let id = egui::Id::NULL.with("tree rename field");
    let mut edit = egui::TextEdit::singleline(&mut renaming.text)
        .id(id)
        .hint_text("new name")
        .desired_width((ui.available_width() * 0.55).max(80.0));
    if renaming.refused.is_some() {
        edit = edit.text_color(ui.visuals().error_fg_color);
    }
    let mut shown = edit.show(ui);
    if renaming.fresh {
        renaming.fresh = false;
        shown.response.request_focus();
        let all = egui::text::CCursorRange::two(
            egui::text::CCursor::new(0),
            egui::text::CCursor::new(renaming.text.chars().count()),
        );
        shown.state.cursor.set_char_range(Some(all));
        shown.state.store(ui.ctx(), id);
    }
    if let Some(why) = &renaming.refused {
        // Truncated to the panel's width (the whole reason is in the tooltip and the status bar).
        let reason = egui::RichText::new(why).color(ui.visuals().error_fg_color);
        ui.add(egui::Label::new(reason).truncate())
            .on_hover_text(format!("{why}. Enter tries again, Esc keeps the old name."));
    }
    if !shown.response.lost_focus() {
        return;
    }
    let (enter, escape) = ui.input(|i| {
        (
            i.key_pressed(egui::Key::Enter),
            i.key_pressed(egui::Key::Escape),
        )
    });
    if escape {
        state.renaming = None;
        return;
    }
    if !enter && renaming.refused.is_some() {
        // Clicked away from a refused name: keep it on screen to fix or cancel.
        return;
    }
    let row = renaming.row.clone();
    let text = renaming.text.clone();
    match edit::rename(doc, &row, &text) {
        Ok(()) => state.renaming = None,
        Err(why) => {
            output.refused(&why, doc);
            if let Some(renaming) = state.renaming.as_mut() {
                renaming.refused = Some(why);
                renaming.fresh = enter;
            }
        }
    }
}

/// While a row is dragged: where it would land, drawn as a line between rows (or a frame around
/// a group it would go into); on release, the move as one undo step.
fn drag_and_drop(
    ui: &mut egui::Ui,
    state: &mut TreeState,
    doc: &mut OpenDocument,
    row_rects: &[(RowKind, egui::Rect)],
    output: &mut PanelOutput,
) {
    let Some(dragged) = state.dragging.clone() else {
        return;
    };
    let (pointer, released, down, escape) = ui.input(|i| {
        (
            i.pointer.interact_pos(),
            i.pointer.any_released(),
            i.pointer.any_down(),
            i.key_pressed(egui::Key::Escape),
        )
    });
    if escape {
        // Esc drops the drag without a change.
        state.dragging = None;
        return;
    }
    let target = pointer.and_then(|p| drop_target(doc, row_rects, &dragged, p));
    if let Some((target, mark)) = target {
        let stroke = egui::Stroke::new(2.0, ui.visuals().selection.stroke.color);
        match mark {
            DropMark::Line(y, x0, x1) => {
                ui.painter()
                    .line_segment([egui::pos2(x0, y), egui::pos2(x1, y)], stroke);
            }
            DropMark::Frame(rect) => {
                ui.painter()
                    .rect_stroke(rect, 2.0, stroke, egui::StrokeKind::Inside);
            }
        }
        if released {
            let moved = match (target, &dragged) {
                (DropTarget::Gap { group, index }, _) => {
                    edit::move_node(doc, &dragged, group, index)
                }
                (DropTarget::Direction { gap }, RowKind::Direction(sequence, from)) => {
                    let moved = edit::move_direction(doc, *sequence, *from, gap);
                    let now = doc.session.selection().direction;
                    state.active = Some(RowKind::Direction(*sequence, now));
                    moved
                }
                (DropTarget::Direction { .. }, _) => Ok(()),
            };
            if let Err(why) = moved {
                output.refused(&why, doc);
            }
        }
    }
    if released || !down {
        state.dragging = None;
    }
}

/// How the drop target is drawn.
enum DropMark {
    /// A line at this height from x0 to x1.
    Line(f32, f32, f32),
    /// A frame around a group's row.
    Frame(egui::Rect),
}

/// The gap under the pointer: the upper half of a row drops before its item, the lower half
/// after it, the middle of a group's row into that group. A direction lands among its own
/// sequence's directions.
fn drop_target(
    doc: &OpenDocument,
    row_rects: &[(RowKind, egui::Rect)],
    dragged: &RowKind,
    pointer: egui::Pos2,
) -> Option<(DropTarget, DropMark)> {
    let (row, rect) = row_rects
        .iter()
        .find(|(_, r)| r.y_range().contains(pointer.y))?;
    if row == dragged {
        return None;
    }
    let t = (pointer.y - rect.top()) / rect.height().max(1.0);
    let line = |after: bool| {
        let y = if after { rect.bottom() } else { rect.top() };
        DropMark::Line(y, rect.left(), rect.right())
    };
    // A direction moves among the directions of its own sequence only.
    if let RowKind::Direction(sequence, _) = *dragged {
        let RowKind::Direction(over, d) = *row else {
            return None;
        };
        if over != sequence {
            return None;
        }
        let after = t >= 0.5;
        return Some((
            DropTarget::Direction {
                gap: d + after as usize,
            },
            line(after),
        ));
    }
    let root = &doc.session.document().root;
    let node = match *row {
        RowKind::Group(id) => TreeNode::Group(id),
        RowKind::Sequence(id) | RowKind::Direction(id, _) => TreeNode::Sequence(id),
    };
    let (group, index) = parent_of(root, node)?;
    if let RowKind::Group(id) = *row
        && (0.25..0.75).contains(&t)
    {
        let count = doc
            .session
            .document()
            .group(id)
            .map_or(0, |g| g.items.len());
        return Some((
            DropTarget::Gap {
                group: id,
                index: count,
            },
            DropMark::Frame(*rect),
        ));
    }
    let after = t >= 0.5 || matches!(row, RowKind::Direction(..));
    Some((
        DropTarget::Gap {
            group,
            index: index + after as usize,
        },
        line(after),
    ))
}

/// A small triangle: pointing right for a folded group, down for an open one; clicking it folds.
fn paint_fold_arrow(ui: &mut egui::Ui, folded: bool) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::click());
    response.widget_info(|| {
        egui::WidgetInfo::labeled(
            egui::Role::Button,
            true,
            if folded { "unfold" } else { "fold" },
        )
    });
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
    response
}
