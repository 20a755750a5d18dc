//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The shared corpus of real files (`../shared/corpus` beside the repository).
pub fn corpus() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    assert!(
        root.is_dir(),
        "the shared corpus is missing at {}",
        root.display()
    );
    root
}

/// Every file below `dir` whose name ends with one of `extensions` (lowercase, no dot), sorted.
pub fn files_with_extensions(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path.file_name().unwrap().to_string_lossy().to_lowercase();
                if extensions.iter().any(|e| name.ends_with(&format!(".{e}"))) {
                    out.push(path);
                }
            }
        }
    }
    out.sort();
    out
}
