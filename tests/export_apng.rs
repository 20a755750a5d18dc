//! `render --apng`: an animated PNG whose frames are the rendered frames with full alpha and
//! whose delays are the frames' exact durations in their own unit (60 Hz ticks as n/60).

mod common;

use sprat::assets::ImageStore;
use sprat::export::export_apng;
use sprat::export::timeline::timeline;
use sprat::formats::{ReadContext, registry};
use sprat::model::{AnimationSet, ElementKind, OPAQUE};
use sprat::render::{CanvasBounds, RenderOptions, Scene, direction_bounds, render};
use std::path::Path;

fn open(path: &Path) -> AnimationSet {
    registry()
        .open(path, &ReadContext::for_path(path))
        .unwrap()
        .0
        .document
}

/// One APNG frame: delay numerator, denominator, RGBA pixels.
type ApngFrame = (u16, u16, Vec<u8>);

/// The frame count, play count and every frame of an APNG.
fn decode(bytes: &[u8]) -> (u32, u32, Vec<ApngFrame>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder.read_info().unwrap();
    let control = reader.info().animation_control.expect("an APNG");
    let mut frames = Vec::new();
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    for _ in 0..control.num_frames {
        let info = reader.next_frame(&mut buffer).unwrap();
        let fc = reader.info().frame_control.expect("fcTL");
        assert_eq!((fc.x_offset, fc.y_offset), (0, 0));
        frames.push((
            fc.delay_num,
            fc.delay_den,
            buffer[..info.buffer_size()].to_vec(),
        ));
    }
    (control.num_frames, control.num_plays, frames)
}

#[test]
fn kfm_delays_are_ticks_over_60_and_pixels_match_the_renderer() {
    let document = open(&common::corpus().join("mugen/kfm/kfm.def"));
    let sequence = document.sequence_by_name("0").expect("action 0");
    let store = ImageStore::new();
    let options = RenderOptions::default();
    let apng = export_apng(&document, sequence.id, 0, &store, &options, None).unwrap();
    let (count, plays, frames) = decode(&apng.bytes);
    assert_eq!(count as usize, frames.len());
    assert_eq!(plays, 0, "action 0 loops");
    let pass = timeline(&document, sequence.id, 0).unwrap();
    let expected: Vec<(u16, u16)> = pass
        .steps
        .iter()
        .filter_map(|s| s.length)
        .filter(|t| t.numerator > 0)
        .map(|t| {
            let g = gcd(t.numerator, t.denominator);
            ((t.numerator / g) as u16, (t.denominator / g) as u16)
        })
        .collect();
    let delays: Vec<(u16, u16)> = frames.iter().map(|f| (f.0, f.1)).collect();
    assert_eq!(delays, expected);
    assert!(
        delays.iter().all(|(_, d)| 60 % d == 0),
        "ticks stay in 60ths: {delays:?}"
    );
}

#[test]
fn the_demo_keeps_full_alpha_and_every_frame_is_the_renderers_picture() {
    let mut document = open(&Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat"));
    // Half-transparent art, so partial alpha has something to keep.
    for frame in document.frames.values_mut() {
        for element in &mut frame.elements {
            if let ElementKind::Graphic(g) = &mut element.kind {
                g.opacity = OPAQUE / 2;
            }
        }
    }
    let sequence = document.sequences()[0];
    let store = ImageStore::new();
    let options = RenderOptions::default();
    let apng = export_apng(&document, sequence.id, 0, &store, &options, None).unwrap();
    let (_, _, frames) = decode(&apng.bytes);
    let pass = timeline(&document, sequence.id, 0).unwrap();
    let shown: Vec<_> = pass
        .steps
        .iter()
        .filter(|s| s.length.is_none_or(|t| t.numerator > 0))
        .collect();
    assert_eq!(frames.len(), shown.len());
    let rect = direction_bounds(&document, sequence.id, 0, &store, &options).unwrap();
    let fixed = RenderOptions {
        bounds: CanvasBounds::Fixed(rect),
        ..options
    };
    let mut alphas = std::collections::HashSet::new();
    for (frame, step) in frames.iter().zip(&shown) {
        let scene = Scene::at(
            &document,
            step.sequence,
            step.direction,
            step.index,
            options.box_rule,
        )
        .unwrap();
        let picture = render(&document, &scene, &store, &fixed);
        assert!(
            frame.2 == picture.as_raw().as_slice(),
            "frame {} differs",
            step.index
        );
        alphas.extend(frame.2.chunks_exact(4).map(|p| p[3]));
    }
    // Transparent background and partly transparent pixels both survive (a GIF has neither).
    assert!(alphas.contains(&0));
    assert!(alphas.iter().any(|&a| a > 0 && a < 255), "{alphas:?}");
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}
