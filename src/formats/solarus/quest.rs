//! Where a sprite file's images are: the quest's `sprites/` folder, found by walking up from
//! the file, and the tileset entities images a `tileset` animation can be shown with.

use crate::formats::input::{self, Stamp};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// Image sizes already looked up, by path, with the stamp they were read under.
type KnownSizes = HashMap<PathBuf, (Stamp, Option<(u32, u32)>)>;

/// The width and height of the image at `path`, or `None` when it cannot be read.
///
/// Every save re-reads the sprite file (to keep untouched text), and every read looks up the
/// sizes of its images: the answers are kept per path and reused while the file's length and
/// modification time stay the same, so only a changed image is opened again.
pub fn image_size(path: &Path) -> Option<(u32, u32)> {
    static SIZES: OnceLock<Mutex<KnownSizes>> = OnceLock::new();
    let stamp = input::metadata(path)?.stamp;
    let sizes = SIZES.get_or_init(Mutex::default);
    let known = sizes.lock().ok().and_then(|known| known.get(path).copied());
    if let Some((known_stamp, size)) = known
        && known_stamp == stamp
    {
        return size;
    }
    let size = input::image_dimensions(path).ok();
    if let Ok(mut known) = sizes.lock() {
        // Bounded: a quest has at most a few thousand images; past that, start over.
        if known.len() >= 4096 {
            known.clear();
        }
        known.insert(path.to_path_buf(), (stamp, size));
    }
    size
}

/// The quest's `sprites/` folder holding `sprite_file` (the nearest ancestor folder named
/// `sprites`), or the file's own folder when there is none.
pub fn sprites_folder(sprite_file: &Path) -> Option<PathBuf> {
    let folder = sprite_file.parent()?;
    Some(
        folder
            .ancestors()
            .find(|dir| dir.file_name().is_some_and(|n| n == "sprites"))
            .unwrap_or(folder)
            .to_path_buf(),
    )
}

/// The tileset entities images of the quest holding `sprite_file`, sorted: both the
/// `tilesets/tilesetNNNN_entities.png` names of the `.zsd`/0.9 era and the
/// `tilesets/<id>.entities.png` names of Solarus 1.x (ids may contain folders).
/// Empty when the file is not inside a quest's `sprites/` folder.
pub fn tileset_candidates(sprite_file: &Path) -> Vec<PathBuf> {
    let Some(sprites) = sprites_folder(sprite_file) else {
        return Vec::new();
    };
    if sprites.file_name().is_none_or(|n| n != "sprites") {
        return Vec::new();
    }
    let Some(tilesets) = sprites.parent().map(|data| data.join("tilesets")) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut folders = vec![tilesets];
    // Bounded: a quest has a few levels of tileset folders at most.
    let mut visited = 0;
    while let Some(folder) = folders.pop() {
        visited += 1;
        if visited > 1000 {
            break;
        }
        let Some(entries) = input::read_dir(&folder) else {
            continue;
        };
        for path in entries {
            if input::is_dir(&path) {
                folders.push(path);
            } else if is_entities_image(&path) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn is_entities_image(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".entities.png") {
        return true;
    }
    lower
        .strip_prefix("tileset")
        .and_then(|rest| rest.strip_suffix("_entities.png"))
        .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sprites_folder_is_the_nearest_ancestor_named_sprites() {
        assert_eq!(
            sprites_folder(Path::new("/q/data/sprites/hero/tunic1.dat")),
            Some(PathBuf::from("/q/data/sprites"))
        );
        assert_eq!(
            sprites_folder(Path::new("/elsewhere/tunic1.dat")),
            Some(PathBuf::from("/elsewhere"))
        );
    }

    #[test]
    fn both_eras_of_entities_image_names_are_recognised() {
        assert!(is_entities_image(Path::new("tileset0000_entities.png")));
        assert!(is_entities_image(Path::new("1.entities.png")));
        assert!(!is_entities_image(Path::new("1.tiles.png")));
        assert!(!is_entities_image(Path::new("tileset_entities.png")));
    }

    #[test]
    fn image_sizes_are_read_again_when_the_file_changes() {
        let guard = tempfile::tempdir().unwrap();
        let folder = guard.path();
        let path = folder.join("sheet.png");
        image::RgbaImage::new(3, 2).save(&path).unwrap();
        assert_eq!(image_size(&path), Some((3, 2)));
        assert_eq!(image_size(&path), Some((3, 2)));
        // A different size is a different length, whatever the clock's resolution.
        image::RgbaImage::new(40, 9).save(&path).unwrap();
        assert_eq!(image_size(&path), Some((40, 9)));
        std::fs::write(&path, b"not a png").unwrap();
        assert_eq!(image_size(&path), None);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(image_size(&path), None);
    }
}
