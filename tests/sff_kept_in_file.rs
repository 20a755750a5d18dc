//! An SFF archive kept in its file: only the index is held, each sprite's bytes are read from
//! the open file when it is decoded. It decodes exactly as the archive held in memory, edits
//! and saves alike, and a file changed in place is refused rather than read as what it no
//! longer is. (Only on Unix: on Windows an open file cannot be replaced by a rename, as saves
//! do, so archives are held in memory there.)

#![cfg(unix)]

mod common;

use sprat::formats::sff::edited::EditableSff;
use sprat::formats::sff::write::write_sff;
use sprat::formats::sff::{KEPT_IN_FILE_FROM, PaletteChoice, SffArchive};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn corpus_archives() -> Vec<PathBuf> {
    let files = common::files_with_extensions(&common::corpus(), &["sff"]);
    assert!(files.len() >= 14, "expected the corpus SFF files");
    files
}

/// A sprite decoded: its pixels, axis and how many warnings were said; or the error.
type Decoded = Result<(Vec<u8>, (i32, i32), usize), String>;

/// The outcome of decoding every sprite.
fn decoded(archive: &SffArchive) -> Vec<Decoded> {
    archive
        .decode_all(PaletteChoice::Own)
        .into_iter()
        .map(|r| {
            r.map(|s| (s.image.into_raw(), s.axis, s.warnings.len()))
                .map_err(|e| e.message)
        })
        .collect()
}

#[test]
fn every_corpus_archive_kept_in_its_file_decodes_as_held_in_memory() {
    for path in corpus_archives() {
        let held = SffArchive::parse(std::fs::read(&path).unwrap()).unwrap();
        let kept = SffArchive::open_kept_in_file(&path).unwrap();
        assert!(kept.is_kept_in_file(), "{}", path.display());
        assert!(kept.bytes().is_none());
        assert_eq!(kept.file_len(), held.bytes().unwrap().len() as u64);
        assert_eq!(kept.sprites(), held.sprites(), "{}", path.display());
        assert_eq!(decoded(&kept), decoded(&held), "{}", path.display());
        for i in 0..held.sprites().len() {
            assert_eq!(kept.stored_bytes(i), held.stored_bytes(i));
        }
    }
}

#[test]
fn an_archive_kept_in_its_file_is_edited_and_saved_from_its_bytes_read_again() {
    for path in corpus_archives() {
        let original = std::fs::read(&path).unwrap();
        let kept = Arc::new(SffArchive::open_kept_in_file(&path).unwrap());
        let sff = EditableSff::from_archive(Arc::clone(&kept)).unwrap();
        assert_eq!(write_sff(&sff).unwrap(), original, "{}", path.display());
        let held = SffArchive::parse(original.clone()).unwrap();
        let mut from_kept = sff;
        let mut from_held = EditableSff::from_archive(Arc::new(held)).unwrap();
        let first = kept.sprites()[0].clone();
        for sff in [&mut from_kept, &mut from_held] {
            sff.set_axis(first.group, first.image, (3, -4)).unwrap();
        }
        assert_eq!(
            write_sff(&from_kept).unwrap(),
            write_sff(&from_held).unwrap(),
            "{}",
            path.display()
        );
    }
}

/// A writable copy of the corpus's first archive in `dir`, and its bytes.
fn copy_of_an_archive(dir: &Path) -> (PathBuf, Vec<u8>) {
    let from = &corpus_archives()[0];
    let to = dir.join("copy.sff");
    common::copy_writable(from, &to);
    let bytes = std::fs::read(&to).unwrap();
    (to, bytes)
}

#[test]
fn a_file_changed_in_place_is_refused_not_decoded_as_other_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let (path, mut bytes) = copy_of_an_archive(dir.path());
    let kept = Arc::new(SffArchive::open_kept_in_file(&path).unwrap());
    assert!(kept.decode(0, PaletteChoice::Own).is_ok());
    // Another program writes over the sprites' data in place, same length.
    for b in &mut bytes[600..] {
        *b = b.wrapping_add(1);
    }
    std::fs::write(&path, &bytes).unwrap();
    // The file's time may not have moved within its resolution; its length then tells.
    let longer = [bytes.as_slice(), &[0u8; 3]].concat();
    std::fs::write(&path, &longer).unwrap();
    let error = kept.decode(0, PaletteChoice::Own).unwrap_err();
    assert!(
        error.message.contains("changed on disk since it was read"),
        "{}",
        error.message
    );
    let Err(refused) = EditableSff::from_archive(kept) else {
        panic!("editing a changed file is refused")
    };
    assert!(
        refused
            .message
            .contains("changed on disk since it was read"),
        "{}",
        refused.message
    );
}

#[test]
fn a_file_replaced_by_another_keeps_showing_the_sprites_read() {
    let dir = tempfile::tempdir().unwrap();
    let (path, bytes) = copy_of_an_archive(dir.path());
    let kept = SffArchive::open_kept_in_file(&path).unwrap();
    let before = decoded(&kept);
    // A save by renaming a new file over the old one (as Sprat's own saves do).
    let other = dir.path().join("other.sff");
    std::fs::write(&other, b"not an archive at all").unwrap();
    std::fs::rename(&other, &path).unwrap();
    assert_eq!(decoded(&kept), before);
    assert_eq!(
        EditableSff::from_archive(Arc::new(kept))
            .map(|sff| write_sff(&sff).unwrap())
            .unwrap(),
        bytes
    );
}

#[test]
fn a_large_archive_is_kept_in_its_file_and_a_small_one_held() {
    let dir = tempfile::tempdir().unwrap();
    let (small, bytes) = copy_of_an_archive(dir.path());
    let held = SffArchive::open(&small).unwrap();
    assert!(!held.is_kept_in_file());
    assert_eq!(held.bytes(), Some(bytes.as_slice()));
    // The same archive with data after its end, past the size from which archives stay in
    // their file.
    let large = dir.path().join("large.sff");
    let padding = vec![0u8; KEPT_IN_FILE_FROM as usize + 1 - bytes.len()];
    std::fs::write(&large, [bytes.as_slice(), &padding].concat()).unwrap();
    let (kept, read) = SffArchive::read(&large).unwrap();
    assert!(kept.is_kept_in_file());
    assert_eq!(read.len() as u64, KEPT_IN_FILE_FROM + 1);
    assert_eq!(decoded(&kept), decoded(&held));
}
