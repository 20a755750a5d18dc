//! File > Import frames…: pictures and sheets brought into a document.

pub mod dialog;
