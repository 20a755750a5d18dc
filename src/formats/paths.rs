//! Path helpers shared by the formats.

use std::path::{Component, Path, PathBuf};

/// `target` relative to the folder `base`, with `/` separators, or `None` when there is no
/// relative path (different drives on Windows).
pub fn relative_to(base: &Path, target: &Path) -> Option<String> {
    let base = normalise(base);
    let target = normalise(target);
    let base_parts: Vec<Component> = base.components().collect();
    let target_parts: Vec<Component> = target.components().collect();
    let common = base_parts
        .iter()
        .zip(&target_parts)
        .take_while(|(a, b)| a == b)
        .count();
    if common == 0 && base.is_absolute() {
        return None;
    }
    let mut parts: Vec<String> = Vec::new();
    for _ in common..base_parts.len() {
        parts.push("..".to_string());
    }
    for part in &target_parts[common..] {
        parts.push(part.as_os_str().to_string_lossy().into_owned());
    }
    Some(parts.join("/"))
}

/// `path`'s file name without its extension, or `default` when there is none.
pub fn stem_or(path: Option<&Path>, default: &str) -> String {
    path.and_then(Path::file_stem)
        .map_or_else(|| default.to_string(), |s| s.to_string_lossy().into_owned())
}

/// Removes `.` and folds `..` where possible, without touching the file system.
pub fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_and_descend() {
        assert_eq!(
            relative_to(
                Path::new("/q/data/sprites"),
                Path::new("/q/data/sprites/hero/a.png")
            ),
            Some("hero/a.png".to_string())
        );
        assert_eq!(
            relative_to(Path::new("/q/out"), Path::new("/q/data/./x/../a.png")),
            Some("../data/a.png".to_string())
        );
    }
}
