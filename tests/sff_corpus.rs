//! Every SFF in the shared corpus: the index reads and every sprite decodes.

mod common;

use sprat::formats::Severity;
use sprat::formats::sff::{PaletteChoice, SffArchive};
use std::path::Path;

fn archives() -> Vec<(std::path::PathBuf, SffArchive)> {
    let files = common::files_with_extensions(&common::corpus(), &["sff"]);
    assert!(
        files.len() >= 14,
        "expected the corpus SFF files, found {}",
        files.len()
    );
    files
        .into_iter()
        .map(|path| {
            let archive = SffArchive::open(&path)
                .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.message));
            (path, archive)
        })
        .collect()
}

fn name(path: &Path) -> String {
    path.strip_prefix(common::corpus())
        .unwrap()
        .display()
        .to_string()
}

#[test]
fn every_sprite_of_every_corpus_sff_decodes() {
    for (path, archive) in archives() {
        let errors: Vec<_> = archive
            .diagnostics()
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", name(&path));
        assert!(!archive.sprites().is_empty(), "{}", name(&path));
        for (i, result) in archive
            .decode_all(PaletteChoice::Own)
            .into_iter()
            .enumerate()
        {
            let info = &archive.sprites()[i];
            let sprite = result.unwrap_or_else(|e| panic!("{}: {}", name(&path), e.message));
            assert!(
                sprite.warnings.is_empty(),
                "{}: {:?}",
                name(&path),
                sprite.warnings
            );
            assert_eq!(
                (sprite.image.width(), sprite.image.height()),
                (info.width, info.height),
                "{} sprite {},{}",
                name(&path),
                info.group,
                info.image
            );
            assert_eq!(sprite.axis, info.axis);
            // Real art is never all transparent.
            assert!(
                sprite.image.pixels().any(|p| p[3] != 0),
                "{} sprite {},{} is empty",
                name(&path),
                info.group,
                info.image
            );
        }
    }
}
