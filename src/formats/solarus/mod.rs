//! Solarus sprite sheets, all three generations:
//!
//! - `solarus-legacy`: the line-based syntax of Zelda Solarus DX `.zsd` files and of Solarus
//!   0.9/1.0 `sprites/*.dat` files (one syntax; the extension only names the era);
//! - `solarus-lua`: Solarus 1.1+ `sprites/*.dat`, a Lua chunk of `animation{...}` calls, read
//!   by a small reader of that data subset and never run.
//!
//! Both map to the model the same way (see [`to_model`]): animation -> sequence, direction ->
//! direction, each grid cell -> a frame with one graphic on its own slice. Image paths are
//! relative to the quest's `sprites/` folder ([`quest`]). Saving keeps the text of every
//! animation the user did not touch ([`splice`]).
//!
//! Reading order: [`data`] (what both syntaxes describe), the readers ([`legacy_reader`],
//! [`lua_lexer`], [`lua_reader`]), [`to_model`], [`from_model`], the writers.

pub mod data;
pub mod from_model;
pub mod legacy_reader;
pub mod legacy_writer;
pub mod lua_lexer;
pub mod lua_reader;
pub mod lua_writer;
pub mod new_sheets;
pub mod problems;
pub mod quest;
pub mod quest_images;
pub mod splice;
pub mod to_model;

pub use quest::{sprites_folder, tileset_candidates};

use super::fidelity;
use super::{
    Baseline, Capabilities, Diagnostic, Format, FormatInfo, Loaded, Location, ReadContext,
    ReadFailure, Severity, Sniff, Stated, WriteContext, WriteError, Written, has_errors,
    line_column,
};
use crate::model::{AnimationSet, SequenceId};
use data::Entry;
use problems::Problems;
use splice::Syntax;

/// The id of [`SolarusLegacyFormat`].
pub const LEGACY_ID: &str = "solarus-legacy";
/// The id of [`SolarusLuaFormat`].
pub const LUA_ID: &str = "solarus-lua";

/// `.zsd` (Zelda Solarus DX, 2008-2010) and Solarus 0.9/1.0 `.dat`: one line-based syntax.
pub struct SolarusLegacyFormat;

/// Solarus 1.1+ `.dat`: `animation{...}` calls in Lua.
pub struct SolarusLuaFormat;

/// What both Solarus syntaxes hold.
const CAPABILITIES: Capabilities = Capabilities {
    read: true,
    write: true,
    directions: true,
    disappear_at_end: true,
    one_origin_per_direction: true,
    frames_are_grid_cells: true,
    ..Capabilities::NONE
};

/// The entries of a file in one syntax, or the syntax error that stops the read.
type EntryReader = fn(&[u8], &mut Problems) -> Result<Vec<Entry>, (usize, String)>;

fn read_legacy_entries(
    text: &[u8],
    problems: &mut Problems,
) -> Result<Vec<Entry>, (usize, String)> {
    Ok(legacy_reader::read_entries(text, problems))
}

/// A read, with the entries and the sequence made from each (for the edit-preserving writer).
struct Parsed {
    loaded: Loaded,
    entries: Vec<Entry>,
    made: Vec<Option<SequenceId>>,
}

fn parse(
    id: &str,
    read_entries: EntryReader,
    bytes: &[u8],
    context: &ReadContext,
) -> Result<Parsed, ReadFailure> {
    let mut problems = Problems::default();
    let entries = match read_entries(bytes, &mut problems) {
        Ok(entries) => entries,
        Err((at, message)) => {
            let (line, column) = line_column(bytes, at);
            let mut diagnostics = vec![Diagnostic::error_at(line, column, message)];
            diagnostics.extend(problems.into_diagnostics(bytes));
            return Err(ReadFailure { diagnostics });
        }
    };
    let (mut document, made) = to_model::build_document(&entries, context, &mut problems);
    let mut diagnostics = problems.into_diagnostics(bytes);
    if entries.is_empty() {
        // Valid (the specification allows zero animations), but a sprite the engine finds
        // nothing in is most often a file cut or emptied by mistake: check says so.
        diagnostics.push(Diagnostic::new(
            Severity::Warning,
            Location::File,
            "the file holds no animation: the engine finds nothing to show in this sprite",
        ));
    }
    if made.iter().all(Option::is_none) && has_errors(&diagnostics) {
        return Err(ReadFailure { diagnostics });
    }
    document.original = Some(context.original(id, bytes));
    Ok(Parsed {
        loaded: Loaded {
            document,
            diagnostics,
        },
        entries,
        made,
    })
}

fn write(
    format: &dyn Format,
    read_entries: EntryReader,
    syntax: &dyn Syntax,
    document: &AnimationSet,
    context: &WriteContext,
) -> Result<Written, WriteError> {
    let original = document.original.as_ref();
    // One re-read of the original serves both the byte-exact answer for an unchanged document
    // (the rule of `fidelity::unchanged_original`) and the splice of an edited one.
    let reread = format.own_original(document).and_then(|o| {
        let read_context = ReadContext {
            path: o.path.clone(),
            ..ReadContext::default()
        };
        parse(format.id(), read_entries, &o.bytes, &read_context)
            .ok()
            .map(|parsed| (o, parsed))
    });
    if let Some((o, parsed)) = &reread
        && fidelity::written_beside(o, context)
        && fidelity::same_content(&parsed.loaded.document, document)
    {
        return Ok(Written {
            bytes: o.bytes.as_ref().clone(),
            ..Written::default()
        });
    }
    let solarus_source = original.is_some_and(|o| o.format == LEGACY_ID || o.format == LUA_ID);
    let copied = quest_images::copy_outside_images(document, context, solarus_source)?;
    let sheets = new_sheets::lay_out_whole_images(&copied.document, context)?;
    let mut described = from_model::describe(&sheets.document, context, solarus_source)?;
    described.losses.extend(sheets.losses);
    // A document with sequences of which none can be written would become an empty sprite
    // the engine finds nothing in; an empty document written empty is faithful.
    if described.animations.is_empty() && !document.sequences().is_empty() {
        return Err(nothing_to_write(&described.losses));
    }
    if format.id() == LEGACY_ID
        && let Some(problem) = described
            .animations
            .iter()
            .find_map(|(_, data)| legacy_writer::unwritable(data))
    {
        return Err(WriteError::new(problem));
    }
    let bytes = match reread {
        Some((o, parsed)) => splice::edited(
            syntax,
            &o.bytes,
            &parsed.entries,
            &parsed.made,
            &described.animations,
        ),
        None => splice::fresh(syntax, &described.animations),
    };
    let mut companions = copied.companions;
    companions.extend(sheets.companions);
    Ok(Written {
        bytes,
        losses: described.losses,
        companions,
    })
}

/// Why a document none of whose sequences can be written is not: the sprite file would be
/// empty and the engine would find nothing in it, so no flag writes one.
fn nothing_to_write(losses: &[crate::formats::Loss]) -> WriteError {
    let skipped: Vec<&crate::formats::Loss> = losses
        .iter()
        .filter(|l| l.what.starts_with(from_model::NOT_WRITTEN))
        .collect();
    let first = skipped
        .first()
        .map(|loss| format!(" (the first: {loss})"))
        .unwrap_or_default();
    WriteError::new(format!(
        "none of the {} can be written as a Solarus sprite{first}, so the file would be empty; nothing was written",
        crate::text::count(skipped.len(), "animation")
    ))
}

impl Stated for SolarusLegacyFormat {
    /// What the older Solarus syntax is: it keeps its own baseline (one read of the original
    /// serves the unchanged answer and the splice).
    const INFO: FormatInfo = FormatInfo {
        id: LEGACY_ID,
        name: "Solarus sprite, .zsd / 0.9 .dat (text lines)",
        extensions: &["zsd", "dat"],
        capabilities: CAPABILITIES,
        baseline: Baseline::Own,
    };
}

impl Format for SolarusLegacyFormat {
    fn sniff(&self, bytes: &[u8]) -> Sniff {
        sniff_legacy(bytes)
    }

    fn read(&self, bytes: &[u8], context: &ReadContext) -> Result<Loaded, ReadFailure> {
        parse(LEGACY_ID, read_legacy_entries, bytes, context).map(|p| p.loaded)
    }

    fn write_document(
        &self,
        document: &AnimationSet,
        context: &WriteContext,
    ) -> Result<Written, WriteError> {
        write(
            self,
            read_legacy_entries,
            &legacy_writer::LegacySyntax,
            document,
            context,
        )
    }
}

impl Stated for SolarusLuaFormat {
    /// What the Lua Solarus syntax is: it keeps its own baseline, as the older one.
    const INFO: FormatInfo = FormatInfo {
        id: LUA_ID,
        name: "Solarus 1.x sprite (Lua)",
        extensions: &["dat"],
        capabilities: CAPABILITIES,
        baseline: Baseline::Own,
    };
}

impl Format for SolarusLuaFormat {
    fn sniff(&self, bytes: &[u8]) -> Sniff {
        sniff_lua(bytes)
    }

    fn read(&self, bytes: &[u8], context: &ReadContext) -> Result<Loaded, ReadFailure> {
        parse(LUA_ID, lua_reader::read_entries, bytes, context).map(|p| p.loaded)
    }

    fn write_document(
        &self,
        document: &AnimationSet,
        context: &WriteContext,
    ) -> Result<Written, WriteError> {
        write(
            self,
            lua_reader::read_entries,
            &lua_writer::LuaSyntax,
            document,
            context,
        )
    }
}

/// The first token after spaces and Lua comments, as bytes from there on.
fn after_lua_trivia(bytes: &[u8]) -> &[u8] {
    let mut rest = bytes;
    loop {
        let trimmed = rest.trim_ascii_start();
        if let Some(comment) = trimmed.strip_prefix(b"--") {
            let level = comment
                .strip_prefix(b"[")
                .map(|r| r.iter().take_while(|&&b| b == b'=').count())
                .filter(|&n| comment.get(1 + n) == Some(&b'['));
            rest = match level {
                Some(n) => {
                    let closing: Vec<u8> = [b"]".as_slice(), &vec![b'='; n], b"]"].concat();
                    match comment.windows(closing.len()).position(|w| w == closing) {
                        Some(p) => &comment[p + closing.len()..],
                        None => &[],
                    }
                }
                None => match comment.iter().position(|&b| b == b'\n') {
                    Some(p) => &comment[p..],
                    None => &[],
                },
            };
        } else {
            return trimmed;
        }
    }
}

/// Lua sprite files start with an `animation{` or `animation(` call; an empty file (or one
/// with only comments) may be one.
fn sniff_lua(bytes: &[u8]) -> Sniff {
    let rest = after_lua_trivia(bytes);
    if rest.is_empty() {
        return Sniff::Maybe;
    }
    match rest.strip_prefix(b"animation") {
        Some(call) => {
            let call = after_lua_trivia(call);
            if call.starts_with(b"{") || call.starts_with(b"(") {
                Sniff::Yes
            } else {
                Sniff::No
            }
        }
        None => Sniff::No,
    }
}

/// Legacy files start with `name image nb_directions frame_delay loop_on_frame` followed by a
/// line of at least eight integers.
fn sniff_legacy(bytes: &[u8]) -> Sniff {
    let head = &bytes[..bytes.len().min(4096)];
    let mut lines = head
        .split(|&b| b == b'\n')
        .map(|line| {
            line.split(|b| b.is_ascii_whitespace())
                .filter(|t| !t.is_empty())
                .collect::<Vec<_>>()
        })
        .filter(|tokens| !tokens.is_empty());
    let is_integer = |t: &&[u8]| {
        std::str::from_utf8(t)
            .ok()
            .and_then(|s| s.parse::<i64>().ok())
            .is_some()
    };
    let Some(header) = lines.next() else {
        return if bytes.trim_ascii().is_empty() {
            Sniff::Maybe
        } else {
            Sniff::No
        };
    };
    if header.len() < 5 || !header[2..5].iter().all(is_integer) || header[0].contains(&b'{') {
        return Sniff::No;
    }
    match lines.next() {
        Some(direction) if direction.len() >= 8 && direction[..8].iter().all(is_integer) => {
            Sniff::Yes
        }
        _ => Sniff::Maybe,
    }
}

#[cfg(test)]
mod tests;
