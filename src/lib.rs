//! Sprat: an editor and previewer for 2D sprite animations.
//!
//! The library is everything but the window: the [`model`] of an animation set, the
//! [`formats`] that read and write it, and the [`pixels`] interface the renderer draws through.

#[cfg(feature = "gui")]
pub mod app;
pub mod assets;
pub mod boxes;
pub mod cache;
pub mod check;
pub mod cli;
#[cfg(windows)]
pub mod console;
pub mod edit;
pub mod export;
pub mod formats;
pub mod logging;
pub mod model;
pub mod pixels;
pub mod playback;
pub mod render;
pub mod session;
#[cfg(not(target_arch = "wasm32"))]
pub mod single_instance;
pub mod stop_signals;
pub mod text;
pub mod tools;
