//! The source-sheet view: a source image with every slice cut from it outlined and the slices
//! the current frame uses highlighted. Frames and whole directions are drawn on it with the
//! tools of [`crate::app::sheet::draw`].

pub mod draw;

use crate::app::context::document::OpenDocument;
use crate::app::context::feedback::Feedback;
use crate::app::context::field_support::{Field, Support};
use crate::app::context::panel::PanelCtx;
use crate::app::sheet::draw::SheetDraw;
use crate::assets::ImageStore;
use crate::formats::Severity;
use crate::model::{GraphicSource, ImageId, ImageKind, PixelRect};
use egui::{Color32, Rect, Sense, Stroke, StrokeKind, TextureHandle, TextureOptions, pos2, vec2};
use std::path::PathBuf;

/// Whether the Source sheet tab shows beside the preview for `doc`: when View > Source sheet
/// is on (`asked`), and always for a document whose frames come from sheets.
pub fn tab_shown(asked: bool, doc: Option<&OpenDocument>) -> bool {
    asked || doc.is_some_and(frames_come_from_sheets)
}

/// The format's frames are cells cut from a sheet (a Solarus direction's grid): the sheet is
/// where every frame comes from, so its tab is there from the start.
pub fn frames_come_from_sheets(doc: &OpenDocument) -> bool {
    doc.session.format().capabilities().frames_are_grid_cells
}

/// What the sheet view remembers.
#[derive(Default)]
pub struct SheetState {
    /// The image shown; `None` = the one the current frame uses.
    pub chosen: Option<ImageId>,
    /// Zoom; `None` = fit the panel.
    pub zoom: Option<f32>,
    /// The drawing tools.
    pub draw: SheetDraw,
    /// Where the image was last drawn on screen and at what scale (screen points per pixel).
    pub image_rect: Option<(Rect, f32)>,
    texture: Option<(PathBuf, u64, TextureHandle)>,
}

impl SheetState {
    /// Forgets the texture (a new document).
    pub fn reset(&mut self) {
        self.chosen = None;
        self.texture = None;
        self.image_rect = None;
    }
}

/// The image the current frame's first graphic draws from.
fn current_image(doc: &OpenDocument) -> Option<ImageId> {
    doc.frame()?
        .elements
        .iter()
        .find_map(|e| match &e.as_graphic()?.source {
            GraphicSource::Slice(id) => doc.session.document().slice(*id).map(|s| s.image),
            GraphicSource::Image(id) => Some(*id),
            GraphicSource::SffSprite { archive, .. } => Some(*archive),
        })
}

/// Where the current frame's first graphic is cut from `image`, when it is.
fn current_slice_on(doc: &OpenDocument, image: ImageId) -> Option<PixelRect> {
    let document = doc.session.document();
    doc.frame()?.elements.iter().find_map(|e| {
        let GraphicSource::Slice(id) = &e.as_graphic()?.source else {
            return None;
        };
        let slice = document.slice(*id)?;
        (slice.image == image).then_some(slice.rect)
    })
}

/// Paints the sheet view and carries out what was drawn on it; what the status bar should
/// say (a refused drawing, a detected grid) goes into `ctx`.
pub fn show(ui: &mut egui::Ui, state: &mut SheetState, ctx: &mut PanelCtx) {
    let doc: &mut OpenDocument = ctx.doc;
    let (said, command) = paint(ui, state, doc, ctx.pictures.pixels);
    let Some(command) = command else {
        ctx.out.tell(said);
        return;
    };
    let gesture = doc.new_gesture();
    match doc.apply(command.as_ref(), Some(gesture)) {
        Ok(()) => ctx.say(Severity::Info, command.label()),
        Err(message) => ctx.refuse(&message.to_string()),
    }
}

type Painted = (Option<Feedback>, Option<Box<dyn crate::edit::Command>>);

fn paint(
    ui: &mut egui::Ui,
    state: &mut SheetState,
    doc: &OpenDocument,
    pixels: &ImageStore,
) -> Painted {
    let none: Painted = (None, None);
    let document = doc.session.document();
    if document.images.is_empty() {
        ui.centered_and_justified(|ui| ui.label("This file draws from no source image."));
        return none;
    }
    let shown = state
        .chosen
        .or_else(|| current_image(doc))
        .unwrap_or(document.images[0].id);
    // Wrapped, so a narrow view puts Fit and the zoom under the picture's name.
    ui.horizontal_wrapped(|ui| {
        let image_label = ui.label("Image");
        let path = document
            .image(shown)
            .map(|i| i.path.clone())
            .unwrap_or_default();
        // The file's name shows; its path, which can be long, is in the list and hover text.
        let name = crate::text::file_name(std::path::Path::new(&path));
        let chooser = egui::ComboBox::from_id_salt("sheet image")
            .selected_text(name)
            .show_ui(ui, |ui| {
                if ui
                    .selectable_label(state.chosen.is_none(), "the current frame's")
                    .clicked()
                {
                    state.chosen = None;
                }
                for image in &document.images {
                    if ui
                        .selectable_label(state.chosen == Some(image.id), &image.path)
                        .clicked()
                    {
                        state.chosen = Some(image.id);
                    }
                }
            });
        chooser
            .response
            .labelled_by(image_label.id)
            .on_hover_text(path);

        let mut fit = state.zoom.is_none();
        if ui.checkbox(&mut fit, "Fit").changed() {
            state.zoom = if fit { None } else { Some(1.0) };
        }
        if let Some(zoom) = state.zoom.as_mut() {
            ui.add(
                egui::Slider::new(zoom, 0.25..=16.0)
                    .logarithmic(true)
                    .suffix("x"),
            );
        }
    });
    let Some(image) = document.image(shown) else {
        return none;
    };
    if matches!(image.kind, ImageKind::Sff { .. }) {
        ui.label("An SFF archive holds separate sprites rather than a sheet; the canvas shows the sprite each frame uses.");
        return none;
    }
    let Some(path) = ImageStore::file_of(image).map(|p| p.to_path_buf()) else {
        ui.label(match &image.kind {
            ImageKind::SolarusTileset { .. } => {
                "This animation draws from the map's tileset; no tileset image was chosen."
            }
            _ => "The image file was not found beside the document.",
        });
        return none;
    };
    let pixels_of_sheet = match pixels.image(&path) {
        Ok(p) => p,
        Err(e) => {
            ui.colored_label(Color32::from_rgb(235, 80, 80), e.to_string());
            return none;
        }
    };
    if let Some(frame_rect) = current_slice_on(doc, shown) {
        state.draw.follow_frame(frame_rect);
    }
    let support = Support::of_format(doc.session.format());
    let no_directions = support.why_not(Field::Directions);
    let no_free_frames = support.why_not(Field::GraphicSource);
    let said = state
        .draw
        .toolbar(
            ui,
            Some(&pixels_of_sheet),
            no_directions.as_deref(),
            no_free_frames.as_deref(),
        )
        .map(|text| Feedback::new(Severity::Info, text));
    let generation = pixels.generation();
    let stale = !matches!(&state.texture, Some((p, g, _)) if *p == path && *g == generation);
    if stale {
        let texture = crate::app::context::pictures::texture_of(
            ui.ctx(),
            "sprat-sheet",
            &pixels_of_sheet,
            TextureOptions::NEAREST,
        );
        state.texture = Some((path.clone(), generation, texture));
    }
    let Some((_, _, texture)) = &state.texture else {
        return (said, None);
    };
    let image_size = vec2(
        pixels_of_sheet.width() as f32,
        pixels_of_sheet.height() as f32,
    );
    let used: Vec<_> = doc
        .frame()
        .map(|f| {
            f.elements
                .iter()
                .filter_map(|e| match e.as_graphic()?.source {
                    GraphicSource::Slice(id) => Some(id),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    let draw = &mut state.draw;
    let mut image_rect = None;
    let command = egui::ScrollArea::both()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let scale = state.zoom.unwrap_or_else(|| {
                let room = ui.available_size();
                (room.x / image_size.x).min(room.y / image_size.y).max(0.05)
            });
            let (rect, response) =
                ui.allocate_exact_size(image_size * scale, Sense::click_and_drag());
            image_rect = Some((rect, scale));
            let painter = ui.painter_at(rect);
            painter.rect_filled(rect, 0.0, Color32::from_gray(60));
            painter.image(
                texture.id(),
                rect,
                Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
                Color32::WHITE,
            );
            for slice in document.slices.iter().filter(|s| s.image == shown) {
                let (w, h) = if slice.rotated {
                    (slice.rect.height, slice.rect.width)
                } else {
                    (slice.rect.width, slice.rect.height)
                };
                let min = rect.min + vec2(slice.rect.x as f32, slice.rect.y as f32) * scale;
                let r = Rect::from_min_size(min, vec2(w as f32, h as f32) * scale);
                let in_use = used.contains(&slice.id);
                let stroke = if in_use {
                    Stroke::new(2.0, Color32::from_rgb(255, 210, 40))
                } else {
                    Stroke::new(1.0, Color32::from_rgba_unmultiplied(120, 200, 255, 160))
                };
                painter.rect_stroke(r, 0.0, stroke, StrokeKind::Outside);
            }
            let command = draw.interact(&response, &painter, rect, scale, doc, shown);
            if let Some(pos) = response.hover_pos() {
                let p = (pos - rect.min) / scale;
                response.on_hover_text(format!("{}, {}", p.x.floor(), p.y.floor()));
            }
            command
        })
        .inner;
    state.image_rect = image_rect;
    (said, command)
}
