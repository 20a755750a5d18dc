//! Writes the high-definition character the `big_sprites` bench plays (2,000 different
//! 1280x720 sprites: 20 actions of 100 frames at 2 ticks, 30 pictures a second) into a folder,
//! to open in the real window: `cargo run --release --example make_hd_character -- DIR`, then
//! `sprat DIR/gen.def`. With `--full-hd`, its 1920x1080 variant at one tick a frame (60
//! pictures a second). How docs/speed.md measures what the window does with them.

#[path = "../benches/common/generated_sff.rs"]
#[allow(dead_code)] // The benches' 48x64 figure is not used here.
mod generated_sff;

fn main() {
    let mut args = std::env::args_os().skip(1);
    let (Some(dir), variant) = (args.next().map(std::path::PathBuf::from), args.next()) else {
        eprintln!("usage: make_hd_character DIR [--full-hd]");
        std::process::exit(2);
    };
    let full_hd = match variant.as_deref().and_then(|v| v.to_str()) {
        None => false,
        Some("--full-hd") => true,
        Some(other) => {
            eprintln!("make_hd_character: unknown option {other} (only --full-hd)");
            std::process::exit(2);
        }
    };
    std::fs::create_dir_all(&dir).expect("the folder can be made");
    let (size, ticks) = if full_hd {
        ((1920, 1080), 1)
    } else {
        ((generated_sff::WIDTH, generated_sff::HEIGHT), 2)
    };
    let axis = ((size.0 / 2) as i16, (size.1 - 1) as i16);
    let archive = generated_sff::archive_of(2000, axis, |n| generated_sff::big_figure(n, size));
    let def = generated_sff::write_character(&dir, &archive, 20, 100, ticks);
    println!("{}", def.display());
}
