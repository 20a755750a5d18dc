//! Golden renders of Kung Fu Man, opened from kfm.def with its SFF, through the renderer:
//! action 0 frame 0, and every frame of action 200 with its collision boxes (Clsn1 red,
//! Clsn2 blue, defaults carried over by the MUGEN rule).
//!
//! The pictures are compared pixel for pixel with `tests/golden/mugen/<name>.png`. After an
//! intended change, regenerate them with
//!
//! UPDATE_GOLDEN=1 cargo test --no-default-features --test mugen_render
//!
//! and look at every changed PNG before committing it.

mod common;

use image::RgbaImage;
use sprat::formats::sff::SffStore;
use sprat::formats::{ReadContext, registry};
use sprat::model::{AnimationSet, BoxClass, DefaultBoxRule};
use sprat::render::{
    Background, CanvasBounds, Overlay, RenderOptions, Scene, direction_bounds, render,
};

fn kfm() -> AnimationSet {
    let path = common::corpus().join("mugen/kfm/kfm.def");
    registry()
        .open(&path, &ReadContext::default())
        .unwrap()
        .0
        .document
}

fn has_colour(image: &RgbaImage, rgb: [u8; 3]) -> bool {
    image
        .pixels()
        .any(|p| p[0] == rgb[0] && p[1] == rgb[1] && p[2] == rgb[2])
}

#[test]
fn kfm_standing_action_0_frame_0() {
    let set = kfm();
    let store = SffStore::new();
    let stand = set.sequence_by_name("0").unwrap();
    let scene = Scene::at(&set, stand.id, 0, 0, DefaultBoxRule::ReturnToDefault).unwrap();
    let options = RenderOptions {
        scale: 2,
        background: Background::Colour([40, 40, 48, 255]),
        ..RenderOptions::default()
    };
    let picture = render(&set, &scene, &store, &options);
    // The standing sprite is 47×106 with its axis at (18, 105): the canvas fits it exactly.
    assert_eq!(picture.dimensions(), (94, 212));
    assert!(
        picture.pixels().any(|p| p.0 != [40, 40, 48, 255]),
        "the sprite was drawn"
    );
    check("kfm_action0_frame0", &picture);
}

#[test]
fn kfm_action_200_every_frame_with_boxes() {
    let set = kfm();
    let store = SffStore::new();
    let punch = set.sequence_by_name("200").unwrap();
    let mut options = RenderOptions {
        scale: 2,
        background: Background::Colour([40, 40, 48, 255]),
        overlay: Overlay {
            origin: true,
            boxes: true,
            points: false,
        },
        box_rule: DefaultBoxRule::ReturnToDefault,
        ..RenderOptions::default()
    };
    let bounds = direction_bounds(&set, punch.id, 0, &store, &options).unwrap();
    options.bounds = CanvasBounds::Fixed(bounds);
    let frames = set.direction_frames(punch, 0);
    assert!(frames.len() >= 3, "action 200 has {} frames", frames.len());
    for index in 0..frames.len() {
        let scene = Scene::at(&set, punch.id, 0, index, options.box_rule).unwrap();
        let picture = render(&set, &scene, &store, &options);
        let hurt = scene.boxes.iter().any(|b| b.class == BoxClass::Hurt);
        let hit = scene.boxes.iter().any(|b| b.class == BoxClass::Hit);
        assert!(
            hurt,
            "frame {index}: Clsn2 boxes are in force on every frame"
        );
        assert!(has_colour(&picture, sprat::render::overlay::HURT_COLOUR));
        if !hit {
            assert!(
                !has_colour(&picture, sprat::render::overlay::HIT_COLOUR),
                "frame {index}"
            );
        }
        check(&format!("kfm_action200_frame{index}"), &picture);
    }
}

/// Compares `actual` with its golden image (see `common::check_golden`).
fn check(name: &str, actual: &RgbaImage) {
    common::check_golden("mugen", name, actual);
}
