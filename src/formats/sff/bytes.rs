//! Little-endian reads that never run past the end of the file.

/// A `u16` at `offset`, or `None` past the end.
pub fn u16_at(bytes: &[u8], offset: usize) -> Option<u16> {
    let b = bytes.get(offset..offset.checked_add(2)?)?;
    Some(u16::from_le_bytes([b[0], b[1]]))
}

/// An `i16` at `offset`, or `None` past the end.
pub fn i16_at(bytes: &[u8], offset: usize) -> Option<i16> {
    u16_at(bytes, offset).map(|v| v as i16)
}

/// A `u32` at `offset`, or `None` past the end.
pub fn u32_at(bytes: &[u8], offset: usize) -> Option<u32> {
    let b = bytes.get(offset..offset.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stop_at_the_end() {
        let b = [1, 2, 3, 4, 5];
        assert_eq!(u16_at(&b, 0), Some(0x0201));
        assert_eq!(u32_at(&b, 1), Some(0x0504_0302));
        assert_eq!(u32_at(&b, 2), None);
        assert_eq!(u16_at(&b, usize::MAX), None);
        assert_eq!(i16_at(&[0xFF, 0xFF], 0), Some(-1));
    }
}
