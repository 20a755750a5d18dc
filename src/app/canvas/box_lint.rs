//! "Check boxes" (in the Box tools menu, and in the diagnostics panel to check again): the box
//! warnings of `sprat check`, listed with what the reader said, each selecting its frame.

use crate::app::context::document::OpenDocument;
use crate::assets::ImageStore;
use crate::boxes::lint::{BoxClasses, LintContext, is_box_warning, lint_boxes};
use crate::model::DefaultBoxRule;

/// Shows the button where the format has boxes; a click replaces the box warnings of an
/// earlier check with the document's current ones, inheriting defaults by `rule` (the
/// preview's).
pub fn button(ui: &mut egui::Ui, doc: &mut OpenDocument, rule: DefaultBoxRule) {
    let capabilities = doc.session.format().capabilities();
    if !capabilities.boxes {
        return;
    }
    let clicked = ui
        .button("Check boxes")
        .on_hover_text(
            "Warn about hit boxes without a hurt box, boxes off the picture, hurt boxes missing most of it, frames without boxes between boxed frames, and repeated boxes a default would do",
        )
        .clicked();
    if clicked {
        check(doc, rule);
    }
}

/// Replaces the box warnings of an earlier check with the document's current ones; the
/// diagnostics panel shows them (it shows itself when there are diagnostics). Boxes inherit
/// defaults by `rule`, the one the preview follows, so the warnings speak of what the canvas shows.
pub fn check(doc: &mut OpenDocument, rule: DefaultBoxRule) {
    let capabilities = doc.session.format().capabilities();
    // A store of its own: the lint reads every frame's pictures once, apart from the canvas.
    let pixels = ImageStore::new();
    let context = LintContext {
        pixels: Some(&pixels),
        rule,
        default_boxes: capabilities.default_boxes,
        classes: BoxClasses::of(doc.document(), &capabilities, &doc.box_roles),
    };
    let warnings = lint_boxes(doc.document(), &context);
    let mut diagnostics: Vec<_> = doc
        .diagnostics()
        .iter()
        .filter(|d| !is_box_warning(d))
        .cloned()
        .collect();
    diagnostics.extend(warnings);
    doc.session.set_diagnostics(diagnostics);
}
