//! The two M.U.G.E.N formats Sprat opens and saves: `.air` files and `.def` files.
//!
//! How a character `.def` fits the [`Format`] trait: the document's `original` is the `.def`
//! (which Sprat never edits), and the `.air` it names is kept in
//! [`AnimationSet::companion_originals`]. Saving writes the `.def` back unchanged as the main
//! file and the `.air`, rewritten only where edited, as a [`CompanionFile`] at the path the
//! `.def` spells. A `.def` that holds actions itself (lifebar `fight.def`, stages, storyboards)
//! is read and saved as AIR text: its other sections are copied as they are.

use super::air_model::take_into_model;
use super::air_syntax::parse_air;
use super::air_write::write_air;
use super::def::{DefFile, is_action_section, parse_def, path_text};
use super::lexis::{split_lines, trim};
use super::sources;
use crate::formats::loss::unused_picture_losses;
use crate::formats::paths::{normalise, relative_to};
use crate::formats::sff::build::build_archive;
use crate::formats::{
    Baseline, Capabilities, CompanionFile, Diagnostic, Format, FormatInfo, Loaded, Location,
    ReadContext, ReadFailure, Severity, Sniff, Stated, WriteContext, WriteError, Written,
};
use crate::model::{AnimationSet, ImageId, ImageKind, OriginalSource, PaletteSource};
use std::path::Path;
use std::sync::Arc;

/// The id of [`AirFormat`].
pub const AIR_ID: &str = "mugen-air";
/// The id of [`DefFormat`].
pub const DEF_ID: &str = "mugen-def";

/// M.U.G.E.N animation text (`.air`).
pub struct AirFormat;

/// M.U.G.E.N definition files (`.def`): characters, effects, stages, storyboards, lifebars.
pub struct DefFormat;

/// What both M.U.G.E.N text formats hold: AIR's actions, timed in ticks.
const CAPABILITIES: Capabilities = Capabilities {
    time_unit: crate::model::TimeUnit::Ticks,
    read: true,
    write: true,
    per_frame_durations: true,
    boxes: true,
    transforms: true,
    blending: true,
    interpolation: true,
    default_boxes: true,
    box_classes_known: true,
    hit_hurt_words: Some(("Clsn1", "Clsn2")),
    sequence_titles: true,
    numbered_sequences: true,
    ..Capabilities::NONE
};

/// The sections that make a text a `.def` (characters and effects, stages, storyboards).
fn is_def_section(name: &str) -> bool {
    ["info", "files", "bgdef", "scenedef"].contains(&name)
}

/// What a `.def` without actions of its own and without an animation file lacks: a `.def`
/// with neither [Files] nor a stage's [BGdef] or a storyboard's [SceneDef] names nothing to
/// show (an error: a cut or damaged file), and a character's [Files] without `anim` opens with
/// no animations (a warning).
fn missing_files(def: &DefFile) -> Option<Diagnostic> {
    let has = |name: &str| def.sections.iter().any(|s| s.name == name);
    if def.has_actions() || has("bgdef") || has("scenedef") {
        return None;
    }
    let (severity, message) = if has("files") {
        (
            Severity::Warning,
            "the [Files] section names no animation file (anim = ...): the .def opens with no animations",
        )
    } else {
        (
            Severity::Error,
            "the .def has no [Files] section (nor [BGdef] or [SceneDef]): it names no sprite file and no animation file",
        )
    };
    Some(Diagnostic::new(severity, Location::File, message))
}

/// The section names of a text, lowercased, in order (a cheap look for sniffing).
fn section_names(bytes: &[u8]) -> Vec<String> {
    split_lines(bytes)
        .iter()
        .filter(|l| !l.is_blank() && bytes[l.code.0] == b'[')
        .map(|l| {
            let code = &bytes[l.code_range()];
            let close = code.iter().position(|&b| b == b']').unwrap_or(code.len());
            let (s, e) = trim(bytes, l.code.0 + 1..l.code.0 + close);
            let name = String::from_utf8_lossy(&bytes[s..e]).to_lowercase();
            name.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .collect()
}

impl Stated for AirFormat {
    /// What the AIR format is: it keeps its own baseline (the text read, rewritten only where
    /// edited).
    const INFO: FormatInfo = FormatInfo {
        id: AIR_ID,
        name: "M.U.G.E.N animation (AIR)",
        extensions: &["air"],
        capabilities: CAPABILITIES,
        baseline: Baseline::Own,
    };
}

impl Format for AirFormat {
    fn sniff(&self, bytes: &[u8]) -> Sniff {
        let names = section_names(bytes);
        let actions = names.iter().filter(|n| is_action_section(n)).count();
        match (actions, names.len() - actions) {
            (0, _) => Sniff::No,
            (_, 0) => Sniff::Yes,
            _ => Sniff::Maybe,
        }
    }

    fn read(&self, bytes: &[u8], context: &ReadContext) -> Result<Loaded, ReadFailure> {
        let mut document = AnimationSet::new();
        let archive = ImageId(document.alloc_id());
        let (sprites, mut diagnostics) = sources::for_air(context.path.as_deref());
        document.images.push(sprites.image(archive));
        let mut syntax = parse_air(bytes, true);
        // The model is built from the actions alone; the line table (a fifth of the syntax
        // tree) goes before the document is built beside the rest.
        syntax.lines = Vec::new();
        take_into_model(&mut syntax, &mut document, archive);
        diagnostics.splice(0..0, std::mem::take(&mut syntax.diagnostics));
        // Gone before the file's bytes are copied into the document.
        drop(syntax);
        document.original = Some(context.original(AIR_ID, bytes));
        Ok(Loaded {
            document,
            diagnostics,
        })
    }

    fn write_document(
        &self,
        document: &AnimationSet,
        context: &WriteContext,
    ) -> Result<Written, WriteError> {
        let baseline = air_baseline(document);
        let output = write_air(document, baseline);
        // The archive was found beside the `.air` (or through the `.def` naming it): it is
        // saved where it was, relative to where the `.air` goes.
        let companions = edited_archives(document, |spelled, resolved| {
            resolved
                .zip(context.dir())
                .and_then(|(file, dir)| relative_to(dir, file))
                .unwrap_or_else(|| spelled.to_string())
        });
        let mut losses = output.losses;
        losses.extend(unused_picture_losses(document));
        Ok(Written {
            bytes: output.bytes,
            losses,
            companions,
        })
    }
}

/// The archives and `.act` palettes edited in Sprat (or saved over and then undone), as
/// companion files at the path `place` gives each (from the path as the files spell it and
/// where it was found). A file the document holds no contents of is not written (it stays as
/// it is).
fn edited_archives(
    document: &AnimationSet,
    place: impl Fn(&str, Option<&Path>) -> String,
) -> Vec<CompanionFile> {
    document
        .files_to_write_beside()
        .iter()
        .filter_map(|file| {
            let image = document.image(file.image)?;
            let ImageKind::Sff { palettes, .. } = &image.kind else {
                return None;
            };
            let (spelled, resolved) = match file.palette {
                None => (image.path.as_str(), image.resolved.as_deref()),
                Some(n) => match palettes.get(n)? {
                    PaletteSource::ActFile { path, resolved } => {
                        (path.as_str(), resolved.as_deref())
                    }
                    PaletteSource::Embedded(_) => return None,
                },
            };
            Some(CompanionFile {
                relative_path: place(spelled, resolved),
                bytes: file.bytes.to_vec(),
            })
        })
        .collect()
}

/// The AIR text a document was read from: the `.air` itself, or the `.air` a `.def` named.
fn air_baseline(document: &AnimationSet) -> Option<&Arc<Vec<u8>>> {
    document
        .original
        .iter()
        .chain(&document.companion_originals)
        .find(|o| o.format == AIR_ID)
        .map(|o| &o.bytes)
}

impl Stated for DefFormat {
    /// What the `.def` format is: it keeps its own baseline (the `.def` copied, the AIR text it
    /// names rewritten only where edited).
    const INFO: FormatInfo = FormatInfo {
        id: DEF_ID,
        name: "M.U.G.E.N definition (.def)",
        extensions: &["def"],
        capabilities: CAPABILITIES,
        baseline: Baseline::Own,
    };
}

impl Format for DefFormat {
    fn sniff(&self, bytes: &[u8]) -> Sniff {
        // Any text with a line in brackets is not a .def: only the sections it defines say so.
        if section_names(bytes).iter().any(|n| is_def_section(n)) {
            Sniff::Yes
        } else {
            Sniff::No
        }
    }

    fn read(&self, bytes: &[u8], context: &ReadContext) -> Result<Loaded, ReadFailure> {
        let names = section_names(bytes);
        if !names
            .iter()
            .any(|n| is_def_section(n) || is_action_section(n))
        {
            return Err(ReadFailure::single(Diagnostic::new(
                Severity::Error,
                Location::File,
                "not a M.U.G.E.N definition file: it has no [Info], [Files], [BGdef] or [SceneDef] section and no actions",
            )));
        }
        let def = parse_def(bytes);
        let mut document = AnimationSet::new();
        let archive = ImageId(document.alloc_id());
        let dir = context.dir();
        let (sprites, mut diagnostics) = sources::from_def(&def, bytes, dir);
        document.images.push(sprites.image(archive));
        let anim = def.anim().filter(|_| !def.has_actions());
        if anim.is_none() {
            diagnostics.extend(missing_files(&def));
        }
        if let Some(anim) = anim {
            let spelled = path_text(&anim.value);
            let line = def.lines[anim.line];
            let location = Location::Text {
                line: anim.line as u32 + 1,
                column: super::lexis::column_of(bytes, &line, line.code.0),
            };
            match dir {
                None => diagnostics.push(Diagnostic::new(
                    Severity::Info,
                    location,
                    format!("the animations in {spelled} are not read: the .def was not opened from a folder"),
                )),
                Some(dir) => {
                    let path = normalise(&dir.join(&spelled));
                    match crate::formats::read_file(&path) {
                        // A .def naming a .def (two naming each other, or a slip of the
                        // extension) would read as an AIR without actions, silently.
                        Ok(air) if section_names(&air).iter().any(|n| is_def_section(n)) => {
                            diagnostics.push(Diagnostic::new(
                                Severity::Error,
                                location,
                                format!("the animation file {spelled} is a .def file (it has an [Info], [Files], [BGdef] or [SceneDef] section), not an AIR file: its animations are not read"),
                            ));
                        }
                        Ok(air) => {
                            let mut syntax = parse_air(&air, true);
                            take_into_model(&mut syntax, &mut document, archive);
                            let file = spelled.clone();
                            diagnostics.extend(syntax.diagnostics.into_iter().map(|d| d.in_file(file.clone())));
                            document.companion_originals.push(OriginalSource {
                                format: AIR_ID.into(),
                                bytes: Arc::new(air),
                                path: Some(path),
                            });
                        }
                        Err(e) => diagnostics.push(Diagnostic::new(
                            Severity::Error,
                            location,
                            format!("cannot read the animation file {spelled}: {e}"),
                        )),
                    }
                }
            }
        } else {
            let mut syntax = parse_air(bytes, false);
            take_into_model(&mut syntax, &mut document, archive);
            diagnostics.splice(0..0, syntax.diagnostics);
        }
        document.original = Some(context.original(DEF_ID, bytes));
        Ok(Loaded {
            document,
            diagnostics,
        })
    }

    fn write_document(
        &self,
        document: &AnimationSet,
        context: &WriteContext,
    ) -> Result<Written, WriteError> {
        // Named from the document as given: a new archive is built from the pictures its
        // frames show, which then show sprites instead.
        let mut written = self.write_def(document, context)?;
        written.losses.extend(unused_picture_losses(document));
        Ok(written)
    }
}

impl DefFormat {
    /// The `.def` of `document` (with its `.air` and edited archives as companions).
    fn write_def(
        &self,
        document: &AnimationSet,
        context: &WriteContext,
    ) -> Result<Written, WriteError> {
        let Some(original) = self.own_original(document) else {
            return fresh_def(document, context);
        };
        let def = parse_def(&original.bytes);
        if let Some(moved) = moved_character(document, original, &def, context) {
            return Ok(moved);
        }
        // The `.def` is copied unchanged, so the archive goes where it spells it.
        let archives = edited_archives(document, |spelled, _| spelled.to_string());
        match def.anim().filter(|_| !def.has_actions()) {
            Some(anim) => {
                let baseline = air_baseline(document);
                // An `.air` that could not be read is not replaced by an empty one.
                if baseline.is_none() && document.sequences().is_empty() {
                    return Ok(Written {
                        bytes: original.bytes.to_vec(),
                        companions: archives,
                        ..Written::default()
                    });
                }
                let output = write_air(document, baseline);
                let mut companions = vec![CompanionFile {
                    relative_path: path_text(&anim.value),
                    bytes: output.bytes,
                }];
                companions.extend(archives);
                Ok(Written {
                    bytes: original.bytes.to_vec(),
                    losses: output.losses,
                    companions,
                })
            }
            None => {
                let output = write_air(document, Some(&original.bytes));
                Ok(Written {
                    bytes: output.bytes,
                    losses: output.losses,
                    companions: archives,
                })
            }
        }
    }
}

/// A character `.def` saved into another folder than the one it was read from (a conversion,
/// Save As elsewhere): the files written with it — the `.air`, edited archives — go into the
/// new folder under their plain file names, and the `.def` names them so; the files it only
/// names (an unedited `.sff`, `.act` palettes) are named by their path from the new folder.
/// Nothing is written outside the new folder. `None` when the folder is the same (or unknown).
fn moved_character(
    document: &AnimationSet,
    original: &OriginalSource,
    def: &DefFile,
    context: &WriteContext,
) -> Option<Written> {
    let source_dir = normalise(original.path.as_deref()?.parent()?);
    let target_dir = normalise(context.dir()?);
    if source_dir == target_dir || def.has_actions() {
        return None;
    }
    let plain = |value: &[u8]| -> String {
        let text = path_text(value);
        Path::new(&text)
            .file_name()
            .map_or(text.clone(), |n| n.to_string_lossy().into_owned())
    };
    let from_new_folder = |value: &[u8]| -> String {
        let source = normalise(&source_dir.join(path_text(value)));
        relative_to(&target_dir, &source).unwrap_or_else(|| source.display().to_string())
    };
    // (value range, new value), and the files written.
    let mut changes: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let mut companions = Vec::new();
    let mut losses = Vec::new();
    if let Some(anim) = def.anim() {
        let name = plain(&anim.value);
        let output = write_air(document, air_baseline(document));
        losses = output.losses;
        companions.push(CompanionFile {
            relative_path: name.clone(),
            bytes: output.bytes,
        });
        changes.push((anim.value_range.clone(), name));
    }
    let edited: Vec<(String, CompanionFile)> =
        edited_archives(document, |spelled, _| spelled.to_string())
            .into_iter()
            .map(|archive| (archive.relative_path.clone(), archive))
            .collect();
    if let Some(sprite) = def.sprite() {
        let spelled = path_text(&sprite.value);
        match edited.iter().find(|(path, _)| *path == spelled) {
            Some((_, archive)) => {
                let name = plain(&sprite.value);
                companions.push(CompanionFile {
                    relative_path: name.clone(),
                    bytes: archive.bytes.clone(),
                });
                changes.push((sprite.value_range.clone(), name));
            }
            None => changes.push((sprite.value_range.clone(), from_new_folder(&sprite.value))),
        }
    }
    for (_, palette) in def.palettes() {
        changes.push((palette.value_range.clone(), from_new_folder(&palette.value)));
    }
    changes.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
    let mut bytes = original.bytes.to_vec();
    for (range, value) in changes {
        if bytes.get(range.clone()) != Some(value.as_bytes()) {
            bytes.splice(range, value.into_bytes());
        }
    }
    Some(Written {
        bytes,
        losses,
        companions,
    })
}

/// A character-style `.def` naming an `.air` of the same name, for documents from other
/// formats. Images that are not SFF sprites become the sprites of a new `.sff` of the same
/// name (when their pixels are at hand), written beside it.
fn fresh_def(document: &AnimationSet, context: &WriteContext) -> Result<Written, WriteError> {
    let stem = context.file_stem("anim");
    let air_name = format!("{stem}.air");
    let built = build_archive(document, context, &format!("{stem}.sff"))?;
    let (document, archive) = match &built {
        Some(built) => (&built.document, Some(built.archive.clone())),
        None => (document, None),
    };
    let sff = document
        .images
        .iter()
        .find(|i| matches!(i.kind, ImageKind::Sff { .. }));
    let mut text = String::from("[Files]\n");
    text.push_str(&format!(
        "sprite = {}\n",
        sff.map_or(format!("{stem}.sff"), |i| i.path.clone())
    ));
    text.push_str(&format!("anim = {air_name}\n"));
    if let Some(ImageKind::Sff { palettes, .. }) = sff.map(|i| &i.kind) {
        let acts = palettes.iter().filter_map(|p| match p {
            PaletteSource::ActFile { path, .. } => Some(path),
            PaletteSource::Embedded(_) => None,
        });
        for (index, path) in acts.take(12).enumerate() {
            text.push_str(&format!("pal{} = {path}\n", index + 1));
        }
    }
    let output = write_air(document, None);
    let mut companions = vec![CompanionFile {
        relative_path: air_name,
        bytes: output.bytes,
    }];
    match archive {
        Some(archive) => companions.push(archive),
        None => companions.extend(edited_archives(document, |spelled, _| spelled.to_string())),
    }
    Ok(Written {
        bytes: text.into_bytes(),
        losses: output.losses,
        companions,
    })
}
