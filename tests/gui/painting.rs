//! Painting only when the picture changes: an event loop run on a simulated clock, sleeping
//! as long as the editor asks after each frame, counts the frames the editor paints.

use egui::Key;
use egui_kittest::Harness;
use sprat::app::SpratApp;
use std::time::Duration;

/// How long the editor asked to sleep after its last frame (`Duration::MAX` = until input).
pub fn repaint_delay(harness: &Harness<'_, SpratApp>) -> Duration {
    harness
        .output()
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .map_or(Duration::MAX, |v| v.repaint_delay)
}

/// What an event loop did for the editor over a stretch of simulated time.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Painting {
    /// Frames painted.
    pub painted: usize,
    /// Times the editor woke up after sleeping (frames asked for after a delay; the others are
    /// asked for at once, by egui or by the editor).
    pub wakeups: usize,
    /// Painted frames that showed another frame of the animation.
    pub changes: usize,
    /// Why each frame asked at once for another (egui's file:line and reason), to say what
    /// asked when a test fails.
    pub immediate_causes: Vec<String>,
}

fn frame_index(harness: &Harness<'_, SpratApp>) -> usize {
    harness
        .state()
        .active_document()
        .unwrap()
        .player
        .frame_index()
}

/// Runs the editor as an event loop would for `seconds` of simulated time with no input: it
/// sleeps as long as the editor asked after each frame, then paints.
pub fn frames_painted_in(harness: &mut Harness<'_, SpratApp>, seconds: f64) -> Painting {
    let mut now = harness.ctx.input(|i| i.time);
    let end = now + seconds;
    let mut painting = Painting::default();
    loop {
        let delay = repaint_delay(harness);
        // An editor repainting without pause would never let time pass: stop it there.
        if delay == Duration::MAX || painting.painted > 10_000 {
            return painting;
        }
        if delay == Duration::ZERO {
            let causes = harness.ctx.repaint_causes();
            painting
                .immediate_causes
                .extend(causes.iter().map(|c| c.to_string()));
        }
        now += delay.as_secs_f64();
        if now > end {
            return painting;
        }
        let before = frame_index(harness);
        harness.input_mut().time = Some(now);
        harness.step();
        painting.painted += 1;
        painting.wakeups += usize::from(delay > Duration::ZERO);
        painting.changes += usize::from(frame_index(harness) != before);
    }
}

/// Paints the frames asked for at once (what input changed), as an event loop does.
fn settle(harness: &mut Harness<'_, SpratApp>) {
    for _ in 0..10 {
        if repaint_delay(harness) != Duration::ZERO {
            return;
        }
        harness.step();
    }
}

#[test]
fn playing_kfm_standing_paints_once_per_picture_change() {
    let kfm = crate::common::corpus().join("mugen/kfm/kfm.def");
    let mut harness = crate::gui_support::editor_opening(&kfm, &[], egui::vec2(1280.0, 800.0));
    // The background check's answer is a change to paint: let it come before counting.
    crate::gui_support::wait_for_check(&mut harness);
    let doc = harness.state().active_document().unwrap();
    assert_eq!(
        doc.sequence().unwrap().name,
        "0",
        "KFM opens on its standing action"
    );
    // The engine's own count: picture changes over the action's 151 ticks at 60 per second.
    let mut reference = doc.player.clone();
    reference.toggle(doc.session.document());
    let document = doc.session.document().clone();
    let ticks = 151;
    let mut expected = 0;
    for _ in 0..ticks {
        let before = reference.frame_index();
        reference.advance(&document, Duration::from_nanos(1_000_000_000 / 60));
        expected += usize::from(reference.frame_index() != before);
    }
    assert!((10..=12).contains(&expected), "KFM's action 0: {expected}");

    // Space plays, from the keyboard, with the pointer nowhere near a widget.
    harness.key_press(Key::Space);
    harness.step();
    // The frames that start playing lay out what the key changed (the Pause button): they
    // come at once, before the clock is looked at.
    settle(&mut harness);
    let painting = frames_painted_in(&mut harness, f64::from(ticks) / 60.0);
    assert!(
        painting.changes.abs_diff(expected) <= 1,
        "{painting:?}: the engine counts {expected} picture changes"
    );
    assert_eq!(
        painting.wakeups, painting.changes,
        "the editor woke up only to show the next picture: {painting:#?}"
    );
    // The count the issue asks for: one paint per picture change, give or take one.
    assert!(
        painting.painted.abs_diff(expected) <= 1,
        "one paint per picture change ({expected}), not {}: {painting:#?}",
        painting.painted
    );
}
