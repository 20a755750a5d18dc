//! Images a sprite names must be inside the quest: the engine refuses any `src_image` path
//! with `..` ("Cannot load sprite image"). An image file from elsewhere is copied beside the
//! sprite file, so under the quest's `sprites/` folder, and the document written names the
//! copy.

use super::quest::sprites_folder;
use crate::formats::paths::relative_to;
use crate::formats::{CompanionFile, WriteContext, WriteError};
use crate::model::{AnimationSet, ImageKind};
use std::borrow::Cow;
use std::collections::HashSet;
use std::path::Path;

/// A document whose outside images now name copies beside the sprite file, and the copies.
pub struct Copied<'a> {
    /// The document to describe (the one given when nothing was copied).
    pub document: Cow<'a, AnimationSet>,
    /// The copies to write, relative to the sprite file's folder.
    pub companions: Vec<CompanionFile>,
}

/// True when `relative` (a path from the `sprites/` folder) leaves it or cannot be written
/// relative to it.
fn outside(relative: Option<&str>) -> bool {
    relative.is_none_or(|r| crate::formats::escapes_folder(r) || Path::new(r).is_absolute())
}

/// Copies every image file the document draws from that lies outside the output's `sprites/`
/// folder. Images named by a Solarus file read in (`solarus_source`) are already relative to
/// its quest and stay as spelled.
pub fn copy_outside_images<'a>(
    document: &'a AnimationSet,
    context: &WriteContext,
    solarus_source: bool,
) -> Result<Copied<'a>, WriteError> {
    let mut out = Copied {
        document: Cow::Borrowed(document),
        companions: Vec::new(),
    };
    let (Some(path), Some(dir)) = (context.path.as_deref(), context.dir()) else {
        return Ok(out);
    };
    let Some(sprites) = sprites_folder(path) else {
        return Ok(out);
    };
    if solarus_source {
        return Ok(out);
    }
    let used: HashSet<_> = document.slices.iter().map(|s| s.image).collect();
    let mut taken: HashSet<String> = HashSet::new();
    let mut doc: Option<AnimationSet> = None;
    for (i, image) in document.images.iter().enumerate() {
        let Some(resolved) = &image.resolved else {
            continue;
        };
        if !matches!(image.kind, ImageKind::File)
            || !used.contains(&image.id)
            || !outside(relative_to(&sprites, resolved).as_deref())
        {
            continue;
        }
        let bytes = crate::formats::read_file(resolved).map_err(|e| {
            WriteError::new(format!(
                "{} is outside the quest's sprites folder and cannot be copied into it: {e}",
                resolved.display()
            ))
        })?;
        let name = free_name(dir, resolved, &bytes, &mut taken);
        let copy = doc.get_or_insert_with(|| document.clone());
        copy.images[i].path = name.clone();
        copy.images[i].resolved = Some(dir.join(&name));
        out.companions.push(CompanionFile {
            relative_path: name,
            bytes,
        });
    }
    if let Some(doc) = doc {
        out.document = Cow::Owned(doc);
    }
    Ok(out)
}

/// A file name beside the sprite for a copy of `source`: its own name, or `stem_2.png`, ...
/// when another copy took it or a different file of that name is already there.
fn free_name(dir: &Path, source: &Path, bytes: &[u8], taken: &mut HashSet<String>) -> String {
    let stem = source
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "image".to_string());
    let extension = source
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    let free = |name: &str| {
        !taken.contains(&name.to_lowercase())
            && crate::formats::read_file(&dir.join(name))
                .ok()
                .is_none_or(|existing| existing == bytes)
    };
    let name = (1..)
        .map(|n| match n {
            1 => format!("{stem}{extension}"),
            n => format!("{stem}_{n}{extension}"),
        })
        .find(|name| free(name))
        .unwrap_or_else(|| format!("{stem}{extension}"));
    taken.insert(name.to_lowercase());
    name
}
