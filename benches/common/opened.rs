//! A file read as the editor reads it, ready to show in a tab (benches and GUI tests).

use sprat::app::context::document::OpenDocument;
use std::path::Path;

/// The document at `path`, read now by whichever format it is in.
pub fn opened(path: &Path) -> OpenDocument {
    let file = sprat::app::context::loader::load_now(path).expect("the file reads");
    OpenDocument::new(
        file.loaded.document,
        Some(path.to_path_buf()),
        file.format,
        file.loaded.diagnostics,
    )
}
