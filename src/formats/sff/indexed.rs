//! The target every palette codec writes into: a fixed-size buffer of colour indices that
//! ignores writes past its end, so a lying run length can never grow it.
//!
//! Most runs and copies are a few pixels long, where a call to `memset`/`memmove` costs more
//! than the work. Those are written as one fixed 16-byte store when the buffer has room,
//! scribbling over pixels not yet written; [`IndexedOut::finish`] clears whatever lies past
//! the last written pixel, so an input that ends early still leaves the rest transparent.

/// Why a codec stopped before filling the image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodecError {
    /// Offset in the codec's input where the problem is.
    pub offset: usize,
    /// A plain sentence.
    pub message: String,
}

impl CodecError {
    /// An error at an input offset.
    pub fn new(offset: usize, message: impl Into<String>) -> CodecError {
        CodecError {
            offset,
            message: message.into(),
        }
    }
}

/// How a codec's run went when it did not fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodecRun {
    /// Pixels written; less than the image size when the input ended early (the rest stays
    /// index 0, transparent).
    pub produced: usize,
}

/// The fixed store short runs and copies use.
const SHORT: usize = 16;

/// Colour indices, written front to back.
pub struct IndexedOut<'a> {
    pixels: &'a mut [u8],
    len: usize,
}

impl<'a> IndexedOut<'a> {
    /// Writes into `pixels` (which should start zeroed) from its start.
    pub fn new(pixels: &'a mut [u8]) -> IndexedOut<'a> {
        IndexedOut { pixels, len: 0 }
    }

    /// True when every pixel has been written.
    pub fn is_full(&self) -> bool {
        self.len >= self.pixels.len()
    }

    /// Pixels written so far.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Writes `colour` `count` times, dropping what does not fit.
    #[inline]
    pub fn run(&mut self, colour: u8, count: usize) {
        let end = self.len.saturating_add(count).min(self.pixels.len());
        let mut at = self.len;
        while at < end
            && let Some(store) = self.pixels.get_mut(at..at + SHORT)
        {
            store.copy_from_slice(&[colour; SHORT]);
            at += SHORT;
        }
        if at < end {
            self.pixels[at..end].fill(colour);
        }
        self.len = end;
    }

    /// Writes one pixel, dropped when full.
    pub fn push(&mut self, colour: u8) {
        if let Some(p) = self.pixels.get_mut(self.len) {
            *p = colour;
            self.len += 1;
        }
    }

    /// Copies `count` pixels starting `distance` pixels back (LZ77 style: the source may
    /// overlap what is being written). `Err` when `distance` reaches before the start.
    #[inline]
    pub fn copy_back(&mut self, distance: usize, count: usize) -> Result<(), ()> {
        if distance == 0 || distance > self.len {
            return Err(());
        }
        let end = self.len.saturating_add(count).min(self.pixels.len());
        if distance == 1 {
            let colour = self.pixels[self.len - 1];
            self.run(colour, count);
            return Ok(());
        }
        let mut at = self.len;
        if distance >= SHORT || count <= distance {
            // Each store's source lies before `at` (or, for a copy no longer than its
            // distance, its first `count` bytes do): already final, so plain copies are right.
            while at < end && at + SHORT <= self.pixels.len() {
                self.pixels
                    .copy_within(at - distance..at - distance + SHORT, at);
                at += SHORT;
            }
        }
        // An overlapping source repeats with period `distance`: each chunk copies everything
        // from the source to here, a whole number of periods, so chunks double in length.
        let source = at - distance;
        while at < end {
            let chunk = (at - source).min(end - at);
            self.pixels.copy_within(source..source + chunk, at);
            at += chunk;
        }
        self.len = end;
        Ok(())
    }

    /// The run's outcome. Pixels past the last one written are (again) transparent.
    pub fn finish(self) -> CodecRun {
        self.pixels[self.len..].fill(0);
        CodecRun { produced: self.len }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_stop_at_the_end_and_copies_overlap() {
        let mut buf = [0u8; 8];
        let mut out = IndexedOut::new(&mut buf);
        out.push(1);
        out.push(2);
        out.copy_back(2, 5).unwrap();
        assert_eq!(out.len(), 7);
        out.run(9, 100);
        assert!(out.is_full());
        out.push(3);
        assert!(out.copy_back(1, 3).is_ok());
        assert_eq!(out.finish().produced, 8);
        assert_eq!(buf, [1, 2, 1, 2, 1, 2, 1, 9]);
    }

    /// The plain definition the fast paths must agree with: one pixel at a time.
    fn reference(ops: &[(bool, usize, usize)], size: usize) -> (Vec<u8>, usize) {
        let mut pixels = vec![0u8; size];
        let mut len = 0;
        for &(copy, a, count) in ops {
            for _ in 0..count {
                if len == size {
                    break;
                }
                pixels[len] = if copy { pixels[len - a] } else { a as u8 };
                len += 1;
            }
        }
        (pixels, len)
    }

    #[test]
    fn short_stores_and_doubling_copies_match_pixel_by_pixel_writing() {
        // Runs (colour, count) and copies (distance, count) of every short and long kind,
        // ending with a short run that scribbles past the last pixel.
        let ops = [
            (false, 3, 5),
            (false, 4, 40),
            (true, 1, 7),
            (true, 2, 9),
            (true, 3, 50),
            (true, 20, 10),
            (true, 16, 16),
            (true, 17, 17),
            (true, 5, 3),
            (true, 100, 40),
            (false, 9, 0),
            (true, 7, 1),
            (false, 6, 2),
        ];
        for size in [150, 199, 200, 240] {
            let mut buf = vec![0u8; size];
            let mut out = IndexedOut::new(&mut buf);
            for &(copy, a, count) in &ops {
                if copy {
                    out.copy_back(a, count).unwrap();
                } else {
                    out.run(a as u8, count);
                }
            }
            let produced = out.finish().produced;
            let (expected, len) = reference(&ops, size);
            assert_eq!(produced, len, "size {size}");
            assert_eq!(buf, expected, "size {size}");
        }
    }

    #[test]
    fn copies_from_before_the_start_are_refused() {
        let mut buf = [0u8; 4];
        let mut out = IndexedOut::new(&mut buf);
        out.push(1);
        assert!(out.copy_back(2, 1).is_err());
        assert!(out.copy_back(0, 1).is_err());
    }
}
