//! Durations as the panels write them: a direction's total ("1.25 s", "8 ticks"), milliseconds
//! and plain numbers with no trailing zeros.

use crate::model::{Frame, FrameDuration};

/// The total length of a direction for display: "1.25 s", or "forever" when a frame never ends.
pub fn total_duration_text(frames: &[&Frame], frame_rate: u32) -> String {
    let mut millis = 0.0;
    for frame in frames {
        match frame.duration.exact(frame_rate) {
            Some(t) => millis += t.as_millis_f64(),
            None => return "∞".to_string(),
        }
    }
    format_millis(millis)
}

/// The sum of the frames' durations in their native unit, when they all share one.
pub fn total_native(frames: &[&Frame]) -> Option<String> {
    let mut total: u64 = 0;
    let mut unit = None;
    for frame in frames {
        let (value, name) = match frame.duration {
            FrameDuration::Ticks(t) => (t as u64, "tick"),
            FrameDuration::Millis(m) => (m as u64, "ms"),
            FrameDuration::Holds(h) => (h.max(1) as u64, "hold"),
            _ => return None,
        };
        if unit.is_some_and(|u| u != name) {
            return None;
        }
        unit = Some(name);
        total += value;
    }
    // "1 tick", "8 ticks", "40 ms".
    unit.map(|u| match u {
        "ms" => format!("{total} ms"),
        noun => crate::text::count(total as usize, noun),
    })
}

/// Milliseconds as a short text: "850 ms", "2.4 s".
pub fn format_millis(millis: f64) -> String {
    if millis < 1000.0 {
        format!("{} ms", trim_float(millis, 1))
    } else {
        format!("{} s", trim_float(millis / 1000.0, 3))
    }
}

/// A float with at most `decimals` decimals and no trailing zeros.
pub fn trim_float(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}
