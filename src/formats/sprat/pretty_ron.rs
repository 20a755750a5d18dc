//! A fast writer for project files: the same text `ron`'s pretty printer writes, sooner.
//!
//! `ron::ser` checks every field name character by character each time it writes one and
//! formats every number through `fmt`; for a 10,000-frame project that was most of the time
//! spent saving. This serializer writes exactly the layout `ron` writes with the project file's
//! settings (two-space indentation, nesting up to [`DEPTH_LIMIT`] levels on separate lines,
//! deeper values on one line, tuples on one line, no struct names), so files saved before and
//! after look the same. A test compares the two byte for byte. Anything the model does not use
//! (byte strings, odd identifiers) is refused with [`Unsupported`], and the caller uses `ron`.

use super::unsupported::Unsupported;
use serde::ser::{self, Serialize};
use std::fmt::{self, Write as _};

/// Levels of nesting written one item per line; deeper values stay on one line.
pub const DEPTH_LIMIT: usize = 6;

const INDENT: &str = "  ";

type Result<T = ()> = std::result::Result<T, Unsupported>;

/// Appends `value` to `out` as pretty RON, or `None` (with `out` in an unspecified state) when
/// `ron` has to write it.
pub fn write<T: Serialize + ?Sized>(value: &T, out: &mut String) -> Option<()> {
    let mut writer = Writer { out, depth: 0 };
    value.serialize(&mut writer).ok()
}

struct Writer<'a> {
    out: &'a mut String,
    /// Open containers, as `ron` counts them for its depth limit.
    depth: usize,
}

impl Writer<'_> {
    fn multiline(&self) -> bool {
        self.depth <= DEPTH_LIMIT
    }

    /// Opens a container whose items go on their own lines while within the depth limit.
    fn open(&mut self, bracket: char, empty: bool) {
        self.out.push(bracket);
        self.depth += 1;
        if self.multiline() && !empty {
            self.out.push('\n');
        }
    }

    /// Starts an item of an open container.
    fn item(&mut self, first: bool) {
        if !first {
            self.out.push(',');
            self.out.push(if self.multiline() { '\n' } else { ' ' });
        }
        if self.multiline() {
            for _ in 0..self.depth {
                self.out.push_str(INDENT);
            }
        }
    }

    /// Closes a container opened with [`Writer::open`].
    fn close(&mut self, bracket: char, empty: bool) {
        if self.multiline() && !empty {
            self.out.push_str(",\n");
            for _ in 1..self.depth {
                self.out.push_str(INDENT);
            }
        }
        self.depth -= 1;
        self.out.push(bracket);
    }

    /// A field or variant name, as `ron` writes it when no `r#` is needed.
    fn identifier(&mut self, name: &str) -> Result {
        let mut bytes = name.bytes();
        let plain = bytes
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !matches!(
                name,
                "true"
                    | "false"
                    | "Some"
                    | "None"
                    | "inf"
                    | "inff32"
                    | "inff64"
                    | "NaN"
                    | "NaNf32"
                    | "NaNf64"
            );
        if !plain {
            return Err(Unsupported);
        }
        self.out.push_str(name);
        Ok(())
    }

    fn display(&mut self, value: impl fmt::Display) -> Result {
        write!(self.out, "{value}").map_err(|_| Unsupported)
    }
}

/// Serializer methods that write an integer as `Display` does (as `ron` writes every integer).
macro_rules! integers_by_display {
    ($($method:ident: $integer:ty,)*) => {
        $(
            fn $method(self, v: $integer) -> Result {
                self.display(v)
            }
        )*
    };
}

/// An open list, map, struct or tuple.
pub struct Compound<'w, 'a> {
    writer: &'w mut Writer<'a>,
    first: bool,
    empty: bool,
}

impl<'w, 'a> ser::Serializer for &'w mut Writer<'a> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Compound<'w, 'a>;
    type SerializeTuple = Compound<'w, 'a>;
    type SerializeTupleStruct = Compound<'w, 'a>;
    type SerializeTupleVariant = Compound<'w, 'a>;
    type SerializeMap = Compound<'w, 'a>;
    type SerializeStruct = Compound<'w, 'a>;
    type SerializeStructVariant = Compound<'w, 'a>;

    fn serialize_bool(self, v: bool) -> Result {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }

    integers_by_display!(
        serialize_i8: i8,
        serialize_i16: i16,
        serialize_i32: i32,
        serialize_i64: i64,
        serialize_u8: u8,
        serialize_u16: u16,
        serialize_u32: u32,
        serialize_u64: u64,
    );

    fn serialize_f32(self, v: f32) -> Result {
        if v.is_nan() && v.is_sign_negative() {
            self.out.push('-');
        }
        write!(self.out, "{v:?}").map_err(|_| Unsupported)
    }

    fn serialize_f64(self, v: f64) -> Result {
        if v.is_nan() && v.is_sign_negative() {
            self.out.push('-');
        }
        write!(self.out, "{v:?}").map_err(|_| Unsupported)
    }

    fn serialize_char(self, _v: char) -> Result {
        Err(Unsupported)
    }

    fn serialize_str(self, v: &str) -> Result {
        self.out.push('"');
        // Printable ASCII other than quotes and backslashes is written as it is; everything
        // else is escaped character by character the way `ron` does it.
        if v.bytes()
            .all(|b| (0x20..0x7f).contains(&b) && !matches!(b, b'"' | b'\\' | b'\''))
        {
            self.out.push_str(v);
        } else {
            self.out.extend(v.chars().flat_map(char::escape_debug));
        }
        self.out.push('"');
        Ok(())
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result {
        Err(Unsupported)
    }

    fn serialize_none(self) -> Result {
        self.out.push_str("None");
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result {
        self.out.push_str("Some(");
        value.serialize(&mut *self)?;
        self.out.push(')');
        Ok(())
    }

    fn serialize_unit(self) -> Result {
        self.out.push_str("()");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result {
        self.identifier(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result {
        self.out.push('(');
        value.serialize(&mut *self)?;
        self.out.push(')');
        Ok(())
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        self.identifier(variant)?;
        self.out.push('(');
        value.serialize(&mut *self)?;
        self.out.push(')');
        Ok(())
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'w, 'a>> {
        // `ron` decides emptiness from the announced length; every caller here announces one.
        let empty = len.ok_or(Unsupported)? == 0;
        self.open('[', empty);
        Ok(Compound {
            writer: self,
            first: true,
            empty,
        })
    }

    fn serialize_tuple(self, _len: usize) -> Result<Compound<'w, 'a>> {
        self.out.push('(');
        Ok(Compound {
            writer: self,
            first: true,
            empty: false,
        })
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'w, 'a>> {
        self.serialize_tuple(len)
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'w, 'a>> {
        self.identifier(variant)?;
        self.serialize_tuple(len)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'w, 'a>> {
        let empty = len.ok_or(Unsupported)? == 0;
        self.open('{', empty);
        Ok(Compound {
            writer: self,
            first: true,
            empty,
        })
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'w, 'a>> {
        let empty = len == 0;
        self.open('(', empty);
        Ok(Compound {
            writer: self,
            first: true,
            empty,
        })
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'w, 'a>> {
        self.identifier(variant)?;
        self.serialize_struct(variant, len)
    }
}

impl Compound<'_, '_> {
    /// Starts the next item of a list, map or struct.
    fn next_item(&mut self) {
        self.writer.item(self.first);
        self.first = false;
    }

    /// Starts the next member of a tuple, which stays on one line.
    fn next_member(&mut self) {
        if !self.first {
            self.writer.out.push_str(", ");
        }
        self.first = false;
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result {
        self.next_item();
        self.writer.identifier(key)?;
        self.writer.out.push_str(": ");
        value.serialize(&mut *self.writer)
    }

    /// Closes a container; the layout depends on whether it announced any items.
    fn finish(self, bracket: char) -> Result {
        // `ron` judges emptiness by the announced length; an item written anyway would put the
        // closing bracket differently, so that case is left to it.
        if self.empty && !self.first {
            return Err(Unsupported);
        }
        self.writer.close(bracket, self.first);
        Ok(())
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.next_item();
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result {
        self.finish(']')
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.next_member();
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result {
        self.writer.out.push(')');
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        ser::SerializeTuple::serialize_element(self, value)
    }

    fn end(self) -> Result {
        ser::SerializeTuple::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        ser::SerializeTuple::serialize_element(self, value)
    }

    fn end(self) -> Result {
        ser::SerializeTuple::end(self)
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result {
        self.next_item();
        key.serialize(&mut *self.writer)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.writer.out.push_str(": ");
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result {
        self.finish('}')
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result {
        self.field(key, value)
    }

    fn end(self) -> Result {
        self.finish(')')
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result {
        self.field(key, value)
    }

    fn end(self) -> Result {
        self.finish(')')
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{Format, ReadContext, WriteContext};
    use crate::model::*;
    use proptest::prelude::*;

    /// What `ron` writes with the project file layout.
    fn by_ron<T: Serialize + ?Sized>(value: &T) -> String {
        ron::ser::to_string_pretty(value, super::super::ron_layout()).unwrap()
    }

    fn fast<T: Serialize + ?Sized>(value: &T) -> String {
        let mut out = String::new();
        write(value, &mut out).expect("in the fast writer's reach");
        out
    }

    /// A set using every kind of value the model has: nested groups, empty lists, every
    /// duration, source, shape, blend and palette, odd floats and strings that need escapes.
    fn everything() -> AnimationSet {
        let mut set = super::super::tests::sample();
        set.metadata.comments = "line one\nline \"two\"\t'quoted' \\ back\u{0}slash é ✓".into();
        set.metadata.created = Some(Timestamp {
            year: 2024,
            month: 2,
            day: 29,
            hour: 23,
            minute: 59,
            second: 58,
            centisecond: 7,
        });
        set.metadata.work_time_ms = 12_345;
        set.frame_rate = Some(24);
        set.default_sequence = Some(SequenceId(99));
        let archive = ImageId(set.alloc_id());
        set.images.push(SourceImage {
            id: archive,
            path: "char.sff".into(),
            resolved: None,
            kind: ImageKind::Sff {
                palettes: vec![
                    PaletteSource::Embedded(0),
                    PaletteSource::ActFile {
                        path: "pal 1.act".into(),
                        resolved: None,
                    },
                ],
                active_palette: Some(1),
            },
            nearest_neighbour: false,
        });
        let tileset = ImageId(set.alloc_id());
        set.images.push(SourceImage {
            id: tileset,
            path: String::new(),
            resolved: None,
            kind: ImageKind::SolarusTileset { chosen: None },
            nearest_neighbour: true,
        });
        let durations = [
            FrameDuration::Millis(100),
            FrameDuration::Holds(0),
            FrameDuration::Seconds { nanos: 180_000_000 },
            FrameDuration::Forever,
        ];
        let mut frames = Vec::new();
        for (i, duration) in durations.into_iter().enumerate() {
            let mut frame = Frame::new(duration);
            frame.label = format!("label {i}");
            frame.interpolation.offset = i % 2 == 0;
            let mut graphic = Graphic::new(
                GraphicSource::SffSprite {
                    archive,
                    group: -1,
                    image: i as i32,
                },
                Point {
                    x: Fx(-3),
                    y: Fx(1 << 20),
                },
                Origin::SourceAxis,
            );
            graphic.flip_v = true;
            graphic.rotation = [-0.0, 1e300, f64::NAN, -f64::INFINITY][i];
            graphic.scale_x = 0.1;
            graphic.opacity = 0;
            graphic.blend = [
                BlendMode::Add {
                    source: 256,
                    destination: 128,
                },
                BlendMode::Subtract,
                BlendMode::Normal,
                BlendMode::Add {
                    source: 0,
                    destination: 0,
                },
            ][i];
            frame.elements.push(Element {
                id: ElementId(set.alloc_id()),
                name: "r#raw".into(),
                kind: ElementKind::Graphic(graphic),
            });
            frame.elements.push(Element {
                id: ElementId(set.alloc_id()),
                name: Name::default(),
                kind: ElementKind::Box(CollisionBox {
                    class: BoxClass::Custom("weak spot".into()),
                    shape: Shape::Circle {
                        center: Point::from_ints(1, -1),
                        radius: Fx(384),
                    },
                    box_id: 7,
                    corners: None,
                }),
            });
            let mut point = AttachmentPoint::at(Point::ZERO);
            point.point_id = 3;
            point.flip_h = true;
            point.scale_y = -2.0;
            frame.elements.push(Element {
                id: ElementId(set.alloc_id()),
                name: "hand".into(),
                kind: ElementKind::Point(point),
            });
            let id = FrameId(set.alloc_id());
            set.frames.insert(id, frame);
            frames.push(id);
        }
        let unused = FrameId(set.alloc_id());
        set.frames
            .insert(unused, Frame::new(FrameDuration::Ticks(0)));
        let mut sequence = Sequence::new(SequenceId(set.alloc_id()), "walk", DirectionId(1000));
        sequence.directions[0].name = Some("right".into());
        sequence.directions[0].frames = frames;
        sequence.directions.push(Direction {
            id: DirectionId(1001),
            name: None,
            frames: Vec::new(),
        });
        sequence.loop_point = Some(2);
        sequence.on_end = EndBehavior::Disappear;
        sequence.frame_rate = Some(12);
        let empty_group = Group {
            id: GroupId(set.alloc_id()),
            name: "empty".into(),
            items: Vec::new(),
        };
        let group = Group {
            id: GroupId(set.alloc_id()),
            name: "hero".into(),
            items: vec![TreeItem::Sequence(sequence), TreeItem::Group(empty_group)],
        };
        set.root.items.push(TreeItem::Group(group));
        set
    }

    #[test]
    fn writes_what_ron_writes_for_every_kind_of_value() {
        let set = everything();
        assert_eq!(fast(&set), by_ron(&set));
        let empty = AnimationSet::new();
        assert_eq!(fast(&empty), by_ron(&empty));
        let long = fixtures::long_sequence(40);
        assert_eq!(fast(&long), by_ron(&long));
    }

    #[test]
    fn writes_the_demo_as_it_is_on_disk() {
        let bytes = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat"),
        )
        .unwrap();
        let loaded = super::super::SpratFormat
            .read(&bytes, &ReadContext::default())
            .unwrap();
        let mut edited = loaded.document;
        edited.original = None;
        let written = super::super::SpratFormat
            .write(&edited, &WriteContext::default())
            .unwrap();
        assert_eq!(
            String::from_utf8(written.bytes).unwrap(),
            String::from_utf8(bytes).unwrap()
        );
    }

    #[test]
    fn leaves_raw_identifiers_to_ron() {
        #[derive(serde::Serialize)]
        struct Odd {
            r#true: u8,
        }
        let mut out = String::new();
        assert!(write(&Odd { r#true: 1 }, &mut out).is_none());
    }

    proptest! {
        #[test]
        fn strings_are_escaped_as_ron_escapes_them(text in any::<String>(), name in "\\PC*") {
            let pair = (text.as_str(), vec![name.as_str()]);
            prop_assert_eq!(fast(&pair), by_ron(&pair));
        }
    }
}
