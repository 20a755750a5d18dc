//! M.U.G.E.N SFF sprite archives (v1 and v2): reading, editing and writing.
//!
//! Reading order: [`archive`] (the archive and how a sprite is decoded), [`store`] (the cache
//! the renderer and editor draw through), [`format`] (the `.sff` format: an archive opened
//! alone shows its groups as a [`view`] and saves as the archive; other documents save as
//! one); then the index of each version ([`v1`], [`v2`], [`links`]), the codecs ([`pcx`],
//! [`rle`], [`lz5`], [`png`]) and [`palette`]s. Writing: [`edited`] (an archive being edited,
//! as data), [`edit`] (the edits on it), [`encode`] (the codecs), [`write`] (the bytes),
//! [`document`] (how a document holds edits), [`build`] (a new archive of a document's
//! pictures), [`losses`] (what an archive cannot hold), [`import`] (PNG files and quantising
//! for new sprites).

pub mod archive;
pub mod build;
mod bytes;
pub mod document;
pub mod edit;
pub mod edited;
pub mod encode;
pub mod format;
pub mod import;
pub mod index;
mod indexed;
mod links;
mod losses;
pub mod lz5;
pub mod palette;
pub mod pcx;
pub mod png;
pub mod rle;
pub mod v1;
pub mod v2;
pub mod view;
pub mod write;

pub mod store;

pub use archive::{
    DecodedSprite, KEPT_IN_FILE_FROM, MAX_SPRITE_PIXELS, PaletteChoice, SffArchive, SffVersion,
};
pub use format::{SFF_ID, SffFormat};
pub use index::{SpriteFormat, SpriteInfo};
pub use palette::Palette;
pub use store::SffStore;
