//! Sprite archives and characters of our own art for the benches, built with Sprat's own SFF
//! writer: 5,000 sprites of a little figure whose limbs move, 1280x720 ones of a big figure, or
//! any number of any drawing.

use sprat::formats::sff::Palette;
use sprat::formats::sff::edit::EditableSff;
use sprat::formats::sff::encode::SpritePixels;
use sprat::formats::sff::write::write_sff;

/// A 48x64 sprite of our own drawing: a figure whose limbs move with `n`, in up to 24 colours.
pub fn figure(n: u32) -> SpritePixels {
    let (width, height) = (48u32, 64u32);
    let mut indices = vec![0u8; (width * height) as usize];
    let sway = (n % 9) as i32 - 4;
    for y in 0..height as i32 {
        for x in 0..width as i32 {
            let head = (x - 24).pow(2) + (y - 10).pow(2) < 49;
            let body = (18..30).contains(&x) && (17..42).contains(&y);
            let legs = (42..64).contains(&y)
                && ((x - 20 - sway * (y - 42) / 22).abs() < 3
                    || (x - 28 + sway * (y - 42) / 22).abs() < 3);
            let colour = if head {
                3 + (n % 4) as u8
            } else if body {
                8 + ((x + y) % 6) as u8
            } else if legs {
                16 + (n % 8) as u8
            } else {
                0
            };
            indices[(y as u32 * width + x as u32) as usize] = colour;
        }
    }
    SpritePixels::Indexed {
        width,
        height,
        indices,
    }
}

/// The size of [`hd_figure`]'s sprites.
pub const WIDTH: u32 = 1280;
/// See [`WIDTH`].
pub const HEIGHT: u32 = 720;

/// Sprite `n` of the character: a 1280x720 figure of flat colours (as drawn game art is, so
/// RLE8 stores it small) that walks across the picture and swings its limbs, different in
/// every sprite.
pub fn hd_figure(n: u32) -> SpritePixels {
    big_figure(n, (WIDTH, HEIGHT))
}

/// [`hd_figure`] drawn at any size (1920x1080 for the full-HD variant), its proportions kept
/// (the same pixels at 1280x720).
pub fn big_figure(n: u32, (width, height): (u32, u32)) -> SpritePixels {
    let mut indices = vec![0u8; (width * height) as usize];
    // Drawn in 720-line units: `at(v)` is a length of `v` of those in pixels, and
    // `units(v)` is `v` pixels in those units.
    let (w, h) = (width as i32, height as i32);
    let at = |v: i32| v * h / 720;
    let units = |v: i32| v * 720 / h;
    let step = (n % 100) as i32;
    let action = (n / 100) as i32;
    let centre = w / 2 + at((step - 50) * 5);
    let swing = (step % 20) - 10;
    for y in 0..h {
        let row = &mut indices[(y * w) as usize..][..w as usize];
        let y = units(y);
        for x in (centre - at(260)).max(0)..(centre + at(260)).min(w) {
            let dx = units(x - centre);
            let head = dx.pow(2) + (y - 110).pow(2) < 70 * 70;
            let body = dx.abs() < 80 && (190..460).contains(&y);
            let arm = (190..420).contains(&y)
                && ((dx - 110 - swing * (y - 190) / 23).abs() < 22
                    || (dx + 110 + swing * (y - 190) / 23).abs() < 22);
            let leg = (460..720).contains(&y)
                && ((dx - 40 - swing * (y - 460) / 26).abs() < 28
                    || (dx + 40 + swing * (y - 460) / 26).abs() < 28);
            row[x as usize] = if head {
                3 + ((action + step) % 4) as u8
            } else if body {
                8 + ((y / 45 + action) % 6) as u8
            } else if arm || leg {
                16 + ((step / 10 + action) % 8) as u8
            } else {
                0
            };
        }
    }
    SpritePixels::Indexed {
        width,
        height,
        indices,
    }
}

/// `sprites` sprites numbered group `n / 100`, image `n % 100`, as SFF v2.01 bytes.
pub fn generated_archive(sprites: u32) -> Vec<u8> {
    archive_of(sprites, (24, 63), figure)
}

/// `sprites` sprites drawn by `draw(n)`, numbered group `n / 100`, image `n % 100`, each with
/// `axis`, as SFF v2.01 bytes (RLE8, in a palette of 32 colours).
pub fn archive_of(sprites: u32, axis: (i16, i16), draw: impl Fn(u32) -> SpritePixels) -> Vec<u8> {
    let mut palette = Palette::grey_ramp();
    for i in 1..32u8 {
        palette.set_colour(i, [i * 8, 255 - i * 8, 64 + i * 4, 255]);
    }
    let mut sff = EditableSff::new(palette);
    for n in 0..sprites {
        sff.add_sprite((n / 100) as u16, (n % 100) as u16, axis, &draw(n), 0, None)
            .expect("added");
    }
    write_sff(&sff).expect("written")
}

/// A character in `dir`: `gen.def`, `gen.sff` (`archive`) and `gen.air` with `actions`
/// actions of `frames` frames of `ticks` ticks, action `a` showing group `a` in order; each
/// action titled "Move a" (so its tree row is found by that label).
pub fn write_character(
    dir: &std::path::Path,
    archive: &[u8],
    actions: u32,
    frames: u32,
    ticks: u32,
) -> std::path::PathBuf {
    std::fs::write(dir.join("gen.sff"), archive).unwrap();
    let mut air = String::new();
    for group in 0..actions {
        air.push_str(&format!("; Move {group}\n[Begin Action {group}]\n"));
        for image in 0..frames {
            air.push_str(&format!("{group},{image}, 0,0, {ticks}\n"));
        }
        air.push('\n');
    }
    std::fs::write(dir.join("gen.air"), air).unwrap();
    let def = dir.join("gen.def");
    std::fs::write(
        &def,
        "[Info]\nname = \"Generated\"\n\n[Files]\nsprite = gen.sff\nanim = gen.air\n",
    )
    .unwrap();
    def
}
