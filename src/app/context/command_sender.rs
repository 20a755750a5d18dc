//! Where menus and panels put the commands they give, carried out once every panel has
//! painted (as rerun's `CommandSender`): [`UICommand`]s, which carry no data, and
//! [`SystemCommand`]s, which carry what they act on (a file, a tab, a frame, a row).
//!
//! A command that changes what is on show (a click on a timeline cell, a tree row, an element
//! or a sprite of a list) must wait until every panel has painted: a text field painted after
//! the click applies its typed value when the click leaves it, in the same pass, and it must
//! apply it to what it was typed for, not to what the click selects.

use crate::app::context::commands::UICommand;
use crate::app::context::tab_id::TabId;
use crate::app::context::tree_row::RowKind;
use crate::edit::sprites::SpriteNumber;
use crate::model::ElementId;
use std::path::PathBuf;

/// A command that carries what it acts on. Those about the document apply to the document on
/// show.
#[derive(Clone, Debug, PartialEq)]
pub enum SystemCommand {
    /// Open this file (File > Open Recent).
    OpenFile(PathBuf),
    /// Show this tab (the Window menu, the tab bar).
    ShowTab(TabId),
    /// Close this tab, asking first if it has unsaved changes (the tab bar's ×).
    CloseTab(TabId),
    /// Loop from this cell of the direction on show (`Some`), or play once (`None`).
    SetLoopPoint(Option<usize>),
    /// A click on this timeline cell, with the keys held (Shift adds a range, Ctrl one cell).
    SelectCell {
        /// The cell's index in the direction on show.
        index: usize,
        /// The keys held.
        modifiers: egui::Modifiers,
    },
    /// A click on this tree row.
    SelectRow(RowKind),
    /// A click on an element of the frame on show, in the inspector's list.
    SelectElement {
        /// The element clicked.
        element: ElementId,
        /// Shift or Ctrl held: the element joins the selection or leaves it.
        adding: bool,
    },
    /// A click on a sprite of the sprite browser's list, with the keys held.
    SelectSprite {
        /// The sprite clicked.
        number: SpriteNumber,
        /// The keys held (Shift or Ctrl: the sprite joins the selection or leaves it).
        modifiers: egui::Modifiers,
    },
}

/// A command given, of either kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A command without data: a menu item, a shortcut, a button.
    Ui(UICommand),
    /// A command with what it acts on.
    System(SystemCommand),
}

/// The commands given this pass, in the order given.
#[derive(Default, Debug)]
pub struct CommandSender {
    queued: Vec<Command>,
}

impl CommandSender {
    /// Queues a command without data.
    pub fn send_ui(&mut self, command: UICommand) {
        self.queued.push(Command::Ui(command));
    }

    /// Queues a command with what it acts on.
    pub fn send_system(&mut self, command: SystemCommand) {
        self.queued.push(Command::System(command));
    }

    /// Queues every command `other` holds, after these.
    pub fn append(&mut self, other: CommandSender) {
        self.queued.extend(other.queued);
    }

    /// The commands queued, in order, leaving none.
    pub fn take(&mut self) -> Vec<Command> {
        std::mem::take(&mut self.queued)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_of_both_kinds_come_out_in_the_order_given() {
        let mut sender = CommandSender::default();
        sender.send_ui(UICommand::Undo);
        sender.send_system(SystemCommand::SetLoopPoint(Some(2)));
        let mut later = CommandSender::default();
        later.send_ui(UICommand::Redo);
        sender.append(later);
        assert_eq!(
            sender.take(),
            [
                Command::Ui(UICommand::Undo),
                Command::System(SystemCommand::SetLoopPoint(Some(2))),
                Command::Ui(UICommand::Redo),
            ]
        );
        assert!(sender.take().is_empty());
    }
}
