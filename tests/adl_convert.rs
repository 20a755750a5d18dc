//! Writing ADL from a document of another format: what is kept, and what is named as lost.

use sprat::formats::adl::AdlFormat;
use sprat::formats::{Format, ReadContext, WriteContext};
use sprat::model::*;
use sprat::pixels::{PixelSource, SourcePixels};
use std::sync::Arc;

/// Every source is a 4x6 opaque block.
struct Blocks;

impl PixelSource for Blocks {
    fn pixels(&self, _: &AnimationSet, _: &GraphicSource) -> Option<SourcePixels> {
        Some(SourcePixels {
            image: Arc::new(image::RgbaImage::from_pixel(
                4,
                6,
                image::Rgba([1, 2, 3, 255]),
            )),
            axis: (0, 0),
        })
    }
}

fn graphic(set: &mut AnimationSet, name: &str, slice: SliceId, x: i32, y: i32) -> Element {
    Element {
        id: ElementId(set.alloc_id()),
        name: name.into(),
        kind: ElementKind::Graphic(Graphic::new(
            GraphicSource::Slice(slice),
            Point::from_ints(x, y),
            Origin::At(Point::from_ints(2, 6)),
        )),
    }
}

/// Two parts (body, hat) over two frames of 100 ms and 50 ms, a hit box and a rotated hat.
fn sample() -> AnimationSet {
    let mut set = AnimationSet::new();
    let image = sprat::model::fixtures::sheet_image(&mut set);
    let mut slices = Vec::new();
    for x in [0, 4] {
        let id = SliceId(set.alloc_id());
        set.slices.push(Slice {
            id,
            image,
            rect: PixelRect {
                x,
                y: 0,
                width: 4,
                height: 6,
            },
            rotated: false,
        });
        slices.push(id);
    }
    let mut seq = Sequence::new(
        SequenceId(set.alloc_id()),
        "walk-2",
        DirectionId(set.alloc_id()),
    );
    for (index, ms) in [100u32, 50].into_iter().enumerate() {
        let id = FrameId(set.alloc_id());
        let mut frame = Frame::new(FrameDuration::Millis(ms));
        let body = graphic(&mut set, "body", slices[0], 0, 0);
        let mut hat = graphic(&mut set, "hat", slices[1], index as i32, -6);
        if index == 1 {
            if let ElementKind::Graphic(g) = &mut hat.kind {
                g.rotation = 45.0;
            }
            frame.elements.push(Element {
                id: ElementId(set.alloc_id()),
                name: Name::default(),
                kind: ElementKind::Box(CollisionBox::rect_from_corners(
                    BoxClass::Hit,
                    Point::from_ints(0, 0),
                    Point::from_ints(3, -3),
                )),
            });
        }
        frame.elements.insert(0, body);
        frame.elements.insert(1, hat);
        set.frames.insert(id, frame);
        seq.directions[0].frames.push(id);
    }
    set.root.items.push(TreeItem::Sequence(seq));
    set
}

#[test]
fn another_formats_document_becomes_adl_with_named_losses() {
    let set = sample();
    let context = WriteContext {
        path: Some("/out/hero.properties".into()),
        pixels: Some(&Blocks),
    };
    let written = AdlFormat.write(&set, &context).unwrap();
    let text = String::from_utf8(written.bytes.clone()).unwrap();
    let losses: Vec<String> = written.losses.iter().map(|l| l.to_string()).collect();
    let has = |s: &str| losses.iter().any(|l| l.contains(s));
    assert!(has("renamed ANIM_WALK"), "{losses:?}");
    assert!(
        has("frame 1: per-frame duration 0.05 s (the animation keeps DELAY 0.1 s)"),
        "{losses:?}"
    );
    assert!(has("frame 1, hat: rotation 45°"), "{losses:?}");
    assert!(
        has("frame 1, element") && has("collision box"),
        "{losses:?}"
    );
    assert_eq!(written.companions.len(), 2);
    assert_eq!(written.companions[0].relative_path, "hero/hero_body.tga");
    let tga =
        image::load_from_memory_with_format(&written.companions[0].bytes, image::ImageFormat::Tga)
            .unwrap();
    assert_eq!((tga.width(), tga.height()), (4, 6));
    assert!(text.contains("SPRITESHEET=hero/hero_\n"), "{text}");
    assert!(
        text.contains("BODYPARTS=BODY 2,6;\\\n          HAT 2,6\n"),
        "{text}"
    );
    assert!(text.contains("SKELETON_WALK=HAT 0,6;BODY 0,0\n"), "{text}");
    assert!(
        text.contains("ANIM_WALK=DELAY 0.1;ROW 1;SKELETON SKELETON_WALK\n"),
        "{text}"
    );
    assert!(
        text.contains("ANIM_WALK_1=\nANIM_WALK_2=HAT 1,0\n"),
        "{text}"
    );
    // Read back, the parts land where they were.
    let back = AdlFormat
        .read(&written.bytes, &ReadContext::default())
        .unwrap()
        .document;
    let seq = back.sequence_by_name("ANIM_WALK").unwrap();
    let frame = back.frame(seq.directions[0].frames[1]).unwrap();
    let hat = frame
        .elements
        .iter()
        .find_map(|e| (e.name == "HAT").then(|| e.as_graphic().unwrap().position))
        .unwrap();
    assert_eq!(hat, Point::from_ints(1, -6));
    assert!(text.contains("CONFIG=SIZE 5,13;ORIGINX 2\n"), "{text}");
}

#[test]
fn without_pixels_the_missing_images_are_named() {
    let written = AdlFormat
        .write(&sample(), &WriteContext::for_path("/out/hero.properties"))
        .unwrap();
    assert!(written.companions.is_empty());
    assert!(
        written
            .losses
            .iter()
            .any(|l| l.to_string().contains("hero/hero_hat.tga is not written"))
    );
}

#[test]
fn every_written_document_reads_back_without_errors() {
    let mut set = sample();
    // An empty sequence cannot be an ADL animation; it is named and left out.
    let empty = Sequence::new(
        SequenceId(set.alloc_id()),
        "nothing",
        DirectionId(set.alloc_id()),
    );
    set.root.items.insert(0, TreeItem::Sequence(empty));
    let context = WriteContext {
        path: Some("/out/hero.properties".into()),
        pixels: Some(&Blocks),
    };
    let written = AdlFormat.write(&set, &context).unwrap();
    assert!(written.losses.iter().any(|l| {
        l.to_string()
            .contains("sequence \"nothing\": it has no frames")
    }));
    let text = String::from_utf8(written.bytes.clone()).unwrap();
    assert!(text.contains("ROW 1;SKELETON SKELETON_WALK"), "{text}");
    let loaded = AdlFormat
        .read(&written.bytes, &ReadContext::default())
        .unwrap();
    let errors: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == sprat::formats::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

/// Every file of the other formats in the corpus converts to ADL that reads back cleanly.
#[test]
fn other_corpus_formats_convert_to_adl_that_reads_back() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let mut stack = vec![root.clone()];
    let mut converted = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                if !path.ends_with("adl") {
                    stack.push(path);
                }
                continue;
            }
            let Ok((loaded, _)) = sprat::formats::registry().open(&path, &ReadContext::default())
            else {
                continue;
            };
            let written = AdlFormat
                .write(
                    &loaded.document,
                    &WriteContext::for_path("/out/x.properties"),
                )
                .unwrap();
            let graphics = loaded
                .document
                .frames
                .values()
                .flat_map(|f| &f.elements)
                .any(|e| e.as_graphic().is_some_and(|g| !g.source.is_blank()));
            if !graphics {
                assert!(
                    written
                        .losses
                        .iter()
                        .any(|l| l.what.contains("no graphics")),
                    "{}",
                    path.display()
                );
                continue;
            }
            let back = AdlFormat
                .read(&written.bytes, &ReadContext::default())
                .unwrap_or_else(|f| panic!("{}: {:?}", path.display(), f.diagnostics));
            let errors: Vec<_> = back
                .diagnostics
                .iter()
                .filter(|d| d.severity == sprat::formats::Severity::Error)
                .collect();
            assert!(errors.is_empty(), "{}: {errors:?}", path.display());
            converted += 1;
        }
    }
    assert!(converted > 0);
}
