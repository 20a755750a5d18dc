//! The editor laid out at 1280x800 and 1024x768, at UI scale 1 and 2, on a real character:
//! no text is cut short ("Standing Anim…") or runs past the edge of what shows it.

use crate::{common, gui_support};
use egui::accesskit::Role;
use egui::epaint::{ClippedShape, Shape};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sprat::app::SpratApp;

/// Every painted text that egui cut short with "…" or that its clip rectangle cuts on the
/// left or right, with where.
fn cut_texts(harness: &Harness<'_, SpratApp>) -> Vec<String> {
    // A one-line text field scrolls its own text, as on every desktop: not a cut label.
    let fields: Vec<egui::Rect> = harness
        .get_all_by_role(Role::TextInput)
        .map(|n| n.rect().expand(1.0))
        .collect();
    let visit = |shape: &Shape, clip: egui::Rect, out: &mut Vec<String>| {
        visit_shape(shape, clip, &fields, out)
    };
    let mut out = Vec::new();
    for ClippedShape {
        clip_rect, shape, ..
    } in &harness.output().shapes
    {
        visit(shape, *clip_rect, &mut out);
    }
    out
}

fn visit_shape(shape: &Shape, clip: egui::Rect, fields: &[egui::Rect], out: &mut Vec<String>) {
    {
        match shape {
            Shape::Vec(shapes) => shapes
                .iter()
                .for_each(|s| visit_shape(s, clip, fields, out)),
            Shape::Text(text) => {
                let rect = text.visual_bounding_rect();
                let words = text.galley.text().to_string();
                // The timeline's cells scroll sideways: their numbers and durations may be
                // half in view at its edge, as the cells themselves are.
                let cell_text = words
                    .chars()
                    .all(|c| c.is_ascii_digit() || matches!(c, '.' | '=' | ',' | '∞'));
                let in_field = fields.iter().any(|f| f.contains_rect(clip));
                if words.trim().is_empty() || cell_text || in_field {
                    return;
                }
                if text.galley.elided {
                    out.push(format!("{words:?} is cut short at {rect:?}"));
                } else if rect.intersects(clip)
                    && rect.top() >= clip.top()
                    && rect.bottom() <= clip.bottom()
                    && (rect.left() < clip.left() - 0.5 || rect.right() > clip.right() + 0.5)
                {
                    out.push(format!("{words:?} at {rect:?} runs past {clip:?}"));
                }
            }
            _ => {}
        }
    }
}

/// What is cut when `path` is laid out at both sizes and scales, after `then` (a tool
/// chosen, say).
fn cut_at_every_size(
    path: &std::path::Path,
    then: impl Fn(&mut Harness<'_, SpratApp>),
) -> Vec<String> {
    let mut failures = Vec::new();
    for size in [egui::vec2(1280.0, 800.0), egui::vec2(1024.0, 768.0)] {
        for scale in [1.0, 2.0] {
            let mut harness = gui_support::editor_opening(path, &[], size);
            harness.state_mut().settings.appearance.ui_scale = scale;
            harness.run_steps(4);
            then(&mut harness);
            harness.run_steps(2);
            for cut in cut_texts(&harness) {
                failures.push(format!("{size:?} at scale {scale}: {cut}"));
            }
        }
    }
    failures
}

#[test]
fn kfm_fits_at_1280x800_and_1024x768_at_scale_1_and_2() {
    let kfm = common::corpus().join("mugen/kfm/kfm.def");
    let failures = cut_at_every_size(&kfm, |_| {});
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_layered_aseprite_file_with_the_box_tool_fits_at_both_sizes_and_scales() {
    // Its layers make a note ("0 errors, 0 warnings, 1 note"); its frames have no slices, so
    // the Copy boxes buttons show greyed out; the Box tool adds its class list.
    let file = common::corpus().join("aseprite/layers_and_tags.aseprite");
    let failures = cut_at_every_size(&file, |harness| {
        gui_support::wait_for_check(harness);
        harness.get_by_label("0 errors, 0 warnings, 1 note");
        harness.get_by_label("Box").click();
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_solarus_sprite_on_its_source_sheet_fits_at_both_sizes_and_scales() {
    // The delay field instead of a duration per frame, directions named in the transport, the
    // sheet's tools with "draw a frame" greyed out.
    let tunic = common::corpus().join("solarus/lua-1.x/zsdx/sprites/hero/tunic1.dat");
    let failures = cut_at_every_size(&tunic, |harness| {
        gui_support::click_row(harness, "walking");
        harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Num4);
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn kfm_on_its_sprites_tab_fits_at_both_sizes_and_scales() {
    let kfm = common::corpus().join("mugen/kfm/kfm.def");
    let failures = cut_at_every_size(&kfm, |harness| {
        harness
            .get_by_role_and_label(Role::Button, "Sprites")
            .click();
        harness.run_steps(3);
        gui_support::type_into(harness, "Find sprites", "0,0");
        harness.run_steps(2);
        harness.get_by_label_contains("0,0  ").click();
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What is cut when KFM is laid out at both sizes and scales with a window or menu open:
/// `open` opens it, and `shown` is a label it shows (so a window that did not open fails).
fn cut_with_open(
    name: &str,
    open: impl Fn(&mut Harness<'_, SpratApp>),
    shown: &str,
) -> Vec<String> {
    let kfm = common::corpus().join("mugen/kfm/kfm.def");
    cut_at_every_size(&kfm, |harness| {
        gui_support::wait_for_check(harness);
        open(harness);
        harness.run_steps(3);
        assert!(
            harness.query_all_by_label(shown).next().is_some(),
            "{name} shows no {shown:?}"
        );
    })
    .into_iter()
    .map(|cut| format!("{name}: {cut}"))
    .collect()
}

#[test]
fn the_retime_align_and_export_windows_fit_at_both_sizes_and_scales() {
    let mut failures = Vec::new();
    let ctrl = egui::Modifiers::COMMAND;
    for (name, modifiers, key, shown) in [
        ("Retime", ctrl, egui::Key::T, "Factor"),
        (
            "Align",
            ctrl | egui::Modifiers::SHIFT,
            egui::Key::A,
            "Anchor",
        ),
        ("Export", ctrl, egui::Key::E, "Boxes and points"),
    ] {
        let open = |h: &mut Harness<'_, SpratApp>| h.key_press_modifiers(modifiers, key);
        failures.extend(cut_with_open(name, open, shown));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_history_and_the_shortcuts_fit_at_both_sizes_and_scales() {
    let mut failures = Vec::new();
    for (name, key, modifiers, shown) in [
        ("History", egui::Key::H, egui::Modifiers::COMMAND, "History"),
        (
            "Shortcuts",
            egui::Key::F1,
            egui::Modifiers::NONE,
            "Keyboard shortcuts",
        ),
    ] {
        let open = |h: &mut Harness<'_, SpratApp>| h.key_press_modifiers(modifiers, key);
        failures.extend(cut_with_open(name, open, shown));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
