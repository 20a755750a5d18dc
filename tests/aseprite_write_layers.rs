//! Converting to Aseprite where one layer cannot be exact: a graphic that adds or subtracts
//! goes on a layer of its own with Aseprite's Addition or Subtract mode (so it still blends
//! with what is under it), the normal graphics around it flattened as before; an additive
//! blend Aseprite has no mode for is drawn into the picture and named as a loss. Checked with
//! the `asefile` crate and by reading the file back into Sprat.

mod aseprite_write_support;
mod common;

use aseprite_write_support::{assert_sequences_draw_the_same, save};
use sprat::formats::aseprite::AsepriteFormat;
use sprat::formats::{Format, ReadContext, ReadOptions, registry};
use sprat::model::*;

fn read(bytes: &[u8], aseprite_layers: bool) -> AnimationSet {
    let context = ReadContext {
        options: ReadOptions {
            aseprite_layers,
            ..ReadOptions::default()
        },
        ..ReadContext::default()
    };
    AsepriteFormat
        .read(bytes, &context)
        .unwrap_or_else(|f| panic!("{:?}", f.diagnostics))
        .document
}

fn layer_blends(file: &asefile::AsepriteFile) -> Vec<(String, asefile::BlendMode)> {
    (0..file.num_layers())
        .map(|i| (file.layer(i).name().to_string(), file.layer(i).blend_mode()))
        .collect()
}

#[test]
fn additive_effects_keep_their_blend_on_a_layer_of_their_own() {
    let path = common::corpus().join("mugen/fightfx/fightfx.air");
    let (loaded, _) = registry()
        .open(&path, &ReadContext::for_path(&path))
        .unwrap_or_else(|f| panic!("{:?}", f.diagnostics));
    let document = loaded.document;
    let additive = |f: &Frame| {
        f.elements.iter().filter_map(Element::as_graphic).any(|g| {
            g.blend
                == BlendMode::Add {
                    source: 256,
                    destination: 256,
                }
        })
    };
    assert!(
        document.frames.values().any(additive),
        "fightfx has A frames"
    );
    let dir = tempfile::tempdir().unwrap();
    let written = save(&document, &dir.path().join("fightfx.aseprite"));

    let file = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    let blends = layer_blends(&file);
    let addition = blends
        .iter()
        .position(|(_, b)| *b == asefile::BlendMode::Addition)
        .unwrap_or_else(|| panic!("an Addition layer: {blends:?}"));
    assert!(blends.iter().any(|(_, b)| *b == asefile::BlendMode::Normal));
    // Some frames have their picture on the Addition layer only.
    let on_addition = (0..file.num_frames())
        .filter(|&f| !file.cel(f, addition as u32).is_empty())
        .count();
    assert!(on_addition > 0);

    // A1 (source plus half the destination) has no Aseprite mode: drawn in, named.
    let half = document.frames.values().any(|f| {
        f.elements.iter().filter_map(Element::as_graphic).any(|g| {
            g.blend
                == BlendMode::Add {
                    source: 256,
                    destination: 128,
                }
        })
    });
    assert!(half, "fightfx has A1 frames");
    let named: Vec<String> = written
        .losses
        .iter()
        .map(|l| l.to_string())
        .filter(|l| l.contains("destination 128/256"))
        .collect();
    assert!(!named.is_empty(), "{:?}", written.losses);

    // Read back composited, every frame draws as before; read back one graphic per layer,
    // the additive graphics add again.
    assert_sequences_draw_the_same(&document, &read(&written.bytes, false));
    let layered = read(&written.bytes, true);
    assert!(layered.frames.values().any(additive));
}

fn solid(document: &mut AnimationSet, size: u32, colour: [u8; 4]) -> ImageId {
    let id = ImageId(document.alloc_id());
    document.images.push(SourceImage {
        id,
        path: format!("{colour:?}.png"),
        resolved: None,
        kind: ImageKind::Memory(MemoryImage::new(image::RgbaImage::from_pixel(
            size,
            size,
            image::Rgba(colour),
        ))),
        nearest_neighbour: true,
    });
    id
}

fn placed(
    document: &mut AnimationSet,
    image: ImageId,
    at: (i32, i32),
    blend: BlendMode,
) -> Element {
    let mut graphic = Graphic::new(
        GraphicSource::Image(image),
        Point::from_ints(at.0, at.1),
        Origin::At(Point::ZERO),
    );
    graphic.blend = blend;
    Element {
        id: ElementId(document.alloc_id()),
        name: Name::default(),
        kind: ElementKind::Graphic(graphic),
    }
}

#[test]
fn normal_graphics_above_and_below_a_blend_keep_their_order() {
    let mut document = AnimationSet::new();
    let (red, green, blue) = (
        solid(&mut document, 4, [120, 10, 10, 255]),
        solid(&mut document, 2, [100, 200, 30, 255]),
        solid(&mut document, 1, [0, 0, 250, 255]),
    );
    let add = BlendMode::Add {
        source: 256,
        destination: 256,
    };
    let mut first = Frame::new(FrameDuration::Millis(100));
    first.elements = vec![
        placed(&mut document, red, (0, 0), BlendMode::Normal),
        placed(&mut document, green, (1, 1), add),
        placed(&mut document, blue, (1, 1), BlendMode::Normal),
    ];
    let mut second = Frame::new(FrameDuration::Millis(100));
    second.elements = vec![
        placed(&mut document, red, (0, 0), BlendMode::Normal),
        placed(&mut document, green, (2, 2), BlendMode::Subtract),
    ];
    // Half as strong: a layer of its own at half opacity.
    let mut third = Frame::new(FrameDuration::Millis(100));
    let mut faint = placed(&mut document, green, (2, 2), add);
    if let ElementKind::Graphic(graphic) = &mut faint.kind {
        graphic.opacity = 257 * 128;
    }
    third.elements = vec![placed(&mut document, red, (0, 0), BlendMode::Normal), faint];
    let ids = [
        FrameId(document.alloc_id()),
        FrameId(document.alloc_id()),
        FrameId(document.alloc_id()),
    ];
    document.frames.insert(ids[0], first);
    document.frames.insert(ids[1], second);
    document.frames.insert(ids[2], third);
    let sequence = SequenceId(document.alloc_id());
    let mut walk = Sequence::new(sequence, "walk", DirectionId(document.alloc_id()));
    walk.directions[0].frames = ids.to_vec();
    document.root.items.push(TreeItem::Sequence(walk));

    let dir = tempfile::tempdir().unwrap();
    let written = save(&document, &dir.path().join("blends.aseprite"));
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    let file = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    let blends: Vec<asefile::BlendMode> = layer_blends(&file).into_iter().map(|(_, b)| b).collect();
    use asefile::BlendMode::{Addition, Normal, Subtract};
    let kinds = |frame: u32| -> Vec<asefile::BlendMode> {
        (0..file.num_layers())
            .filter(|&l| !file.cel(frame, l).is_empty())
            .map(|l| blends[l as usize])
            .collect()
    };
    assert_eq!(kinds(0), [Normal, Addition, Normal]);
    assert_eq!(kinds(1), [Normal, Subtract]);
    assert_eq!(kinds(2), [Normal, Addition]);
    let opacity = |frame: u32, blend| {
        (0..file.num_layers())
            .find(|&l| !file.cel(frame, l).is_empty() && blends[l as usize] == blend)
            .map(|l| file.layer(l).opacity())
    };
    assert_eq!(opacity(0, Addition), Some(255));
    assert_eq!(opacity(2, Addition), Some(128));
    // Aseprite's Addition and Subtract over the opaque red draw what Sprat draws.
    let drawn = file.frame(0).image();
    assert_eq!(drawn.get_pixel(2, 2).0, [220, 210, 40, 255]);
    assert_eq!(drawn.get_pixel(1, 1).0, [0, 0, 250, 255]);
    let drawn = file.frame(1).image();
    assert_eq!(drawn.get_pixel(2, 2).0, [20, 0, 0, 255]);
    assert_sequences_draw_the_same(&document, &read(&written.bytes, false));
}

#[test]
fn frames_that_show_nothing_still_sit_on_one_layer() {
    let mut document = AnimationSet::new();
    let mut frame = Frame::new(FrameDuration::Millis(40));
    frame.elements.push(Element {
        id: ElementId(document.alloc_id()),
        name: Name::default(),
        kind: ElementKind::Box(CollisionBox::rect_from_corners(
            BoxClass::Hit,
            Point::from_ints(0, 0),
            Point::from_ints(3, 3),
        )),
    });
    let id = FrameId(document.alloc_id());
    document.frames.insert(id, frame);
    let mut only = Sequence::new(
        SequenceId(document.alloc_id()),
        "only",
        DirectionId(document.alloc_id()),
    );
    only.directions[0].frames = vec![id];
    document.root.items.push(TreeItem::Sequence(only));
    let dir = tempfile::tempdir().unwrap();
    let written = save(&document, &dir.path().join("empty.aseprite"));
    let file = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    assert_eq!(
        layer_blends(&file),
        [("Frames".to_string(), asefile::BlendMode::Normal)]
    );
    assert_eq!(file.slices().len(), 1);
}
