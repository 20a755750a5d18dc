//! Finding the game's `assets/` root from where an ADL file lies, since SPRITESHEET paths are
//! relative to that root and not to the `.properties` file.

use std::path::{Component, Path, PathBuf};

/// How the assets root was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootEvidence {
    /// SPRITESHEET's folder exists below it.
    SpritesheetFolderExists,
    /// The file's own folder is a leading part of SPRITESHEET's folder below it
    /// (`<root>/mods/basegame/sprites/x.properties` with `mods/basegame/sprites/x/x_`).
    FileLiesOnTheSpritesheetPath,
    /// It is a folder named `assets`.
    NamedAssets,
    /// Nothing matched: the file's own folder is used.
    FileFolderFallback,
}

fn normal_parts(path: &Path) -> Vec<&std::ffi::OsStr> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(part),
            _ => None,
        })
        .collect()
}

/// The assets root for an ADL file at `file` whose SPRITESHEET is `spritesheet`.
pub fn find_assets_root(file: &Path, spritesheet: &str) -> (PathBuf, RootEvidence) {
    let dir = file.parent().unwrap_or(Path::new("")).to_path_buf();
    let sheet_dir = Path::new(spritesheet).parent().unwrap_or(Path::new(""));
    let sheet_parts = normal_parts(sheet_dir);
    if !sheet_parts.is_empty() {
        for ancestor in dir.ancestors() {
            if crate::formats::input::is_dir(&ancestor.join(sheet_dir)) {
                return (
                    ancestor.to_path_buf(),
                    RootEvidence::SpritesheetFolderExists,
                );
            }
        }
        for ancestor in dir.ancestors() {
            let Ok(below) = dir.strip_prefix(ancestor) else {
                continue;
            };
            let below = normal_parts(below);
            if !below.is_empty() && sheet_parts.starts_with(&below) {
                return (
                    ancestor.to_path_buf(),
                    RootEvidence::FileLiesOnTheSpritesheetPath,
                );
            }
        }
    }
    for ancestor in dir.ancestors() {
        if ancestor.file_name().is_some_and(|n| n == "assets") {
            return (ancestor.to_path_buf(), RootEvidence::NamedAssets);
        }
    }
    (dir, RootEvidence::FileFolderFallback)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_on_the_spritesheet_path_gives_the_root() {
        let (root, how) = find_assets_root(
            Path::new("/nowhere/x/mods/basegame/sprites/fofu.properties"),
            "mods/basegame/sprites/fofu/fofu_",
        );
        assert_eq!(root, Path::new("/nowhere/x"));
        assert_eq!(how, RootEvidence::FileLiesOnTheSpritesheetPath);
    }

    #[test]
    fn a_folder_named_assets_is_the_fallback() {
        let (root, how) = find_assets_root(
            Path::new("/nowhere/assets/chars/a.properties"),
            "other/place/a_",
        );
        assert_eq!(root, Path::new("/nowhere/assets"));
        assert_eq!(how, RootEvidence::NamedAssets);
        let (root, how) = find_assets_root(Path::new("/nowhere/q/a.properties"), "a_");
        assert_eq!(root, Path::new("/nowhere/q"));
        assert_eq!(how, RootEvidence::FileFolderFallback);
    }
}
