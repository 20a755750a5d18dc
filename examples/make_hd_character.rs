//! Writes the high-definition character the `big_sprites` bench plays (2,000 different
//! 1280x720 sprites: 20 actions of 100 frames at 2 ticks) into a folder, to open in the real
//! window: `cargo run --release --example make_hd_character -- DIR`, then `sprat DIR/gen.def`.
//! How docs/speed.md measures what the window does with it.

#[path = "../benches/common/generated_sff.rs"]
#[allow(dead_code)] // The benches' 48x64 figure is not used here.
mod generated_sff;

fn main() {
    let Some(dir) = std::env::args_os().nth(1).map(std::path::PathBuf::from) else {
        eprintln!("usage: make_hd_character DIR");
        std::process::exit(2);
    };
    std::fs::create_dir_all(&dir).expect("the folder can be made");
    let archive = generated_sff::archive_of(2000, (640, 719), generated_sff::hd_figure);
    let def = generated_sff::write_character(&dir, &archive, 20, 100, 2);
    println!("{}", def.display());
}
