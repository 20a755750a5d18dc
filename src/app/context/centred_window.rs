//! The skeleton of the small windows that ask one thing in the middle of the screen (unsaved
//! changes, a failed save, a new document, deleting sprites, a running export).

/// A window titled `title`, centred on the screen, sized by what it holds and not collapsible.
pub fn centred_window(title: impl Into<egui::WidgetText>) -> egui::Window<'static> {
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
}
