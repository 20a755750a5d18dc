//! ADL's value syntax: `;`-separated items, each a bare name or `NAME input`, and the three
//! input types (ivec2, float, string), exactly as the game splits them.
//!
//! - A value is split on `;` with no trimming, so a trailing `;` gives an empty item.
//! - An item containing a space is split on runs of spaces: the first token is the variable
//!   name (empty if the item starts with a space), the second the input; more are ignored.
//! - An input is an ivec2 if it is all of `-?[0-9]+,-?[0-9]+`, a float if all of
//!   `-?[0-9]+(\.[0-9]*)?`, else a string.

use std::ops::Range;

/// One `;`-separated item of a value; ranges are byte ranges of the decoded value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// The whole item.
    pub range: Range<usize>,
    /// The variable (or bare) name.
    pub name: Range<usize>,
    /// The input token, if the item has a space.
    pub input: Option<Range<usize>>,
}

/// A typed input.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// Two integers.
    Ivec2(i32, i32),
    /// A number as written (the game reads it as a 32-bit float).
    Float(String),
    /// Anything else.
    Str(String),
    /// Matches the ivec2 pattern but a component does not fit 32 bits (the game throws).
    OutOfRange,
}

/// Splits a value into items.
pub fn items(value: &str) -> Vec<Item> {
    let mut out = Vec::new();
    let mut start = 0;
    for piece in value.split(';') {
        let range = start..start + piece.len();
        out.push(item(piece, range.start));
        start = range.end + 1;
    }
    out
}

fn item(piece: &str, offset: usize) -> Item {
    let range = offset..offset + piece.len();
    let Some(first_space) = piece.find(' ') else {
        return Item {
            name: range.clone(),
            range,
            input: None,
        };
    };
    let name = offset..offset + first_space;
    let rest = &piece[first_space..];
    let skipped = rest.len() - rest.trim_start_matches(' ').len();
    let input_start = first_space + skipped;
    let input_len = piece[input_start..]
        .find(' ')
        .unwrap_or(piece.len() - input_start);
    Item {
        range,
        name,
        input: Some(offset + input_start..offset + input_start + input_len),
    }
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn integer(s: &str) -> bool {
    digits(s.strip_prefix('-').unwrap_or(s))
}

/// True when `s` is all of the float pattern `-?[0-9]+(\.[0-9]*)?`.
pub fn is_float(s: &str) -> bool {
    match s.split_once('.') {
        None => integer(s),
        Some((whole, fraction)) => integer(whole) && fraction.bytes().all(|b| b.is_ascii_digit()),
    }
}

/// Types an input token.
pub fn parse_input(s: &str) -> Input {
    if let Some((x, y)) = s.split_once(',')
        && integer(x)
        && integer(y)
    {
        return match (x.parse::<i32>(), y.parse::<i32>()) {
            (Ok(x), Ok(y)) => Input::Ivec2(x, y),
            _ => Input::OutOfRange,
        };
    }
    if is_float(s) {
        Input::Float(s.to_string())
    } else {
        Input::Str(s.to_string())
    }
}

/// A decimal number of seconds as exact nanoseconds: `None` when it is negative; saturates.
/// The second value is true when digits below the nanosecond were dropped.
pub fn decimal_nanos(text: &str) -> Option<(u64, bool)> {
    if let Some(magnitude) = text.strip_prefix('-') {
        let zero = magnitude.bytes().all(|b| b == b'0' || b == b'.');
        return zero.then_some((0, false));
    }
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let mut nanos: u64 = 0;
    for b in whole.bytes() {
        nanos = nanos.saturating_mul(10).saturating_add(u64::from(b - b'0'));
    }
    nanos = nanos.saturating_mul(1_000_000_000);
    let mut scale = 100_000_000u64;
    let mut dropped = false;
    for b in fraction.bytes() {
        let digit = u64::from(b - b'0');
        if scale == 0 {
            dropped |= digit != 0;
        } else {
            nanos = nanos.saturating_add(digit * scale);
            scale /= 10;
        }
    }
    Some((nanos, dropped))
}

/// Exact nanoseconds as the shortest decimal number of seconds (`0.15`, `2`).
pub fn nanos_decimal(nanos: u64) -> String {
    let whole = nanos / 1_000_000_000;
    let fraction = nanos % 1_000_000_000;
    if fraction == 0 {
        whole.to_string()
    } else {
        let digits = format!("{fraction:09}");
        format!("{whole}.{}", digits.trim_end_matches('0'))
    }
}

/// The game's float-to-int conversion of a float input (truncation, saturating), e.g. ROW.
pub fn float_to_int(text: &str) -> i32 {
    let whole = text.split('.').next().unwrap_or("");
    let negative = whole.starts_with('-');
    let mut value: i64 = 0;
    for b in whole.trim_start_matches('-').bytes() {
        value = (value * 10 + i64::from(b - b'0')).min(i64::from(i32::MAX) + 1);
    }
    let value = if negative { -value } else { value };
    value.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_split_like_the_game() {
        let v = "DELAY 0.15;ROW  2;SKELETON SKELETON_STAND;";
        let got = items(v);
        assert_eq!(got.len(), 4);
        assert_eq!(&v[got[0].name.clone()], "DELAY");
        assert_eq!(&v[got[0].input.clone().unwrap()], "0.15");
        assert_eq!(&v[got[1].input.clone().unwrap()], "2");
        assert_eq!(got[3].range, v.len()..v.len());
        let lead = items(" LEG 0,1");
        assert_eq!(lead[0].name, 0..0);
        assert_eq!(&" LEG 0,1"[lead[0].input.clone().unwrap()], "LEG");
    }

    #[test]
    fn input_types() {
        assert_eq!(parse_input("-3,4"), Input::Ivec2(-3, 4));
        assert_eq!(parse_input("2."), Input::Float("2.".into()));
        assert_eq!(parse_input(".5"), Input::Str(".5".into()));
        assert_eq!(parse_input("+1"), Input::Str("+1".into()));
        assert_eq!(parse_input("1e3"), Input::Str("1e3".into()));
        assert_eq!(parse_input("1, 2"), Input::Str("1, 2".into()));
        assert_eq!(parse_input("99999999999,0"), Input::OutOfRange);
    }

    #[test]
    fn exact_decimal_seconds() {
        assert_eq!(decimal_nanos("0.15"), Some((150_000_000, false)));
        assert_eq!(decimal_nanos("2."), Some((2_000_000_000, false)));
        assert_eq!(decimal_nanos("0.0000000015"), Some((1, true)));
        assert_eq!(decimal_nanos("-1"), None);
        assert_eq!(nanos_decimal(180_000_000), "0.18");
        assert_eq!(nanos_decimal(2_000_000_000), "2");
        assert_eq!(float_to_int("2.9"), 2);
        assert_eq!(float_to_int("-99999999999"), i32::MIN);
    }
}
