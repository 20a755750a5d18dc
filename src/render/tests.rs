//! Renderer rules that need no golden image: limits and bad input.

use super::*;
use crate::model::*;
use crate::pixels::SourcePixels;
use std::sync::Arc;

/// Hands out one fixed image for every source.
struct OneImage(Arc<RgbaImage>);

impl PixelSource for OneImage {
    fn pixels(&self, _: &AnimationSet, _: &GraphicSource) -> Option<SourcePixels> {
        Some(SourcePixels {
            image: self.0.clone(),
            axis: (0, 0),
        })
    }
}

fn solid(width: u32, height: u32) -> OneImage {
    OneImage(Arc::new(RgbaImage::from_pixel(
        width,
        height,
        image::Rgba([200, 10, 10, 255]),
    )))
}

fn frame_with(graphic: Graphic) -> Frame {
    let mut frame = Frame::new(FrameDuration::Millis(100));
    frame.elements.push(Element {
        id: ElementId(1),
        name: String::new(),
        kind: ElementKind::Graphic(graphic),
    });
    frame
}

fn plain() -> Graphic {
    Graphic::new(
        GraphicSource::Image(ImageId(1)),
        Point::from_ints(0, 0),
        Origin::At(Point::ZERO),
    )
}

#[test]
fn fit_canvas_is_exactly_the_graphic() {
    let mut g = plain();
    g.position = Point::from_ints(-3, -5);
    let frame = frame_with(g);
    let image = render(
        &AnimationSet::new(),
        &Scene::of_frame(&frame),
        &solid(4, 6),
        &RenderOptions::default(),
    );
    assert_eq!(image.dimensions(), (4, 6));
    assert!(image.pixels().all(|p| p.0 == [200, 10, 10, 255]));
}

#[test]
fn integer_scale_multiplies_the_canvas() {
    let frame = frame_with(plain());
    let options = RenderOptions {
        scale: 3,
        ..RenderOptions::default()
    };
    let image = render(
        &AnimationSet::new(),
        &Scene::of_frame(&frame),
        &solid(4, 6),
        &options,
    );
    assert_eq!(image.dimensions(), (12, 18));
}

#[test]
fn huge_element_scale_is_capped_not_a_panic() {
    let mut g = plain();
    g.scale_x = 1.0e300;
    g.scale_y = f64::MAX;
    g.rotation = f64::NAN;
    let frame = frame_with(g);
    let options = RenderOptions {
        scale: u32::MAX,
        ..RenderOptions::default()
    };
    let image = render(
        &AnimationSet::new(),
        &Scene::of_frame(&frame),
        &solid(4, 4),
        &options,
    );
    assert!(image.width() <= MAX_CANVAS_SIDE && image.height() <= MAX_CANVAS_SIDE);
    assert!(image.width() as u64 * image.height() as u64 <= MAX_CANVAS_PIXELS);
    // The crop keeps the origin in view, and the graphic covers it.
    assert!(image.pixels().all(|p| p.0[3] == 255));
}

#[test]
fn nan_scale_and_empty_images_draw_nothing() {
    let mut g = plain();
    g.scale_x = f64::NAN;
    let frame = frame_with(g);
    let image = render(
        &AnimationSet::new(),
        &Scene::of_frame(&frame),
        &solid(4, 4),
        &RenderOptions::default(),
    );
    assert_eq!(image.dimensions(), (1, 1));
    let frame = frame_with(plain());
    let image = render(
        &AnimationSet::new(),
        &Scene::of_frame(&frame),
        &solid(0, 0),
        &RenderOptions::default(),
    );
    assert_eq!(image.dimensions(), (1, 1));
    assert_eq!(image.get_pixel(0, 0).0, [0, 0, 0, 0]);
}

#[test]
fn a_fixed_rectangle_is_honoured_even_when_content_is_outside() {
    let frame = frame_with(plain());
    let options = RenderOptions {
        bounds: CanvasBounds::Fixed(SpriteRect {
            x: 100,
            y: 100,
            width: 5,
            height: 2,
        }),
        background: Background::Colour([1, 2, 3, 255]),
        ..RenderOptions::default()
    };
    let image = render(
        &AnimationSet::new(),
        &Scene::of_frame(&frame),
        &solid(4, 4),
        &options,
    );
    assert_eq!(image.dimensions(), (5, 2));
    assert!(image.pixels().all(|p| p.0 == [1, 2, 3, 255]));
}

#[test]
fn a_disappeared_scene_shows_only_the_background() {
    let options = RenderOptions {
        overlay: Overlay::ALL,
        bounds: CanvasBounds::FitWithMargin(8),
        ..RenderOptions::default()
    };
    let image = render(
        &AnimationSet::new(),
        &Scene::empty(),
        &solid(4, 4),
        &options,
    );
    assert_eq!(image.dimensions(), (17, 17));
    // Only the origin cross is drawn.
    assert_eq!(image.get_pixel(8, 8).0, [255, 255, 255, 255]);
    assert_eq!(image.get_pixel(0, 0).0, [0, 0, 0, 0]);
}

#[test]
fn crop_keeps_the_origin_in_view() {
    let view = capped_view(
        SpriteRect {
            x: -100_000,
            y: -10,
            width: 200_000,
            height: 20,
        },
        4,
    );
    assert_eq!(view.scale, 1);
    assert!(view.rect.x <= 0 && view.rect.right() > 0);
    assert!(view.rect.width as u64 * view.rect.height as u64 <= MAX_CANVAS_PIXELS);
}
