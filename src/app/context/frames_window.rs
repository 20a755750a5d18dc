//! The skeleton the windows that work on frames share (Edit > Align frames, Edit > Retime):
//! which frames they work on and the row that picks them, the window itself, and the Apply /
//! Close row that ends it (Escape closes it too).

use super::document::OpenDocument;
use crate::edit::scope::FrameScope;

/// Which frames a window works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowScope {
    /// The cells selected in the timeline.
    SelectedFrames,
    /// Every direction of the sequence on show.
    ThisSequence,
    /// Every sequence of the document.
    EverySequence,
}

impl WindowScope {
    /// What a window opens on: the selected frames when several are selected and the window
    /// can work on frames one by one (`per_frame`), else the sequence on show.
    pub fn opening(doc: &OpenDocument, per_frame: bool) -> WindowScope {
        if per_frame && doc.selected_frames().len() > 1 {
            WindowScope::SelectedFrames
        } else {
            WindowScope::ThisSequence
        }
    }

    /// The frames it names in `doc`.
    pub fn frames(self, doc: &OpenDocument) -> FrameScope {
        match self {
            WindowScope::SelectedFrames => FrameScope::Frames {
                sequence: doc.player.sequence(),
                direction: doc.player.direction(),
                positions: doc.selected_frames(),
            },
            WindowScope::ThisSequence => {
                FrameScope::Sequences(doc.sequence().map(|s| s.id).into_iter().collect())
            }
            WindowScope::EverySequence => FrameScope::Everything,
        }
    }
}

/// The "Frames" row of a window's grid: the selected frames (how many) and the sequence on
/// show (its name), and the whole document when `every_sequence` is offered.
pub fn scope_row(
    ui: &mut egui::Ui,
    scope: &mut WindowScope,
    doc: &OpenDocument,
    every_sequence: bool,
) {
    let sequence = doc.sequence().map(|s| s.name.clone()).unwrap_or_default();
    let selected = doc.selected_frames().len();
    ui.label("Frames");
    ui.vertical(|ui| {
        ui.radio_value(
            scope,
            WindowScope::SelectedFrames,
            format!("Selected frames ({selected})"),
        );
        ui.radio_value(
            scope,
            WindowScope::ThisSequence,
            format!("This sequence ({sequence})"),
        );
        if every_sequence {
            ui.radio_value(scope, WindowScope::EverySequence, "Every sequence");
        }
    });
    ui.end_row();
}

/// Shows the window titled `title` (its size fixed by what it holds, not collapsible), painted
/// by `contents`. True when Escape was pressed, which closes it as Close does.
pub fn show(ctx: &egui::Context, title: &str, contents: impl FnOnce(&mut egui::Ui)) -> bool {
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .show(ctx, contents);
    ctx.input(|i| i.key_pressed(egui::Key::Escape))
}

/// The last row: Apply, greyed out while `blocked` (with its reason on hover when it gives
/// one), and Close. Whether each was clicked: `(apply, close)`.
pub fn apply_close_row(ui: &mut egui::Ui, blocked: Option<Option<&str>>) -> (bool, bool) {
    ui.horizontal(|ui| {
        let button = ui.add_enabled(blocked.is_none(), egui::Button::new("Apply"));
        let apply = match blocked {
            None => button.clicked(),
            Some(why) => {
                if let Some(why) = why {
                    button.on_disabled_hover_text(crate::text::capitalised(why));
                }
                false
            }
        };
        (apply, ui.button("Close").clicked())
    })
    .inner
}
