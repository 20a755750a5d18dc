//! Edit > Align frames… (Ctrl+Shift+A): moves each frame of the selection or of the sequence on
//! show so an anchor lines up on the origin: the feet (bottom centre of the opaque pixels),
//! the centre of mass, or an attachment point the frames have. Before applying, the canvas
//! shows the frames faint where they would go (a ghost, [`FrameGhost`]) and the window says
//! how many move and which frames have no anchor; Apply is one undo step.
//!
//! Where the format holds one origin per direction (ask
//! [`crate::formats::Capabilities::one_origin_per_direction`]; a Solarus direction has one),
//! frames cannot be placed one by one: the window says so and offers what the format can
//! hold, one move for each whole direction, the mean of its frames' moves, so their anchors
//! land on the origin on average.

use crate::app::context::document::{OpenDocument, box_rule};
use crate::app::context::frames_window::{self, WindowScope};
use crate::app::context::ghost::FrameGhost;
use crate::app::context::memo::Memo;
use crate::app::context::panel::PanelCtx;
use crate::edit::align::{AlignFrames, AlignPlan, OnePerDirection, align_for_format};
use crate::edit::scope::FrameScope;
use crate::formats::Severity;
use crate::model::{AnimationSet, DefaultBoxRule, Fx};
use crate::pixels::PixelSource;
use crate::tools::anchor::Anchor;

/// A tab's Align frames window: shown or not, the choices, and the plan they give.
pub struct AlignState {
    /// The window is shown.
    pub shown: bool,
    /// Which frames (the selected ones or the sequence on show).
    pub scope: WindowScope,
    /// What lines up.
    pub anchor: Anchor,
    /// The plan for the last choices and document revision (finding anchors reads pixels, so
    /// it is not made at every paint).
    preview: Memo<PreviewKey, Result<AlignFrames, String>>,
}

impl Default for AlignState {
    fn default() -> AlignState {
        AlignState {
            shown: false,
            scope: WindowScope::ThisSequence,
            anchor: Anchor::Feet,
            preview: Memo::default(),
        }
    }
}

impl AlignState {
    /// Opens the window: on the selected frames when several are selected, else on the
    /// sequence on show.
    pub fn start(&mut self, doc: &OpenDocument) {
        self.scope = WindowScope::opening(doc, true);
        self.preview.clear();
        self.shown = true;
    }

    /// What the canvas should show faint: the planned moves of the direction on show, while
    /// the window is open.
    pub fn ghost(&self, doc: &OpenDocument) -> Option<FrameGhost> {
        if !self.shown {
            return None;
        }
        let Ok(command) = self.preview.get()? else {
            return None;
        };
        command
            .plan
            .directions
            .iter()
            .find(|d| d.sequence == doc.player.sequence() && d.direction == doc.player.direction())
            .map(|d| FrameGhost {
                sequence: d.sequence,
                direction: d.direction,
                moves: d.moves.clone(),
            })
    }
}

/// What the plan is made of.
#[derive(Clone, Debug, PartialEq)]
struct PreviewKey {
    revision: u64,
    scope: FrameScope,
    anchor: Anchor,
    rule: DefaultBoxRule,
}

/// Paints the window of the tab on show; Apply aligns the frames as one undo step and says so
/// in the status bar.
pub fn window(ctx: &egui::Context, state: &mut AlignState, panel: &mut PanelCtx) {
    if !state.shown {
        return;
    }
    let capabilities = panel.doc.session.format().capabilities();
    let whole_directions = capabilities.one_origin_per_direction;
    let scope = state.scope.frames(panel.doc);
    let rule = box_rule(panel.settings.view.documented_default_box_rule);
    let key = PreviewKey {
        revision: panel.doc.revision,
        scope: scope.clone(),
        anchor: state.anchor.clone(),
        rule,
    };
    let document = panel.doc.document();
    let format = panel.doc.session.format();
    let pixels: &dyn PixelSource = panel.pictures.pixels.as_ref();
    let anchor = &state.anchor;
    // The same decision as `sprat align`, but a format with one origin per direction is
    // offered one move per direction (the window says so) where the command line refuses.
    let (planned, fresh) = state.preview.get_or_make(key, || {
        align_for_format(
            document,
            &scope,
            anchor,
            pixels,
            format,
            OnePerDirection::MeanMove,
            rule,
        )
        .map_err(|e| e.message)
    });
    let planned = planned.clone();
    if fresh {
        // The canvas painted before this window: paint again so it shows the new ghost.
        ctx.request_repaint();
    }
    let (mut apply, mut close) = (false, false);
    let escape = frames_window::show(ctx, "Align frames", |ui| {
        let before = (state.scope, state.anchor.clone());
        fields(ui, state, panel.doc, &scope);
        if (state.scope, state.anchor.clone()) != before {
            // The plan shown below is the one for the choices before this change.
            ctx.request_repaint();
        }
        if whole_directions {
            ui.separator();
            ui.label(format!(
                "{} files hold one origin for all the frames of a direction, so frames \
                     cannot be placed one by one. Apply moves each whole direction by one \
                     move instead: the mean of its frames' moves, so their anchors land on \
                     the origin on average.",
                panel.doc.format_name()
            ));
        }
        ui.separator();
        match &planned {
            Ok(command) => outcome_lines(ui, panel.doc, &command.plan),
            Err(message) => {
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    crate::text::capitalised(message),
                );
            }
        }
        let blocked = planned.as_ref().err().map(|why| Some(why.as_str()));
        (apply, close) = frames_window::apply_close_row(ui, blocked);
    });
    if close || escape {
        state.shown = false;
        return;
    }
    let (true, Ok(command)) = (apply, planned) else {
        return;
    };
    let moved = command.plan.moved();
    let planned = planned_frames(&command.plan);
    match panel.doc.apply(&command, None) {
        Ok(()) => {
            panel.say(
                Severity::Info,
                format!(
                    "Aligned {} on the {}: {moved} moved",
                    crate::text::count(planned, "frame"),
                    state.anchor
                ),
            );
            state.shown = false;
        }
        Err(message) => panel.refuse(&message),
    }
}

/// The choices: which frames and which anchor (the points the frames have listed by name).
fn fields(ui: &mut egui::Ui, state: &mut AlignState, doc: &OpenDocument, scope: &FrameScope) {
    let points = point_names(doc.document(), scope);
    egui::Grid::new("align fields")
        .num_columns(2)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            frames_window::scope_row(ui, &mut state.scope, doc, false);

            ui.label("Anchor");
            ui.vertical(|ui| {
                ui.radio_value(&mut state.anchor, Anchor::Feet, "Feet")
                    .on_hover_text("The bottom centre of the opaque pixels");
                ui.radio_value(&mut state.anchor, Anchor::Centre, "Centre of mass")
                    .on_hover_text("The mean of the opaque pixels");
                for name in &points {
                    ui.radio_value(
                        &mut state.anchor,
                        Anchor::Point(name.clone()),
                        format!("Point \"{name}\""),
                    );
                }
                if points.is_empty() {
                    ui.weak("These frames have no attachment points");
                }
            });
            ui.end_row();
        });
}

/// What Apply would do: how many frames move, the frame on show's move, the frames left as
/// they are.
fn outcome_lines(ui: &mut egui::Ui, doc: &OpenDocument, plan: &AlignPlan) {
    let planned = planned_frames(plan);
    let moved = plan.moved();
    ui.label(format!(
        "{}: {moved} move, {} already in place",
        crate::text::count(planned, "frame"),
        planned - moved
    ));
    let on_show = plan
        .directions
        .iter()
        .filter(|d| d.sequence == doc.player.sequence() && d.direction == doc.player.direction())
        .flat_map(|d| &d.moves)
        .find(|(position, _)| *position == doc.player.frame_index());
    if let Some((_, by)) = on_show {
        ui.label(format!(
            "The frame on show moves by ({}, {}) px; the canvas shows the frames where they go, faint blue.",
            trim(by.x),
            trim(by.y)
        ));
    }
    let skipped = plan.skipped_lines(doc.document());
    for line in skipped.iter().take(5) {
        ui.colored_label(ui.visuals().warn_fg_color, format!("Left as it is: {line}"));
    }
    if skipped.len() > 5 {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!("and {} more left as they are", skipped.len() - 5),
        );
    }
}

/// A position for reading: `3`, `-2.5`.
fn trim(value: Fx) -> String {
    crate::app::context::duration_text::trim_float(value.to_f64(), 3)
}

fn planned_frames(plan: &AlignPlan) -> usize {
    plan.directions.iter().map(|d| d.moves.len()).sum()
}

/// The names of the attachment points of the frames in `scope`, sorted, once each.
fn point_names(document: &AnimationSet, scope: &FrameScope) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for cells in scope.cells(document).into_iter().flatten().flatten() {
        let Some(sequence) = document.sequence(cells.sequence) else {
            continue;
        };
        let ids = &sequence.directions[cells.direction].frames;
        for frame in cells
            .positions
            .iter()
            .filter_map(|p| document.frame(ids[*p]))
        {
            for element in &frame.elements {
                if element.as_point().is_some() && !names.iter().any(|n| *n == element.name) {
                    names.push(element.name.to_string());
                }
            }
        }
    }
    names.sort();
    names
}
