//! The element records of a frame: simple and expanded graphics, attachment points, and
//! rectangle and circle collision objects, decoded from and encoded to their bytes.

use super::bytes::{put_fixed, put_u16};
use super::frames::RawElement;
use crate::model::{Fx, Point};

/// Simple graphic marker.
pub const SIMPLE_GRAPHIC: u8 = b'g';
/// Expanded graphic marker.
pub const EXPANDED_GRAPHIC: u8 = b'G';
/// Attachment point marker.
pub const ATTACHMENT: u8 = b'A';
/// Collision object marker.
pub const COLLISION: u8 = b'C';
/// Rectangle collision type.
pub const RECT: u8 = b'r';
/// Circle collision type.
pub const CIRCLE: u8 = b'c';

const SIMPLE_LEN: usize = 9;
const EXPANDED_LEN: usize = 26;
const ATTACHMENT_LEN: usize = 21;
const RECT_LEN: usize = 20;
const CIRCLE_LEN: usize = 13;

/// The transform fields expanded graphics and attachment points share.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transform {
    /// Degrees clockwise.
    pub rotation: Fx,
    /// Horizontal scale.
    pub scale_x: Fx,
    /// Vertical scale.
    pub scale_y: Fx,
    /// 0..=FFFF.
    pub opacity: u16,
}

impl Default for Transform {
    fn default() -> Self {
        Transform {
            rotation: Fx::ZERO,
            scale_x: Fx::from_int(1),
            scale_y: Fx::from_int(1),
            opacity: u16::MAX,
        }
    }
}

/// A collision shape as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawShape {
    /// `r`.
    Rect {
        /// Upper-left corner.
        corner: Point,
        /// Width.
        width: Fx,
        /// Height.
        height: Fx,
        /// The undocumented byte at offset 20 (D4), kept.
        reserved: u8,
        /// Degrees clockwise about the corner.
        rotation: Fx,
    },
    /// `c`.
    Circle {
        /// Centre.
        center: Point,
        /// Radius.
        radius: Fx,
    },
}

/// A known element's content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    /// `g` or `G`.
    Graphic {
        /// Slice index.
        slice: u16,
        /// Where the slice's upper-left corner goes (ambiguity 5).
        position: Point,
        /// Bit 0 horizontal, bit 1 vertical; the other bits are kept.
        mirror: u8,
        /// `G` only: the origin and the transform.
        expanded: Option<(Point, Transform)>,
        /// Bytes past the standard length, kept.
        extra: Vec<u8>,
    },
    /// `A`.
    Attachment {
        /// The point's id.
        id: u16,
        /// Position.
        position: Point,
        /// Mirroring as a u16 (D5).
        mirror: u16,
        /// Rotation, scale, opacity.
        transform: Transform,
        /// Bytes past the standard length, kept.
        extra: Vec<u8>,
    },
    /// `C`.
    Collision {
        /// The undocumented byte at offset 4 (D4), kept.
        reserved: u8,
        /// The object's id.
        id: u16,
        /// Its shape.
        shape: RawShape,
        /// Bytes past the standard length, kept.
        extra: Vec<u8>,
    },
}

/// Reads the fields of a record whose length was checked against its kind's standard length
/// first, so no read here can run out (a read past the end would give zeros, never a panic).
struct Fields<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Fields<'b> {
    fn array<const N: usize>(&mut self) -> [u8; N] {
        let out = self
            .bytes
            .get(self.at..self.at + N)
            .and_then(|b| b.try_into().ok())
            .unwrap_or([0; N]);
        self.at += N;
        out
    }

    fn u8(&mut self) -> u8 {
        self.array::<1>()[0]
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.array())
    }

    /// A fixed-point value: signed 16-bit whole part, then an unsigned 1/256 fraction (D7).
    fn fixed(&mut self) -> Fx {
        let [lo, hi, fraction] = self.array();
        Fx::from_parts(i16::from_le_bytes([lo, hi]) as i32, fraction)
    }

    fn point(&mut self) -> Point {
        Point {
            x: self.fixed(),
            y: self.fixed(),
        }
    }

    fn transform(&mut self) -> Transform {
        Transform {
            rotation: self.fixed(),
            scale_x: self.fixed(),
            scale_y: self.fixed(),
            opacity: self.u16(),
        }
    }

    /// The bytes past the standard length.
    fn rest(&self) -> Vec<u8> {
        self.bytes.get(self.at..).unwrap_or_default().to_vec()
    }
}

impl Body {
    /// Decodes a known element; `None` for unknown markers and records too short for their
    /// marker (ambiguity 20: those are skipped and kept as they are).
    pub fn decode(element: &RawElement) -> Option<Body> {
        let mut r = Fields {
            bytes: element.body,
            at: 0,
        };
        let needed = match element.marker {
            SIMPLE_GRAPHIC => SIMPLE_LEN,
            EXPANDED_GRAPHIC => EXPANDED_LEN,
            ATTACHMENT => ATTACHMENT_LEN,
            COLLISION => match element.body.get(1) {
                Some(&RECT) => RECT_LEN,
                Some(&CIRCLE) => CIRCLE_LEN,
                _ => return None,
            },
            _ => return None,
        };
        if element.body.len() < needed {
            return None;
        }
        let body = match element.marker {
            SIMPLE_GRAPHIC | EXPANDED_GRAPHIC => {
                let slice = r.u16();
                let position = r.point();
                let mirror = r.u8();
                let expanded = if element.marker == EXPANDED_GRAPHIC {
                    Some((r.point(), r.transform()))
                } else {
                    None
                };
                Body::Graphic {
                    slice,
                    position,
                    mirror,
                    expanded,
                    extra: r.rest(),
                }
            }
            ATTACHMENT => {
                let id = r.u16();
                let position = r.point();
                let mirror = r.u16();
                Body::Attachment {
                    id,
                    position,
                    mirror,
                    transform: r.transform(),
                    extra: r.rest(),
                }
            }
            _ => {
                let reserved = r.u8();
                let kind = r.u8();
                let id = r.u16();
                let shape = if kind == RECT {
                    RawShape::Rect {
                        corner: r.point(),
                        width: r.fixed(),
                        height: r.fixed(),
                        reserved: r.u8(),
                        rotation: r.fixed(),
                    }
                } else {
                    RawShape::Circle {
                        center: r.point(),
                        radius: r.fixed(),
                    }
                };
                Body::Collision {
                    reserved,
                    id,
                    shape,
                    extra: r.rest(),
                }
            }
        };
        Some(body)
    }

    /// The marker this element is stored under.
    pub fn marker(&self) -> u8 {
        match self {
            Body::Graphic { expanded: None, .. } => SIMPLE_GRAPHIC,
            Body::Graphic { .. } => EXPANDED_GRAPHIC,
            Body::Attachment { .. } => ATTACHMENT,
            Body::Collision { .. } => COLLISION,
        }
    }

    /// Appends the bytes of this element (after its size byte); returns its marker.
    pub fn encode(&self, out: &mut Vec<u8>) -> u8 {
        let put_point = |out: &mut Vec<u8>, p: &Point| {
            put_fixed(out, p.x);
            put_fixed(out, p.y);
        };
        let put_transform = |out: &mut Vec<u8>, t: &Transform| {
            put_fixed(out, t.rotation);
            put_fixed(out, t.scale_x);
            put_fixed(out, t.scale_y);
            put_u16(out, t.opacity);
        };
        match self {
            Body::Graphic {
                slice,
                position,
                mirror,
                expanded,
                extra,
            } => {
                put_u16(out, *slice);
                put_point(out, position);
                out.push(*mirror);
                let marker = match expanded {
                    Some((origin, t)) => {
                        put_point(out, origin);
                        put_transform(out, t);
                        EXPANDED_GRAPHIC
                    }
                    None => SIMPLE_GRAPHIC,
                };
                out.extend_from_slice(extra);
                marker
            }
            Body::Attachment {
                id,
                position,
                mirror,
                transform,
                extra,
            } => {
                put_u16(out, *id);
                put_point(out, position);
                put_u16(out, *mirror);
                put_transform(out, transform);
                out.extend_from_slice(extra);
                ATTACHMENT
            }
            Body::Collision {
                reserved,
                id,
                shape,
                extra,
            } => {
                out.push(*reserved);
                match shape {
                    RawShape::Rect {
                        corner,
                        width,
                        height,
                        reserved,
                        rotation,
                    } => {
                        out.push(RECT);
                        put_u16(out, *id);
                        put_point(out, corner);
                        put_fixed(out, *width);
                        put_fixed(out, *height);
                        out.push(*reserved);
                        put_fixed(out, *rotation);
                    }
                    RawShape::Circle { center, radius } => {
                        out.push(CIRCLE);
                        put_u16(out, *id);
                        put_point(out, center);
                        put_fixed(out, *radius);
                    }
                }
                out.extend_from_slice(extra);
                COLLISION
            }
        }
    }
}
