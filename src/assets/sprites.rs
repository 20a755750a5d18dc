//! Finding separate sprites on a sheet that is not a grid: connected opaque regions, joined to
//! the parts a gap of at most a few pixels parts them from (a shadow, a weapon, a strand of
//! hair: small beside the sprite, or halves of a usual frame), specks dropped, numbered row by
//! row. The list found can then be edited (merge, split, drop,
//! reorder) before it is imported; the cells go into a document through
//! [`crate::edit::import::ImportFrames`] like the grid's.
//!
//! How: the opaque pixels of each row form runs; a run joins the runs of the row above that
//! touch it (union-find over runs, so the picture is read once), and the runs of its own row
//! and of the rows above within the gap are noted; once the regions are known, the noted
//! neighbours join where one is a part of the other (see [`SpriteOptions::gap`]). Pixels are compared, never rectangles: sprites packed so that their rectangles
//! overlap, but whose pixels stay apart, are separate sprites. Each sprite's rectangle is
//! exactly the bounds of its opaque pixels.

use crate::model::PixelRect;
use image::RgbaImage;

/// How sprites are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpriteOptions {
    /// Parts of one sprite may be this many transparent pixels apart and still be joined (0:
    /// only touching pixels, diagonals included, are one sprite): a region joins a neighbour
    /// that near when it is a part of it (its box under a quarter of the other's), or when
    /// both are at most two thirds of the usual region and together no more than one and a
    /// half of it. Regions of like size, a frame each, stay apart however near.
    pub gap: u32,
    /// A region narrower and shorter than this many pixels is a speck and dropped (0 or 1
    /// keeps every pixel).
    pub min_size: u32,
}

impl SpriteOptions {
    /// The defaults: parts one transparent pixel apart are joined; regions smaller than
    /// 3 × 3 are dropped. A part further away is rarer than a frame that near (packers leave
    /// 0-2 pixels between frames); a larger gap is a choice for sheets drawn apart.
    pub const DEFAULT: SpriteOptions = SpriteOptions {
        gap: 1,
        min_size: 3,
    };
}

impl Default for SpriteOptions {
    fn default() -> SpriteOptions {
        SpriteOptions::DEFAULT
    }
}

/// More sprites than any sheet is cut into (as with a grid, see
/// [`super::import::MAX_CELLS`]); a sheet of noise stops here.
pub const MAX_SPRITES: usize = 65_536;

/// An inclusive box while regions are collected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bounds {
    left: u32,
    top: u32,
    right: u32,
    bottom: u32,
}

impl Bounds {
    fn union(self, other: Bounds) -> Bounds {
        Bounds {
            left: self.left.min(other.left),
            top: self.top.min(other.top),
            right: self.right.max(other.right),
            bottom: self.bottom.max(other.bottom),
        }
    }

    fn rect(self) -> PixelRect {
        PixelRect {
            x: self.left as i32,
            y: self.top as i32,
            width: self.right - self.left + 1,
            height: self.bottom - self.top + 1,
        }
    }

    fn of(rect: PixelRect) -> Bounds {
        Bounds {
            left: rect.x.max(0) as u32,
            top: rect.y.max(0) as u32,
            right: (rect.x.max(0) as u32 + rect.width.max(1) - 1),
            bottom: (rect.y.max(0) as u32 + rect.height.max(1) - 1),
        }
    }
}

/// Union-find with path halving.
struct Roots(Vec<u32>);

impl Roots {
    fn find(&mut self, mut i: u32) -> u32 {
        while self.0[i as usize] != i {
            let parent = self.0[i as usize];
            self.0[i as usize] = self.0[parent as usize];
            i = parent;
        }
        i
    }

    fn join(&mut self, a: u32, b: u32) -> bool {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        let (low, high) = if a < b { (a, b) } else { (b, a) };
        self.0[high as usize] = low;
        true
    }
}

/// The sprites on `sheet` within `area` (the whole sheet when `None`), row by row, each
/// rectangle the bounds of its opaque pixels (alpha above 0). At most [`MAX_SPRITES`].
pub fn find_sprites(sheet: &RgbaImage, options: SpriteOptions) -> Vec<PixelRect> {
    find_in(sheet, None, options)
}

fn find_in(sheet: &RgbaImage, area: Option<Bounds>, options: SpriteOptions) -> Vec<PixelRect> {
    let (width, height) = sheet.dimensions();
    if width == 0 || height == 0 {
        return Vec::new();
    }
    let area = area.unwrap_or(Bounds {
        left: 0,
        top: 0,
        right: width - 1,
        bottom: height - 1,
    });
    let mut boxes = connected_regions(sheet, area, options.gap);
    boxes.retain(|b| {
        let r = b.rect();
        r.width >= options.min_size || r.height >= options.min_size
    });
    boxes.truncate(MAX_SPRITES);
    let mut rects: Vec<PixelRect> = boxes.into_iter().map(Bounds::rect).collect();
    sort_rows(&mut rects);
    rects
}

/// The bounds of each sprite inside `area`: the 8-connected regions of opaque pixels, and a
/// region joined to another whose pixels come within `gap` transparent pixels of it
/// (Chebyshev distance `gap + 1`) when it is the smaller by far (its box under a quarter of
/// the other's): a shadow, a sword, a strand of hair joins its body, but two figures packed a
/// pixel apart stay two. Only pixels are compared, never rectangles: two sprites packed so that
/// their rectangles overlap (an L beside a bush) stay apart as long as their pixels do.
fn connected_regions(sheet: &RgbaImage, area: Bounds, gap: u32) -> Vec<Bounds> {
    let width = sheet.width() as usize;
    let raw = sheet.as_raw();
    // Pixels this far apart (or nearer) on both axes join.
    let reach = gap as usize + 1;
    // The runs of opaque pixels, (left, right inclusive, id), of the last `reach` rows, oldest
    // first; rows further up are out of reach.
    let rows_kept = reach.min(area.bottom as usize - area.top as usize + 1);
    let mut above: std::collections::VecDeque<Vec<(u32, u32, u32)>> =
        std::collections::VecDeque::with_capacity(rows_kept + 1);
    let mut cursors: Vec<usize> = vec![0; rows_kept];
    let mut spare: Vec<(u32, u32, u32)> = Vec::new();
    let mut roots = Roots(Vec::new());
    let mut bounds: Vec<Bounds> = Vec::new();
    // Runs of different regions within the gap of each other, joined once the regions are known.
    let mut near: Vec<(u32, u32)> = Vec::new();
    for y in area.top..=area.bottom {
        let mut current = std::mem::take(&mut spare);
        cursors.iter_mut().for_each(|c| *c = 0);
        let row = &raw[(y as usize * width) * 4..(y as usize * width + width) * 4];
        let mut x = area.left as usize;
        let end = area.right as usize;
        while x <= end {
            if row[x * 4 + 3] == 0 {
                x += 1;
                continue;
            }
            let left = x;
            while x <= end && row[x * 4 + 3] != 0 {
                x += 1;
            }
            let right = x - 1;
            let id = roots.0.len() as u32;
            roots.0.push(id);
            bounds.push(Bounds {
                left: left as u32,
                top: y,
                right: right as u32,
                bottom: y,
            });
            // The run before on this row, when no more than `gap` pixels part them (never
            // touching: a run ends at a transparent pixel).
            if let Some(&(_, before_right, before_id)) = current.last()
                && before_right as usize + reach >= left
            {
                near.push((id, before_id));
            }
            // Runs of the rows above reaching [left - reach, right + reach]: those of the row
            // just above that touch this one (diagonals included) are one region with it, the
            // others near it. Runs of a row come left to right, so each row's cursor only moves
            // forward.
            let rows_above = above.len();
            for (distance, (runs, cursor)) in above.iter().zip(cursors.iter_mut()).enumerate() {
                let just_above = distance + 1 == rows_above;
                while *cursor < runs.len() && (runs[*cursor].1 as usize) + reach < left {
                    *cursor += 1;
                }
                let mut k = *cursor;
                while k < runs.len() && (runs[k].0 as usize) <= right + reach {
                    let (other_left, other_right, other) = runs[k];
                    if just_above
                        && other_right as usize + 1 >= left
                        && other_left as usize <= right + 1
                    {
                        roots.join(id, other);
                    } else {
                        near.push((id, other));
                    }
                    k += 1;
                }
            }
            current.push((left as u32, right as u32, id));
        }
        above.push_back(current);
        if above.len() > rows_kept {
            // Out of reach of the next row; its vector is reused.
            spare = above.pop_front().unwrap_or_default();
            spare.clear();
        }
    }
    join_small_parts(&mut roots, &mut bounds, &near);
    collect(&mut roots, &bounds)
}

/// Joins the regions of each pair of runs in `near` when one region's box is under a quarter
/// of the other's (a part beside its body); `bounds` of a root become its region's box.
fn join_small_parts(roots: &mut Roots, bounds: &mut [Bounds], near: &[(u32, u32)]) {
    if near.is_empty() {
        return;
    }
    for i in 0..bounds.len() {
        let root = roots.find(i as u32) as usize;
        if root != i {
            bounds[root] = bounds[root].union(bounds[i]);
        }
    }
    let area = |b: Bounds| (b.right - b.left + 1) as u64 * (b.bottom - b.top + 1) as u64;
    // The median region's box, of regions larger than specks: what one frame covers, mostly.
    let mut areas: Vec<u64> = (0..bounds.len())
        .filter(|&i| roots.find(i as u32) as usize == i)
        .map(|i| area(bounds[i]))
        .filter(|&a| a > 9)
        .collect();
    areas.sort_unstable();
    let typical = areas.get(areas.len() / 2).copied().unwrap_or(0);
    // A part beside a part of like size joins once the other has joined its body: again
    // until nothing joins.
    let mut joined = true;
    while joined {
        joined = false;
        for &(a, b) in near {
            let (a, b) = (roots.find(a), roots.find(b));
            if a == b {
                continue;
            }
            let (box_a, box_b) = (bounds[a as usize], bounds[b as usize]);
            let (small, large) = (area(box_a).min(area(box_b)), area(box_a).max(area(box_b)));
            if small * 4 < large
                || (large * 3 <= typical * 2 && area(box_a.union(box_b)) * 2 <= typical * 3)
            {
                roots.join(a, b);
                let root = roots.find(a) as usize;
                bounds[root] = box_a.union(box_b);
                joined = true;
            }
        }
    }
}

/// The union of the bounds of each set of `roots`.
fn collect(roots: &mut Roots, bounds: &[Bounds]) -> Vec<Bounds> {
    let mut slot: Vec<u32> = vec![u32::MAX; bounds.len()];
    let mut out: Vec<Bounds> = Vec::new();
    for (i, b) in bounds.iter().enumerate() {
        let root = roots.find(i as u32) as usize;
        if slot[root] == u32::MAX {
            slot[root] = out.len() as u32;
            out.push(*b);
        } else {
            let at = slot[root] as usize;
            out[at] = out[at].union(*b);
        }
    }
    out
}

/// Orders rectangles row by row: a row is the rectangles whose vertical extents overlap (a
/// chain of overlaps counts), rows from the top, left to right inside a row.
pub fn sort_rows(rects: &mut [PixelRect]) {
    rects.sort_by_key(|r| (r.y, r.x));
    let mut start = 0;
    while start < rects.len() {
        let mut bottom = rects[start].y as i64 + rects[start].height as i64;
        let mut end = start + 1;
        while end < rects.len() && (rects[end].y as i64) < bottom {
            bottom = bottom.max(rects[end].y as i64 + rects[end].height as i64);
            end += 1;
        }
        rects[start..end].sort_by_key(|r| (r.x, r.y));
        start = end;
    }
}

/// The smallest rectangle holding all of `rects` (`None` for none).
pub fn union(rects: &[PixelRect]) -> Option<PixelRect> {
    rects
        .iter()
        .map(|r| Bounds::of(*r))
        .reduce(Bounds::union)
        .map(Bounds::rect)
}

/// The sprites found on a sheet, as the Import window edits them before importing: merge,
/// split, drop, reorder. Every edit refuses bad indices with a plain sentence and changes
/// nothing then.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FoundSprites {
    /// The rectangles, in frame order.
    pub rects: Vec<PixelRect>,
}

impl FoundSprites {
    /// The sprites of `sheet`, found with `options`.
    pub fn find(sheet: &RgbaImage, options: SpriteOptions) -> FoundSprites {
        FoundSprites {
            rects: find_sprites(sheet, options),
        }
    }

    fn check(&self, indices: &[usize]) -> Result<(), String> {
        if indices.is_empty() {
            return Err("no sprite is selected".to_string());
        }
        // Sprites are named by the numbers the preview draws on them, from 0.
        match (
            indices.iter().find(|&&i| i >= self.rects.len()),
            self.rects.len(),
        ) {
            (Some(bad), 0) => Err(format!("there is no sprite {bad}: none was found")),
            (Some(bad), len) => Err(format!(
                "there is no sprite {bad}: they are numbered 0 to {}",
                len - 1
            )),
            (None, _) => Ok(()),
        }
    }

    /// The sprite under sheet pixel (`x`, `y`), the last one when rectangles overlap.
    pub fn at(&self, x: i32, y: i32) -> Option<usize> {
        self.rects.iter().rposition(|r| {
            x >= r.x
                && y >= r.y
                && (x as i64) < r.x as i64 + r.width as i64
                && (y as i64) < r.y as i64 + r.height as i64
        })
    }

    /// Joins `indices` into one sprite (their common rectangle), at the place of the first of
    /// them; returns its index.
    pub fn merge(&mut self, indices: &[usize]) -> Result<usize, String> {
        self.check(indices)?;
        let mut sorted = indices.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() < 2 {
            return Err("merging needs two sprites or more".to_string());
        }
        let parts: Vec<PixelRect> = sorted.iter().map(|&i| self.rects[i]).collect();
        let joined = union(&parts).expect("two or more");
        for &i in sorted[1..].iter().rev() {
            self.rects.remove(i);
        }
        self.rects[sorted[0]] = joined;
        Ok(sorted[0])
    }

    /// Splits sprite `index` into the parts the gap had joined (its 8-connected regions,
    /// none dropped), in its place, row by row; returns their indices.
    pub fn split(
        &mut self,
        sheet: &RgbaImage,
        index: usize,
    ) -> Result<std::ops::Range<usize>, String> {
        self.check(&[index])?;
        let rect = self.rects[index];
        let (width, height) = sheet.dimensions();
        if rect.x < 0
            || rect.y < 0
            || rect.x as u64 + rect.width as u64 > width as u64
            || rect.y as u64 + rect.height as u64 > height as u64
            || rect.width == 0
            || rect.height == 0
        {
            return Err(format!("sprite {index} is not inside the sheet"));
        }
        let parts = find_in(
            sheet,
            Some(Bounds::of(rect)),
            SpriteOptions {
                gap: 0,
                min_size: 0,
            },
        );
        if parts.len() < 2 {
            return Err(format!(
                "sprite {index} is one piece of touching pixels; it cannot be split"
            ));
        }
        let count = parts.len();
        self.rects.splice(index..=index, parts);
        Ok(index..index + count)
    }

    /// Removes `indices`.
    pub fn drop(&mut self, indices: &[usize]) -> Result<(), String> {
        self.check(indices)?;
        let mut sorted = indices.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        for &i in sorted.iter().rev() {
            self.rects.remove(i);
        }
        Ok(())
    }

    /// Moves sprite `from` to position `to` (the others shift).
    pub fn move_to(&mut self, from: usize, to: usize) -> Result<(), String> {
        self.check(&[from])?;
        if to >= self.rects.len() {
            return Err(format!(
                "there is no place {} (there are {} sprites)",
                to + 1,
                self.rects.len()
            ));
        }
        let rect = self.rects.remove(from);
        self.rects.insert(to, rect);
        Ok(())
    }

    /// Puts the sprites back in row-by-row order.
    pub fn sort_rows(&mut self) {
        sort_rows(&mut self.rects);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    fn fill(sheet: &mut RgbaImage, x: u32, y: u32, w: u32, h: u32) {
        for yy in y..y + h {
            for xx in x..x + w {
                sheet.put_pixel(xx, yy, Rgba([9, 9, 9, 255]));
            }
        }
    }

    fn rect(x: i32, y: i32, width: u32, height: u32) -> PixelRect {
        PixelRect {
            x,
            y,
            width,
            height,
        }
    }

    #[test]
    fn parts_within_the_gap_join_and_specks_drop() {
        let mut sheet = RgbaImage::new(60, 40);
        fill(&mut sheet, 2, 2, 10, 10);
        // A shadow one transparent pixel below: joined at the default gap.
        fill(&mut sheet, 2, 13, 10, 2);
        // A sprite further right, and a speck.
        fill(&mut sheet, 30, 5, 8, 12);
        sheet.put_pixel(50, 30, Rgba([1, 1, 1, 255]));
        let found = find_sprites(&sheet, SpriteOptions::DEFAULT);
        assert_eq!(found, vec![rect(2, 2, 10, 13), rect(30, 5, 8, 12)]);
        let tight = find_sprites(
            &sheet,
            SpriteOptions {
                gap: 0,
                min_size: 0,
            },
        );
        assert_eq!(tight.len(), 4);
    }

    #[test]
    fn diagonal_pixels_are_one_sprite_and_rows_read_left_to_right() {
        let mut sheet = RgbaImage::new(40, 40);
        sheet.put_pixel(20, 2, Rgba([1, 1, 1, 255]));
        sheet.put_pixel(21, 3, Rgba([1, 1, 1, 255]));
        fill(&mut sheet, 2, 3, 5, 5); // overlaps the first vertically: same row, left of it
        fill(&mut sheet, 2, 20, 5, 5);
        let found = find_sprites(
            &sheet,
            SpriteOptions {
                gap: 0,
                min_size: 0,
            },
        );
        assert_eq!(
            found,
            vec![rect(2, 3, 5, 5), rect(20, 2, 2, 2), rect(2, 20, 5, 5)]
        );
    }

    #[test]
    fn merge_split_drop_and_move_edit_the_list() {
        let mut sheet = RgbaImage::new(40, 20);
        // A body with a small part one pixel beside it (joined at the default gap), and
        // another body.
        fill(&mut sheet, 0, 0, 4, 4);
        fill(&mut sheet, 5, 0, 1, 2);
        fill(&mut sheet, 20, 0, 4, 4);
        let mut found = FoundSprites::find(&sheet, SpriteOptions::DEFAULT);
        assert_eq!(found.rects, vec![rect(0, 0, 6, 4), rect(20, 0, 4, 4)]);
        assert_eq!(found.split(&sheet, 0), Ok(0..2));
        assert_eq!(found.rects[1], rect(5, 0, 1, 2));
        assert!(found.split(&sheet, 1).is_err(), "one piece");
        found.move_to(2, 0).unwrap();
        assert_eq!(found.rects[0], rect(20, 0, 4, 4));
        assert_eq!(found.merge(&[1, 2]), Ok(1));
        assert_eq!(found.rects, vec![rect(20, 0, 4, 4), rect(0, 0, 6, 4)]);
        assert_eq!(found.at(21, 1), Some(0));
        assert!(found.drop(&[5]).is_err());
        assert!(found.merge(&[]).is_err());
        found.drop(&[0]).unwrap();
        assert_eq!(found.rects.len(), 1);
    }

    #[test]
    fn figures_of_like_size_a_pixel_apart_stay_apart_and_their_parts_join_them() {
        // Two 10 x 16 figures one transparent pixel apart, as a packer with 1 px of padding
        // leaves them; the first has a sword one pixel above it, the second a shadow below.
        let mut sheet = RgbaImage::new(60, 40);
        fill(&mut sheet, 2, 5, 10, 16);
        fill(&mut sheet, 13, 5, 10, 16);
        fill(&mut sheet, 5, 1, 2, 3);
        fill(&mut sheet, 14, 22, 8, 2);
        // A third figure on its own, to make the usual size plain.
        fill(&mut sheet, 40, 5, 10, 16);
        let found = find_sprites(&sheet, SpriteOptions::DEFAULT);
        assert_eq!(
            found,
            vec![rect(2, 1, 10, 20), rect(13, 5, 10, 19), rect(40, 5, 10, 16)]
        );
    }

    #[test]
    fn refusals_name_sprites_by_the_numbers_drawn_on_them() {
        let mut sheet = RgbaImage::new(40, 20);
        fill(&mut sheet, 0, 0, 4, 4);
        fill(&mut sheet, 20, 0, 4, 4);
        let mut found = FoundSprites::find(&sheet, SpriteOptions::DEFAULT);
        assert_eq!(found.rects.len(), 2);
        // The preview numbers sprites from 0, and "Sprite 0 selected" is said above.
        assert_eq!(
            found.split(&sheet, 0),
            Err("sprite 0 is one piece of touching pixels; it cannot be split".to_string())
        );
        assert_eq!(
            found.drop(&[2]),
            Err("there is no sprite 2: they are numbered 0 to 1".to_string())
        );
    }
}
