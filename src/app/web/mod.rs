//! The editor in a web page (`scripts/web` builds it): the same app on the page's canvas.
//!
//! Reading order: [`given`] (files given to the page: which are read, which are refused, and
//! saved files handed back as one download; plain Rust, tested natively), then the page
//! itself (`page.rs`, built for the web only: starting the app wrapped in the page's own
//! frame, the calls the page's script makes with dropped files), `platform.rs` (the page as
//! the editor's platform: the browser's dialogs, tasks, downloads, the built-in demo) and
//! `test_hook.rs` (what `tests/web_page.rs` follows the editor through); the page and the
//! hook wake the editor through `wake.rs`.

pub mod given;
#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
mod platform;
#[cfg(target_arch = "wasm32")]
mod test_hook;
#[cfg(target_arch = "wasm32")]
mod wake;

#[cfg(target_arch = "wasm32")]
pub use page::start;
