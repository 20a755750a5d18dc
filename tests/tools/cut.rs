//! Cutting sheets: separate sprites found with their exact opaque bounds on sheets composed
//! from real frames at random places, and `sprat cut` into several formats.

use super::{common, common::sprat, load, text};
use image::RgbaImage;
use sprat::assets::cut::cut_slice;
use sprat::assets::layout::{CutMethod, Layout, cut_frames};
use sprat::assets::sprites::{FoundSprites, SpriteOptions, find_sprites};
use sprat::model::{FrameDuration, PixelRect};
use std::collections::HashSet;

/// A small deterministic random sequence (the test must give the same sheet every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % below as u64) as u32
    }
}

/// `image` cropped to the bounds of its pixels with alpha above 0; `None` when it has none.
fn trimmed(image: &RgbaImage) -> Option<RgbaImage> {
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for (x, y, p) in image.enumerate_pixels() {
        if p[3] != 0 {
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
    }
    (x0 != u32::MAX)
        .then(|| image::imageops::crop_imm(image, x0, y0, x1 - x0 + 1, y1 - y0 + 1).to_image())
}

/// The corpus's sprites of characters drawn by hand (heroes, their shields, enemies), whose
/// frames are bodies; the others (sword trails, Ganon's flames, doors and belts made of
/// tiles, a cabbage and its leaves) hold frames made of separate particles on purpose.
const CHARACTERS: [&str; 6] = [
    "tunic1.dat",
    "eldran.dat",
    "shield1.dat",
    "chameleon.dat",
    "skelfos.dat",
    "khorneth.dat",
];

/// Every distinct frame picture of the corpus's Solarus 1.x sprites (of the characters only,
/// or all), trimmed.
fn corpus_frames(characters_only: bool) -> Vec<RgbaImage> {
    let dats = common::files_with_extensions(&common::corpus().join("solarus/lua-1.x"), &["dat"])
        .into_iter()
        .filter(|dat| !characters_only || CHARACTERS.iter().any(|c| dat.ends_with(c)));
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for dat in dats {
        let doc = load(&dat);
        for slice in &doc.slices {
            let Some(path) = doc.image(slice.image).and_then(|i| i.resolved.clone()) else {
                continue;
            };
            let Ok(sheet) = sprat::assets::decode::decode_file(&path) else {
                continue;
            };
            let Some(picture) = cut_slice(&sheet, slice.rect, slice.rotated)
                .as_ref()
                .and_then(trimmed)
            else {
                continue;
            };
            if seen.insert(picture.as_raw().clone()) {
                out.push(picture);
            }
        }
    }
    out
}

/// The frames placed in shuffled order along rows of random heights, 2 to 9 transparent
/// pixels apart and shifted up and down inside their row: a packed sheet, not a grid. The
/// rectangles where they went are the truth.
fn packed_sheet(frames: &[RgbaImage], seed: u64) -> (RgbaImage, Vec<PixelRect>) {
    let mut random = Lcg(seed);
    let mut order: Vec<usize> = (0..frames.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, random.next(i as u32 + 1) as usize);
    }
    let width = 1024u32;
    let mut placed = Vec::new();
    let (mut x, mut y, mut row) = (2u32, 2u32, 0u32);
    for &i in &order {
        let (w, h) = frames[i].dimensions();
        if w + 4 > width {
            continue;
        }
        if x + w + 2 > width {
            y += row + 2 + random.next(8);
            (x, row) = (2, 0);
        }
        let jitter = random.next(6);
        placed.push((i, x, y + jitter));
        row = row.max(h + jitter);
        x += w + 2 + random.next(8);
    }
    let height = y + row + 2;
    let mut sheet = RgbaImage::new(width, height);
    let mut truth = Vec::new();
    for (i, x, y) in placed {
        image::imageops::replace(&mut sheet, &frames[i], x as i64, y as i64);
        let (w, h) = frames[i].dimensions();
        truth.push(PixelRect {
            x: x as i32,
            y: y as i32,
            width: w,
            height: h,
        });
    }
    (sheet, truth)
}

/// How many of the placed frames are found with exactly their rectangle, in percent.
fn found_exactly(sheet: &RgbaImage, truth: &[PixelRect]) -> f64 {
    let found: HashSet<PixelRect> = find_sprites(sheet, SpriteOptions::DEFAULT)
        .into_iter()
        .collect();
    let exact = truth.iter().filter(|r| found.contains(r)).count();
    exact as f64 * 100.0 / truth.len() as f64
}

#[test]
fn packed_sheets_of_real_frames_are_cut_at_their_exact_opaque_bounds() {
    let characters = corpus_frames(true);
    assert!(characters.len() > 500, "{} frames", characters.len());
    for seed in [1, 2, 3] {
        let (sheet, truth) = packed_sheet(&characters, seed);
        let share = found_exactly(&sheet, &truth);
        println!(
            "characters, seed {seed}: {share:.1}% of {} frames",
            truth.len()
        );
        // A packed sheet is no lattice: the default cut finds the same sprites.
        let automatic = cut_frames(&sheet, SpriteOptions::DEFAULT, CutMethod::Automatic);
        assert_eq!(automatic.layout, Layout::Sprites, "seed {seed}");
        assert!(
            share >= 95.0,
            "seed {seed}: {share:.1}% of {} frames",
            truth.len()
        );
    }
    // Every frame of the corpus, particles and tiles included: a frame of separate pieces
    // further apart than the frames themselves cannot be told from several frames.
    let all = corpus_frames(false);
    let (sheet, truth) = packed_sheet(&all, 1);
    let share = found_exactly(&sheet, &truth);
    println!("every frame: {share:.1}% of {} frames", truth.len());
    assert!(share >= 85.0, "{share:.1}% of {} frames", truth.len());
}

#[test]
fn found_sprites_read_row_by_row() {
    let frames = corpus_frames(true);
    let (sheet, _) = packed_sheet(&frames[..60.min(frames.len())], 7);
    let found = find_sprites(&sheet, SpriteOptions::DEFAULT);
    // A row is a chain of vertical overlaps read left to right; the next row starts below
    // the bottom of the whole row before it.
    let bottom = |r: &PixelRect| r.y as i64 + r.height as i64;
    let mut row_bottom = bottom(&found[0]);
    let mut rows = 1;
    for pair in found.windows(2) {
        let (before, r) = (&pair[0], &pair[1]);
        if (r.y as i64) < row_bottom {
            assert!(r.x >= before.x, "{r:?} is left of {before:?} in its row");
            row_bottom = row_bottom.max(bottom(r));
        } else {
            row_bottom = bottom(r);
            rows += 1;
        }
    }
    assert!(rows > 1);
    // The list can be edited: merge two, split them back.
    let mut list = FoundSprites {
        rects: found.clone(),
    };
    let joined = list.merge(&[0, 1]).unwrap();
    assert_eq!(list.rects.len(), found.len() - 1);
    list.split(&sheet, joined).unwrap();
    assert!(list.rects.len() >= found.len());
}

#[test]
fn cut_writes_a_project_naming_the_sheet_with_each_rectangle() {
    let frames = corpus_frames(true);
    let (sheet, truth) = packed_sheet(&frames[..40], 11);
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("packed.png");
    sheet.save(&png).unwrap();
    let out = dir.path().join("packed.sprat");
    let (code, stdout, stderr) = sprat(&[
        "cut",
        text(&png),
        "--sprites",
        "--sequence",
        "run",
        "--fps",
        "12",
        "-o",
        text(&out),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let (code, json, _) = sprat(&["info", "--json", text(&out)]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let document = &json["files"][0]["document"];
    let run = &document["sequences"][0];
    assert_eq!(run["name"], "run");
    let cells = run["directions"][0]["frames"].as_array().unwrap();
    let mut rects = HashSet::new();
    for frame in cells {
        let source = &frame["graphics"][0]["source"];
        assert_eq!(
            source["image"], "packed.png",
            "the sheet itself, by its name"
        );
        let r: Vec<i64> = source["rect"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        rects.insert((r[0], r[1], r[2], r[3]));
    }
    let exact = truth
        .iter()
        .filter(|t| rects.contains(&(t.x as i64, t.y as i64, t.width as i64, t.height as i64)))
        .count();
    assert!(
        exact * 100 >= truth.len() * 95,
        "{exact} of {}",
        truth.len()
    );
    // 12 fps in whole milliseconds: 83 or 84, a second for every 12 frames.
    let doc = load(&out);
    let millis: Vec<u32> = doc
        .frames
        .values()
        .map(|f| match f.duration {
            FrameDuration::Millis(ms) => ms,
            other => panic!("{other}"),
        })
        .collect();
    assert!(millis.iter().all(|ms| *ms == 83 || *ms == 84), "{millis:?}");
    assert_eq!(millis[..12].iter().sum::<u32>(), 1000);
    // No picture was copied out beside the project.
    let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
    assert_eq!(files.len(), 2, "{files:?}");
}

#[test]
fn a_grid_cut_goes_to_any_writable_format() {
    let dir = tempfile::tempdir().unwrap();
    let mut sheet = RgbaImage::new(64, 32);
    for cell in 0..3u32 {
        for y in 4..28 {
            for x in 3..13 {
                sheet.put_pixel(cell * 16 + x, y, image::Rgba([200, 40, 40, 255]));
            }
        }
    }
    let png = dir.path().join("walk.png");
    sheet.save(&png).unwrap();
    let cases = [
        ("walk.def", FrameDuration::Ticks(6)),
        ("walk.sprat", FrameDuration::Millis(100)),
        ("walk.dat", FrameDuration::Millis(100)),
    ];
    for (name, duration) in cases {
        let out = dir.path().join(name);
        let (code, stdout, stderr) =
            sprat(&["cut", text(&png), "--grid", "16x32", "-o", text(&out)]);
        assert_eq!(code, 0, "{name}: {stdout}{stderr}");
        assert!(stdout.contains("cut 3 frames"), "{name}: {stdout}");
        let doc = load(&out);
        let sequence = doc.first_sequence().unwrap();
        let frames = doc.direction_frames(sequence, 0);
        assert_eq!(frames.len(), 3, "{name}");
        assert!(frames.iter().all(|f| f.duration == duration), "{name}");
    }
}

#[test]
fn bad_cuts_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("empty.png");
    RgbaImage::new(8, 8).save(&png).unwrap();
    let out = dir.path().join("out.sprat");
    let cases: [(&[&str], &str); 4] = [
        (&["--sprites"], "no opaque pixels"),
        (&["--grid", "0x4"], "no pixels"),
        (&["--grid", "big"], "not a cell size"),
        (&["--sprites", "--fps", "0"], "zero"),
    ];
    for (args, said) in cases {
        let mut argv = vec!["cut", text(&png)];
        argv.extend_from_slice(args);
        argv.extend_from_slice(&["-o", text(&out)]);
        let (code, stdout, stderr) = sprat(&argv);
        assert_eq!(code, 1, "{args:?}: {stdout}{stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert!(!out.exists());
    }
    std::fs::write(&out, "kept").unwrap();
    let mut sheet = RgbaImage::new(8, 8);
    sheet.put_pixel(2, 2, image::Rgba([1, 1, 1, 255]));
    sheet.save(&png).unwrap();
    let (code, _, stderr) = sprat(&[
        "cut",
        text(&png),
        "--sprites",
        "--min",
        "1",
        "-o",
        text(&out),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept");
}

/// An atlas JSON in the hash form Aseprite and TexturePacker write, naming `rects` on `image`.
fn atlas_json(image: &str, rects: &[PixelRect]) -> String {
    let frames: Vec<String> = rects
        .iter()
        .enumerate()
        .map(|(i, r)| {
            format!(
                "\"walk {i}.png\": {{ \"frame\": {{ \"x\": {}, \"y\": {}, \"w\": {}, \"h\": {} }}, \
                 \"rotated\": false, \"trimmed\": false, \
                 \"spriteSourceSize\": {{ \"x\": 0, \"y\": 0, \"w\": {}, \"h\": {} }}, \
                 \"sourceSize\": {{ \"w\": {}, \"h\": {} }}, \"duration\": 100 }}",
                r.x, r.y, r.width, r.height, r.width, r.height, r.width, r.height
            )
        })
        .collect();
    format!(
        "{{ \"frames\": {{ {} }}, \"meta\": {{ \"app\": \"https://www.aseprite.org/\", \
         \"image\": \"{image}\", \"format\": \"RGBA8888\", \"size\": {{ \"w\": 64, \"h\": 32 }}, \
         \"scale\": \"1\" }} }}",
        frames.join(", ")
    )
}

/// The rectangles of the frames of the first sequence of the document at `path`.
fn frame_rects(path: &std::path::Path) -> Vec<PixelRect> {
    let doc = load(path);
    let sequence = doc.first_sequence().unwrap();
    doc.direction_frames(sequence, 0)
        .iter()
        .map(
            |frame| match frame.elements[0].as_graphic().map(|g| &g.source) {
                Some(sprat::model::GraphicSource::Slice(id)) => doc.slice(*id).unwrap().rect,
                other => panic!("{other:?}"),
            },
        )
        .collect()
}

#[test]
fn a_sheet_with_its_atlas_json_beside_is_read_for_its_frames_not_cut() {
    let dir = tempfile::tempdir().unwrap();
    // Three sprites 10x24 in cells of 16x32: cut, they would be 10x24 boxes (or a lattice).
    let mut sheet = RgbaImage::new(64, 32);
    for cell in 0..3u32 {
        for y in 4..28 {
            for x in 3..13 {
                sheet.put_pixel(cell * 16 + x, y, image::Rgba([200, 40, 40, 255]));
            }
        }
    }
    let png = dir.path().join("walk.png");
    sheet.save(&png).unwrap();
    // The data gives the frames in another order, with their padding.
    let named: Vec<PixelRect> = [32, 0, 16]
        .into_iter()
        .map(|x| PixelRect {
            x,
            y: 0,
            width: 16,
            height: 32,
        })
        .collect();
    std::fs::write(dir.path().join("walk.json"), atlas_json("walk.png", &named)).unwrap();
    let out = dir.path().join("walk.sprat");
    let (code, stdout, stderr) = sprat(&["cut", text(&png), "--explain", "-o", text(&out)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("read 3 frames from walk.json"), "{stdout}");
    assert!(
        stdout.contains("--auto"),
        "the explanation says how to cut: {stdout}"
    );
    assert_eq!(frame_rects(&out), named);
    // Written again over its own output, the .sprat just written is not taken for the data:
    // the JSON still is.
    let (code, stdout, _) = sprat(&["cut", text(&png), "--force", "-o", text(&out)]);
    assert_eq!(code, 0);
    assert!(stdout.contains("from walk.json"), "{stdout}");
    // --auto cuts by the pixels whatever lies beside the sheet.
    let auto = dir.path().join("auto.sprat");
    let (code, stdout, stderr) = sprat(&["cut", text(&png), "--auto", "-o", text(&auto)]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("cut 3 frames"), "{stdout}");
    assert_ne!(frame_rects(&auto), named);
}

#[test]
fn a_phaser_3_multi_atlas_beside_its_sheets_is_read_for_each_sheets_frames() {
    // Phaser 3's atlas JSON (TexturePacker's "Phaser 3" export): a `textures` list, each
    // sheet with its image and frames, and no `frames` at the top.
    let dir = tempfile::tempdir().unwrap();
    for name in ["city-0.png", "city-1.png"] {
        let mut sheet = RgbaImage::new(64, 32);
        sheet.put_pixel(5, 5, image::Rgba([1, 2, 3, 255]));
        sheet.save(dir.path().join(name)).unwrap();
    }
    let frame = |name: &str, x: i32, w: u32| {
        format!(
            "{{ \"filename\": \"{name}\", \"rotated\": false, \"trimmed\": true, \
             \"sourceSize\": {{ \"w\": 40, \"h\": 32 }}, \
             \"spriteSourceSize\": {{ \"x\": 2, \"y\": 0, \"w\": {w}, \"h\": 30 }}, \
             \"frame\": {{ \"x\": {x}, \"y\": 1, \"w\": {w}, \"h\": 30 }}, \
             \"anchor\": {{ \"x\": 0.5, \"y\": 0.5 }} }}"
        )
    };
    let texture = |image: &str, frames: &[String]| {
        format!(
            "{{ \"image\": \"{image}\", \"format\": \"RGBA8888\", \
             \"size\": {{ \"w\": 64, \"h\": 32 }}, \"scale\": 1, \"frames\": [{}] }}",
            frames.join(", ")
        )
    };
    let json = format!(
        "{{ \"textures\": [{}, {}], \"meta\": {{ \"app\": \
         \"https://www.codeandweb.com/texturepacker\", \"version\": \"3.0\" }} }}",
        texture(
            "city-0.png",
            &[frame("walk/1.png", 1, 20), frame("walk/2.png", 23, 18)]
        ),
        texture("city-1.png", &[frame("walk/3.png", 40, 22)])
    );
    std::fs::write(dir.path().join("city.json"), json).unwrap();
    let rect = |x, width| PixelRect {
        x,
        y: 1,
        width,
        height: 30,
    };
    let first = sprat::assets::sheet_data::data_beside(&dir.path().join("city-0.png"), None)
        .expect("the atlas names frames on the first sheet");
    assert_eq!(first.rects, vec![rect(1, 20), rect(23, 18)]);
    assert_eq!(first.describe(), "read 2 frames from city.json");
    let second = sprat::assets::sheet_data::data_beside(&dir.path().join("city-1.png"), None)
        .expect("and on the second");
    assert_eq!(second.rects, vec![rect(40, 22)]);
    // A file with neither frames nor textures is refused with a sentence.
    std::fs::write(dir.path().join("empty.json"), "{ \"meta\": {} }").unwrap();
    let (code, _, stderr) = sprat(&["check", text(&dir.path().join("empty.json"))]);
    assert_ne!(code, 0);
    assert!(stderr.contains("no \"frames\""), "{stderr}");
}

#[test]
fn a_solarus_sheet_is_read_from_the_dat_that_cuts_it() {
    // The quest's own folder, read in place: khorneth.dat cuts khorneth.png, and the other
    // sprites' files there cut other sheets.
    let folder = common::corpus().join("solarus/lua-1.x/zsdx/sprites/enemies");
    let sheet = folder.join("khorneth.png");
    let data = sprat::assets::sheet_data::data_beside(&sheet, None).expect("a .dat names it");
    assert_eq!(data.file, folder.join("khorneth.dat"));
    let doc = load(&folder.join("khorneth.dat"));
    let mut distinct: Vec<PixelRect> = Vec::new();
    for slice in &doc.slices {
        if doc.image(slice.image).and_then(|i| i.resolved.as_deref()) == Some(sheet.as_path())
            && !distinct.contains(&slice.rect)
        {
            distinct.push(slice.rect);
        }
    }
    assert!(distinct.len() > 1);
    assert_eq!(data.rects, distinct);
    assert_eq!(
        data.describe(),
        format!("read {} frames from khorneth.dat", distinct.len())
    );
    // A sheet cut by a file named otherwise is found too.
    let eye = sprat::assets::sheet_data::data_beside(&folder.join("flora_gohma.png"), None);
    assert_eq!(
        eye.map(|d| d.file),
        Some(folder.join("flora_gohma_eye.dat"))
    );
}
