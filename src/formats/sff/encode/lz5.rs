//! The LZ5 encoder (the inverse of [`crate::formats::sff::lz5`]): runs, and copies of what was
//! already written, eight packets per control byte. Colours must be below 32.

use super::rle::run_length;

/// Longest copy a long-copy packet holds (its length byte + 3).
const MAX_COPY: usize = 258;
/// Farthest back a long copy reaches (10 bits + 1).
const MAX_DISTANCE: usize = 1024;
/// Copies shorter than this cost more than runs or literals.
const MIN_COPY: usize = 4;

/// Packets written so far and the control byte they need.
struct Packets {
    out: Vec<u8>,
    control_at: usize,
    count: u32,
}

impl Packets {
    fn begin(&mut self, copy: bool) {
        if self.count.is_multiple_of(8) {
            self.control_at = self.out.len();
            self.out.push(0);
        }
        if copy {
            self.out[self.control_at] |= 1 << (self.count % 8);
        }
        self.count += 1;
    }
}

/// Encodes indices below 32 (the caller checks) as LZ5. Runs of 1-7 take one byte, 8-263
/// two; a stretch that repeats something up to 1024 pixels back becomes a long copy (three
/// bytes, up to 258 pixels). Short copies are never written, so no collected offset bits are
/// pending and any decoder state stays simple.
pub fn encode_lz5(pixels: &[u8]) -> Vec<u8> {
    let mut p = Packets {
        out: Vec::with_capacity(pixels.len() / 2 + 16),
        control_at: 0,
        count: 0,
    };
    // Last position (+ 1) a 4-pixel string with each hash was seen at, for finding copies.
    let mut last_seen = vec![0usize; HASH_SLOTS];
    let mut at = 0;
    while at < pixels.len() {
        let run = run_length(pixels, at, 263);
        let copy = if run < MIN_COPY {
            best_copy(pixels, at, &last_seen)
        } else {
            None
        };
        let step = match copy {
            Some((distance, length)) if length > run => {
                p.begin(true);
                let offset = distance - 1;
                p.out.push(((offset >> 2) as u8) & 0xC0);
                p.out.push(offset as u8);
                p.out.push((length - 3) as u8);
                length
            }
            _ => {
                p.begin(false);
                let colour = pixels[at] & 0x1F;
                if run >= 8 {
                    p.out.push(colour);
                    p.out.push((run - 8) as u8);
                    run
                } else {
                    let n = run.min(7);
                    p.out.push((n as u8) << 5 | colour);
                    n
                }
            }
        };
        for i in at..(at + step) {
            if let Some(key) = pixels.get(i..i + 4) {
                last_seen[hash(key)] = i + 1;
            }
        }
        at += step;
    }
    p.out
}

/// Slots of the table of recent 4-pixel strings (a power of two).
const HASH_SLOTS: usize = 1 << 12;

fn hash(key: &[u8]) -> usize {
    let v = u32::from_le_bytes([key[0], key[1], key[2], key[3]]);
    (v.wrapping_mul(0x9E37_79B1) >> 20) as usize & (HASH_SLOTS - 1)
}

/// The longest earlier match of the pixels at `at`: (distance, length).
fn best_copy(pixels: &[u8], at: usize, last_seen: &[usize]) -> Option<(usize, usize)> {
    let key = pixels.get(at..at + 4)?;
    let from = last_seen[hash(key)].checked_sub(1)?;
    let distance = at - from;
    if distance > MAX_DISTANCE {
        return None;
    }
    let length = (0..MAX_COPY.min(pixels.len() - at))
        .take_while(|&i| pixels[from + i] == pixels[at + i])
        .count();
    (length >= MIN_COPY).then_some((distance, length))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::sff::lz5::decode_lz5;

    #[test]
    fn runs_and_copies_round_trip() {
        let mut px: Vec<u8> = Vec::new();
        for row in 0..40u8 {
            px.extend(std::iter::repeat_n(0, 30));
            px.extend([1, 2, 3, 4, 5, 6, 7, 31, row % 32, 9, 9, 9]);
            px.extend(std::iter::repeat_n(row % 32, 300));
        }
        let packed = encode_lz5(&px);
        assert!(packed.len() < px.len() / 4, "{} bytes", packed.len());
        let mut back = vec![0u8; px.len()];
        let run = decode_lz5(&packed, &mut back).unwrap();
        assert_eq!(run.produced, px.len());
        assert_eq!(back, px);
    }
}
