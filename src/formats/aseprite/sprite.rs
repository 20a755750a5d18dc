//! An Aseprite file as its chunks say it, decoded: what [`super::parse`] gives and what
//! [`super::compose`] draws and [`super::mapping`] turns into a document.
//!
//! Field meanings follow Aseprite's `docs/ase-file-specs.md`. Pixels stay in the file's colour
//! depth (RGBA, grayscale value+alpha, or palette indices); tilemaps keep their raw tile words
//! and the masks that split them.

use super::scan::TagDirection;

/// How the file stores a pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorDepth {
    /// Red, green, blue, alpha: 4 bytes.
    Rgba,
    /// Value, alpha: 2 bytes.
    Grayscale,
    /// A palette index: 1 byte.
    Indexed,
}

impl ColorDepth {
    /// Bytes per pixel.
    pub fn bytes_per_pixel(self) -> usize {
        match self {
            ColorDepth::Rgba => 4,
            ColorDepth::Grayscale => 2,
            ColorDepth::Indexed => 1,
        }
    }
}

/// Header flag: layer opacity fields hold real values.
pub const HEADER_LAYER_OPACITY: u32 = 1;
/// Header flag: groups are composited on their own first, with their opacity and blend mode.
pub const HEADER_COMPOSITE_GROUPS: u32 = 2;
/// Header flag: each layer chunk ends with a UUID.
pub const HEADER_LAYER_UUIDS: u32 = 4;

/// The file header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Frames the file declares.
    pub frames: u16,
    /// Canvas width in pixels.
    pub width: u16,
    /// Canvas height in pixels.
    pub height: u16,
    /// Colour depth.
    pub depth: ColorDepth,
    /// The header flags (`HEADER_*`).
    pub flags: u32,
    /// The deprecated speed: the duration of frames whose own duration is 0.
    pub speed: u16,
    /// The palette index that is transparent on non-background layers (indexed files).
    pub transparent_index: u8,
    /// Number of colours (0 means 256 in old files).
    pub colors: u16,
    /// Pixel width and height (the pixel ratio; 0 means 1:1).
    pub pixel_ratio: (u8, u8),
    /// Grid position and size (size 0: no grid).
    pub grid: (i16, i16, u16, u16),
}

/// Layer flag bits.
pub mod layer_flags {
    /// Shown.
    pub const VISIBLE: u16 = 1;
    /// Editable.
    pub const EDITABLE: u16 = 2;
    /// Its cels cannot be moved.
    pub const LOCK_MOVEMENT: u16 = 4;
    /// The background layer (opaque, at the bottom).
    pub const BACKGROUND: u16 = 8;
    /// New cels are linked.
    pub const PREFER_LINKED: u16 = 16;
    /// A group shown collapsed.
    pub const COLLAPSED: u16 = 32;
    /// A reference layer (a tracing aid, never exported).
    pub const REFERENCE: u16 = 64;
}

/// What a layer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerKind {
    /// Pixels.
    Image,
    /// A group of layers.
    Group,
    /// Tiles of the tileset with this id.
    Tilemap {
        /// The tileset's id.
        tileset: u32,
    },
}

/// A layer chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    /// `layer_flags` bits.
    pub flags: u16,
    /// Its kind.
    pub kind: LayerKind,
    /// How deep it is nested (0: top level).
    pub child_level: u16,
    /// The group it is in (a layer index), if any.
    pub parent: Option<usize>,
    /// The blend mode code as stored (Aseprite's numbering).
    pub blend_code: u16,
    /// The opacity Aseprite uses: the stored one where the header says it is valid (and the
    /// layer is not the background, nor a group unless groups composite apart), else 255.
    pub opacity: u8,
    /// The blend mode code Aseprite uses, by the same rule (0, normal, where not valid).
    pub effective_blend: u16,
    /// Its name.
    pub name: String,
    /// Its UUID, when the header says layers have one.
    pub uuid: Option<[u8; 16]>,
    /// Its user data.
    pub user_data: Option<UserData>,
}

impl Layer {
    /// True when the flag bit is set.
    pub fn has(&self, flag: u16) -> bool {
        self.flags & flag != 0
    }
}

/// A cel's picture as decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pixels {
    /// Width in pixels.
    pub width: u16,
    /// Height in pixels.
    pub height: u16,
    /// Row by row, in the file's colour depth.
    pub data: Vec<u8>,
}

/// A tilemap cel's tiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tiles {
    /// Width in tiles.
    pub width: u16,
    /// Height in tiles.
    pub height: u16,
    /// Bits per tile as stored (8, 16 or 32).
    pub bits: u16,
    /// The bits of a tile word that hold the tile id.
    pub id_mask: u32,
    /// The bit that flips the tile horizontally.
    pub x_flip: u32,
    /// The bit that flips the tile vertically.
    pub y_flip: u32,
    /// The bit that swaps the tile's axes.
    pub d_flip: u32,
    /// The tile words, row by row.
    pub tiles: Vec<u32>,
}

/// What a cel holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CelContent {
    /// Pixels (raw or compressed in the file).
    Image(Pixels),
    /// Tiles.
    Tilemap(Tiles),
    /// The same content as the cel at this index of [`Sprite::cels`] (the frame it links to,
    /// resolved when read, as Aseprite does).
    Linked(usize),
}

/// The cel extra chunk: precise bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CelExtra {
    /// Its flags (1: precise bounds set).
    pub flags: u32,
    /// Precise x, y, width and height, 16.16 fixed point.
    pub bounds: [i32; 4],
}

/// A cel chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cel {
    /// Its frame.
    pub frame: u16,
    /// Its layer index.
    pub layer: u16,
    /// Its position on the canvas.
    pub x: i16,
    /// Its position on the canvas.
    pub y: i16,
    /// Its opacity.
    pub opacity: u8,
    /// Layers later (+) or earlier (-) it is drawn than its own.
    pub z_index: i16,
    /// What it holds.
    pub content: CelContent,
    /// Its cel extra chunk.
    pub extra: Option<CelExtra>,
    /// Its user data.
    pub user_data: Option<UserData>,
}

/// A tileset chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tileset {
    /// Its id (what tilemap layers refer to).
    pub id: u32,
    /// Its flags (1 external, 2 tiles inside, 4 tile 0 is empty, 8/16/32 flip matching).
    pub flags: u32,
    /// Number of tiles.
    pub count: u32,
    /// Tile width.
    pub tile_width: u16,
    /// Tile height.
    pub tile_height: u16,
    /// The number shown for tile 1 (UI only).
    pub base_index: i16,
    /// Its name.
    pub name: String,
    /// The external file entry id and the tileset's id in it, when linked.
    pub external: Option<(u32, u32)>,
    /// The tiles one under the other (`tile_width` x `tile_height * count`), in the file's
    /// colour depth, when the file holds them.
    pub pixels: Option<Vec<u8>>,
    /// Its user data.
    pub user_data: Option<UserData>,
}

/// Tileset flag: tile id 0 is the empty tile.
pub const TILESET_ZERO_IS_EMPTY: u32 = 4;

/// A tag of the tags chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// First frame.
    pub from: u16,
    /// Last frame (inclusive).
    pub to: u16,
    /// How it plays.
    pub direction: TagDirection,
    /// Times it plays; 0 = forever.
    pub repeat: u16,
    /// The older colour field (newer files put the colour in the user data).
    pub color: [u8; 3],
    /// Its name.
    pub name: String,
    /// Its user data.
    pub user_data: Option<UserData>,
}

/// One key of a slice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SliceKey {
    /// First frame it is in force on.
    pub frame: u32,
    /// Origin on the canvas.
    pub origin: (i32, i32),
    /// Size (0: the slice is hidden from this frame on).
    pub size: (u32, u32),
    /// The 9-patch centre (x, y relative to the bounds, width, height).
    pub center: Option<(i32, i32, u32, u32)>,
    /// The pivot, relative to the origin.
    pub pivot: Option<(i32, i32)>,
}

/// A slice chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slice {
    /// Its name.
    pub name: String,
    /// Its flags (1 9-patch, 2 pivot).
    pub flags: u32,
    /// Its keys in file order.
    pub keys: Vec<SliceKey>,
    /// Its user data.
    pub user_data: Option<UserData>,
}

/// A user data chunk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UserData {
    /// Its text.
    pub text: Option<String>,
    /// Its colour, RGBA.
    pub color: Option<[u8; 4]>,
    /// Its properties maps: how many, and their bytes as stored (checked to be well formed).
    pub properties: Option<(u32, Vec<u8>)>,
}

/// An entry of the external files chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalFile {
    /// The id tilesets, palettes and properties refer to.
    pub id: u32,
    /// 0 palette, 1 tileset, 2 properties extension, 3 tile management extension.
    pub kind: u8,
    /// The file name or extension id.
    pub name: String,
}

/// The colour profile chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColorProfile {
    /// 0 none, 1 sRGB, 2 embedded ICC.
    pub kind: u16,
    /// 1: a fixed gamma is used.
    pub flags: u16,
    /// The fixed gamma, 16.16.
    pub gamma: i32,
    /// The ICC profile's length in bytes, when embedded.
    pub icc_length: Option<u32>,
}

/// A palette as in force from a frame on, RGBA entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Palette {
    /// The first frame it is in force on.
    pub frame: u16,
    /// Its colours.
    pub colors: Vec<[u8; 4]>,
}

/// One frame's header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameHeader {
    /// Where the frame starts in the file.
    pub offset: usize,
    /// Its duration in milliseconds (the header's speed when the frame says 0).
    pub duration: u16,
}

/// The whole file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sprite {
    /// The header.
    pub header: Header,
    /// The frames, in order.
    pub frames: Vec<FrameHeader>,
    /// The layers, in file order (a layer's index is its place here).
    pub layers: Vec<Layer>,
    /// The cels, in file order.
    pub cels: Vec<Cel>,
    /// The palettes, each in force from its frame on, in frame order.
    pub palettes: Vec<Palette>,
    /// The tilesets.
    pub tilesets: Vec<Tileset>,
    /// The tags, of every tags chunk in file order.
    pub tags: Vec<Tag>,
    /// The slices.
    pub slices: Vec<Slice>,
    /// The sprite's own user data.
    pub user_data: Option<UserData>,
    /// The external files.
    pub external_files: Vec<ExternalFile>,
    /// The colour profile.
    pub color_profile: Option<ColorProfile>,
    /// What is read differently from the file, with where (byte offset).
    pub notes: Vec<(usize, String)>,
}

impl Sprite {
    /// The palette in force on `frame` (empty when the file has none).
    pub fn palette(&self, frame: usize) -> &[[u8; 4]] {
        self.palettes
            .iter()
            .rev()
            .find(|p| usize::from(p.frame) <= frame)
            .map(|p| p.colors.as_slice())
            .unwrap_or_default()
    }

    /// The tileset of `id`.
    pub fn tileset(&self, id: u32) -> Option<&Tileset> {
        self.tilesets.iter().find(|t| t.id == id)
    }

    /// True when the layer and every group above it are visible.
    pub fn shown(&self, layer: usize) -> bool {
        let mut at = Some(layer);
        while let Some(index) = at {
            let Some(layer) = self.layers.get(index) else {
                return false;
            };
            if !layer.has(layer_flags::VISIBLE) {
                return false;
            }
            at = layer.parent;
        }
        true
    }
}
