//! Golden-image tests of the software renderer.
//!
//! Every test builds a small document and its pixels in code, renders it and compares the
//! result pixel for pixel with `tests/golden/render/<name>.png`.
//!
//! To regenerate the PNGs after an intended change of the renderer, run
//!
//! ```text
//! UPDATE_GOLDEN=1 cargo test --no-default-features --test render_golden
//! ```
//!
//! then look at every changed PNG before committing it: the golden files are the specification.

mod common;

use image::{Rgba, RgbaImage};
use sprat::model::*;
use sprat::pixels::{PixelSource, SourcePixels};
use sprat::render::{Background, CanvasBounds, Overlay, RenderOptions, Scene, SpriteRect, render};
use std::collections::HashMap;
use std::sync::Arc;

/// The test sprite: a 6×4 image, every pixel a different colour, the top-left one white and
/// the bottom-right one transparent, so any flip or turn shows.
fn sprite() -> RgbaImage {
    RgbaImage::from_fn(6, 4, |x, y| match (x, y) {
        (0, 0) => Rgba([255, 255, 255, 255]),
        (5, 3) => Rgba([0, 0, 0, 0]),
        _ => Rgba([
            (40 * x + 30) as u8,
            (60 * y + 40) as u8,
            (200 - 30 * x) as u8,
            255,
        ]),
    })
}

/// A 10×10 opaque backdrop: a grey ramp left to right with darker rows below.
fn backdrop() -> RgbaImage {
    RgbaImage::from_fn(10, 10, |x, y| {
        let v = (40 + 20 * x - 2 * y) as u8;
        Rgba([v, v / 2 + 60, 200 - v / 2, 255])
    })
}

const SPRITE: ImageId = ImageId(1);
const SPRITE_SMOOTH: ImageId = ImageId(2);
const BACKDROP: ImageId = ImageId(3);
const ARCHIVE: ImageId = ImageId(4);

/// Pixels by image id; SFF sprites get the test sprite with the axis (1, 3).
struct TestPixels(HashMap<ImageId, Arc<RgbaImage>>);

impl TestPixels {
    fn new() -> TestPixels {
        let sprite = Arc::new(sprite());
        TestPixels(HashMap::from([
            (SPRITE, sprite.clone()),
            (SPRITE_SMOOTH, sprite),
            (BACKDROP, Arc::new(backdrop())),
        ]))
    }
}

impl PixelSource for TestPixels {
    fn pixels(&self, _: &AnimationSet, source: &GraphicSource) -> Option<SourcePixels> {
        let (id, axis) = match source {
            GraphicSource::Image(id) => (*id, (0, 0)),
            GraphicSource::SffSprite { .. } => (SPRITE, (1, 3)),
            GraphicSource::Slice(_) => return None,
        };
        Some(SourcePixels {
            image: self.0.get(&id)?.clone(),
            axis,
        })
    }
}

/// A document that knows the test images (the smooth one is not pixel art).
fn document() -> AnimationSet {
    let mut set = AnimationSet::new();
    for (id, nearest) in [
        (SPRITE, true),
        (SPRITE_SMOOTH, false),
        (BACKDROP, true),
        (ARCHIVE, true),
    ] {
        set.images.push(SourceImage {
            id,
            path: format!("image{}.png", id.0),
            resolved: None,
            kind: ImageKind::File,
            nearest_neighbour: nearest,
        });
    }
    set.next_id = 100;
    set
}

/// The test sprite with its pivot at (2, 1), placed at the origin.
fn graphic(image: ImageId) -> Graphic {
    Graphic::new(
        GraphicSource::Image(image),
        Point::from_ints(0, 0),
        Origin::At(Point::from_ints(2, 1)),
    )
}

fn frame(kinds: Vec<ElementKind>) -> Frame {
    let mut frame = Frame::new(FrameDuration::Ticks(5));
    for (i, kind) in kinds.into_iter().enumerate() {
        frame.elements.push(Element {
            id: ElementId(i as u64 + 1),
            name: Name::default(),
            kind,
        });
    }
    frame
}

fn render_one(kinds: Vec<ElementKind>, options: RenderOptions) -> RgbaImage {
    let set = document();
    let frame = frame(kinds);
    render(&set, &Scene::of_frame(&frame), &TestPixels::new(), &options)
}

/// The sprite alone with `change` applied, on a fixed 16×16 view centred on the origin, at
/// scale 4 on a dark background, so every transform is seen against the same frame.
fn transformed(change: impl FnOnce(&mut Graphic)) -> RgbaImage {
    let mut g = graphic(SPRITE);
    change(&mut g);
    let options = RenderOptions {
        scale: 4,
        background: Background::Colour([20, 20, 30, 255]),
        bounds: CanvasBounds::Fixed(SpriteRect {
            x: -8,
            y: -8,
            width: 16,
            height: 16,
        }),
        overlay: Overlay {
            origin: true,
            ..Overlay::NONE
        },
        ..RenderOptions::default()
    };
    render_one(vec![ElementKind::Graphic(g)], options)
}

#[test]
fn plain_sprite_fits_its_pixels_exactly() {
    let image = render_one(
        vec![ElementKind::Graphic(graphic(SPRITE))],
        RenderOptions::default(),
    );
    // Fit to content is the sprite itself, unchanged.
    assert_eq!(image, sprite());
    check("plain", &image);
}

#[test]
fn canvas_scale_enlarges_every_pixel_to_a_square() {
    let options = RenderOptions {
        scale: 3,
        ..RenderOptions::default()
    };
    let image = render_one(vec![ElementKind::Graphic(graphic(SPRITE))], options);
    assert_eq!(image.get_pixel(2, 2), sprite().get_pixel(0, 0));
    assert_eq!(image.get_pixel(3, 2), sprite().get_pixel(1, 0));
    check("canvas_scale_3", &image);
}

#[test]
fn flip_horizontal_mirrors_about_the_origin() {
    check("flip_h", &transformed(|g| g.flip_h = true));
}

#[test]
fn flip_vertical_mirrors_about_the_origin() {
    check("flip_v", &transformed(|g| g.flip_v = true));
}

#[test]
fn flip_both_is_a_half_turn() {
    let both = transformed(|g| {
        g.flip_h = true;
        g.flip_v = true;
    });
    assert_eq!(both, transformed(|g| g.rotation = 180.0));
    check("flip_hv", &both);
}

#[test]
fn rotation_90_turns_clockwise_about_the_origin_exactly() {
    let mut g = graphic(SPRITE);
    g.rotation = 90.0;
    // Fit to content: exactly the sprite turned a quarter clockwise, not a pixel lost.
    let fitted = render_one(vec![ElementKind::Graphic(g)], RenderOptions::default());
    assert_eq!(fitted, image::imageops::rotate90(&sprite()));
    check("rotate_90", &transformed(|g| g.rotation = 90.0));
}

#[test]
fn rotation_45_nearest_neighbour() {
    check("rotate_45", &transformed(|g| g.rotation = 45.0));
}

#[test]
fn rotation_45_bilinear_for_smooth_images() {
    check(
        "rotate_45_bilinear",
        &transformed(|g| {
            g.source = GraphicSource::Image(SPRITE_SMOOTH);
            g.rotation = 45.0;
        }),
    );
}

#[test]
fn scale_2_doubles_about_the_origin() {
    check(
        "scale_2",
        &transformed(|g| {
            g.scale_x = 2.0;
            g.scale_y = 2.0;
        }),
    );
}

#[test]
fn scale_half_samples_every_other_pixel() {
    check(
        "scale_half",
        &transformed(|g| {
            g.scale_x = 0.5;
            g.scale_y = 0.5;
        }),
    );
}

#[test]
fn sff_axis_is_the_pivot() {
    check(
        "sff_axis",
        &transformed(|g| {
            g.source = GraphicSource::SffSprite {
                archive: ARCHIVE,
                group: 0,
                image: 0,
            };
            g.origin = Origin::SourceAxis;
            g.position = Point::from_ints(1, -1);
        }),
    );
}

#[test]
fn sub_pixel_position_uses_the_fixed_point_exactly() {
    // Half a pixel right at scale 4 is exactly two canvas pixels.
    let shifted = transformed(|g| g.position.x = Fx(128));
    let whole = transformed(|_| {});
    assert_eq!(shifted.get_pixel(26, 34), whole.get_pixel(24, 34));
    assert_ne!(shifted, whole);
    check("subpixel", &shifted);
}

/// The sprite drawn with `blend` and `opacity` over the backdrop.
fn blended(blend: BlendMode, opacity: u16) -> RgbaImage {
    let mut back = graphic(BACKDROP);
    back.origin = Origin::At(Point::from_ints(5, 5));
    let mut top = graphic(SPRITE);
    top.blend = blend;
    top.opacity = opacity;
    let options = RenderOptions {
        scale: 2,
        ..RenderOptions::default()
    };
    render_one(
        vec![ElementKind::Graphic(back), ElementKind::Graphic(top)],
        options,
    )
}

#[test]
fn opacity_half_mixes_with_what_is_under() {
    check("opacity_half", &blended(BlendMode::Normal, 0x8000));
}

#[test]
fn blend_normal() {
    check("blend_normal", &blended(BlendMode::Normal, OPAQUE));
}

#[test]
fn blend_add() {
    let mode = BlendMode::Add {
        source: 256,
        destination: 256,
    };
    check("blend_add", &blended(mode, OPAQUE));
}

#[test]
fn blend_add_a1_halves_the_destination() {
    let mode = BlendMode::Add {
        source: 256,
        destination: 128,
    };
    check("blend_add_a1", &blended(mode, OPAQUE));
}

#[test]
fn blend_add_with_source_factor() {
    let mode = BlendMode::Add {
        source: 64,
        destination: 256,
    };
    check("blend_add_s64_d256", &blended(mode, OPAQUE));
}

#[test]
fn blend_subtract() {
    check("blend_subtract", &blended(BlendMode::Subtract, OPAQUE));
}

fn collision(class: BoxClass, shape: Shape) -> ElementKind {
    ElementKind::Box(CollisionBox {
        class,
        shape,
        box_id: 0,
        corners: None,
    })
}

fn rect(x: i32, y: i32, width: i32, height: i32, rotation: f64) -> Shape {
    Shape::Rect {
        x: Fx::from_int(x),
        y: Fx::from_int(y),
        width: Fx::from_int(width),
        height: Fx::from_int(height),
        rotation,
    }
}

fn point(x: i32, y: i32, rotation: f64) -> ElementKind {
    let mut p = AttachmentPoint::at(Point::from_ints(x, y));
    p.rotation = rotation;
    ElementKind::Point(p)
}

#[test]
fn overlay_draws_every_box_kind_points_and_the_origin() {
    let kinds = vec![
        ElementKind::Graphic(graphic(SPRITE)),
        collision(BoxClass::Hurt, rect(-3, -2, 8, 6, 0.0)),
        collision(BoxClass::Hit, rect(4, -4, 5, 2, 0.0)),
        collision(BoxClass::Hit, rect(-6, 3, 4, 2, 30.0)),
        collision(
            BoxClass::Custom("shield".into()),
            Shape::Circle {
                center: Point::from_ints(-5, -4),
                radius: Fx::from_int(2),
            },
        ),
        collision(BoxClass::Custom("push".into()), rect(1, 5, 0, 3, 0.0)),
        point(6, 2, 0.0),
        point(-2, 6, 135.0),
    ];
    let options = RenderOptions {
        scale: 4,
        background: Background::Colour([40, 40, 40, 255]),
        bounds: CanvasBounds::FitWithMargin(2),
        overlay: Overlay::ALL,
        ..RenderOptions::default()
    };
    let image = render_one(kinds, options);
    check("overlay_all", &image);
}

#[test]
fn overlay_uses_air_default_boxes_from_earlier_frames() {
    let mut set = document();
    let mut first = frame(vec![collision(BoxClass::Hurt, rect(-4, -6, 8, 6, 0.0))]);
    first.box_declarations.push(BoxDeclaration {
        class: BoxClass::Hurt,
        scope: BoxScope::FromHereOn,
    });
    let second = frame(vec![ElementKind::Graphic(graphic(SPRITE))]);
    set.frames.insert(FrameId(10), first);
    set.frames.insert(FrameId(11), second);
    let mut sequence = Sequence::new(SequenceId(20), "stand", DirectionId(21));
    sequence.directions[0].frames = vec![FrameId(10), FrameId(11)];
    set.root.items.push(TreeItem::Sequence(sequence));
    let options = RenderOptions {
        scale: 2,
        overlay: Overlay::ALL,
        ..RenderOptions::default()
    };
    let scene = Scene::at(&set, SequenceId(20), 0, 1, options.box_rule).unwrap();
    assert_eq!(scene.boxes.len(), 1, "the default hurt box carries over");
    let image = render(&set, &scene, &TestPixels::new(), &options);
    check("overlay_air_default", &image);
}

/// Compares `actual` with its golden image (see `common::check_golden`).
fn check(name: &str, actual: &RgbaImage) {
    common::check_golden("render", name, actual);
}
