//! The Sprites tab: a character's SFF archive sprite by sprite, its axes, codecs and palettes.

pub mod actions;
pub mod browser;
pub mod edit;
pub mod files;
pub mod palettes;
pub mod state;
