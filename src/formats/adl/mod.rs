//! Terrarum's ADL ("Animation Description Language"): body-part animations in a Java
//! `.properties` file, read and written as the game's code really handles them
//! (`shared/spec/adl-rules.md`).
//!
//! Reading order: [`lexer`] (the `.properties` layer with byte spans), [`values`] (ADL's item
//! syntax), [`semantics`] (keys, body parts, skeletons, animations, both forms of the language),
//! [`mapping`] (to the document model), then the writers: [`edit`] (saving an ADL document
//! back, changing only what was edited) and [`convert`] (writing a document from another format,
//! naming what ADL cannot hold), and [`sheet`] (the game's assembled sheet layout).

pub mod assets_root;
pub mod convert;
pub mod edit;
pub mod lexer;
pub mod mapping;
mod plan;
mod restructure;
pub mod semantics;
pub mod sheet;
pub mod values;

pub use edit::{move_part, move_skeleton_joint};
pub use semantics::{AdlFile, Dialect, parse};
pub use sheet::{SheetCell, SheetLayout, game_sheet_layout};

use super::diagnostics::{Diagnostic, Location, Severity};
use super::{
    Baseline, Capabilities, Format, FormatInfo, Loaded, ReadContext, ReadFailure, Sniff, Stated,
    WriteContext, WriteError, Written,
};
use crate::model::AnimationSet;

/// The ADL format.
pub struct AdlFormat;

/// How much of a file sniffing looks at.
const SNIFF_BYTES: usize = 16 * 1024;

impl Stated for AdlFormat {
    /// What the ADL format is.
    const INFO: FormatInfo = FormatInfo {
        id: "adl",
        name: "Terrarum ADL body-part animation (.properties)",
        extensions: &["properties"],
        capabilities: Capabilities {
            time_unit: crate::model::TimeUnit::Seconds,
            read: true,
            write: true,
            points: true,
            layered_graphics: true,
            disappear_at_end: true,
            ..Capabilities::NONE
        },
        baseline: Baseline::Shared,
    };
}

impl Format for AdlFormat {
    fn sniff(&self, bytes: &[u8]) -> Sniff {
        let head = &bytes[..bytes.len().min(SNIFF_BYTES)];
        // Every answer but No needs one of these words, so files of other formats (sniffed on
        // every open) are turned away without lexing them.
        let mentions = |word: &[u8]| {
            head.windows(word.len())
                .any(|w| w.eq_ignore_ascii_case(word))
        };
        if !(mentions(b"SPRITESHEET") || mentions(b"BODYPARTS") || mentions(b"SKELETON")) {
            return Sniff::No;
        }
        let lexed = lexer::lex(head);
        let keys: Vec<String> = lexed
            .properties
            .iter()
            .map(|p| p.key.to_uppercase())
            .collect();
        let has = |k: &str| keys.iter().any(|key| key == k);
        let animation = lexed.properties.iter().any(|p| {
            values::items(&p.value)
                .iter()
                .any(|i| p.value[i.name.clone()].eq_ignore_ascii_case("SKELETON"))
        });
        if has("SPRITESHEET") && (has("CONFIG") || has("BODYPARTS") || animation) {
            Sniff::Yes
        } else if has("SPRITESHEET") || has("BODYPARTS") || animation {
            Sniff::Maybe
        } else {
            Sniff::No
        }
    }

    fn read(&self, bytes: &[u8], context: &ReadContext) -> Result<Loaded, ReadFailure> {
        let file = parse(bytes);
        if file.looks_empty() {
            return Err(ReadFailure::single(Diagnostic::new(
                Severity::Error,
                Location::File,
                "not an ADL file: no SPRITESHEET, EXTENSION, CONFIG or BODYPARTS, and no animation (a property with SKELETON)",
            )));
        }
        let (mut document, mut diagnostics) = mapping::build_consuming(file, bytes.len(), context);
        document.original = Some(context.original(self.id(), bytes));
        diagnostics.sort_by_key(|d| d.severity);
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
        match self.own_original(document) {
            Some(original) => Ok(edit::write_edited(document, original)),
            None => convert::write_new(document, context),
        }
    }
}
