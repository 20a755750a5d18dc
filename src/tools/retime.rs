//! Retiming arithmetic: exact fractions, the three ways to ask for new durations, and the
//! rounding that spreads what whole units cannot hold so a run of frames never drifts.
//!
//! The rule: the exact new lengths `t₁, t₂, …` (in the document's unit) are summed, and frame
//! `i` ends at the whole unit nearest to `t₁ + … + tᵢ` (halves round up). So the running
//! error is at most half a unit at every frame, the total is the nearest whole number to the
//! exact total (exact whenever that is whole), and no frame is off by a whole unit or more.
//! When every `tᵢ` is at least one unit, every rounded frame is too (the cumulative ends are
//! at least one apart), so no frame is rounded down to nothing.

use std::fmt;

/// An exact non-negative fraction, as the user typed it (`1.5`, `2/3`, `12`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratio {
    /// The numerator.
    pub numerator: u128,
    /// The denominator; never zero.
    pub denominator: u128,
}

impl Ratio {
    /// `n / 1`.
    pub fn whole(n: u64) -> Ratio {
        Ratio {
            numerator: n as u128,
            denominator: 1,
        }
    }

    /// `numerator / denominator`, or `None` for a zero denominator.
    pub fn new(numerator: u128, denominator: u128) -> Option<Ratio> {
        (denominator > 0).then_some(Ratio {
            numerator,
            denominator,
        })
    }

    /// Parses a decimal (`1.5`, `0.25`), a fraction (`2/3`) or a whole number, refusing zero,
    /// negative numbers and anything else with a plain sentence.
    pub fn parse_positive(text: &str) -> Result<Ratio, String> {
        let text = text.trim();
        let bad = || format!("\"{text}\" is not a number more than 0 (such as 2, 1.5 or 2/3)");
        if text.starts_with('-') {
            return Err(format!("\"{text}\" is negative; it must be more than 0"));
        }
        let ratio = match text.split_once('/') {
            Some((n, d)) => {
                let n = parse_decimal(n).ok_or_else(bad)?;
                let d = parse_decimal(d).ok_or_else(bad)?;
                if d.numerator == 0 {
                    return Err(format!("\"{text}\" divides by zero"));
                }
                Ratio {
                    numerator: n.numerator.checked_mul(d.denominator).ok_or_else(bad)?,
                    denominator: n.denominator.checked_mul(d.numerator).ok_or_else(bad)?,
                }
            }
            None => parse_decimal(text).ok_or_else(bad)?,
        };
        if ratio.numerator == 0 {
            return Err(format!("\"{text}\" is zero; it must be more than 0"));
        }
        Ok(ratio)
    }

    /// The value as a float, for display.
    pub fn as_f64(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }
}

impl fmt::Display for Ratio {
    /// As the user would type it: a whole number (`12`), a decimal when it has at most three
    /// decimals (`1.5`), else a fraction in lowest terms (`2/3`), or three decimals when
    /// that fraction is long (`516.667`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let common = gcd(self.numerator, self.denominator).max(1);
        let (n, d) = (self.numerator / common, self.denominator / common);
        let short_fraction = 1000 % d != 0 && d <= 1000 && n < 1_000_000;
        if d == 1 {
            write!(f, "{n}")
        } else if short_fraction {
            write!(f, "{n}/{d}")
        } else {
            let text = format!("{:.3}", n as f64 / d as f64);
            f.write_str(text.trim_end_matches('0').trim_end_matches('.'))
        }
    }
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// `12`, `1.5`, `.5`: at most 18 digits after the point, so the value stays exact.
fn parse_decimal(text: &str) -> Option<Ratio> {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty() && fraction.is_empty()
        || fraction.len() > 18
        || !whole
            .bytes()
            .chain(fraction.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let digits = format!("{whole}{fraction}");
    let numerator: u128 = digits.parse().ok()?;
    Some(Ratio {
        numerator,
        denominator: 10u128.pow(fraction.len() as u32),
    })
}

/// What new durations the user asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetimeChange {
    /// Every duration times this factor: the ratios between frames are kept.
    Scale(Ratio),
    /// The run lasts this many milliseconds in all, shared in proportion to the old durations.
    TotalMillis(Ratio),
    /// Every frame lasts one frame at this many frames per second.
    FramesPerSecond(Ratio),
    /// Every frame lasts this many of the document's units (ticks, milliseconds, holds).
    UnitsPerFrame(u32),
}

impl RetimeChange {
    /// The exact new lengths of frames whose old lengths are `old` (whole units, each > 0),
    /// with `units_per_second` units in a second: numerators over one common denominator.
    /// `None` when the numbers are too large to compute exactly.
    pub fn targets(self, old: &[u64], units_per_second: u64) -> Option<(Vec<u128>, u128)> {
        let per_second = units_per_second as u128;
        match self {
            RetimeChange::Scale(k) => old
                .iter()
                .map(|&o| (o as u128).checked_mul(k.numerator))
                .collect::<Option<Vec<_>>>()
                .map(|n| (n, k.denominator)),
            RetimeChange::TotalMillis(total) => {
                let sum: u128 = old.iter().map(|&o| o as u128).sum();
                let scale = total.numerator.checked_mul(per_second)?;
                let denominator = total.denominator.checked_mul(1000)?.checked_mul(sum)?;
                let numerators = old
                    .iter()
                    .map(|&o| (o as u128).checked_mul(scale))
                    .collect::<Option<Vec<_>>>()?;
                (denominator > 0).then_some((numerators, denominator))
            }
            RetimeChange::FramesPerSecond(fps) => {
                let each = per_second.checked_mul(fps.denominator)?;
                Some((vec![each; old.len()], fps.numerator))
            }
            RetimeChange::UnitsPerFrame(units) => Some((vec![units as u128; old.len()], 1)),
        }
    }

    /// A short description for labels and reports ("×1.5", "1200 ms in all", "12 fps").
    pub fn describe(self) -> String {
        match self {
            RetimeChange::Scale(k) => format!("×{k}"),
            RetimeChange::TotalMillis(ms) => format!("{ms} ms in all"),
            RetimeChange::FramesPerSecond(fps) => format!("{fps} fps"),
            RetimeChange::UnitsPerFrame(units) => format!("{units} units a frame"),
        }
    }
}

/// Whole-unit durations for exact lengths `numerators[i] / denominator`, by cumulative
/// rounding (see the module documentation): each frame's error is under one unit and the
/// running error at most half a unit. `denominator` must not be zero.
pub fn spread(numerators: &[u128], denominator: u128) -> Vec<u128> {
    let mut exact_end = 0u128;
    let mut rounded_end = 0u128;
    numerators
        .iter()
        .map(|&n| {
            exact_end += n;
            // Nearest whole unit, halves up: floor((2·end + d) / 2d).
            let end = (2 * exact_end + denominator) / (2 * denominator);
            let length = end - rounded_end;
            rounded_end = end;
            length
        })
        .collect()
}

/// `|rounded - numerator/denominator|` in units.
pub fn error_units(rounded: u128, numerator: u128, denominator: u128) -> f64 {
    let scaled = rounded * denominator;
    let difference = scaled.abs_diff(numerator);
    difference as f64 / denominator as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirds_of_a_tick_never_drift() {
        // 7 fps at 60 ticks a second: 8 4/7 ticks each.
        let (n, d) = RetimeChange::FramesPerSecond(Ratio::whole(7))
            .targets(&[1; 14], 60)
            .unwrap();
        let lengths = spread(&n, d);
        assert_eq!(lengths.iter().sum::<u128>(), 120, "two seconds exactly");
        let mut exact = 0.0;
        let mut rounded = 0.0;
        for (length, numerator) in lengths.iter().zip(&n) {
            exact += *numerator as f64 / d as f64;
            rounded += *length as f64;
            assert!((exact - rounded).abs() <= 0.5 + 1e-9);
            assert!(error_units(*length, *numerator, d) < 1.0);
        }
    }

    #[test]
    fn parse_refuses_zero_negative_and_words() {
        assert_eq!(
            Ratio::parse_positive("1.5"),
            Ok(Ratio::new(15, 10).unwrap())
        );
        assert_eq!(Ratio::parse_positive("2/3"), Ok(Ratio::new(2, 3).unwrap()));
        for bad in ["0", "0.0", "-2", "x", "", "1/0", "1e3", "."] {
            assert!(Ratio::parse_positive(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ratios_read_as_typed() {
        let shown = |n, d| Ratio::new(n, d).unwrap().to_string();
        assert_eq!(shown(12, 1), "12");
        assert_eq!(shown(24, 2), "12");
        assert_eq!(shown(15, 10), "1.5");
        assert_eq!(shown(2, 3), "2/3");
        assert_eq!(shown(31_000, 60), "1550/3");
        assert_eq!(shown(24_000, 1001), "23.976");
    }

    #[test]
    fn a_total_is_shared_in_proportion_and_exact() {
        let (n, d) = RetimeChange::TotalMillis(Ratio::whole(1000))
            .targets(&[1, 2, 3], 60)
            .unwrap();
        let lengths = spread(&n, d);
        assert_eq!(lengths, vec![10, 20, 30]);
    }
}
