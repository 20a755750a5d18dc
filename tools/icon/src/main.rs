//! Renders `assets/icon/sprat.svg` to `assets/icon/sprat-N.png` for every size in [`SIZES`]
//! (the hicolor sizes the package installs; the window and the web page use some of them).
//!
//! Run from the repository: `cargo run --release --manifest-path tools/icon/Cargo.toml`.

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{Options, Tree};
use std::path::{Path, PathBuf};

/// The square sizes rendered, in pixels.
const SIZES: [u32; 6] = [16, 32, 48, 64, 128, 256];

fn main() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/icon");
    let svg_path = folder.join("sprat.svg");
    let svg = std::fs::read(&svg_path)
        .unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", svg_path.display())));
    let tree = Tree::from_data(&svg, &Options::default())
        .unwrap_or_else(|e| fail(&format!("{} is not an SVG we can draw: {e}", svg_path.display())));
    for size in SIZES {
        let out = folder.join(format!("sprat-{size}.png"));
        write_png(&out, &render(&tree, size))
            .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", out.display())));
        println!("{}", out.canonicalize().unwrap_or(PathBuf::from(&out)).display());
    }
}

/// The drawing scaled to fit a `size` x `size` square.
fn render(tree: &Tree, size: u32) -> Pixmap {
    let mut pixmap = Pixmap::new(size, size).expect("icon sizes are not zero");
    let drawn = tree.size();
    let scale = size as f32 / drawn.width().max(drawn.height());
    resvg::render(tree, Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    pixmap
}

/// Writes straight (not premultiplied) RGBA, as PNG stores it.
fn write_png(path: &Path, pixmap: &Pixmap) -> Result<(), Box<dyn std::error::Error>> {
    let rgba: Vec<u8> = pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue(), c.alpha()]
        })
        .collect();
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&rgba)?;
    writer.finish()?;
    Ok(())
}

fn fail(message: &str) -> ! {
    eprintln!("sprat-icon: {message}");
    std::process::exit(1)
}
