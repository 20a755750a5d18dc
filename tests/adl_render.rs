//! Golden renders of the ADL demo character through the real renderer and image store.
//!
//! To regenerate the PNGs in `tests/golden/adl/` after an intended change, run
//! `UPDATE_GOLDEN=1 cargo test --no-default-features --test adl_render` and look at them.

mod common;

use image::RgbaImage;
use sprat::assets::ImageStore;
use sprat::export::png::strip_image;
use sprat::formats::adl::{AdlFormat, SheetLayout, game_sheet_layout};
use sprat::formats::{Format, ReadContext};
use sprat::model::AnimationSet;
use sprat::render::{Background, CanvasBounds, Overlay, RenderOptions};
use std::path::Path;

fn demo() -> AnimationSet {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/adl/mods/sprat/sprites/pip.properties");
    let bytes = std::fs::read(&path).unwrap();
    AdlFormat
        .read(&bytes, &ReadContext::for_path(&path))
        .unwrap()
        .document
}

/// The game's assembled sheet: each frame rendered into its cell, the cell showing sprite space
/// from `-origin_in_cell` on.
fn game_sheet(document: &AnimationSet, layout: &SheetLayout, store: &ImageStore) -> RgbaImage {
    sprat::export::game_sheet_image(document, layout, store, &RenderOptions::default()).unwrap()
}

#[test]
fn the_game_sheet_places_parts_as_the_game_does() {
    let document = demo();
    let store = ImageStore::new();
    let layout = game_sheet_layout(&document).unwrap();
    let sheet = game_sheet(&document, &layout, &store);
    // Rule 11: HEAD (anchor 5,8) on joint 0,19 in a 48-pixel-high cell with ORIGINX 12 has its
    // top-left at (12 + 0 - 5, 48 - 1 - (19 + 8)) = (7, 20) in ANIM_IDLE_1 (row 1, column 1).
    let head = image::open(document.images[0].resolved.clone().unwrap())
        .unwrap()
        .into_rgba8();
    assert_eq!(
        document.images[0].path,
        "mods/sprat/sprites/pip/pip_head.tga"
    );
    for (x, y, pixel) in head.enumerate_pixels() {
        assert_eq!(sheet.get_pixel(7 + x, 20 + y), pixel, "head pixel {x},{y}");
    }
    assert_eq!(sheet.get_pixel(6, 20)[3], 0, "nothing left of the head");
    check("pip_game_sheet", &sheet);
}

#[test]
fn strips_of_the_walk_and_the_idle() {
    let document = demo();
    let store = ImageStore::new();
    let options = RenderOptions {
        scale: 3,
        background: Background::Colour([48, 52, 64, 255]),
        bounds: CanvasBounds::FitWithMargin(2),
        overlay: Overlay {
            origin: true,
            boxes: false,
            points: true,
        },
        ..RenderOptions::default()
    };
    for name in ["ANIM_WALK", "ANIM_IDLE"] {
        let sequence = document.sequence_by_name(name).unwrap().id;
        let strip = strip_image(&document, sequence, 0, None, &store, &options).unwrap();
        check(&format!("pip_{}", name.to_lowercase()), &strip);
    }
}

/// Compares `actual` with its golden image (see `common::check_golden`).
fn check(name: &str, actual: &RgbaImage) {
    common::check_golden("adl", name, actual);
}
