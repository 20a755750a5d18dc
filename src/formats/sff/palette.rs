//! 256-colour palettes: the ones SFF files carry and the `.act` files a character's `.def`
//! names.

/// Size of a `.act` file and of a PCX palette: 256 RGB triples.
pub const RGB_PALETTE_LEN: usize = 768;

/// 256 RGBA colours. Index 0 is always transparent when sprites are drawn, whatever its
/// colour here; entries a file does not define are opaque black.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Palette {
    colours: Box<[[u8; 4]; 256]>,
}

impl Default for Palette {
    fn default() -> Self {
        Palette {
            colours: Box::new([[0, 0, 0, 255]; 256]),
        }
    }
}

impl Palette {
    /// A grey ramp (index `i` is grey level `i`), used when a sprite has no palette at all, so
    /// its shapes still show.
    pub fn grey_ramp() -> Palette {
        let mut palette = Palette::default();
        for (i, c) in palette.colours.iter_mut().enumerate() {
            *c = [i as u8, i as u8, i as u8, 255];
        }
        palette
    }

    /// RGB triples in index order (a PCX palette); a short input leaves the rest black.
    pub fn from_rgb(rgb: &[u8]) -> Palette {
        let mut palette = Palette::default();
        for (c, triple) in palette.colours.iter_mut().zip(rgb.chunks_exact(3)) {
            *c = [triple[0], triple[1], triple[2], 255];
        }
        palette
    }

    /// A `.act` file: RGB triples stored in reverse index order (the first triple is colour
    /// 255). Files longer than 768 bytes (Photoshop appends a colour count) use their first 768.
    pub fn from_act(bytes: &[u8]) -> Result<Palette, String> {
        if bytes.len() < RGB_PALETTE_LEN {
            return Err(format!(
                "a .act palette holds {RGB_PALETTE_LEN} bytes; this file has {}",
                bytes.len()
            ));
        }
        let mut palette = Palette::default();
        for (i, triple) in bytes[..RGB_PALETTE_LEN].chunks_exact(3).enumerate() {
            palette.colours[255 - i] = [triple[0], triple[1], triple[2], 255];
        }
        Ok(palette)
    }

    /// SFF v2 colours: RGBA quadruples. `use_alpha` is false for v2.00, whose alpha bytes mean
    /// nothing (every colour is opaque).
    pub fn from_rgba(rgba: &[u8], use_alpha: bool) -> Palette {
        let mut palette = Palette::default();
        for (c, quad) in palette.colours.iter_mut().zip(rgba.chunks_exact(4)) {
            let alpha = if use_alpha { quad[3] } else { 255 };
            *c = [quad[0], quad[1], quad[2], alpha];
        }
        palette
    }

    /// The colour of index `i` as stored (index 0 included).
    pub fn colour(&self, index: u8) -> [u8; 4] {
        self.colours[index as usize]
    }

    /// Sets the colour of index `i`.
    pub fn set_colour(&mut self, index: u8, rgba: [u8; 4]) {
        self.colours[index as usize] = rgba;
    }

    /// The colours as a `.act` file: 256 RGB triples, colour 255 first (see
    /// [`Palette::from_act`]).
    pub fn to_act(&self) -> Vec<u8> {
        self.colours
            .iter()
            .rev()
            .flat_map(|c| [c[0], c[1], c[2]])
            .collect()
    }

    /// The colours as drawn: index 0 transparent.
    pub fn drawn(&self) -> [[u8; 4]; 256] {
        let mut colours = *self.colours;
        colours[0] = [0, 0, 0, 0];
        colours
    }
}

/// Turns palette indices into RGBA pixels with index 0 transparent.
pub fn indices_to_rgba(indices: &[u8], palette: &Palette) -> Vec<u8> {
    let colours = palette.drawn();
    // Collected straight from the lookup: the buffer is written once, never zeroed first.
    let pixels: Vec<[u8; 4]> = indices.iter().map(|&i| colours[usize::from(i)]).collect();
    pixels.into_flattened()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn act_files_are_stored_backwards() {
        let mut act = vec![0u8; RGB_PALETTE_LEN];
        act[0..3].copy_from_slice(&[10, 20, 30]); // colour 255
        act[765..768].copy_from_slice(&[1, 2, 3]); // colour 0
        let p = Palette::from_act(&act).unwrap();
        assert_eq!(p.colour(255), [10, 20, 30, 255]);
        assert_eq!(p.colour(0), [1, 2, 3, 255]);
        assert!(Palette::from_act(&act[..700]).unwrap_err().contains("700"));
    }

    #[test]
    fn index_zero_is_transparent_when_drawn() {
        let p = Palette::from_rgb(&[9, 9, 9, 200, 100, 50]);
        assert_eq!(
            indices_to_rgba(&[0, 1, 2], &p),
            vec![0, 0, 0, 0, 200, 100, 50, 255, 0, 0, 0, 255]
        );
    }

    #[test]
    fn v200_alpha_is_ignored_and_v201_alpha_kept() {
        let rgba = [0, 0, 0, 0, 5, 6, 7, 0, 8, 9, 10, 128];
        assert_eq!(Palette::from_rgba(&rgba, false).colour(1), [5, 6, 7, 255]);
        assert_eq!(Palette::from_rgba(&rgba, true).colour(2), [8, 9, 10, 128]);
    }
}
