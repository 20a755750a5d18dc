//! Property tests: arbitrary ISPRITE-shaped documents survive write -> read unchanged, and
//! arbitrary or mutated bytes never make the reader panic.

use proptest::prelude::*;
use sprat::formats::isprite::IspriteFormat;
use sprat::formats::{Format, ReadContext, WriteContext};
use sprat::model::*;

/// A coordinate in the range where position minus origin still fits ISPRITE's int16.
fn coord() -> impl Strategy<Value = Fx> {
    (-16_000 * 256..16_000 * 256).prop_map(Fx)
}

fn point() -> impl Strategy<Value = Point> {
    (coord(), coord()).prop_map(|(x, y)| Point { x, y })
}

/// A real number ISPRITE stores exactly: a 1/256 step within the int16 range.
fn real() -> impl Strategy<Value = f64> {
    (-32_768 * 256..32_768 * 256).prop_map(|v: i32| Fx(v).to_f64())
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[a-zA-Z0-9 ,.é]{1,12}"]
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[a-z]{1,6}"]
}

fn timestamp() -> impl Strategy<Value = Option<Timestamp>> {
    proptest::option::of(
        (
            1u16..3000,
            1u8..=12,
            1u8..=31,
            0u8..24,
            0u8..60,
            0u8..60,
            0u8..100,
        )
            .prop_map(
                |(year, month, day, hour, minute, second, centisecond)| Timestamp {
                    year,
                    month,
                    day,
                    hour,
                    minute,
                    second,
                    centisecond,
                },
            ),
    )
}

#[derive(Clone, Debug)]
enum ElementSpec {
    Graphic {
        slice: usize,
        position: Point,
        origin: Point,
        flips: (bool, bool),
        transform: (f64, f64, f64, u16),
    },
    Point {
        id: u16,
        position: Point,
        flips: (bool, bool),
        transform: (f64, f64, f64, u16),
    },
    Rect {
        id: u16,
        corner: Point,
        size: (Fx, Fx),
        rotation: f64,
    },
    Circle {
        id: u16,
        center: Point,
        radius: Fx,
    },
}

fn transform() -> impl Strategy<Value = (f64, f64, f64, u16)> {
    prop_oneof![
        Just((0.0, 1.0, 1.0, OPAQUE)),
        (real(), real(), real(), any::<u16>())
    ]
}

fn element() -> impl Strategy<Value = (String, ElementSpec)> {
    prop_oneof![
        (
            name(),
            any::<usize>(),
            point(),
            point(),
            any::<(bool, bool)>(),
            transform()
        )
            .prop_map(|(n, slice, position, origin, flips, transform)| (
                n,
                ElementSpec::Graphic {
                    slice,
                    position,
                    origin,
                    flips,
                    transform
                }
            )),
        (
            name(),
            any::<u16>(),
            point(),
            any::<(bool, bool)>(),
            transform()
        )
            .prop_map(|(n, id, position, flips, transform)| (
                n,
                ElementSpec::Point {
                    id,
                    position,
                    flips,
                    transform
                }
            )),
        (
            box_name(),
            any::<u16>(),
            point(),
            (coord(), coord()),
            real()
        )
            .prop_map(|(n, id, corner, size, rotation)| (
                n,
                ElementSpec::Rect {
                    id,
                    corner,
                    size,
                    rotation
                }
            )),
        (box_name(), any::<u16>(), point(), coord())
            .prop_map(|(n, id, center, radius)| (n, ElementSpec::Circle { id, center, radius })),
    ]
}

fn box_name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("hit".to_string()),
        Just("HurtBox".to_string()),
        Just("attack".to_string()),
        Just("body".to_string()),
        "[a-z]{1,6}",
    ]
}

#[derive(Clone, Debug)]
struct FrameSpec {
    hold: u16,
    label: String,
    triggers: String,
    notes: String,
    elements: Vec<(String, ElementSpec)>,
}

fn frame() -> impl Strategy<Value = FrameSpec> {
    (
        any::<u16>(),
        text(),
        text(),
        text(),
        proptest::collection::vec(element(), 0..4),
    )
        .prop_map(|(hold, label, triggers, notes, elements)| FrameSpec {
            hold,
            label,
            triggers,
            notes,
            elements,
        })
}

#[derive(Clone, Debug)]
enum Node {
    Group(Vec<Node>),
    Sequence {
        frames: Vec<usize>,
        loop_point: Option<usize>,
        follow_up: Option<String>,
        rate: Option<u32>,
    },
}

fn node() -> impl Strategy<Value = Node> {
    let sequence = (
        proptest::collection::vec(any::<usize>(), 0..5),
        any::<Option<usize>>(),
        proptest::option::of("[a-z]{1,5}"),
        proptest::option::of(0u32..1000),
    )
        .prop_map(|(frames, loop_point, follow_up, rate)| Node::Sequence {
            frames,
            loop_point,
            follow_up,
            rate,
        });
    sequence.prop_recursive(2, 8, 3, |inner| {
        proptest::collection::vec(inner, 0..3).prop_map(Node::Group)
    })
}

#[derive(Clone, Debug)]
struct DocSpec {
    rate: u8,
    metadata: (Vec<String>, Option<Timestamp>, Option<Timestamp>, u64),
    extra: Vec<(String, String)>,
    images: Vec<(String, bool)>,
    slices: Vec<(usize, u16, u16, u16, u16, bool)>,
    frames: Vec<FrameSpec>,
    tree: Vec<Node>,
    default: Option<usize>,
}

fn doc_spec() -> impl Strategy<Value = DocSpec> {
    (
        any::<u8>(),
        (
            proptest::collection::vec(text(), 11),
            timestamp(),
            timestamp(),
            any::<u64>(),
        ),
        proptest::collection::vec(("[a-z]{1,6}", text()), 0..3),
        proptest::collection::vec(("[a-z][a-z/]{0,8}", any::<bool>()), 0..3),
        proptest::collection::vec(
            (
                any::<usize>(),
                any::<u16>(),
                any::<u16>(),
                1u16..,
                1u16..,
                any::<bool>(),
            ),
            0..4,
        ),
        proptest::collection::vec(frame(), 0..6),
        proptest::collection::vec(node(), 0..4),
        any::<Option<usize>>(),
    )
        .prop_map(
            |(rate, metadata, extra, images, slices, frames, tree, default)| DocSpec {
                rate,
                metadata,
                extra,
                images,
                slices,
                frames,
                tree,
                default,
            },
        )
}

/// Builds the document, handing out ids in the order the reader does: textures, slices,
/// frames with their elements, then the tree.
fn build(spec: &DocSpec) -> AnimationSet {
    let mut doc = AnimationSet::new();
    doc.frame_rate = Some(spec.rate as u32);
    let (strings, created, saved, work) = &spec.metadata;
    let m = &mut doc.metadata;
    for (field, value) in [
        &mut m.tags,
        &mut m.title,
        &mut m.project,
        &mut m.author,
        &mut m.company,
        &mut m.contact,
        &mut m.url,
        &mut m.copyright,
        &mut m.comments,
        &mut m.originating_program,
        &mut m.program,
    ]
    .into_iter()
    .zip(strings)
    {
        *field = value.clone();
    }
    m.created = *created;
    m.saved = *saved;
    m.work_time_ms = *work;
    m.extra = spec.extra.clone();
    for (path, nn) in &spec.images {
        let id = ImageId(doc.alloc_id());
        doc.images.push(SourceImage {
            id,
            path: path.clone(),
            resolved: None,
            kind: ImageKind::File,
            nearest_neighbour: *nn,
        });
    }
    if !doc.images.is_empty() {
        for (image, x, y, w, h, rotated) in &spec.slices {
            let id = SliceId(doc.alloc_id());
            doc.slices.push(Slice {
                id,
                image: doc.images[image % doc.images.len()].id,
                rect: PixelRect {
                    x: *x as i32,
                    y: *y as i32,
                    width: *w as u32,
                    height: *h as u32,
                },
                rotated: *rotated,
            });
        }
    }
    let mut frame_ids = Vec::new();
    for f in &spec.frames {
        let id = FrameId(doc.alloc_id());
        let mut frame = Frame::new(FrameDuration::Holds(f.hold as u32));
        frame.label = f.label.clone();
        frame.triggers = f.triggers.clone();
        frame.notes = f.notes.clone();
        for (name, e) in &f.elements {
            let kind = match e {
                ElementSpec::Graphic {
                    slice,
                    position,
                    origin,
                    flips,
                    transform: (rotation, sx, sy, opacity),
                } => {
                    if doc.slices.is_empty() {
                        continue;
                    }
                    let mut g = Graphic::new(
                        GraphicSource::Slice(doc.slices[slice % doc.slices.len()].id),
                        *position,
                        Origin::At(*origin),
                    );
                    (g.flip_h, g.flip_v) = *flips;
                    (g.rotation, g.scale_x, g.scale_y, g.opacity) = (*rotation, *sx, *sy, *opacity);
                    ElementKind::Graphic(g)
                }
                ElementSpec::Point {
                    id,
                    position,
                    flips,
                    transform: (rotation, sx, sy, opacity),
                } => {
                    let mut p = AttachmentPoint::at(*position);
                    p.point_id = *id;
                    (p.flip_h, p.flip_v) = *flips;
                    (p.rotation, p.scale_x, p.scale_y, p.opacity) = (*rotation, *sx, *sy, *opacity);
                    ElementKind::Point(p)
                }
                ElementSpec::Rect {
                    id,
                    corner,
                    size,
                    rotation,
                } => ElementKind::Box(CollisionBox {
                    class: sprat::formats::isprite::read::class_from_name(name),
                    shape: Shape::Rect {
                        x: corner.x,
                        y: corner.y,
                        width: size.0,
                        height: size.1,
                        rotation: *rotation,
                    },
                    box_id: *id,
                    corners: None,
                }),
                ElementSpec::Circle { id, center, radius } => ElementKind::Box(CollisionBox {
                    class: sprat::formats::isprite::read::class_from_name(name),
                    shape: Shape::Circle {
                        center: *center,
                        radius: *radius,
                    },
                    box_id: *id,
                    corners: None,
                }),
            };
            let eid = ElementId(doc.alloc_id());
            frame.elements.push(Element {
                id: eid,
                name: name.as_str().into(),
                kind,
            });
        }
        doc.frames.insert(id, frame);
        frame_ids.push(id);
    }
    let mut counter = 0;
    let mut sequences = Vec::new();
    let mut root = Group::default();
    build_nodes(
        &spec.tree,
        &mut root,
        &mut doc,
        &frame_ids,
        &mut counter,
        &mut sequences,
    );
    doc.root = root;
    doc.default_sequence = spec
        .default
        .filter(|_| !sequences.is_empty())
        .map(|i| sequences[i % sequences.len()]);
    doc
}

fn build_nodes(
    nodes: &[Node],
    group: &mut Group,
    doc: &mut AnimationSet,
    frames: &[FrameId],
    counter: &mut usize,
    sequences: &mut Vec<SequenceId>,
) {
    for node in nodes {
        *counter += 1;
        // Unique names keep MET+ sequence paths unambiguous.
        let name = format!("n{counter}");
        match node {
            Node::Group(children) => {
                let mut g = Group {
                    id: GroupId(doc.alloc_id()),
                    name,
                    items: Vec::new(),
                };
                build_nodes(children, &mut g, doc, frames, counter, sequences);
                group.items.push(TreeItem::Group(g));
            }
            Node::Sequence {
                frames: picks,
                loop_point,
                follow_up,
                rate,
            } => {
                let id = SequenceId(doc.alloc_id());
                let mut s = Sequence::new(id, name, DirectionId(doc.alloc_id()));
                if !frames.is_empty() {
                    s.directions[0].frames =
                        picks.iter().map(|p| frames[p % frames.len()]).collect();
                }
                let count = s.directions[0].frames.len();
                // Points on or past the last frame mean "stop" in ISPRITE (None in the model).
                s.loop_point = loop_point.filter(|_| count > 1).map(|lp| lp % (count - 1));
                s.follow_up = follow_up.clone();
                s.frame_rate = *rate;
                sequences.push(id);
                group.items.push(TreeItem::Sequence(s));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn arbitrary_documents_survive_write_then_read(spec in doc_spec()) {
        let doc = build(&spec);
        let written = IspriteFormat.write(&doc, &WriteContext::default()).unwrap();
        prop_assert!(written.losses.is_empty(), "{:?}", written.losses);
        let loaded = IspriteFormat.read(&written.bytes, &ReadContext::default()).unwrap();
        // The one thing a reader remarks on in a well-formed file: a hold time of 0, which
        // engines play as 1 (kept as 0 so the file saves back as it was).
        let zero_holds = spec.frames.iter().filter(|f| f.hold == 0).count();
        let remarks: Vec<_> = loaded
            .diagnostics
            .iter()
            .filter(|d| !d.message.contains("hold time 0, which plays as 1"))
            .collect();
        prop_assert!(remarks.is_empty(), "{:?}", remarks);
        prop_assert_eq!(loaded.diagnostics.len(), zero_holds);
        let mut back = loaded.document;
        back.original = None;
        prop_assert_eq!(&back, &doc);
        // And the re-read document writes the same bytes without its original.
        let again = IspriteFormat.write(&back, &WriteContext::default()).unwrap();
        prop_assert_eq!(again.bytes, written.bytes);
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = IspriteFormat.read(&bytes, &ReadContext::default());
        let mut with_magic = b"ISPRITE ".to_vec();
        with_magic.extend_from_slice(&bytes);
        if let Ok(loaded) = IspriteFormat.read(&with_magic, &ReadContext::default()) {
            let _ = IspriteFormat.write(&loaded.document, &WriteContext::default());
        }
    }

    #[test]
    fn mutated_vectors_never_panic_and_save_back_unchanged(
        edits in proptest::collection::vec((0usize..240, any::<u8>()), 1..6)
    ) {
        let mut bytes = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/spec/isprite-minimal.isprite"),
        ).unwrap();
        for (at, value) in edits {
            bytes[at] = value;
        }
        if let Ok(loaded) = IspriteFormat.read(&bytes, &ReadContext::default()) {
            let written = IspriteFormat.write(&loaded.document, &WriteContext::default()).unwrap();
            prop_assert_eq!(written.bytes, bytes.clone());
            // A fresh encoding of whatever was read reads again without failing.
            let mut doc = loaded.document;
            doc.original = None;
            if let Ok(fresh) = IspriteFormat.write(&doc, &WriteContext::default()) {
                prop_assert!(IspriteFormat.read(&fresh.bytes, &ReadContext::default()).is_ok());
            }
        }
    }
}
