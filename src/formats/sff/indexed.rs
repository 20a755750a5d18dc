//! The target every palette codec writes into: a fixed-size buffer of colour indices that
//! ignores writes past its end, so a lying run length can never grow it.

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
    pub fn run(&mut self, colour: u8, count: usize) {
        let end = self.len.saturating_add(count).min(self.pixels.len());
        self.pixels[self.len..end].fill(colour);
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
    pub fn copy_back(&mut self, distance: usize, count: usize) -> Result<(), ()> {
        if distance == 0 || distance > self.len {
            return Err(());
        }
        let end = self.len.saturating_add(count).min(self.pixels.len());
        let mut at = self.len;
        while at < end {
            // Copy in chunks no longer than the distance, so overlapping sources repeat.
            let chunk = distance.min(end - at);
            self.pixels
                .copy_within(at - distance..at - distance + chunk, at);
            at += chunk;
        }
        self.len = end;
        Ok(())
    }

    /// The run's outcome.
    pub fn finish(self) -> CodecRun {
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

    #[test]
    fn copies_from_before_the_start_are_refused() {
        let mut buf = [0u8; 4];
        let mut out = IndexedOut::new(&mut buf);
        out.push(1);
        assert!(out.copy_back(2, 1).is_err());
        assert!(out.copy_back(0, 1).is_err());
    }
}
