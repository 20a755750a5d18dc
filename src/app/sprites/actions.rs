//! What the sprite browser's buttons do: add sprites from PNG files, renumber, store in
//! another codec, replace the image, and delete (asking first when frames show the sprite).

use crate::app::context::centred_window::centred_window;
use crate::app::context::feedback::Feedback;
use crate::app::sprites::edit;
use crate::app::sprites::state::{FileUse, ShownArchive, SpriteBrowser};
use crate::edit::sprites::SpriteNumber;
use crate::formats::Severity;
use crate::formats::sff::SpriteInfo;
use crate::formats::sff::encode::Codec;
use std::path::{Path, PathBuf};

/// The codecs a sprite can be stored with (the archive's version refuses those it lacks).
const CODECS: [Codec; 7] = [
    Codec::Rle8,
    Codec::Rle5,
    Codec::Lz5,
    Codec::Raw,
    Codec::Png8,
    Codec::Png24,
    Codec::Png32,
];

/// Renumber, store as, replace and delete for the sprite shown large.
pub fn buttons(
    ui: &mut egui::Ui,
    state: &mut SpriteBrowser,
    shown: &mut ShownArchive,
    number: SpriteNumber,
    info: &SpriteInfo,
) -> Option<Feedback> {
    let mut said = None;
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Renumber to");
        ui.add(egui::DragValue::new(&mut state.renumber_to.0))
            .labelled_by(label.id);
        let label = ui.label(",");
        ui.add(egui::DragValue::new(&mut state.renumber_to.1))
            .labelled_by(label.id);
        if ui.button("Renumber").clicked() {
            let to = state.renumber_to;
            match edit::renumber(shown.doc, shown.pixels, shown.id, number, to) {
                Ok(()) => {
                    state.selected = vec![to];
                }
                Err(message) => {
                    said = Some(Feedback::new(
                        Severity::Warning,
                        format!("Not renumbered: {message}"),
                    ));
                }
            }
        }
    });
    ui.horizontal(|ui| {
        let label = ui.label("Store as");
        let current = format!("{:?}", info.format);
        egui::ComboBox::from_id_salt("sprite codec")
            .selected_text(current)
            .show_ui(ui, |ui| {
                for codec in CODECS {
                    if ui.selectable_label(false, format!("{codec:?}")).clicked()
                        && let Err(message) =
                            edit::store_as(shown.doc, shown.pixels, shown.id, number, codec)
                    {
                        said = Some(Feedback::new(
                            Severity::Warning,
                            format!("Not stored as {codec:?}: {message}"),
                        ));
                    }
                }
            })
            .response
            .labelled_by(label.id);
    });
    ui.horizontal(|ui| {
        if ui.button("Replace image…").clicked() {
            state.asked = Some(FileUse::Replace(number));
        }
        let count = state.selected.len();
        let delete_label = if count > 1 {
            format!("Delete {count} sprites")
        } else {
            "Delete".to_string()
        };
        if ui.button(delete_label).clicked() {
            said = ask_delete(state, shown).or(said.take());
        }
    });
    said
}

/// Adds PNG files as sprites of the selected sprite's group (or the filtered group).
pub fn add_files(
    state: &mut SpriteBrowser,
    shown: &mut ShownArchive,
    files: &[PathBuf],
) -> Option<Feedback> {
    let group = state
        .selected
        .last()
        .map(|n| n.0)
        .or_else(|| state.filter.split(',').next()?.trim().parse().ok())
        .unwrap_or(0);
    let quantise = state.quantise;
    match edit::add_pngs(shown.doc, shown.pixels, shown.id, group, files, quantise) {
        Ok((added, skipped)) => {
            let mut text = format!(
                "Added {} to group {group}.",
                crate::text::count(added.len(), "sprite")
            );
            let severity = if skipped.is_empty() {
                Severity::Info
            } else {
                text.push_str(&format!(" Skipped: {}.", skipped.join("; ")));
                Severity::Warning
            };
            state.selected = added;
            Some(Feedback::new(severity, text))
        }
        Err(message) => Some(Feedback::new(
            Severity::Warning,
            format!("Not added: {message}"),
        )),
    }
}

/// Replaces the pixels of sprite `number` with a PNG file's.
pub fn replace_with(
    shown: &mut ShownArchive,
    number: SpriteNumber,
    file: &Path,
) -> Option<Feedback> {
    match edit::replace_image(shown.doc, shown.pixels, shown.id, number, file) {
        Ok(()) => None,
        Err(message) => Some(Feedback::new(
            Severity::Warning,
            format!("Not replaced: {message}"),
        )),
    }
}

/// Deletes the selected sprites at once when no frame shows them; else asks first.
fn ask_delete(state: &mut SpriteBrowser, shown: &mut ShownArchive) -> Option<Feedback> {
    let sprites = state.selected.clone();
    let mut frames = 0;
    let mut names: Vec<String> = Vec::new();
    for sprite in &sprites {
        let (count, users) = edit::users(shown.doc, shown.id, *sprite);
        frames += count;
        for name in users {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    if frames > 0 {
        let question = format!(
            "{} of {} {} {}. Delete and clear {}?",
            crate::text::count(frames, "frame"),
            names.join(", "),
            if frames == 1 { "shows" } else { "show" },
            if sprites.len() == 1 {
                "this sprite"
            } else {
                "these sprites"
            },
            if frames == 1 {
                "that frame"
            } else {
                "those frames"
            }
        );
        state.confirm_delete = Some((sprites, question));
        return None;
    }
    delete_now(state, shown, &sprites)
}

/// The question before deleting sprites that frames show.
pub fn delete_question(
    ctx: &egui::Context,
    state: &mut SpriteBrowser,
    shown: &mut ShownArchive,
) -> Option<Feedback> {
    let (sprites, question) = state.confirm_delete.clone()?;
    let mut answer = None;
    centred_window("Delete sprites").show(ctx, |ui| {
        ui.label(&question);
        ui.horizontal(|ui| {
            if ui.button("Delete and clear").clicked() {
                answer = Some(true);
            }
            if ui.button("Cancel").clicked() {
                answer = Some(false);
            }
        });
    });
    let agreed = answer?;
    state.confirm_delete = None;
    if !agreed {
        return None;
    }
    delete_now(state, shown, &sprites)
}

/// Deletes `sprites` (frames showing them lose that graphic) and clears the selection.
fn delete_now(
    state: &mut SpriteBrowser,
    shown: &mut ShownArchive,
    sprites: &[SpriteNumber],
) -> Option<Feedback> {
    match edit::delete(shown.doc, shown.pixels, shown.id, sprites) {
        Ok(()) => {
            state.selected.clear();
            None
        }
        Err(message) => Some(Feedback::new(
            Severity::Warning,
            format!("Not deleted: {message}"),
        )),
    }
}
