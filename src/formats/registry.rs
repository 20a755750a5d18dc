//! The list of formats and how a file's format is chosen.

use super::diagnostics::{Diagnostic, Location, Severity};
use super::{Format, Loaded, ReadContext, ReadFailure, Sniff};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Every format Sprat knows.
pub struct Registry {
    formats: Vec<Box<dyn Format>>,
}

/// The registry of all built-in formats.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(Registry::builtin)
}

impl Registry {
    fn builtin() -> Registry {
        let formats: Vec<Box<dyn Format>> = vec![
            Box::new(crate::formats::sprat::SpratFormat),
            Box::new(crate::formats::sff::SffFormat),
            Box::new(crate::formats::solarus::SolarusLuaFormat),
            Box::new(crate::formats::solarus::SolarusLegacyFormat),
            Box::new(crate::formats::mugen::AirFormat),
            Box::new(crate::formats::mugen::DefFormat),
            Box::new(crate::formats::isprite::IspriteFormat),
            Box::new(crate::formats::adl::AdlFormat),
            Box::new(crate::formats::aseprite::AsepriteFormat),
            Box::new(crate::formats::atlas_json::AsepriteJsonFormat),
            Box::new(crate::formats::godot::GodotSpriteFramesFormat),
        ];
        Registry { formats }
    }

    /// All formats, in registry order.
    pub fn formats(&self) -> impl Iterator<Item = &dyn Format> {
        self.formats.iter().map(|f| f.as_ref())
    }

    /// The format with this id.
    pub fn by_id(&self, id: &str) -> Option<&dyn Format> {
        self.formats().find(|f| f.id() == id)
    }

    /// The formats that claim a file extension (case-insensitive), in registry order.
    pub fn by_extension(&self, path: &Path) -> Vec<&dyn Format> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        self.formats()
            .filter(|f| {
                f.extensions()
                    .iter()
                    .any(|ext| name.ends_with(&format!(".{ext}")))
            })
            .collect()
    }

    /// The format of a file. A format that recognises the content for certain (a magic
    /// number, an unmistakable construct) wins, ties broken by extension; otherwise a format
    /// the extension names (its reader then accepts or refuses the bytes, and its refusal is
    /// what the user sees); otherwise a format that finds the content plausible, unless the
    /// content is blank. `None` when nothing recognises the file: random bytes or a PNG are
    /// not read as an empty document of some text format.
    pub fn detect(&self, bytes: &[u8], path: Option<&Path>) -> Option<&dyn Format> {
        let by_ext: Vec<&dyn Format> = path
            .map(|p| self.by_extension(p))
            .unwrap_or_default()
            .into_iter()
            .filter(|f| f.capabilities().read)
            .collect();
        let named_by_ext = |f: &dyn Format| by_ext.iter().any(|g| g.id() == f.id());
        // A format the extension names that is sure of the content is what the full scan below
        // would choose (nothing ranks above it, and the first in registry order wins ties), so
        // the other formats need not look at the bytes; what those looked at is kept.
        let mut sniffed: Vec<(&str, Sniff)> = Vec::new();
        for format in self
            .formats()
            .filter(|f| f.capabilities().read && named_by_ext(*f))
        {
            let sniff = format.sniff(bytes);
            if sniff == Sniff::Yes {
                return Some(format);
            }
            sniffed.push((format.id(), sniff));
        }
        let mut best: Option<(&dyn Format, Sniff, bool)> = None;
        for format in self.formats().filter(|f| f.capabilities().read) {
            let sniff = match sniffed.iter().find(|(id, _)| *id == format.id()) {
                Some((_, sniff)) => *sniff,
                None => format.sniff(bytes),
            };
            if sniff == Sniff::No {
                continue;
            }
            let ext = named_by_ext(format);
            let better = match best {
                None => true,
                Some((_, s, e)) => (sniff, ext) > (s, e),
            };
            if better {
                best = Some((format, sniff, ext));
            }
        }
        match best {
            Some((format, Sniff::Yes, _)) => Some(format),
            // A guess from the content only beats the extension when it agrees with it.
            Some((format, _, true)) => Some(format),
            _ if !by_ext.is_empty() => by_ext.first().copied(),
            Some((format, _, false)) if !bytes.trim_ascii().is_empty() => Some(format),
            _ => None,
        }
    }

    /// Whether some readable format claims the extension of `path`.
    pub fn is_known_document(&self, path: &Path) -> bool {
        self.by_extension(path)
            .iter()
            .any(|f| f.capabilities().read)
    }

    /// The documents among files given together (dropped at once, picked together, a folder
    /// given to the web page), in the order given. A file no format reads (a picture, a
    /// palette, a character's code) is none, nor is a file another one in its folder names
    /// (a character's `.air` and `.sff` beside its `.def`).
    pub fn documents_among<'a>(&self, paths: &'a [PathBuf]) -> Vec<&'a PathBuf> {
        let readable: Vec<(&PathBuf, &dyn Format)> = paths
            .iter()
            .filter_map(|path| self.reading_format(path).map(|format| (path, format)))
            .collect();
        readable
            .iter()
            .filter(|(path, format)| {
                !readable.iter().any(|(other, other_format)| {
                    other.parent() == path.parent()
                        && names_files_of(other_format.id()).contains(&format.id())
                })
            })
            .map(|(path, _)| *path)
            .collect()
    }

    /// The document the user most likely meant among files given together (see
    /// [`Registry::documents_among`]): the file that names the others comes first (a
    /// character's `.def` over its `.air` and `.sff`, a `.sprat` over its pictures), then a
    /// Solarus sprite (a `.dat` in a `sprites` folder before other `.dat` files), the other
    /// documents of their own (Aseprite first), then a lone `.air` or `.sff`. Among equals the
    /// one nearest the top of what was given, then by name.
    pub fn document_among<'a>(&self, paths: &'a [PathBuf]) -> Option<&'a PathBuf> {
        self.documents_among(paths)
            .into_iter()
            .filter_map(|path| {
                let format = self.reading_format(path)?;
                Some((
                    document_rank(path, format.id()),
                    path.components().count(),
                    path,
                ))
            })
            .min()
            .map(|(_, _, path)| path)
    }

    /// The first readable format that claims `path`'s extension.
    fn reading_format(&self, path: &Path) -> Option<&dyn Format> {
        self.by_extension(path)
            .into_iter()
            .find(|f| f.capabilities().read)
    }

    /// Reads a file from disk with whichever format it is in.
    pub fn open(
        &self,
        path: &Path,
        context: &ReadContext,
    ) -> Result<(Loaded, &dyn Format), ReadFailure> {
        self.open_watched(path, context, &super::input::ReadProgress::default())
    }

    /// [`Registry::open`] that counts the bytes it reads in `progress` and stops reading when
    /// it is cancelled (the editor's progress bar and Cancel button).
    pub fn open_watched(
        &self,
        path: &Path,
        context: &ReadContext,
        progress: &super::input::ReadProgress,
    ) -> Result<(Loaded, &dyn Format), ReadFailure> {
        let bytes = super::input::read_file_watched(path, super::input::MAX_FILE_BYTES, progress)
            .map_err(|e| ReadFailure::single(Diagnostic::from(e)))?;
        let format = self
            .detect(&bytes, Some(path))
            .ok_or_else(|| ReadFailure::single(unrecognised(&bytes)))?;
        let mut context = context.clone();
        context.path = Some(super::absolute(path.to_path_buf()));
        format.read(&bytes, &context).map(|loaded| (loaded, format))
    }
}

/// The error for bytes no format recognises, saying what they look like when that is plain.
fn unrecognised(bytes: &[u8]) -> Diagnostic {
    let what = if bytes.is_empty() {
        "the file is empty".to_string()
    } else if bytes.trim_ascii().is_empty() {
        "the file holds only blank space".to_string()
    } else if let Some(kind) = known_non_sprite(bytes) {
        format!("it is {kind}, not an animation file")
    } else {
        "neither its content nor its extension is a format Sprat knows".to_string()
    };
    Diagnostic::new(
        Severity::Error,
        Location::File,
        format!("not a file Sprat can read: {what}"),
    )
}

/// Names common files people open by mistake (an image instead of its sprite file).
fn known_non_sprite(bytes: &[u8]) -> Option<&'static str> {
    const SIGNATURES: [(&[u8], &str); 6] = [
        (b"\x89PNG\r\n\x1a\n", "a PNG image"),
        (b"GIF8", "a GIF image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"BM", "a BMP image"),
        (b"PK\x03\x04", "a ZIP archive"),
        (b"\x1f\x8b", "a gzip archive"),
    ];
    SIGNATURES
        .iter()
        .find(|(magic, _)| bytes.starts_with(magic))
        .map(|(_, name)| *name)
}

/// The formats whose files a document of format `id` names, so that beside it they are
/// its parts, not documents of their own.
fn names_files_of(id: &str) -> &'static [&'static str] {
    match id {
        crate::formats::mugen::DEF_ID => {
            &[crate::formats::mugen::AIR_ID, crate::formats::sff::SFF_ID]
        }
        _ => &[],
    }
}

/// How likely a file of format `id` is the document meant among others (lower first).
fn document_rank(path: &Path, id: &str) -> u8 {
    use crate::formats::{mugen, sff, solarus};
    let in_sprites_folder = path
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|folder| folder.eq_ignore_ascii_case("sprites"));
    match id {
        // The files that name the others.
        mugen::DEF_ID => 0,
        "sprat" => 1,
        solarus::LUA_ID | solarus::LEGACY_ID if in_sprites_folder => 2,
        "aseprite" => 3,
        // A .dat elsewhere in a quest is a map or a dialog as often as a sprite.
        solarus::LUA_ID | solarus::LEGACY_ID => 5,
        // The parts of a character, read alone.
        mugen::AIR_ID | sff::SFF_ID => 6,
        _ => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_bytes_and_images_are_not_read_by_any_format() {
        // Bytes with a line starting with "[" once looked like a M.U.G.E.N .def.
        let mut noise: Vec<u8> = (0..4096u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        noise.extend_from_slice(b"\n[whatever]\nkey = 1\n");
        assert!(
            registry()
                .detect(&noise, Some(Path::new("noise.bin")))
                .is_none()
        );
        assert!(registry().detect(&noise, None).is_none());
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR[files]\n";
        assert!(registry().detect(png, Some(Path::new("a.png"))).is_none());
        assert!(unrecognised(png).message.contains("PNG image"));
    }

    #[test]
    fn empty_input_is_read_only_by_the_format_its_extension_names() {
        assert!(registry().detect(b"", None).is_none());
        assert!(
            registry()
                .detect(b"  \n", Some(Path::new("x.bin")))
                .is_none()
        );
        // An empty .sff was read as an empty Solarus Lua sprite.
        let sff = registry()
            .detect(b"", Some(Path::new("chars.sff")))
            .unwrap();
        assert_eq!(sff.id(), "mugen-sff");
        assert!(sff.read(b"", &ReadContext::default()).is_err());
        let def = registry().detect(b"", Some(Path::new("x.def"))).unwrap();
        assert_eq!(def.id(), "mugen-def");
    }

    #[test]
    fn a_certain_content_match_beats_the_extension() {
        let isprite = registry().detect(b"ISPRITE \0\0\0\0", Some(Path::new("a.air")));
        assert_eq!(isprite.map(|f| f.id()), Some("isprite"));
    }

    fn given(paths: &[&str]) -> Vec<PathBuf> {
        paths
            .iter()
            .map(|p| Path::new("/dropped").join(p))
            .collect()
    }

    #[test]
    fn the_document_among_files_given_together_is_the_one_that_names_the_others() {
        let kfm = given(&["kfm/kfm.sff", "kfm/kfm.air", "kfm/kfm.def", "kfm/kfm.cns"]);
        assert_eq!(registry().document_among(&kfm), Some(&kfm[2]));
        assert_eq!(registry().documents_among(&kfm), [&kfm[2]]);
        let quest = given(&[
            "data/maps/a.dat",
            "data/sprites/hero.dat",
            "data/sprites/hero.png",
        ]);
        assert_eq!(registry().document_among(&quest), Some(&quest[1]));
        let pictures = given(&["a.png", "b.act"]);
        assert_eq!(registry().document_among(&pictures), None);
        assert!(registry().documents_among(&pictures).is_empty());
        // Nearest the top first: a character's own .def, not one in a subfolder.
        let nested = given(&["kfm/extra/other.def", "kfm/kfm.def"]);
        assert_eq!(registry().document_among(&nested), Some(&nested[1]));
        // An .air alone, or beside another character's .def, is a document of its own.
        let apart = given(&["a/a.air", "b/b.def"]);
        assert_eq!(registry().documents_among(&apart), [&apart[0], &apart[1]]);
        assert_eq!(registry().document_among(&apart), Some(&apart[1]));
    }

    #[test]
    fn documents_given_together_each_stay_in_the_order_given() {
        let sprats = given(&["b.sprat", "c.sprat", "a.sprat", "notes.txt"]);
        assert_eq!(
            registry().documents_among(&sprats),
            [&sprats[0], &sprats[1], &sprats[2]]
        );
        assert_eq!(registry().document_among(&sprats), Some(&sprats[2]));
    }
}
