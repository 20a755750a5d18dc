//! Which sheet to pack onto: sheet widths around the square root of the area, each packed with
//! several sort orders and MaxRects placement rules, the smallest result kept, and its height
//! then pressed down as far as it still packs. Large inputs try fewer combinations, so packing
//! stays well under a second for ten thousand frames.

use super::Item;
use super::maxrects::{Bin, Rule};

/// Rectangles on one sheet: (index among the sizes, left, top), and the sheet's size.
pub(super) struct Layout {
    pub spots: Vec<(usize, u32, u32)>,
    pub size: (u32, u32),
}

/// Inputs larger than this try one order and one rule per sheet shape.
const MANY: usize = 2000;

/// How items are sorted before packing, largest first in each.
#[derive(Clone, Copy)]
enum Order {
    Area,
    LongerSide,
    Height,
    Width,
}

impl Order {
    /// The sort key; it tells every shape apart, so items of one shape are interchangeable
    /// and any subset packs the same whatever order it was gathered in.
    fn key(self, item: &Item) -> (u64, u64, u64) {
        let (w, h) = (item.w as u64, item.h as u64);
        match self {
            Order::Area => (w * h, w.max(h), w),
            Order::LongerSide => (w.max(h), w.min(h), w),
            Order::Height => (h, w, 0),
            Order::Width => (w, h, 0),
        }
    }

    fn sorted(self, items: &[Item]) -> Vec<Item> {
        let mut out = items.to_vec();
        out.sort_by(|a, b| {
            self.key(b)
                .cmp(&self.key(a))
                .then_with(|| a.index.cmp(&b.index))
        });
        out
    }
}

const ORDERS: [Order; 4] = [Order::Area, Order::LongerSide, Order::Height, Order::Width];
const RULES: [Rule; 4] = [
    Rule::BestShortSideFit,
    Rule::BestLongSideFit,
    Rule::BestAreaFit,
    Rule::BottomLeft,
];

/// Packs `items` (in this order) into one bin of `bin` size; `None` when one does not fit.
/// The layout's size is the bounds of what was placed, without the trailing gap.
fn pack_one(items: &[Item], bin: (u32, u32), rule: Rule, gap: u32) -> Option<Layout> {
    let mut sheet = Bin::new(bin.0, bin.1);
    let mut spots = Vec::with_capacity(items.len());
    let (mut right, mut bottom) = (0, 0);
    for item in items {
        let at = sheet.insert(item.w, item.h, rule)?;
        right = right.max(at.x + item.w - gap);
        bottom = bottom.max(at.y + item.h - gap);
        spots.push((item.index, at.x, at.y));
    }
    Some(Layout {
        spots,
        size: (right, bottom),
    })
}

/// The area a sheet of this size costs (rounded up to powers of two when asked).
fn cost(size: (u32, u32), power_of_two: bool) -> u64 {
    let (w, h) = if power_of_two {
        (
            size.0.max(1).next_power_of_two(),
            size.1.max(1).next_power_of_two(),
        )
    } else {
        size
    };
    w as u64 * h as u64
}

/// True when the sides are within 2:1 of each other, or the items force them apart (one is
/// longer than twice the other side).
fn near_square(size: (u32, u32), items: &[Item], gap: u32) -> bool {
    let (w, h) = size;
    let widest = items.iter().map(|i| i.w - gap).max().unwrap_or(0);
    let tallest = items.iter().map(|i| i.h - gap).max().unwrap_or(0);
    (w <= 2 * h || widest > 2 * h) && (h <= 2 * w || tallest > 2 * w)
}

/// The smallest sheet, at most `bin_side` (with the gap) a side, that holds every item; `None`
/// when they need more than one.
pub(super) fn smallest_sheet(
    items: &[Item],
    bin_side: u32,
    gap: u32,
    power_of_two: bool,
) -> Option<Layout> {
    if items.is_empty() {
        return Some(Layout {
            spots: Vec::new(),
            size: (0, 0),
        });
    }
    let area: u64 = items.iter().map(|i| i.w as u64 * i.h as u64).sum();
    if area > bin_side as u64 * bin_side as u64 {
        return None;
    }
    let widest = items.iter().map(|i| i.w).max().unwrap_or(1);
    let tallest = items.iter().map(|i| i.h).max().unwrap_or(1);
    let many = items.len() > MANY;
    let (orders, rules): (&[Order], &[Rule]) = if many {
        (&ORDERS[..1], &RULES[..1])
    } else {
        (&ORDERS, &RULES)
    };
    let sorted: Vec<Vec<Item>> = orders.iter().map(|o| o.sorted(items)).collect();
    let side = (area as f64).sqrt();
    let factors: &[f64] = if many {
        &[1.0, 1.1, 1.25]
    } else {
        &[0.8, 0.9, 1.0, 1.05, 1.1, 1.2, 1.35, 1.5]
    };
    let mut widths: Vec<u32> = factors
        .iter()
        .map(|f| {
            let w = (side * f).ceil() as u32;
            if power_of_two {
                (w.saturating_sub(gap)).max(1).next_power_of_two() + gap
            } else {
                w
            }
        })
        .map(|w| w.clamp(widest, bin_side))
        .collect();
    widths.push(bin_side);
    widths.sort_unstable();
    widths.dedup();
    // (cost, squareness, layout, items in order, rule, bin width)
    let mut best: Option<(u64, u32, Layout, usize, Rule, u32)> = None;
    let mut fallback: Option<(u64, Layout)> = None;
    for &width in &widths {
        let height = bin_side.min((2 * width).max(tallest));
        for (o, items_in_order) in sorted.iter().enumerate() {
            for &rule in rules {
                let Some(layout) = pack_one(items_in_order, (width, height), rule, gap) else {
                    continue;
                };
                let c = cost(layout.size, power_of_two);
                if !near_square(layout.size, items, gap) {
                    if fallback.as_ref().is_none_or(|(f, _)| c < *f) {
                        fallback = Some((c, layout));
                    }
                    continue;
                }
                let squareness = layout.size.0.abs_diff(layout.size.1);
                if best.as_ref().is_none_or(|b| (c, squareness) < (b.0, b.1)) {
                    best = Some((c, squareness, layout, o, rule, width));
                }
            }
        }
    }
    let Some((c, _, layout, o, rule, width)) = best else {
        return fallback.map(|(_, layout)| layout);
    };
    Some(pressed_down(
        &sorted[o],
        layout,
        c,
        (width, rule),
        gap,
        power_of_two,
        items,
    ))
}

/// The best layout packed again into ever lower bins of its width (halving the gap between
/// what failed and what fit), kept while it gets smaller and stays near square.
fn pressed_down(
    items_in_order: &[Item],
    mut layout: Layout,
    mut best_cost: u64,
    (width, rule): (u32, Rule),
    gap: u32,
    power_of_two: bool,
    items: &[Item],
) -> Layout {
    let area: u64 = items.iter().map(|i| i.w as u64 * i.h as u64).sum();
    let mut low = (area / width.max(1) as u64) as u32;
    let mut high = layout.size.1 + gap;
    while low + 1 < high {
        let mid = low + (high - low) / 2;
        match pack_one(items_in_order, (width, mid), rule, gap) {
            Some(tighter) => {
                high = mid;
                let c = cost(tighter.size, power_of_two);
                if c <= best_cost && near_square(tighter.size, items, gap) {
                    best_cost = c;
                    layout = tighter;
                }
            }
            None => low = mid,
        }
    }
    layout
}

/// True when some order and rule packs every item onto one bin of the largest size (then
/// [`smallest_sheet`], which tries the same packs among others, finds one sheet too).
pub(super) fn fits_one(items: &[Item], bin_side: u32) -> bool {
    let area: u64 = items.iter().map(|i| i.w as u64 * i.h as u64).sum();
    if area > bin_side as u64 * bin_side as u64 {
        return false;
    }
    let (orders, rules): (&[Order], &[Rule]) = if items.len() > MANY {
        (&ORDERS[..1], &RULES[..1])
    } else {
        (&ORDERS, &RULES)
    };
    orders.iter().any(|order| {
        let sorted = order.sorted(items);
        rules
            .iter()
            .any(|&rule| pack_one(&sorted, (bin_side, bin_side), rule, 0).is_some())
    })
}

/// Items that need several sheets: sheets of the largest size filled in turn (each item on
/// the first that takes it), then the last one packed again as small as it goes.
pub(super) fn several_sheets(
    items: &[Item],
    bin_side: u32,
    gap: u32,
    power_of_two: bool,
) -> Vec<Layout> {
    let sorted = Order::Area.sorted(items);
    let rule = Rule::BestShortSideFit;
    let mut bins: Vec<(Bin, Vec<Item>, Layout)> = Vec::new();
    for item in sorted {
        let mut placed = false;
        for (bin, held, layout) in &mut bins {
            if let Some(at) = bin.insert(item.w, item.h, rule) {
                layout.spots.push((item.index, at.x, at.y));
                layout.size.0 = layout.size.0.max(at.x + item.w - gap);
                layout.size.1 = layout.size.1.max(at.y + item.h - gap);
                held.push(item);
                placed = true;
                break;
            }
        }
        if !placed {
            let mut bin = Bin::new(bin_side, bin_side);
            let at = bin
                .insert(item.w, item.h, rule)
                .unwrap_or(super::maxrects::Rect {
                    x: 0,
                    y: 0,
                    w: item.w,
                    h: item.h,
                });
            let layout = Layout {
                spots: vec![(item.index, at.x, at.y)],
                size: (item.w - gap, item.h - gap),
            };
            bins.push((bin, vec![item], layout));
        }
    }
    let last = bins.len().saturating_sub(1);
    bins.into_iter()
        .enumerate()
        .map(|(k, (_, held, layout))| {
            if k != last {
                return layout;
            }
            match smallest_sheet(&held, bin_side, gap, power_of_two) {
                Some(smaller)
                    if cost(smaller.size, power_of_two) <= cost(layout.size, power_of_two) =>
                {
                    smaller
                }
                _ => layout,
            }
        })
        .collect()
}
