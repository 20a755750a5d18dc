//! The MaxRects bin (Jylänki, "A Thousand Ways to Pack the Bin", 2010): the free space of a
//! sheet kept as every maximal empty rectangle, each new rectangle put where a placement rule
//! scores best. No rotation: few atlas formats can say a frame is stored turned.

/// A rectangle on a sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
}

impl Rect {
    fn right(&self) -> u32 {
        self.x + self.w
    }

    fn bottom(&self) -> u32 {
        self.y + self.h
    }

    fn contains(&self, other: &Rect) -> bool {
        other.x >= self.x
            && other.y >= self.y
            && other.right() <= self.right()
            && other.bottom() <= self.bottom()
    }

    fn overlaps(&self, other: &Rect) -> bool {
        self.x < other.right()
            && other.x < self.right()
            && self.y < other.bottom()
            && other.y < self.bottom()
    }
}

/// Where a new rectangle goes among the free ones; each packs some inputs tighter than the
/// others, so the packer tries several and keeps the smallest sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The free rectangle whose shorter leftover side is shortest.
    BestShortSideFit,
    /// The free rectangle whose longer leftover side is shortest.
    BestLongSideFit,
    /// The free rectangle with the least area left over.
    BestAreaFit,
    /// The lowest, then leftmost, position (Tetris-like).
    BottomLeft,
}

/// One sheet being filled.
pub struct Bin {
    width: u32,
    height: u32,
    free: Vec<Rect>,
}

impl Bin {
    /// An empty sheet of the given size.
    pub fn new(width: u32, height: u32) -> Bin {
        Bin {
            width,
            height,
            free: vec![Rect {
                x: 0,
                y: 0,
                w: width,
                h: height,
            }],
        }
    }

    /// The sheet's size.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Places a `w` x `h` rectangle by `rule`; `None` when it fits nowhere.
    pub fn insert(&mut self, w: u32, h: u32, rule: Rule) -> Option<Rect> {
        let placed = self.find(w, h, rule)?;
        self.occupy(placed);
        Some(placed)
    }

    fn find(&self, w: u32, h: u32, rule: Rule) -> Option<Rect> {
        let mut best: Option<((u64, u64), Rect)> = None;
        for free in &self.free {
            if free.w < w || free.h < h {
                continue;
            }
            let (left_w, left_h) = ((free.w - w) as u64, (free.h - h) as u64);
            let score = match rule {
                Rule::BestShortSideFit => (left_w.min(left_h), left_w.max(left_h)),
                Rule::BestLongSideFit => (left_w.max(left_h), left_w.min(left_h)),
                Rule::BestAreaFit => (
                    free.w as u64 * free.h as u64 - w as u64 * h as u64,
                    left_w.min(left_h),
                ),
                Rule::BottomLeft => ((free.y + h) as u64, free.x as u64),
            };
            if best.is_none_or(|(b, _)| score < b) {
                best = Some((
                    score,
                    Rect {
                        x: free.x,
                        y: free.y,
                        w,
                        h,
                    },
                ));
            }
        }
        best.map(|(_, rect)| rect)
    }

    /// Takes `used` out of the free space: every free rectangle it overlaps is split into the
    /// up to four maximal pieces around it, and pieces inside another free rectangle go.
    fn occupy(&mut self, used: Rect) {
        let mut pieces: Vec<Rect> = Vec::new();
        let mut kept = 0;
        for i in 0..self.free.len() {
            let free = self.free[i];
            if !free.overlaps(&used) {
                self.free[kept] = free;
                kept += 1;
                continue;
            }
            if used.x > free.x {
                pieces.push(Rect {
                    w: used.x - free.x,
                    ..free
                });
            }
            if used.right() < free.right() {
                pieces.push(Rect {
                    x: used.right(),
                    w: free.right() - used.right(),
                    ..free
                });
            }
            if used.y > free.y {
                pieces.push(Rect {
                    h: used.y - free.y,
                    ..free
                });
            }
            if used.bottom() < free.bottom() {
                pieces.push(Rect {
                    y: used.bottom(),
                    h: free.bottom() - used.bottom(),
                    ..free
                });
            }
        }
        self.free.truncate(kept);
        // The old free rectangles contain none of each other, and no piece contains an old
        // one (each piece lies inside an old rectangle that contained none): only pieces can
        // be redundant.
        let old = self.free.len();
        for (i, piece) in pieces.iter().enumerate() {
            let inside_old = self.free[..old].iter().any(|f| f.contains(piece));
            let inside_piece = pieces
                .iter()
                .enumerate()
                .any(|(j, other)| j != i && other.contains(piece) && (other != piece || j < i));
            if !inside_old && !inside_piece {
                self.free.push(*piece);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_quarters_fill_a_square_exactly() {
        for rule in [
            Rule::BestShortSideFit,
            Rule::BestLongSideFit,
            Rule::BestAreaFit,
            Rule::BottomLeft,
        ] {
            let mut bin = Bin::new(10, 10);
            let placed: Vec<Rect> = (0..4).filter_map(|_| bin.insert(5, 5, rule)).collect();
            assert_eq!(placed.len(), 4, "{rule:?}");
            assert_eq!(bin.insert(1, 1, rule), None, "{rule:?}");
            for (i, a) in placed.iter().enumerate() {
                assert!(placed[i + 1..].iter().all(|b| !a.overlaps(b)), "{rule:?}");
            }
        }
    }

    #[test]
    fn free_space_beside_a_tall_rectangle_is_used() {
        let mut bin = Bin::new(10, 10);
        bin.insert(4, 10, Rule::BestShortSideFit).unwrap();
        let wide = bin.insert(6, 3, Rule::BestShortSideFit).unwrap();
        assert_eq!((wide.x, wide.w), (4, 6));
        assert!(bin.insert(6, 7, Rule::BestShortSideFit).is_some());
        assert_eq!(bin.insert(1, 1, Rule::BestShortSideFit), None);
    }
}
