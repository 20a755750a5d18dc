//! Number fields that edit the document: a typed value applies once, on Enter or when the field
//! is left, and Esc gives the field back its value; a drag applies as it goes (the caller makes
//! it one undo step). Every document number field of the editor (inspector, timeline, sprites)
//! is added through [`add`].

use egui::response::Flags;

/// Adds `field` (enabled or not) so that typing "150" hands back one change, 150, when the
/// field is left, rather than 1, 15 and 150; Esc hands back none.
pub fn add(ui: &mut egui::Ui, enabled: bool, field: egui::DragValue<'_>) -> egui::Response {
    let mut response = ui.add_enabled(enabled, field.update_while_editing(false));
    // egui reports a field left with Esc as lost focus again on the next pass, when the key
    // is no longer down, and applies the typed text then: Esc is remembered for that pass.
    let escaped_id = response.id.with("escaped");
    let escaped_before = ui.data(|d| d.get_temp::<bool>(escaped_id).unwrap_or(false));
    if escaped_before {
        ui.data_mut(|d| d.remove::<bool>(escaped_id));
        response.flags.remove(Flags::CHANGED);
    }
    if response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Escape)) {
        ui.data_mut(|d| d.insert_temp(escaped_id, true));
    }
    response
}
