//! Transport controls: play, step, loop, speed, time read-outs and the direction switcher.

use super::commands::UICommand;
use super::workspace::{OpenDocument, trim_float};
use crate::model::FrameDuration;
use crate::playback::{SPEED_PRESETS_MILLI, SPEED_RANGE_MILLI};

/// The current time in the sequence's own unit ("tick 34 / 120") and in milliseconds.
pub fn time_text(open: &OpenDocument) -> String {
    let frames = open.direction_frames();
    let seconds = open.player.seconds_from_start(open.session.document());
    let ms = seconds * 1000.0;
    let total_ms: Option<f64> = frames
        .iter()
        .map(|f| {
            f.duration
                .exact(open.frame_rate())
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
            let rate = open.frame_rate() as f64;
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

/// Paints the transport bar; returns the commands its buttons gave.
pub fn show(ui: &mut egui::Ui, open: &mut OpenDocument) -> Vec<UICommand> {
    let mut commands = Vec::new();
    ui.horizontal(|ui| {
        let mut button = |ui: &mut egui::Ui, text: &str, command: UICommand| {
            let hint = format!("{} ({})", command.label(), command.shortcut_text(ui.ctx()));
            if ui.button(text).on_hover_text(hint).clicked() {
                commands.push(command);
            }
        };
        button(ui, "First", UICommand::FirstFrame);
        button(ui, "Previous", UICommand::StepBack);
        let play = if open.player.is_playing() {
            "Pause"
        } else {
            "Play"
        };
        button(ui, play, UICommand::PlayPause);
        button(ui, "Next", UICommand::StepForward);
        button(ui, "Last", UICommand::LastFrame);

        let mut looping = open.player.looping();
        if ui
            .checkbox(&mut looping, "Loop")
            .on_hover_text("Follow the loop point and follow-ups (L)")
            .changed()
        {
            open.player.set_looping(looping);
        }
        ui.separator();

        let speed_label = ui.label("Speed");
        let mut speed = open.player.speed_milli() as f64 / 1000.0;
        let slider = egui::Slider::new(&mut speed, 0.1..=8.0)
            .logarithmic(true)
            .show_value(false);
        if ui.add(slider).labelled_by(speed_label.id).changed() {
            open.player.set_speed_milli((speed * 1000.0).round() as u32);
        }
        let presets = egui::ComboBox::from_id_salt("speed presets")
            .selected_text(speed_text(open.player.speed_milli()))
            .width(64.0)
            .show_ui(ui, |ui| {
                for preset in SPEED_PRESETS_MILLI {
                    let chosen = open.player.speed_milli() == preset;
                    if ui.selectable_label(chosen, speed_text(preset)).clicked() {
                        open.player.set_speed_milli(preset);
                    }
                }
            });
        presets.response.labelled_by(speed_label.id);
        ui.separator();

        let count = open.direction_frames().len();
        ui.monospace(format!(
            "frame {} / {count}",
            if count == 0 {
                0
            } else {
                open.player.frame_index() + 1
            }
        ));
        ui.separator();
        ui.monospace(time_text(open));

        if let Some(sequence) = open.sequence()
            && sequence.directions.len() > 1
        {
            ui.separator();
            ui.label("Direction");
            let labels: Vec<String> = (0..sequence.directions.len())
                .map(|d| sequence.direction_label(d))
                .collect();
            let current = open.player.direction();
            for (d, label) in labels.iter().enumerate() {
                if ui.selectable_label(d == current, label).clicked() {
                    open.player.set_direction(open.session.document(), d);
                }
            }
        }
    });
    commands
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_presets_step_and_stop_at_the_ends() {
        assert_eq!(next_speed(1000, true), 1500);
        assert_eq!(next_speed(1000, false), 500);
        assert_eq!(next_speed(8000, true), 8000);
        assert_eq!(next_speed(100, false), 100);
        assert_eq!(speed_text(250), "0.25x");
    }
}
