//! LZ5 (SFF v2 format 4): runs and back-references, eight packets per control byte.

use super::indexed::{CodecError, CodecRun, IndexedOut};

/// Most pixels one input byte of LZ5 can make: a two-byte run of 263 (plus its share of a
/// control byte).
pub const LZ5_MAX_RATIO: usize = 132;

/// Decodes LZ5.
///
/// A control byte gives, lowest bit first, the kind of the next eight packets.
/// - Run (bit 0): byte `d`; if `d & 0xE0 == 0` the colour is `d` and the length the next byte
///   + 8, else the colour is `d & 0x1F` and the length `d >> 5`.
/// - Copy (bit 1): byte `d`; if `d & 0x3F == 0` it is a long copy, offset
///   `((d << 2) | next) + 1`, length next + 3. Otherwise a short copy of length
///   `(d & 0x3F) + 1` whose offset is the next byte + 1, except that every short copy hands in
///   the top two bits of its `d` (the first into bits 7-6, the next into 5-4, ...) and every
///   fourth short copy uses those eight collected bits + 1 as its offset instead of reading a
///   byte.
pub fn decode_lz5(input: &[u8], pixels: &mut [u8]) -> Result<CodecRun, CodecError> {
    let mut out = IndexedOut::new(pixels);
    let mut reader = Bytes { input, at: 0 };
    let mut collected: u8 = 0;
    let mut collected_count: u32 = 0;
    'control: while !out.is_full() {
        let Some(control) = reader.next() else { break };
        for bit in 0..8 {
            if out.is_full() {
                break 'control;
            }
            let packet = reader.at;
            let Some(d) = reader.next() else {
                break 'control;
            };
            if control & (1 << bit) == 0 {
                let (colour, length) = if d & 0xE0 == 0 {
                    let n = reader.need(packet, "LZ5 run cut before its length")?;
                    (d, n as usize + 8)
                } else {
                    (d & 0x1F, (d >> 5) as usize)
                };
                out.run(colour, length);
            } else {
                let (distance, length) = if d & 0x3F == 0 {
                    let low = reader.need(packet, "LZ5 long copy cut before its offset")?;
                    let n = reader.need(packet, "LZ5 long copy cut before its length")?;
                    ((((d as usize) << 2) | low as usize) + 1, n as usize + 3)
                } else {
                    collected |= (d & 0xC0) >> (2 * collected_count);
                    collected_count += 1;
                    let distance = if collected_count == 4 {
                        let offset = collected as usize + 1;
                        collected = 0;
                        collected_count = 0;
                        offset
                    } else {
                        reader.need(packet, "LZ5 short copy cut before its offset")? as usize + 1
                    };
                    (distance, (d & 0x3F) as usize + 1)
                };
                out.copy_back(distance, length).map_err(|()| {
                    CodecError::new(
                        packet,
                        format!(
                            "LZ5 copy reaches {distance} pixels back but only {} are decoded",
                            out.len()
                        ),
                    )
                })?;
            }
        }
    }
    Ok(out.finish())
}

struct Bytes<'a> {
    input: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    fn next(&mut self) -> Option<u8> {
        let b = self.input.get(self.at).copied();
        if b.is_some() {
            self.at += 1;
        }
        b
    }

    fn need(&mut self, packet: usize, message: &str) -> Result<u8, CodecError> {
        self.next().ok_or_else(|| CodecError::new(packet, message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_runs() {
        // Control 0: two runs. 0x45 = colour 5 twice (0x45 >> 5 = 2); 0x03 0x01 = colour 3
        // nine times.
        let mut px = [0u8; 11];
        let run = decode_lz5(&[0x00, 0x45, 0x03, 0x01], &mut px).unwrap();
        assert_eq!(run.produced, 11);
        assert_eq!(px, [5, 5, 3, 3, 3, 3, 3, 3, 3, 3, 3]);
    }

    #[test]
    fn short_copies_collect_their_top_bits_every_fourth() {
        // Control 0b0010_1110: run, copy, copy, copy, run, copy.
        // 0x21: colour 1 once. Three short copies `0x01 0x00`: length 2 from 1 back, top bits
        // 00. 0x22: colour 2 once. The fourth short copy 0x41 (length 2, top bits 01) reads
        // no offset byte: the collected bits are 0b0000_0001, so it copies from 2 back.
        let input = [0x2E, 0x21, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x22, 0x41];
        let mut px = [0u8; 10];
        let run = decode_lz5(&input, &mut px).unwrap();
        assert_eq!(run.produced, 10);
        assert_eq!(px, [1, 1, 1, 1, 1, 1, 1, 2, 1, 2]);
    }

    #[test]
    fn the_first_short_copy_fills_the_top_bits() {
        // 0x41 first: its 01 lands in bits 7-6 (0x40), so the fourth copy reaches 65 back.
        // 64 pixels of colour 3 and one of 4 come first: run 0x03 0x38 (56 + 8 = 64), run 0x24.
        let input = [
            0b0011_1100,
            0x03,
            0x38,
            0x24,
            0x41,
            0x00,
            0x01,
            0x00,
            0x01,
            0x00,
            0x01,
        ];
        let mut px = [0u8; 73];
        decode_lz5(&input, &mut px).unwrap();
        // Copies 1..3 repeat the last pixel (distance 1): 6 more 4s, total 71 pixels.
        assert_eq!(&px[64..71], &[4; 7]);
        // The fourth copies 2 pixels from 65 back: pixels 6 and 7, both colour 3.
        assert_eq!(&px[71..73], &[3, 3]);
    }

    #[test]
    fn copies_before_the_start_are_errors() {
        let mut px = [0u8; 4];
        let e = decode_lz5(&[0x01, 0x01, 0x00], &mut px).unwrap_err();
        assert_eq!(e.offset, 1);
        assert!(e.message.contains("back"));
    }
}
