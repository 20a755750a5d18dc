//! The timeline: one cell per frame of the selected direction, the loop point, the follow-up
//! and the playhead. Only the cells in view are painted, so a 3,000-frame action stays cheap.
//!
//! Editing: click selects a cell, Ctrl+click toggles one, Shift+click selects a range; dragging
//! selected cells moves them (a line shows the gap they will land in), dragging the "loop"
//! marker onto another cell moves the loop point, dragging a cell's right edge changes its
//! duration in the frame's own unit. A right click lists the frame actions with their
//! shortcuts, and the bar above the cells sets the duration of every selected frame at once.
//!
//! Here: the cells and their painting; `bar.rs` the bar above them, `drag.rs` what a drag does,
//! [`edit`] the state and edits, [`transport`] the playback controls.

mod bar;
mod drag;
pub mod edit;
pub mod transport;

use bar::selection_bar;
use drag::{Geometry, continue_drag, scroll_near_edges};

use crate::app::context::command_sender::{CommandSender, SystemCommand};
use crate::app::context::commands::UICommand;
use crate::app::context::document::{FrameLayoutChange, OpenDocument};
use crate::app::context::duration_text::trim_float;
use crate::app::context::feedback::Feedback;
use crate::app::context::panel::PanelCtx;
use crate::app::context::pictures::{CellPicture, FrameKey, Pictures};
use crate::app::context::settings::Settings;
use crate::app::timeline::edit::{TimelineDrag, TimelineState, click_cell};
use crate::model::FrameDuration;
use crate::render::SpriteRect;
use egui::{Align2, Color32, FontId, Rect, Sense, Stroke, StrokeKind, pos2, vec2};

/// Width of the grab zone on a cell's right edge.
const EDGE_GRAB: f32 = 6.0;
/// Height of the strip above the cells that holds the loop marker.
const MARKER_STRIP: f32 = 12.0;
/// Colour of the loop marker.
const LOOP_COLOUR: Color32 = Color32::from_rgb(90, 210, 120);
/// Colour of the mark on cells that show the same frame as others.
const SAME_FRAME_COLOUR: Color32 = Color32::from_rgb(240, 170, 255);

/// Cell numbers joined with `separator`: "3,5".
pub fn list_of_cells(cells: &[usize], separator: &str) -> String {
    let numbers: Vec<String> = cells.iter().map(usize::to_string).collect();
    numbers.join(separator)
}

/// Height of a cell.
const CELL_HEIGHT: f32 = 56.0;
/// Width of a cell when widths do not follow durations.
const CELL_WIDTH: f32 = 48.0;
/// Width of a zero-length frame's cell.
const ZERO_WIDTH: f32 = 14.0;
/// Width of a "forever" frame's cell in proportional mode.
const FOREVER_WIDTH: f32 = 96.0;
/// Points per millisecond in proportional mode.
const POINTS_PER_MS: f32 = 0.6;

/// What the cells asked for this frame.
#[derive(Default)]
struct TimelineOutput {
    /// Commands from the context menu, the buttons and clicks on cells.
    commands: CommandSender,
    /// What the status bar should say (a refused edit).
    feedback: Option<Feedback>,
}

/// The width of each cell.
pub fn cell_widths(doc: &OpenDocument, proportional: bool) -> Vec<f32> {
    let rate = doc.frame_rate();
    doc.direction_frames()
        .iter()
        .map(|f| {
            if f.duration.is_zero() {
                ZERO_WIDTH
            } else if !proportional {
                CELL_WIDTH
            } else {
                match f.duration.exact(rate) {
                    Some(t) => (t.as_millis_f64() as f32 * POINTS_PER_MS).clamp(20.0, 600.0),
                    None => FOREVER_WIDTH,
                }
            }
        })
        .collect()
}

/// A duration as a cell shows it: the value in the native unit ("∞" for forever).
pub fn short_duration(duration: FrameDuration) -> String {
    match duration {
        FrameDuration::Ticks(t) => t.to_string(),
        FrameDuration::Millis(m) => m.to_string(),
        FrameDuration::Holds(h) => h.to_string(),
        FrameDuration::Seconds { nanos } => trim_float(nanos as f64 / 1e9, 3),
        FrameDuration::Forever => "∞".to_string(),
    }
}

/// Paints the timeline: the transport bar, the editing bar and the cells; the commands it
/// gives and its refusals go into `ctx`.
pub fn show(ui: &mut egui::Ui, state: &mut TimelineState, ctx: &mut PanelCtx) {
    transport::show(ui, ctx);
    ui.separator();
    let PanelCtx {
        doc,
        settings,
        pictures,
        out,
        ..
    } = ctx;
    let mut output = TimelineOutput::default();
    selection_bar(ui, state, doc, &mut output);
    cells(ui, settings, state, doc, pictures, &mut output);
    out.commands.append(output.commands);
    out.tell(output.feedback);
}

/// The cells with the loop marker, the playhead and the drag handles.
fn cells(
    ui: &mut egui::Ui,
    settings: &Settings,
    state: &mut TimelineState,
    doc: &mut OpenDocument,
    pictures: &mut Pictures,
    output: &mut TimelineOutput,
) {
    let proportional = settings.view.proportional_timeline;
    let widths = cell_widths(doc, proportional);
    let mut starts = Vec::with_capacity(widths.len() + 1);
    let mut x = 0.0;
    for w in &widths {
        starts.push(x);
        x += w + 2.0;
    }
    starts.push(x);
    let end_label = end_label(doc, widths.len());
    let total_width = x + 80.0;
    let look = CellLook::of(ui, doc, widths.len());
    let frame_rate = doc.frame_rate();
    let mut events = CellEvents::default();
    let mut layout: Option<(egui::Pos2, Rect)> = None;
    // Moves and the loop marker scroll the view; an edge drag measures from where it started.
    let dragging = matches!(
        state.drag,
        Some(TimelineDrag::Frames { .. } | TimelineDrag::LoopMarker { .. })
    );
    egui::ScrollArea::horizontal()
        .auto_shrink([false, true])
        .id_salt("timeline")
        .show_viewport(ui, |ui, viewport| {
            let (rect, response) = ui.allocate_exact_size(
                vec2(total_width, CELL_HEIGHT + MARKER_STRIP + 2.0),
                Sense::click(),
            );
            response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Group, true, "timeline"));
            response.context_menu(|ui| {
                frame_menu(ui, None, look.loop_point, output);
            });
            let painter = ui.painter_at(rect);
            let origin = rect.min;
            layout = Some((origin, rect));
            let visible = viewport.x_range();
            let first = starts
                .partition_point(|s| *s + 600.0 < visible.min)
                .saturating_sub(1);
            let base_id = ui.scope_id().with("timeline cells");
            for i in first..widths.len() {
                if starts[i] > visible.max {
                    break;
                }
                let cell = Rect::from_min_size(
                    origin + vec2(starts[i], MARKER_STRIP),
                    vec2(widths[i], CELL_HEIGHT),
                );
                let thumbnail = if widths[i] >= 20.0 {
                    thumbnail(ui.ctx(), doc, pictures, i)
                } else {
                    CellPicture::Nothing
                };
                paint_cell(&painter, &look, i, cell, rect, thumbnail);
                cell_controls(ui, base_id, &look, i, cell, doc, &mut events, output);
                if look.loop_point == Some(i) {
                    loop_marker(ui, &painter, base_id, &look, cell, rect, &mut events);
                }
            }
            let end = origin + vec2(starts[widths.len()] + 4.0, MARKER_STRIP + CELL_HEIGHT / 2.0);
            painter.text(
                end,
                Align2::LEFT_CENTER,
                &end_label,
                look.font.clone(),
                ui.visuals().weak_text_color(),
            );
            if dragging {
                scroll_near_edges(ui, rect);
            }
        });
    apply_cell_events(doc, state, events, output);
    if let Some((origin, rect)) = layout {
        let geometry = Geometry {
            origin,
            rect,
            starts: &starts,
            widths: &widths,
        };
        continue_drag(ui, state, doc, &geometry, proportional, frame_rate, output);
    }
}

/// What follows the last cell: the follow-up, the loop or the end.
fn end_label(doc: &OpenDocument, frames: usize) -> String {
    let follow_up = doc
        .sequence()
        .and_then(|s| s.follow_up.clone())
        .filter(|f| !f.is_empty());
    match (&follow_up, doc.sequence().and_then(|s| s.loop_point)) {
        (Some(name), _) => format!("then {name}"),
        (None, Some(lp)) if lp < frames => format!("loops to {lp}"),
        _ => "ends".to_string(),
    }
}

/// What every cell's look depends on, gathered once per paint.
struct CellLook {
    durations: Vec<FrameDuration>,
    /// The format keeps a duration per frame: a cell's edge can be dragged.
    per_frame_durations: bool,
    /// For each cell, the other cells showing the same frame of the file.
    same_frame: Vec<Vec<usize>>,
    /// For each cell, the number of the file's frame it shows, where the format numbers
    /// them apart from the cells (Aseprite).
    file_numbers: Option<Vec<usize>>,
    selected: Vec<usize>,
    current: usize,
    progress: f32,
    playing: bool,
    looping: bool,
    loop_point: Option<usize>,
    modifiers: egui::Modifiers,
    font: FontId,
    visuals: egui::Visuals,
}

impl CellLook {
    fn of(ui: &egui::Ui, doc: &OpenDocument, frames: usize) -> CellLook {
        CellLook {
            durations: doc.direction_frames().iter().map(|f| f.duration).collect(),
            per_frame_durations: doc.session.format().capabilities().per_frame_durations,
            same_frame: doc.cells_sharing_frames(),
            file_numbers: doc.file_frame_numbers(),
            selected: doc.selected_frames(),
            current: doc.player.frame_index(),
            progress: doc.player.frame_progress(doc.session.document()) as f32,
            playing: doc.player.is_playing(),
            looping: doc.player.looping(),
            loop_point: doc
                .sequence()
                .and_then(|s| s.loop_point)
                .filter(|lp| *lp < frames),
            modifiers: ui.input(|i| i.modifiers),
            font: FontId::proportional(11.0),
            visuals: ui.visuals().clone(),
        }
    }
}

/// What the cells asked for during the paint, carried out after it.
#[derive(Default)]
struct CellEvents {
    clicked: Option<(usize, egui::Modifiers)>,
    menu_on: Option<usize>,
    started: Option<TimelineDrag>,
    started_on: Option<usize>,
}

/// Frame `index`'s thumbnail, or its placeholder while it is made.
fn thumbnail(
    ctx: &egui::Context,
    doc: &OpenDocument,
    pictures: &mut Pictures,
    index: usize,
) -> CellPicture {
    let key = FrameKey {
        sequence: doc.player.sequence(),
        direction: doc.player.direction(),
        index,
        progress: 0,
    };
    pictures
        .textures
        .thumbnail(ctx, doc.session.document(), key, pictures.pixels)
}

/// Paints cell `i`: its fill and border, thumbnail, number, duration and the playhead.
fn paint_cell(
    painter: &egui::Painter,
    look: &CellLook,
    i: usize,
    cell: Rect,
    strip: Rect,
    thumbnail: CellPicture,
) {
    let visuals = &look.visuals;
    let is_selected = look.selected.contains(&i);
    let fill = if is_selected {
        visuals.selection.bg_fill
    } else if i == look.current {
        visuals.selection.bg_fill.gamma_multiply(0.45)
    } else {
        visuals.faint_bg_color
    };
    painter.rect_filled(cell, 3.0, fill);
    let duration = look.durations[i];
    let forever = duration == FrameDuration::Forever;
    let border = if is_selected {
        Stroke::new(2.0, visuals.selection.stroke.color)
    } else if duration.is_zero() {
        Stroke::new(1.0, Color32::from_rgb(200, 140, 40))
    } else {
        visuals.widgets.noninteractive.bg_stroke
    };
    painter.rect_stroke(cell, 3.0, border, StrokeKind::Inside);
    let area = Rect::from_min_max(cell.min + vec2(2.0, 14.0), cell.max - vec2(2.0, 14.0));
    // Where a picture of `rect`'s size is shown in the cell: as large as fits, up to 4x.
    let fitted = |rect: &SpriteRect| {
        let size = vec2(rect.width as f32, rect.height as f32);
        let fit = (area.width() / size.x).min(area.height() / size.y).min(4.0);
        Rect::from_center_size(area.center(), size * fit)
    };
    match thumbnail {
        CellPicture::Ready(thumb) => {
            let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
            painter.image(thumb.texture.id(), fitted(&thumb.rect), uv, Color32::WHITE);
        }
        // The thumbnail is being made: a faint block where it will be, so the cell does not
        // change its look twice.
        CellPicture::Coming(Some(rect)) => {
            painter.rect_filled(
                fitted(&rect),
                1.0,
                visuals.weak_text_color().gamma_multiply(0.25),
            );
        }
        CellPicture::Coming(None) | CellPicture::Nothing => {}
    }
    painter.text(
        cell.left_top() + vec2(3.0, 2.0),
        Align2::LEFT_TOP,
        i.to_string(),
        look.font.clone(),
        visuals.text_color(),
    );
    // The file's own number of the frame, small under the cell's.
    if let Some(number) = look.file_numbers.as_ref().and_then(|n| n.get(i)) {
        painter.text(
            cell.left_top() + vec2(3.0, 14.0),
            Align2::LEFT_TOP,
            format!("#{number}"),
            FontId::proportional(9.0),
            visuals.weak_text_color(),
        );
    }
    // A cell showing the same frame as others (a ping-pong tag's way back) says which.
    if let Some(others) = look.same_frame.get(i).filter(|o| !o.is_empty()) {
        let text = format!("={}", list_of_cells(others, ","));
        painter.text(
            cell.right_top() + vec2(-3.0, 2.0),
            Align2::RIGHT_TOP,
            text,
            look.font.clone(),
            SAME_FRAME_COLOUR,
        );
    }
    let colour = if forever {
        Color32::from_rgb(120, 200, 255)
    } else {
        visuals.weak_text_color()
    };
    painter.text(
        cell.center_bottom() - vec2(0.0, 3.0),
        Align2::CENTER_BOTTOM,
        short_duration(duration),
        look.font.clone(),
        colour,
    );
    if forever {
        painter.text(
            cell.center(),
            Align2::CENTER_CENTER,
            "∞",
            FontId::proportional(20.0),
            colour,
        );
    }
    if i == look.current {
        // The playhead: where in the frame playback is.
        let progress = if look.playing { look.progress } else { 0.0 };
        let x = cell.left() + cell.width() * progress;
        painter.line_segment(
            [pos2(x, strip.top()), pos2(x, cell.bottom())],
            Stroke::new(2.0, Color32::from_rgb(255, 80, 80)),
        );
    }
}

/// Cell `i` as a control: click to select, drag to move, right click for the menu, and its
/// right edge dragged to change the duration (not for "forever" frames, nor where the format
/// keeps one delay per animation).
#[allow(clippy::too_many_arguments)]
fn cell_controls(
    ui: &mut egui::Ui,
    base_id: egui::Id,
    look: &CellLook,
    i: usize,
    cell: Rect,
    doc: &mut OpenDocument,
    events: &mut CellEvents,
    output: &mut TimelineOutput,
) {
    let is_selected = look.selected.contains(&i);
    let cell_response = ui.interact(cell, base_id.with(i), Sense::click_and_drag());
    let label = format!("frame {i}");
    cell_response
        .widget_info(|| egui::WidgetInfo::selected(egui::Role::Button, true, is_selected, &label));
    let file_number = look.file_numbers.as_ref().and_then(|n| n.get(i));
    let in_file = file_number.map(|n| format!("Frame #{n} of the file"));
    let shared = look
        .same_frame
        .get(i)
        .filter(|o| !o.is_empty())
        .map(|others| {
            format!(
                "The same frame of the file as cell {}: editing one changes every one of them",
                list_of_cells(others, ", ")
            )
        });
    let hint: Vec<String> = in_file.into_iter().chain(shared).collect();
    let cell_response = if hint.is_empty() {
        cell_response
    } else {
        cell_response.on_hover_text(hint.join(". "))
    };
    if cell_response.clicked() {
        events.clicked = Some((i, look.modifiers));
    }
    if cell_response.secondary_clicked() && !is_selected {
        events.clicked = Some((i, egui::Modifiers::NONE));
    }
    if cell_response.drag_started() {
        events.started_on = Some(i);
        events.started = Some(TimelineDrag::Frames {
            positions: Vec::new(),
            gap: None,
        });
    }
    cell_response.context_menu(|ui| {
        events.menu_on = Some(i);
        frame_menu(ui, Some(i), look.loop_point, output);
    });
    let duration = look.durations[i];
    // One delay per animation (Solarus) is set above the cells, not frame by frame.
    if duration == FrameDuration::Forever || !look.per_frame_durations {
        return;
    }
    let edge = Rect::from_min_max(
        pos2(cell.right() - EDGE_GRAB / 2.0, cell.top()),
        pos2(cell.right() + EDGE_GRAB / 2.0 + 2.0, cell.bottom()),
    );
    let edge_response = ui
        .interact(edge, base_id.with(("edge", i)), Sense::drag())
        .on_hover_cursor(egui::CursorIcon::ResizeHorizontal)
        .on_hover_text(format!(
            "Drag to change the duration ({})",
            duration.unit_name()
        ));
    let edge_label = format!("end of frame {i}");
    edge_response
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Splitter, true, &edge_label));
    if edge_response.drag_started() {
        events.started_on = Some(i);
        events.started = Some(TimelineDrag::Edge {
            index: i,
            start: duration,
            gesture: doc.new_gesture(),
        });
    }
}

/// The loop marker above the loop frame's cell, dragged onto another cell to move the loop.
fn loop_marker(
    ui: &mut egui::Ui,
    painter: &egui::Painter,
    base_id: egui::Id,
    look: &CellLook,
    cell: Rect,
    strip: Rect,
    events: &mut CellEvents,
) {
    let colour = if look.looping {
        LOOP_COLOUR
    } else {
        LOOP_COLOUR.gamma_multiply(0.5)
    };
    let marker = Rect::from_min_size(
        pos2(cell.left() - 2.0, strip.top()),
        vec2(30.0, MARKER_STRIP),
    );
    painter.text(
        cell.left_top() - vec2(0.0, 1.0),
        Align2::LEFT_BOTTOM,
        "loop",
        look.font.clone(),
        colour,
    );
    painter.line_segment(
        [cell.left_top(), cell.left_bottom()],
        Stroke::new(2.0, colour),
    );
    let marker_id = base_id.with("loop marker");
    let marker_response = ui
        .interact(marker, marker_id, Sense::drag())
        .on_hover_cursor(egui::CursorIcon::Grab);
    // The hint is for a pointer resting on the marker: not while it is dragged, and not after
    // the drop (the marker lands under the pointer a frame or two later) until the pointer
    // has moved off it. Kept: where the pointer was when the drag ended.
    let quiet_id = marker_id.with("quiet");
    let mut quiet: Option<egui::Pos2> = ui.data(|d| d.get_temp(quiet_id)).flatten();
    let pointer = ui.input(|i| i.pointer.hover_pos());
    if marker_response.dragged() || marker_response.drag_stopped() {
        quiet = pointer.or(quiet);
    } else if let Some(p) = pointer
        && quiet.is_some_and(|q| q != p)
        && !marker.contains(p)
    {
        quiet = None;
    }
    ui.data_mut(|d| d.insert_temp(quiet_id, quiet));
    let marker_response = if quiet.is_some() {
        marker_response
    } else {
        marker_response.on_hover_text("Drag onto another frame to loop from there")
    };
    marker_response
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, "loop point"));
    if marker_response.drag_started() {
        events.started = Some(TimelineDrag::LoopMarker { target: None });
    }
}

/// Carries out what the cells asked for: the menu's frame, a drag's start; a click on a cell
/// is queued in `output`.
fn apply_cell_events(
    doc: &mut OpenDocument,
    state: &mut TimelineState,
    mut events: CellEvents,
    output: &mut TimelineOutput,
) {
    // Selected once every panel has painted: a field of the inspector applies what was typed
    // in it to the frame it was typed for first.
    if let Some((index, modifiers)) = events.clicked {
        let select = SystemCommand::SelectCell { index, modifiers };
        output.commands.send_system(select);
    }
    if let Some(index) = events.menu_on {
        if !doc.selected_frames().contains(&index) {
            click_cell(doc, state, index, egui::Modifiers::NONE);
        }
        // The menu's actions are about frames: a canvas element selection must not take them.
        if !doc.selected_elements().is_empty() || !doc.session.selection().elements.is_empty() {
            doc.clear_elements();
            let cells = doc.selected_frames();
            edit::select_frames(doc, cells);
        }
    }
    // Where frames cannot be moved (Solarus grids), a drag of cells says so at once instead
    // of offering a drop that would be refused.
    let unmovable = doc.frame_layout_refusal(FrameLayoutChange::Move);
    if let (Some(TimelineDrag::Frames { .. }), Some(why)) = (&events.started, &unmovable) {
        output.feedback = Some(Feedback::refusal(why, doc));
        events.started = None;
    }
    if let Some(mut drag) = events.started {
        if let (TimelineDrag::Frames { positions, .. }, Some(index)) =
            (&mut drag, events.started_on)
        {
            if !doc.selected_frames().contains(&index) {
                click_cell(doc, state, index, egui::Modifiers::NONE);
            }
            *positions = doc.selected_frames();
        }
        state.drag = Some(drag);
    }
}

/// The frame actions of a cell's (or the empty timeline's) context menu, with their shortcuts.
fn frame_menu(
    ui: &mut egui::Ui,
    cell: Option<usize>,
    loop_point: Option<usize>,
    output: &mut TimelineOutput,
) {
    let commands = &mut output.commands;
    let item = |ui: &mut egui::Ui, commands: &mut CommandSender, command: UICommand, label| {
        let button = egui::Button::new(label).shortcut_text(command.shortcut_text(ui.ctx()));
        if ui.add(button).clicked() {
            commands.send_ui(command);
            ui.close();
        }
    };
    item(ui, commands, UICommand::InsertFrame, "Insert frame");
    if cell.is_some() {
        item(ui, commands, UICommand::Duplicate, "Duplicate frames");
        item(ui, commands, UICommand::DeleteSelection, "Delete frames");
        ui.separator();
        item(ui, commands, UICommand::CopyFrames, "Copy frames");
        item(ui, commands, UICommand::CutFrames, "Cut frames");
    }
    item(ui, commands, UICommand::PasteFrames, "Paste frames");
    if let Some(cell) = cell {
        ui.separator();
        if loop_point != Some(cell) && ui.button("Loop from this frame").clicked() {
            commands.send_system(SystemCommand::SetLoopPoint(Some(cell)));
            ui.close();
        }
        if loop_point.is_some() && ui.button("Play once (no loop point)").clicked() {
            commands.send_system(SystemCommand::SetLoopPoint(None));
            ui.close();
        }
        ui.separator();
        item(ui, commands, UICommand::PinReference, "Pin as reference");
    }
}
