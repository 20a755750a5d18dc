//! Renders of Solarus sprites from the corpus, played by the playback engine under Solarus
//! rules, drawn by the software renderer through the image store.
//!
//! Two checks per picture:
//! - against the sheet itself: each frame must be exactly the grid cell the sprite file names
//!   (the expected rectangles are written out here from the files' text, not taken from the
//!   reader), with the origin at the sprite's origin;
//! - against a golden digest in `tests/golden/solarus/<name>.txt` (size and FNV-1a hash of the
//!   RGBA pixels of every frame), which catches any change of the drawn pixels.
//!
//! The goldens are digests, not PNGs, because the corpus images (Nintendo sprites among them)
//! must not be copied into the repository, and a render at scale 1 is such a copy. To
//! regenerate them after an intended change, run
//!
//! ```text
//! UPDATE_GOLDEN=1 cargo test --no-default-features --test solarus_render
//! ```
//!
//! which also writes the rendered strips as PNGs under the cargo target's tmp folder for a look.

mod common;

use image::RgbaImage;
use sprat::assets::ImageStore;
use sprat::formats::{ReadContext, ReadOptions, registry};
use sprat::model::{AnimationSet, EndBehavior};
use sprat::playback::Player;
use sprat::render::{CanvasBounds, RenderOptions, Scene, SpriteRect, render};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One direction as the sprite file spells it.
struct Grid {
    x: u32,
    y: u32,
    width: u32,
    height: u32,
    origin: (i32, i32),
    frames: u32,
    columns: u32,
}

fn open(relative: &str, tileset: Option<PathBuf>) -> AnimationSet {
    let path = common::corpus().join("solarus").join(relative);
    let context = ReadContext {
        path: None,
        options: ReadOptions {
            tileset,
            ..Default::default()
        },
    };
    registry().open(&path, &context).unwrap().0.document
}

fn fnv1a(image: &RgbaImage) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let size = [image.width().to_le_bytes(), image.height().to_le_bytes()].concat();
    for byte in size.iter().chain(image.as_raw()) {
        hash ^= *byte as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Plays `animation` in every direction, rendering the frame shown in the middle of each
/// frame's time, and checks every frame against the sheet cell and the golden digests.
fn check_animation(
    document: &AnimationSet,
    animation: &str,
    sheet: &Path,
    frame_delay_ms: u64,
    grids: &[Grid],
    golden: &str,
) {
    let sheet = image::open(sheet).unwrap().to_rgba8();
    let store = ImageStore::new();
    let sequence = document.sequence_by_name(animation).unwrap();
    assert_eq!(sequence.directions.len(), grids.len());
    let mut digests = Vec::new();
    let mut strips = Vec::new();
    for (direction, grid) in grids.iter().enumerate() {
        let mut player = Player::new(document, sequence.id, direction);
        let options = RenderOptions {
            bounds: CanvasBounds::Fixed(SpriteRect {
                x: -grid.origin.0,
                y: -grid.origin.1,
                width: grid.width,
                height: grid.height,
            }),
            ..RenderOptions::default()
        };
        let mut strip = RgbaImage::new(grid.width * grid.frames, grid.height);
        for index in 0..grid.frames {
            player.seek_time(
                document,
                Duration::from_millis(index as u64 * frame_delay_ms + frame_delay_ms / 2),
            );
            assert_eq!(player.frame_index(), index as usize);
            let scene = Scene::playing(document, &player, options.box_rule).unwrap();
            let picture = render(document, &scene, &store, &options);
            let cell_x = grid.x + (index % grid.columns) * grid.width;
            let cell_y = grid.y + (index / grid.columns) * grid.height;
            let mut expected =
                image::imageops::crop_imm(&sheet, cell_x, cell_y, grid.width, grid.height)
                    .to_image();
            // Fully transparent pixels carry no colour once composited.
            for pixel in expected.pixels_mut() {
                if pixel.0[3] == 0 {
                    pixel.0 = [0; 4];
                }
            }
            assert!(
                picture == expected,
                "{animation}: direction {direction} frame {index} is not the cell at ({cell_x}, {cell_y})"
            );
            image::imageops::replace(&mut strip, &picture, (index * grid.width) as i64, 0);
            digests.push(format!(
                "{animation} {} frame {index}: {}x{} {:016x}",
                sequence.direction_label(direction),
                picture.width(),
                picture.height(),
                fnv1a(&picture)
            ));
        }
        strips.push(strip);
    }
    compare_with_golden(golden, &digests.join("\n"), &strips);
}

fn compare_with_golden(name: &str, digests: &str, strips: &[RgbaImage]) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/solarus")
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, format!("{digests}\n")).unwrap();
        let look = Path::new(env!("CARGO_TARGET_TMPDIR")).join("solarus_render");
        std::fs::create_dir_all(&look).unwrap();
        for (direction, strip) in strips.iter().enumerate() {
            strip
                .save(look.join(format!("{name}_{direction}.png")))
                .unwrap();
        }
        return;
    }
    let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with UPDATE_GOLDEN=1 to create it)",
            path.display()
        )
    });
    assert_eq!(golden.trim_end(), digests, "{} changed", path.display());
}

#[test]
fn hero_walking_every_direction_every_frame() {
    // lua-1.x/zsdx/sprites/hero/tunic1.dat, animation "walking": 100 ms, loop on 0.
    let document = open("lua-1.x/zsdx/sprites/hero/tunic1.dat", None);
    let row = |y| Grid {
        x: 0,
        y,
        width: 24,
        height: 32,
        origin: (12, 29),
        frames: 8,
        columns: 8,
    };
    let sheet = common::corpus().join("solarus/lua-1.x/zsdx/sprites/hero/walking.tunic.png");
    check_animation(
        &document,
        "walking",
        &sheet,
        100,
        &[row(0), row(32), row(96), row(128)],
        "hero_walking",
    );
    // It loops: 8 frames later it shows frame 0 again.
    let sequence = document.sequence_by_name("walking").unwrap();
    let mut player = Player::new(&document, sequence.id, 3);
    player.seek_time(&document, Duration::from_millis(850));
    assert_eq!(player.frame_index(), 0);
    assert!(player.visible());
}

#[test]
fn hero_walking_in_the_zsd_generation() {
    // zsd/sprites/hero/tunic1.zsd: "walking hero/walking.tunic.png 4 100 0".
    let document = open("zsd/sprites/hero/tunic1.zsd", None);
    let row = |y| Grid {
        x: 0,
        y,
        width: 24,
        height: 32,
        origin: (12, 29),
        frames: 8,
        columns: 8,
    };
    let sheet = common::corpus().join("solarus/zsd/sprites/hero/walking.tunic.png");
    check_animation(
        &document,
        "walking",
        &sheet,
        100,
        &[row(160), row(192), row(256), row(288)],
        "hero_walking_zsd",
    );
}

#[test]
fn tileset_sprite_uses_the_chosen_tileset() {
    // zsd/sprites/entities/door.zsd, "closed tileset 4 0 -1" then
    // 112 16 16 32 0 0 1 1 / 0 48 32 16 0 0 1 1 / 0 16 16 32 0 0 1 1 / 0 64 32 16 0 0 1 1.
    let tileset = common::corpus().join("solarus/zsd/tilesets/tileset0000_entities.png");
    let document = open("zsd/sprites/entities/door.zsd", Some(tileset.clone()));
    let cell = |x, y, width, height| Grid {
        x,
        y,
        width,
        height,
        origin: (0, 0),
        frames: 1,
        columns: 1,
    };
    check_animation(
        &document,
        "closed",
        &tileset,
        0,
        &[
            cell(112, 16, 16, 32),
            cell(0, 48, 32, 16),
            cell(0, 16, 16, 32),
            cell(0, 64, 32, 16),
        ],
        "door_closed_tileset",
    );
    // frame_delay 0: a still frame, still there long after.
    let sequence = document.sequence_by_name("closed").unwrap();
    let mut player = Player::new(&document, sequence.id, 0);
    player.seek_time(&document, Duration::from_secs(60));
    assert!(player.visible());
    assert_eq!(player.frame_index(), 0);
}

#[test]
fn tileset_sprite_without_a_choice_draws_nothing() {
    let document = open("lua-1.x/zsdx/sprites/entities/door_normal.dat", None);
    let sequence = document.sequence_by_name("closed").unwrap();
    let player = Player::new(&document, sequence.id, 0);
    let scene = Scene::playing(&document, &player, Default::default()).unwrap();
    let options = RenderOptions {
        bounds: CanvasBounds::Fixed(SpriteRect {
            x: 0,
            y: -8,
            width: 16,
            height: 32,
        }),
        ..RenderOptions::default()
    };
    let picture = render(&document, &scene, &ImageStore::new(), &options);
    assert!(picture.pixels().all(|p| p.0[3] == 0));
}

#[test]
fn an_animation_without_loop_disappears_after_its_last_frame() {
    // "sword hero/sword.tunic1.png 4 30 -1", 12 frames: gone after 360 ms.
    let document = open("zsd/sprites/hero/tunic1.zsd", None);
    let sequence = document.sequence_by_name("sword").unwrap();
    assert_eq!(sequence.on_end, EndBehavior::Disappear);
    let mut player = Player::new(&document, sequence.id, 2);
    player.seek_time(&document, Duration::from_millis(359));
    assert!(player.visible());
    assert_eq!(player.frame_index(), 11);
    player.seek_time(&document, Duration::from_millis(360));
    assert!(!player.visible());
    let scene = Scene::playing(&document, &player, Default::default()).unwrap();
    let picture = render(
        &document,
        &scene,
        &ImageStore::new(),
        &RenderOptions::default(),
    );
    assert!(picture.pixels().all(|p| p.0[3] == 0));
}
