//! One test per playback rule.

use super::*;
use crate::model::*;

/// Builds a one-direction sequence from durations; returns the set and the sequence id.
fn set_with(durations: &[FrameDuration], loop_point: Option<usize>) -> (AnimationSet, SequenceId) {
    let mut set = AnimationSet::new();
    let id = add_sequence(&mut set, "main", durations, loop_point);
    (set, id)
}

fn add_sequence(
    set: &mut AnimationSet,
    name: &str,
    durations: &[FrameDuration],
    loop_point: Option<usize>,
) -> SequenceId {
    let mut frames = Vec::new();
    for (i, d) in durations.iter().enumerate() {
        let id = FrameId(set.alloc_id());
        let mut frame = Frame::new(*d);
        frame.label = format!("{name}{i}");
        set.frames.insert(id, frame);
        frames.push(id);
    }
    let seq_id = SequenceId(set.alloc_id());
    let mut sequence = Sequence::new(seq_id, name, DirectionId(set.alloc_id()));
    sequence.directions[0].frames = frames;
    sequence.loop_point = loop_point;
    set.root.items.push(TreeItem::Sequence(sequence));
    seq_id
}

fn playing(set: &AnimationSet, id: SequenceId) -> Player {
    let mut p = Player::new(set, id, 0);
    p.play(set);
    p
}

/// Frames lasting these numbers of ticks.
fn ticks(counts: &[u32]) -> Vec<FrameDuration> {
    counts.iter().map(|&n| FrameDuration::Ticks(n)).collect()
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn ten_minutes_at_60hz_lands_on_the_exact_frame() {
    // Three frames of 1, 2 and 3 ticks: a 6-tick cycle.
    let durations = ticks(&[1, 2, 3]);
    let (set, id) = set_with(&durations, Some(0));
    let mut p = playing(&set, id);
    // Uneven steps (a 144 Hz display with jitter) that add up to exactly 600 s.
    let steps = [6_944_444u64, 6_944_445, 6_944_444, 7_000_000, 6_888_889];
    let mut total = 0u64;
    let limit = 600_000_000_000u64;
    let mut i = 0;
    while total < limit {
        let step = steps[i % steps.len()].min(limit - total);
        p.advance(&set, Duration::from_nanos(step));
        total += step;
        i += 1;
    }
    // 600 s = 36000 ticks = 6000 whole cycles: back at frame 0, at its very start.
    assert_eq!(p.frame_index(), 0);
    assert_eq!(p.seconds_in_frame(), 0.0);
    // One more tick and a bit moves to frame 1.
    p.advance(&set, Duration::from_nanos(16_666_667));
    assert_eq!(p.frame_index(), 1);
}

#[test]
fn milliseconds_advance_on_the_exact_boundary() {
    let (set, id) = set_with(&[FrameDuration::Millis(100); 3], Some(0));
    let mut p = playing(&set, id);
    p.advance(&set, ms(99));
    assert_eq!(p.frame_index(), 0);
    p.advance(&set, ms(1));
    assert_eq!(p.frame_index(), 1);
}

#[test]
fn speed_multiplier_scales_time_without_drift() {
    let (set, id) = set_with(&[FrameDuration::Ticks(1); 4], Some(0));
    for speed in [100, 250, 1500, 8000] {
        let mut p = playing(&set, id);
        p.set_speed_milli(speed);
        // 1000 steps of 1 ms of wall time = 1 s * speed = 60 * speed / 1000 ticks.
        for _ in 0..1000 {
            p.advance(&set, ms(1));
        }
        let ticks = 60 * speed as usize / 1000;
        assert_eq!(p.frame_index(), ticks % 4, "speed {speed}");
    }
}

#[test]
fn speed_is_clamped_to_a_tenth_and_eight_times() {
    let (set, id) = set_with(&[FrameDuration::Ticks(1)], Some(0));
    let mut p = Player::new(&set, id, 0);
    p.set_speed_milli(1);
    assert_eq!(p.speed_milli(), 100);
    p.set_speed_milli(100_000);
    assert_eq!(p.speed_milli(), 8000);
}

#[test]
fn loop_point_not_at_zero_repeats_from_there() {
    let (set, id) = set_with(&[FrameDuration::Ticks(1); 4], Some(2));
    let mut p = playing(&set, id);
    let seen: Vec<usize> = (0..8)
        .map(|_| {
            let i = p.frame_index();
            p.advance(&set, Duration::from_nanos(16_666_667));
            i
        })
        .collect();
    assert_eq!(seen, vec![0, 1, 2, 3, 2, 3, 2, 3]);
    assert!(
        p.take_events()
            .contains(&PlaybackEvent::Looped { sequence: id })
    );
}

#[test]
fn no_loop_stops_on_the_last_frame_and_holds_it() {
    let (set, id) = set_with(&[FrameDuration::Millis(10); 3], None);
    let mut p = playing(&set, id);
    p.advance(&set, ms(1000));
    assert_eq!(p.state(), PlayState::Finished);
    assert_eq!(p.frame_index(), 2);
    assert!(p.visible());
}

#[test]
fn solarus_animation_without_loop_disappears_after_its_last_frame() {
    let (mut set, id) = set_with(&[FrameDuration::Millis(10); 3], None);
    set.sequence_mut(id).unwrap().on_end = EndBehavior::Disappear;
    let mut p = playing(&set, id);
    p.advance(&set, ms(29));
    assert!(p.visible());
    p.advance(&set, ms(1));
    assert!(!p.visible());
    assert_eq!(
        p.take_events().last(),
        Some(&PlaybackEvent::Finished {
            sequence: id,
            visible: false
        })
    );
}

#[test]
fn forever_frame_never_advances() {
    let (set, id) = set_with(
        &[
            FrameDuration::Ticks(5),
            FrameDuration::Forever,
            FrameDuration::Ticks(5),
        ],
        Some(0),
    );
    let mut p = playing(&set, id);
    p.advance(&set, Duration::from_secs(3600));
    assert_eq!(p.frame_index(), 1);
    assert_eq!(p.state(), PlayState::Playing);
}

#[test]
fn zero_length_frames_are_skipped() {
    let durations = ticks(&[0, 2, 0, 2]);
    let (set, id) = set_with(&durations, Some(0));
    let p = playing(&set, id);
    assert_eq!(
        p.frame_index(),
        1,
        "a leading zero-length frame is never shown"
    );
    let mut p = p;
    p.advance(&set, Duration::from_nanos(33_333_334));
    assert_eq!(p.frame_index(), 3);
    p.advance(&set, Duration::from_nanos(33_333_334));
    assert_eq!(p.frame_index(), 1, "wraps past the zero-length frame 0");
}

#[test]
fn all_zero_length_frames_do_not_hang() {
    let (set, id) = set_with(&[FrameDuration::Ticks(0); 3], Some(0));
    let mut p = playing(&set, id);
    p.advance(&set, Duration::from_secs(1));
    assert!(p.frame_index() < 3);
}

#[test]
fn holds_use_the_sequence_rate_over_the_master_rate() {
    let (mut set, id) = set_with(&[FrameDuration::Holds(1); 4], Some(0));
    set.frame_rate = Some(10);
    let mut p = playing(&set, id);
    p.advance(&set, ms(100));
    assert_eq!(p.frame_index(), 1);
    set.sequence_mut(id).unwrap().frame_rate = Some(20);
    let mut p = playing(&set, id);
    p.advance(&set, ms(100));
    assert_eq!(p.frame_index(), 2);
}

#[test]
fn follow_up_sequence_starts_after_the_last_frame() {
    let (mut set, attack) = set_with(&[FrameDuration::Millis(50); 2], Some(0));
    let idle = add_sequence(&mut set, "Idle", &[FrameDuration::Millis(100); 2], Some(0));
    set.sequence_mut(attack).unwrap().follow_up = Some("idle".into());
    let mut p = playing(&set, attack);
    p.advance(&set, ms(120));
    assert_eq!(p.sequence(), idle);
    assert_eq!(p.frame_index(), 0);
    assert!(
        (p.seconds_in_frame() - 0.02).abs() < 1e-9,
        "the 20 ms past the end carry over"
    );
    assert!(p.take_events().contains(&PlaybackEvent::SequenceChanged {
        from: attack,
        to: idle
    }));
}

#[test]
fn set_by_name_searches_the_active_group_then_parents_then_default() {
    let mut set = AnimationSet::new();
    let root_walk = add_sequence(&mut set, "walk", &[FrameDuration::Ticks(1)], Some(0));
    let first = root_walk;
    // A group "G" with its own "Walk" and a "run".
    let mut inner = AnimationSet::new();
    inner.next_id = 1000;
    let g_walk = add_sequence(&mut inner, "Walk", &[FrameDuration::Ticks(1)], Some(0));
    let g_run = add_sequence(&mut inner, "run", &[FrameDuration::Ticks(1)], Some(0));
    set.frames.extend(inner.frames.clone());
    let group = Group {
        id: GroupId(999),
        name: "G".into(),
        items: inner.root.items.clone(),
    };
    set.root.items.push(TreeItem::Group(group));
    set.next_id = 2000;

    let mut p = Player::new(&set, g_run, 0);
    assert_eq!(
        p.set_sequence_by_name(&set, "WALK"),
        g_walk,
        "the active group wins"
    );
    let mut p2 = Player::new(&set, root_walk, 0);
    assert_eq!(
        p2.set_sequence_by_name(&set, "run"),
        first,
        "not in the root: the default"
    );
    set.default_sequence = Some(root_walk);
    let mut p3 = Player::new(&set, g_walk, 0);
    assert_eq!(p3.set_sequence_by_name(&set, "nothing"), root_walk);
}

#[test]
fn asking_for_the_playing_sequence_does_not_restart_it() {
    let (set, id) = set_with(&[FrameDuration::Ticks(1); 4], Some(0));
    let mut p = playing(&set, id);
    p.advance(&set, Duration::from_nanos(33_400_000));
    assert_eq!(p.frame_index(), 2);
    p.set_sequence_by_name(&set, "MAIN");
    assert_eq!(p.frame_index(), 2);
    p.restart(&set);
    assert_eq!(p.frame_index(), 0);
}

#[test]
fn triggers_fire_when_their_frame_starts() {
    let (mut set, id) = set_with(&[FrameDuration::Millis(10); 3], Some(0));
    let second = set.sequence(id).unwrap().directions[0].frames[1];
    set.frame_mut(second).unwrap().triggers = "sound step".into();
    let mut p = playing(&set, id);
    p.advance(&set, ms(9));
    assert!(p.take_events().is_empty());
    p.advance(&set, ms(1));
    assert_eq!(
        p.take_events(),
        vec![PlaybackEvent::Triggers {
            sequence: id,
            index: 1,
            triggers: "sound step".into()
        }]
    );
}

#[test]
fn step_and_seek_move_between_frames_and_pause() {
    let (set, id) = set_with(&[FrameDuration::Millis(100); 3], Some(0));
    let mut p = playing(&set, id);
    p.step_forward(&set);
    assert_eq!((p.frame_index(), p.state()), (1, PlayState::Paused));
    p.step_back(&set);
    p.step_back(&set);
    assert_eq!(
        p.frame_index(),
        2,
        "stepping back from the first frame wraps"
    );
    p.seek_frame(&set, 10);
    assert_eq!(p.frame_index(), 2);
    p.seek_time(&set, ms(150));
    assert_eq!(p.frame_index(), 1);
    p.seek_time(&set, ms(350));
    assert_eq!(p.frame_index(), 0, "seeking follows the loop");
}

#[test]
fn pause_stops_time_and_play_resumes() {
    let (set, id) = set_with(&[FrameDuration::Millis(100); 3], Some(0));
    let mut p = playing(&set, id);
    p.advance(&set, ms(50));
    p.pause();
    p.advance(&set, ms(500));
    assert_eq!(p.frame_index(), 0);
    p.play(&set);
    p.advance(&set, ms(50));
    assert_eq!(p.frame_index(), 1);
}

#[test]
fn loop_toggle_off_plays_once_and_holds() {
    let (set, id) = set_with(&[FrameDuration::Millis(10); 2], Some(0));
    let mut p = playing(&set, id);
    p.set_looping(false);
    p.advance(&set, ms(100));
    assert_eq!((p.frame_index(), p.state()), (1, PlayState::Finished));
    p.play(&set);
    assert_eq!(p.frame_index(), 0, "play after the end starts over");
}

#[test]
fn interpolated_offset_moves_linearly_into_the_flagged_frame() {
    let mut set = AnimationSet::new();
    let image = ImageId(set.alloc_id());
    let mut ids = Vec::new();
    for (x, flag) in [(0, false), (10, true)] {
        let id = FrameId(set.alloc_id());
        let mut frame = Frame::new(FrameDuration::Ticks(10));
        frame.interpolation.offset = flag;
        let g = Graphic::new(
            GraphicSource::SffSprite {
                archive: image,
                group: 0,
                image: 0,
            },
            Point::from_ints(x, 0),
            Origin::SourceAxis,
        );
        frame.elements.push(Element {
            id: ElementId(set.alloc_id()),
            name: Name::default(),
            kind: ElementKind::Graphic(g),
        });
        set.frames.insert(id, frame);
        ids.push(id);
    }
    let seq = SequenceId(set.alloc_id());
    let mut s = Sequence::new(seq, "0", DirectionId(set.alloc_id()));
    s.directions[0].frames = ids;
    set.root.items.push(TreeItem::Sequence(s));
    let mut p = playing(&set, seq);
    p.advance(&set, Duration::from_nanos(83_333_334)); // 5 of 10 ticks
    let shown = displayed_frame(&p, &set).unwrap();
    let x = shown.elements[0].as_graphic().unwrap().position.x;
    assert_eq!(x, Fx::from_int(5));
    // The flagged frame itself shows its own value (its successor, frame 0, is not flagged).
    p.advance(&set, Duration::from_nanos(83_333_334));
    let shown = displayed_frame(&p, &set).unwrap();
    assert_eq!(
        shown.elements[0].as_graphic().unwrap().position.x,
        Fx::from_int(10)
    );
}

#[test]
fn the_time_to_the_next_frame_is_exact_and_waiting_it_reaches_that_frame() {
    let (set, id) = set_with(
        &[FrameDuration::Ticks(10), FrameDuration::Millis(250)],
        Some(0),
    );
    let mut p = playing(&set, id);
    p.set_speed_milli(1500);
    // 10 ticks at 1.5x = 1/9 s, rounded up to the nanosecond.
    assert_eq!(
        p.until_next_frame(&set),
        Some(Duration::from_nanos(111_111_112))
    );
    p.advance(&set, ms(50));
    let wait = p.until_next_frame(&set).unwrap();
    assert_eq!(wait, Duration::from_nanos(61_111_112));
    p.advance(&set, wait - Duration::from_nanos(1));
    assert_eq!(
        p.frame_index(),
        0,
        "one nanosecond early is still the first frame"
    );
    p.advance(&set, Duration::from_nanos(1));
    assert_eq!(p.frame_index(), 1);
    // Paused, finished or forever: nothing to wait for.
    p.pause();
    assert_eq!(p.until_next_frame(&set), None);
    let (forever, id) = set_with(&[FrameDuration::Forever], None);
    assert_eq!(playing(&forever, id).until_next_frame(&forever), None);
    let (zero, id) = set_with(&[FrameDuration::Millis(0); 2], Some(0));
    assert_eq!(playing(&zero, id).until_next_frame(&zero), None);
}
