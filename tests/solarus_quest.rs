//! Sprites converted into a Solarus quest load in the engine as they are: every image they
//! name lies inside the quest's `sprites/` folder (the engine refuses paths with `..`), SFF
//! pictures are drawn onto sheets there, and a conversion that would write an empty sprite is
//! refused whatever the flags.

mod common;

use common::sprat;
use sprat::assets::ImageStore;
use sprat::formats::atlas::frames::render_frame;
use sprat::formats::{ReadContext, WriteContext, registry};
use sprat::model::{AnimationSet, DirectionId, Sequence, SequenceId, TreeItem};
use std::path::{Path, PathBuf};

fn open(path: &Path) -> AnimationSet {
    registry()
        .open(path, &ReadContext::for_path(path))
        .expect("opens")
        .0
        .document
}

/// A quest's sprites folder in a fresh temporary folder.
fn quest() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let sprites = dir.path().join("quest/data/sprites");
    std::fs::create_dir_all(&sprites).unwrap();
    (dir, sprites)
}

/// Every `src_image` value of a Solarus Lua sprite file.
fn src_images(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("src_image = \""))
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn kfm_converts_into_a_quest_with_every_animation_drawn_as_the_character_draws_it() {
    let def = common::corpus().join("mugen/kfm/kfm.def");
    let (_dir, sprites) = quest();
    let out = sprites.join("kfm.dat");
    let (code, info, err) = sprat(&[
        "convert",
        def.to_str().unwrap(),
        out.to_str().unwrap(),
        "--to",
        "solarus-lua",
        "--allow-loss",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(info.contains("with "), "the sheets are listed: {info}");
    let text = std::fs::read_to_string(&out).unwrap();
    let images = src_images(&text);
    assert_eq!(images.len(), 117, "every animation is written");
    for image in &images {
        assert!(!image.contains(".."), "{image}");
        assert!(sprites.join(image).is_file(), "{image} is in sprites/");
    }

    let character = open(&def);
    let written = open(&out);
    let store = ImageStore::new();
    let mut frames = 0;
    for sequence in character.sequences() {
        let copy = written
            .sequences()
            .into_iter()
            .find(|s| s.name == sequence.name)
            .unwrap_or_else(|| panic!("animation {} is written", sequence.name));
        for (d, direction) in sequence.directions.iter().enumerate() {
            let copied = &copy.directions[d].frames;
            assert_eq!(copied.len(), direction.frames.len(), "{}", sequence.name);
            for (f, (a, b)) in direction.frames.iter().zip(copied).enumerate() {
                let drawn = |document: &AnimationSet, id| {
                    let frame = document.frame(id).unwrap();
                    render_frame(document, frame, &store, 1).unwrap()
                };
                let (expected, actual) = (drawn(&character, *a), drawn(&written, *b));
                assert!(
                    expected == actual,
                    "animation {} direction {d} frame {f} is drawn differently",
                    sequence.name
                );
                frames += 1;
            }
        }
    }
    assert!(frames > 600, "{frames}");
}

#[test]
fn the_demo_converted_into_a_quest_names_only_images_inside_it() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat");
    let (_dir, sprites) = quest();
    let out = sprites.join("enemies/demo.dat");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let (code, info, err) = sprat(&[
        "convert",
        demo.to_str().unwrap(),
        out.to_str().unwrap(),
        "--to",
        "solarus-lua",
        "--allow-loss",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(info.contains("demo.png"), "the copy is listed: {info}");
    let text = std::fs::read_to_string(&out).unwrap();
    let images = src_images(&text);
    assert!(!images.is_empty());
    for image in &images {
        assert!(!image.contains(".."), "{image}");
        assert!(image.starts_with("enemies/"), "{image}");
        assert!(sprites.join(image).is_file(), "{image} is in sprites/");
    }
    // The copy is the demo's own sheet, byte for byte.
    let copy = std::fs::read(sprites.join("enemies/demo.png")).unwrap();
    let original = std::fs::read(demo.with_file_name("demo.png")).unwrap();
    assert!(copy == original);
}

/// A document with one sequence and no frame: nothing of it can be a Solarus animation.
fn nothing_writable() -> AnimationSet {
    let mut set = AnimationSet::new();
    let empty = Sequence::new(
        SequenceId(set.alloc_id()),
        "nothing",
        DirectionId(set.alloc_id()),
    );
    set.root.items.push(TreeItem::Sequence(empty));
    set
}

#[test]
fn a_sprite_with_nothing_in_it_is_not_written_whatever_the_flags() {
    let format = registry().by_id("solarus-lua").unwrap();
    let context = WriteContext::for_path("empty.dat");
    let error = format
        .write(&nothing_writable(), &context)
        .expect_err("a sprite with nothing in it is refused");
    assert!(
        error.message.contains("nothing was written"),
        "{}",
        error.message
    );
    assert!(error.message.contains("no frame"), "{}", error.message);
    // An empty document stays an empty sprite: nothing is lost.
    assert!(format.write(&AnimationSet::new(), &context).is_ok());

    let (dir, sprites) = quest();
    let input = dir.path().join("empty.sprat");
    let project = registry().by_id("sprat").unwrap();
    let written = project
        .write(&nothing_writable(), &WriteContext::for_path(&input))
        .unwrap();
    std::fs::write(&input, &written.bytes).unwrap();
    let out = sprites.join("empty.dat");
    let (code, _, err) = sprat(&[
        "convert",
        input.to_str().unwrap(),
        out.to_str().unwrap(),
        "--to",
        "solarus-lua",
        "--allow-loss",
        "--force",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("nothing was written"), "{err}");
    assert!(!out.exists());
}
