//! Drawing on the source sheet: drag a rectangle to cut a frame, or drag over grid cells to
//! make a whole Solarus-style direction (the drag decides the columns and the frame count),
//! optionally snapped to a grid that can be found automatically.
//!
//! The view turns a finished drag into one `edit::sheet` command; the document decides whether
//! it is valid.

use crate::app::context::document::OpenDocument;
use crate::edit::Command;
use crate::edit::sheet::{
    CreateDirectionFromGrid, CreateFrameFromRect, DirectionGrid, SheetGrid, detect_grid, snap_rect,
};
use crate::model::{FrameDuration, ImageId, Origin, PixelRect, Point};
use egui::{Color32, Rect, Stroke, StrokeKind, vec2};
use image::RgbaImage;

/// What a drag on the sheet makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SheetTool {
    /// Nothing: the sheet is only looked at.
    Look,
    /// One frame from the rectangle, inserted after the current frame.
    Frame,
    /// A new direction of the current sequence, one frame per grid cell covered.
    Direction,
}

/// The drawing settings and the drag in progress.
#[derive(Clone, Debug)]
pub struct SheetDraw {
    /// What a drag makes.
    pub tool: SheetTool,
    /// Rectangles snap to the grid.
    pub snap: bool,
    /// The grid (cell size and offset), set by hand or detected.
    pub grid: SheetGrid,
    /// Where the drag started, in image pixels.
    drag_from: Option<(i32, i32)>,
    /// The rectangle drawn so far (kept for the release frame, where the pointer may be gone).
    drawn: Option<PixelRect>,
    /// The user typed or detected the grid; until then it follows the current frame.
    grid_chosen: bool,
}

impl Default for SheetDraw {
    fn default() -> SheetDraw {
        SheetDraw {
            tool: SheetTool::Look,
            snap: true,
            grid: SheetGrid {
                offset_x: 0,
                offset_y: 0,
                cell_width: 16,
                cell_height: 16,
            },
            drag_from: None,
            drawn: None,
            grid_chosen: false,
        }
    }
}

impl SheetDraw {
    /// Starts the grid from the frame the canvas shows (its cell size, and an offset that puts
    /// a cell on it), until the user sets the grid: a sheet of 24x32 frames starts with a 24x32
    /// grid, not a default that fits nothing.
    pub fn follow_frame(&mut self, frame: PixelRect) {
        if self.grid_chosen || frame.width == 0 || frame.height == 0 {
            return;
        }
        self.grid = SheetGrid {
            offset_x: frame.x.rem_euclid(frame.width as i32),
            offset_y: frame.y.rem_euclid(frame.height as i32),
            cell_width: frame.width,
            cell_height: frame.height,
        };
    }

    /// The tool and grid controls. `pixels` is the sheet shown, for detecting its grid;
    /// `no_directions` says why the format cannot take a new direction, if it cannot, and
    /// `no_free_frames` why it cannot take a frame cut anywhere (a Solarus frame is the next
    /// cell of its direction's grid). Returns a message for the status bar.
    pub fn toolbar(
        &mut self,
        ui: &mut egui::Ui,
        pixels: Option<&RgbaImage>,
        no_directions: Option<&str>,
        no_free_frames: Option<&str>,
    ) -> Option<String> {
        if no_directions.is_some() && self.tool == SheetTool::Direction
            || no_free_frames.is_some() && self.tool == SheetTool::Frame
        {
            self.tool = SheetTool::Look;
        }
        let mut said = None;
        ui.horizontal_wrapped(|ui| {
            ui.label("Drag to");
            ui.selectable_value(&mut self.tool, SheetTool::Look, "look")
                .on_hover_text("Dragging does nothing");
            let frame = ui
                .add_enabled(
                    no_free_frames.is_none(),
                    egui::Button::selectable(self.tool == SheetTool::Frame, "draw a frame"),
                )
                .on_hover_text("Drag a rectangle: a new frame after the current one")
                .on_disabled_hover_text(no_free_frames.unwrap_or_default());
            if frame.clicked() {
                self.tool = SheetTool::Frame;
            }
            let direction = ui
                .add_enabled(
                    no_directions.is_none(),
                    egui::Button::selectable(self.tool == SheetTool::Direction, "draw a direction"),
                )
                .on_hover_text(
                    "Drag over grid cells: a new direction, one frame per cell, row by row",
                )
                .on_disabled_hover_text(no_directions.unwrap_or_default());
            if direction.clicked() {
                self.tool = SheetTool::Direction;
            }
            ui.separator();
            ui.checkbox(&mut self.snap, "Snap to grid");
            let before = self.grid;
            let cell = ui.label("Cell");
            ui.add(
                egui::DragValue::new(&mut self.grid.cell_width)
                    .range(1..=4096)
                    .suffix(" w"),
            )
            .labelled_by(cell.id);
            ui.add(
                egui::DragValue::new(&mut self.grid.cell_height)
                    .range(1..=4096)
                    .suffix(" h"),
            )
            .labelled_by(cell.id);
            let offset = ui.label("Offset");
            ui.add(egui::DragValue::new(&mut self.grid.offset_x).suffix(" x"))
                .labelled_by(offset.id);
            ui.add(egui::DragValue::new(&mut self.grid.offset_y).suffix(" y"))
                .labelled_by(offset.id);
            self.grid_chosen |= self.grid != before;
            let detect = ui
                .add_enabled(pixels.is_some(), egui::Button::new("Detect grid"))
                .on_hover_text("Find the cell size and offset from the transparent gaps");
            if detect.clicked()
                && let Some(pixels) = pixels
            {
                said = Some(match detect_grid(pixels) {
                    Some(found) => {
                        self.grid = found.grid;
                        self.grid_chosen = true;
                        self.snap = true;
                        format!(
                            "Grid: {} × {} cells from {}, {} ({} columns, {} rows)",
                            found.grid.cell_width,
                            found.grid.cell_height,
                            found.grid.offset_x,
                            found.grid.offset_y,
                            found.columns,
                            found.rows
                        )
                    }
                    None => "No regular grid was found on this sheet.".to_string(),
                });
            }
        });
        said
    }

    /// The rectangle from the drag start to `to` (image pixels, both corners included),
    /// snapped when snapping is on.
    fn rect_to(&self, to: (i32, i32)) -> Option<PixelRect> {
        let from = self.drag_from?;
        let (x0, x1) = (from.0.min(to.0), from.0.max(to.0));
        let (y0, y1) = (from.1.min(to.1), from.1.max(to.1));
        let rect = PixelRect {
            x: x0,
            y: y0,
            width: (x1 - x0 + 1) as u32,
            height: (y1 - y0 + 1) as u32,
        };
        Some(if self.snap || self.tool == SheetTool::Direction {
            snap_rect(rect, self.grid)
        } else {
            rect
        })
    }

    /// Follows a drag over the sheet drawn in `rect` at `scale`, paints the rectangle being
    /// drawn, and when the drag ends returns the command that makes it.
    pub fn interact(
        &mut self,
        response: &egui::Response,
        painter: &egui::Painter,
        rect: Rect,
        scale: f32,
        doc: &OpenDocument,
        image: ImageId,
    ) -> Option<Box<dyn Command>> {
        if self.tool == SheetTool::Look {
            self.drag_from = None;
            return None;
        }
        let to_pixel = |pos: egui::Pos2| {
            let p = (pos - rect.min) / scale;
            (p.x.floor() as i32, p.y.floor() as i32)
        };
        if response.drag_started() {
            // The drag is recognised after the pointer moved a little: it starts where the
            // button went down.
            let origin = response.ctx.input(|i| i.pointer.press_origin());
            self.drag_from = origin.or(response.interact_pointer_pos()).map(to_pixel);
            self.drawn = None;
        }
        let pointer = response.interact_pointer_pos().map(to_pixel);
        if let Some(r) = pointer.and_then(|p| self.rect_to(p)) {
            self.drawn = Some(r);
        }
        let drawn = if self.drag_from.is_some() {
            self.drawn
        } else {
            None
        };
        if let Some(r) = drawn {
            let min = rect.min + vec2(r.x as f32, r.y as f32) * scale;
            let shown = Rect::from_min_size(min, vec2(r.width as f32, r.height as f32) * scale);
            let colour = Color32::from_rgb(80, 255, 120);
            painter.rect_stroke(shown, 0.0, Stroke::new(2.0, colour), StrokeKind::Outside);
            if self.tool == SheetTool::Direction {
                for cell in self.grid_for(r).cells() {
                    let min = rect.min + vec2(cell.x as f32, cell.y as f32) * scale;
                    let size = vec2(cell.width as f32, cell.height as f32) * scale;
                    let stroke = Stroke::new(1.0, colour.gamma_multiply(0.6));
                    painter.rect_stroke(
                        Rect::from_min_size(min, size),
                        0.0,
                        stroke,
                        StrokeKind::Inside,
                    );
                }
            }
        }
        if !response.drag_stopped() {
            return None;
        }
        self.drag_from = None;
        self.drawn = None;
        let r = drawn?;
        let sequence = doc.sequence()?;
        let duration = new_frame_duration(doc)?;
        match self.tool {
            SheetTool::Look => None,
            SheetTool::Frame => {
                let direction = doc.player.direction();
                let frames = sequence.directions.get(direction)?.frames.len();
                let index = if frames == 0 {
                    0
                } else {
                    (doc.player.frame_index() + 1).min(frames)
                };
                Some(Box::new(CreateFrameFromRect {
                    sequence: sequence.id,
                    direction,
                    index,
                    image,
                    rect: r,
                    origin: origin_for(doc, r.width, r.height),
                    duration,
                }))
            }
            SheetTool::Direction => {
                let grid = DirectionGrid {
                    origin: origin_for(doc, self.grid.cell_width, self.grid.cell_height),
                    ..self.grid_for(r)
                };
                Some(Box::new(CreateDirectionFromGrid {
                    sequence: sequence.id,
                    index: None,
                    image,
                    grid,
                    duration,
                }))
            }
        }
    }

    /// The grid cells a snapped rectangle covers: its columns and rows of cells, every cell a
    /// frame.
    fn grid_for(&self, r: PixelRect) -> DirectionGrid {
        let w = self.grid.cell_width.max(1);
        let h = self.grid.cell_height.max(1);
        let columns = (r.width / w).max(1);
        let rows = (r.height / h).max(1);
        DirectionGrid {
            x: r.x,
            y: r.y,
            width: w,
            height: h,
            origin: Point::ZERO,
            count: columns * rows,
            columns,
        }
    }
}

/// A new frame's origin: the current frame's (frames of one sequence share their origin, as in
/// Solarus), else the bottom centre of the cell, where a character's feet are.
fn origin_for(doc: &OpenDocument, width: u32, height: u32) -> Point {
    let current = doc.frame().and_then(|f| {
        f.elements
            .iter()
            .find_map(|e| match e.as_graphic()?.origin {
                Origin::At(p) => Some(p),
                Origin::SourceAxis => None,
            })
    });
    current.unwrap_or(Point::from_ints((width / 2) as i32, height as i32))
}

/// A new frame lasts as long as the current one, or as any frame of the document (in the
/// document's own unit).
fn new_frame_duration(doc: &OpenDocument) -> Option<FrameDuration> {
    doc.frame()
        .map(|f| f.duration)
        .or_else(|| {
            doc.session
                .document()
                .frames
                .values()
                .map(|f| f.duration)
                .next()
        })
        .or(Some(FrameDuration::Millis(100)))
}
