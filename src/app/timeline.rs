//! The timeline: one cell per frame of the selected direction, the loop point, the follow-up
//! and the playhead. Only the cells in view are painted, so a 3,000-frame action stays cheap.

use super::canvas::Pictures;
use super::frame_textures::FrameKey;
use super::settings::Settings;
use super::workspace::{OpenDocument, trim_float};
use crate::model::FrameDuration;
use egui::{Align2, Color32, FontId, Rect, Sense, Stroke, StrokeKind, pos2, vec2};

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

/// The width of each cell.
pub fn cell_widths(open: &OpenDocument, proportional: bool) -> Vec<f32> {
    let rate = open.frame_rate();
    open.direction_frames()
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

/// Paints the timeline; clicking a cell selects (and pauses on) that frame.
pub fn show(
    ui: &mut egui::Ui,
    settings: &Settings,
    open: &mut OpenDocument,
    pictures: &mut Pictures,
) {
    let widths = cell_widths(open, settings.view.proportional_timeline);
    let mut starts = Vec::with_capacity(widths.len() + 1);
    let mut x = 0.0;
    for w in &widths {
        starts.push(x);
        x += w + 2.0;
    }
    starts.push(x);
    let follow_up = open
        .sequence()
        .and_then(|s| s.follow_up.clone())
        .filter(|f| !f.is_empty());
    let end_label = match (&follow_up, open.sequence().and_then(|s| s.loop_point)) {
        (Some(name), _) => format!("then {name}"),
        (None, Some(lp)) if lp < widths.len() => format!("loops to {lp}"),
        _ => "ends".to_string(),
    };
    let total_width = x + 80.0;
    let current = open.player.frame_index();
    let progress = open.player.frame_progress(open.session.document()) as f32;
    let playing = open.player.is_playing();
    let loop_point = open
        .sequence()
        .and_then(|s| s.loop_point)
        .filter(|lp| *lp < widths.len() && open.player.looping());
    let durations: Vec<FrameDuration> =
        open.direction_frames().iter().map(|f| f.duration).collect();

    let (sequence, direction) = (open.player.sequence(), open.player.direction());
    let ctx = ui.ctx().clone();
    let mut clicked = None;
    egui::ScrollArea::horizontal()
        .auto_shrink([false, true])
        .id_salt("timeline")
        .show_viewport(ui, |ui, viewport| {
            let (rect, response) =
                ui.allocate_exact_size(vec2(total_width, CELL_HEIGHT + 14.0), Sense::click());
            response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Group, true, "timeline"));
            let painter = ui.painter_at(rect);
            let origin = rect.min;
            let visible = viewport.x_range();
            let first = starts
                .partition_point(|s| *s + 600.0 < visible.min)
                .saturating_sub(1);
            let font = FontId::proportional(11.0);
            let visuals = ui.visuals().clone();
            for i in first..widths.len() {
                if starts[i] > visible.max {
                    break;
                }
                let cell = Rect::from_min_size(
                    origin + vec2(starts[i], 12.0),
                    vec2(widths[i], CELL_HEIGHT),
                );
                let selected = i == current;
                let fill = if selected {
                    visuals.selection.bg_fill
                } else {
                    visuals.faint_bg_color
                };
                painter.rect_filled(cell, 3.0, fill);
                let zero = durations[i].is_zero();
                let forever = durations[i] == FrameDuration::Forever;
                let border = if zero {
                    Stroke::new(1.0, Color32::from_rgb(200, 140, 40))
                } else {
                    visuals.widgets.noninteractive.bg_stroke
                };
                painter.rect_stroke(cell, 3.0, border, StrokeKind::Inside);
                if widths[i] >= 20.0 {
                    let key = FrameKey {
                        sequence,
                        direction,
                        index: i,
                        progress: 0,
                    };
                    if let Some(thumb) = pictures.textures.thumbnail(
                        &ctx,
                        open.session.document(),
                        key,
                        pictures.pixels,
                    ) {
                        let area = Rect::from_min_max(
                            cell.min + vec2(2.0, 14.0),
                            cell.max - vec2(2.0, 14.0),
                        );
                        let size = vec2(thumb.rect.width as f32, thumb.rect.height as f32);
                        let fit = (area.width() / size.x).min(area.height() / size.y).min(4.0);
                        let shown = Rect::from_center_size(area.center(), size * fit);
                        let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
                        painter.image(thumb.texture.id(), shown, uv, Color32::WHITE);
                    }
                }
                let text_colour = visuals.text_color();
                painter.text(
                    cell.left_top() + vec2(3.0, 2.0),
                    Align2::LEFT_TOP,
                    i.to_string(),
                    font.clone(),
                    text_colour,
                );
                let duration = short_duration(durations[i]);
                let colour = if forever {
                    Color32::from_rgb(120, 200, 255)
                } else {
                    visuals.weak_text_color()
                };
                painter.text(
                    cell.center_bottom() - vec2(0.0, 3.0),
                    Align2::CENTER_BOTTOM,
                    duration,
                    font.clone(),
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
                if selected {
                    // The playhead: where in the frame playback is.
                    let x = cell.left() + cell.width() * if playing { progress } else { 0.0 };
                    painter.line_segment(
                        [pos2(x, rect.top()), pos2(x, cell.bottom())],
                        Stroke::new(2.0, Color32::from_rgb(255, 80, 80)),
                    );
                }
                if loop_point == Some(i) {
                    painter.text(
                        cell.left_top() - vec2(0.0, 1.0),
                        Align2::LEFT_BOTTOM,
                        "loop",
                        font.clone(),
                        Color32::from_rgb(90, 210, 120),
                    );
                    painter.line_segment(
                        [cell.left_top(), cell.left_bottom()],
                        Stroke::new(2.0, Color32::from_rgb(90, 210, 120)),
                    );
                }
            }
            let end = origin + vec2(starts[widths.len()] + 4.0, 12.0 + CELL_HEIGHT / 2.0);
            painter.text(
                end,
                Align2::LEFT_CENTER,
                &end_label,
                font,
                ui.visuals().weak_text_color(),
            );
            if response.clicked()
                && let Some(pos) = response.interact_pointer_pos()
            {
                let x = pos.x - origin.x;
                let index = starts.partition_point(|s| *s <= x).saturating_sub(1);
                if index < widths.len() && x <= starts[index] + widths[index] {
                    clicked = Some(index);
                }
            }
        });
    if let Some(index) = clicked {
        open.select_frame(index);
    }
}
