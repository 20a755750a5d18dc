//! Every corpus file that opens as a document renders every frame of every direction, with the
//! overlay, through the real [`ImageStore`] (PNG sheets, SFF archives) without a panic; and the
//! pixels the files name are found.

mod common;

use sprat::assets::ImageStore;
use sprat::export::{export_gif, timeline::timeline};
use sprat::formats::{ReadContext, registry};
use sprat::model::{AnimationSet, ExactTime, FrameDuration, GraphicSource};
use sprat::pixels::PixelSource;
use sprat::render::{Overlay, RenderOptions, Scene, render};
use std::path::Path;

/// Graphics drawn and graphics whose pixels were found, over one document.
#[derive(Default, Debug)]
struct Tally {
    graphics: usize,
    found: usize,
}

fn open(path: &Path) -> Option<AnimationSet> {
    let (loaded, _) = registry().open(path, &ReadContext::for_path(path)).ok()?;
    Some(loaded.document)
}

/// Renders every frame of every direction of every sequence of `document`.
fn render_everything(document: &AnimationSet, store: &ImageStore) -> Tally {
    let mut tally = Tally::default();
    let options = RenderOptions {
        overlay: Overlay::ALL,
        ..RenderOptions::default()
    };
    for sequence in document.sequences() {
        for direction in 0..sequence.directions.len() {
            for index in 0..sequence.directions[direction].frames.len() {
                let scene =
                    Scene::at(document, sequence.id, direction, index, options.box_rule).unwrap();
                for graphic in scene.frame.elements.iter().filter_map(|e| e.as_graphic()) {
                    if graphic.source.is_blank() {
                        continue;
                    }
                    tally.graphics += 1;
                    if store.pixels(document, &graphic.source).is_some() {
                        tally.found += 1;
                    }
                }
                let image = render(document, &scene, store, &options);
                assert!(image.width() > 0 && image.height() > 0);
            }
        }
    }
    tally
}

fn render_folder(folder: &str, extensions: &[&str]) -> Tally {
    let root = common::corpus().join(folder);
    let store = ImageStore::new();
    let mut total = Tally::default();
    for path in common::files_with_extensions(&root, extensions) {
        let Some(document) = open(&path) else {
            continue;
        };
        let tally = render_everything(&document, &store);
        total.graphics += tally.graphics;
        total.found += tally.found;
    }
    total
}

#[test]
fn every_solarus_sprite_renders_and_finds_its_sheets() {
    let tally = render_folder("solarus", &["dat", "zsd"]);
    assert!(tally.graphics > 0, "{tally:?}");
    // Sheets missing from the corpus (and the `tileset` placeholder, which needs a choice) are
    // the only misses; most sheets are there.
    assert!(tally.found * 2 > tally.graphics, "{tally:?}");
}

#[test]
fn every_mugen_action_renders_with_its_sff_sprites() {
    let tally = render_folder("mugen", &["def"]);
    assert!(tally.graphics > 0, "{tally:?}");
    assert!(tally.found * 10 > tally.graphics * 9, "{tally:?}");
}

#[test]
fn adl_files_render_without_their_images() {
    // The corpus has no ADL body-part images (they live in Git LFS): rendering must still work.
    let tally = render_folder("adl", &["properties"]);
    assert_eq!(tally.found, 0, "{tally:?}");
}

#[test]
fn kfm_standing_is_drawn_and_its_gif_keeps_the_exact_tick_count() {
    let path = common::corpus().join("mugen/kfm/kfm.def");
    let document = open(&path).expect("kfm.def opens");
    let stand = document.sequence_by_name("0").expect("action 0");
    let store = ImageStore::new();
    let scene = Scene::at(&document, stand.id, 0, 0, Default::default()).unwrap();
    let image = render(&document, &scene, &store, &RenderOptions::default());
    assert!(
        image.pixels().any(|p| p.0[3] == 255),
        "kfm's stance has pixels"
    );
    // The GIF lasts the action's ticks, rounded once to the nearest centisecond.
    let pass = timeline(&document, stand.id, 0).unwrap();
    let ticks: u64 = pass
        .steps
        .iter()
        .filter_map(|s| s.length)
        .map(|t: ExactTime| {
            assert_eq!(t.denominator, 60);
            t.numerator
        })
        .sum();
    let frames = &stand.directions[0].frames;
    let declared: u64 = frames
        .iter()
        .map(|id| match document.frame(*id).unwrap().duration {
            FrameDuration::Ticks(t) => t as u64,
            other => panic!("AIR frames count ticks, not {other:?}"),
        })
        .sum();
    assert_eq!(ticks, declared);
    let gif = export_gif(
        &document,
        stand.id,
        0,
        &store,
        &RenderOptions::default(),
        None,
    )
    .unwrap();
    assert_eq!(gif.total_centiseconds, (ticks * 100 + 30) / 60);
    assert!(gif.repeats);
}

#[test]
fn sff_sprites_come_through_the_image_store() {
    let path = common::corpus().join("mugen/kfm/kfm.def");
    let document = open(&path).expect("kfm.def opens");
    let store = ImageStore::new();
    let sprite = document
        .frames
        .values()
        .flat_map(|f| f.elements.iter())
        .filter_map(|e| e.as_graphic())
        .find(|g| {
            matches!(
                g.source,
                GraphicSource::SffSprite {
                    group: 0,
                    image: 0,
                    ..
                }
            )
        })
        .expect("kfm uses sprite 0,0");
    let pixels = store.pixels(&document, &sprite.source).unwrap();
    assert!(pixels.axis != (0, 0), "SFF sprites carry their axis");
    assert!(store.problem(&document, &sprite.source).is_none());
}
