//! The palettes of a character, under the sprite browser: the archive's own palettes and the
//! `.def`'s `pal1`..`pal12` (`.act` files). Pick the one the preview shows the sprites with;
//! edit a colour of the palette in use — saved to the `.act` it came from, or in the `.sff`
//! for the archive's own — one undo step per change; import a `.act` into it or export it.

use crate::app::context::feedback::Feedback;
use crate::app::sprites::state::{FileUse, PaletteState, ShownArchive};
use crate::edit::Gesture;
use crate::edit::sprites::{ChangeSprites, SetActPalette, SetPreviewPalette};
use crate::formats::Severity;
use crate::formats::sff::document::edit_archive;
use crate::model::{ImageKind, PaletteSource};
use egui::{Color32, Sense, Stroke, vec2};
use std::path::Path;

/// The choices of the preview palette: each `.act` the `.def` names, then each of the
/// archive's palettes; and the one in use.
fn choices(shown: &ShownArchive) -> (Vec<(PaletteSource, String)>, Option<PaletteSource>) {
    let archive = shown.archive;
    let Some(ImageKind::Sff {
        palettes,
        active_palette,
    }) = shown.doc.document().image(shown.id).map(|i| &i.kind)
    else {
        return (Vec::new(), None);
    };
    let mut list = Vec::new();
    for (k, source) in palettes
        .iter()
        .filter(|p| matches!(p, PaletteSource::ActFile { .. }))
        .enumerate()
    {
        if let PaletteSource::ActFile { path, .. } = source {
            list.push((source.clone(), format!("pal{}: {path}", k + 1)));
        }
    }
    for n in 0..archive.palette_count() {
        let label = archive.palette_label(n).unwrap_or_default();
        list.push((
            PaletteSource::Embedded(n as u32),
            format!("archive palette {label}"),
        ));
    }
    let active = active_palette.and_then(|a| palettes.get(a).cloned());
    (list, active)
}

/// Paints the section; what the status bar should say.
pub fn show(
    ui: &mut egui::Ui,
    state: &mut PaletteState,
    shown: &mut ShownArchive,
    asked: &mut Option<FileUse>,
) -> Option<Feedback> {
    let mut said = None;
    let (list, active) = choices(shown);
    ui.horizontal(|ui| {
        let label = ui.label("Preview palette");
        let current = active
            .as_ref()
            .and_then(|a| list.iter().find(|(p, _)| p == a))
            .map_or("each sprite's own".to_string(), |(_, l)| l.clone());
        let mut chosen = active.clone();
        egui::ComboBox::from_id_salt("preview palette")
            .selected_text(current)
            .width(200.0)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut chosen, None, "each sprite's own");
                for (source, label) in &list {
                    ui.selectable_value(&mut chosen, Some(source.clone()), label);
                }
            })
            .response
            .labelled_by(label.id);
        if chosen != active {
            let command = SetPreviewPalette {
                image: shown.id,
                palette: chosen,
            };
            if let Err(message) = shown.doc.apply(&command, None) {
                said = Some(Feedback::new(Severity::Warning, message));
            }
        }
    });
    // The palette edited is the one in use: a `.def`'s `.act`, else the archive's own.
    let Some((target, colours, title)) = edited_palette(shown) else {
        ui.weak("The archive holds no palette (its sprites are true colour).");
        return said;
    };
    ui.label(format!("{title}: click a colour to change it"));
    // 16 x 16 swatches.
    let swatch = 11.0;
    let (rect, response) =
        ui.allocate_exact_size(vec2(swatch * 16.0, swatch * 16.0), Sense::click());
    let painter = ui.painter_at(rect);
    for i in 0..=255u8 {
        let [r, g, b, _] = colours.colour(i);
        let min = rect.min + vec2((i % 16) as f32 * swatch, (i / 16) as f32 * swatch);
        let cell = egui::Rect::from_min_size(min, vec2(swatch, swatch));
        painter.rect_filled(cell.shrink(0.5), 0.0, Color32::from_rgb(r, g, b));
        if i == state.index {
            painter.rect_stroke(
                cell,
                0.0,
                Stroke::new(2.0, Color32::WHITE),
                egui::StrokeKind::Inside,
            );
        }
    }
    if let Some(pos) = response
        .interact_pointer_pos()
        .filter(|_| response.clicked())
    {
        let at = (pos - rect.min) / swatch;
        state.index =
            (at.y.floor().clamp(0.0, 15.0) as u8) * 16 + at.x.floor().clamp(0.0, 15.0) as u8;
    }
    ui.horizontal(|ui| {
        ui.label(format!("Colour {}", state.index));
        let mut rgba = colours.colour(state.index);
        let picker = ui.color_edit_button_srgba_unmultiplied(&mut rgba);
        if picker.changed() {
            let gesture = *state.gesture.get_or_insert_with(|| shown.doc.new_gesture());
            let mut changed = colours.clone();
            changed.set_colour(state.index, rgba);
            let index = Some(state.index);
            if let Err(message) = set_colours(shown, target, changed, index, Some(gesture)) {
                said = Some(Feedback::new(
                    Severity::Warning,
                    format!("Not changed: {message}"),
                ));
            }
        }
        if !picker.has_focus() && !ui.ctx().any_popup_open() {
            state.gesture = None;
        }
    });
    ui.horizontal(|ui| {
        if ui.button("Import .act…").clicked() {
            *asked = Some(FileUse::ImportAct);
        }
        if ui.button("Export .act…").clicked() {
            *asked = Some(FileUse::ExportAct);
        }
    });
    said
}

/// Which palette the section edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// Palette number `n` of the archive (saved in the `.sff`).
    Archive(usize),
    /// Palette source `n` of the image, a `.act` file (saved to that file).
    Act(usize),
}

/// The palette in use, its colours as the document holds them, and a title.
fn edited_palette(shown: &ShownArchive) -> Option<(Target, crate::formats::sff::Palette, String)> {
    let (archive, archive_id) = (shown.archive, shown.id);
    let document = shown.doc.document();
    if let Some(ImageKind::Sff {
        palettes,
        active_palette: Some(n),
    }) = document.image(archive_id).map(|i| &i.kind)
        && let Some(PaletteSource::ActFile { path, resolved }) = palettes.get(*n)
    {
        let colours = match document.edited_palette(archive_id, *n) {
            Some(bytes) => crate::formats::sff::Palette::from_act(bytes).ok(),
            None => resolved
                .as_deref()
                .and_then(|file| shown.pixels.sff().act_palette(file))
                .map(|p| (*p).clone()),
        };
        return colours.map(|c| (Target::Act(*n), c, format!("The palette file {path}")));
    }
    let main = archive.main_palette()?;
    let colours = archive.palette(main)?.clone();
    let label = archive.palette_label(main).unwrap_or_default();
    Some((
        Target::Archive(main),
        colours,
        format!("The archive's palette {label}"),
    ))
}

/// Gives the target palette these colours, as one undo step (merged into `gesture`'s);
/// `changed` names the one colour changed, else the whole palette is replaced (an archive
/// palette then holds all 256 colours).
fn set_colours(
    shown: &mut ShownArchive,
    target: Target,
    colours: crate::formats::sff::Palette,
    changed: Option<u8>,
    gesture: Option<Gesture>,
) -> Result<(), String> {
    match target {
        Target::Act(n) => shown.doc.apply(
            &SetActPalette {
                image: shown.id,
                palette: n,
                bytes: std::sync::Arc::new(colours.to_act()),
            },
            gesture,
        ),
        Target::Archive(main) => {
            change_palette(
                shown,
                "Change a palette colour",
                gesture,
                |sff| match changed {
                    Some(index) => sff
                        .set_colour(main, index, colours.colour(index))
                        .map_err(|e| e.message),
                    None => sff
                        .import_act(main, &colours.to_act())
                        .map_err(|e| e.message),
                },
            )
        }
    }
}

/// Opens the archive, changes its palettes, and applies it as one step.
fn change_palette(
    shown: &mut ShownArchive,
    label: &str,
    gesture: Option<Gesture>,
    change: impl FnOnce(&mut crate::formats::sff::edit::EditableSff) -> Result<(), String>,
) -> Result<(), String> {
    let (document, pixels) = (shown.doc.document(), shown.pixels);
    let mut sff = edit_archive(document, shown.id, pixels.sff()).map_err(|e| e.message)?;
    change(&mut sff)?;
    shown.doc.apply(
        &ChangeSprites {
            label: label.to_string(),
            image: shown.id,
            archive: sff,
            renumbered: Vec::new(),
            cleared: Vec::new(),
        },
        gesture,
    )
}

/// Puts the colours of the `.act` file `file` into the palette in use.
pub fn import_act_file(shown: &mut ShownArchive, file: &Path) -> Option<Feedback> {
    let (target, _, _) = edited_palette(shown)?;
    let result = crate::formats::input::read_file(file)
        .map_err(|e| e.to_string())
        .and_then(|bytes| crate::formats::sff::Palette::from_act(&bytes))
        .and_then(|colours| set_colours(shown, target, colours, None, None));
    Some(match result {
        Ok(()) => Feedback::new(
            Severity::Info,
            format!("The palette now has the colours of {}.", file.display()),
        ),
        Err(message) => Feedback::new(Severity::Warning, format!("Not imported: {message}")),
    })
}

/// Writes the palette in use, as the document holds it, to the `.act` file `path`.
pub fn export_act_to(shown: &ShownArchive, path: &Path) -> Option<Feedback> {
    let (_, colours, _) = edited_palette(shown)?;
    Some(
        match crate::session::atomic::replace_file(path, &colours.to_act()) {
            Ok(()) => Feedback::new(Severity::Info, format!("Wrote {}.", path.display())),
            Err(e) => Feedback::new(Severity::Warning, format!("Not written: {e}")),
        },
    )
}
