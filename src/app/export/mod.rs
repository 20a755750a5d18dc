//! File > Export…: the window that writes frames, strips, animations and atlases.

pub mod dialog;
