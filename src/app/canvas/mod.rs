//! The centre canvas: the frame at any zoom with its overlay, pan and zoom, hover coordinates.

pub mod box_tools;
pub mod ghost;
pub mod onion;
pub mod overlay;
pub mod tools;
pub mod view;

use crate::app::canvas::tools::{CanvasOutcome, FrameContext, ToolState, click, input};
use crate::app::canvas::view::View;
use crate::app::context::document::{OpenDocument, box_rule};
use crate::app::context::ghost::FrameGhost;
use crate::app::context::panel::PanelCtx;
use crate::app::context::pictures::{FrameKey, Pictures, ShownPicture};
use crate::app::context::reference::PinnedReference;
use crate::app::context::settings::{Background, Settings};
use crate::assets::ImageStore;
use crate::formats::Severity;
use crate::model::effective_boxes;
use crate::playback::displayed_frame;
use crate::render::Scene;
use egui::{
    Color32, ColorImage, Pos2, Rect, Sense, Stroke, TextureHandle, TextureOptions, Vec2, pos2, vec2,
};
use std::borrow::Cow;

/// What the canvas of one document remembers between frames.
pub struct CanvasState {
    /// Screen points per sprite pixel.
    pub zoom: f32,
    /// The sprite origin's offset from the canvas centre, in points.
    pub pan: Vec2,
    /// Fit the frame in view at the next paint.
    pub fit_requested: bool,
    /// The sprite pixel under the cursor, relative to the origin.
    pub hover_pixel: Option<(i32, i32)>,
    /// The canvas rectangle at the last paint (for keyboard zoom about the centre).
    pub last_rect: Option<Rect>,
    /// The checkerboard pattern (2×2 texels, repeated).
    checkerboard: Option<TextureHandle>,
    /// Space is held (Space+drag pans; a Space press without a drag plays or pauses).
    pub space_held: bool,
    /// A drag happened while Space was held.
    pub space_dragged: bool,
    /// The editing tools (select, box, point), their options and the drag in progress.
    pub tools: ToolState,
    /// The last press was on the canvas: arrow keys nudge even with the pointer elsewhere.
    pub keyboard: bool,
    /// Frames drawn faint where a window's tool would move them (Align frames), set by the
    /// shell from the window before the canvas paints.
    pub ghost: Option<FrameGhost>,
    /// The onion skin's silhouettes.
    silhouettes: onion::Silhouettes,
    /// The mapping the canvas last drew and read the pointer with (facing left included).
    pub last_view: Option<View>,
}

impl Default for CanvasState {
    /// A canvas that fits its frame in view when first shown.
    fn default() -> CanvasState {
        CanvasState {
            zoom: 1.0,
            pan: Vec2::ZERO,
            fit_requested: true,
            hover_pixel: None,
            last_rect: None,
            checkerboard: None,
            space_held: false,
            space_dragged: false,
            tools: ToolState::default(),
            keyboard: false,
            ghost: None,
            silhouettes: onion::Silhouettes::default(),
            last_view: None,
        }
    }
}

impl CanvasState {
    /// Zooms one step about the canvas centre.
    pub fn zoom_step(&mut self, up: bool) {
        let target = view::next_zoom_step(self.zoom, up);
        let rect = self
            .last_rect
            .unwrap_or(Rect::from_min_size(Pos2::ZERO, vec2(800.0, 600.0)));
        let (zoom, pan) =
            view::zoom_about(rect, self.zoom, self.pan, target / self.zoom, rect.center());
        self.zoom = zoom;
        self.pan = pan;
    }

    /// Shows one image pixel per physical pixel, keeping the origin where it is on screen.
    pub fn actual_size(&mut self) {
        let factor = 1.0 / self.zoom;
        let rect = self
            .last_rect
            .unwrap_or(Rect::from_min_size(Pos2::ZERO, vec2(800.0, 600.0)));
        let (zoom, pan) = view::zoom_about(rect, self.zoom, self.pan, factor, rect.center());
        self.zoom = zoom;
        self.pan = pan;
    }
}

/// Whether the frame on show has an origin of its own to turn about when facing left: always
/// where the format has origins; in a format whose pixels are placed from the canvas's corner
/// (Aseprite), only when the file marks one (its graphics are placed about it).
fn has_origin(doc: &OpenDocument) -> bool {
    if !doc.session.format().capabilities().origin_at_canvas_corner {
        return true;
    }
    doc.frame().is_some_and(|frame| {
        frame.elements.iter().any(|e| {
            e.as_graphic()
                .is_some_and(|g| g.origin != crate::model::Origin::At(crate::model::Point::ZERO))
        })
    })
}

/// The key of what the player shows now.
fn current_key(doc: &OpenDocument) -> FrameKey {
    let interpolated = matches!(
        displayed_frame(&doc.player, doc.session.document()),
        Some(Cow::Owned(_))
    );
    FrameKey {
        sequence: doc.player.sequence(),
        direction: doc.player.direction(),
        index: doc.player.frame_index(),
        progress: if interpolated {
            doc.player.frame_progress(doc.session.document()).to_bits()
        } else {
            0
        },
    }
}

/// With `RUST_LOG=sprat::app::canvas=debug`: how long after the program started, and after
/// its tab was made, a document's first picture is drawn (docs/speed.md); the paint that shows
/// it follows this UI frame.
fn log_first_picture(doc: &OpenDocument) {
    let name = doc
        .path()
        .and_then(|p| p.file_name())
        .map_or_else(|| "the new document".into(), |n| n.to_string_lossy());
    let since_tab = doc.opened.0.elapsed().as_secs_f64() * 1e3;
    match crate::logging::since_start() {
        Some(since_start) => log::debug!(
            "first picture of {name} drawn {:.0} ms after the program started, {since_tab:.0} ms after its tab was made",
            since_start.as_secs_f64() * 1e3
        ),
        None => {
            log::debug!("first picture of {name} drawn {since_tab:.0} ms after its tab was made")
        }
    }
}

/// The rendered picture of what the player shows now.
fn current_picture(
    ctx: &egui::Context,
    doc: &OpenDocument,
    settings: &Settings,
    pictures: &mut Pictures,
) -> Option<ShownPicture> {
    if !doc.player.visible() {
        return None;
    }
    let rule = box_rule(settings.view.documented_default_box_rule);
    let document = doc.session.document();
    pictures.textures.playing_frame(
        ctx,
        document,
        &doc.player,
        current_key(doc),
        || Scene::playing(document, &doc.player, rule),
        pictures.pixels,
    )
}

/// Paints the picture of the frame on show: its texture, or its indices through the GPU's
/// palette lookup.
fn paint_shown(painter: &egui::Painter, view: &View, picture: &ShownPicture) {
    match picture {
        ShownPicture::Texture(frame) => {
            onion::paint_picture(painter, view, frame, Color32::WHITE);
        }
        ShownPicture::Indexed {
            picture,
            painter: lookup,
        } => {
            let r = picture.rect;
            let a = view.to_screen(r.x as f64, r.y as f64);
            let b = view.to_screen(r.x as f64 + r.width as f64, r.y as f64 + r.height as f64);
            let screen = egui::Rect::from_two_pos(a, b);
            let clip = painter.clip_rect();
            let callback = lookup.callback(picture.clone(), screen, view.mirrored, clip);
            painter.add(callback);
        }
    }
}

/// Paints the tool strip and the canvas and handles their input; a refusal goes into `ctx`,
/// and a file to hang a sequence from is asked for through its platform.
pub fn show(ui: &mut egui::Ui, state: &mut CanvasState, ctx: &mut PanelCtx) {
    let outcome = paint(
        ui,
        state,
        ctx.settings,
        ctx.doc,
        &mut ctx.pictures,
        ctx.reference,
    );
    ctx.out.tell(outcome.feedback);
    if outcome.pick_hang_file {
        let egui_ctx = ui.ctx().clone();
        let wake = move || egui_ctx.request_repaint();
        if let Err(message) = state.tools.hang.pick_file(ctx.platform, wake) {
            ctx.say(Severity::Error, message);
        }
    }
}

/// Paints the tool strip and the canvas and handles their input; says what the canvas's
/// parts asked for (a refusal, a file to hang).
fn paint(
    ui: &mut egui::Ui,
    state: &mut CanvasState,
    settings: &mut Settings,
    doc: &mut OpenDocument,
    pictures: &mut Pictures,
    reference: Option<&PinnedReference>,
) -> CanvasOutcome {
    let mut outcome = CanvasOutcome::default();
    let rule = box_rule(settings.view.documented_default_box_rule);
    let context = FrameContext::of(doc, rule);
    {
        let boxes = tools::shown_boxes(doc, rule, |c| settings.box_class_visible(c.label()));
        tools::strip::show(ui, &mut state.tools, doc, context, &boxes, &mut outcome);
    }
    let interpolate_preview = box_tools::show(ui, doc, context, pictures.pixels, &mut outcome);
    // The strip may have changed the document: look at the frame again.
    let context = FrameContext::of(doc, rule);
    // During a drag the canvas stays where it was when the drag began, even when the strip
    // above grows a row for what the drag selected: the sprite must not move under the pointer.
    let (rect, response) = match state.last_rect.filter(|_| state.tools.drag.is_some()) {
        Some(held) => (held, ui.allocate_rect(held, Sense::click_and_drag())),
        None => ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag()),
    };
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "canvas"));
    if let Some(last) = state.last_rect {
        state.pan = view::pan_after_resize(last, rect, state.pan);
    }
    state.last_rect = Some(rect);
    let ppp = ui.ctx().pixels_per_point();
    let painter = ui.painter_at(rect);
    let ctx = ui.ctx().clone();
    let picture = current_picture(&ctx, doc, settings, pictures);
    if picture.is_some() && !doc.opened.1 {
        doc.opened.1 = true;
        log_first_picture(doc);
    }

    let facing_left = settings.view.facing_left;
    let axis = view::mirror_axis(
        has_origin(doc),
        picture
            .as_ref()
            .map(|p| (p.rect().x as f64, p.rect().width as f64)),
    );
    if state.fit_requested {
        state.fit_requested = false;
        let mut points = doc.frame().map(overlay::overlay_extent).unwrap_or_default();
        if let Some(p) = &picture {
            let r = p.rect();
            points.push((r.x as f64, r.y as f64));
            points.push((r.x as f64 + r.width as f64, r.y as f64 + r.height as f64));
        }
        // Fitted where the points are on screen: turned round when facing left.
        let points = points.into_iter().map(|(x, y)| {
            let x = if facing_left { 2.0 * axis - x } else { x };
            (x, y)
        });
        let (zoom, pan) = view::fit(rect, view::bounds_of(points), ppp);
        state.zoom = zoom;
        state.pan = pan;
    }

    handle_pan_and_zoom(ui, &response, rect, state);
    let view = View::new(rect, state.zoom, ppp, state.pan).facing_left(facing_left, axis);
    state.last_view = Some(view);

    paint_background(ui.ctx(), &painter, rect, settings, state);
    if let Some(reference) = reference {
        onion::paint_reference(&painter, &view, rect, reference, settings);
    }
    let onion_skin = settings.view.onion_skin && doc.player.visible();
    let paint_onion_skin = |pictures: &mut Pictures, state: &mut CanvasState| {
        let on_show = current_key(doc);
        let silhouettes = &mut state.silhouettes;
        onion::paint_onion_skin(
            &painter,
            &view,
            doc,
            settings,
            pictures,
            silhouettes,
            on_show,
        );
    };
    if onion_skin && !settings.view.onion_above {
        paint_onion_skin(pictures, state);
    }
    if let Some(picture) = &picture {
        paint_shown(&painter, &view, picture);
    }
    if onion_skin && settings.view.onion_above {
        paint_onion_skin(pictures, state);
    }
    if let Some(frames) = &state.ghost {
        ghost::paint(&ctx, &painter, &view, doc, settings, pictures, frames);
    }
    if settings.view.pixel_grid {
        paint_pixel_grid(&painter, &view);
    }
    if settings.view.axis_cross {
        let o = view.origin();
        let stroke = Stroke::new(1.0, Color32::from_rgba_unmultiplied(255, 255, 255, 120));
        painter.line_segment([pos2(rect.left(), o.y), pos2(rect.right(), o.y)], stroke);
        painter.line_segment([pos2(o.x, rect.top()), pos2(o.x, rect.bottom())], stroke);
    }

    if doc.player.visible()
        && let Some(frame) = doc.frame()
    {
        let (document, revision) = (doc.session.document(), doc.revision);
        state.tools.hang.follow(&doc.player, document);
        let hang = &mut state.tools.hang;
        hang.paint(
            &ctx,
            &painter,
            &view,
            frame,
            document,
            revision,
            pictures.pixels,
        );
    }
    let overlay_shown = settings.view.overlay && doc.player.visible();
    if overlay_shown {
        paint_overlay(&painter, &view, settings, doc);
    }
    if let Some(preview) = &interpolate_preview {
        box_tools::paint_preview(&painter, &view, doc, preview);
    }

    state.hover_pixel = response.hover_pos().map(|p| {
        let (x, y) = view.to_sprite(p);
        (x.floor() as i32, y.floor() as i32)
    });

    if let Some(context) = context {
        let context = context.allowing_subpixel(ui.input(|i| i.modifiers.alt));
        // Hidden boxes (overlay off, class unticked) cannot be grabbed.
        let boxes = boxes_shown(doc, settings);
        let dragging = state.tools.drag.is_some();
        let space_down =
            ui.input(|i| i.key_down(egui::Key::Space)) && !ctx.egui_wants_keyboard_input();
        let pixels: &ImageStore = pictures.pixels;
        let scene = input::Scene {
            context,
            view: &view,
            boxes: &boxes,
            pixels,
        };
        edit_with_pointer(ui, &response, &scene, state, doc, space_down, &mut outcome);
        keys_on_selection(ui, &response, &scene, state, doc, dragging, &mut outcome);
        let boxes = boxes_shown(doc, settings);
        if let Some(context) = FrameContext::of(doc, rule) {
            tools::paint::paint_selection(&painter, &view, doc, &boxes, pixels);
            tools::paint::paint_band(&painter, &view, &state.tools);
            tools::paint::paint_handles(&painter, &view, doc, &context, &boxes, pixels);
            if let Some(pos) = response.hover_pos()
                && !space_down
            {
                let at = view.to_sprite(pos);
                let draw_anywhere = ui.input(|i| i.modifiers.command);
                let scene = input::Scene {
                    context,
                    view: &view,
                    boxes: &boxes,
                    pixels,
                };
                let icon = tools::paint::cursor(&state.tools, doc, &scene, at, draw_anywhere);
                ctx.set_cursor_icon(icon);
            }
        }
    }
    if facing_left {
        facing_left_badge(ui, rect);
    }
    tools::naming::show(&ctx, &mut state.tools.naming, doc, &view, &mut outcome);
    state
        .tools
        .hang
        .picker_window(&ctx, doc.session.document(), &mut outcome);
    outcome
}

/// The boxes the canvas shows on the frame on show (own and inherited; none while the overlay
/// is off, none of an unticked class): what can be grabbed and selected.
pub fn boxes_shown(doc: &OpenDocument, settings: &Settings) -> Vec<tools::hit::ShownBox> {
    if !(settings.view.overlay && doc.player.visible()) {
        return Vec::new();
    }
    let rule = box_rule(settings.view.documented_default_box_rule);
    tools::shown_boxes(doc, rule, |c| settings.box_class_visible(c.label()))
}

/// Ctrl+A: selects every element the canvas shows on the frame on show.
pub fn select_all_elements(doc: &mut OpenDocument, settings: &Settings) {
    let boxes = boxes_shown(doc, settings);
    let all = tools::all_on_frame(doc, &boxes);
    doc.select_elements(all);
}

/// Every box in force on the frame on show, hidden or not: a selected box stays what Delete
/// removes after its class or the overlay is hidden (rather than Delete falling through to the
/// frame or the sequence).
fn boxes_in_force(doc: &OpenDocument, settings: &Settings) -> Vec<tools::hit::ShownBox> {
    let rule = box_rule(settings.view.documented_default_box_rule);
    tools::shown_boxes(doc, rule, |_| true)
}

/// Delete: removes the selected elements of the frame on show, in one undo step.
pub fn delete_selected_elements(
    doc: &mut OpenDocument,
    settings: &Settings,
    tools: &ToolState,
) -> Result<(), String> {
    let rule = box_rule(settings.view.documented_default_box_rule);
    let context = FrameContext::of(doc, rule).ok_or("no frame is showing")?;
    let boxes = boxes_in_force(doc, settings);
    tools::delete_selection(doc, &boxes, &context, tools.scope)
}

/// True when some selected element is on the frame on show (Delete then deletes elements).
pub fn has_selection_on_frame(doc: &OpenDocument, settings: &Settings) -> bool {
    !tools::selection_on_frame(doc, &boxes_in_force(doc, settings)).is_empty()
}

/// Shift or Ctrl (Cmd on a Mac) held: clicks and drags add to the selection.
fn adding_to_selection(ui: &egui::Ui) -> bool {
    ui.input(|i| i.modifiers.shift || i.modifiers.command)
}

/// Drags and clicks of the primary button, per the active tool.
fn edit_with_pointer(
    ui: &egui::Ui,
    response: &egui::Response,
    scene: &input::Scene,
    state: &mut CanvasState,
    doc: &mut OpenDocument,
    space_down: bool,
    outcome: &mut CanvasOutcome,
) {
    let view = scene.view;
    if response.drag_started_by(egui::PointerButton::Primary)
        && !space_down
        && let Some(origin) = ui.input(|i| i.pointer.press_origin())
    {
        let start = view.to_sprite(origin);
        let keys = input::PressKeys {
            adding: adding_to_selection(ui),
            draw_anywhere: ui.input(|i| i.modifiers.command),
        };
        if let Some(kind) = input::begin_drag(&state.tools, doc, scene, start, keys) {
            // Edits land on the frame under the drag, so playback stops there.
            doc.player.pause();
            state.tools.drag = Some(input::Drag::new(kind, doc.new_gesture(), start));
        }
    }
    if state.tools.drag.is_some() && ui.input(|i| i.key_pressed(egui::Key::Escape)) {
        input::cancel_drag(&mut state.tools, doc);
    }
    if state.tools.drag.is_some()
        && response.dragged_by(egui::PointerButton::Primary)
        && let Some(pos) = response.interact_pointer_pos()
    {
        let shift = ui.input(|i| i.modifiers.shift);
        let at = view.to_sprite(pos);
        input::continue_drag(&mut state.tools, doc, scene, at, shift, outcome);
    }
    if response.drag_stopped() {
        state.tools.drag = None;
    }
    if response.clicked()
        && let Some(pos) = response.interact_pointer_pos()
    {
        let at = view.to_sprite(pos);
        let adding = adding_to_selection(ui);
        click::click(&mut state.tools, doc, scene, at, adding, outcome);
    }
    if response.double_clicked()
        && let Some(id) = doc.single_element()
        && let Some(element) = doc
            .frame()
            .and_then(|f| f.elements.iter().find(|e| e.id == id))
        && element.as_point().is_some()
    {
        state.tools.naming = Some(tools::naming::Naming::new(id, element.name.to_string()));
    }
}

/// Keys on the selected elements, only while the pointer is over the canvas or the canvas has
/// the keyboard, so the tree and the fields keep theirs: arrows nudge every selected element
/// by 1 px (Shift: 10 px); Escape selects none, unless it ended a drag (`dragging`) or closes
/// the point-name field.
fn keys_on_selection(
    ui: &egui::Ui,
    response: &egui::Response,
    scene: &input::Scene,
    state: &mut CanvasState,
    doc: &mut OpenDocument,
    dragging: bool,
    outcome: &mut CanvasOutcome,
) {
    // The canvas keeps the keyboard from a press on it until a press elsewhere (egui focus
    // would make every plain-key shortcut think the user is typing).
    if ui.input(|i| i.pointer.any_pressed()) {
        state.keyboard = response.hovered();
    }
    let active = response.hovered() || state.keyboard;
    if !active || ui.ctx().egui_wants_keyboard_input() || doc.selected_elements().is_empty() {
        return;
    }
    if !dragging
        && state.tools.drag.is_none()
        && state.tools.naming.is_none()
        && ui.input(|i| i.key_pressed(egui::Key::Escape))
    {
        doc.clear_elements();
        return;
    }
    let arrows = [
        (egui::Key::ArrowLeft, (-1, 0)),
        (egui::Key::ArrowRight, (1, 0)),
        (egui::Key::ArrowUp, (0, -1)),
        (egui::Key::ArrowDown, (0, 1)),
    ];
    let mut steps = Vec::new();
    ui.ctx().input_mut(|i| {
        for (key, (dx, dy)) in arrows {
            // Shift first: a plain-arrow match would also take Shift+arrow.
            for (modifiers, size) in [(egui::Modifiers::SHIFT, 10), (egui::Modifiers::NONE, 1)] {
                while i.consume_key(modifiers, key) {
                    steps.push((dx * size, dy * size));
                }
            }
        }
    });
    for (dx, dy) in steps {
        // An arrow moves the selection the way it looks: turned round when facing left.
        let dx = if scene.view.mirrored { -dx } else { dx };
        click::nudge(&state.tools, doc, scene, (dx, dy), outcome);
    }
}

fn paint_overlay(painter: &egui::Painter, view: &View, settings: &Settings, doc: &OpenDocument) {
    let frames = doc.direction_frames();
    let index = doc.player.frame_index();
    let Some(frame) = frames.get(index) else {
        return;
    };
    let rule = box_rule(settings.view.documented_default_box_rule);
    let boxes: Vec<_> = overlay::drawn_boxes(frame, effective_boxes(&frames, index, rule))
        .into_iter()
        .filter(|b| settings.box_class_visible(b.effective.collision.class.label()))
        .collect();
    // The selection is drawn over the overlay, for every selected element (tools::paint).
    overlay::paint_boxes(painter, view, &boxes, None);
    if settings.view.points {
        overlay::paint_points(painter, view, frame, None);
    }
}

fn handle_pan_and_zoom(
    ui: &egui::Ui,
    response: &egui::Response,
    rect: Rect,
    state: &mut CanvasState,
) {
    let space_down =
        ui.input(|i| i.key_down(egui::Key::Space)) && !ui.ctx().egui_wants_keyboard_input();
    let panning = response.dragged_by(egui::PointerButton::Middle)
        || (space_down && response.dragged_by(egui::PointerButton::Primary));
    if panning {
        state.pan += response.drag_delta();
        if space_down {
            state.space_dragged = true;
        }
        ui.ctx().set_cursor_icon(egui::CursorIcon::Grabbing);
    }
    if let Some(cursor) = response.hover_pos() {
        let (scroll, pinch) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let factor = pinch * (scroll / 200.0).exp();
        if (factor - 1.0).abs() > 1e-4 {
            let (zoom, pan) = view::zoom_about(rect, state.zoom, state.pan, factor, cursor);
            state.zoom = zoom;
            state.pan = pan;
        }
    }
}

fn paint_background(
    ctx: &egui::Context,
    painter: &egui::Painter,
    rect: Rect,
    settings: &Settings,
    state: &mut CanvasState,
) {
    match settings.view.background {
        Background::Colour([r, g, b]) => {
            painter.rect_filled(rect, 0.0, Color32::from_rgb(r, g, b));
        }
        Background::Checkerboard => {
            let texture = state.checkerboard.get_or_insert_with(|| {
                let light = Color32::from_gray(110);
                let dark = Color32::from_gray(85);
                let image = ColorImage::new([2, 2], vec![light, dark, dark, light]);
                ctx.load_texture("sprat-checkerboard", image, TextureOptions::NEAREST_REPEAT)
            });
            // One repeated texture: 8-point squares at any canvas size, in a single quad.
            let tile = 16.0;
            let uv = Rect::from_min_max(
                pos2(0.0, 0.0),
                pos2(rect.width() / tile, rect.height() / tile),
            );
            painter.image(texture.id(), rect, uv, Color32::WHITE);
        }
    }
}

/// Says in the canvas's top-right corner that it shows the character facing left, so a
/// mirrored preview is never taken for the file's own drawing.
fn facing_left_badge(ui: &mut egui::Ui, canvas: Rect) {
    let key = crate::app::context::commands::UICommand::ToggleFacingLeft.shortcut_text(ui.ctx());
    let text = egui::RichText::new(format!(" Facing left ({key}) "))
        .color(Color32::WHITE)
        .background_color(Color32::from_black_alpha(170));
    let corner = Rect::from_min_max(canvas.left_top(), canvas.right_top() + vec2(-8.0, 40.0))
        .translate(vec2(0.0, 8.0));
    let layout = egui::Layout::right_to_left(egui::Align::Min);
    ui.scope_builder(
        egui::UiBuilder::new().max_rect(corner).layout(layout),
        |ui| {
            ui.add(egui::Label::new(text).selectable(false))
                .on_hover_text(
                    "Drawn mirrored about the origin, boxes and points too, as engines draw a \
                 character facing left; the file is unchanged",
                );
        },
    );
}

fn paint_pixel_grid(painter: &egui::Painter, view: &View) {
    // Only where the pixels are big enough to tell apart.
    if view.scale < 8.0 {
        return;
    }
    let rect = view.canvas;
    let (xa, y0) = view.to_sprite(rect.min);
    let (xb, y1) = view.to_sprite(rect.max);
    let stroke = Stroke::new(1.0, Color32::from_rgba_unmultiplied(0, 0, 0, 50));
    // Facing left, the canvas's left edge is the sprite's right.
    let (x0, x1, y0, y1) = (
        xa.min(xb).floor() as i64,
        xa.max(xb).ceil() as i64,
        y0.floor() as i64,
        y1.ceil() as i64,
    );
    for x in x0..=x1 {
        let sx = view.to_screen(x as f64, 0.0).x;
        painter.line_segment([pos2(sx, rect.top()), pos2(sx, rect.bottom())], stroke);
    }
    for y in y0..=y1 {
        let sy = view.to_screen(0.0, y as f64).y;
        painter.line_segment([pos2(rect.left(), sy), pos2(rect.right(), sy)], stroke);
    }
}
