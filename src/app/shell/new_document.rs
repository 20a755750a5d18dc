//! File > New (Ctrl+N): an empty document in a format the user picks — Sprat's own project
//! unless another is chosen — with one empty sequence, in a tab of its own. It has no file
//! until the first save, which asks where to put it.

use crate::app::context::centred_window::centred_window;
use crate::app::context::document::OpenDocument;
use crate::formats::sprat::SpratFormat;
use crate::formats::{Format, registry};
use crate::model::{AnimationSet, DirectionId, Sequence, SequenceId, TreeItem};

/// The New window's choice while it is shown.
pub struct NewDocumentDialog {
    /// The format the document will be saved in.
    pub format: &'static dyn Format,
}

impl Default for NewDocumentDialog {
    fn default() -> NewDocumentDialog {
        NewDocumentDialog {
            format: &SpratFormat,
        }
    }
}

/// The formats a new document can be made in: those Sprat both writes and reads back, and
/// whose sequences are written (a lone SFF archive's are only a view of sprites it does not
/// have yet).
pub fn formats() -> Vec<&'static dyn Format> {
    registry()
        .formats()
        .filter(|f| {
            let can = f.capabilities();
            can.read && can.write && !can.sequences_are_a_view
        })
        .collect()
}

/// Paints the New window; the format chosen when the user presses Create.
pub fn show(
    ctx: &egui::Context,
    shown: &mut Option<NewDocumentDialog>,
) -> Option<&'static dyn Format> {
    let dialog = shown.as_mut()?;
    let (mut create, mut cancel) = (false, false);
    centred_window("New document").show(ctx, |ui| {
        ui.horizontal(|ui| {
            let label = ui.label("Format");
            egui::ComboBox::from_id_salt("new document format")
                .selected_text(dialog.format.name())
                .show_ui(ui, |ui| {
                    for format in formats() {
                        let chosen = format.id() == dialog.format.id();
                        if ui.selectable_label(chosen, format.name()).clicked() {
                            dialog.format = format;
                        }
                    }
                })
                .response
                .labelled_by(label.id);
        });
        ui.weak("It has one empty sequence; the first save asks where to put the file.");
        ui.horizontal(|ui| {
            create = ui.button("Create").clicked();
            cancel = ui.button("Cancel").clicked();
        });
    });
    cancel |= ctx.input(|i| i.key_pressed(egui::Key::Escape));
    if cancel {
        *shown = None;
        return None;
    }
    let format = dialog.format;
    if create {
        *shown = None;
        return Some(format);
    }
    None
}

/// An empty document in `format` with one empty sequence, named as the format names them
/// ("0" for a M.U.G.E.N action), counted as unedited.
pub fn empty_document(format: &'static dyn Format) -> OpenDocument {
    let mut set = AnimationSet::new();
    let name = if format.capabilities().numbered_sequences {
        "0"
    } else {
        "new sequence"
    };
    let id = SequenceId(set.alloc_id());
    let direction = DirectionId(set.alloc_id());
    set.root
        .items
        .push(TreeItem::Sequence(Sequence::new(id, name, direction)));
    OpenDocument::new(set, None, format, Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_offered_reads_and_writes_and_the_project_comes_first_by_default() {
        let offered = formats();
        assert!(offered.iter().any(|f| f.id() == "sprat"));
        assert!(offered.iter().all(|f| {
            let c = f.capabilities();
            c.read && c.write && !c.sequences_are_a_view
        }));
        assert!(!offered.iter().any(|f| f.id() == "mugen-sff"));
        assert_eq!(NewDocumentDialog::default().format.id(), "sprat");
    }

    #[test]
    fn an_empty_character_names_its_first_action_zero() {
        let air = registry().by_id("mugen-air").unwrap();
        let doc = empty_document(air);
        let names: Vec<String> = doc
            .document()
            .sequences()
            .iter()
            .map(|s| s.name.clone())
            .collect();
        assert_eq!(names, ["0"]);
        assert!(!doc.session.is_dirty());
        assert_eq!(doc.path(), None);
    }
}
