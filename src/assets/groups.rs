//! Many sequences in one import: picture files grouped into named sequences, by the folder
//! each is in (a folder of sub-folders, one per animation) and by the start of their names
//! (`run_0.png` … `run_7.png` beside `jump_0.png` … `jump_5.png`), each group's pictures in
//! natural name order.

use super::import::{is_picture_file, natural_cmp, natural_sort};
use crate::formats::input;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// At most this many pictures are taken from a folder (the rest are left out).
pub const MAX_FOLDER_PICTURES: usize = 20_000;
/// Sub-folders deeper than this below the folder given are not looked into.
pub const MAX_FOLDER_DEPTH: usize = 8;

/// One sequence to make: its name and its pictures in frame order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PictureGroup {
    /// The sequence's name.
    pub name: String,
    /// The pictures, in natural name order.
    pub files: Vec<PathBuf>,
}

/// The pictures in `dir` and its sub-folders (down to [`MAX_FOLDER_DEPTH`], at most
/// [`MAX_FOLDER_PICTURES`]), folder by folder in natural order.
pub fn pictures_in_folder(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    walk(dir, 0, &mut found);
    found
}

fn walk(dir: &Path, depth: usize, found: &mut Vec<PathBuf>) {
    let Some(mut entries) = input::read_dir(dir) else {
        return;
    };
    natural_sort(&mut entries);
    let (folders, files): (Vec<PathBuf>, Vec<PathBuf>) =
        entries.into_iter().partition(|entry| input::is_dir(entry));
    for file in files {
        if found.len() >= MAX_FOLDER_PICTURES {
            return;
        }
        if is_picture_file(&file) {
            found.push(file);
        }
    }
    if depth < MAX_FOLDER_DEPTH {
        for folder in folders {
            walk(&folder, depth + 1, found);
        }
    }
}

/// The start of a picture's name that names its sequence: the file name without extension
/// and without its trailing number and separators (`run` for `run_07.png`, `hero walk` for
/// `hero walk 12.png`); empty for a name that is only a number.
pub fn name_prefix(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // `.tga.gz` has two extensions.
    let lower = name.to_lowercase();
    let stem = match [".tga.gz", ".png", ".tga", ".gif"]
        .iter()
        .find(|e| lower.ends_with(*e))
    {
        Some(extension) => &name[..name.len() - extension.len()],
        None => name.as_str(),
    };
    stem.trim_end_matches(|c: char| c.is_ascii_digit() || " _-.".contains(c))
        .to_string()
}

/// Groups `files` into sequences: one per folder and name prefix. Names are the prefix when
/// every file is in one folder; else the folder's name (with the prefix after it when the
/// folder holds several). A name given twice gets " 2", " 3" after it. Groups come in natural
/// order of folder, then prefix.
pub fn group_pictures(files: &[PathBuf]) -> Vec<PictureGroup> {
    let mut by_key: BTreeMap<(PathBuf, String), Vec<PathBuf>> = BTreeMap::new();
    for file in files {
        let folder = file.parent().map(Path::to_path_buf).unwrap_or_default();
        by_key
            .entry((folder, name_prefix(file)))
            .or_default()
            .push(file.clone());
    }
    let mut keys: Vec<(PathBuf, String)> = by_key.keys().cloned().collect();
    keys.sort_by(|a, b| {
        natural_cmp(&a.0.to_string_lossy(), &b.0.to_string_lossy())
            .then_with(|| natural_cmp(&a.1, &b.1))
    });
    let one_folder = keys.windows(2).all(|pair| pair[0].0 == pair[1].0);
    let prefixes_in = |folder: &Path| keys.iter().filter(|k| k.0 == folder).count();
    let mut groups: Vec<PictureGroup> = Vec::with_capacity(keys.len());
    for key in &keys {
        let (folder, prefix) = key;
        let folder_name = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let base = if one_folder || (folder_name.is_empty() && !prefix.is_empty()) {
            if prefix.is_empty() {
                folder_name
            } else {
                prefix.clone()
            }
        } else if prefixes_in(folder) == 1 || prefix.is_empty() {
            folder_name
        } else {
            format!("{folder_name} {prefix}")
        };
        let base = if base.trim().is_empty() {
            "imported".to_string()
        } else {
            base
        };
        let mut name = base.clone();
        let mut n = 2;
        while groups.iter().any(|g| g.name == name) {
            name = format!("{base} {n}");
            n += 1;
        }
        let mut files = by_key.remove(key).unwrap_or_default();
        natural_sort(&mut files);
        groups.push(PictureGroup { name, files });
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(names: &[&str]) -> Vec<PathBuf> {
        names.iter().map(PathBuf::from).collect()
    }

    fn summary(groups: &[PictureGroup]) -> Vec<(String, usize)> {
        groups
            .iter()
            .map(|g| (g.name.clone(), g.files.len()))
            .collect()
    }

    #[test]
    fn name_prefixes_make_one_sequence_each_in_natural_order() {
        let mut files = Vec::new();
        for i in (0..8).rev() {
            files.push(PathBuf::from(format!("/art/run_{i}.png")));
        }
        for i in 0..6 {
            files.push(PathBuf::from(format!("/art/jump_{i}.png")));
        }
        files.push(PathBuf::from("/art/idle.png"));
        let groups = group_pictures(&files);
        assert_eq!(
            summary(&groups),
            [("idle".into(), 1), ("jump".into(), 6), ("run".into(), 8)]
        );
        assert_eq!(groups[2].files[0], Path::new("/art/run_0.png"));
        assert_eq!(groups[2].files[7], Path::new("/art/run_7.png"));
    }

    #[test]
    fn sub_folders_name_their_sequences() {
        let groups = group_pictures(&paths(&[
            "/hero/walk/02.png",
            "/hero/walk/10.png",
            "/hero/walk/01.png",
            "/hero/attack/attack_1.png",
            "/hero/attack/attack_2.png",
            "/hero/mixed/kick_1.png",
            "/hero/mixed/punch_1.png",
        ]));
        assert_eq!(
            summary(&groups),
            [
                ("attack".into(), 2),
                ("mixed kick".into(), 1),
                ("mixed punch".into(), 1),
                ("walk".into(), 3)
            ]
        );
        assert_eq!(
            groups[3].files,
            paths(&[
                "/hero/walk/01.png",
                "/hero/walk/02.png",
                "/hero/walk/10.png"
            ])
        );
    }

    #[test]
    fn names_given_twice_are_told_apart() {
        let groups = group_pictures(&paths(&["/a/run/run_1.png", "/b/run/run_1.png"]));
        assert_eq!(summary(&groups), [("run".into(), 1), ("run 2".into(), 1)]);
        let numbers = group_pictures(&paths(&["/x/1.png", "/x/2.png"]));
        assert_eq!(summary(&numbers), [("x".into(), 2)]);
        assert_eq!(name_prefix(Path::new("fly-03.tga.gz")), "fly");
        assert_eq!(name_prefix(Path::new("07.png")), "");
        assert!(group_pictures(&[]).is_empty());
    }

    #[test]
    fn a_folder_is_walked_for_its_pictures() {
        let dir = std::env::temp_dir().join(format!("sprat-groups-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("walk")).unwrap();
        std::fs::create_dir_all(dir.join("idle")).unwrap();
        for name in ["walk/w_2.png", "walk/w_10.png", "idle/i_1.png", "notes.txt"] {
            std::fs::write(dir.join(name), b"").unwrap();
        }
        let found = pictures_in_folder(&dir);
        assert_eq!(
            found,
            vec![
                dir.join("idle/i_1.png"),
                dir.join("walk/w_2.png"),
                dir.join("walk/w_10.png")
            ]
        );
        assert_eq!(
            summary(&group_pictures(&found)),
            [("idle".into(), 1), ("walk".into(), 2)]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
