//! The shared rule behind byte-exact saving: when a document still equals what its original
//! bytes read to, those bytes are the answer.

use super::{Format, ReadContext, WriteContext};
use crate::model::{AnimationSet, ImageKind, OriginalSource, PaletteSource, SourceImage};

/// The original bytes of `document` if it was read by `format` and has not been changed since,
/// and the output goes to the same folder (so relative paths still hold).
///
/// [`Format::write`] applies this for every format whose [`super::Baseline`] is shared, before
/// the format's writer runs; the per-edit preservation (only touched text changes) is each
/// format's own work.
pub fn unchanged_original<F: Format + ?Sized>(
    format: &F,
    document: &AnimationSet,
    context: &WriteContext,
) -> Option<Vec<u8>> {
    let original = format.own_original(document)?;
    if !written_beside(original, context) {
        return None;
    }
    let read_context = ReadContext {
        path: original.path.clone(),
        ..ReadContext::default()
    };
    let reread = format.read(&original.bytes, &read_context).ok()?;
    same_content(&reread.document, document).then(|| original.bytes.as_ref().clone())
}

/// Whether the output goes to the folder `original` was read from (or either is unknown), so
/// the relative paths its bytes spell still lead where they did.
pub fn written_beside(original: &OriginalSource, context: &WriteContext) -> bool {
    match (&original.path, &context.path) {
        (Some(read), Some(written)) => read.parent() == written.parent(),
        _ => true,
    }
}

/// True when two documents hold the same content, ignoring where images were found on disk
/// and user choices that are not part of the file (the Solarus tileset pick, the palette).
/// Compared field by field rather than on cleaned copies: this runs on every save.
pub fn same_content(a: &AnimationSet, b: &AnimationSet) -> bool {
    // Destructured in full, so a new field cannot be forgotten here.
    let AnimationSet {
        metadata,
        frame_rate,
        images,
        slices,
        root,
        frames,
        default_sequence,
        next_id,
        original: _,
        companion_originals,
        edited_files,
    } = a;
    *metadata == b.metadata
        && *frame_rate == b.frame_rate
        && *next_id == b.next_id
        && *default_sequence == b.default_sequence
        && images.len() == b.images.len()
        && images.iter().zip(&b.images).all(|(x, y)| same_image(x, y))
        && *slices == b.slices
        && *root == b.root
        && *frames == b.frames
        && *companion_originals == b.companion_originals
        && *edited_files == b.edited_files
}

/// Two images alike but for where they were found, the tileset picked and the palette shown.
fn same_image(a: &SourceImage, b: &SourceImage) -> bool {
    let SourceImage {
        id,
        path,
        resolved: _,
        kind,
        nearest_neighbour,
    } = a;
    let same_kind = match (kind, &b.kind) {
        (ImageKind::File, ImageKind::File) => true,
        (ImageKind::SolarusTileset { .. }, ImageKind::SolarusTileset { .. }) => true,
        (ImageKind::Sff { palettes: x, .. }, ImageKind::Sff { palettes: y, .. }) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_palette(p, q))
        }
        _ => false,
    };
    *id == b.id && *path == b.path && *nearest_neighbour == b.nearest_neighbour && same_kind
}

/// Two palettes alike but for where an `.act` file was found.
fn same_palette(a: &PaletteSource, b: &PaletteSource) -> bool {
    match (a, b) {
        (PaletteSource::Embedded(x), PaletteSource::Embedded(y)) => x == y,
        (PaletteSource::ActFile { path: x, .. }, PaletteSource::ActFile { path: y, .. }) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ImageId;

    fn with_archive(palettes: Vec<PaletteSource>, active_palette: Option<usize>) -> AnimationSet {
        let mut set = AnimationSet::new();
        set.images.push(SourceImage {
            id: ImageId(1),
            path: "kfm.sff".into(),
            resolved: None,
            kind: ImageKind::Sff {
                palettes,
                active_palette,
            },
            nearest_neighbour: true,
        });
        set
    }

    fn act(path: &str, resolved: Option<&str>) -> PaletteSource {
        PaletteSource::ActFile {
            path: path.into(),
            resolved: resolved.map(Into::into),
        }
    }

    #[test]
    fn the_palette_shown_and_where_files_were_found_do_not_count() {
        let read = with_archive(vec![act("kfm.act", None), PaletteSource::Embedded(0)], None);
        let mut shown = with_archive(
            vec![
                act("kfm.act", Some("/chars/kfm/kfm.act")),
                PaletteSource::Embedded(0),
            ],
            Some(1),
        );
        shown.images[0].resolved = Some("/chars/kfm/kfm.sff".into());
        assert!(same_content(&read, &shown));

        let other_act = with_archive(
            vec![act("kfm2.act", None), PaletteSource::Embedded(0)],
            None,
        );
        let fewer = with_archive(vec![act("kfm.act", None)], None);
        let file = {
            let mut set = read.clone();
            set.images[0].kind = ImageKind::File;
            set
        };
        for different in [&other_act, &fewer, &file] {
            assert!(!same_content(&read, different));
        }
    }
}
