//! RLE8 and RLE5 encoders (the inverses of [`crate::formats::sff::rle`]).

/// The length of the run of `pixels[start]` from `start`, at most `limit`.
pub(super) fn run_length(pixels: &[u8], start: usize, limit: usize) -> usize {
    let colour = pixels[start];
    pixels[start..]
        .iter()
        .take(limit)
        .take_while(|&&p| p == colour)
        .count()
}

/// RLE8: runs of 2 to 63 as `0x40 | n, colour`; single pixels as themselves, except those
/// whose top bits read as a run marker (`0x40..=0x7F`), which go as runs of one.
pub fn encode_rle8(pixels: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(pixels.len() / 2 + 16);
    let mut at = 0;
    while at < pixels.len() {
        let colour = pixels[at];
        let n = run_length(pixels, at, 63);
        if n == 1 && colour & 0xC0 != 0x40 {
            out.push(colour);
        } else {
            out.push(0x40 | n as u8);
            out.push(colour);
        }
        at += n;
    }
    out
}

/// RLE5: a packet per run of up to 256 pixels: the run length - 1, then a data length of 0
/// with the top bit set and the colour byte (a run of colour 0 leaves both out). Runs of
/// colours below 32 that follow a run are packed as data bytes of the same packet (three bits
/// of length, five of colour), up to 127 of them.
pub fn encode_rle5(pixels: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(pixels.len() / 2 + 16);
    let mut at = 0;
    while at < pixels.len() {
        let colour = pixels[at];
        let n = run_length(pixels, at, 256);
        at += n;
        out.push((n - 1) as u8);
        let data_length_at = out.len();
        if colour == 0 {
            out.push(0);
        } else {
            out.push(0x80);
            out.push(colour);
        }
        let mut data = 0u8;
        while data < 0x7F && at < pixels.len() && pixels[at] < 32 {
            // A long run is cheaper as the next packet's run than as data bytes of 8.
            let m = run_length(pixels, at, 8);
            if m == 8 && run_length(pixels, at, 9) == 9 {
                break;
            }
            out.push(((m - 1) as u8) << 5 | pixels[at]);
            at += m;
            data += 1;
        }
        out[data_length_at] |= data;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::sff::rle::{decode_rle5, decode_rle8};

    fn sample() -> Vec<u8> {
        let mut px = vec![0u8; 300];
        px.extend([
            0x40, 0x7F, 0xC0, 5, 5, 5, 31, 32, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 200,
        ]);
        px.extend(std::iter::repeat_n(7, 70));
        px.extend((0..=255).collect::<Vec<u8>>());
        px
    }

    #[test]
    fn rle8_round_trips() {
        let px = sample();
        let mut back = vec![0u8; px.len()];
        let run = decode_rle8(&encode_rle8(&px), &mut back).unwrap();
        assert_eq!(run.produced, px.len());
        assert_eq!(back, px);
    }

    #[test]
    fn rle5_round_trips() {
        let px = sample();
        let mut back = vec![0u8; px.len()];
        let run = decode_rle5(&encode_rle5(&px), &mut back).unwrap();
        assert_eq!(run.produced, px.len());
        assert_eq!(back, px);
    }
}
