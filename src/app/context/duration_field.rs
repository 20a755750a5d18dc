//! The duration field, one for the whole editor: how a frame's duration in its own unit is
//! shown as a number to type, and which duration a typed number gives back. The inspector's
//! Duration and the timeline's duration of the selected frames both go through it, so the two
//! show the same number for the same frame.

use crate::model::FrameDuration;

/// Decimals a duration in seconds keeps when shown in milliseconds: six, one nanosecond.
const NANOSECOND_DECIMALS: usize = 6;

/// The number a field shows for `duration`: ticks, holds and milliseconds as they are; seconds
/// in milliseconds, exact to the nanosecond; "forever" as 0.
pub fn shown_number(duration: FrameDuration) -> f64 {
    match duration {
        FrameDuration::Ticks(v) | FrameDuration::Holds(v) | FrameDuration::Millis(v) => {
            f64::from(v)
        }
        FrameDuration::Seconds { nanos } => nanos as f64 / 1_000_000.0,
        FrameDuration::Forever => 0.0,
    }
}

/// The duration `typed` gives in the unit of `like` (whole ticks, holds and milliseconds;
/// seconds to the nanosecond). A duration "forever" takes milliseconds.
pub fn typed_duration(like: FrameDuration, typed: f64) -> FrameDuration {
    let whole = typed.round().clamp(0.0, f64::from(u32::MAX)) as u32;
    match like {
        FrameDuration::Ticks(_) => FrameDuration::Ticks(whole),
        FrameDuration::Holds(_) => FrameDuration::Holds(whole),
        FrameDuration::Seconds { .. } => FrameDuration::Seconds {
            nanos: (typed.max(0.0) * 1_000_000.0).round() as u64,
        },
        FrameDuration::Millis(_) | FrameDuration::Forever => FrameDuration::Millis(whole),
    }
}

/// The unit written after `value` in a field for durations like `like`: "1 tick", "2 ticks",
/// "1 hold", "40 ms" (seconds are shown in milliseconds).
pub fn unit_after(like: FrameDuration, value: f64) -> &'static str {
    let one = value == 1.0;
    match like {
        FrameDuration::Ticks(_) if one => "tick",
        FrameDuration::Ticks(_) => "ticks",
        FrameDuration::Holds(_) if one => "hold",
        FrameDuration::Holds(_) => "holds",
        FrameDuration::Seconds { .. } | FrameDuration::Millis(_) | FrameDuration::Forever => "ms",
    }
}

/// Adds the field for a duration like `like` holding `value` (a number from
/// [`shown_number`]), through [`super::number_field::add`]: it applies once, when left.
pub fn add(
    ui: &mut egui::Ui,
    enabled: bool,
    like: FrameDuration,
    value: &mut f64,
) -> egui::Response {
    let unit = unit_after(like, *value);
    let field = egui::DragValue::new(value)
        .range(0.0..=f64::from(u32::MAX))
        .suffix(format!(" {unit}"));
    let field = match like {
        // egui would round to what an f32 tells apart (166.667 for 166.6667 ms), and the
        // number typed back would not be the frame's: every nanosecond is written out.
        FrameDuration::Seconds { .. } => field
            .max_decimals(NANOSECOND_DECIMALS)
            .custom_formatter(|ms, _| super::duration_text::trim_float(ms, NANOSECOND_DECIMALS)),
        _ => field.fixed_decimals(0).speed(1.0),
    };
    super::number_field::add(ui, enabled, field)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_number_keeps_the_frames_unit_and_seconds_keep_their_nanoseconds() {
        assert_eq!(
            typed_duration(FrameDuration::Ticks(4), 7.0),
            FrameDuration::Ticks(7)
        );
        assert_eq!(
            typed_duration(FrameDuration::Millis(100), 250.0),
            FrameDuration::Millis(250)
        );
        assert_eq!(
            typed_duration(FrameDuration::Holds(1), 3.0),
            FrameDuration::Holds(3)
        );
        let seconds = FrameDuration::Seconds { nanos: 166_666_667 };
        assert_eq!(shown_number(seconds), 166.666667);
        assert_eq!(
            typed_duration(seconds, shown_number(seconds)),
            seconds,
            "the number shown gives the same duration back"
        );
        assert_eq!(
            typed_duration(FrameDuration::Seconds { nanos: 5 }, 180.0),
            FrameDuration::Seconds { nanos: 180_000_000 }
        );
    }

    #[test]
    fn the_unit_is_singular_for_one() {
        assert_eq!(unit_after(FrameDuration::Ticks(1), 1.0), "tick");
        assert_eq!(unit_after(FrameDuration::Ticks(1), 2.0), "ticks");
        assert_eq!(unit_after(FrameDuration::Holds(1), 1.0), "hold");
        assert_eq!(unit_after(FrameDuration::Holds(1), 0.0), "holds");
        assert_eq!(unit_after(FrameDuration::Seconds { nanos: 1 }, 1.0), "ms");
        assert_eq!(unit_after(FrameDuration::Millis(1), 1.0), "ms");
    }
}
