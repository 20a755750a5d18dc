//! M.U.G.E.N animations: `.air` text and the `.def` files that name it.
//!
//! Reading order: [`lexis`] (lines and fields as bytes), [`air_syntax`] (AIR text to a syntax
//! tree of byte ranges), [`air_model`] (syntax to the document model), [`def`] and [`sources`]
//! (which SFF and palettes a `.def` or an `.air` uses), [`format`] (the two [`Format`]s), then
//! the writer: [`air_plan`] (the model as AIR sees it, and what AIR cannot hold),
//! [`air_style`] (rendering lines in a file's own style) and [`air_write`] (copying untouched
//! text and rewriting the rest). A `.def` written for another format's images gets a new SFF
//! from [`crate::formats::sff::build`]. [`check`] lists what `sprat check` reports.
//!
//! The SFF archive itself is read by `formats::sff`; here it is only named, as the
//! [`crate::model::SourceImage`] every frame's [`crate::model::GraphicSource::SffSprite`]
//! draws from.
//!
//! [`Format`]: crate::formats::Format

pub mod air_model;
pub mod air_plan;
pub mod air_style;
pub mod air_syntax;
pub mod air_write;
pub mod check;
pub mod def;
pub mod format;
pub mod lexis;
pub mod sources;

pub use check::{check_file, check_sff_archives};
pub use format::{AIR_ID, AirFormat, DEF_ID, DefFormat};
