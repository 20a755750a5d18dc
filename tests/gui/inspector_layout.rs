//! The inspector's rows keep apart: no text is painted over another, whatever the row says
//! (a frame shared with other cells, on a real Aseprite file with linked cels), at both
//! window sizes and UI scales.

use egui::epaint::{ClippedShape, Shape};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sprat::app::SpratApp;
use sprat::app::context::document::OpenDocument;
use sprat::app::context::platform::ScriptedDialogs;
use sprat::app::context::settings::Settings;
use sprat::model::*;

/// An Aseprite file's ping-pong tag as its reader spells it out: the file's frames 0, 1, 2
/// played 0 1 2 1, cells 1 and 3 showing the same frame of the file.
fn ping_pong() -> AnimationSet {
    let mut set = AnimationSet::new();
    let id = SequenceId(set.alloc_id());
    let direction = DirectionId(set.alloc_id());
    let mut sequence = Sequence::new(id, "bounce", direction);
    let mut ids = Vec::new();
    for _ in 0..3 {
        let frame_id = FrameId(set.alloc_id());
        set.frames
            .insert(frame_id, Frame::new(FrameDuration::Millis(100)));
        ids.push(frame_id);
    }
    sequence.directions[0].frames = vec![ids[0], ids[1], ids[2], ids[1]];
    set.root.items.push(TreeItem::Sequence(sequence));
    set
}

/// The editor at `size`, showing [`ping_pong`] as an Aseprite file.
fn editor(size: egui::Vec2, scale: f32) -> Harness<'static, SpratApp> {
    let mut harness = Harness::builder().with_size(size).build_eframe(move |_cc| {
        let mut settings = Settings::default();
        settings.appearance.ui_scale = scale;
        let mut app = SpratApp::new(settings, Box::new(ScriptedDialogs::default()));
        let format = sprat::formats::registry().by_id("aseprite").unwrap();
        let path = std::path::PathBuf::from("bounce.aseprite");
        app.show_document(OpenDocument::new(
            ping_pong(),
            Some(path),
            format,
            Vec::new(),
        ));
        app
    });
    harness.run_steps(4);
    harness
}

/// Every painted text with where it shows (its bounds within its clip rectangle).
fn texts(harness: &Harness<'_, SpratApp>) -> Vec<(String, egui::Rect)> {
    fn visit(shape: &Shape, clip: egui::Rect, out: &mut Vec<(String, egui::Rect)>) {
        match shape {
            Shape::Vec(shapes) => shapes.iter().for_each(|s| visit(s, clip, out)),
            Shape::Text(text) => {
                let words = text.galley.text().trim().to_string();
                let rect = text.visual_bounding_rect().intersect(clip);
                if !words.is_empty() && rect.is_positive() {
                    out.push((words, rect));
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for ClippedShape {
        clip_rect, shape, ..
    } in &harness.output().shapes
    {
        visit(shape, *clip_rect, &mut out);
    }
    out
}

/// The pairs of texts painted over each other among those that meet `rect`.
fn overlaps_within(harness: &Harness<'_, SpratApp>, rect: egui::Rect) -> Vec<String> {
    let shown: Vec<(String, egui::Rect)> = texts(harness)
        .into_iter()
        .filter(|(_, r)| r.intersects(rect))
        .collect();
    let mut out = Vec::new();
    for (i, (a, ra)) in shown.iter().enumerate() {
        for (b, rb) in &shown[i + 1..] {
            // A point of shared edge is not an overlap.
            if ra.shrink(1.0).intersects(rb.shrink(1.0)) {
                out.push(format!("{a:?} at {ra:?} overlaps {b:?} at {rb:?}"));
            }
        }
    }
    out
}

#[test]
fn a_frame_shared_with_another_cell_says_so_without_overlapping_its_label() {
    let mut failures = Vec::new();
    for size in [egui::vec2(1280.0, 800.0), egui::vec2(1024.0, 768.0)] {
        for scale in [1.0, 2.0] {
            let mut harness = editor(size, scale);
            let sharing = harness
                .state()
                .active_document()
                .unwrap()
                .cells_sharing_frames();
            let cell = sharing
                .iter()
                .position(|others| !others.is_empty())
                .expect("linked cels make cells that share a frame");
            // The inspector's column: from its "Id" label to the window's right edge.
            let left = harness.get_by_label("Id").rect().left() - 4.0;
            let inspector = egui::Rect::from_min_max(
                egui::pos2(left, 0.0),
                egui::pos2(f32::INFINITY, f32::INFINITY),
            );
            // Every frame painted counts, the first after the click too: a row that appears
            // must not be painted over its neighbour while the layout catches up.
            harness.get_by_label(&format!("frame {cell}")).click();
            for step in 0..4 {
                harness.step();
                for overlap in overlaps_within(&harness, inspector) {
                    failures.push(format!(
                        "{size:?} at scale {scale}, paint {step}: {overlap}"
                    ));
                }
            }
            assert!(
                harness
                    .query_by_label_contains("edits here change it too")
                    .is_some(),
                "the inspector says the frame is shared"
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
