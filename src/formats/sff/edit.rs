//! An SFF archive being edited: its sprites and palettes as a list that edits change, over
//! the archive as read. Sprites nobody touched keep their stored bytes (and their links);
//! new or changed ones are encoded at once, so a sprite that cannot be stored is refused when
//! it is added, with the reason, long before anything is written.
//!
//! Every edit is a plain function on [`EditableSff`]; [`super::write`] turns the result into
//! bytes.

use super::encode::{Codec, SpritePixels};
use super::palette::{Palette, RGB_PALETTE_LEN};

pub use super::edited::{
    EditError, EditableSff, PaletteEntry, SpriteContent, SpriteEntry, StoredSprite, V1, V2_00,
    V2_01,
};

impl EditableSff {
    fn position(&self, group: u16, image: u16) -> Result<usize, EditError> {
        self.find(group, image)
            .ok_or_else(|| EditError::new(format!("there is no sprite {group},{image}")))
    }

    /// Adds a sprite numbered (group, image) at the end of its group (or of the archive),
    /// stored with `codec` (None: the archive's own style). Refused when that number is taken,
    /// when the palette does not exist, or when the pixels cannot be stored as asked.
    pub fn add_sprite(
        &mut self,
        group: u16,
        image: u16,
        axis: (i16, i16),
        pixels: &SpritePixels,
        palette: usize,
        codec: Option<Codec>,
    ) -> Result<usize, EditError> {
        if self.find(group, image).is_some() {
            return Err(EditError::new(format!(
                "sprite {group},{image} exists already"
            )));
        }
        self.check_palette(palette, pixels)?;
        let stored = self.encode(pixels, codec, palette)?;
        let at = self
            .sprites
            .iter()
            .rposition(|s| s.group == group && s.image < image)
            .map_or(self.sprites.len(), |i| i + 1);
        self.sprites.insert(
            at,
            SpriteEntry {
                group,
                image,
                axis,
                palette,
                content: SpriteContent::Stored(stored),
            },
        );
        self.changed = true;
        Ok(at)
    }

    fn check_palette(&self, palette: usize, pixels: &SpritePixels) -> Result<(), EditError> {
        if matches!(pixels, SpritePixels::Indexed { .. }) && palette >= self.palettes.len() {
            return Err(EditError::new(format!(
                "palette number {palette} does not exist (the archive has {})",
                self.palettes.len()
            )));
        }
        Ok(())
    }

    /// Replaces the pixels of sprite (group, image), keeping its number, axis and palette.
    pub fn replace_image(
        &mut self,
        group: u16,
        image: u16,
        pixels: &SpritePixels,
        codec: Option<Codec>,
    ) -> Result<(), EditError> {
        let at = self.position(group, image)?;
        let palette = self.sprites[at].palette;
        self.check_palette(palette, pixels)?;
        let codec = codec.or_else(|| {
            // Keep the sprite's own codec when it can hold the new pixels.
            self.codec_of(&self.sprites[at])
                .filter(|c| c.is_indexed() == matches!(pixels, SpritePixels::Indexed { .. }))
        });
        let stored = self.encode(pixels, codec, palette)?;
        self.sprites[at].content = SpriteContent::Stored(stored);
        self.changed = true;
        Ok(())
    }

    /// Deletes sprite (group, image). Sprites linked to it keep its pixels.
    pub fn delete_sprite(&mut self, group: u16, image: u16) -> Result<SpriteEntry, EditError> {
        let at = self.position(group, image)?;
        self.changed = true;
        Ok(self.sprites.remove(at))
    }

    /// Renumbers sprite (group, image) to `to`; refused when `to` is taken.
    pub fn renumber(&mut self, group: u16, image: u16, to: (u16, u16)) -> Result<(), EditError> {
        let at = self.position(group, image)?;
        if (group, image) == to {
            return Ok(());
        }
        if self.find(to.0, to.1).is_some() {
            return Err(EditError::new(format!(
                "sprite {},{} exists already",
                to.0, to.1
            )));
        }
        self.sprites[at].group = to.0;
        self.sprites[at].image = to.1;
        self.changed = true;
        Ok(())
    }

    /// Sets the axis of sprite (group, image).
    pub fn set_axis(&mut self, group: u16, image: u16, axis: (i16, i16)) -> Result<(), EditError> {
        let at = self.position(group, image)?;
        if self.sprites[at].axis != axis {
            self.sprites[at].axis = axis;
            self.changed = true;
        }
        Ok(())
    }

    /// Palette number `n`.
    pub fn palette(&self, n: usize) -> Option<&Palette> {
        self.palettes.get(n).map(|p| &p.colours)
    }

    /// Replaces the colours of palette `n`.
    pub fn set_palette(&mut self, n: usize, colours: Palette) -> Result<(), EditError> {
        let count = self.palettes.len();
        let entry = self.palettes.get_mut(n).ok_or_else(|| {
            EditError::new(format!(
                "palette number {n} does not exist (the archive has {count})"
            ))
        })?;
        if entry.colours != colours {
            entry.colours = colours;
            entry.kept = None;
            self.changed = true;
        }
        Ok(())
    }

    /// Sets colour `index` of palette `n`.
    pub fn set_colour(&mut self, n: usize, index: u8, rgba: [u8; 4]) -> Result<(), EditError> {
        let mut colours = self
            .palette(n)
            .cloned()
            .ok_or_else(|| EditError::new(format!("palette number {n} does not exist")))?;
        colours.set_colour(index, rgba);
        if let Some(entry) = self.palettes.get_mut(n)
            && entry.count <= index as u16
        {
            entry.count = index as u16 + 1;
        }
        self.set_palette(n, colours)
    }

    /// Replaces palette `n` with the colours of a `.act` file.
    pub fn import_act(&mut self, n: usize, act: &[u8]) -> Result<(), EditError> {
        let colours = Palette::from_act(act).map_err(EditError::new)?;
        if let Some(entry) = self.palettes.get_mut(n) {
            entry.count = 256;
        }
        self.set_palette(n, colours)
    }

    /// Decodes sprite (group, image) to its indices or RGBA as edited.
    pub fn pixels(&self, group: u16, image: u16) -> Result<SpritePixels, EditError> {
        let sprite = &self.sprites[self.position(group, image)?];
        match &sprite.content {
            SpriteContent::Kept(n) => {
                let base = self.base.as_ref().expect("kept sprites have a base");
                base.decode_pixels(*n)
                    .map(|(p, _)| p)
                    .map_err(|d| EditError::new(d.message))
            }
            SpriteContent::Stored(stored) => decode_stored(stored),
        }
    }
}

/// Decodes what Sprat stored, through the same decoders the reader uses.
pub fn decode_stored(stored: &StoredSprite) -> Result<SpritePixels, EditError> {
    let archive = super::write::single_sprite_archive(stored)?;
    archive
        .decode_pixels(0)
        .map(|(p, _)| p)
        .map_err(|d| EditError::new(d.message))
}

/// 256 RGB triples, the size of a `.act` file.
pub const ACT_LEN: usize = RGB_PALETTE_LEN;
