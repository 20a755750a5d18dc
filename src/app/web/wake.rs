//! Waking the editor from outside its frames: the page's script calls in between them (files
//! arrived, the test asked for something), and only a requested repaint makes the next frame
//! come (idle is free).

use std::cell::RefCell;

thread_local! {
    /// The editor's context, once it has started.
    static CONTEXT: RefCell<Option<egui::Context>> = const { RefCell::new(None) };
}

/// Keeps the editor's context to wake it later (when it starts).
pub(super) fn remember(ctx: &egui::Context) {
    CONTEXT.with_borrow_mut(|context| *context = Some(ctx.clone()));
}

/// Asks the editor for a frame; nothing before it has started.
pub(super) fn wake() {
    CONTEXT.with_borrow(|context| {
        if let Some(ctx) = context {
            ctx.request_repaint();
        }
    });
}
