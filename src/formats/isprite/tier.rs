//! `TIER`: the tree of groups and sequences, as a flat list of markers.

use super::bytes::{ByteError, Reader, put_string, put_u32};
use crate::formats::Diagnostic;

/// The group marker `G`.
pub const GROUP: u8 = b'G';
/// The sequence marker `S`.
pub const SEQUENCE: u8 = b'S';
/// The closing marker `C` (D3).
pub const CLOSE: u8 = b'C';
/// The loop point that means "stop at the end".
pub const NO_LOOP: u32 = u32::MAX;
/// The deepest group nesting read; deeper trees are refused so that walking the tree (which
/// the model does recursively) cannot exhaust the stack.
pub const MAX_DEPTH: usize = 64;

/// A sequence as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawSequence {
    /// The loop point index, or [`NO_LOOP`].
    pub loop_point: u32,
    /// The name.
    pub name: Vec<u8>,
    /// The follow-up sequence's name; empty = none.
    pub follow_up: Vec<u8>,
    /// Frame indices into FRAM.
    pub frames: Vec<u32>,
}

/// What each frame's loop flag (bit 0 of its flags, D8) should be by the tree: for a frame
/// listed by exactly one sequence, that sequence's TIER item index and whether the frame is
/// at its loop point; `None` for a frame no sequence or several sequences list (its flag
/// cannot be decided from the tree).
pub fn loop_flags_by_tree(items: &[RawTierItem], frame_count: usize) -> Vec<Option<(usize, bool)>> {
    #[derive(Clone, Copy)]
    enum Owner {
        Unused,
        One(usize, bool),
        Shared,
    }
    let mut owners = vec![Owner::Unused; frame_count];
    for (n, item) in items.iter().enumerate() {
        let RawTierItem::Sequence(s) = item else {
            continue;
        };
        for (position, f) in s.frames.iter().enumerate() {
            let Some(owner) = owners.get_mut(*f as usize) else {
                continue;
            };
            let at_loop = position as u32 == s.loop_point;
            *owner = match *owner {
                Owner::Unused => Owner::One(n, at_loop),
                Owner::One(m, was) if m == n => Owner::One(n, was || at_loop),
                _ => Owner::Shared,
            };
        }
    }
    owners
        .into_iter()
        .map(|o| match o {
            Owner::One(n, at_loop) => Some((n, at_loop)),
            _ => None,
        })
        .collect()
}

/// One marker of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawTierItem {
    /// `G`: opens a group.
    Group(Vec<u8>),
    /// `S`: a sequence in the open group.
    Sequence(RawSequence),
    /// Closes the open group; the byte is `C`, or an `S` too short to be a sequence (D3).
    Close(u8),
}

/// The `TIER` chunk as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawTier {
    /// The markers in order.
    pub items: Vec<RawTierItem>,
    /// Bytes from the first unknown marker on, kept as found.
    pub tail: Vec<u8>,
}

impl RawTier {
    /// Parses the chunk body.
    pub fn parse(r: &mut Reader, diagnostics: &mut Vec<Diagnostic>) -> Result<RawTier, ByteError> {
        let mut items = Vec::new();
        let mut depth = 0usize;
        while let Some(marker) = r.peek() {
            let at = r.offset();
            match marker {
                GROUP => {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return Err(ByteError::new(
                            at,
                            format!("groups are nested deeper than {MAX_DEPTH} levels"),
                        ));
                    }
                    r.u8("a group marker")?;
                    let name = r.string("a group name")?;
                    name.warn_if_cut("a name", "TIER", diagnostics);
                    items.push(RawTierItem::Group(name.bytes.to_vec()));
                }
                SEQUENCE if r.remaining() < 13 => {
                    r.u8("a closing marker")?;
                    diagnostics.push(Diagnostic::warning_at_byte(
                        at as u64,
                        "an \"S\" too short to be a sequence is read as a group close (decision D3)",
                    ));
                    items.push(RawTierItem::Close(marker));
                    depth = depth.saturating_sub(1);
                }
                SEQUENCE => {
                    r.u8("a sequence marker")?;
                    let count = r.u32("the sequence frame count")? as usize;
                    let loop_point = r.u32("the loop point")?;
                    let name = r.string("a sequence name")?;
                    name.warn_if_cut("a name", "TIER", diagnostics);
                    let follow_up = r.string("a follow-up name")?;
                    follow_up.warn_if_cut("a name", "TIER", diagnostics);
                    if count.saturating_mul(4) > r.remaining() {
                        return Err(ByteError::new(
                            at + 1,
                            format!(
                                "sequence \"{}\" claims {count} frames but TIER holds room for {}",
                                String::from_utf8_lossy(name.bytes),
                                r.remaining() / 4
                            ),
                        ));
                    }
                    let mut frames = Vec::with_capacity(count);
                    for _ in 0..count {
                        frames.push(r.u32("a frame id")?);
                    }
                    items.push(RawTierItem::Sequence(RawSequence {
                        loop_point,
                        name: name.bytes.to_vec(),
                        follow_up: follow_up.bytes.to_vec(),
                        frames,
                    }));
                }
                CLOSE => {
                    r.u8("a closing marker")?;
                    items.push(RawTierItem::Close(marker));
                    depth = depth.saturating_sub(1);
                }
                other => {
                    diagnostics.push(Diagnostic::warning_at_byte(
                        at as u64,
                        format!(
                            "unknown TIER marker 0x{other:02X}; the rest of TIER is kept as it is but not read"
                        ),
                    ));
                    break;
                }
            }
        }
        Ok(RawTier {
            items,
            tail: r.rest().to_vec(),
        })
    }

    /// The chunk body.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for item in &self.items {
            match item {
                RawTierItem::Group(name) => {
                    out.push(GROUP);
                    put_string(&mut out, name);
                }
                RawTierItem::Sequence(s) => {
                    out.push(SEQUENCE);
                    put_u32(&mut out, s.frames.len() as u32);
                    put_u32(&mut out, s.loop_point);
                    put_string(&mut out, &s.name);
                    put_string(&mut out, &s.follow_up);
                    for f in &s.frames {
                        put_u32(&mut out, *f);
                    }
                }
                RawTierItem::Close(marker) => out.push(*marker),
            }
        }
        out.extend_from_slice(&self.tail);
        out
    }
}
