//! Converting other formats' documents to ISPRITE: sprites packed into PNG sheets through a
//! fake pixel source, timing turned into holds, and every loss named.

use image::{Rgba, RgbaImage};
use sprat::formats::isprite::IspriteFormat;
use sprat::formats::{Format, Loss, ReadContext, WriteContext, Written};
use sprat::model::*;
use sprat::pixels::{PixelSource, SourcePixels};
use std::sync::Arc;

/// Gives every SFF sprite and whole image a solid image whose size and colour come from its
/// numbers; sprite (9, 9) is missing from the "archive".
struct FakePixels {
    big: bool,
}

impl FakePixels {
    fn sprite(group: i32, image: i32, big: bool) -> SourcePixels {
        let (w, h) = if big {
            (600 + group as u32, 500 + image as u32)
        } else {
            (10 + group as u32 % 50, 20 + image as u32 % 50)
        };
        let mut img = RgbaImage::from_pixel(w, h, Rgba([group as u8, image as u8, 200, 255]));
        // A marker pixel so a misplaced or flipped copy would show.
        img.put_pixel(0, 0, Rgba([255, 0, 0, 255]));
        SourcePixels {
            image: Arc::new(img),
            axis: (5, h as i32 - 2),
        }
    }
}

impl PixelSource for FakePixels {
    fn pixels(&self, _: &AnimationSet, source: &GraphicSource) -> Option<SourcePixels> {
        match source {
            GraphicSource::SffSprite {
                group: 9, image: 9, ..
            } => None,
            GraphicSource::SffSprite { group, image, .. } => {
                Some(FakePixels::sprite(*group, *image, self.big))
            }
            GraphicSource::Image(id) => Some(FakePixels::sprite(id.0 as i32, 1, self.big)),
            GraphicSource::Slice(_) => None,
        }
    }
}

fn sprite_element(
    doc: &mut AnimationSet,
    archive: ImageId,
    group: i32,
    image: i32,
    at: (i32, i32),
) -> Element {
    Element {
        id: ElementId(doc.alloc_id()),
        name: Name::default(),
        kind: ElementKind::Graphic(Graphic::new(
            GraphicSource::SffSprite {
                archive,
                group,
                image,
            },
            Point::from_ints(at.0, at.1),
            Origin::SourceAxis,
        )),
    }
}

fn hurt_box(doc: &mut AnimationSet, x: i32) -> Element {
    Element {
        id: ElementId(doc.alloc_id()),
        name: Name::default(),
        kind: ElementKind::Box(CollisionBox::rect_from_corners(
            BoxClass::Hurt,
            Point::from_ints(x, 0),
            Point::from_ints(x + 10, -60),
        )),
    }
}

fn add_sequence(
    doc: &mut AnimationSet,
    name: &str,
    frames: Vec<FrameId>,
    loop_point: Option<usize>,
) -> SequenceId {
    let id = SequenceId(doc.alloc_id());
    let mut s = Sequence::new(id, name, DirectionId(doc.alloc_id()));
    s.directions[0].frames = frames;
    s.loop_point = loop_point;
    doc.root.items.push(TreeItem::Sequence(s));
    id
}

/// An AIR + SFF shaped document: actions 0 and 200.
fn air_document() -> AnimationSet {
    let mut doc = AnimationSet::new();
    let archive = ImageId(doc.alloc_id());
    doc.images.push(SourceImage {
        id: archive,
        path: "kfm.sff".into(),
        resolved: None,
        kind: ImageKind::Sff {
            palettes: vec![],
            active_palette: None,
        },
        nearest_neighbour: true,
    });
    let mut ids = Vec::new();
    // Action 0: three frames, a Clsn2Default on the first, a flipped sprite on the second.
    for (i, ticks) in [(0, 7), (1, 5), (2, 9)] {
        let mut frame = Frame::new(FrameDuration::Ticks(ticks));
        let mut element = sprite_element(&mut doc, archive, 0, i, (0, 0));
        if i == 1
            && let ElementKind::Graphic(g) = &mut element.kind
        {
            g.flip_h = true;
            g.position = Point::from_ints(3, -1);
        }
        frame.elements.push(element);
        if i == 0 {
            let b = hurt_box(&mut doc, -5);
            frame.elements.push(b);
            frame.box_declarations.push(BoxDeclaration {
                class: BoxClass::Hurt,
                scope: BoxScope::FromHereOn,
            });
        }
        let id = FrameId(doc.alloc_id());
        doc.frames.insert(id, frame);
        ids.push(id);
    }
    add_sequence(&mut doc, "0", ids, Some(0));
    // Action 200: additive blend, interpolation, a blank frame, a missing sprite, and a last
    // frame shown forever.
    let mut ids = Vec::new();
    let mut f = Frame::new(FrameDuration::Ticks(3));
    let mut e = sprite_element(&mut doc, archive, 200, 0, (2, 0));
    if let ElementKind::Graphic(g) = &mut e.kind {
        g.blend = BlendMode::Add {
            source: 256,
            destination: 256,
        };
    }
    f.elements.push(e);
    ids.push(f);
    let mut f = Frame::new(FrameDuration::Ticks(4));
    f.interpolation.offset = true;
    let e = sprite_element(&mut doc, archive, -1, 0, (0, 0));
    f.elements.push(e);
    ids.push(f);
    let mut f = Frame::new(FrameDuration::Ticks(2));
    let e = sprite_element(&mut doc, archive, 9, 9, (0, 0));
    f.elements.push(e);
    ids.push(f);
    let mut f = Frame::new(FrameDuration::Forever);
    let e = sprite_element(&mut doc, archive, 200, 1, (0, 0));
    f.elements.push(e);
    ids.push(f);
    let ids: Vec<FrameId> = ids
        .into_iter()
        .map(|f| {
            let id = FrameId(doc.alloc_id());
            doc.frames.insert(id, f);
            id
        })
        .collect();
    add_sequence(&mut doc, "200", ids, Some(0));
    doc
}

fn convert(doc: &AnimationSet, pixels: &dyn PixelSource) -> Written {
    let context = WriteContext {
        path: Some("/tmp/out/kfm.isprite".into()),
        pixels: Some(pixels),
    };
    IspriteFormat.write(doc, &context).expect("converts")
}

fn read(bytes: &[u8]) -> AnimationSet {
    let loaded = IspriteFormat
        .read(bytes, &ReadContext::default())
        .expect("reads back");
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    loaded.document
}

fn losses_mentioning<'a>(losses: &'a [Loss], text: &str) -> Vec<&'a Loss> {
    losses.iter().filter(|l| l.what.contains(text)).collect()
}

#[test]
fn packing_without_pixels_is_a_plain_error() {
    let error = IspriteFormat
        .write(&air_document(), &WriteContext::default())
        .unwrap_err();
    assert!(error.message.contains("pixels"), "{}", error.message);
}

#[test]
fn sff_sprites_are_packed_into_a_sheet_with_exact_pixels_and_positions() {
    let doc = air_document();
    let written = convert(&doc, &FakePixels { big: false });
    assert_eq!(written.companions.len(), 1);
    assert_eq!(written.companions[0].relative_path, "kfm-sheet0.png");
    let sheet = image::load_from_memory(&written.companions[0].bytes)
        .unwrap()
        .to_rgba8();
    let back = read(&written.bytes);
    assert_eq!(back.images.len(), 1);
    assert_eq!(back.images[0].path, "kfm-sheet0");
    assert_eq!(back.frame_rate, Some(60));

    let names: Vec<&str> = back.sequences().iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["0", "200"]);
    let action0 = back.sequence_by_name("0").unwrap();
    let frames = back.direction_frames(action0, 0);
    let holds: Vec<FrameDuration> = frames.iter().map(|f| f.duration).collect();
    assert_eq!(
        holds,
        [7, 5, 9].map(FrameDuration::Holds),
        "60 fps keeps AIR ticks as holds"
    );
    for (i, frame) in frames.iter().enumerate() {
        let g = frame.elements[0].as_graphic().unwrap();
        let GraphicSource::Slice(slice) = g.source else {
            panic!("a slice")
        };
        let rect = back.slice(slice).unwrap().rect;
        let expected = FakePixels::sprite(0, i as i32, false);
        assert_eq!((rect.width, rect.height), expected.image.dimensions());
        for (x, y, p) in expected.image.enumerate_pixels() {
            assert_eq!(sheet.get_pixel(rect.x as u32 + x, rect.y as u32 + y), p);
        }
        // The sprite's axis is the origin, and it still lands where the AIR offset put it.
        assert_eq!(
            g.origin,
            Origin::At(Point::from_ints(expected.axis.0, expected.axis.1))
        );
        let original = doc.direction_frames(doc.sequence_by_name("0").unwrap(), 0)[i].elements[0]
            .as_graphic()
            .unwrap();
        assert_eq!(g.position, original.position);
        assert_eq!(g.flip_h, original.flip_h);
    }
}

#[test]
fn default_boxes_are_copied_onto_every_frame_and_reported() {
    let written = convert(&air_document(), &FakePixels { big: false });
    let back = read(&written.bytes);
    let action0 = back.sequence_by_name("0").unwrap();
    for frame in back.direction_frames(action0, 0) {
        let boxes: Vec<&CollisionBox> = frame.boxes().map(|(_, b)| b).collect();
        assert_eq!(boxes.len(), 1);
        assert_eq!(boxes[0].class, BoxClass::Hurt);
    }
    let loss = losses_mentioning(&written.losses, "default boxes");
    assert_eq!(loss.len(), 1);
    assert_eq!(loss[0].place.sequence.as_deref(), Some("0"));
}

#[test]
fn what_isprite_cannot_hold_is_named_where_it_is() {
    let written = convert(&air_document(), &FakePixels { big: false });
    let blend = losses_mentioning(&written.losses, "blend mode");
    assert_eq!(blend.len(), 1);
    assert_eq!(blend[0].place.sequence.as_deref(), Some("200"));
    assert_eq!(blend[0].place.frame, Some(0));
    let interpolation = losses_mentioning(&written.losses, "interpolation");
    assert_eq!(interpolation.len(), 1);
    assert_eq!(interpolation[0].place.frame, Some(1));
    let missing = losses_mentioning(&written.losses, "could not be loaded");
    assert_eq!(missing.len(), 1);
    assert_eq!(missing[0].place.frame, Some(2));
    // The forever frame ends its sequence: stopping there is exact, nothing is lost for it.
    assert!(losses_mentioning(&written.losses, "forever").is_empty());
    let back = read(&written.bytes);
    let action200 = back.sequence_by_name("200").unwrap();
    assert_eq!(action200.loop_point, None);
    assert_eq!(
        back.direction_frames(action200, 0).len(),
        4,
        "the blank frame keeps its place"
    );
    assert!(back.direction_frames(action200, 0)[1].elements.is_empty());
}

#[test]
fn every_truncation_of_a_converted_file_is_an_error() {
    let written = convert(&air_document(), &FakePixels { big: false });
    for len in 0..written.bytes.len() {
        assert!(
            IspriteFormat
                .read(&written.bytes[..len], &ReadContext::default())
                .is_err(),
            "{len} bytes"
        );
    }
}

#[test]
fn large_sprites_spread_over_sheets_of_at_most_2048_pixels() {
    let mut doc = AnimationSet::new();
    let archive = ImageId(doc.alloc_id());
    doc.images.push(SourceImage {
        id: archive,
        path: "big.sff".into(),
        resolved: None,
        kind: ImageKind::Sff {
            palettes: vec![],
            active_palette: None,
        },
        nearest_neighbour: true,
    });
    let mut ids = Vec::new();
    for i in 0..20 {
        let mut frame = Frame::new(FrameDuration::Ticks(1));
        let e = sprite_element(&mut doc, archive, i, i, (0, 0));
        frame.elements.push(e);
        let id = FrameId(doc.alloc_id());
        doc.frames.insert(id, frame);
        ids.push(id);
    }
    add_sequence(&mut doc, "big", ids, Some(0));
    let written = convert(&doc, &FakePixels { big: true });
    assert!(written.companions.len() >= 2);
    let back = read(&written.bytes);
    assert_eq!(back.images.len(), written.companions.len());
    for (n, companion) in written.companions.iter().enumerate() {
        let sheet = image::load_from_memory(&companion.bytes).unwrap();
        assert!(sheet.width() <= 2048 && sheet.height() <= 2048);
        let on_sheet: Vec<PixelRect> = back
            .slices
            .iter()
            .filter(|s| s.image == back.images[n].id)
            .map(|s| s.rect)
            .collect();
        for (i, a) in on_sheet.iter().enumerate() {
            for b in &on_sheet[i + 1..] {
                // At least one empty pixel between them on some axis.
                let apart = a.x + (a.width as i32) < b.x
                    || b.x + (b.width as i32) < a.x
                    || a.y + (a.height as i32) < b.y
                    || b.y + (b.height as i32) < a.y;
                assert!(apart, "{a:?} and {b:?} are closer than 1 px");
            }
        }
    }
}

/// A Solarus-shaped document: a four-direction animation cut from a PNG sheet, in milliseconds.
#[test]
fn directions_become_sequences_and_sheet_paths_lose_their_extension() {
    let mut doc = AnimationSet::new();
    let image = ImageId(doc.alloc_id());
    doc.images.push(SourceImage {
        id: image,
        path: "hero/tunic1.png".into(),
        resolved: Some("/q/data/sprites/hero/tunic1.png".into()),
        kind: ImageKind::File,
        nearest_neighbour: true,
    });
    let slice = SliceId(doc.alloc_id());
    doc.slices.push(Slice {
        id: slice,
        image,
        rect: PixelRect {
            x: 0,
            y: 0,
            width: 16,
            height: 24,
        },
        rotated: false,
    });
    let sequence_id = SequenceId(doc.alloc_id());
    let mut sequence = Sequence::new(sequence_id, "walking", DirectionId(doc.alloc_id()));
    sequence.directions.clear();
    for d in 0..4 {
        let mut frames = Vec::new();
        for ms in [100, 150] {
            let mut frame = Frame::new(FrameDuration::Millis(ms));
            frame.elements.push(Element {
                id: ElementId(doc.alloc_id()),
                name: Name::default(),
                kind: ElementKind::Graphic(Graphic::new(
                    GraphicSource::Slice(slice),
                    Point::from_ints(0, d),
                    Origin::At(Point::from_ints(8, 21)),
                )),
            });
            let id = FrameId(doc.alloc_id());
            doc.frames.insert(id, frame);
            frames.push(id);
        }
        sequence.directions.push(Direction {
            id: DirectionId(doc.alloc_id()),
            name: None,
            frames,
        });
    }
    doc.root.items.push(TreeItem::Sequence(sequence));
    let context = WriteContext::for_path("/q/data/sprites/hero.isprite");
    let written = IspriteFormat
        .write(&doc, &context)
        .expect("no packing needed");
    assert!(written.companions.is_empty());
    let back = read(&written.bytes);
    assert_eq!(back.images[0].path, "hero/tunic1");
    assert_eq!(
        back.frame_rate,
        Some(20),
        "100 ms and 150 ms are whole holds at 20 fps"
    );
    let TreeItem::Group(group) = &back.root.items[0] else {
        panic!("a group")
    };
    assert_eq!(group.name, "walking");
    let names: Vec<&str> = group
        .items
        .iter()
        .map(|i| match i {
            TreeItem::Sequence(s) => s.name.as_str(),
            TreeItem::Group(_) => "group",
        })
        .collect();
    assert_eq!(names, ["right", "up", "left", "down"]);
    let up = back.sequence_by_name("up").unwrap();
    let frames = back.direction_frames(up, 0);
    assert_eq!(frames[0].duration, FrameDuration::Holds(2));
    assert_eq!(frames[1].duration, FrameDuration::Holds(3));
    assert_eq!(
        frames[0].elements[0].as_graphic().unwrap().position,
        Point::from_ints(0, 1)
    );
    assert_eq!(losses_mentioning(&written.losses, "directions").len(), 1);
}

/// ADL-shaped: whole body-part images with rotation, in seconds.
#[test]
fn whole_images_are_packed_and_keep_their_transform() {
    let mut doc = AnimationSet::new();
    let part = ImageId(doc.alloc_id());
    doc.images.push(SourceImage {
        id: part,
        path: "parts/arm.tga".into(),
        resolved: None,
        kind: ImageKind::File,
        nearest_neighbour: true,
    });
    let mut frame = Frame::new(FrameDuration::Seconds { nanos: 50_000_000 });
    let mut g = Graphic::new(
        GraphicSource::Image(part),
        Point::from_ints(4, -30),
        Origin::At(Point::from_ints(2, 3)),
    );
    g.rotation = 45.0;
    frame.elements.push(Element {
        id: ElementId(doc.alloc_id()),
        name: "arm".into(),
        kind: ElementKind::Graphic(g.clone()),
    });
    let id = FrameId(doc.alloc_id());
    doc.frames.insert(id, frame);
    let mut second = Frame::new(FrameDuration::Seconds { nanos: 120_000_000 });
    second.elements.push(Element {
        id: ElementId(doc.alloc_id()),
        name: "arm".into(),
        kind: ElementKind::Graphic(g.clone()),
    });
    let id2 = FrameId(doc.alloc_id());
    doc.frames.insert(id2, second);
    add_sequence(&mut doc, "wave", vec![id, id2], Some(0));
    let written = convert(&doc, &FakePixels { big: false });
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    let back = read(&written.bytes);
    assert_eq!(back.frame_rate, Some(100));
    assert_eq!(back.images.len(), 1, "the body part now lives in the sheet");
    let frames = back.direction_frames(&back.sequences()[0].clone(), 0);
    assert_eq!(frames[0].duration, FrameDuration::Holds(5));
    assert_eq!(frames[1].duration, FrameDuration::Holds(12));
    let got = frames[0].elements[0].as_graphic().unwrap();
    assert_eq!(frames[0].elements[0].name, "arm");
    assert_eq!(
        (got.position, got.origin, got.rotation),
        (g.position, g.origin, 45.0)
    );
}
