//! Where an animation's pixels come from: the SFF archive and `.act` palettes a `.def` names,
//! or, for an `.air` opened alone, the `.def` or `.sff` beside it.

use super::def::{DefFile, parse_def, path_text};
use crate::formats::input;
use crate::formats::paths::normalise;
use crate::formats::{Diagnostic, Location, Severity};
use crate::model::{ImageId, ImageKind, PaletteSource, SourceImage};
use std::path::{Path, PathBuf};

/// `.def` files larger than this are not searched when looking for an `.air`'s companions.
const MAX_DEF_BYTES: u64 = 4 << 20;

/// The SFF archive of a set, as found.
#[derive(Clone, Debug, Default)]
pub struct Sprites {
    /// The path as the `.def` spells it (or the file name found beside the `.air`); empty when
    /// nothing names an archive.
    pub path: String,
    /// Where it is on disk, when it exists.
    pub resolved: Option<PathBuf>,
    /// The `.act` palettes, then the archive's own.
    pub palettes: Vec<PaletteSource>,
}

impl Sprites {
    /// The source image for the archive.
    pub fn image(&self, id: ImageId) -> SourceImage {
        SourceImage {
            id,
            path: self.path.clone(),
            resolved: self.resolved.clone(),
            kind: ImageKind::Sff {
                palettes: self.palettes.clone(),
                active_palette: None,
            },
            nearest_neighbour: true,
        }
    }
}

/// The archive and palettes a `.def` names, relative to `dir` (the `.def`'s folder, when read
/// from disk). Missing files are reported at the line that names them.
pub fn from_def(def: &DefFile, bytes: &[u8], dir: Option<&Path>) -> (Sprites, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let mut sprites = Sprites::default();
    let at = |line: usize| {
        let l = def.lines[line];
        Location::Text {
            line: line as u32 + 1,
            column: super::lexis::column_of(bytes, &l, l.code.0),
        }
    };
    if let Some(entry) = def.sprite() {
        sprites.path = path_text(&entry.value);
        if let Some(dir) = dir {
            let path = normalise(&dir.join(&sprites.path));
            if input::is_file(&path) {
                sprites.resolved = Some(path);
            } else {
                diagnostics.push(Diagnostic::new(
                    Severity::Warning,
                    at(entry.line),
                    format!(
                        "the sprite file {} was not found; the animations open without pixels",
                        sprites.path
                    ),
                ));
            }
        }
    }
    for (number, entry) in def.palettes() {
        let path = path_text(&entry.value);
        let resolved = dir.map(|d| normalise(&d.join(&path)));
        if let Some(resolved) = &resolved
            && !input::is_file(resolved)
        {
            diagnostics.push(Diagnostic::new(
                Severity::Warning,
                at(entry.line),
                format!("the palette file {path} (pal{number}) was not found"),
            ));
        }
        sprites.palettes.push(PaletteSource::ActFile {
            path,
            resolved: resolved.filter(|p| input::is_file(p)),
        });
    }
    sprites.palettes.push(PaletteSource::Embedded(0));
    (sprites, diagnostics)
}

/// The archive of an `.air` opened alone: the `.def` beside it that names it as its `anim`,
/// else an `.sff` of the same name beside it. Says so when there is neither.
pub fn for_air(path: Option<&Path>) -> (Sprites, Vec<Diagnostic>) {
    let Some(path) = path else {
        return (
            Sprites {
                palettes: vec![PaletteSource::Embedded(0)],
                ..Sprites::default()
            },
            Vec::new(),
        );
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().to_lowercase());
    let entries: Vec<PathBuf> = input::read_dir(dir).unwrap_or_default();
    for candidate in entries.iter().filter(|p| has_extension(p, "def")) {
        let small = input::metadata(candidate).is_some_and(|m| m.len <= MAX_DEF_BYTES);
        let Some(bytes) = small.then(|| input::read_file(candidate).ok()).flatten() else {
            continue;
        };
        let def = parse_def(&bytes);
        let names_this = def.anim().is_some_and(|anim| {
            let anim = normalise(&dir.join(path_text(&anim.value)));
            anim.file_name().map(|n| n.to_string_lossy().to_lowercase()) == name
                && anim.parent() == Some(&normalise(dir))
        });
        if names_this {
            let (sprites, diagnostics) = from_def(&def, &bytes, Some(dir));
            let file = candidate
                .file_name()
                .map(|n| n.to_string_lossy().into_owned());
            let diagnostics = diagnostics
                .into_iter()
                .map(|d| d.in_file(file.clone().unwrap_or_default()))
                .collect();
            return (sprites, diagnostics);
        }
    }
    let stem = path.file_stem().map(|s| s.to_string_lossy().to_lowercase());
    let sff = entries.iter().find(|p| {
        has_extension(p, "sff") && p.file_stem().map(|s| s.to_string_lossy().to_lowercase()) == stem
    });
    match sff {
        Some(sff) => (
            Sprites {
                path: sff
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                resolved: Some(sff.clone()),
                palettes: vec![PaletteSource::Embedded(0)],
            },
            Vec::new(),
        ),
        None => (
            Sprites {
                palettes: vec![PaletteSource::Embedded(0)],
                ..Sprites::default()
            },
            vec![Diagnostic::new(
                Severity::Warning,
                Location::File,
                "no .def naming this file and no .sff of the same name is beside it; it opens without pixels",
            )],
        ),
    }
}

fn has_extension(path: &Path, extension: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case(extension))
}
