//! Aseprite's layer blend modes, computed as Aseprite computes them, to the last bit.
//!
//! Aseprite draws a sprite with its "new blending method" (on unless the user turns it off in
//! the experimental preferences; sprite sheet exports always use it): a layer over
//! an opaque backdrop is the mode's colour, over a transparent one it is the layer's own colour,
//! and between the two it is merged in proportion to both alphas ([`blend`]). The arithmetic
//! is Aseprite's: 8-bit integer products rounded as pixman rounds them, integer divisions that
//! truncate, and `f64` with Aseprite's constants for soft light and the four HSL modes (Hue,
//! Saturation, Color, Luminosity), whose results are truncated to 8 bits the way Aseprite
//! truncates them. Saturation and Hue follow Aseprite 1.3.15.1 and later. Older versions left
//! one channel of the colour whose saturation they set as it was: before 1.3.13 when red
//! equalled green below blue, green equalled blue below red, or all three were equal (a gray);
//! from 1.3.13 to 1.3.15 when red equalled green above blue.
//!
//! Which function to use depends on the sprite's colour mode, because Aseprite draws a sprite
//! into a picture of that mode when it exports it:
//! - RGBA sprites: [`blend`].
//! - Grayscale sprites: [`blend_gray`]. Aseprite blends gray pixels with gray blenders, which
//!   draw Hue, Saturation, Color and Luminosity layers as Normal ones and, through a slip in its
//!   table of blenders, Addition layers as Exclusion ones. Its editor draws the same sprite on
//!   screen in RGB, where those five modes look otherwise; exported pictures are the reference.
//! - Indexed sprites: Aseprite copies palette indices without blending at all (every pixel of a
//!   layer that is not the transparent index replaces what is below, whatever the mode and the
//!   opacity), so neither function applies.

/// Aseprite's layer blend modes, numbered as the layer chunk stores them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlendMode {
    Normal = 0,
    Multiply = 1,
    Screen = 2,
    Overlay = 3,
    Darken = 4,
    Lighten = 5,
    ColorDodge = 6,
    ColorBurn = 7,
    HardLight = 8,
    SoftLight = 9,
    Difference = 10,
    Exclusion = 11,
    Hue = 12,
    Saturation = 13,
    Color = 14,
    Luminosity = 15,
    Addition = 16,
    Subtract = 17,
    Divide = 18,
}

impl BlendMode {
    /// Every mode, in the order of their codes.
    pub const ALL: [BlendMode; 19] = [
        BlendMode::Normal,
        BlendMode::Multiply,
        BlendMode::Screen,
        BlendMode::Overlay,
        BlendMode::Darken,
        BlendMode::Lighten,
        BlendMode::ColorDodge,
        BlendMode::ColorBurn,
        BlendMode::HardLight,
        BlendMode::SoftLight,
        BlendMode::Difference,
        BlendMode::Exclusion,
        BlendMode::Hue,
        BlendMode::Saturation,
        BlendMode::Color,
        BlendMode::Luminosity,
        BlendMode::Addition,
        BlendMode::Subtract,
        BlendMode::Divide,
    ];

    /// The mode a layer chunk stores as `code`, or `None` for a code Aseprite does not define.
    pub fn from_code(code: u16) -> Option<BlendMode> {
        BlendMode::ALL.get(usize::from(code)).copied()
    }

    /// The number a layer chunk stores for this mode.
    pub fn code(self) -> u16 {
        self as u16
    }

    /// The mode Aseprite's gray blenders actually apply for this one (see the module comment).
    fn as_drawn_in_gray(self) -> BlendMode {
        match self {
            BlendMode::Hue | BlendMode::Saturation | BlendMode::Color | BlendMode::Luminosity => {
                BlendMode::Normal
            }
            BlendMode::Addition => BlendMode::Exclusion,
            other => other,
        }
    }
}

/// Two opacities combined as Aseprite combines a cel's and its layer's before drawing the cel:
/// their product over 255, rounded to the nearest.
pub fn combined_opacity(a: u8, b: u8) -> u8 {
    mul_un8(i32::from(a), i32::from(b)) as u8
}

/// `source` drawn over `backdrop` (both straight, non-premultiplied RGBA) at `opacity`.
///
/// `opacity` is everything that scales the layer: for a cel, [`combined_opacity`] of the cel's
/// and the layer's; for a composited group, the group's own. A source of exactly `[0, 0, 0, 0]` (Aseprite's mask colour for RGBA
/// pictures) leaves the backdrop untouched, colour included, as Aseprite leaves it.
pub fn blend(mode: BlendMode, backdrop: [u8; 4], source: [u8; 4], opacity: u8) -> [u8; 4] {
    if source == [0; 4] {
        return backdrop;
    }
    if mode == BlendMode::Normal {
        return normal(backdrop, source, opacity);
    }
    let [br, bg, bb, _] = backdrop;
    let [sr, sg, sb, sa] = source;
    let [r, g, b] = match mode {
        BlendMode::Hue => hsl::hue([br, bg, bb], [sr, sg, sb]),
        BlendMode::Saturation => hsl::saturation([br, bg, bb], [sr, sg, sb]),
        BlendMode::Color => hsl::color([br, bg, bb], [sr, sg, sb]),
        BlendMode::Luminosity => hsl::luminosity([br, bg, bb], [sr, sg, sb]),
        _ => [
            separable(mode, br, sr),
            separable(mode, bg, sg),
            separable(mode, bb, sb),
        ],
    };
    new_blend(backdrop, source, [r, g, b, sa], opacity)
}

/// `source` drawn over `backdrop` (both `[value, alpha]`, straight) at `opacity`, as Aseprite
/// draws the layers of a grayscale sprite (see the module comment for the modes it draws as
/// others). A source of exactly `[0, 0]` leaves the backdrop untouched.
pub fn blend_gray(mode: BlendMode, backdrop: [u8; 2], source: [u8; 2], opacity: u8) -> [u8; 2] {
    if source == [0; 2] {
        return backdrop;
    }
    let mode = mode.as_drawn_in_gray();
    if mode == BlendMode::Normal {
        return normal(backdrop, source, opacity);
    }
    let value = separable(mode, backdrop[0], source[0]);
    new_blend(backdrop, source, [value, source[1]], opacity)
}

/// Aseprite's "new blending method": the mode's colour where the backdrop is opaque, the
/// source's own colour where it is transparent, merged by the backdrop's alpha and then by
/// how much of the source covers it. `blended` is `source` with its colour channels replaced
/// by the mode's result. Pixels are `[channels.., alpha]`.
fn new_blend<const N: usize>(
    backdrop: [u8; N],
    source: [u8; N],
    blended: [u8; N],
    opacity: u8,
) -> [u8; N] {
    let backdrop_alpha = backdrop[N - 1];
    if backdrop_alpha == 0 {
        return normal(backdrop, source, opacity);
    }
    let moded = normal(backdrop, blended, opacity);
    if backdrop_alpha == 255 {
        // Aseprite's two merges land on `moded` here: merging by 255 goes all the way
        // (`mul_un8(x, 255) == x`), and merging a colour with itself keeps it.
        return moded;
    }
    let plain = normal(backdrop, source, opacity);
    let by_backdrop = merge(plain, moded, backdrop_alpha);
    let source_alpha = mul_un8(i32::from(source[N - 1]), i32::from(opacity));
    let covered = mul_un8(i32::from(backdrop_alpha), source_alpha);
    merge(by_backdrop, moded, covered as u8)
}

/// Porter-Duff "over" of straight colours, Aseprite's `*_blender_normal`: the source's alpha is
/// scaled by `opacity`, the colour moves from the backdrop's towards the source's by the
/// source's share of the result's alpha (an integer division that truncates).
fn normal<const N: usize>(backdrop: [u8; N], source: [u8; N], opacity: u8) -> [u8; N] {
    let a = N - 1;
    let source_alpha = mul_un8(i32::from(source[a]), i32::from(opacity));
    if backdrop[a] == 0 {
        let mut out = source;
        out[a] = source_alpha as u8;
        return out;
    }
    if source[a] == 0 {
        return backdrop;
    }
    if source_alpha == 255 {
        // The formula below gives the source itself: the alpha is 255 + Ba - mul(Ba, 255) =
        // 255, each channel b + (s - b) * 255 / 255 = s.
        let mut out = source;
        out[a] = 255;
        return out;
    }
    let backdrop_alpha = i32::from(backdrop[a]);
    let alpha = source_alpha + backdrop_alpha - mul_un8(backdrop_alpha, source_alpha);
    let mut out = [0; N];
    for c in 0..a {
        let (b, s) = (i32::from(backdrop[c]), i32::from(source[c]));
        // The same truncating division; over an opaque backdrop the divisor is the constant
        // 255, which the compiler turns into a multiplication.
        let share = if alpha == 255 {
            (s - b) * source_alpha / 255
        } else {
            (s - b) * source_alpha / alpha
        };
        out[c] = (b + share) as u8;
    }
    out[a] = alpha as u8;
    out
}

/// Linear interpolation of every channel from `backdrop` to `source` by `amount`, Aseprite's
/// `*_blender_merge`: a transparent end takes the other end's colour, a transparent result is
/// black.
fn merge<const N: usize>(backdrop: [u8; N], source: [u8; N], amount: u8) -> [u8; N] {
    let a = N - 1;
    let amount = i32::from(amount);
    let towards = |b: u8, s: u8| {
        let b = i32::from(b);
        (b + mul_un8(i32::from(s) - b, amount)) as u8
    };
    let mut out = [0; N];
    out[a] = towards(backdrop[a], source[a]);
    if out[a] == 0 {
        return out;
    }
    for c in 0..a {
        out[c] = if backdrop[a] == 0 {
            source[c]
        } else if source[a] == 0 {
            backdrop[c]
        } else {
            towards(backdrop[c], source[c])
        };
    }
    out
}

/// The mode's result for one colour channel of the backdrop (`b`) and the source (`s`), for
/// the modes that treat channels separately.
fn separable(mode: BlendMode, b: u8, s: u8) -> u8 {
    let (b, s) = (i32::from(b), i32::from(s));
    let result = match mode {
        BlendMode::Multiply => mul_un8(b, s),
        BlendMode::Screen => screen(b, s),
        BlendMode::Overlay => hard_light(s, b),
        BlendMode::Darken => b.min(s),
        BlendMode::Lighten => b.max(s),
        BlendMode::ColorDodge => color_dodge(b, s),
        BlendMode::ColorBurn => color_burn(b, s),
        BlendMode::HardLight => hard_light(b, s),
        BlendMode::SoftLight => soft_light(b, s),
        BlendMode::Difference => (b - s).abs(),
        BlendMode::Exclusion => b + s - 2 * mul_un8(b, s),
        BlendMode::Addition => (b + s).min(255),
        BlendMode::Subtract => (b - s).max(0),
        BlendMode::Divide => divide(b, s),
        // Not separable; `blend` handles them before coming here.
        BlendMode::Normal
        | BlendMode::Hue
        | BlendMode::Saturation
        | BlendMode::Color
        | BlendMode::Luminosity => s,
    };
    result as u8
}

fn screen(b: i32, s: i32) -> i32 {
    b + s - mul_un8(b, s)
}

fn hard_light(b: i32, s: i32) -> i32 {
    if s < 128 {
        mul_un8(b, s << 1)
    } else {
        screen(b, (s << 1) - 255)
    }
}

/// b / (1 - s), saturating.
fn color_dodge(b: i32, s: i32) -> i32 {
    if b == 0 {
        return 0;
    }
    let rest = 255 - s;
    if b >= rest { 255 } else { div_un8(b, rest) }
}

/// 1 - (1 - b) / s, saturating.
fn color_burn(b: i32, s: i32) -> i32 {
    if b == 255 {
        return 255;
    }
    let rest = 255 - b;
    if rest >= s { 0 } else { 255 - div_un8(rest, s) }
}

/// b / s, saturating.
fn divide(b: i32, s: i32) -> i32 {
    if b == 0 {
        0
    } else if b >= s {
        255
    } else {
        div_un8(b, s)
    }
}

/// The W3C soft light formula, in `f64` as Aseprite computes it, rounded to nearest.
fn soft_light(b: i32, s: i32) -> i32 {
    let b = f64::from(b) / 255.0;
    let s = f64::from(s) / 255.0;
    let d = if b <= 0.25 {
        ((16.0 * b - 12.0) * b + 4.0) * b
    } else {
        b.sqrt()
    };
    let r = if s <= 0.5 {
        b - (1.0 - 2.0 * s) * b * (1.0 - b)
    } else {
        b + (2.0 * s - 1.0) * (d - b)
    };
    (r * 255.0 + 0.5) as u32 as i32
}

/// `a * b / 255` rounded, for `b` in 0..=255 and `a` in -255..=255, as pixman's `MUL_UN8`
/// computes it (the shifts floor negative products, as C's do on every platform Aseprite runs
/// on).
fn mul_un8(a: i32, b: i32) -> i32 {
    let t = a * b + 0x80;
    ((t >> 8) + t) >> 8
}

/// `a * 255 / b` rounded, for 0 <= `a` < `b` <= 255, as pixman's `DIV_UN8`.
fn div_un8(a: i32, b: i32) -> i32 {
    (a * 255 + b / 2) / b
}

/// The non-separable modes, after the PDF and W3C compositing specifications, in the `f64`
/// arithmetic and with the constants Aseprite uses (luminosity 0.3 R + 0.59 G + 0.11 B).
mod hsl {
    type Rgb = [f64; 3];

    fn unit([r, g, b]: [u8; 3]) -> Rgb {
        [
            f64::from(r) / 255.0,
            f64::from(g) / 255.0,
            f64::from(b) / 255.0,
        ]
    }

    /// Back to 8 bits by truncation, as Aseprite's `int(255.0 * c)`.
    fn bytes(rgb: Rgb) -> [u8; 3] {
        rgb.map(|c| (255.0 * c) as i32 as u8)
    }

    fn lum([r, g, b]: Rgb) -> f64 {
        0.3 * r + 0.59 * g + 0.11 * b
    }

    fn lowest([r, g, b]: Rgb) -> f64 {
        r.min(g.min(b))
    }

    fn highest([r, g, b]: Rgb) -> f64 {
        r.max(g.max(b))
    }

    fn sat(rgb: Rgb) -> f64 {
        highest(rgb) - lowest(rgb)
    }

    /// Brings a colour back into 0..=1 keeping its luminosity. Both bounds are tested on the
    /// colour as it came in, as Aseprite tests them.
    fn clip(rgb: Rgb) -> Rgb {
        let l = lum(rgb);
        let (n, x) = (lowest(rgb), highest(rgb));
        let mut out = rgb;
        if n < 0.0 {
            out = out.map(|c| l + (((c - l) * l) / (l - n)));
        }
        if x > 1.0 {
            out = out.map(|c| l + (((c - l) * (1.0 - l)) / (x - l)));
        }
        out
    }

    fn with_lum(rgb: Rgb, l: f64) -> Rgb {
        let d = l - lum(rgb);
        clip(rgb.map(|c| c + d))
    }

    fn with_sat(rgb: Rgb, s: f64) -> Rgb {
        let (min, max) = (lowest(rgb), highest(rgb));
        let range = max - min;
        if range > 0.0 {
            rgb.map(|c| ((c - min) * s) / range)
        } else {
            [0.0; 3]
        }
    }

    /// The source's hue with the backdrop's saturation and luminosity.
    pub(super) fn hue(backdrop: [u8; 3], source: [u8; 3]) -> [u8; 3] {
        let backdrop = unit(backdrop);
        bytes(with_lum(
            with_sat(unit(source), sat(backdrop)),
            lum(backdrop),
        ))
    }

    /// The source's saturation with the backdrop's hue and luminosity.
    pub(super) fn saturation(backdrop: [u8; 3], source: [u8; 3]) -> [u8; 3] {
        let backdrop = unit(backdrop);
        bytes(with_lum(
            with_sat(backdrop, sat(unit(source))),
            lum(backdrop),
        ))
    }

    /// The source's hue and saturation with the backdrop's luminosity.
    pub(super) fn color(backdrop: [u8; 3], source: [u8; 3]) -> [u8; 3] {
        bytes(with_lum(unit(source), lum(unit(backdrop))))
    }

    /// The source's luminosity with the backdrop's hue and saturation.
    pub(super) fn luminosity(backdrop: [u8; 3], source: [u8; 3]) -> [u8; 3] {
        bytes(with_lum(unit(backdrop), lum(unit(source))))
    }
}

#[cfg(test)]
mod tests;
