//! Every command of the editor, with its label and keyboard shortcut, in one place.
//!
//! Menus, the shortcuts window and the keyboard handler all read this table, so a shortcut is
//! declared once and shown wherever the command appears.

use egui::{Key, KeyboardShortcut, Modifiers};

/// Declares [`UICommand`] and [`UICommand::ALL`] from one list, so the list of commands comes
/// from the enum itself and a new command cannot be left out of menus, the shortcuts window or
/// the keyboard handler.
macro_rules! ui_commands {
    ($($(#[$doc:meta])* $name:ident,)*) => {
        /// A command the user can give from a menu, a button or the keyboard.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum UICommand {
            $($(#[$doc])* $name,)*
        }

        impl UICommand {
            /// Every command, in menu order (the order of the declaration).
            pub const ALL: &[UICommand] = &[$(UICommand::$name,)*];
        }
    };
}

ui_commands! {
    /// File > New: an empty document in a format the user picks, in a tab of its own.
    NewDocument,
    /// File > Open: the native dialog, or the path field when no dialog can be shown.
    Open,
    /// File > Open path: type a path.
    OpenPath,
    /// Open the bundled demo.
    OpenDemo,
    /// Save in the file's own format.
    Save,
    /// Save to another file or format, after showing what that format cannot hold.
    SaveAs,
    /// File > Import: drawn frames (PNG files or a sprite sheet) into the document on show.
    Import,
    /// File > Export: pictures, animations or atlases of this sequence or every sequence.
    Export,
    /// File > Restore backup: the versions saves replaced of the document's files, one to put
    /// back.
    RestoreBackup,
    /// Close the tab on show (asking first if it has unsaved changes).
    CloseTab,
    /// Show the next tab (wrapping around).
    NextTab,
    /// Show the previous tab (wrapping around).
    PreviousTab,
    /// Quit the editor.
    Quit,
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// The history list, to jump back to any step.
    ShowHistory,
    /// Play or pause.
    PlayPause,
    /// Previous frame.
    StepBack,
    /// Next frame.
    StepForward,
    /// First frame.
    FirstFrame,
    /// Last frame.
    LastFrame,
    /// Honour the loop point and follow-ups, or play once.
    ToggleLoop,
    /// Next faster speed preset.
    FasterSpeed,
    /// Next slower speed preset.
    SlowerSpeed,
    /// True speed.
    ResetSpeed,
    /// Previous sequence in the (filtered) tree.
    PreviousSequence,
    /// Next sequence in the (filtered) tree.
    NextSequence,
    /// Previous direction of the sequence.
    PreviousDirection,
    /// Next direction of the sequence.
    NextDirection,
    /// Zoom in one step around the canvas centre.
    ZoomIn,
    /// Zoom out one step.
    ZoomOut,
    /// Fit the frame in the canvas.
    ZoomFit,
    /// One image pixel per screen pixel.
    ZoomActualSize,
    /// Pixel grid when zoomed in.
    ToggleGrid,
    /// Onion skin.
    ToggleOnionSkin,
    /// Pin the frame on show as the reference drawn faintly under the canvas, in every tab.
    PinReference,
    /// Stop drawing the pinned reference.
    UnpinReference,
    /// Collision boxes and attachment points.
    ToggleOverlay,
    /// The canvas shows the character facing left (mirrored about the origin).
    ToggleFacingLeft,
    /// Timeline cells as wide as their duration.
    ToggleProportionalTimeline,
    /// Show or hide the hierarchy tree.
    ToggleTree,
    /// Show or hide the inspector.
    ToggleInspector,
    /// Show or hide the timeline.
    ToggleTimeline,
    /// Show or hide the source-sheet view.
    ToggleSheet,
    /// Show or hide the diagnostics panel.
    ToggleDiagnostics,
    /// Put the cursor in the tree filter.
    FocusFilter,
    /// The shortcuts window.
    ShowShortcuts,
    /// Rename the selected tree item (sequence, group or direction) in place.
    Rename,
    /// Delete what is selected: canvas elements, else timeline frames, else the tree item.
    DeleteSelection,
    /// Duplicate the selected frames, else the selected tree item.
    Duplicate,
    /// Copy the selected frames to the editor's frame clipboard.
    CopyFrames,
    /// Copy the selected frames, then delete them.
    CutFrames,
    /// Paste the clipboard's frames after the selected frame (or at the end).
    PasteFrames,
    /// Paste special: only the durations of the copied frames onto the selected frames.
    PasteTiming,
    /// Paste special: only the collision boxes of the copied frames onto the selected frames.
    PasteBoxes,
    /// Paste special: only the attachment points of the copied frames onto the selected frames.
    PastePoints,
    /// The Retime window: new durations for the selected frames, a sequence or every sequence.
    Retime,
    /// The Align frames window: line the frames up on their feet, centre or a point.
    AlignFrames,
    /// Insert a blank frame after the selected frame.
    InsertFrame,
    /// Add a sequence after the selected one.
    AddSequence,
    /// Add a group (formats with nested groups).
    AddGroup,
    /// Add a direction to the selected sequence (formats with directions).
    AddDirection,
    /// Make the selected sequence the one shown first.
    SetDefaultSequence,
    /// Canvas: the select tool (select, move, resize, rotate).
    SelectTool,
    /// Canvas: the box tool, drawing rectangles.
    BoxTool,
    /// Canvas: the box tool, drawing circles.
    CircleTool,
    /// Canvas: the point tool.
    PointTool,
    /// Canvas: select every element the frame on show shows.
    SelectAllElements,
    /// Canvas: select no element (Escape over the canvas, when no drag is under way).
    ClearElementSelection,
}

impl UICommand {
    /// The label shown in menus and the shortcuts window.
    pub fn label(self) -> &'static str {
        match self {
            UICommand::Open => "Open…",
            UICommand::NewDocument => "New…",
            UICommand::OpenPath => "Open path…",
            UICommand::OpenDemo => "Open the demo",
            UICommand::Save => "Save",
            UICommand::SaveAs => "Save As…",
            UICommand::Import => "Import frames…",
            UICommand::Export => "Export…",
            UICommand::RestoreBackup => "Restore backup…",
            UICommand::CloseTab => "Close tab",
            UICommand::NextTab => "Next tab",
            UICommand::PreviousTab => "Previous tab",
            UICommand::Quit => "Quit",
            UICommand::Undo => "Undo",
            UICommand::Redo => "Redo",
            UICommand::ShowHistory => "History",
            UICommand::PlayPause => "Play / pause",
            UICommand::StepBack => "Previous frame",
            UICommand::StepForward => "Next frame",
            UICommand::FirstFrame => "First frame",
            UICommand::LastFrame => "Last frame",
            UICommand::ToggleLoop => "Loop",
            UICommand::FasterSpeed => "Faster",
            UICommand::SlowerSpeed => "Slower",
            UICommand::ResetSpeed => "True speed (1x)",
            UICommand::PreviousSequence => "Previous sequence",
            UICommand::NextSequence => "Next sequence",
            UICommand::PreviousDirection => "Previous direction",
            UICommand::NextDirection => "Next direction",
            UICommand::ZoomIn => "Zoom in",
            UICommand::ZoomOut => "Zoom out",
            UICommand::ZoomFit => "Fit",
            UICommand::ZoomActualSize => "Actual size (100%)",
            UICommand::ToggleGrid => "Pixel grid",
            UICommand::ToggleOnionSkin => "Onion skin",
            UICommand::PinReference => "Pin frame as reference",
            UICommand::UnpinReference => "Unpin reference",
            UICommand::ToggleOverlay => "Boxes and points",
            UICommand::ToggleFacingLeft => "Facing left",
            UICommand::ToggleProportionalTimeline => "Cells as wide as their duration",
            UICommand::ToggleTree => "Hierarchy",
            UICommand::ToggleInspector => "Inspector",
            UICommand::ToggleTimeline => "Timeline",
            UICommand::ToggleSheet => "Source sheet",
            UICommand::ToggleDiagnostics => "Diagnostics",
            UICommand::FocusFilter => "Filter sequences",
            UICommand::ShowShortcuts => "Keyboard shortcuts",
            UICommand::Rename => "Rename",
            UICommand::DeleteSelection => "Delete",
            UICommand::Duplicate => "Duplicate",
            UICommand::CopyFrames => "Copy frames",
            UICommand::CutFrames => "Cut frames",
            UICommand::PasteFrames => "Paste frames",
            UICommand::PasteTiming => "Paste timing only",
            UICommand::PasteBoxes => "Paste boxes only",
            UICommand::PastePoints => "Paste points only",
            UICommand::Retime => "Retime…",
            UICommand::AlignFrames => "Align frames…",
            UICommand::InsertFrame => "Insert frame",
            UICommand::AddSequence => "Add sequence",
            UICommand::AddGroup => "Add group",
            UICommand::AddDirection => "Add direction",
            UICommand::SetDefaultSequence => "Set as default sequence",
            UICommand::SelectTool => "Select tool",
            UICommand::BoxTool => "Box tool",
            UICommand::CircleTool => "Box tool (circles)",
            UICommand::PointTool => "Point tool",
            UICommand::SelectAllElements => "Select all elements",
            UICommand::ClearElementSelection => "Select no element",
        }
    }

    /// The keyboard shortcut, if the command has one.
    pub fn shortcut(self) -> Option<KeyboardShortcut> {
        let none = Modifiers::NONE;
        let cmd = Modifiers::COMMAND;
        let alt = Modifiers::ALT;
        let shift = Modifiers::SHIFT;
        // Ctrl even on a Mac, where Cmd+Tab switches applications.
        let ctrl = Modifiers::CTRL;
        let key = |modifiers, key| Some(KeyboardShortcut::new(modifiers, key));
        match self {
            UICommand::Open => key(cmd, Key::O),
            UICommand::NewDocument => key(cmd, Key::N),
            UICommand::OpenPath => key(cmd | shift, Key::O),
            UICommand::OpenDemo => None,
            UICommand::Save => key(cmd, Key::S),
            UICommand::SaveAs => key(cmd | shift, Key::S),
            UICommand::Import => key(cmd, Key::I),
            UICommand::Export => key(cmd, Key::E),
            UICommand::RestoreBackup => None,
            UICommand::CloseTab => key(cmd, Key::W),
            UICommand::NextTab => key(ctrl, Key::Tab),
            UICommand::PreviousTab => key(ctrl | shift, Key::Tab),
            UICommand::Quit => key(cmd, Key::Q),
            UICommand::Undo => key(cmd, Key::Z),
            UICommand::Redo => key(cmd | shift, Key::Z),
            UICommand::ShowHistory => key(cmd, Key::H),
            // Space is handled apart: it also pans while held with a drag.
            UICommand::PlayPause => None,
            UICommand::StepBack => key(none, Key::Comma),
            UICommand::StepForward => key(none, Key::Period),
            UICommand::FirstFrame => key(none, Key::Home),
            UICommand::LastFrame => key(none, Key::End),
            UICommand::ToggleLoop => key(none, Key::L),
            UICommand::FasterSpeed => key(none, Key::CloseBracket),
            UICommand::SlowerSpeed => key(none, Key::OpenBracket),
            UICommand::ResetSpeed => key(none, Key::Backslash),
            UICommand::PreviousSequence => key(alt, Key::ArrowUp),
            UICommand::NextSequence => key(alt, Key::ArrowDown),
            UICommand::PreviousDirection => key(alt, Key::ArrowLeft),
            UICommand::NextDirection => key(alt, Key::ArrowRight),
            UICommand::ZoomIn => key(cmd, Key::Equals),
            UICommand::ZoomOut => key(cmd, Key::Minus),
            UICommand::ZoomFit => key(none, Key::F),
            UICommand::ZoomActualSize => key(none, Key::Num1),
            UICommand::ToggleGrid => key(none, Key::G),
            UICommand::ToggleOnionSkin => key(none, Key::O),
            UICommand::PinReference | UICommand::UnpinReference => None,
            UICommand::ToggleOverlay => key(none, Key::B),
            UICommand::ToggleFacingLeft => key(shift, Key::F),
            UICommand::ToggleProportionalTimeline => key(none, Key::W),
            UICommand::ToggleTree => key(cmd, Key::Num1),
            UICommand::ToggleInspector => key(cmd, Key::Num2),
            UICommand::ToggleTimeline => key(cmd, Key::Num3),
            UICommand::ToggleSheet => key(cmd, Key::Num4),
            UICommand::ToggleDiagnostics => key(cmd, Key::Num5),
            UICommand::FocusFilter => key(cmd, Key::F),
            UICommand::ShowShortcuts => key(none, Key::F1),
            UICommand::Rename => key(none, Key::F2),
            UICommand::DeleteSelection => key(none, Key::Delete),
            UICommand::Duplicate => key(cmd, Key::D),
            UICommand::CopyFrames => key(cmd, Key::C),
            UICommand::CutFrames => key(cmd, Key::X),
            UICommand::PasteFrames => key(cmd, Key::V),
            UICommand::PasteTiming | UICommand::PasteBoxes | UICommand::PastePoints => None,
            UICommand::Retime => key(cmd, Key::T),
            UICommand::AlignFrames => key(cmd | shift, Key::A),
            UICommand::InsertFrame => key(none, Key::Insert),
            UICommand::AddSequence
            | UICommand::AddGroup
            | UICommand::AddDirection
            | UICommand::SetDefaultSequence => None,
            UICommand::SelectTool => key(none, Key::V),
            UICommand::BoxTool => key(none, Key::R),
            UICommand::CircleTool => key(shift, Key::R),
            UICommand::PointTool => key(none, Key::P),
            UICommand::SelectAllElements => key(cmd, Key::A),
            // Escape is handled apart: it first ends a drag, closes a field or a dialog.
            UICommand::ClearElementSelection => None,
        }
    }

    /// A second key for the same command, the other common spelling on some desktops: Ctrl+Y
    /// redoes, Backspace deletes (a Mac keyboard's "delete" key sends Backspace).
    pub fn alternate_shortcut(self) -> Option<KeyboardShortcut> {
        match self {
            UICommand::Redo => Some(KeyboardShortcut::new(Modifiers::COMMAND, Key::Y)),
            UICommand::DeleteSelection => {
                Some(KeyboardShortcut::new(Modifiers::NONE, Key::Backspace))
            }
            _ => None,
        }
    }

    /// The arrow key that also gives the command while no element is selected on the frame on
    /// show: Left and Right step frames, as in Aseprite (with an element selected, the canvas
    /// nudges it instead). See [`UICommand::pressed_arrows`].
    pub fn arrow_shortcut(self) -> Option<KeyboardShortcut> {
        match self {
            UICommand::StepBack => Some(KeyboardShortcut::new(Modifiers::NONE, Key::ArrowLeft)),
            UICommand::StepForward => Some(KeyboardShortcut::new(Modifiers::NONE, Key::ArrowRight)),
            _ => None,
        }
    }

    /// The commands whose arrow keys ([`UICommand::arrow_shortcut`]) were pressed this frame,
    /// consumed from the input; nothing while the user types (the arrows move the text
    /// cursor). The app asks only while no element is selected on the frame on show.
    pub fn pressed_arrows(ctx: &egui::Context) -> Vec<UICommand> {
        if ctx.egui_wants_keyboard_input() {
            return Vec::new();
        }
        let mut pressed = Vec::new();
        ctx.input_mut(|input| {
            // Plain arrows only: egui would take Shift+Left as Left.
            if !input.modifiers.is_none() {
                return;
            }
            for command in UICommand::ALL {
                if let Some(s) = command.arrow_shortcut() {
                    let count = input.count_and_consume_key(s.modifiers, s.logical_key);
                    pressed.extend(std::iter::repeat_n(*command, count));
                }
            }
        });
        pressed
    }

    /// The shortcut as the user reads it ("Ctrl+O", "Ctrl+Shift+Z / Ctrl+Y"), or the empty
    /// string.
    pub fn shortcut_text(self, ctx: &egui::Context) -> String {
        match self {
            UICommand::PlayPause => return "Space".to_string(),
            UICommand::ClearElementSelection => return "Esc".to_string(),
            _ => {}
        }
        [
            self.shortcut(),
            self.alternate_shortcut(),
            self.arrow_shortcut(),
        ]
        .into_iter()
        .flatten()
        .map(|s| shortcut_words(ctx, &s))
        .collect::<Vec<_>>()
        .join(" / ")
    }

    /// True for shortcuts without Ctrl/Alt, which must not fire while the user types text.
    fn is_plain_key(self) -> bool {
        self.shortcut()
            .is_some_and(|s| !s.modifiers.command && !s.modifiers.ctrl && !s.modifiers.alt)
    }

    /// True for shortcuts a text field also answers (copy, cut, paste, duplicate a line, undo
    /// and redo its typing, select all its text): they belong to the field while the user
    /// types.
    fn is_text_shortcut(self) -> bool {
        matches!(
            self,
            UICommand::CopyFrames
                | UICommand::CutFrames
                | UICommand::PasteFrames
                | UICommand::Duplicate
                | UICommand::Undo
                | UICommand::Redo
                | UICommand::SelectAllElements
        )
    }

    /// The command whose shortcut (or alternate or arrow) is `key` with `modifiers`, if any
    /// (the web page keeps the browser from acting on such keys too).
    pub fn answering(key: Key, modifiers: Modifiers) -> Option<UICommand> {
        UICommand::ALL.iter().copied().find(|command| {
            [
                command.shortcut(),
                command.alternate_shortcut(),
                command.arrow_shortcut(),
            ]
            .into_iter()
            .flatten()
            .any(|s| s.logical_key == key && modifiers.matches_exact(s.modifiers))
        })
    }

    /// The commands whose shortcuts were pressed this frame (consumed from the input).
    pub fn pressed(ctx: &egui::Context) -> Vec<UICommand> {
        let typing = ctx.egui_wants_keyboard_input();
        let mut pressed = Vec::new();
        ctx.input_mut(|input| {
            // The desktop turns Ctrl+C/X/V into clipboard events rather than key presses.
            if !typing {
                for event in &input.events {
                    let command = match event {
                        egui::Event::Copy => UICommand::CopyFrames,
                        egui::Event::Cut => UICommand::CutFrames,
                        egui::Event::Paste(_) => UICommand::PasteFrames,
                        _ => continue,
                    };
                    if !pressed.contains(&command) {
                        pressed.push(command);
                    }
                }
            }
            // Longer modifier sets first, so Ctrl+Shift+O is not taken as Ctrl+O.
            let mut commands: Vec<(UICommand, KeyboardShortcut)> = UICommand::ALL
                .iter()
                .flat_map(|c| [c.shortcut(), c.alternate_shortcut()].map(|s| s.map(|s| (*c, s))))
                .flatten()
                .collect();
            commands.sort_by_key(|(_, s)| std::cmp::Reverse(modifier_count(s.modifiers)));
            for (command, shortcut) in commands {
                if typing && (command.is_plain_key() || command.is_text_shortcut()) {
                    continue;
                }
                if input.consume_shortcut(&shortcut) && !pressed.contains(&command) {
                    pressed.push(command);
                }
            }
        });
        pressed
    }
}

/// A shortcut as the user reads it: "Ctrl+Shift+Z", "]", "Ctrl+=", "Alt+Left". Keys that are a
/// sign show the sign ("]", "[", "\\", "="), not egui's name for them ("CloseBracket"); arrows
/// show their name.
pub fn shortcut_words(ctx: &egui::Context, shortcut: &KeyboardShortcut) -> String {
    let is_mac = ctx.os().is_mac();
    let mut text = egui::ModifierNames::NAMES.format(&shortcut.modifiers, is_mac);
    if !text.is_empty() {
        text += "+";
    }
    text += match shortcut.logical_key {
        key @ (Key::ArrowLeft | Key::ArrowRight | Key::ArrowUp | Key::ArrowDown) => key.name(),
        Key::Minus => "-",
        key => key.symbol_or_name(),
    };
    text
}

fn modifier_count(m: Modifiers) -> u32 {
    m.alt as u32 + m.shift as u32 + (m.ctrl || m.command) as u32 + m.mac_cmd as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_that_are_signs_read_as_their_sign() {
        let ctx = egui::Context::default();
        let text = |command: UICommand| command.shortcut_text(&ctx);
        assert_eq!(text(UICommand::FasterSpeed), "]");
        assert_eq!(text(UICommand::SlowerSpeed), "[");
        assert_eq!(text(UICommand::ResetSpeed), "\\");
        assert!(
            text(UICommand::ZoomIn).ends_with("+="),
            "{}",
            text(UICommand::ZoomIn)
        );
        assert!(
            text(UICommand::ZoomOut).ends_with("+-"),
            "{}",
            text(UICommand::ZoomOut)
        );
        assert_eq!(text(UICommand::StepBack), ", / Left");
        assert!(text(UICommand::PreviousDirection).ends_with("Alt+Left"));
        assert_eq!(text(UICommand::ToggleFacingLeft), "Shift+F");
    }

    #[test]
    fn a_key_with_its_modifiers_names_the_command_it_gives() {
        let ctrl = Modifiers::COMMAND;
        assert_eq!(
            UICommand::answering(Key::D, ctrl),
            Some(UICommand::Duplicate)
        );
        assert_eq!(
            UICommand::answering(Key::ArrowLeft, Modifiers::ALT),
            Some(UICommand::PreviousDirection)
        );
        assert_eq!(
            UICommand::answering(Key::ArrowLeft, Modifiers::NONE),
            Some(UICommand::StepBack)
        );
        assert_eq!(UICommand::answering(Key::J, ctrl), None);
        assert_eq!(
            UICommand::answering(Key::D, ctrl | Modifiers::SHIFT),
            None,
            "modifiers must match, not only include"
        );
    }

    #[test]
    fn every_command_is_listed_once_and_no_two_share_a_shortcut() {
        let mut seen = std::collections::HashSet::new();
        for command in UICommand::ALL {
            assert!(seen.insert(command), "{command:?} listed twice");
        }
        let mut shortcuts = std::collections::HashMap::new();
        for command in UICommand::ALL {
            for s in [
                command.shortcut(),
                command.alternate_shortcut(),
                command.arrow_shortcut(),
            ]
            .into_iter()
            .flatten()
            {
                let key = (
                    s.modifiers.command || s.modifiers.ctrl,
                    s.modifiers.alt,
                    s.modifiers.shift,
                    s.logical_key,
                );
                if let Some(other) = shortcuts.insert(key, command) {
                    panic!("{command:?} and {other:?} share a shortcut");
                }
            }
        }
    }
}
