//! The sprite browser (the centre's "Sprites" tab, for documents with an SFF archive): every
//! sprite of the archive as group,image with a thumbnail, size, axis, stored format and the
//! sequences that show it, filtered by group or number, in a list that lays out only the rows
//! on screen (10,000 sprites scroll as 10 do). Beside it the selected sprite, large, with its
//! axis: drag it (one undo step per drag) or type it, with another sprite as a ghost to align
//! to, and the same change applied to every selected sprite on request. Sprites are added from
//! PNG files, replaced, renumbered (frames follow) and deleted (asking first when frames show
//! them); dragging a row onto the timeline makes a frame of it.

use crate::app::context::command_sender::{CommandSender, SystemCommand};
use crate::app::context::document::OpenDocument;
use crate::app::context::drag::SpriteDrag;
use crate::app::context::feedback::Feedback;
use crate::app::context::panel::PanelCtx;
use crate::app::context::pictures::texture_of;
use crate::app::context::platform::Dialogs;
use crate::app::sprites::actions;
use crate::app::sprites::edit;
use crate::app::sprites::files;
use crate::app::sprites::palettes;
use crate::app::sprites::state::{FileUse, ShownArchive, SpriteBrowser, Users};
use crate::assets::ImageStore;
use crate::edit::sprites::{SpriteNumber, frames_naming};
use crate::formats::Severity;
use crate::formats::sff::SffArchive;
use crate::model::{GraphicSource, ImageId, ImageKind};
use crate::pixels::PixelSource;
use egui::{Color32, Rect, Sense, Stroke, TextureHandle, TextureOptions, pos2, vec2};
use std::collections::HashMap;
use std::sync::Arc;

/// Height of a row of the list, in points.
const ROW_HEIGHT: f32 = 36.0;
/// Thumbnails kept on the GPU.
const KEPT_THUMBNAILS: usize = 400;

/// The SFF archives of the document: (image, name).
pub fn archives(doc: &OpenDocument) -> Vec<(ImageId, String)> {
    doc.document()
        .images
        .iter()
        .filter(|i| matches!(i.kind, ImageKind::Sff { .. }))
        .map(|i| (i.id, i.path.clone()))
        .collect()
}

/// The archive as the document holds it now (its unsaved edits, or its bytes as read once a
/// save wrote over it: see [`crate::model::AnimationSet::held_file`]), else its file.
fn current_archive(
    doc: &OpenDocument,
    pixels: &ImageStore,
    id: ImageId,
) -> Option<Arc<SffArchive>> {
    let image = doc.document().image(id)?;
    match doc.document().edited_file(id) {
        Some(bytes) => pixels
            .sff()
            .edited_archive(image.resolved.as_deref(), bytes),
        None => pixels.sff().archive(image.resolved.as_deref()?),
    }
}

/// An id for the archive's current contents (thumbnails are kept per contents).
fn edition(doc: &OpenDocument, id: ImageId) -> usize {
    doc.document()
        .edited_file(id)
        .map_or(0, |bytes| Arc::as_ptr(bytes) as usize)
}

/// True when the sprite matches the filter text.
fn matches(filter: &str, number: SpriteNumber) -> bool {
    let filter = filter.trim();
    if filter.is_empty() {
        return true;
    }
    match filter.split_once(',') {
        Some((g, i)) => {
            g.trim().parse::<u16>().ok() == Some(number.0)
                && (i.trim().is_empty() || i.trim().parse::<u16>().ok() == Some(number.1))
        }
        None => filter.parse::<u16>().ok() == Some(number.0),
    }
}

/// Paints the browser for the document's first SFF archive; what the status bar should say
/// goes into `ctx`.
pub fn show(ui: &mut egui::Ui, state: &mut SpriteBrowser, ctx: &mut PanelCtx) {
    let said = browse(
        ui,
        state,
        ctx.doc,
        ctx.pictures.pixels,
        ctx.platform.dialogs(),
        &mut ctx.out.commands,
    );
    ctx.out.tell(said);
}

/// Paints the browser; a click on a sprite of the list goes into `commands`. Returns what the
/// status bar should say.
fn browse(
    ui: &mut egui::Ui,
    state: &mut SpriteBrowser,
    doc: &mut OpenDocument,
    pixels: &ImageStore,
    dialogs: &mut dyn Dialogs,
    commands: &mut CommandSender,
) -> Option<Feedback> {
    let Some((archive_id, name)) = archives(doc).into_iter().next() else {
        ui.label("This document has no sprite archive.");
        return None;
    };
    let Some(archive) = current_archive(doc, pixels, archive_id) else {
        ui.label(format!("The sprite file {name} cannot be read."));
        return None;
    };
    state.clock += 1;
    let users = users_of(state, doc, archive_id);
    let rows: Vec<usize> = archive
        .sprites()
        .iter()
        .enumerate()
        .filter(|(_, s)| matches(&state.filter, (s.group, s.image)))
        .map(|(i, _)| i)
        .collect();
    let mut shown = ShownArchive {
        doc,
        pixels,
        archive: &archive,
        id: archive_id,
    };
    let mut said = None;
    // The bars wrap, so a narrow view moves their last controls to a second line.
    ui.horizontal_wrapped(|ui| {
        ui.strong(&name);
        let label = ui.label("Find sprites");
        ui.add(
            egui::TextEdit::singleline(&mut state.filter)
                .hint_text("e.g. 20 or 20,3")
                .desired_width(140.0),
        )
        .labelled_by(label.id);
        ui.weak(format!(
            "{} of {}",
            rows.len(),
            crate::text::count(archive.sprites().len(), "sprite")
        ));
    });
    ui.horizontal_wrapped(|ui| {
        if ui.button("Add sprites…").clicked() {
            state.asked = Some(FileUse::AddSprites);
        }
        ui.checkbox(&mut state.quantise, "Quantise to the palette")
            .on_hover_text(
                "True-colour PNGs added or replaced are quantised to the palette; else they are stored as PNG32",
            );
        if archive.version().major() == 1
            && ui
                .button("Convert to SFF v2")
                .on_hover_text("SFF v1 holds only PCX sprites; v2.01 is what M.U.G.E.N 1.1 and Ikemen GO write")
                .clicked()
        {
            said = Some(match edit::convert_to_v2(shown.doc, pixels, archive_id) {
                Ok(()) => Feedback::new(
                    Severity::Info,
                    "The sprite file will be saved as SFF v2.01 (sprites as RLE8).",
                ),
                Err(message) => {
                    Feedback::new(Severity::Warning, format!("Not converted: {message}"))
                }
            });
        }
    });
    if let Some(message) = files::typed_path_row(ui, state, &mut shown) {
        said = Some(message);
    }
    ui.separator();
    let edition = edition(shown.doc, archive_id);
    let available = ui.available_size();
    ui.horizontal_top(|ui| {
        let clicked = ui.vertical(|ui| {
            ui.set_width((available.x * 0.45).clamp(260.0, 520.0));
            list(ui, state, &shown, &rows, &users, edition)
        });
        // Selected once every panel has painted: a number typed in the details beside the
        // list goes to the sprite it was typed for first.
        if let Some((number, modifiers)) = clicked.inner {
            commands.send_system(SystemCommand::SelectSprite { number, modifiers });
        }
        ui.separator();
        state.column_height = ui.available_height();
        ui.vertical(|ui| {
            egui::ScrollArea::vertical()
                .id_salt("sprite details")
                .show(ui, |ui| {
                    let outcome = details(ui, state, &mut shown, &users, edition);
                    said = said.take().or(outcome);
                    ui.separator();
                    egui::CollapsingHeader::new("Palettes")
                        .default_open(false)
                        .show(ui, |ui| {
                            let outcome = palettes::show(
                                ui,
                                &mut state.palettes,
                                &mut shown,
                                &mut state.asked,
                            );
                            said = said.take().or(outcome);
                        });
                });
        });
    });
    if let Some(message) = actions::delete_question(ui.ctx(), state, &mut shown) {
        said = Some(message);
    }
    // A file a button asked for: the desktop's dialog, else the path field above.
    files::ask(state, &mut shown, dialogs).or(said)
}

/// The sequences that show each sprite, counted again when the document changed.
fn users_of(state: &mut SpriteBrowser, doc: &OpenDocument, archive: ImageId) -> Arc<Users> {
    if let Some((revision, id, users)) = &state.users
        && *revision == doc.revision
        && *id == archive
    {
        return Arc::clone(users);
    }
    let document = doc.document();
    let naming = frames_naming(document, archive);
    let mut by_frame: HashMap<crate::model::FrameId, Vec<SpriteNumber>> = HashMap::new();
    for (frame, number) in naming {
        by_frame.entry(frame).or_default().push(number);
    }
    let mut users: HashMap<SpriteNumber, Vec<String>> = HashMap::new();
    for sequence in document.sequences() {
        for id in sequence.directions.iter().flat_map(|d| &d.frames) {
            for number in by_frame.get(id).into_iter().flatten() {
                let list = users.entry(*number).or_default();
                if !list.contains(&sequence.name) {
                    list.push(sequence.name.clone());
                }
            }
        }
    }
    let users = Arc::new(users);
    state.users = Some((doc.revision, archive, Arc::clone(&users)));
    users
}

/// The rows on screen only: number, thumbnail, size, axis, format, users. Returns the sprite
/// clicked, with the keys held.
fn list(
    ui: &mut egui::Ui,
    state: &mut SpriteBrowser,
    shown: &ShownArchive,
    rows: &[usize],
    users: &Users,
    edition: usize,
) -> Option<(SpriteNumber, egui::Modifiers)> {
    let mut click = None;
    egui::ScrollArea::vertical()
        .id_salt("sprite list")
        .auto_shrink([false, false])
        .show_rows(ui, ROW_HEIGHT, rows.len(), |ui, range| {
            for &index in &rows[range] {
                let info = &shown.archive.sprites()[index];
                let number = (info.group, info.image);
                let selected = state.selected.contains(&number);
                let used = users.get(&number).map_or(String::new(), |u| u.join(", "));
                let payload = SpriteDrag {
                    archive: shown.id,
                    number,
                };
                let row = ui.horizontal(|ui| {
                    ui.set_height(ROW_HEIGHT - 4.0);
                    let texture = thumbnail(state, shown, number, edition, ui.ctx());
                    let (rect, _) = ui.allocate_exact_size(vec2(32.0, 32.0), Sense::hover());
                    if let Some(texture) = texture {
                        let size = texture.size_vec2();
                        let scale = (32.0 / size.x.max(size.y)).min(2.0);
                        let drawn = Rect::from_center_size(rect.center(), size * scale);
                        ui.painter().image(
                            texture.id(),
                            drawn,
                            Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
                            Color32::WHITE,
                        );
                    }
                    let text = format!(
                        "{},{}  {}×{}  axis {},{}  {:?}",
                        number.0,
                        number.1,
                        info.width,
                        info.height,
                        info.axis.0,
                        info.axis.1,
                        info.format
                    );
                    // Click selects; a drag carries the sprite (onto the timeline).
                    let response = ui.add(
                        egui::Button::selectable(selected, text).sense(Sense::click_and_drag()),
                    );
                    response.dnd_set_drag_payload(payload);
                    if used.is_empty() {
                        response.on_hover_text("No frame shows it")
                    } else {
                        response.on_hover_text(format!("Shown by: {used}"))
                    }
                });
                let clicked = row.inner;
                if clicked.clicked() {
                    click = Some((number, ui.input(|i| i.modifiers)));
                }
            }
        });
    click
}

/// The thumbnail of a sprite, made when first on screen and kept for a while.
fn thumbnail(
    state: &mut SpriteBrowser,
    shown: &ShownArchive,
    number: SpriteNumber,
    edition: usize,
    ctx: &egui::Context,
) -> Option<TextureHandle> {
    let now = state.clock;
    if let Some((texture, used)) = state.thumbnails.get_mut(&(edition, number)) {
        *used = now;
        return Some(texture.clone());
    }
    let sprite = sprite_pixels(shown, number)?;
    let (width, height) = sprite.image.dimensions();
    let fit = (32.0 / width.max(height).max(1) as f32).min(1.0);
    let small = image::imageops::thumbnail(
        &*sprite.image,
        ((width as f32 * fit).round() as u32).max(1),
        ((height as f32 * fit).round() as u32).max(1),
    );
    let texture = texture_of(
        ctx,
        format!("sprite {},{}", number.0, number.1),
        &small,
        TextureOptions::LINEAR,
    );
    if state.thumbnails.len() >= KEPT_THUMBNAILS {
        let oldest = state
            .thumbnails
            .iter()
            .min_by_key(|(_, (_, used))| *used)
            .map(|(key, _)| *key);
        if let Some(key) = oldest {
            state.thumbnails.remove(&key);
        }
    }
    state
        .thumbnails
        .insert((edition, number), (texture.clone(), now));
    Some(texture)
}

/// A sprite's pixels and axis as the document holds the archive.
fn sprite_pixels(
    shown: &ShownArchive,
    number: SpriteNumber,
) -> Option<crate::pixels::SourcePixels> {
    let source = GraphicSource::SffSprite {
        archive: shown.id,
        group: i32::from(number.0),
        image: i32::from(number.1),
    };
    shown.pixels.pixels(shown.doc.document(), &source)
}

/// A sprite's full-size texture.
fn full_texture(
    shown: &ShownArchive,
    number: SpriteNumber,
    ctx: &egui::Context,
) -> Option<(TextureHandle, (i32, i32))> {
    let sprite = sprite_pixels(shown, number)?;
    let texture = texture_of(
        ctx,
        format!("sprite large {},{}", number.0, number.1),
        &sprite.image,
        TextureOptions::NEAREST,
    );
    Some((texture, sprite.axis))
}

/// The selected sprite large, its axis, ghost, numbers and actions.
fn details(
    ui: &mut egui::Ui,
    state: &mut SpriteBrowser,
    shown: &mut ShownArchive,
    users: &Users,
    edition: usize,
) -> Option<Feedback> {
    let Some(&number) = state.selected.last() else {
        ui.label("Select a sprite in the list (Ctrl+click or Shift+click selects several).");
        return None;
    };
    // A sprite added or renumbered this frame is in the archive from the next one on.
    let Some(index) = shown.archive.find(number.0 as i32, number.1 as i32) else {
        ui.weak(format!("There is no sprite {},{}.", number.0, number.1));
        return None;
    };
    let info = shown.archive.sprites()[index].clone();
    ui.heading(format!("Sprite {},{}", number.0, number.1));
    ui.label(format!(
        "{}×{} · {:?}{}",
        info.width,
        info.height,
        info.format,
        if info.linked_to.is_some() {
            " · linked"
        } else {
            ""
        }
    ));
    match users.get(&number) {
        Some(list) => ui.label(format!("Shown by: {}", list.join(", "))),
        None => ui.weak("No frame shows it."),
    };
    let said = axis_editor(ui, state, shown, number, info.axis, edition);
    ui.separator();
    actions::buttons(ui, state, shown, number, &info).or(said)
}

/// The axis typed or dragged on the large view (one undo step per drag), with the ghost.
fn axis_editor(
    ui: &mut egui::Ui,
    state: &mut SpriteBrowser,
    shown: &mut ShownArchive,
    number: SpriteNumber,
    current: (i32, i32),
    edition: usize,
) -> Option<Feedback> {
    let mut said = None;
    // Axis fields: one undo step per drag of a field.
    let mut axis = current;
    let mut axis_changed = false;
    let mut released = false;
    ui.horizontal(|ui| {
        let label = ui.label("Axis x");
        let x = crate::app::context::number_field::add(ui, true, axis_field(&mut axis.0))
            .labelled_by(label.id);
        let label = ui.label("y");
        let y = crate::app::context::number_field::add(ui, true, axis_field(&mut axis.1))
            .labelled_by(label.id);
        axis_changed = x.changed() || y.changed();
        released = x.drag_stopped() || y.drag_stopped() || x.lost_focus() || y.lost_focus();
    });
    ui.checkbox(
        &mut state.apply_to_selected,
        "Move the selected sprites' axes the same",
    );
    // The large view; dragging in it moves the axis.
    let view = preview(ui, state, shown, number, edition);
    if let Some((response, scale)) = view {
        if response.drag_started() {
            state.gesture = Some(shown.doc.new_gesture());
            let pressed = ui.input(|i| i.pointer.press_origin());
            state.drag_from = pressed.map(|at| (at, axis));
        }
        if response.dragged()
            && let (Some((at, start)), Some(now)) =
                (state.drag_from, response.interact_pointer_pos())
        {
            // Whole pixels: the axis moves by the pointer's travel, rounded.
            let moved = ((now - at) / scale).round();
            let target = (start.0 + moved.x as i32, start.1 + moved.y as i32);
            if target != axis {
                axis = target;
                axis_changed = true;
            }
        }
        if response.drag_stopped() {
            state.gesture = None;
            state.drag_from = None;
        }
    }
    if axis_changed {
        let gesture = *state.gesture.get_or_insert_with(|| shown.doc.new_gesture());
        let also = if state.apply_to_selected {
            state.selected.clone()
        } else {
            Vec::new()
        };
        let (doc, pixels, id) = (&mut *shown.doc, shown.pixels, shown.id);
        if let Err(message) = edit::set_axis(doc, pixels, id, number, axis, &also, Some(gesture)) {
            said = Some(Feedback::new(
                Severity::Warning,
                format!("Not changed: {message}"),
            ));
        }
    }
    if released {
        state.gesture = None;
    }
    ui.horizontal(|ui| {
        let label = ui.label("Ghost");
        let mut text = state
            .ghost
            .map_or(String::new(), |(g, i)| format!("{g},{i}"));
        let field = ui
            .add(
                egui::TextEdit::singleline(&mut text)
                    .hint_text("group,image")
                    .desired_width(90.0),
            )
            .labelled_by(label.id);
        if field.changed() {
            state.ghost = text
                .split_once(',')
                .and_then(|(g, i)| Some((g.trim().parse().ok()?, i.trim().parse().ok()?)));
        }
    });
    said
}

/// An axis coordinate: a typed value applies on Enter or when the field is left, a drag as it
/// goes (one undo step either way).
fn axis_field(value: &mut i32) -> egui::DragValue<'_> {
    egui::DragValue::new(value).range(i16::MIN..=i16::MAX)
}

/// The sprite drawn large on a checkerboard with its axis cross (and the ghost under it);
/// the response for dragging and the screen points per pixel.
fn preview(
    ui: &mut egui::Ui,
    state: &mut SpriteBrowser,
    shown: &ShownArchive,
    number: SpriteNumber,
    edition: usize,
) -> Option<(egui::Response, f32)> {
    let key = (edition, number, shown.doc.revision as usize);
    if state.large.as_ref().map(|(k, _)| *k) != Some(key) {
        state.large = full_texture(shown, number, ui.ctx()).map(|(t, _)| (key, t));
    }
    let sprite = sprite_pixels(shown, number)?;
    let (_, texture) = state.large.as_ref()?;
    // A share of the panel's height, so the fields below stay on screen at 1280x800.
    let size = vec2(
        ui.available_width().max(160.0),
        (state.column_height * 0.42).clamp(110.0, 420.0),
    );
    let (rect, response) = ui.allocate_exact_size(size, Sense::drag());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, Color32::from_gray(48));
    let (w, h) = (sprite.image.width() as f32, sprite.image.height() as f32);
    let fit = ((rect.width() - 40.0) / w).min((rect.height() - 40.0) / h);
    // Whole screen pixels per sprite pixel when it fits, so pixel edges stay sharp.
    let scale = if fit >= 1.0 {
        fit.floor().min(8.0)
    } else {
        fit.max(0.1)
    };
    let axis = vec2(sprite.axis.0 as f32, sprite.axis.1 as f32);
    // The picture stays in the middle and the axis cross moves over it, with the pointer.
    let top_left = (rect.center() - vec2(w, h) * scale / 2.0).round();
    let centre = top_left + axis * scale;
    if let Some(ghost) = state.ghost.filter(|g| *g != number) {
        let gkey = (edition, ghost);
        if state.ghost_texture.as_ref().map(|(k, _)| *k) != Some(gkey) {
            state.ghost_texture = full_texture(shown, ghost, ui.ctx()).map(|(t, _)| (gkey, t));
        }
        if let (Some((_, gtexture)), Some(gsprite)) =
            (&state.ghost_texture, sprite_pixels(shown, ghost))
        {
            let gaxis = vec2(gsprite.axis.0 as f32, gsprite.axis.1 as f32);
            let gsize = vec2(gsprite.image.width() as f32, gsprite.image.height() as f32);
            let gmin = centre - gaxis * scale;
            painter.image(
                gtexture.id(),
                Rect::from_min_size(gmin, gsize * scale),
                Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
                Color32::from_white_alpha(90),
            );
        }
    }
    painter.image(
        texture.id(),
        Rect::from_min_size(top_left, vec2(w, h) * scale),
        Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
        Color32::WHITE,
    );
    let cross = Stroke::new(1.0, Color32::from_rgb(255, 80, 200));
    painter.line_segment(
        [pos2(rect.left(), centre.y), pos2(rect.right(), centre.y)],
        cross,
    );
    painter.line_segment(
        [pos2(centre.x, rect.top()), pos2(centre.x, rect.bottom())],
        cross,
    );
    Some((
        response.on_hover_text("Drag to move the axis (the cross)"),
        scale,
    ))
}
