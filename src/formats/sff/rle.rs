//! SFF v2 run-length codecs: RLE8 (format 2) and RLE5 (format 3).

use super::indexed::{CodecError, CodecRun, IndexedOut};

/// Most pixels one input byte of RLE8 can make: a two-byte run of 63.
pub const RLE8_MAX_RATIO: usize = 32;

/// Most pixels one input byte of RLE5 can make: a two-byte run of 256.
pub const RLE5_MAX_RATIO: usize = 128;

/// RLE8: a byte `b` with `(b & 0xC0) == 0x40` repeats the next byte `b & 0x3F` times; any
/// other byte is one pixel.
pub fn decode_rle8(input: &[u8], pixels: &mut [u8]) -> Result<CodecRun, CodecError> {
    let mut out = IndexedOut::new(pixels);
    let mut at = 0;
    while !out.is_full() && at < input.len() {
        let b = input[at];
        at += 1;
        if b & 0xC0 == 0x40 {
            let Some(&colour) = input.get(at) else {
                return Err(CodecError::new(at - 1, "RLE8 run without its colour byte"));
            };
            at += 1;
            out.run(colour, (b & 0x3F) as usize);
        } else {
            out.push(b);
        }
    }
    Ok(out.finish())
}

/// RLE5: packets of a run length RL and a data length DL. When DL's top bit is set a colour
/// byte follows (else the colour is 0); that colour is written RL + 1 times. Then come
/// `DL & 0x7F` bytes, each writing colour `b & 0x1F` `(b >> 5) + 1` times.
pub fn decode_rle5(input: &[u8], pixels: &mut [u8]) -> Result<CodecRun, CodecError> {
    let mut out = IndexedOut::new(pixels);
    let mut at = 0;
    while !out.is_full() && at < input.len() {
        let packet = at;
        let run_length = input[at] as usize;
        let Some(&data_length) = input.get(at + 1) else {
            return Err(CodecError::new(
                packet,
                "RLE5 packet cut after its run length",
            ));
        };
        at += 2;
        let colour = if data_length & 0x80 != 0 {
            let Some(&c) = input.get(at) else {
                return Err(CodecError::new(packet, "RLE5 packet cut before its colour"));
            };
            at += 1;
            c
        } else {
            0
        };
        out.run(colour, run_length + 1);
        for _ in 0..(data_length & 0x7F) {
            let Some(&b) = input.get(at) else {
                return Err(CodecError::new(at, "RLE5 packet cut inside its data bytes"));
            };
            at += 1;
            out.run(b & 0x1F, ((b >> 5) + 1) as usize);
        }
    }
    Ok(out.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rle8_runs_and_literals() {
        // 0x43 = run of 3 of the next byte; 0x05 and 0xC7 are literal pixels (0xC7 & 0xC0 is
        // 0xC0, not 0x40).
        let mut px = [0u8; 6];
        let run = decode_rle8(&[0x43, 0x09, 0x05, 0xC7, 0x40, 0x01, 0x02], &mut px).unwrap();
        assert_eq!(px, [9, 9, 9, 5, 0xC7, 2]);
        assert_eq!(run.produced, 6);
    }

    #[test]
    fn rle8_reports_a_run_without_colour() {
        let mut px = [0u8; 6];
        let e = decode_rle8(&[0x01, 0x42], &mut px).unwrap_err();
        assert_eq!(e.offset, 1);
    }

    #[test]
    fn rle8_short_input_leaves_the_rest_transparent() {
        let mut px = [7u8; 4];
        px.fill(0);
        let run = decode_rle8(&[0x42, 0x03], &mut px).unwrap();
        assert_eq!(run.produced, 2);
        assert_eq!(px, [3, 3, 0, 0]);
    }
}
