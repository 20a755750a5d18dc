//! The list of formats and how a file's format is chosen.

use super::diagnostics::{Diagnostic, Location, Severity};
use super::{Format, Loaded, ReadContext, ReadFailure, Sniff};
use std::path::Path;
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

    /// The format of a file: the strongest content match, ties broken by extension.
    pub fn detect(&self, bytes: &[u8], path: Option<&Path>) -> Option<&dyn Format> {
        let by_ext = path.map(|p| self.by_extension(p)).unwrap_or_default();
        let ext_rank = |f: &dyn Format| by_ext.iter().any(|g| g.id() == f.id());
        let mut best: Option<(&dyn Format, Sniff, bool)> = None;
        for format in self.formats().filter(|f| f.capabilities().read) {
            let sniff = format.sniff(bytes);
            if sniff == Sniff::No {
                continue;
            }
            let ext = ext_rank(format);
            let better = match best {
                None => true,
                Some((_, s, e)) => (sniff, ext) > (s, e),
            };
            if better {
                best = Some((format, sniff, ext));
            }
        }
        best.map(|(f, _, _)| f)
            .or_else(|| by_ext.into_iter().find(|f| f.capabilities().read))
    }

    /// Reads a file from disk with whichever format it is in.
    pub fn open(
        &self,
        path: &Path,
        context: &ReadContext,
    ) -> Result<(Loaded, &dyn Format), ReadFailure> {
        let bytes = std::fs::read(path).map_err(|e| {
            ReadFailure::single(Diagnostic::new(
                Severity::Error,
                Location::File,
                format!("cannot read the file: {e}"),
            ))
        })?;
        let format = self.detect(&bytes, Some(path)).ok_or_else(|| {
            ReadFailure::single(Diagnostic::new(
                Severity::Error,
                Location::File,
                "not a format Sprat knows (neither its content nor its extension matches)",
            ))
        })?;
        let mut context = context.clone();
        context.path = Some(path.to_path_buf());
        format.read(&bytes, &context).map(|loaded| (loaded, format))
    }
}
