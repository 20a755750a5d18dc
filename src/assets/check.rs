//! What `sprat check` finds wrong with the pixels a document names: image files that cannot be
//! found or decoded, SFF archives that cannot be read, sprites that do not decode, and sprites
//! the frames name that the archive does not have. Every distinct file is read once.

use super::decode::decode_file;
use crate::formats::input::{self, Stamp};
use crate::formats::sff::SffArchive;
use crate::formats::{Diagnostic, Location, Severity, Subject};
use crate::model::{AnimationSet, GraphicSource, ImageId, ImageKind, SourceImage};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// What was found decoding a file: its stamp then, and why it cannot be used (`None`: it
/// decodes).
type Decoded = (Stamp, Option<String>);

/// Image files already decoded during one run over many documents (a folder of sprites that
/// share one sheet): each file is decoded once, and again only if it changed meanwhile.
#[derive(Debug, Default)]
pub struct DecodedFiles {
    seen: Mutex<HashMap<PathBuf, Decoded>>,
}

impl DecodedFiles {
    /// Why the image at `path` cannot be used, decoding it only when it was not seen as it is.
    fn problem(&self, path: &Path) -> Option<String> {
        let stamp = input::metadata(path).map(|m| m.stamp);
        if let Some(stamp) = stamp
            && let Some((seen_stamp, problem)) = self
                .seen
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(path)
            && *seen_stamp == stamp
        {
            return problem.clone();
        }
        let problem = decode_file(path).err();
        if let Some(stamp) = stamp {
            self.seen
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(path.to_path_buf(), (stamp, problem.clone()));
        }
        problem
    }
}

/// Every problem with the images, sheets, body parts and sprite archives `document` names.
/// A file that cannot be found or decoded is an error: the frames drawn from it would be
/// empty. A sprite a frame names that the archive lacks is a warning (the engine draws
/// nothing there either, and characters often name sprites they never show).
/// `decoded_files` carries what was decoded for earlier documents of the same run.
pub fn image_problems(document: &AnimationSet, decoded_files: &DecodedFiles) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    let mut decoded: HashSet<&Path> = HashSet::new();
    for image in &document.images {
        match &image.kind {
            ImageKind::File => match image.resolved.as_deref() {
                Some(path) => {
                    if decoded.insert(path) {
                        problems.extend(file_problem(image, path, decoded_files));
                    }
                }
                None => problems.push(not_found(image)),
            },
            // The user has not chosen a tileset yet: nothing is missing from the file itself.
            ImageKind::SolarusTileset { chosen: None } => {}
            ImageKind::SolarusTileset { chosen: Some(path) } => {
                if decoded.insert(path.as_path()) {
                    problems.extend(file_problem(image, path, decoded_files));
                }
            }
            ImageKind::Sff { .. } => match image.resolved.as_deref() {
                Some(path) => problems.extend(archive_problems(document, image, path)),
                // An `.air` opened alone names no archive; a `.def` that names a missing one
                // already says so at its line.
                None if image.path.is_empty() => {}
                None => problems.push(not_found(image)),
            },
            // Pixels held in memory (an imported Aseprite file, a recovered document) are
            // always there.
            ImageKind::Memory(_) => {}
        }
    }
    problems
}

fn not_found(image: &SourceImage) -> Diagnostic {
    Diagnostic::new(
        Severity::Error,
        Location::File,
        format!(
            "the image {} cannot be found; the frames drawn from it are empty",
            image.path
        ),
    )
    .about(Subject::Image(image.id))
}

/// Adds `problems` (from [`image_problems`]) to what the reader said, one message per image:
/// where the reader already named the same image (with its line and column), that message
/// stays and takes the more serious of the two severities.
pub fn merge_image_problems(diagnostics: &mut Vec<Diagnostic>, problems: Vec<Diagnostic>) {
    for problem in problems {
        let said = problem.subject.and_then(|subject| {
            diagnostics
                .iter_mut()
                .find(|d| d.subject == Some(subject) && matches!(subject, Subject::Image(_)))
        });
        match said {
            // `Severity` orders errors first.
            Some(said) => said.severity = said.severity.min(problem.severity),
            None => diagnostics.push(problem),
        }
    }
}

fn file_problem(
    image: &SourceImage,
    path: &Path,
    decoded_files: &DecodedFiles,
) -> Option<Diagnostic> {
    let message = decoded_files.problem(path)?;
    let named = if Path::new(&image.path) == path {
        image.path.clone()
    } else {
        format!("{} ({})", image.path, path.display())
    };
    Some(
        Diagnostic::new(
            Severity::Error,
            Location::File,
            format!("the image {named} cannot be used: {message}"),
        )
        .about(Subject::Image(image.id)),
    )
}

/// The archive's own problems (index and every sprite's decoding, each link's target decoded
/// once), then the sprites the frames name that it does not have.
fn archive_problems(document: &AnimationSet, image: &SourceImage, path: &Path) -> Vec<Diagnostic> {
    let archive = match SffArchive::open(path) {
        Ok(archive) => archive,
        Err(e) => return vec![e.in_file(image.path.clone())],
    };
    let mut problems: Vec<Diagnostic> = archive
        .check()
        .into_iter()
        .map(|d| d.in_file(image.path.clone()))
        .collect();
    for (group, number) in named_sprites(document, image.id) {
        if archive.find(group, number).is_none() {
            problems.push(Diagnostic::new(
                Severity::Warning,
                Location::File,
                format!(
                    "the frames show sprite {group},{number}, which {} does not have; nothing is drawn there",
                    image.path
                ),
            ));
        }
    }
    problems
}

/// The (group, image) numbers of archive `archive` the frames draw, in order, blank ones
/// (negative groups) left out.
fn named_sprites(document: &AnimationSet, archive: ImageId) -> BTreeSet<(i32, i32)> {
    document
        .frames
        .values()
        .flat_map(|frame| frame.elements.iter().filter_map(|e| e.as_graphic()))
        .filter_map(|graphic| match graphic.source {
            GraphicSource::SffSprite {
                archive: a,
                group,
                image,
            } if a == archive && group >= 0 => Some((group, image)),
            _ => None,
        })
        .collect()
}
