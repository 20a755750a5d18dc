//! The window cleared to the panel colour by the backend (as eframe's GL and wgpu painters do
//! before each paint): the panels paint no fill of their own, the window looks the same, and a
//! paint covers less of it (with software GL each layer over the window costs a pass over its
//! pixels).

use crate::common;

use egui::epaint::{ClippedPrimitive, Primitive};
use egui::{Color32, Pos2, Rect};
use egui_kittest::Harness;
use sprat::app::SpratApp;
use sprat::app::context::platform::ScriptedDialogs;
use sprat::app::context::settings::Settings;

const WIDTH: f32 = 1280.0;
const HEIGHT: f32 = 800.0;

/// The editor, with the window cleared as eframe's painters clear it when `cleared` (the
/// test harness clears to transparent): to the colour the editor asks for, under everything.
struct Window {
    app: SpratApp,
    cleared: bool,
}

impl eframe::App for Window {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        if self.cleared {
            let visuals = ui.ctx().global_style().visuals.clone();
            let [r, g, b, a] = eframe::App::clear_color(&self.app, &visuals).map(|c| c * 255.0);
            let colour = Color32::from_rgba_premultiplied(r as u8, g as u8, b as u8, a as u8);
            ui.painter()
                .rect_filled(ui.ctx().content_rect(), 0.0, colour);
        }
        eframe::App::ui(&mut self.app, ui, frame);
    }
}

/// The editor on KFM (its boxes, the tree, inspector and timeline all showing).
fn kfm_editor(cleared: bool) -> Harness<'static, Window> {
    let path = common::corpus().join("mugen/kfm/kfm.def");
    let mut harness = Harness::builder()
        .with_size(egui::vec2(WIDTH, HEIGHT))
        .wgpu()
        .build_eframe(move |cc| {
            let mut app = SpratApp::new(Settings::default(), Box::new(ScriptedDialogs::default()));
            app.open_path(&cc.egui_ctx, path);
            Window { app, cleared }
        });
    for _ in 0..400 {
        harness.step();
        if !harness.state().app.is_loading() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // The status bar and diagnostics are the background check's, the timeline's thumbnails
    // the worker's, once both have ended.
    let options = sprat::check::CheckOptions::default();
    for _ in 0..3000 {
        harness.step();
        let app = &harness.state().app;
        let checking = app
            .active_document()
            .expect("KFM is open")
            .is_checking(&options);
        if !checking && !app.textures.thumbnails_pending() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    harness.run_steps(4);
    harness
}

/// The area the last paint's triangles cover, each clipped to its clip rectangle, in
/// points: how many pixels a software GL driver shades at a scale of one, counted once per
/// layer that covers them.
fn painted_area(harness: &Harness<'_, Window>) -> f32 {
    let output = harness.output();
    let primitives = harness
        .ctx
        .tessellate(output.shapes.clone(), output.pixels_per_point);
    primitives
        .iter()
        .map(
            |ClippedPrimitive {
                 clip_rect,
                 primitive,
             }| match primitive {
                Primitive::Mesh(mesh) => mesh
                    .indices
                    .chunks_exact(3)
                    .map(|t| {
                        let corner = |i: u32| mesh.vertices[i as usize].pos;
                        clipped_area(&[corner(t[0]), corner(t[1]), corner(t[2])], *clip_rect)
                    })
                    .sum(),
                Primitive::Callback(callback) => callback.rect.intersect(*clip_rect).area(),
            },
        )
        .sum()
}

/// The area of the triangle `corners` inside `clip` (the polygon cut by each of its edges).
fn clipped_area(corners: &[Pos2; 3], clip: Rect) -> f32 {
    let mut polygon = corners.to_vec();
    // Each edge: the coordinate it limits (0 for x, 1 for y), where, and which side is in.
    let edges = [
        (0, clip.min.x, true),
        (0, clip.max.x, false),
        (1, clip.min.y, true),
        (1, clip.max.y, false),
    ];
    for (axis, limit, keep_above) in edges {
        let coordinate = |p: Pos2| p[axis];
        let inside = |p: Pos2| (coordinate(p) >= limit) == keep_above;
        let mut cut = Vec::with_capacity(polygon.len() + 1);
        for (i, &a) in polygon.iter().enumerate() {
            let b = polygon[(i + 1) % polygon.len()];
            if inside(a) {
                cut.push(a);
            }
            if inside(a) != inside(b) {
                let t = (limit - coordinate(a)) / (coordinate(b) - coordinate(a));
                cut.push(a + (b - a) * t);
            }
        }
        polygon = cut;
        if polygon.len() < 3 {
            return 0.0;
        }
    }
    let twice: f32 = (0..polygon.len())
        .map(|i| {
            let (a, b) = (polygon[i], polygon[(i + 1) % polygon.len()]);
            a.x * b.y - b.x * a.y
        })
        .sum();
    twice.abs() / 2.0
}

#[test]
fn a_window_cleared_to_the_panel_colour_looks_the_same_with_less_painted() {
    let mut filled = kfm_editor(false);
    let mut cleared = kfm_editor(true);
    let window = WIDTH * HEIGHT;
    // The clear stands for a layer here: in a GL driver it is far cheaper than one.
    let (filled_area, cleared_area) = (painted_area(&filled), painted_area(&cleared) - window);
    // The bars and side panels take more than half the window: their fills are gone.
    assert!(
        cleared_area < filled_area - 0.5 * window,
        "painted {cleared_area} points over a cleared window, {filled_area} over an uncleared one"
    );
    // The panels leave their pixels to the clear, which puts the colour they painted there
    // (give or take the rounding of a blend at a panel's anti-aliased edge).
    let expected = filled.render().expect("the editor renders on the CPU");
    let painted = cleared.render().expect("the editor renders on the CPU");
    let differing = expected
        .pixels()
        .zip(painted.pixels())
        .filter(|(want, got)| (0..4).any(|c| want.0[c].abs_diff(got.0[c]) > 2))
        .count();
    assert_eq!(differing, 0, "pixels that differ from the filled window's");
}
