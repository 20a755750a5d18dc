//! The sprite browser driven as a user drives it, on a copy of KFM: find a sprite by its
//! numbers, move its axis (drawn at once, one undo step), renumber it (the actions follow),
//! delete a sprite frames show (asked first), drag one onto the timeline to make a frame, and
//! save the character: the `.sff` is written with the `.air`.

use crate::{common, gui_support};

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use sprat::app::SpratApp;
use sprat::edit::sprites::frames_naming;
use sprat::formats::sff::SffArchive;
use sprat::model::{ImageId, ImageKind};
use sprat::pixels::{PixelSource, SourcePixels};
use std::path::PathBuf;

/// The character `def` open on its Sprites tab; `later` and `file_lists` answer the file
/// dialogs that follow.
fn sprites_tab(
    def: &std::path::Path,
    later: &[PathBuf],
    file_lists: Vec<Vec<PathBuf>>,
) -> Harness<'static, SpratApp> {
    let mut harness =
        gui_support::editor_opening_with(def, later, file_lists, egui::vec2(1280.0, 800.0));
    harness.get_by_label("Sprites").click();
    harness.run_steps(3);
    harness
}

/// KFM open on its Sprites tab, filtered to `filter`, with the sprite `row` clicked.
fn browser_on(filter: &str, row: &str) -> (gui_support::TempDir, Harness<'static, SpratApp>) {
    browser_on_kfm(filter, row, |_| {})
}

/// [`browser_on`], the copy of KFM first changed by `change` (given its folder).
fn browser_on_kfm(
    filter: &str,
    row: &str,
    change: impl FnOnce(&std::path::Path),
) -> (gui_support::TempDir, Harness<'static, SpratApp>) {
    let dir = gui_support::TempDir::new(&format!("sprites-{}", row.replace(',', "-")));
    let def = gui_support::kfm_copy(&dir.0);
    change(&dir.0);
    let mut harness = gui_support::editor_opening(&def, &[], egui::vec2(1280.0, 800.0));
    harness.get_by_label("Sprites").click();
    harness.run_steps(3);
    gui_support::type_into(&mut harness, "Find sprites", filter);
    harness.run_steps(3);
    harness.get_by_label_contains(&format!("{row}  ")).click();
    harness.run_steps(3);
    (dir, harness)
}

fn archive(harness: &Harness<'_, SpratApp>) -> ImageId {
    let document = harness.state().active_document().unwrap().document();
    document
        .images
        .iter()
        .find(|i| matches!(i.kind, ImageKind::Sff { .. }))
        .unwrap()
        .id
}

/// Sprite `number` as the editor draws it now (the document's unsaved archive and palette).
fn drawn_sprite(harness: &Harness<'_, SpratApp>, number: (u16, u16)) -> SourcePixels {
    let source = sprat::model::GraphicSource::SffSprite {
        archive: archive(harness),
        group: i32::from(number.0),
        image: i32::from(number.1),
    };
    let document = harness.state().active_document().unwrap().document();
    harness.state().pixels.pixels(document, &source).unwrap()
}

fn frames_showing(harness: &Harness<'_, SpratApp>, number: (u16, u16)) -> usize {
    let document = harness.state().active_document().unwrap().document();
    frames_naming(document, archive(harness))
        .into_iter()
        .filter(|(_, n)| *n == number)
        .count()
}

#[test]
fn an_axis_typed_in_the_browser_is_one_undo_step_and_saves_with_the_character() {
    let (dir, mut harness) = browser_on("0,0", "0,0");
    assert!(harness.query_by_label("Sprite 0,0").is_some());
    let steps = gui_support::undo_steps(&harness);
    let before = SffArchive::open(&dir.0.join("kfm.sff")).unwrap();
    let axis = before.sprites()[before.find(0, 0).unwrap()].axis;
    harness
        .get_by_role_and_label(Role::SpinButton, "Axis x")
        .set_value_accesskit(f64::from(axis.0 + 5));
    harness.run_steps(3);
    assert_eq!(gui_support::undo_steps(&harness), steps + 1);
    assert_eq!(
        harness
            .state()
            .active_document()
            .unwrap()
            .document()
            .edited_files
            .len(),
        1
    );
    let moved = format!("0,0  47×106  axis {},{}", axis.0 + 5, axis.1);
    assert!(
        harness.query_by_label_contains(&moved).is_some(),
        "the list shows it at once"
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);
    let after = SffArchive::open(&dir.0.join("kfm.sff")).unwrap();
    assert_eq!(
        after.sprites()[after.find(0, 0).unwrap()].axis,
        (axis.0 + 5, axis.1)
    );
    assert_eq!(after.sprites().len(), before.sprites().len());
    gui_support::undo(&mut harness);
    assert!(
        harness
            .state()
            .active_document()
            .unwrap()
            .document()
            .edited_files
            .is_empty()
    );
}

/// Sprite `number`'s axis in the editor's archive now (the document's unsaved one).
fn axis_of(harness: &Harness<'_, SpratApp>, number: (u16, u16)) -> (i32, i32) {
    let row = harness
        .get_all_by_role(Role::Button)
        .find_map(|n| {
            let label = n.accesskit_node().label()?;
            label
                .starts_with(&format!("{},{}  ", number.0, number.1))
                .then_some(label)
        })
        .expect("the sprite's row");
    let axis = row.split("axis ").nth(1).unwrap();
    let mut parts = axis.split([',', ' ']);
    let x = parts.next().unwrap().parse().unwrap();
    let y = parts.next().unwrap().parse().unwrap();
    (x, y)
}

#[test]
fn an_axis_typed_then_left_by_a_click_on_another_sprite_goes_to_its_own_sprite() {
    let (_dir, mut harness) = browser_on("0,", "0,0");
    let (first, second) = (axis_of(&harness, (0, 0)), axis_of(&harness, (0, 1)));
    harness
        .get_by_role_and_label(Role::SpinButton, "Axis x")
        .click();
    harness.run_steps(2);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.event(egui::Event::Text((first.0 + 7).to_string()));
    harness.run_steps(2);
    // The list is painted before the fields: the click must not hand the typed value on.
    harness.get_by_label_contains("0,1  ").click();
    harness.run_steps(4);
    assert_eq!(axis_of(&harness, (0, 0)), (first.0 + 7, first.1));
    assert_eq!(
        axis_of(&harness, (0, 1)),
        second,
        "nothing leaks into the new sprite"
    );
    assert!(
        harness.query_by_label("Sprite 0,1").is_some(),
        "the click still counts"
    );
}

/// The shown sprite's axis x typed as `x` in the browser, then the character saved.
fn axis_x_typed_and_saved(harness: &mut Harness<'static, SpratApp>, x: i32) {
    harness
        .get_by_role_and_label(Role::SpinButton, "Axis x")
        .set_value_accesskit(f64::from(x));
    harness.run_steps(3);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);
}

/// The character saved (Ctrl+S), its `.sff` at `sff` then holding `original` again.
fn saved_as_read(harness: &mut Harness<'static, SpratApp>, sff: &std::path::Path, original: &[u8]) {
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);
    assert!(
        std::fs::read(sff).unwrap() == original,
        "kfm.sff is written back as read: {}",
        gui_support::status(harness)
    );
}

#[test]
fn an_axis_saved_then_undone_shows_the_old_axis_and_the_next_save_writes_the_archive_back() {
    let (dir, mut harness) = browser_on("0,0", "0,0");
    let sff = dir.0.join("kfm.sff");
    let original = std::fs::read(&sff).unwrap();
    let before = SffArchive::open(&sff).unwrap();
    let axis = before.sprites()[before.find(0, 0).unwrap()].axis;
    axis_x_typed_and_saved(&mut harness, axis.0 + 5);
    assert_ne!(std::fs::read(&sff).unwrap(), original, "the edit is saved");

    gui_support::undo(&mut harness);
    let doc = harness.state().active_document().unwrap();
    assert!(doc.session.is_dirty(), "the undo is not in the saved file");
    let old = format!("0,0  47×106  axis {},{}", axis.0, axis.1);
    assert!(
        harness.query_by_label_contains(&old).is_some(),
        "the list shows the old axis"
    );
    assert_eq!(drawn_sprite(&harness, (0, 0)).axis, axis, "the canvas too");

    saved_as_read(&mut harness, &sff, &original);
    assert!(
        !harness
            .state()
            .active_document()
            .unwrap()
            .session
            .is_dirty()
    );
}

/// An archive past the size from which its sprites' bytes stay in its file (on Unix) is edited,
/// saved and undone as one held in memory is: the canvas shows what each save wrote.
#[test]
fn a_large_archive_kept_in_its_file_shows_saves_and_undoes_its_edits_as_any() {
    let (dir, mut harness) = browser_on_kfm("0,0", "0,0", |dir| {
        let sff = dir.join("kfm.sff");
        let mut bytes = std::fs::read(&sff).unwrap();
        bytes.resize(sprat::formats::sff::KEPT_IN_FILE_FROM as usize + 1, 0);
        std::fs::write(&sff, bytes).unwrap();
    });
    let sff = dir.0.join("kfm.sff");
    let original = std::fs::read(&sff).unwrap();
    let shown = harness.state().pixels.sff().archive(&sff).unwrap();
    assert_eq!(shown.is_kept_in_file(), cfg!(unix));
    let axis = shown.sprites()[shown.find(0, 0).unwrap()].axis;
    axis_x_typed_and_saved(&mut harness, axis.0 + 5);
    let saved = SffArchive::open(&sff).unwrap();
    assert_eq!(
        saved.sprites()[saved.find(0, 0).unwrap()].axis,
        (axis.0 + 5, axis.1),
        "{}",
        gui_support::status(&harness)
    );
    assert_eq!(drawn_sprite(&harness, (0, 0)).axis, (axis.0 + 5, axis.1));

    gui_support::undo(&mut harness);
    assert_eq!(drawn_sprite(&harness, (0, 0)).axis, axis);
    saved_as_read(&mut harness, &sff, &original);
    assert_eq!(drawn_sprite(&harness, (0, 0)).axis, axis);
}

#[test]
fn a_renumbered_sprite_takes_its_frames_along_and_a_used_one_is_deleted_only_when_agreed() {
    let (_dir, mut harness) = browser_on("0,0", "0,0");
    let users = frames_showing(&harness, (0, 0));
    assert!(users > 0);
    harness
        .get_by_role_and_label(Role::SpinButton, "Renumber to")
        .set_value_accesskit(4321.0);
    harness.run_steps(2);
    harness
        .get_by_role_and_label(Role::Button, "Renumber")
        .click();
    harness.run_steps(3);
    assert_eq!(frames_showing(&harness, (0, 0)), 0);
    assert_eq!(frames_showing(&harness, (4321, 0)), users);

    // Frames show it: the delete asks, and Cancel keeps it.
    harness
        .get_by_role_and_label(Role::Button, "Delete")
        .click();
    harness.run_steps(3);
    assert!(harness.query_by_label("Delete sprites").is_some());
    // The question counts in words: "12 frames of 0, 5000 show this sprite", "1 frame of …
    // shows", never "frame(s)".
    let counted = if users == 1 {
        "1 frame of ".to_string()
    } else {
        format!("{users} frames of ")
    };
    let question = harness
        .query_all_by(|n| format!("{n:?}").contains(". Delete and clear"))
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(question.contains(&counted), "{question}");
    assert!(!question.contains("(s)"), "{question}");
    harness
        .get_by_role_and_label(Role::Button, "Cancel")
        .click();
    harness.run_steps(3);
    assert_eq!(frames_showing(&harness, (4321, 0)), users);
    harness
        .get_by_role_and_label(Role::Button, "Delete")
        .click();
    harness.run_steps(3);
    harness
        .get_by_role_and_label(Role::Button, "Delete and clear")
        .click();
    harness.run_steps(3);
    assert_eq!(frames_showing(&harness, (4321, 0)), 0);
    gui_support::undo(&mut harness);
    gui_support::undo(&mut harness);
    assert_eq!(frames_showing(&harness, (0, 0)), users);
}

#[test]
fn a_sprite_dragged_onto_the_timeline_becomes_a_frame() {
    let (_dir, mut harness) = browser_on("5000", "5000,0");
    let count = |h: &Harness<'_, SpratApp>| {
        h.state()
            .active_document()
            .unwrap()
            .direction_frames()
            .len()
    };
    let before = count(&harness);
    let row = harness.get_by_label_contains("5000,0  ").rect().center();
    let timeline = harness.get_by_label("timeline").rect().center();
    gui_support::drag(&mut harness, row, timeline);
    assert_eq!(count(&harness), before + 1);
    let doc = harness.state().active_document().unwrap();
    let last = doc.direction_frames().last().unwrap().elements[0]
        .as_graphic()
        .unwrap()
        .source
        .clone();
    let sprat::model::GraphicSource::SffSprite { group, image, .. } = last else {
        panic!("a sprite frame");
    };
    assert_eq!(
        (group, image),
        (5000, 0),
        "the new frame shows the sprite dragged"
    );
}

#[test]
fn an_axis_change_moves_every_selected_sprite_the_same_when_asked() {
    let (_dir, mut harness) = browser_on("20", "20,0");
    harness
        .get_by_label_contains("20,1  ")
        .click_modifiers(Modifiers::COMMAND);
    harness.run_steps(2);
    harness
        .get_by_label("Move the selected sprites' axes the same")
        .click();
    harness.run_steps(2);
    let axis_of = |h: &Harness<'_, SpratApp>, number| drawn_sprite(h, number).axis;
    let (a0, b0) = (axis_of(&harness, (20, 0)), axis_of(&harness, (20, 1)));
    // 20,1 is shown large (the last picked): its axis goes 3 pixels down.
    harness
        .get_by_role_and_label(Role::SpinButton, "y")
        .set_value_accesskit(f64::from(b0.1 + 3));
    harness.run_steps(3);
    assert_eq!(axis_of(&harness, (20, 1)), (b0.0, b0.1 + 3));
    assert_eq!(axis_of(&harness, (20, 0)), (a0.0, a0.1 + 3));
    let steps = gui_support::undo_steps(&harness);
    gui_support::undo(&mut harness);
    assert_eq!(gui_support::undo_steps(&harness), steps - 1);
    assert_eq!(axis_of(&harness, (20, 0)), a0);
}

#[test]
fn the_preview_palette_is_chosen_and_a_palette_goes_in_and_out_as_act() {
    let dir = gui_support::TempDir::new("sprites-palettes");
    let def = gui_support::kfm_copy(&dir.0);
    // A palette of our own: colour i is (i, 255 - i, i / 2); .act lists colours in reverse.
    let mut act = Vec::with_capacity(768);
    for i in (0..=255u8).rev() {
        act.extend([i, 255 - i, i / 2]);
    }
    let act_in = dir.0.join("ours.act");
    std::fs::write(&act_in, &act).unwrap();
    let act_out = dir.0.join("out.act");
    let mut harness = sprites_tab(&def, std::slice::from_ref(&act_out), vec![vec![act_in]]);
    harness.get_by_label("Palettes").click();
    harness.run_steps(3);

    harness.get_by_label("Preview palette").click();
    harness.run_steps(2);
    let second = harness
        .get_all_by_label_contains("archive palette")
        .nth(1)
        .expect("KFM's archive has several palettes");
    second.click();
    harness.run_steps(3);
    let active = |h: &Harness<'_, SpratApp>| match &h
        .state()
        .active_document()
        .unwrap()
        .document()
        .image(archive(h))
        .unwrap()
        .kind
    {
        ImageKind::Sff { active_palette, .. } => *active_palette,
        _ => None,
    };
    let chosen = active(&harness).expect("a palette is chosen");
    let document = harness.state().active_document().unwrap().document();
    let ImageKind::Sff { palettes, .. } = &document.image(archive(&harness)).unwrap().kind else {
        panic!("an archive");
    };
    assert_eq!(
        palettes[chosen],
        sprat::model::PaletteSource::Embedded(1),
        "the archive's second palette"
    );

    harness.get_by_label("Import .act…").click();
    harness.run_steps(3);
    assert_eq!(
        harness
            .state()
            .active_document()
            .unwrap()
            .document()
            .edited_files
            .len(),
        1,
        "{}",
        gui_support::status(&harness)
    );
    harness.get_by_label("Export .act…").click();
    harness.run_steps(3);
    assert_eq!(
        std::fs::read(&act_out).unwrap(),
        act,
        "the palette comes back out as it went in"
    );
}

/// The stored format of sprite `number` in the archive as the document holds it.
fn stored_format(harness: &Harness<'_, SpratApp>, number: (u16, u16)) -> String {
    let doc = harness.state().active_document().unwrap();
    let bytes = doc.document().edited_file(archive(harness)).unwrap();
    let archive = SffArchive::parse(bytes.to_vec()).unwrap();
    let index = archive.find(number.0 as i32, number.1 as i32).unwrap();
    format!("{:?}", archive.sprites()[index].format)
}

#[test]
fn a_sprite_is_stored_again_in_the_codec_picked_and_added_pngs_can_take_the_palette() {
    let dir = gui_support::TempDir::new("sprites-codec");
    let def = gui_support::kfm_copy(&dir.0);
    let png = dir.0.join("new.png");
    image::RgbaImage::from_fn(20, 30, |x, y| {
        if (x + y) % 3 == 0 {
            image::Rgba([0, 0, 0, 0])
        } else {
            image::Rgba([200, 180, 150, 255])
        }
    })
    .save(&png)
    .unwrap();
    let mut harness = sprites_tab(&def, &[], vec![vec![png]]);
    gui_support::type_into(&mut harness, "Find sprites", "0,0");
    harness.run_steps(3);
    harness.get_by_label_contains("0,0  ").click();
    harness.run_steps(3);
    harness.get_by_label("Store as").click();
    harness.run_steps(2);
    harness.get_by_label("Rle8").click();
    harness.run_steps(3);
    assert_eq!(stored_format(&harness, (0, 0)), "Rle8");

    harness.get_by_label("Quantise to the palette").click();
    harness.run_steps(2);
    harness.get_by_label("Add sprites…").click();
    harness.run_steps(3);
    assert!(
        gui_support::status(&harness).starts_with("Added 1 sprite to group 0"),
        "{}",
        gui_support::status(&harness)
    );
    let added = harness.state().active_tab().unwrap().sprites.selected[0];
    assert_ne!(
        stored_format(&harness, added),
        "Png32",
        "indices of the palette"
    );
}

#[test]
fn a_v1_sprite_file_is_converted_to_v2_and_saved_so() {
    let dir = gui_support::TempDir::new("sprites-v1");
    let source = common::corpus().join("mugen/gofx");
    for entry in std::fs::read_dir(&source).unwrap().flatten() {
        common::copy_writable(&entry.path(), &dir.0.join(entry.file_name()));
    }
    let def = dir.0.join("gofx.def");
    let mut harness = gui_support::editor_opening(&def, &[], egui::vec2(1280.0, 800.0));
    harness.get_by_label("Sprites").click();
    harness.run_steps(3);
    let before = SffArchive::open(&dir.0.join("gofx.sff")).unwrap();
    assert_eq!(before.version().major(), 1);
    harness.get_by_label("Convert to SFF v2").click();
    harness.run_steps(3);
    assert!(
        gui_support::status(&harness).starts_with("The sprite file will be saved as SFF v2.01"),
        "{}",
        gui_support::status(&harness)
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);
    let after = SffArchive::open(&dir.0.join("gofx.sff")).unwrap();
    assert_eq!(
        after.version().bytes,
        [0, 1, 0, 2],
        "{}",
        gui_support::status(&harness)
    );
    assert_eq!(after.sprites().len(), before.sprites().len());
    for (a, b) in before.sprites().iter().zip(after.sprites()) {
        assert_eq!((a.group, a.image, a.axis), (b.group, b.image, b.axis));
    }
}

#[test]
fn a_colour_of_a_defs_act_palette_is_saved_to_that_act_file() {
    let dir = gui_support::TempDir::new("sprites-act");
    let def = gui_support::kfm_copy(&dir.0);
    // KFM with a palette file of our own as pal1.
    let text = std::fs::read_to_string(&def).unwrap();
    let text = text.replacen(
        "anim    = kfm.air",
        "anim    = kfm.air\npal1    = mine.act",
        1,
    );
    std::fs::write(&def, text).unwrap();
    let mine: Vec<u8> = (0..=255u8)
        .rev()
        .flat_map(|i| [i, i / 2, 255 - i])
        .collect();
    std::fs::write(dir.0.join("mine.act"), &mine).unwrap();
    let theirs: Vec<u8> = (0..=255u8).rev().flat_map(|i| [i / 3, i, i / 4]).collect();
    let theirs_path = dir.0.join("theirs.act");
    std::fs::write(&theirs_path, &theirs).unwrap();
    let sff_before = std::fs::read(dir.0.join("kfm.sff")).unwrap();

    let mut harness = sprites_tab(&def, &[], vec![vec![theirs_path]]);
    harness.get_by_label("Palettes").click();
    harness.run_steps(3);
    harness.get_by_label("Preview palette").click();
    harness.run_steps(2);
    harness.get_by_label("pal1: mine.act").click();
    harness.run_steps(3);
    assert!(
        harness
            .query_by_label_contains("The palette file mine.act")
            .is_some()
    );

    let drawn = |h: &Harness<'_, SpratApp>| drawn_sprite(h, (0, 0)).image;
    let before = drawn(&harness);
    harness.get_by_label("Import .act…").click();
    harness.run_steps(3);
    assert_ne!(
        *drawn(&harness),
        *before,
        "the preview shows the new colours at once"
    );
    let document = harness.state().active_document().unwrap().document();
    assert!(
        document.edited_palette(archive(&harness), 0).is_some(),
        "{}",
        gui_support::status(&harness)
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);
    assert_eq!(
        std::fs::read(dir.0.join("mine.act")).unwrap(),
        theirs,
        "{}",
        gui_support::status(&harness)
    );
    assert_eq!(
        std::fs::read(dir.0.join("kfm.sff")).unwrap(),
        sff_before,
        "the archive is left alone"
    );
}

#[test]
fn dragging_in_the_sprite_view_moves_the_axis_by_the_pointers_travel_in_one_step() {
    let (_dir, mut harness) = browser_on("20", "20,2");
    let axis_of = |h: &Harness<'_, SpratApp>| drawn_sprite(h, (20, 2)).axis;
    let before = axis_of(&harness);
    let steps = gui_support::undo_steps(&harness);
    // The sprite view is below the "move the selected" box. The pointer is still over the
    // list when the button goes down (as when a real pointer jumps there between frames):
    // only its travel after the press counts.
    let below = harness
        .get_by_label("Move the selected sprites' axes the same")
        .rect();
    let from = egui::pos2(below.center().x + 60.0, below.bottom() + 60.0);
    harness.drag_at(from);
    harness.run_steps(1);
    for step in 1..=5 {
        harness.hover_at(from + egui::vec2(2.0 * step as f32, 0.0));
        harness.run_steps(1);
    }
    harness.drop_at(from + egui::vec2(10.0, 0.0));
    harness.run_steps(2);
    let after = axis_of(&harness);
    assert!(
        after.0 > before.0 && after.0 - before.0 <= 10,
        "{before:?} -> {after:?}"
    );
    assert_eq!(after.1, before.1, "no vertical travel, no vertical move");
    assert_eq!(
        gui_support::undo_steps(&harness),
        steps + 1,
        "one undo step per drag"
    );
}

#[test]
fn without_a_file_dialog_the_sprite_buttons_take_a_typed_path() {
    let (dir, mut harness) = browser_on("0,0", "0,0");
    let png = dir.0.join("new.png");
    image::RgbaImage::from_pixel(10, 12, image::Rgba([200, 100, 50, 255]))
        .save(&png)
        .unwrap();
    let sprites_before = |h: &Harness<'_, SpratApp>| {
        h.state()
            .active_document()
            .unwrap()
            .document()
            .edited_file(archive(h))
            .map(|bytes| SffArchive::parse(bytes.to_vec()).unwrap().sprites().len())
    };
    assert_eq!(sprites_before(&harness), None);
    harness.get_by_label("Add sprites…").click();
    harness.run_steps(3);
    // The field has the keyboard: "." (a shortcut for the next frame) goes into the path.
    let frame = harness
        .state()
        .active_document()
        .unwrap()
        .player
        .frame_index();
    harness.event(egui::Event::Text(png.display().to_string()));
    harness.run_steps(1);
    harness.key_press(Key::Enter);
    harness.run_steps(3);
    assert_eq!(
        harness
            .state()
            .active_document()
            .unwrap()
            .player
            .frame_index(),
        frame
    );
    let original = SffArchive::open(&dir.0.join("kfm.sff"))
        .unwrap()
        .sprites()
        .len();
    assert_eq!(
        sprites_before(&harness),
        Some(original + 1),
        "{}",
        gui_support::status(&harness)
    );
}
