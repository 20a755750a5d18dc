//! The bundled demo (`assets/demo/demo.sprat`), opened when the editor starts without a file.

use std::path::{Path, PathBuf};

/// Where the bundled demo lives in the source tree.
pub fn demo_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat")
}
