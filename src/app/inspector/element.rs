//! The inspector's element section: every field of the selected graphic, attachment point or
//! collision box, edited through `edit::inspector::SetElementField`.

use crate::app::context::document::OpenDocument;
use crate::app::context::field_support::{Field, Support};
use crate::app::inspector::widgets::{
    Edits, check, choice_row, field, number, number_pair_row, pixel_pair_row, pixels, section,
    text_row,
};
use crate::edit::inspector::{ElementField, SetElementField};
use crate::model::{
    AttachmentPoint, BlendMode, BoxClass, CollisionBox, Element, ElementId, ElementKind, Fx,
    Graphic, GraphicSource, OPAQUE, Origin, Point, Shape,
};

/// Collects the edits of one element.
struct ElementEdits<'a> {
    element: ElementId,
    edits: &'a mut Edits,
}

impl ElementEdits<'_> {
    fn push(&mut self, field: ElementField, response: &egui::Response) {
        let command = SetElementField {
            element: self.element,
            field,
        };
        self.edits.push(command, response);
    }

    fn text(
        &mut self,
        row: crate::app::inspector::widgets::TextRow,
        field: fn(String) -> ElementField,
    ) {
        let element = self.element;
        self.edits.text(row, |text| SetElementField {
            element,
            field: field(text),
        });
    }
}

/// Paints the selected element's fields; with several selected, how many (their fields are
/// edited one element at a time).
pub fn element_section(
    ui: &mut egui::Ui,
    doc: &OpenDocument,
    support: &Support,
    edits: &mut Edits,
) {
    let count = doc.selected_elements().len();
    if count > 1 {
        egui::CollapsingHeader::new("Element")
            .default_open(true)
            .show(ui, |ui| {
                ui.label(format!("{count} elements selected"));
                ui.weak("Select one alone to edit its fields.");
            });
        return;
    }
    let Some(selected) = doc.single_element() else {
        return;
    };
    let Some(element) = doc
        .frame()
        .and_then(|f| f.elements.iter().find(|e| e.id == selected))
    else {
        return;
    };
    let mut out = ElementEdits {
        element: element.id,
        edits,
    };
    section(ui, "Element", "element fields", |ui| {
        field(ui, "Id", element.id.to_string());
        let name = text_row(ui, "Name", element.id, &element.name, false, None);
        out.text(name, ElementField::Name);
        match &element.kind {
            ElementKind::Graphic(g) => graphic_fields(ui, doc, element, g, support, &mut out),
            ElementKind::Point(p) => point_fields(ui, p, support, &mut out),
            ElementKind::Box(b) => box_fields(ui, element, b, support, &mut out),
        }
    });
}

fn graphic_fields(
    ui: &mut egui::Ui,
    doc: &OpenDocument,
    element: &Element,
    g: &Graphic,
    support: &Support,
    out: &mut ElementEdits,
) {
    field(ui, "Kind", "graphic");
    // A frame read from a file whose pictures are written as read keeps its graphics whole.
    let why_kept = doc
        .player
        .frame_id(doc.session.document())
        .and_then(|frame| doc.session.why_pictures_kept(frame))
        .map(|why| format!("{why}."));
    let why_source = why_kept
        .clone()
        .or_else(|| support.why_not(Field::GraphicSource));
    source_row(ui, doc, element.id, &g.source, why_source.as_deref(), out);
    if let Some(image) = doc.session.document().source_image(&g.source) {
        field(ui, "Image", &image.path);
    }
    let whole = !support.holds(Field::Subpixel);
    let position = (g.position.x, g.position.y);
    let why_placed = why_kept
        .clone()
        .or_else(|| support.why_not(Field::GraphicPlacement));
    let why_placed = why_placed.as_deref();
    if let Some(((x, y), r)) = pixel_pair_row(ui, "Position", position, whole, why_placed) {
        out.push(ElementField::Position(Point { x, y }), &r);
    }
    let origin_label = ui.label("Origin");
    ui.horizontal(|ui| {
        let axis = g.origin == Origin::SourceAxis;
        let sff = matches!(g.source, GraphicSource::SffSprite { .. });
        let why = (!sff && !axis).then_some("Only SFF sprites carry their own axis.");
        if let Some((axis, r)) = check(ui, "sprite's own axis", axis, why.or(why_placed)) {
            let origin = if axis {
                Origin::SourceAxis
            } else {
                Origin::At(Point::ZERO)
            };
            out.push(ElementField::Origin(origin), &r);
        }
        if let Origin::At(p) = g.origin {
            if let Some((x, r)) = pixels(ui, origin_label.id, p.x, whole, why_placed) {
                out.push(ElementField::Origin(Origin::At(Point { x, y: p.y })), &r);
            }
            if let Some((y, r)) = pixels(ui, origin_label.id, p.y, whole, why_placed) {
                out.push(ElementField::Origin(Origin::At(Point { x: p.x, y })), &r);
            }
        }
    });
    ui.end_row();
    transform_rows(ui, Transform::of_graphic(g), support, out);
    blend_row(ui, element.id, g.blend, support, out);
}

/// Where a graphic's pixels come from: a slice of the same image, an image, or an SFF sprite.
fn source_row(
    ui: &mut egui::Ui,
    doc: &OpenDocument,
    element: ElementId,
    source: &GraphicSource,
    why_not: Option<&str>,
    out: &mut ElementEdits,
) {
    let document = doc.session.document();
    match source {
        GraphicSource::Slice(id) => {
            let image = document.slice(*id).map(|s| s.image);
            let options: Vec<(GraphicSource, String)> = document
                .slices
                .iter()
                .filter(|s| Some(s.image) == image)
                .map(|s| {
                    let r = s.rect;
                    let text = format!("{} at {}, {} ({} × {})", s.id, r.x, r.y, r.width, r.height);
                    (GraphicSource::Slice(s.id), text)
                })
                .collect();
            if let Some((s, r)) = choice_row(ui, "Source", element, source, &options, why_not) {
                out.push(ElementField::Source(s), &r);
            }
        }
        GraphicSource::Image(_) => {
            let options: Vec<(GraphicSource, String)> = document
                .images
                .iter()
                .map(|i| (GraphicSource::Image(i.id), i.path.clone()))
                .collect();
            if let Some((s, r)) = choice_row(ui, "Source", element, source, &options, why_not) {
                out.push(ElementField::Source(s), &r);
            }
        }
        GraphicSource::SffSprite {
            archive,
            group,
            image,
        } => {
            let numbers = (*group, *image);
            let prefixes = ["group ", "image "];
            if let Some(((group, image), r)) =
                number_pair_row(ui, "Sprite", numbers, prefixes, |d| d, None)
            {
                let s = GraphicSource::SffSprite {
                    archive: *archive,
                    group,
                    image,
                };
                out.push(ElementField::Source(s), &r);
            }
        }
    }
}

/// The transform fields graphics and points share.
struct Transform {
    flip_h: bool,
    flip_v: bool,
    rotation: f64,
    scale_x: f64,
    scale_y: f64,
    opacity: u16,
}

impl Transform {
    fn of_graphic(g: &Graphic) -> Transform {
        Transform {
            flip_h: g.flip_h,
            flip_v: g.flip_v,
            rotation: g.rotation,
            scale_x: g.scale_x,
            scale_y: g.scale_y,
            opacity: g.opacity,
        }
    }

    fn of_point(p: &AttachmentPoint) -> Transform {
        Transform {
            flip_h: p.flip_h,
            flip_v: p.flip_v,
            rotation: p.rotation,
            scale_x: p.scale_x,
            scale_y: p.scale_y,
            opacity: p.opacity,
        }
    }
}

fn transform_rows(ui: &mut egui::Ui, t: Transform, support: &Support, out: &mut ElementEdits) {
    let why = support.why_not(Field::Transforms);
    let why = why.as_deref();
    ui.label("Flip");
    ui.horizontal(|ui| {
        if let Some((v, r)) = check(ui, "horizontal", t.flip_h, why) {
            out.push(ElementField::FlipH(v), &r);
        }
        if let Some((v, r)) = check(ui, "vertical", t.flip_v, why) {
            out.push(ElementField::FlipV(v), &r);
        }
    });
    ui.end_row();
    let label = ui.label("Rotation");
    if let Some((v, r)) = number(
        ui,
        label.id,
        t.rotation,
        |d| d.speed(1.0).max_decimals(3).suffix("°"),
        why,
    ) {
        out.push(ElementField::Rotation(v), &r);
    }
    ui.end_row();
    let label = ui.label("Scale");
    ui.horizontal(|ui| {
        if let Some((v, r)) = number(
            ui,
            label.id,
            t.scale_x,
            |d| d.speed(0.01).max_decimals(4).prefix("× "),
            why,
        ) {
            out.push(ElementField::ScaleX(v), &r);
        }
        if let Some((v, r)) = number(
            ui,
            label.id,
            t.scale_y,
            |d| d.speed(0.01).max_decimals(4).prefix("× "),
            why,
        ) {
            out.push(ElementField::ScaleY(v), &r);
        }
    });
    ui.end_row();
    let label = ui.label("Opacity");
    let percent = t.opacity as f64 * 100.0 / OPAQUE as f64;
    if let Some((v, r)) = number(
        ui,
        label.id,
        percent,
        |d| d.range(0.0..=100.0).max_decimals(1).suffix("%"),
        why,
    ) {
        let opacity = (v / 100.0 * OPAQUE as f64)
            .round()
            .clamp(0.0, OPAQUE as f64) as u16;
        out.push(ElementField::Opacity(opacity), &r);
    }
    ui.end_row();
}

fn blend_row(
    ui: &mut egui::Ui,
    element: ElementId,
    blend: BlendMode,
    support: &Support,
    out: &mut ElementEdits,
) {
    let why = support.why_not(Field::Blending);
    let why = why.as_deref();
    let kinds = [
        (0u8, "normal".to_string()),
        (1, "add".to_string()),
        (2, "subtract".to_string()),
    ];
    let kind = match blend {
        BlendMode::Normal => 0,
        BlendMode::Add { .. } => 1,
        BlendMode::Subtract => 2,
    };
    if let Some((kind, r)) = choice_row(ui, "Blend", element, &kind, &kinds, why) {
        let mode = match kind {
            0 => BlendMode::Normal,
            1 => BlendMode::Add {
                source: 256,
                destination: 256,
            },
            _ => BlendMode::Subtract,
        };
        out.push(ElementField::Blend(mode), &r);
    }
    if let BlendMode::Add {
        source,
        destination,
    } = blend
    {
        let factors = (source, destination);
        let prefixes = ["source ", "destination "];
        if let Some(((source, destination), r)) = number_pair_row(
            ui,
            "Add factors",
            factors,
            prefixes,
            |d| d.range(0..=256),
            why,
        ) {
            let mode = BlendMode::Add {
                source,
                destination,
            };
            out.push(ElementField::Blend(mode), &r);
        }
    }
}

fn point_fields(ui: &mut egui::Ui, p: &AttachmentPoint, support: &Support, out: &mut ElementEdits) {
    field(ui, "Kind", "attachment point");
    let label = ui.label("Point id");
    if let Some((id, r)) = number(ui, label.id, p.point_id, |d| d, None) {
        out.push(ElementField::PointId(id), &r);
    }
    ui.end_row();
    let whole = !support.holds(Field::Subpixel);
    let position = (p.position.x, p.position.y);
    if let Some(((x, y), r)) = pixel_pair_row(ui, "Position", position, whole, None) {
        out.push(ElementField::Position(Point { x, y }), &r);
    }
    transform_rows(ui, Transform::of_point(p), support, out);
}

fn box_fields(
    ui: &mut egui::Ui,
    element: &Element,
    b: &CollisionBox,
    support: &Support,
    out: &mut ElementEdits,
) {
    field(ui, "Kind", "collision box");
    let custom = match &b.class {
        BoxClass::Custom(name) => name.clone(),
        _ => "custom".to_string(),
    };
    let classes = [
        (BoxClass::Hit, support.box_class_label(&BoxClass::Hit)),
        (BoxClass::Hurt, support.box_class_label(&BoxClass::Hurt)),
        (
            BoxClass::Custom(custom.clone()),
            format!("custom: {custom}"),
        ),
    ];
    if let Some((class, r)) = choice_row(ui, "Class", element.id, &b.class, &classes, None) {
        out.push(ElementField::BoxClass(class), &r);
    }
    if let BoxClass::Custom(name) = &b.class {
        let row = text_row(ui, "Class name", element.id, name, false, None);
        out.text(row, |name| ElementField::BoxClass(BoxClass::Custom(name)));
    }
    let label = ui.label("Box id");
    if let Some((id, r)) = number(ui, label.id, b.box_id, |d| d, None) {
        out.push(ElementField::BoxId(id), &r);
    }
    ui.end_row();
    let whole = !support.holds(Field::Subpixel);
    let circles = support.why_not(Field::Circles);
    let is_circle = matches!(b.shape, Shape::Circle { .. });
    let shapes = [
        (false, "rectangle".to_string()),
        (true, "circle".to_string()),
    ];
    let why = if is_circle { None } else { circles.as_deref() };
    if let Some((circle, r)) = choice_row(ui, "Shape", element.id, &is_circle, &shapes, why) {
        out.push(ElementField::Shape(converted(&b.shape, circle)), &r);
    }
    match b.shape.clone() {
        Shape::Rect {
            x,
            y,
            width,
            height,
            rotation,
        } => {
            let rect = |x, y, width, height, rotation| Shape::Rect {
                x,
                y,
                width,
                height,
                rotation,
            };
            if let Some(((x, y), r)) = pixel_pair_row(ui, "Left, top", (x, y), whole, None) {
                out.push(ElementField::Shape(rect(x, y, width, height, rotation)), &r);
            }
            if let Some(((w, h), r)) = pixel_pair_row(ui, "Size", (width, height), whole, None) {
                out.push(ElementField::Shape(rect(x, y, w, h, rotation)), &r);
            }
            let label = ui.label("Rotation");
            let why = support.why_not(Field::BoxRotation);
            if let Some((v, r)) = number(
                ui,
                label.id,
                rotation,
                |d| d.max_decimals(3).suffix("°"),
                why.as_deref(),
            ) {
                out.push(ElementField::Shape(rect(x, y, width, height, v)), &r);
            }
            ui.end_row();
        }
        Shape::Circle { center, radius } => {
            let centre = (center.x, center.y);
            if let Some(((x, y), r)) = pixel_pair_row(ui, "Centre", centre, whole, None) {
                let shape = Shape::Circle {
                    center: Point { x, y },
                    radius,
                };
                out.push(ElementField::Shape(shape), &r);
            }
            let label = ui.label("Radius");
            if let Some((radius, r)) = pixels(ui, label.id, radius, whole, None) {
                out.push(ElementField::Shape(Shape::Circle { center, radius }), &r);
            }
            ui.end_row();
        }
    }
}

/// The same box as the other shape: a circle fits inside the rectangle, a rectangle bounds the
/// circle.
fn converted(shape: &Shape, circle: bool) -> Shape {
    match (shape, circle) {
        (
            Shape::Rect {
                x,
                y,
                width,
                height,
                ..
            },
            true,
        ) => Shape::Circle {
            center: Point {
                x: Fx(x.0 + width.0 / 2),
                y: Fx(y.0 + height.0 / 2),
            },
            radius: Fx(width.0.min(height.0) / 2),
        },
        (Shape::Circle { center, radius }, false) => Shape::Rect {
            x: Fx(center.x.0 - radius.0),
            y: Fx(center.y.0 - radius.0),
            width: Fx(radius.0 * 2),
            height: Fx(radius.0 * 2),
            rotation: 0.0,
        },
        (shape, _) => shape.clone(),
    }
}
