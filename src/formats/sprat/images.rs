//! Pixels that live in no file yet (an imported Aseprite file's frames) are written beside the
//! project as PNG files in an `images/` folder, each distinct picture once, and the project
//! refers to them relatively.

use crate::formats::{CompanionFile, WriteContext, WriteError};
use crate::model::{AnimationSet, ImageKind, SourceImage};
use std::collections::HashMap;

/// The folder, beside the project file, that in-memory images are written to.
pub const IMAGES_FOLDER: &str = "images";

/// The set's images with every in-memory one turned into a PNG file reference, and the PNG
/// files to write.
pub struct Materialised {
    /// The images, in the set's order.
    pub images: Vec<SourceImage>,
    /// The PNG files, relative to the project file's folder.
    pub companions: Vec<CompanionFile>,
}

/// The set's images as files ([`Materialised`]); `None` when the set has no in-memory image.
///
/// Refuses to replace a file that exists with other content: the document did not make it.
pub fn materialise(
    document: &AnimationSet,
    context: &WriteContext,
) -> Result<Option<Materialised>, WriteError> {
    if !document
        .images
        .iter()
        .any(|i| matches!(i.kind, ImageKind::Memory(_)))
    {
        return Ok(None);
    }
    let mut images = document.images.clone();
    let encoded = encode_all(&images);
    let mut companions: Vec<CompanionFile> = Vec::new();
    // Pictures already written, by their PNG bytes: identical pictures share one file.
    let mut written: HashMap<Vec<u8>, String> = HashMap::new();
    for (image, encoded) in images.iter_mut().zip(encoded) {
        let Some(encoded) = encoded else {
            continue;
        };
        let bytes =
            encoded.map_err(|e| WriteError::new(format!("cannot encode {}: {e}", image.path)))?;
        let relative = match written.get(&bytes) {
            Some(relative) => relative.clone(),
            None => {
                let relative = free_name(&image.path, &companions);
                refuse_foreign_file(context, &relative, &bytes)?;
                written.insert(bytes.clone(), relative.clone());
                companions.push(CompanionFile {
                    relative_path: relative.clone(),
                    bytes,
                });
                relative
            }
        };
        image.resolved = context.dir().map(|dir| dir.join(&relative));
        image.path = relative;
        image.kind = ImageKind::File;
    }
    Ok(Some(Materialised { images, companions }))
}

/// The PNG bytes of each in-memory image (`None` for the others), encoded on every core: an
/// imported animation brings hundreds of pictures.
fn encode_all(images: &[SourceImage]) -> Vec<Option<Result<Vec<u8>, String>>> {
    let encode = |image: &SourceImage| match &image.kind {
        ImageKind::Memory(pixels) => {
            Some(crate::formats::pack::png(&pixels.0).map_err(|e| e.to_string()))
        }
        _ => None,
    };
    // The web has no threads (starting one panics there): encode in this one.
    let threads = if cfg!(target_arch = "wasm32") {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
    };
    if threads == 1 {
        return images.iter().map(encode).collect();
    }
    let part = images.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = images
            .chunks(part)
            .map(|chunk| {
                (
                    chunk.len(),
                    scope.spawn(move || chunk.iter().map(encode).collect()),
                )
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|(len, worker)| {
                worker
                    .join()
                    .unwrap_or_else(|_| vec![Some(Err("the PNG encoder failed".to_string())); len])
            })
            .collect()
    })
}

/// `images/<file name>.png`, with `_2`, `_3`, ... added when another picture took that name.
fn free_name(path: &str, taken: &[CompanionFile]) -> String {
    let file_name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let stem = file_name
        .strip_suffix(".png")
        .filter(|s| !s.is_empty())
        .unwrap_or(file_name);
    let stem = if stem.is_empty() { "image" } else { stem };
    let is_taken = |name: &str| taken.iter().any(|c| c.relative_path == name);
    let mut name = format!("{IMAGES_FOLDER}/{stem}.png");
    let mut number = 2;
    while is_taken(&name) {
        name = format!("{IMAGES_FOLDER}/{stem}_{number}.png");
        number += 1;
    }
    name
}

/// An error when `relative` exists beside the output with other bytes than `bytes`.
fn refuse_foreign_file(
    context: &WriteContext,
    relative: &str,
    bytes: &[u8],
) -> Result<(), WriteError> {
    let Some(path) = context.dir().map(|dir| dir.join(relative)) else {
        return Ok(());
    };
    match crate::formats::read_file(&path) {
        Ok(existing) if existing != bytes => Err(WriteError::new(format!(
            "{} already exists and this document did not write it; nothing was saved (move it away or save the project elsewhere)",
            path.display()
        ))),
        _ => Ok(()),
    }
}
