//! A click that changes what the other panels show, held back one pass while a text field
//! elsewhere still holds typed text.
//!
//! A field applies its typed value when it is left, in the pass of the click that leaves it.
//! The timeline and the tree are painted before the inspector, and the sprite list before the
//! sprite's fields: a click on a cell or a row would change what is on show first, and the
//! field would then give its value to the new one. Held one pass, the click lets the field
//! apply its value to what it was typed for; the click takes effect on the next pass.

/// One held click (or any action that changes what is on show).
#[derive(Debug)]
pub struct AfterTyping<T> {
    held: Option<T>,
}

// Not derived: a derived `Default` would ask `T` to have one.
impl<T> Default for AfterTyping<T> {
    fn default() -> Self {
        Self { held: None }
    }
}

impl<T> AfterTyping<T> {
    /// Hands `action` back when it can take effect now; holds it, and asks for another pass,
    /// while a text field (of a panel painted later) has the keyboard.
    pub fn offer(&mut self, ctx: &egui::Context, action: T) -> Option<T> {
        if ctx.text_edit_focused() {
            self.held = Some(action);
            ctx.request_repaint();
            None
        } else {
            self.held = None;
            Some(action)
        }
    }

    /// The action held on an earlier pass, once no text field has the keyboard.
    pub fn ready(&mut self, ctx: &egui::Context) -> Option<T> {
        if ctx.text_edit_focused() {
            return None;
        }
        self.held.take()
    }
}
