//! What the sprite browser remembers for a tab, shared by its parts (the list and the
//! details in [`crate::app::sprites::browser`], the buttons in [`crate::app::sprites::actions`], the
//! palettes in [`crate::app::sprites::palettes`], the file choices in [`crate::app::sprites::files`]).

use crate::app::context::document::OpenDocument;
use crate::assets::ImageStore;
use crate::edit::Gesture;
use crate::edit::sprites::SpriteNumber;
use crate::formats::sff::SffArchive;
use crate::model::ImageId;
use egui::TextureHandle;
use std::collections::HashMap;
use std::sync::Arc;

/// What a file the user chooses in the browser is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileUse {
    /// PNG files to add as sprites.
    AddSprites,
    /// A PNG file whose pixels replace this sprite's.
    Replace(SpriteNumber),
    /// A `.act` file whose colours go into the palette in use.
    ImportAct,
    /// Where to write the palette in use as a `.act` file.
    ExportAct,
}

impl FileUse {
    /// What the path field asks for.
    pub fn prompt(self) -> String {
        match self {
            FileUse::AddSprites => "PNG file to add".to_string(),
            FileUse::Replace((g, i)) => format!("PNG file for sprite {g},{i}"),
            FileUse::ImportAct => ".act file to import".to_string(),
            FileUse::ExportAct => ".act file to write".to_string(),
        }
    }
}

/// A path typed for a file where no file dialog can be shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedPath {
    /// What the file is for.
    pub purpose: FileUse,
    /// The path as typed.
    pub text: String,
    /// The field takes the keyboard at the next frame.
    pub focus: bool,
}

/// The archive the browser shows this frame, with the document that holds it and the store
/// its pixels are read from: what every part of the browser reads and edits it through.
pub struct ShownArchive<'a> {
    /// The document holding the archive.
    pub doc: &'a mut OpenDocument,
    /// Where the sprites' pixels are read and the archive is opened for editing.
    pub pixels: &'a ImageStore,
    /// The archive as the document holds it now (unsaved edits included).
    pub archive: &'a SffArchive,
    /// The archive's id among the document's images.
    pub id: ImageId,
}

/// The sequences that show each sprite.
pub type Users = HashMap<SpriteNumber, Vec<String>>;

/// What the browser remembers.
#[derive(Default)]
pub struct SpriteBrowser {
    /// The filter: a group ("20") or a sprite ("20,3").
    pub filter: String,
    /// The selected sprites, the one shown large last.
    pub selected: Vec<SpriteNumber>,
    /// A sprite drawn faintly under the selected one, lined up at the axes.
    pub ghost: Option<SpriteNumber>,
    /// Axis changes move every selected sprite by the same amount.
    pub apply_to_selected: bool,
    /// The numbers typed for a renumbering.
    pub renumber_to: (u16, u16),
    /// The palettes section.
    pub palettes: PaletteState,
    /// True-colour PNGs added are turned into indices of the character's palette.
    pub quantise: bool,
    /// A file a button asked for, to be chosen in the desktop's dialog.
    pub asked: Option<FileUse>,
    /// A path being typed for a file, where no file dialog can be shown.
    pub typed_path: Option<TypedPath>,
    /// A delete waiting for the user's answer: the sprites and what shows them.
    pub confirm_delete: Option<(Vec<SpriteNumber>, String)>,
    /// The undo step the current axis drag adds to.
    pub(crate) gesture: Option<Gesture>,
    /// Where the current axis drag was pressed and the axis it started from: the axis follows
    /// the pointer's whole travel since then, so a jump of the pointer before the press, or
    /// rounding from frame to frame, never adds up.
    pub(crate) drag_from: Option<(egui::Pos2, (i32, i32))>,
    /// The height the details column had on screen at the last frame.
    pub(crate) column_height: f32,
    /// Sequences showing each sprite, for the document revision they were counted at.
    pub(crate) users: Option<(u64, ImageId, Arc<Users>)>,
    pub(crate) thumbnails: HashMap<(usize, SpriteNumber), (TextureHandle, u64)>,
    pub(crate) large: Option<((usize, SpriteNumber, usize), TextureHandle)>,
    pub(crate) ghost_texture: Option<((usize, SpriteNumber), TextureHandle)>,
    pub(crate) clock: u64,
}

impl SpriteBrowser {
    /// A click on the row of sprite `number`: it alone is selected, or (with Ctrl or Shift)
    /// it joins or leaves the selection.
    pub fn click(&mut self, number: SpriteNumber, modifiers: egui::Modifiers) {
        if modifiers.command || modifiers.shift {
            if self.selected.contains(&number) {
                self.selected.retain(|n| *n != number);
            } else {
                self.selected.push(number);
            }
        } else {
            self.selected = vec![number];
            self.renumber_to = number;
        }
    }
}

/// What the palettes section remembers.
#[derive(Default)]
pub struct PaletteState {
    /// The colour index picked in the grid.
    pub index: u8,
    /// The undo step the colour picker's current drag adds to.
    pub(crate) gesture: Option<Gesture>,
}
