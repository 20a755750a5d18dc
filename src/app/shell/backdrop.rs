//! The window's background: the backend clears the window to the panel colour before each
//! paint, so the panels need not paint it again. With software GL every layer drawn over the
//! whole window costs each paint its own pass over the pixels (a textured, blended fill), and
//! a clear costs much less: the panels' fills were a second layer over most of the window.
//!
//! Where nothing clears to that colour (the test harness clears to transparent), the panels
//! paint their fills as egui's own frames do.

use std::cell::Cell;

/// What the backend cleared the window to before the paint, as it asked through
/// [`Backdrop::clear_color`].
#[derive(Default)]
pub struct Backdrop {
    /// The colour asked for last; `None` until the backend asks (or never, in tests).
    cleared: Cell<Option<egui::Color32>>,
}

impl Backdrop {
    /// The colour the backend clears the window to: the panel colour of `visuals`, opaque.
    pub fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        let fill = visuals.panel_fill;
        self.cleared.set(Some(fill));
        fill.to_normalized_gamma_f32()
    }

    /// What a panel paints under its contents: nothing when the window was cleared to the
    /// panel colour it would paint, else the colour itself (a theme changed since the clear,
    /// or nothing clears).
    pub fn panel_fill(&self, visuals: &egui::Visuals) -> egui::Color32 {
        if self.cleared.get() == Some(visuals.panel_fill) {
            egui::Color32::TRANSPARENT
        } else {
            visuals.panel_fill
        }
    }

    /// The frame of a side, top or bottom panel, filled only where the clear does not do it.
    pub fn side_panel_frame(&self, style: &egui::Style) -> egui::Frame {
        egui::Frame::side_top_panel(style).fill(self.panel_fill(&style.visuals))
    }

    /// The frame of a central panel, filled only where the clear does not do it.
    pub fn central_panel_frame(&self, style: &egui::Style) -> egui::Frame {
        egui::Frame::central_panel(style).fill(self.panel_fill(&style.visuals))
    }
}

/// Runs `add_contents` with the panel colour said to be behind it, painted or not: a scroll
/// area fades its edges into the colour of the frames around it, and a panel left to the
/// clear has a frame with no fill.
pub fn on_panel_colour<R>(ui: &mut egui::Ui, add_contents: impl FnOnce(&mut egui::Ui) -> R) -> R {
    let behind = egui::Frame::NONE.fill(ui.visuals().panel_fill);
    let info = egui::UiStackInfo::new(egui::UiKind::Frame).with_frame(behind);
    ui.scope_builder(egui::UiBuilder::new().ui_stack_info(info), add_contents)
        .inner
}

#[cfg(test)]
mod tests {
    use super::Backdrop;
    use egui::{Color32, Visuals};

    #[test]
    fn panels_are_filled_unless_the_window_was_cleared_to_their_colour() {
        let backdrop = Backdrop::default();
        let dark = Visuals::dark();
        let light = Visuals::light();
        // Nothing cleared (the test harness): the panels paint their colour.
        assert_eq!(backdrop.panel_fill(&dark), dark.panel_fill);
        assert_eq!(
            backdrop.clear_color(&dark),
            dark.panel_fill.to_normalized_gamma_f32()
        );
        assert_eq!(backdrop.panel_fill(&dark), Color32::TRANSPARENT);
        assert_eq!(
            backdrop.side_panel_frame(&egui::Style::default()).fill,
            Color32::TRANSPARENT
        );
        // The theme changed after the clear: this paint fills, the next clears to the new one.
        assert_eq!(backdrop.panel_fill(&light), light.panel_fill);
        let light_style = egui::Style {
            visuals: light.clone(),
            ..Default::default()
        };
        assert_eq!(
            backdrop.central_panel_frame(&light_style).fill,
            light.panel_fill
        );
        backdrop.clear_color(&light);
        assert_eq!(backdrop.panel_fill(&light), Color32::TRANSPARENT);
    }
}
