//! What engines need of the atlases Sprat writes: frames named by their number, as Phaser's
//! `createFromAseprite` looks them up; other namings from Aseprite's tokens, kept unique in
//! the hash form; the naming of an atlas read in kept; and sheets packed tight and near
//! square (KFM's frames on one sheet at least 88% covered, sides within 2:1).

mod common;

use common::sprat;
use sprat::assets::ImageStore;
use sprat::formats::atlas::{self, AtlasOptions, JsonForm};
use sprat::formats::atlas_json::{names, schema, write_atlas};
use sprat::formats::{ReadContext, Written, registry};
use sprat::model::AnimationSet;
use std::path::{Path, PathBuf};

fn demo_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat")
}

fn open(path: &Path) -> AnimationSet {
    registry()
        .open(path, &ReadContext::for_path(path))
        .expect("opens")
        .0
        .document
}

fn write(document: &AnimationSet, path: &Path, options: &AtlasOptions) -> Written {
    write_atlas(document, &ImageStore::new(), path, options, None).expect("writes")
}

/// The frame names of an atlas JSON in file order, and its tags as (from, to).
fn names_and_tags(bytes: &[u8]) -> (Vec<String>, Vec<(usize, usize)>) {
    let sheet = schema::parse(bytes).expect("parses");
    let names = sheet.frames.list.into_iter().map(|f| f.filename).collect();
    let tags = sheet
        .meta
        .frame_tags
        .iter()
        .map(|t| (t.from, t.to))
        .collect();
    (names, tags)
}

#[test]
fn frames_are_named_by_their_number_in_both_forms() {
    let document = open(&demo_path());
    for form in [JsonForm::Hash, JsonForm::Array] {
        let options = AtlasOptions {
            form,
            ..AtlasOptions::default()
        };
        let written = write(&document, Path::new("demo.json"), &options);
        let (names, tags) = names_and_tags(&written.bytes);
        assert!(!names.is_empty());
        let numbers: Vec<String> = (0..names.len()).map(|i| i.to_string()).collect();
        assert_eq!(names, numbers, "{form:?}");
        // What createFromAseprite does: each tag's frames looked up as String(i).
        for (from, to) in tags {
            assert!((from..=to).all(|i| names.contains(&i.to_string())));
        }
    }
}

#[test]
fn a_pattern_with_aseprite_tokens_names_the_frames() {
    let document = open(&demo_path());
    let options = AtlasOptions {
        frame_names: "{title}/{tag}/{tagframe01}.{extension}".to_string(),
        ..AtlasOptions::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fish.json");
    let written = write(&document, &path, &options);
    let (names, tags) = names_and_tags(&written.bytes);
    let first_tag: &str = &document.sequences()[0].name;
    assert_eq!(names[0], format!("fish/{first_tag}/01.png"));
    let (from, to) = tags[0];
    assert_eq!(
        names[to],
        format!("fish/{first_tag}/{:02}.png", to - from + 1)
    );
    // Reading accepts any naming: the atlas opens again with every sequence.
    std::fs::write(&path, &written.bytes).unwrap();
    for companion in &written.companions {
        std::fs::write(dir.path().join(&companion.relative_path), &companion.bytes).unwrap();
    }
    assert_eq!(open(&path).sequences().len(), document.sequences().len());
}

#[test]
fn a_pattern_naming_two_frames_alike_is_refused_in_the_hash_form_only() {
    let document = open(&demo_path());
    let mut options = AtlasOptions {
        frame_names: "{tag}".to_string(),
        ..AtlasOptions::default()
    };
    let store = ImageStore::new();
    let error = write_atlas(&document, &store, Path::new("demo.json"), &options, None)
        .expect_err("two frames of one tag share a name");
    assert!(error.message.contains("both"), "{}", error.message);
    options.form = JsonForm::Array;
    assert!(write_atlas(&document, &store, Path::new("demo.json"), &options, None).is_ok());
}

#[test]
fn an_atlas_read_in_keeps_its_naming_when_written_again() {
    let document = open(&demo_path());
    let options = AtlasOptions {
        frame_names: "hero-{frame000}.png".to_string(),
        ..AtlasOptions::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hero.json");
    let written = write(&document, &path, &options);
    std::fs::write(&path, &written.bytes).unwrap();
    for companion in &written.companions {
        std::fs::write(dir.path().join(&companion.relative_path), &companion.bytes).unwrap();
    }
    let read = open(&path);
    assert_eq!(names::default_pattern(&read), "hero-{frame000}.png");
    let again = write(
        &read,
        &dir.path().join("other.json"),
        &AtlasOptions::default(),
    );
    let (names, _) = names_and_tags(&again.bytes);
    assert_eq!(names[0], "hero-000.png");
    assert_eq!(names[11], "hero-011.png");
}

#[test]
fn kfm_packs_onto_one_near_square_sheet_at_least_88_percent_covered() {
    let path = common::corpus().join("mugen/kfm/kfm.def");
    let document = open(&path);
    let built = atlas::build(
        &document,
        &ImageStore::new(),
        &AtlasOptions::default(),
        None,
    )
    .unwrap();
    assert_eq!(built.pages.len(), 1);
    let (w, h) = built.pages[0].sheet.dimensions();
    let coverage = built.occupancy();
    println!(
        "kfm: {} distinct frames on {w}x{h}, {:.1}% covered",
        built.pictures.len(),
        coverage * 100.0
    );
    assert!(w <= 2 * h && h <= 2 * w, "{w}x{h}");
    assert!(coverage >= 0.88, "{coverage}");
}

/// Every sheet of the demo and the corpus characters near square; the figures the README
/// states are printed.
#[test]
fn the_demo_and_the_corpus_characters_pack_near_square() {
    let sets = [
        demo_path(),
        common::corpus().join("mugen/kfm720/kfm720.def"),
    ];
    for path in sets {
        let document = open(&path);
        let options = AtlasOptions::default();
        let built = atlas::build(&document, &ImageStore::new(), &options, None).unwrap();
        let sizes: Vec<(u32, u32)> = built.pages.iter().map(|p| p.sheet.dimensions()).collect();
        println!(
            "{}: {} distinct frames on {sizes:?}, {:.1}% covered",
            path.display(),
            built.pictures.len(),
            built.occupancy() * 100.0
        );
        for (w, h) in sizes {
            assert!(w <= 2 * h && h <= 2 * w, "{}: {w}x{h}", path.display());
        }
    }
}

#[test]
fn the_command_line_takes_a_frame_name_pattern_for_atlases_only() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fish.json");
    let demo = demo_path();
    let (demo, out_text) = (demo.to_str().unwrap(), out.to_str().unwrap());
    let (code, _, err) = sprat(&[
        "convert",
        demo,
        out_text,
        "--to",
        "aseprite-json",
        "--allow-loss",
        "--frame-names",
        "{tag}_{tagframe}",
    ]);
    assert_eq!(code, 0, "{err}");
    let (names, _) = names_and_tags(&std::fs::read(&out).unwrap());
    assert!(names[0].ends_with("_0"), "{names:?}");
    let dat = dir.path().join("fish.dat");
    let (code, _, err) = sprat(&[
        "convert",
        demo,
        dat.to_str().unwrap(),
        "--to",
        "solarus-lua",
        "--allow-loss",
        "--frame-names",
        "{frame}",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("--frame-names"), "{err}");
}
