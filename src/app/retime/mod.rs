//! Edit > Retime… (Ctrl+T): new durations for the selected frames, the sequence on show or
//! every sequence: scaled by a factor (the ratios kept), fitted to a total time (typed in
//! milliseconds, or in ticks where the frames count in ticks), or set to a rate (frames per
//! second, or units per frame in the unit the frames count in: ticks, milliseconds, holds).
//! Before applying, the window shows what [`Retime::plan`] gives: the new total and the
//! largest per-frame rounding error; Apply is one undo step. A value that cannot be applied
//! (0, negative, not a number, a total shorter than one unit a frame, an empty selection)
//! greys Apply out and the window says why.

use crate::app::context::document::OpenDocument;
use crate::app::context::duration_text::{format_millis, trim_float};
use crate::app::context::frames_window::{self, WindowScope};
use crate::app::context::memo::Memo;
use crate::app::context::panel::PanelCtx;
use crate::edit::retime::{Retime, RetimePlan};
use crate::edit::scope::FrameScope;
use crate::formats::Severity;
use crate::model::{AnimationSet, FrameDuration, SequenceId, TICKS_PER_SECOND};
use crate::tools::retime::{Ratio, RetimeChange};

/// How the new durations are asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetimeMode {
    /// Every duration times a factor.
    Scale,
    /// The frames last a total time, shared in proportion.
    Total,
    /// Every frame lasts the same: a rate.
    Rate,
}

/// The unit a rate is typed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateUnit {
    /// Frames per second.
    FramesPerSecond,
    /// The document's own units (ticks, milliseconds, holds) per frame.
    UnitsPerFrame,
}

/// A tab's Retime window: shown or not, and the choices typed (kept while the editor runs).
pub struct RetimeState {
    /// The window is shown.
    pub shown: bool,
    /// Which frames.
    pub scope: WindowScope,
    /// How.
    pub mode: RetimeMode,
    /// The factor, as typed (`1.5`, `2/3`).
    pub factor: String,
    /// The total time, as typed.
    pub total: String,
    /// The total is typed in ticks (offered when the frames count in ticks), else in
    /// milliseconds.
    pub total_in_ticks: bool,
    /// The rate, as typed.
    pub rate: String,
    /// What the rate counts.
    pub rate_unit: RateUnit,
    /// The plan for the last choices and document revision, so it is not made at every paint.
    preview: Memo<PreviewKey, Result<Summary, String>>,
}

impl Default for RetimeState {
    fn default() -> RetimeState {
        RetimeState {
            shown: false,
            scope: WindowScope::ThisSequence,
            mode: RetimeMode::Scale,
            factor: "1".to_string(),
            total: String::new(),
            total_in_ticks: false,
            rate: "12".to_string(),
            rate_unit: RateUnit::FramesPerSecond,
            preview: Memo::default(),
        }
    }
}

impl RetimeState {
    /// Opens the window: on the selected frames when several are selected (and the format
    /// gives each frame its own duration), else on the sequence on show.
    pub fn start(&mut self, doc: &OpenDocument) {
        let per_frame = doc.session.format().capabilities().per_frame_durations;
        self.scope = WindowScope::opening(doc, per_frame);
        if self.total.is_empty() {
            let frames = doc.direction_frames();
            if let Some(millis) = total_millis(&frames, doc.frame_rate()) {
                self.total = trim_float(millis, 3);
                self.total_in_ticks = false;
            }
        }
        self.preview.clear();
        self.shown = true;
    }
}

impl RetimeState {
    /// The choices as typed, to tell when they change.
    fn choices(&self) -> (WindowScope, RetimeMode, RateUnit, bool, [String; 3]) {
        (
            self.scope,
            self.mode,
            self.rate_unit,
            self.total_in_ticks,
            [self.factor.clone(), self.total.clone(), self.rate.clone()],
        )
    }
}

/// What the plan is made of: the document's state and the command.
#[derive(Clone, Debug, PartialEq)]
struct PreviewKey {
    revision: u64,
    retime: Retime,
}

/// What the window shows of a plan.
#[derive(Clone, Debug, PartialEq)]
struct Summary {
    /// "12 frames of "walk"".
    frames: String,
    /// "Total: 1.25 s (75 ticks), then 0.83 s (50 ticks)".
    total: String,
    /// The total before, for the status bar ("1.25 s").
    before: String,
    /// The new total, for the status bar ("0.83 s").
    after: String,
    /// The largest rounding error, or that there is none.
    error: String,
    /// How many frames get a different length.
    changed: usize,
}

/// Paints the window of the tab on show; Apply retimes the document as one undo step and
/// says so in the status bar.
pub fn window(ctx: &egui::Context, state: &mut RetimeState, panel: &mut PanelCtx) {
    if !state.shown {
        return;
    }
    let capabilities = panel.doc.session.format().capabilities();
    let (mut apply, mut close) = (false, false);
    let scope = state.scope.frames(panel.doc);
    let unit = frames_unit(panel.doc.document(), &scope);
    let asked = change_asked(state, unit);
    let retime = asked.map(|change| Retime {
        scope,
        change,
        per_frame_durations: capabilities.per_frame_durations,
    });
    let outcome = match &retime {
        Ok(retime) => preview(state, panel.doc, retime),
        Err(message) => Err(message.clone()),
    };
    let escape = frames_window::show(ctx, "Retime", |ui| {
        let before = state.choices();
        fields(ui, state, panel.doc, unit);
        if state.choices() != before {
            // What is shown below was worked out from the choices before this change.
            ctx.request_repaint();
        }
        ui.separator();
        // As tall as four lines whatever it says, so Apply does not move down under the
        // pointer while a value is typed (the summary grows from one line to four).
        let line = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
        ui.vertical(|ui| {
            ui.set_min_height(4.0 * line);
            match &outcome {
                Ok(summary) => {
                    ui.label(format!(
                        "{}: {} get a new length",
                        crate::text::capitalised(&summary.frames),
                        summary.changed
                    ));
                    ui.label(&summary.total);
                    ui.label(&summary.error);
                }
                Err(message) => {
                    ui.colored_label(
                        ui.visuals().error_fg_color,
                        crate::text::capitalised(message),
                    );
                }
            }
        });
        if !capabilities.per_frame_durations {
            ui.weak(format!(
                "{} files hold one duration per sequence: each sequence gets one.",
                panel.doc.format_name()
            ));
        }
        // The reason Apply is greyed out is written above it already.
        let blocked = outcome.is_err().then_some(None);
        (apply, close) = frames_window::apply_close_row(ui, blocked);
    });
    if close || escape {
        state.shown = false;
        return;
    }
    if let (true, Ok(retime), Ok(summary)) = (apply, &retime, &outcome) {
        match panel.doc.apply(retime, None) {
            Ok(()) => {
                panel.say(Severity::Info, done_sentence(retime.change, summary));
                state.shown = false;
            }
            Err(message) => panel.refuse(&message),
        }
    }
}

/// What Apply did, for the status bar, with the total before and after: "Retimed 4 frames of
/// "punch" (×1.5) from 350 ms to 533.3 ms"; a fit to a total says no more than its new total.
fn done_sentence(change: RetimeChange, summary: &Summary) -> String {
    let how = match change {
        RetimeChange::TotalMillis(_) => String::new(),
        other => format!(" ({})", other.describe()),
    };
    format!(
        "Retimed {}{how} from {} to {}",
        summary.frames, summary.before, summary.after
    )
}

/// The text field of the amount a retime takes (a factor, a total time, a rate), labelled by
/// `label`, with `hint` shown while it is empty.
fn amount_field(
    ui: &mut egui::Ui,
    label: egui::Id,
    text: &mut String,
    hint: &str,
    width: f32,
) -> egui::Response {
    let field = egui::TextEdit::singleline(text)
        .hint_text(hint)
        .desired_width(width);
    ui.add(field).labelled_by(label)
}

/// The choices: which frames, how, and the value.
fn fields(ui: &mut egui::Ui, state: &mut RetimeState, doc: &OpenDocument, unit: Option<&str>) {
    egui::Grid::new("retime fields")
        .num_columns(2)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            frames_window::scope_row(ui, &mut state.scope, doc, true);

            ui.label("Change");
            ui.vertical(|ui| {
                ui.radio_value(&mut state.mode, RetimeMode::Scale, "Scale by a factor");
                ui.radio_value(&mut state.mode, RetimeMode::Total, "Fit to a total time");
                ui.radio_value(&mut state.mode, RetimeMode::Rate, "Set a rate");
            });
            ui.end_row();

            match state.mode {
                RetimeMode::Scale => {
                    let label = ui.label("Factor");
                    let hover = "Above 1 slows down, below 1 speeds up; the ratios between frames are kept";
                    amount_field(ui, label.id, &mut state.factor, "2, 1.5 or 2/3", 120.0)
                        .on_hover_text(hover);
                }
                RetimeMode::Total => {
                    let label = ui.label("Total time");
                    ui.horizontal(|ui| {
                        let hover = "Each direction lasts this long, shared in proportion to the frames' lengths";
                        amount_field(ui, label.id, &mut state.total, "1200", 80.0)
                            .on_hover_text(hover);
                        let before = state.total_in_ticks;
                        ui.radio_value(&mut state.total_in_ticks, false, "ms");
                        if unit == Some("ticks") {
                            ui.radio_value(&mut state.total_in_ticks, true, "ticks");
                        }
                        if state.total_in_ticks != before {
                            state.total = converted_total(&state.total, state.total_in_ticks);
                        }
                    });
                }
                RetimeMode::Rate => {
                    let label = ui.label("Rate");
                    ui.horizontal(|ui| {
                        amount_field(ui, label.id, &mut state.rate, "12", 80.0);
                        ui.radio_value(
                            &mut state.rate_unit,
                            RateUnit::FramesPerSecond,
                            "frames per second",
                        );
                        if let Some(name) = unit {
                            ui.radio_value(
                                &mut state.rate_unit,
                                RateUnit::UnitsPerFrame,
                                format!("{name} per frame"),
                            );
                        }
                    });
                }
            }
            ui.end_row();
        });
    if unit.is_none() {
        state.rate_unit = RateUnit::FramesPerSecond;
    }
    if unit != Some("ticks") && state.total_in_ticks {
        state.total_in_ticks = false;
        state.total = converted_total(&state.total, false);
    }
}

/// A total typed in one unit, in the other (ticks when `to_ticks`, else milliseconds),
/// exactly (`1550/3` where it is not whole); as it was when it is not a number.
fn converted_total(typed: &str, to_ticks: bool) -> String {
    let Ok(value) = Ratio::parse_positive(typed) else {
        return typed.to_string();
    };
    let (times, by) = if to_ticks {
        (TICKS_PER_SECOND as u128, 1000)
    } else {
        (1000, TICKS_PER_SECOND as u128)
    };
    value
        .numerator
        .checked_mul(times)
        .zip(value.denominator.checked_mul(by))
        .and_then(|(n, d)| Ratio::new(n, d))
        .map_or_else(|| typed.to_string(), |r| r.to_string())
}

/// The unit the frames of `scope` count in, for "ticks per frame": theirs when they all
/// share one (ticks, milliseconds, holds), else none (a rate is then typed in frames per
/// second). Frames shown forever or of no length are not retimed and do not count.
fn frames_unit(document: &AnimationSet, scope: &FrameScope) -> Option<&'static str> {
    let mut unit = None;
    for cells in scope.cells(document).ok()?.into_iter().flatten() {
        let ids = &document.sequence(cells.sequence)?.directions[cells.direction].frames;
        for position in cells.positions {
            let name = match document.frame(ids[position])?.duration {
                FrameDuration::Millis(ms) if ms > 0 => "ms",
                FrameDuration::Ticks(ticks) if ticks > 0 => "ticks",
                FrameDuration::Holds(_) => "holds",
                FrameDuration::Seconds { .. } => return None,
                _ => continue,
            };
            if unit.is_some_and(|u| u != name) {
                return None;
            }
            unit = Some(name);
        }
    }
    unit
}

/// The change typed, or why it is refused.
fn change_asked(state: &RetimeState, unit: Option<&str>) -> Result<RetimeChange, String> {
    match state.mode {
        RetimeMode::Scale => Ratio::parse_positive(&state.factor)
            .map(RetimeChange::Scale)
            .map_err(|e| format!("factor: {e}")),
        RetimeMode::Total => {
            let total =
                Ratio::parse_positive(&state.total).map_err(|e| format!("total time: {e}"))?;
            if !state.total_in_ticks {
                return Ok(RetimeChange::TotalMillis(total));
            }
            let millis = total
                .numerator
                .checked_mul(1000)
                .zip(total.denominator.checked_mul(TICKS_PER_SECOND as u128))
                .and_then(|(n, d)| Ratio::new(n, d));
            millis
                .map(RetimeChange::TotalMillis)
                .ok_or_else(|| format!("total time: \"{}\" is too large", state.total.trim()))
        }
        RetimeMode::Rate => match (state.rate_unit, unit) {
            (RateUnit::UnitsPerFrame, Some(name)) => {
                let ratio = Ratio::parse_positive(&state.rate)
                    .map_err(|e| format!("{name} per frame: {e}"))?;
                if ratio.numerator % ratio.denominator != 0 {
                    return Err(format!(
                        "{name} per frame: \"{}\" is not a whole number",
                        state.rate.trim()
                    ));
                }
                u32::try_from(ratio.numerator / ratio.denominator)
                    .map(RetimeChange::UnitsPerFrame)
                    .map_err(|_| {
                        format!("{name} per frame: \"{}\" is too large", state.rate.trim())
                    })
            }
            _ => Ratio::parse_positive(&state.rate)
                .map(RetimeChange::FramesPerSecond)
                .map_err(|e| format!("frames per second: {e}")),
        },
    }
}

/// The summary of `retime`'s plan, made again only when the choices or the document changed.
fn preview(
    state: &mut RetimeState,
    doc: &OpenDocument,
    retime: &Retime,
) -> Result<Summary, String> {
    let key = PreviewKey {
        revision: doc.revision,
        retime: retime.clone(),
    };
    let document = doc.document();
    let (outcome, _) = state.preview.get_or_make(key, || {
        retime
            .plan(document)
            .map_err(|e| e.message)
            .map(|plan| summary(document, &plan))
    });
    outcome.clone()
}

fn summary(document: &AnimationSet, plan: &RetimePlan) -> Summary {
    let mut sequences: Vec<SequenceId> = Vec::new();
    for frame in &plan.frames {
        if !sequences.contains(&frame.sequence) {
            sequences.push(frame.sequence);
        }
    }
    let name = |id: SequenceId| {
        document
            .sequence(id)
            .map_or_else(String::new, |s| s.name.clone())
    };
    let count = crate::text::count(plan.frames.len(), "frame");
    let frames = match sequences.as_slice() {
        [one] => format!("{count} of \"{}\"", name(*one)),
        _ => format!(
            "{count} in {}",
            crate::text::count(sequences.len(), "sequence")
        ),
    };
    let rate = |id: SequenceId| {
        document
            .sequence(id)
            .and_then(|s| s.frame_rate)
            .or(document.frame_rate)
            .unwrap_or(0)
    };
    let millis = |pick: fn(&crate::edit::retime::RetimedFrame) -> FrameDuration| {
        plan.frames
            .iter()
            .filter_map(|f| pick(f).exact(rate(f.sequence)))
            .map(|t| t.as_millis_f64())
            .sum::<f64>()
    };
    let before = millis(|f| f.before);
    let after = millis(|f| f.after);
    let native = |pick: fn(&crate::edit::retime::RetimedFrame) -> FrameDuration| {
        native_total(plan.frames.iter().map(pick))
            .filter(|t| !t.ends_with(" ms"))
            .map_or_else(String::new, |t| format!(" ({t})"))
    };
    let total = format!(
        "Total: {}{}, then {}{}",
        format_millis(before),
        native(|f| f.before),
        format_millis(after),
        native(|f| f.after)
    );
    let error = match plan.largest_error() {
        Some(worst) if worst.error_units > 0.0 => {
            let position = document
                .sequence(worst.sequence)
                .and_then(|s| {
                    s.directions
                        .iter()
                        .find_map(|d| d.frames.iter().position(|id| *id == worst.frame))
                })
                .map_or_else(String::new, |p| format!("frame {p} of "));
            let unit = worst.after.unit_name();
            let in_millis = if unit == "ms" {
                String::new()
            } else {
                format!(" ({} ms)", trim_float(worst.error_millis, 3))
            };
            format!(
                "Largest rounding error: {} {unit}{in_millis}, {position}\"{}\"; nothing drifts",
                trim_float(worst.error_units, 3),
                name(worst.sequence)
            )
        }
        _ => "No rounding: every frame gets its exact length".to_string(),
    };
    Summary {
        frames,
        total,
        before: format_millis(before),
        after: format_millis(after),
        error,
        changed: plan.changed(),
    }
}

/// The sum of durations in their unit when they share one ("50 ticks").
fn native_total(durations: impl Iterator<Item = FrameDuration>) -> Option<String> {
    let mut total: u128 = 0;
    let mut unit = None;
    for duration in durations {
        let value = match duration {
            FrameDuration::Millis(v) | FrameDuration::Ticks(v) | FrameDuration::Holds(v) => {
                v as u128
            }
            _ => return None,
        };
        let name = duration.unit_name();
        if unit.is_some_and(|u| u != name) {
            return None;
        }
        unit = Some(name);
        total += value;
    }
    unit.map(|u| {
        // "1 tick", "1 hold"; "ms" is the same for one.
        let word = match (total, u) {
            (1, "ticks") => "tick",
            (1, "holds") => "hold",
            _ => u,
        };
        format!("{total} {word}")
    })
}

/// The total length of `frames` in milliseconds, when none lasts forever.
fn total_millis(frames: &[&crate::model::Frame], frame_rate: u32) -> Option<f64> {
    let mut millis = 0.0;
    for frame in frames {
        millis += frame.duration.exact(frame_rate)?.as_millis_f64();
    }
    (millis > 0.0).then_some(millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_total_of_one_unit_is_said_in_the_singular() {
        let ticks = [FrameDuration::Ticks(1), FrameDuration::Ticks(0)];
        assert_eq!(native_total(ticks.into_iter()).as_deref(), Some("1 tick"));
        let ticks = [FrameDuration::Ticks(1), FrameDuration::Ticks(2)];
        assert_eq!(native_total(ticks.into_iter()).as_deref(), Some("3 ticks"));
        let holds = [FrameDuration::Holds(1)];
        assert_eq!(native_total(holds.into_iter()).as_deref(), Some("1 hold"));
        let mixed = [FrameDuration::Holds(1), FrameDuration::Millis(1)];
        assert_eq!(native_total(mixed.into_iter()), None);
    }
}
