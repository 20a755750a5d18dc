//! Transport controls: play, step, loop, speed, time read-outs and the direction switcher.

use crate::app::context::commands::UICommand;
use crate::app::context::document::OpenDocument;
use crate::app::context::duration_text::trim_float;
use crate::app::context::panel::PanelCtx;
use crate::model::{FrameDuration, TICKS_PER_SECOND};
use crate::playback::{SPEED_PRESETS_MILLI, SPEED_RANGE_MILLI};

/// The current time in the sequence's own unit ("tick 34 / 120") and in milliseconds.
pub fn time_text(doc: &OpenDocument) -> String {
    let frames = doc.direction_frames();
    let seconds = doc.player.seconds_from_start(doc.session.document());
    let ms = seconds * 1000.0;
    let total_ms: Option<f64> = frames
        .iter()
        .map(|f| {
            f.duration
                .exact(doc.frame_rate())
                .map(|t| t.as_millis_f64())
        })
        .sum();
    let total_ms_text = total_ms.map_or("∞".to_string(), |t| trim_float(t, 1));
    let native = match frames.first().map(|f| f.duration) {
        Some(FrameDuration::Ticks(_)) => {
            let total = total_ms.map_or("∞".to_string(), |t| trim_float(t * 0.06, 0));
            Some(format!(
                "tick {} / {total}",
                trim_float((seconds * 60.0).floor(), 0)
            ))
        }
        Some(FrameDuration::Holds(_)) => {
            let rate = doc.frame_rate() as f64;
            let total = total_ms.map_or("∞".to_string(), |t| trim_float(t * rate / 1000.0, 0));
            Some(format!(
                "hold {} / {total} at {rate} fps",
                trim_float((seconds * rate).floor(), 0)
            ))
        }
        Some(FrameDuration::Seconds { .. }) => Some(format!(
            "{} s / {}",
            trim_float(seconds, 3),
            total_ms.map_or("∞".to_string(), |t| format!(
                "{} s",
                trim_float(t / 1000.0, 3)
            ))
        )),
        _ => None,
    };
    let millis = format!("{} / {total_ms_text} ms", trim_float(ms, 1));
    match native {
        Some(native) => format!("{native} · {millis}"),
        None => millis,
    }
}

/// A speed as text ("0.25x").
pub fn speed_text(speed_milli: u32) -> String {
    format!("{}x", trim_float(speed_milli as f64 / 1000.0, 3))
}

/// What the current speed means in the format's own unit: ticks or frames per second and
/// milliseconds per tick or frame ("90 ticks/s · 11.1 ms/tick" for AIR at 1.5x). Formats
/// that count milliseconds have no fixed rate, so the shown frame's own rate is given.
/// `None` for a frame shown forever or a sequence with no frame rate.
pub fn effective_rate_text(
    duration: FrameDuration,
    frame_rate: u32,
    speed_milli: u32,
) -> Option<String> {
    let speed = speed_milli.max(1) as f64 / 1000.0;
    let (per_second, unit) = match duration {
        FrameDuration::Ticks(_) => (TICKS_PER_SECOND as f64 * speed, "tick"),
        FrameDuration::Holds(_) if frame_rate > 0 => (frame_rate as f64 * speed, "hold"),
        FrameDuration::Millis(_) | FrameDuration::Seconds { .. } => {
            let millis = duration.exact(frame_rate)?.as_millis_f64();
            if millis <= 0.0 {
                return None;
            }
            (1000.0 * speed / millis, "frame")
        }
        FrameDuration::Holds(_) | FrameDuration::Forever => return None,
    };
    let rate_unit = if unit == "tick" { "ticks/s" } else { "fps" };
    Some(format!(
        "{} {rate_unit} · {} ms/{unit}",
        trim_float(per_second, 2),
        trim_float(1000.0 / per_second, 1)
    ))
}

/// The preset after (`faster`) or before the current speed.
pub fn next_speed(speed_milli: u32, faster: bool) -> u32 {
    if faster {
        SPEED_PRESETS_MILLI
            .iter()
            .copied()
            .find(|s| *s > speed_milli)
            .unwrap_or(SPEED_RANGE_MILLI.1)
    } else {
        SPEED_PRESETS_MILLI
            .iter()
            .rev()
            .copied()
            .find(|s| *s < speed_milli)
            .unwrap_or(SPEED_RANGE_MILLI.0)
    }
}

/// Paints the transport bar; the commands its buttons give go into `ctx`.
pub fn show(ui: &mut egui::Ui, ctx: &mut PanelCtx) {
    let PanelCtx { doc, out, .. } = ctx;
    let commands = &mut out.commands;
    // Wrapped, so a narrow window or a large UI scale moves the last controls to a second
    // line instead of cutting them off.
    ui.horizontal_wrapped(|ui| {
        let mut button = |ui: &mut egui::Ui, text: &str, command: UICommand| {
            let hint = format!("{} ({})", command.label(), command.shortcut_text(ui.ctx()));
            if ui.button(text).on_hover_text(hint).clicked() {
                commands.send_ui(command);
            }
        };
        button(ui, "First", UICommand::FirstFrame);
        button(ui, "Previous", UICommand::StepBack);
        let play = if doc.player.is_playing() {
            "Pause"
        } else {
            "Play"
        };
        button(ui, play, UICommand::PlayPause);
        button(ui, "Next", UICommand::StepForward);
        button(ui, "Last", UICommand::LastFrame);

        let mut looping = doc.player.looping();
        if ui
            .checkbox(&mut looping, "Loop")
            .on_hover_text("Follow the loop point and follow-ups (L)")
            .changed()
        {
            doc.player.set_looping(looping);
        }
        ui.separator();

        let speed_label = ui.label("Speed");
        let mut speed = doc.player.speed_milli() as f64 / 1000.0;
        let slider = egui::Slider::new(&mut speed, 0.1..=8.0)
            .logarithmic(true)
            .show_value(false);
        if ui.add(slider).labelled_by(speed_label.id).changed() {
            doc.player.set_speed_milli((speed * 1000.0).round() as u32);
        }
        let presets = egui::ComboBox::from_id_salt("speed presets")
            .selected_text(speed_text(doc.player.speed_milli()))
            .width(64.0)
            .show_ui(ui, |ui| {
                for preset in SPEED_PRESETS_MILLI {
                    let chosen = doc.player.speed_milli() == preset;
                    if ui.selectable_label(chosen, speed_text(preset)).clicked() {
                        doc.player.set_speed_milli(preset);
                    }
                }
            });
        presets.response.labelled_by(speed_label.id);
        let shown = doc
            .direction_frames()
            .get(doc.player.frame_index())
            .map(|frame| frame.duration);
        if let Some(rate) = shown.and_then(|duration| {
            effective_rate_text(duration, doc.frame_rate(), doc.player.speed_milli())
        }) {
            ui.weak(rate)
                .on_hover_text("The effective rate at the current speed");
        }
        ui.separator();

        let count = doc.direction_frames().len();
        ui.monospace(format!(
            "frame {} / {count}",
            if count == 0 {
                0
            } else {
                doc.player.frame_index() + 1
            }
        ));
        ui.separator();
        ui.monospace(time_text(doc));

        if let Some(sequence) = doc.sequence()
            && sequence.directions.len() > 1
        {
            ui.separator();
            ui.label("Direction");
            let labels: Vec<String> = (0..sequence.directions.len())
                .map(|d| sequence.direction_label(d))
                .collect();
            let current = doc.player.direction();
            for (d, label) in labels.iter().enumerate() {
                if ui.selectable_label(d == current, label).clicked() {
                    doc.player.set_direction(doc.session.document(), d);
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_effective_rate_follows_the_speed_in_the_formats_unit() {
        assert_eq!(
            effective_rate_text(FrameDuration::Ticks(4), 0, 1500).as_deref(),
            Some("90 ticks/s · 11.1 ms/tick")
        );
        assert_eq!(
            effective_rate_text(FrameDuration::Holds(2), 12, 1000).as_deref(),
            Some("12 fps · 83.3 ms/hold")
        );
        assert_eq!(
            effective_rate_text(FrameDuration::Millis(100), 0, 1500).as_deref(),
            Some("15 fps · 66.7 ms/frame")
        );
        assert_eq!(effective_rate_text(FrameDuration::Forever, 0, 1000), None);
        assert_eq!(effective_rate_text(FrameDuration::Holds(1), 0, 1000), None);
        assert_eq!(effective_rate_text(FrameDuration::Millis(0), 0, 1000), None);
    }

    #[test]
    fn speed_presets_step_and_stop_at_the_ends() {
        assert_eq!(next_speed(1000, true), 1500);
        assert_eq!(next_speed(1000, false), 500);
        assert_eq!(next_speed(8000, true), 8000);
        assert_eq!(next_speed(100, false), 100);
        assert_eq!(speed_text(250), "0.25x");
    }
}
