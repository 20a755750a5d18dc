//! A small set built in code that shows every kind of thing the editor displays: groups, a
//! four-way sequence, durations in ticks, holds and milliseconds, a "forever" and a zero-length
//! frame, hit/hurt boxes with AIR defaults, a circle, a rotated box and attachment points.
#![allow(dead_code)]

mod editor;
#[allow(unused_imports)] // Each test file uses some of them.
pub use editor::*;

use sprat::model::*;

/// The fixture set.
pub fn showcase() -> AnimationSet {
    let mut set = AnimationSet::new();
    set.metadata.title = "Sprat demo".to_string();
    set.frame_rate = Some(12);

    let mut combat = Group {
        id: GroupId(set.alloc_id()),
        name: "combat".to_string(),
        items: Vec::new(),
    };

    // A punch in 60 Hz ticks: a default hurt box, a one-frame hit box, a held last frame.
    let punch_id = SequenceId(set.alloc_id());
    let dir = DirectionId(set.alloc_id());
    let mut punch = Sequence::new(punch_id, "punch", dir);
    let ticks = [4u32, 3, 0, 6, 8];
    for (i, t) in ticks.iter().enumerate() {
        let mut frame = Frame::new(FrameDuration::Ticks(*t));
        if i == 0 {
            push_box(&mut set, &mut frame, BoxClass::Hurt, (-12, -60), (12, 0));
            frame.box_declarations.push(BoxDeclaration {
                class: BoxClass::Hurt,
                scope: BoxScope::FromHereOn,
            });
        }
        if i == 3 {
            push_box(&mut set, &mut frame, BoxClass::Hit, (10, -48), (34, -38));
        }
        push_point(&mut set, &mut frame, "hand", (8 + 6 * i as i32, -44), 0.0);
        let id = FrameId(set.alloc_id());
        set.frames.insert(id, frame);
        punch.directions[0].frames.push(id);
    }
    punch.loop_point = None;
    combat.items.push(TreeItem::Sequence(punch));

    // A guard that stays up until something else happens.
    let guard_id = SequenceId(set.alloc_id());
    let dir = DirectionId(set.alloc_id());
    let mut guard = Sequence::new(guard_id, "guard", dir);
    for duration in [FrameDuration::Ticks(5), FrameDuration::Forever] {
        let mut frame = Frame::new(duration);
        push_box(&mut set, &mut frame, BoxClass::Hurt, (-14, -58), (10, 0));
        let circle = CollisionBox {
            class: BoxClass::Custom("shield".to_string()),
            shape: Shape::Circle {
                center: Point::from_ints(16, -36),
                radius: Fx::from_int(12),
            },
            box_id: 0,
            corners: None,
        };
        push_element(&mut set, &mut frame, "shield", ElementKind::Box(circle));
        let id = FrameId(set.alloc_id());
        set.frames.insert(id, frame);
        guard.directions[0].frames.push(id);
    }
    guard.loop_point = None;
    combat.items.push(TreeItem::Sequence(guard));

    // A four-way walk in holds at the set's 12 fps, with a weapon point that turns.
    let walk_id = SequenceId(set.alloc_id());
    let mut walk = Sequence::new(walk_id, "walk", DirectionId(set.alloc_id()));
    walk.directions.clear();
    for d in 0..4 {
        let mut frames = Vec::new();
        for i in 0..6 {
            let mut frame = Frame::new(FrameDuration::Holds(if i == 0 { 2 } else { 1 }));
            let angle = d as f64 * -90.0 + i as f64 * 10.0;
            push_point(&mut set, &mut frame, "weapon", (10, -30 + i % 2), angle);
            let rotated = CollisionBox {
                class: BoxClass::Custom("feet".to_string()),
                shape: Shape::Rect {
                    x: Fx::from_int(-8),
                    y: Fx::from_int(-6),
                    width: Fx::from_int(16),
                    height: Fx::from_int(6),
                    rotation: i as f64 * 5.0,
                },
                box_id: 0,
                corners: None,
            };
            push_element(&mut set, &mut frame, "feet", ElementKind::Box(rotated));
            let id = FrameId(set.alloc_id());
            set.frames.insert(id, frame);
            frames.push(id);
        }
        walk.directions.push(Direction {
            id: DirectionId(set.alloc_id()),
            name: None,
            frames,
        });
    }
    walk.loop_point = Some(1);

    let idle_id = SequenceId(set.alloc_id());
    let dir = DirectionId(set.alloc_id());
    let mut idle = Sequence::new(idle_id, "idle", dir);
    for ms in [400u32, 120, 120] {
        let mut frame = Frame::new(FrameDuration::Millis(ms));
        push_box(&mut set, &mut frame, BoxClass::Hurt, (-12, -56), (12, 0));
        push_point(&mut set, &mut frame, "head", (0, -56), 0.0);
        let id = FrameId(set.alloc_id());
        set.frames.insert(id, frame);
        idle.directions[0].frames.push(id);
    }
    idle.follow_up = None;

    set.root.items.push(TreeItem::Sequence(idle));
    set.root.items.push(TreeItem::Sequence(walk));
    set.root.items.push(TreeItem::Group(combat));
    set.default_sequence = Some(idle_id);
    set
}

fn push_element(set: &mut AnimationSet, frame: &mut Frame, name: &str, kind: ElementKind) {
    frame.elements.push(Element {
        id: ElementId(set.alloc_id()),
        name: name.into(),
        kind,
    });
}

fn push_box(
    set: &mut AnimationSet,
    frame: &mut Frame,
    class: BoxClass,
    a: (i32, i32),
    b: (i32, i32),
) {
    let collision = CollisionBox::rect_from_corners(
        class,
        Point::from_ints(a.0, a.1),
        Point::from_ints(b.0, b.1),
    );
    push_element(set, frame, "", ElementKind::Box(collision));
}

fn push_point(set: &mut AnimationSet, frame: &mut Frame, name: &str, at: (i32, i32), angle: f64) {
    let mut point = AttachmentPoint::at(Point::from_ints(at.0, at.1));
    point.rotation = angle;
    push_element(set, frame, name, ElementKind::Point(point));
}
