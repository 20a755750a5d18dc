//! The multi-frame tools: `sprat retime`, `sprat cut`, `sprat align` and their library and edit
//! commands, and Paste special.

#[path = "../common/mod.rs"]
mod common;

mod align;
mod cut;
mod cut_layout;
mod paste;
mod retime;

use sprat::formats::{ReadContext, registry};
use sprat::model::AnimationSet;
use std::path::{Path, PathBuf};

/// The path as text, for command lines.
pub fn text(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Reads a file with whichever format it is in.
pub fn load(path: &Path) -> AnimationSet {
    let context = ReadContext::for_path(path);
    let (loaded, _) = registry()
        .open(path, &context)
        .unwrap_or_else(|f| panic!("{}: {:?}", path.display(), f.diagnostics));
    loaded.document
}

/// Copies of `names` from the corpus folder `folder` into a temporary folder.
pub fn copy_of(folder: &str, names: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in names {
        let from = common::corpus().join(folder).join(name);
        std::fs::copy(&from, dir.path().join(name))
            .unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    }
    dir
}

/// KFM's files in a temporary folder.
pub fn kfm_copy() -> (tempfile::TempDir, PathBuf) {
    let dir = copy_of("mugen/kfm", &["kfm.def", "kfm.air", "kfm.sff"]);
    let def = dir.path().join("kfm.def");
    (dir, def)
}

/// A new folder `out` in `dir` for an edited copy: written beside the input, its `.air`
/// would replace the input's own, which the commands refuse.
pub fn out_folder(dir: &tempfile::TempDir) -> PathBuf {
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    out
}

/// The durations of the first direction of sequence `name`.
pub fn durations(doc: &AnimationSet, name: &str) -> Vec<sprat::model::FrameDuration> {
    let sequence = doc.sequence_by_name(name).unwrap();
    doc.direction_frames(sequence, 0)
        .iter()
        .map(|f| f.duration)
        .collect()
}
