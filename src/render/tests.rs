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
        name: Name::default(),
        kind: ElementKind::Graphic(graphic),
    });
    frame
}

/// `frame` drawn on its own, in a document with nothing else.
fn render_lone(frame: &Frame, pixels: &dyn PixelSource, options: &RenderOptions) -> RgbaImage {
    render(
        &AnimationSet::new(),
        &Scene::of_frame(frame),
        pixels,
        options,
    )
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
    let image = render_lone(&frame, &solid(4, 6), &RenderOptions::default());
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
    let image = render_lone(&frame, &solid(4, 6), &options);
    assert_eq!(image.dimensions(), (12, 18));
}

#[test]
fn huge_element_and_canvas_scales_are_capped_not_a_panic() {
    let mut g = plain();
    g.scale_x = 1.0e300;
    g.scale_y = f64::MAX;
    g.rotation = f64::NAN;
    let frame = frame_with(g);
    let set = AnimationSet::new();
    let scene = Scene::of_frame(&frame);
    let pixels = solid(4, 4);
    // Fitting such content would ask for an absurd canvas: the view is capped.
    let content = content_bounds(&set, &scene, &pixels, Overlay::NONE).unwrap();
    let view = capped_view(content, u32::MAX);
    assert_eq!(view.scale, 1);
    assert!(view.rect.width <= MAX_CANVAS_SIDE && view.rect.height <= MAX_CANVAS_SIDE);
    assert!(view.rect.width as u64 * view.rect.height as u64 <= MAX_CANVAS_PIXELS);
    assert!(view.rect.x <= 0 && view.rect.right() > 0);
    // Drawing it on a small fixed view at the largest scale covers the view.
    let options = RenderOptions {
        scale: u32::MAX,
        bounds: CanvasBounds::Fixed(SpriteRect {
            x: -4,
            y: -4,
            width: 8,
            height: 8,
        }),
        ..RenderOptions::default()
    };
    let image = render(&set, &scene, &pixels, &options);
    assert_eq!(image.dimensions(), (8 * MAX_SCALE, 8 * MAX_SCALE));
    assert!(image.get_pixel(8 * MAX_SCALE - 1, 8 * MAX_SCALE - 1).0[3] == 255);
}

#[test]
fn nan_scale_and_empty_images_draw_nothing() {
    let mut g = plain();
    g.scale_x = f64::NAN;
    let frame = frame_with(g);
    let image = render_lone(&frame, &solid(4, 4), &RenderOptions::default());
    assert_eq!(image.dimensions(), (1, 1));
    let frame = frame_with(plain());
    let image = render_lone(&frame, &solid(0, 0), &RenderOptions::default());
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
    let image = render_lone(&frame, &solid(4, 4), &options);
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

/// A one-direction sequence of two frames of 10 ticks: the graphic moves from x = 0 to x = 10,
/// interpolated; it disappears at the end.
fn moving_sequence() -> (AnimationSet, SequenceId) {
    let mut set = AnimationSet::new();
    let mut ids = Vec::new();
    for x in [0, 10] {
        let mut g = plain();
        g.position = Point::from_ints(x, 0);
        let mut frame = frame_with(g);
        frame.duration = FrameDuration::Ticks(10);
        frame.interpolation.offset = x == 10;
        let id = FrameId(set.alloc_id());
        set.frames.insert(id, frame);
        ids.push(id);
    }
    let id = SequenceId(set.alloc_id());
    let mut sequence = Sequence::new(id, "move", DirectionId(set.alloc_id()));
    sequence.directions[0].frames = ids;
    sequence.loop_point = None;
    sequence.on_end = EndBehavior::Disappear;
    set.root.items.push(TreeItem::Sequence(sequence));
    (set, id)
}

/// [`moving_sequence`] played from its start for `elapsed`.
fn moving_after(elapsed: std::time::Duration) -> (AnimationSet, crate::playback::Player) {
    let (set, id) = moving_sequence();
    let mut player = crate::playback::Player::new(&set, id, 0);
    player.play(&set);
    player.advance(&set, elapsed);
    (set, player)
}

#[test]
fn a_playing_scene_shows_interpolated_values() {
    // Halfway through the first frame: halfway to x = 10.
    let (set, player) = moving_after(std::time::Duration::from_nanos(83_333_334));
    let scene = Scene::playing(&set, &player, DefaultBoxRule::default()).unwrap();
    let g = scene.frame.elements[0].as_graphic().unwrap();
    assert_eq!(g.position.x, Fx::from_int(5));
}

#[test]
fn a_playing_scene_is_empty_once_the_sequence_disappeared() {
    let (set, player) = moving_after(std::time::Duration::from_secs(1));
    assert!(!player.visible());
    let scene = Scene::playing(&set, &player, DefaultBoxRule::default()).unwrap();
    assert!(!scene.visible);
    let image = render(&set, &scene, &solid(4, 4), &RenderOptions::default());
    assert!(image.pixels().all(|p| p.0[3] == 0));
}

#[test]
fn a_lone_graphic_moved_and_flipped_by_whole_pixels_is_its_source_read_in_place() {
    // Opaque, translucent and transparent pixels, none alike.
    let source = OneImage(Arc::new(RgbaImage::from_fn(5, 3, |x, y| {
        let alpha = [255, 128, 0, 1, 254][x as usize];
        image::Rgba([x as u8 * 40, y as u8 * 70, 9, alpha])
    })));
    let document = AnimationSet::new();
    for (flip_h, flip_v) in [(false, false), (true, false), (false, true), (true, true)] {
        let mut graphic = plain();
        graphic.position = Point::from_ints(-2, 7);
        graphic.flip_h = flip_h;
        graphic.flip_v = flip_v;
        let frame = frame_with(graphic);
        let scene = Scene::of_frame(&frame);
        let plain = plain_picture(&document, &scene, &source).expect("a plain picture");
        let rendered = render(&document, &scene, &source, &RenderOptions::default());
        assert_eq!((plain.rect.width, plain.rect.height), rendered.dimensions());
        let read: Vec<u8> = plain.map_pixels(|p| p).concat();
        assert_eq!(read, rendered.into_raw(), "flipped {flip_h} {flip_v}");
    }
    // Anything else is composited.
    let mut turned = plain();
    turned.rotation = 90.0;
    let mut faded = plain();
    faded.opacity = 100;
    let mut halfway = plain();
    halfway.position = Point {
        x: Fx::from_f64(0.5),
        y: Fx::ZERO,
    };
    for graphic in [turned, faded, halfway] {
        let frame = frame_with(graphic);
        assert!(plain_picture(&document, &Scene::of_frame(&frame), &source).is_none());
    }
    let mut two = frame_with(plain());
    two.elements.push(two.elements[0].clone());
    assert!(plain_picture(&document, &Scene::of_frame(&two), &source).is_none());
}
