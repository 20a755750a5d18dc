//! Every corpus file of every other format (and the demo set) converts to ISPRITE, reads back
//! without errors with its sequences and timing, and every truncation of the result is an error.

mod common;

use sprat::assets::ImageStore;
use sprat::formats::isprite::IspriteFormat;
use sprat::formats::sff::SffStore;
use sprat::formats::{Format, ReadContext, WriteContext, has_errors, registry};
use sprat::model::{AnimationSet, FrameDuration, GraphicSource, TreeItem};
use sprat::pixels::{PixelSource, SourcePixels};
use std::path::{Path, PathBuf};

struct Pixels {
    sff: SffStore,
    files: ImageStore,
}

impl PixelSource for Pixels {
    fn pixels(&self, document: &AnimationSet, source: &GraphicSource) -> Option<SourcePixels> {
        match source {
            GraphicSource::SffSprite { .. } => self.sff.pixels(document, source),
            _ => self.files.pixels(document, source),
        }
    }
}

fn sources() -> Vec<PathBuf> {
    let mut files = common::files_with_extensions(
        &common::corpus(),
        &["dat", "zsd", "def", "air", "properties"],
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    files.push(root.join("assets/demo/demo.sprat"));
    files.push(root.join("assets/adl/mods/sprat/sprites/pip.properties"));
    files
}

/// Names of every group and sequence in the tree.
fn tree_names(doc: &AnimationSet) -> Vec<String> {
    fn walk(items: &[TreeItem], out: &mut Vec<String>) {
        for item in items {
            match item {
                TreeItem::Group(g) => {
                    out.push(g.name.clone());
                    walk(&g.items, out);
                }
                TreeItem::Sequence(s) => out.push(s.name.clone()),
            }
        }
    }
    let mut out = Vec::new();
    walk(&doc.root.items, &mut out);
    out
}

#[test]
fn every_other_format_converts_and_reads_back() {
    let scratch_dir = tempfile::tempdir().unwrap();
    let scratch = scratch_dir.path();
    let pixels = Pixels {
        sff: SffStore::new(),
        files: ImageStore::new(),
    };
    let mut converted = 0;
    let mut smallest: Option<(usize, Vec<u8>, PathBuf)> = None;
    for path in sources() {
        let Ok((loaded, format)) = registry().open(&path, &ReadContext::default()) else {
            continue; // Not an animation file (stage and font .def files, tilesets).
        };
        if format.id() == IspriteFormat.id() || loaded.document.sequences().is_empty() {
            continue;
        }
        let source = loaded.document;
        let out = scratch.join(format!("{converted}.isprite"));
        let context = WriteContext {
            path: Some(out.clone()),
            pixels: Some(&pixels),
        };
        let written = IspriteFormat
            .write(&source, &context)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let back = IspriteFormat
            .read(&written.bytes, &ReadContext::default())
            .unwrap_or_else(|f| panic!("{}: {:?}", path.display(), f.diagnostics));
        assert!(
            !has_errors(&back.diagnostics),
            "{}: {:?}",
            path.display(),
            back.diagnostics
        );
        let doc = back.document;
        let names = tree_names(&doc);
        for sequence in source.sequences() {
            assert!(
                names.contains(&sequence.name),
                "{}: sequence \"{}\" is missing",
                path.display(),
                sequence.name
            );
        }
        assert!(doc.frame_rate.is_some_and(|r| r > 0), "{}", path.display());
        for frame in doc.frames.values() {
            assert!(
                matches!(frame.duration, FrameDuration::Holds(h) if h > 0),
                "{}",
                path.display()
            );
        }
        // Writing the read-back file again gives the same bytes.
        let again = IspriteFormat.write(&doc, &WriteContext::default()).unwrap();
        assert_eq!(again.bytes, written.bytes, "{}", path.display());
        if smallest
            .as_ref()
            .is_none_or(|(n, _, _)| written.bytes.len() < *n)
        {
            smallest = Some((written.bytes.len(), written.bytes.clone(), path.clone()));
        }
        converted += 1;
    }
    assert!(converted >= 10, "only {converted} files converted");
    let (_, bytes, path) = smallest.expect("something converted");
    for len in 0..bytes.len() {
        assert!(
            IspriteFormat
                .read(&bytes[..len], &ReadContext::default())
                .is_err(),
            "{}: {len} bytes",
            path.display()
        );
    }
}
