//! Pictures imported into an indexed Aseprite file save into it with Ctrl+S: the new frames
//! are on an "Imported" layer, their colours added to the file's palette, as an independent
//! reader sees them. The Import window starts at the canvas' top-left corner there.

use crate::{common, gui_support};

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use image::{Rgba, RgbaImage};

#[test]
fn pngs_imported_into_an_indexed_file_save_with_their_colours_in_its_palette() {
    let dir = gui_support::TempDir::new("aseprite-import");
    let path = dir.0.join("indexed.aseprite");
    common::copy_writable(&common::corpus().join("aseprite/indexed.aseprite"), &path);
    let before = asefile::AsepriteFile::read(&std::fs::read(&path).unwrap()[..]).unwrap();
    let colours = before.palette().unwrap().num_colors();
    let art = gui_support::TempDir::new("aseprite-import-art");
    let files: Vec<_> = [("glow_1.png", [1, 2, 3]), ("glow_2.png", [4, 5, 6])]
        .iter()
        .map(|(name, [r, g, b])| {
            let file = art.0.join(name);
            RgbaImage::from_pixel(4, 3, Rgba([*r, *g, *b, 255]))
                .save(&file)
                .unwrap();
            file
        })
        .collect();
    let mut harness =
        gui_support::editor_opening_with(&path, &[], vec![files], egui::vec2(1400.0, 1000.0));

    harness.key_press_modifiers(Modifiers::COMMAND, Key::I);
    crate::import::wait_for_read(&mut harness);
    // The window starts where the file's own frames have their origin: the canvas' top-left
    // corner, so the pictures land where Aseprite shows them (not above and left of it).
    let origin = harness.get_by_role_and_label(Role::ComboBox, "Origin");
    assert_eq!(origin.value().as_deref(), Some("Top-left corner"));
    harness
        .get_by_role_and_label(Role::Button, "Import")
        .click();
    harness.run_steps(3);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);
    let status = gui_support::status(&harness);
    assert!(status.starts_with("Saved "), "{status}");

    let after = asefile::AsepriteFile::read(&std::fs::read(&path).unwrap()[..]).unwrap();
    assert_eq!(after.num_frames(), before.num_frames() + 2);
    assert_eq!(after.layer(after.num_layers() - 1).name(), "Imported");
    let palette = after.palette().unwrap();
    assert_eq!(palette.num_colors(), colours + 2);
    let last: Vec<[u8; 4]> = (colours..colours + 2)
        .map(|i| palette.color(i).unwrap().raw_rgba8())
        .collect();
    assert_eq!(last, [[1, 2, 3, 255], [4, 5, 6, 255]]);
    let glow = after
        .tag_by_name("glow")
        .expect("a tag for the new sequence");
    let drawn = after.frame(glow.to_frame()).image();
    for (x, y, pixel) in drawn.enumerate_pixels() {
        let inside = x < 4 && y < 3;
        assert_eq!(pixel.0[3] == 255, inside, "({x}, {y})");
        if inside {
            assert_eq!(pixel.0, [4, 5, 6, 255], "({x}, {y})");
        }
    }
}
