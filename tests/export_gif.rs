//! Animated GIF export: timing follows the playback engine exactly, the repeat count follows
//! the sequence's end, and the pictures are the renderer's.

use image::codecs::gif::GifDecoder;
use image::{AnimationDecoder, Rgba, RgbaImage};
use sprat::export::{Ending, export_gif, timeline::timeline};
use sprat::model::*;
use sprat::pixels::{PixelSource, SourcePixels};
use sprat::render::{Background, RenderOptions};
use std::io::Cursor;
use std::sync::Arc;

/// Every image id is a 2×2 square whose red channel is the id, so frames are told apart by
/// colour.
struct Squares;

impl PixelSource for Squares {
    fn pixels(&self, _: &AnimationSet, source: &GraphicSource) -> Option<SourcePixels> {
        let GraphicSource::Image(id) = source else {
            return None;
        };
        Some(SourcePixels {
            image: Arc::new(RgbaImage::from_pixel(
                2,
                2,
                Rgba([(id.0 as u8).wrapping_mul(40), 100, 50, 255]),
            )),
            axis: (0, 0),
        })
    }
}

/// A set with one sequence per entry: (name, durations, loop point, end, follow-up). Frame `i`
/// of a sequence shows image `i + 1` moved `i` pixels right.
type SequenceSpec<'a> = (
    &'a str,
    Vec<FrameDuration>,
    Option<usize>,
    EndBehavior,
    Option<&'a str>,
);

fn document(specs: Vec<SequenceSpec>) -> (AnimationSet, Vec<SequenceId>) {
    let mut set = AnimationSet::new();
    let mut ids = Vec::new();
    for (name, durations, loop_point, on_end, follow_up) in specs {
        let mut frames = Vec::new();
        for (i, duration) in durations.into_iter().enumerate() {
            let mut frame = Frame::new(duration);
            let element = ElementId(set.alloc_id());
            frame.elements.push(Element {
                id: element,
                name: Name::default(),
                kind: ElementKind::Graphic(Graphic::new(
                    GraphicSource::Image(ImageId(i as u64 + 1)),
                    Point::from_ints(i as i32, 0),
                    Origin::At(Point::ZERO),
                )),
            });
            let id = FrameId(set.alloc_id());
            set.frames.insert(id, frame);
            frames.push(id);
        }
        let id = SequenceId(set.alloc_id());
        let mut sequence = Sequence::new(id, name, DirectionId(set.alloc_id()));
        sequence.directions[0].frames = frames;
        sequence.loop_point = loop_point;
        sequence.on_end = on_end;
        sequence.follow_up = follow_up.map(str::to_string);
        set.root.items.push(TreeItem::Sequence(sequence));
        ids.push(id);
    }
    (set, ids)
}

fn one(
    durations: Vec<FrameDuration>,
    loop_point: Option<usize>,
    on_end: EndBehavior,
) -> (AnimationSet, SequenceId) {
    let (set, ids) = document(vec![("main", durations, loop_point, on_end, None)]);
    (set, ids[0])
}

/// The decoded frames of a GIF and their delays in milliseconds.
fn decode(bytes: &[u8]) -> Vec<(RgbaImage, u32)> {
    let decoder = GifDecoder::new(Cursor::new(bytes)).unwrap();
    decoder
        .into_frames()
        .collect_frames()
        .unwrap()
        .into_iter()
        .map(|f| {
            let (n, d) = f.delay().numer_denom_ms();
            (f.into_buffer(), n / d)
        })
        .collect()
}

/// True when the GIF carries the NETSCAPE looping extension (absent = plays once).
fn loops_forever(bytes: &[u8]) -> bool {
    bytes.windows(11).any(|w| w == b"NETSCAPE2.0")
}

#[test]
fn seven_one_tick_frames_take_exactly_120_ms_and_loop() {
    let (set, id) = one(
        vec![FrameDuration::Ticks(1); 7],
        Some(0),
        EndBehavior::HoldLastFrame,
    );
    let gif = export_gif(&set, id, 0, &Squares, &RenderOptions::default(), None).unwrap();
    let frames = decode(&gif.bytes);
    let delays: Vec<u32> = frames.iter().map(|f| f.1).collect();
    assert_eq!(delays, vec![20, 10, 20, 20, 10, 20, 20]);
    assert_eq!(gif.total_centiseconds, 12);
    assert!(gif.repeats && loops_forever(&gif.bytes));
    assert_eq!(gif.ending, Ending::Loops { to: 0 });
}

#[test]
fn every_frame_shares_one_canvas_so_the_sprite_does_not_jump() {
    let (set, id) = one(
        vec![FrameDuration::Millis(100); 3],
        Some(0),
        EndBehavior::HoldLastFrame,
    );
    let gif = export_gif(&set, id, 0, &Squares, &RenderOptions::default(), None).unwrap();
    let frames = decode(&gif.bytes);
    // Frames sit at x = 0, 1, 2 and are 2 wide: the canvas is 4 wide for all.
    assert!(frames.iter().all(|f| f.0.dimensions() == (4, 2)));
    assert_eq!(frames[0].0.get_pixel(0, 0).0[0], 40);
    assert_eq!(frames[0].0.get_pixel(3, 0).0[3], 0);
    assert_eq!(frames[2].0.get_pixel(3, 0).0[0], 120);
}

#[test]
fn a_sequence_without_loop_plays_once_and_holds_its_last_frame() {
    let (set, id) = one(
        vec![FrameDuration::Millis(50), FrameDuration::Millis(70)],
        None,
        EndBehavior::HoldLastFrame,
    );
    let gif = export_gif(&set, id, 0, &Squares, &RenderOptions::default(), None).unwrap();
    assert!(!gif.repeats && !loops_forever(&gif.bytes));
    assert_eq!(gif.ending, Ending::HoldsLastFrame);
    let frames = decode(&gif.bytes);
    assert_eq!(frames.len(), 2);
    assert_eq!(frames[1].0.get_pixel(1, 0).0[0], 80);
}

#[test]
fn a_solarus_disappearing_sequence_ends_on_an_empty_frame() {
    let (set, id) = one(
        vec![FrameDuration::Millis(100), FrameDuration::Millis(100)],
        None,
        EndBehavior::Disappear,
    );
    let options = RenderOptions {
        background: Background::Colour([0, 0, 255, 255]),
        ..RenderOptions::default()
    };
    let gif = export_gif(&set, id, 0, &Squares, &options, None).unwrap();
    let frames = decode(&gif.bytes);
    assert_eq!(gif.ending, Ending::Disappears);
    assert!(!loops_forever(&gif.bytes));
    assert_eq!(frames.len(), 3);
    assert_eq!(frames[1].1, 100);
    // The last picture is only the background.
    assert!(frames[2].0.pixels().all(|p| p.0 == [0, 0, 255, 255]));
}

#[test]
fn a_forever_frame_ends_the_gif_there() {
    let (set, id) = one(
        vec![
            FrameDuration::Ticks(6),
            FrameDuration::Forever,
            FrameDuration::Ticks(6),
        ],
        Some(0),
        EndBehavior::HoldLastFrame,
    );
    let gif = export_gif(&set, id, 0, &Squares, &RenderOptions::default(), None).unwrap();
    assert_eq!(gif.ending, Ending::Forever);
    assert!(!gif.repeats);
    let frames = decode(&gif.bytes);
    assert_eq!(frames.len(), 2);
    assert_eq!(frames[0].1, 100);
}

#[test]
fn zero_length_frames_are_skipped_like_the_engine_does() {
    let (set, id) = one(
        vec![
            FrameDuration::Ticks(3),
            FrameDuration::Ticks(0),
            FrameDuration::Ticks(3),
        ],
        Some(0),
        EndBehavior::HoldLastFrame,
    );
    let pass = timeline(&set, id, 0).unwrap();
    let indices: Vec<usize> = pass.steps.iter().map(|s| s.index).collect();
    assert_eq!(indices, vec![0, 2]);
    let gif = export_gif(&set, id, 0, &Squares, &RenderOptions::default(), None).unwrap();
    assert_eq!(decode(&gif.bytes).len(), 2);
}

#[test]
fn a_loop_point_after_the_first_frame_is_reported() {
    let (set, id) = one(
        vec![FrameDuration::Millis(100); 4],
        Some(2),
        EndBehavior::HoldLastFrame,
    );
    let gif = export_gif(&set, id, 0, &Squares, &RenderOptions::default(), None).unwrap();
    assert_eq!(gif.ending, Ending::Loops { to: 2 });
    assert!(gif.repeats);
    assert_eq!(decode(&gif.bytes).len(), 4);
}

#[test]
fn a_follow_up_ends_the_pass_and_plays_once() {
    let (set, ids) = document(vec![
        (
            "attack",
            vec![FrameDuration::Millis(80); 2],
            Some(0),
            EndBehavior::HoldLastFrame,
            Some("idle"),
        ),
        (
            "idle",
            vec![FrameDuration::Millis(200)],
            Some(0),
            EndBehavior::HoldLastFrame,
            None,
        ),
    ]);
    let gif = export_gif(&set, ids[0], 0, &Squares, &RenderOptions::default(), None).unwrap();
    assert_eq!(gif.ending, Ending::FollowUp(ids[1]));
    assert!(!gif.repeats);
    assert_eq!(gif.total_centiseconds, 16);
}

#[test]
fn holds_use_the_sequence_frame_rate() {
    let (mut set, id) = one(
        vec![FrameDuration::Holds(1); 3],
        Some(0),
        EndBehavior::HoldLastFrame,
    );
    set.frame_rate = Some(30);
    set.sequence_mut(id).unwrap().frame_rate = Some(12);
    let gif = export_gif(&set, id, 0, &Squares, &RenderOptions::default(), None).unwrap();
    let delays: Vec<u32> = decode(&gif.bytes).iter().map(|f| f.1).collect();
    assert_eq!(delays, vec![80, 90, 80]);
}

#[test]
fn very_long_frames_are_split_across_gif_frames() {
    // 700 s exceeds the 655.35 s one GIF delay can hold.
    let (set, id) = one(
        vec![FrameDuration::Millis(700_000), FrameDuration::Millis(10)],
        Some(0),
        EndBehavior::HoldLastFrame,
    );
    let gif = export_gif(&set, id, 0, &Squares, &RenderOptions::default(), None).unwrap();
    let delays: Vec<u32> = decode(&gif.bytes).iter().map(|f| f.1).collect();
    assert_eq!(delays, vec![655_350, 44_650, 10]);
}

#[test]
fn missing_sequences_and_empty_directions_are_errors() {
    let (set, id) = one(vec![], Some(0), EndBehavior::HoldLastFrame);
    assert!(export_gif(&set, id, 0, &Squares, &RenderOptions::default(), None).is_err());
    assert!(export_gif(&set, id, 3, &Squares, &RenderOptions::default(), None).is_err());
    assert!(
        export_gif(
            &set,
            SequenceId(999),
            0,
            &Squares,
            &RenderOptions::default(),
            None
        )
        .is_err()
    );
}
