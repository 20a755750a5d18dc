//! The Import window's ways of cutting a sheet by its pixels, as `sprat cut` does with the
//! same options: **Automatic** (the layout read: a lattice of cells when the sprites sit on
//! one, drawn over the sheet and said in words, else separate sprites; or the frames a data
//! file beside the sheet names) and **Separate sprites** (the opaque regions found, with a gap
//! tolerance that joins a sprite's detached parts and a minimum size that drops specks). The
//! doubts about the cut are shown with their likely fix. The frames are drawn and numbered on
//! the sheet's preview and edited there before importing: click to select (Shift or Ctrl
//! adds), merge, split, drop, move earlier or later, or drag a sprite onto another to put it at
//! that place. The cut is [`crate::assets::layout::cut_frames`], the list
//! [`crate::assets::sprites::FoundSprites`].

use crate::assets::layout::{AxisLattice, CutMethod, Lattice, Layout, SheetFrames, cut_frames};
use crate::assets::sheet_data::SheetData;
use crate::assets::sprites::{FoundSprites, SpriteOptions};
use crate::model::PixelRect;
use egui::{Color32, Rect, Sense, Stroke, pos2, vec2};
use image::RgbaImage;

/// The frames found on the sheet and how the user has edited them.
#[derive(Debug, Default)]
pub struct SeparateSprites {
    /// How they are found.
    pub options: SpriteOptions,
    /// The frames, in frame order.
    pub found: FoundSprites,
    /// The options and the method `found` was found with (`None`: find again).
    found_with: Option<(SpriteOptions, CutMethod)>,
    /// The frames a data file beside the sheet names (read instead of cutting, automatically).
    pub data: Option<SheetData>,
    /// How the sheet was cut, for the lattice and the doubts (`None` when read from `data`).
    pub cut: Option<SheetFrames>,
    /// The selected sprites (indices into `found`), in the order selected.
    pub selected: Vec<usize>,
    /// The sprite a drag on the preview started on.
    dragging: Option<usize>,
    /// Why the last edit was refused.
    pub refusal: Option<String>,
    /// The sheet has opaque pixels (looked at when nothing was found, to say why).
    any_opaque: bool,
}

/// Frame numbers are drawn only while there are no more sprites than this (beyond, the
/// preview would be all digits).
const NUMBERED_AT_MOST: usize = 400;

const OUTLINE: Color32 = Color32::from_rgb(255, 200, 0);
const SELECTED: Color32 = Color32::from_rgb(0, 200, 255);
const LATTICE: Color32 = Color32::from_rgba_premultiplied(120, 255, 120, 160);

impl SeparateSprites {
    /// Cuts `sheet` by `method` again when the options or the method changed since it was
    /// cut (edits are kept while they stay as they are). Automatically, the frames of the data
    /// file beside the sheet are taken when there is one.
    pub fn refresh(&mut self, sheet: &RgbaImage, method: CutMethod) {
        if self.found_with != Some((self.options, method)) {
            match self
                .data
                .as_ref()
                .filter(|_| method == CutMethod::Automatic)
            {
                Some(data) => {
                    self.found = FoundSprites {
                        rects: data.rects.clone(),
                    };
                    self.cut = None;
                }
                None => {
                    let cut = cut_frames(sheet, self.options, method);
                    self.found = FoundSprites {
                        rects: cut.rects.clone(),
                    };
                    self.cut = Some(cut);
                }
            }
            self.found_with = Some((self.options, method));
            self.any_opaque = !self.found.rects.is_empty() || sheet.pixels().any(|p| p.0[3] != 0);
            self.selected.clear();
            self.dragging = None;
            self.refusal = None;
        }
    }

    /// Forgets the sprites found (a new sheet): they are found again at the next frame.
    pub fn forget(&mut self) {
        self.found_with = None;
    }

    /// True when the frames are those a data file names rather than cut.
    pub fn from_data(&self) -> bool {
        self.cut.is_none() && self.data.is_some() && self.found_with.is_some()
    }

    /// What the cut found, in words: the data file read, the lattice, or separate sprites.
    pub fn layout_text(&self) -> Option<String> {
        if self.from_data() {
            let data = self.data.as_ref()?;
            return Some(format!(
                "{}. Separate sprites or a grid cut the sheet by its pixels instead.",
                crate::text::capitalised(&data.describe())
            ));
        }
        let cut = self.cut.as_ref()?;
        Some(match (&cut.layout, cut.lattice) {
            (Layout::Lattice(lattice), _) => {
                format!("Layout: {}.", crate::text::capitalised(&lattice.describe()))
            }
            (bands @ Layout::Bands { .. }, _) => format!(
                "Layout: {}.",
                crate::text::capitalised(&bands.describe_bands().unwrap_or_default())
            ),
            (Layout::Sprites, Some(lattice)) => format!(
                "Separate sprites; the sheet also reads as {}.",
                lattice.describe()
            ),
            (Layout::Sprites, None) => {
                "Layout: separate sprites (no common column and row pitch).".to_string()
            }
        })
    }

    /// The rectangles to import, in frame order.
    pub fn cells(&self) -> Vec<PixelRect> {
        self.found.rects.clone()
    }

    fn edit(&mut self, result: Result<Vec<usize>, String>) {
        match result {
            Ok(selected) => {
                self.selected = selected;
                self.refusal = None;
            }
            Err(why) => self.refusal = Some(capitalised(&why)),
        }
    }
}

/// `text` as a sentence: a capital first letter and a full stop.
fn capitalised(text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    format!("{}.", crate::text::capitalised(text))
}

/// Why nothing was found, in a sentence (`None` when something was).
fn nothing_found(state: &SeparateSprites) -> Option<String> {
    if !state.found.rects.is_empty() {
        return None;
    }
    Some(if state.any_opaque {
        format!(
            "No sprite found: every opaque part of the sheet is smaller than the minimum size \
             ({} px). Lower it to keep them.",
            state.options.min_size
        )
    } else {
        "No sprite found: the sheet has no opaque pixels, so there is nothing to import."
            .to_string()
    })
}

/// The fields, what was found (the layout, the doubts), the preview and the edit buttons, for
/// a cut by `method`.
pub fn section(
    ui: &mut egui::Ui,
    state: &mut SeparateSprites,
    sheet: &RgbaImage,
    texture: &egui::TextureHandle,
    method: CutMethod,
) {
    let (width, height) = sheet.dimensions();
    ui.horizontal(|ui| {
        let label = ui.label("Gap tolerance");
        ui.add(
            egui::DragValue::new(&mut state.options.gap)
                .range(0..=width.max(height).clamp(1, 256))
                .suffix(" px"),
        )
        .labelled_by(label.id)
        .on_hover_text("Parts this many transparent pixels apart are one sprite");
        let label = ui.label("Minimum size");
        ui.add(
            egui::DragValue::new(&mut state.options.min_size)
                .range(0..=width.max(height).max(1))
                .suffix(" px"),
        )
        .labelled_by(label.id)
        .on_hover_text("Smaller regions (narrower and shorter than this) are dropped as specks");
        if ui
            .button("Find again")
            .on_hover_text("Forget the edits below and find the sprites again")
            .clicked()
        {
            state.forget();
        }
    });
    state.refresh(sheet, method);
    if let Some(text) = state.layout_text() {
        ui.label(text);
    }
    for doubt in state.cut.iter().flat_map(|cut| &cut.doubts) {
        ui.colored_label(ui.visuals().warn_fg_color, doubt.in_window());
    }
    preview(ui, state, sheet, texture);
    if let Some(why) = nothing_found(state) {
        ui.colored_label(ui.visuals().warn_fg_color, why);
        return;
    }
    edit_buttons(ui, state, sheet);
    if let Some(why) = &state.refusal {
        ui.colored_label(ui.visuals().error_fg_color, why);
    }
}

/// Merge, split, drop, move earlier or later, order row by row.
fn edit_buttons(ui: &mut egui::Ui, state: &mut SeparateSprites, sheet: &RgbaImage) {
    let count = state.found.rects.len();
    let one = match state.selected.as_slice() {
        [one] => Some(*one),
        _ => None,
    };
    ui.horizontal_wrapped(|ui| {
        let selected = &state.selected;
        ui.label(match selected.len() {
            0 => "Click a sprite to select it (Shift adds)".to_string(),
            1 => format!("Sprite {} selected", selected[0]),
            n => format!("{n} sprites selected"),
        });
        let merge = ui
            .add_enabled(selected.len() >= 2, egui::Button::new("Merge"))
            .on_hover_text("Join the selected sprites into one frame");
        let split = ui
            .add_enabled(one.is_some(), egui::Button::new("Split"))
            .on_hover_text("Part the selected sprite into its separate pieces");
        let drop = ui
            .add_enabled(!selected.is_empty(), egui::Button::new("Drop"))
            .on_hover_text("Leave the selected sprites out");
        let earlier = ui.add_enabled(
            one.is_some_and(|i| i > 0),
            egui::Button::new("Move earlier"),
        );
        let later = ui.add_enabled(
            one.is_some_and(|i| i + 1 < count),
            egui::Button::new("Move later"),
        );
        let rows = ui
            .button("Order row by row")
            .on_hover_text("Number the sprites again from the top left");
        let selected = state.selected.clone();
        if merge.clicked() {
            let result = state.found.merge(&selected).map(|i| vec![i]);
            state.edit(result);
        }
        if split.clicked()
            && let Some(i) = one
        {
            let result = state.found.split(sheet, i).map(|r| r.collect());
            state.edit(result);
        }
        if drop.clicked() {
            let result = state.found.drop(&selected).map(|()| Vec::new());
            state.edit(result);
        }
        if let Some(i) = one {
            if earlier.clicked() {
                let result = state.found.move_to(i, i - 1).map(|()| vec![i - 1]);
                state.edit(result);
            }
            if later.clicked() {
                let result = state.found.move_to(i, i + 1).map(|()| vec![i + 1]);
                state.edit(result);
            }
        }
        if rows.clicked() {
            state.found.sort_rows();
            state.edit(Ok(Vec::new()));
        }
    });
}

/// The sheet with each sprite's rectangle and number; clicks select, a drag from one sprite
/// onto another moves it to that place.
fn preview(
    ui: &mut egui::Ui,
    state: &mut SeparateSprites,
    sheet: &RgbaImage,
    texture: &egui::TextureHandle,
) {
    let (width, height) = (sheet.width().max(1) as f32, sheet.height().max(1) as f32);
    let scale = (420.0 / width).min(220.0 / height).min(8.0);
    let (response, painter) =
        ui.allocate_painter(vec2(width * scale, height * scale), Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "sprites"));
    let rect = response.rect;
    let to_sheet = |pos: egui::Pos2| {
        let at = (pos - rect.min) / scale;
        (at.x.floor() as i32, at.y.floor() as i32)
    };
    let sprite_at = |pos: Option<egui::Pos2>| {
        let (x, y) = to_sheet(pos?);
        state.found.at(x, y)
    };
    if response.clicked() {
        let adding = ui.input(|i| i.modifiers.shift || i.modifiers.command);
        match sprite_at(response.interact_pointer_pos()) {
            Some(i) if adding => {
                if let Some(at) = state.selected.iter().position(|&s| s == i) {
                    state.selected.remove(at);
                } else {
                    state.selected.push(i);
                }
            }
            Some(i) => state.selected = vec![i],
            None if !adding => state.selected.clear(),
            None => {}
        }
    }
    if response.drag_started() {
        state.dragging = sprite_at(ui.input(|i| i.pointer.press_origin()));
    }
    if response.drag_stopped()
        && let Some(from) = state.dragging.take()
        && let Some(to) = sprite_at(response.interact_pointer_pos())
        && from != to
    {
        let result = state.found.move_to(from, to).map(|()| vec![to]);
        state.edit(result);
    }

    painter.rect_filled(rect, 0.0, Color32::from_gray(60));
    painter.image(
        texture.id(),
        rect,
        Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
        Color32::WHITE,
    );
    let screen = |r: &PixelRect| {
        Rect::from_min_size(
            rect.min + vec2(r.x as f32 * scale, r.y as f32 * scale),
            vec2(r.width as f32 * scale, r.height as f32 * scale),
        )
    };
    // The lattice read, under the frames (each band's own, where the sheet was cut band by
    // band).
    let lattices = match state.cut.as_ref().map(|cut| &cut.layout) {
        Some(Layout::Lattice(lattice)) => std::slice::from_ref(lattice),
        Some(Layout::Bands { lattices, .. }) => lattices.as_slice(),
        _ => &[],
    };
    for lattice in lattices {
        draw_lattice(&painter, rect.min, scale, lattice);
    }
    let numbered = state.found.rects.len() <= NUMBERED_AT_MOST;
    for (i, sprite) in state.found.rects.iter().enumerate() {
        let on_screen = screen(sprite);
        let selected = state.selected.contains(&i);
        let colour = if selected { SELECTED } else { OUTLINE };
        if selected {
            painter.rect_filled(on_screen, 0.0, SELECTED.gamma_multiply(0.25));
        }
        painter.rect_stroke(
            on_screen,
            0.0,
            Stroke::new(if selected { 2.0 } else { 1.0 }, colour),
            egui::StrokeKind::Outside,
        );
        if numbered {
            let font = egui::FontId::monospace(10.0);
            // Numbered from 0, as the cells they become are in the timeline (and as the grid's
            // cells are numbered).
            let text = i.to_string();
            let galley = painter.layout_no_wrap(text, font, Color32::BLACK);
            let at = on_screen.left_top()
                + vec2(0.0, -galley.size().y.min(on_screen.top() - rect.top()));
            let back = Rect::from_min_size(at, galley.size() + vec2(2.0, 0.0));
            painter.rect_filled(back, 1.0, colour);
            painter.galley(at + vec2(1.0, 0.0), galley, Color32::BLACK);
        }
    }
    // The place a dragged sprite would go.
    if let Some(from) = state.dragging
        && let Some(pointer) = response.interact_pointer_pos()
        && let Some(start) = state.found.rects.get(from)
    {
        let start = screen(start).center();
        painter.arrow(start, pointer - start, Stroke::new(2.0, SELECTED));
    }
}

/// Draws `lattice` over a sheet shown from `origin` at `scale`: a line midway between each
/// cell's frame and the next, so its pitch shows, and each frame's place, faintly.
fn draw_lattice(painter: &egui::Painter, origin: egui::Pos2, scale: f32, lattice: &Lattice) {
    let line = Stroke::new(1.0, LATTICE);
    let (c, r) = (lattice.columns, lattice.rows);
    let cut_at = |axis: AxisLattice, k: u32| {
        (axis.margin + k * axis.pitch).saturating_sub(axis.spacing().div_ceil(2)) as f32
    };
    let (top, bottom) = (cut_at(r, 0), cut_at(r, r.count));
    let (left, right) = (cut_at(c, 0), cut_at(c, c.count));
    for k in 0..=c.count {
        let x = origin.x + cut_at(c, k) * scale;
        let ends = [
            pos2(x, origin.y + top * scale),
            pos2(x, origin.y + bottom * scale),
        ];
        painter.line_segment(ends, line);
    }
    for k in 0..=r.count {
        let y = origin.y + cut_at(r, k) * scale;
        let ends = [
            pos2(origin.x + left * scale, y),
            pos2(origin.x + right * scale, y),
        ];
        painter.line_segment(ends, line);
    }
    for cell in lattice.cells() {
        let on_screen = Rect::from_min_size(
            origin + vec2(cell.x as f32 * scale, cell.y as f32 * scale),
            vec2(cell.width as f32 * scale, cell.height as f32 * scale),
        );
        let faint = Stroke::new(1.0, LATTICE.gamma_multiply(0.5));
        painter.rect_stroke(on_screen, 0.0, faint, egui::StrokeKind::Inside);
    }
}
