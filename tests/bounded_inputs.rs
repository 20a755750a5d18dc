//! Legal files that repeat one large thing many times: each distinct sprite or image is
//! decoded once, an image too large to hold is an error (never a panic or an abort), and
//! `check` and `render` end in bounded time.

mod adversarial;

use sprat::formats::sff::SffStore;
use sprat::model::{ImageId, ImageKind, SourceImage};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Runs the binary; exit code (`None` for a signal), stdout and stderr. Panics past `limit`.
fn sprat(args: &[&str], limit: Duration) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sprat"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("sprat {} did not end within {limit:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn archive_image(path: &Path) -> SourceImage {
    SourceImage {
        id: ImageId(1),
        path: "links.sff".into(),
        resolved: Some(path.to_path_buf()),
        kind: ImageKind::Sff {
            palettes: Vec::new(),
            active_palette: None,
        },
        nearest_neighbour: true,
    }
}

#[test]
fn linked_sprites_share_their_targets_pixels_and_keep_their_own_axis() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("links.sff");
    std::fs::write(&path, adversarial::sff_with_links(64, 32, 300)).unwrap();
    let store = SffStore::new();
    let image = archive_image(&path);
    let target = store.sprite(&image, 0, 0).unwrap();
    let first = store.sprite(&image, 1, 0).unwrap();
    let other = store.sprite(&image, 1, 7).unwrap();
    // One decode: every link shows the very same pixels.
    assert!(Arc::ptr_eq(&target.image, &first.image));
    assert!(Arc::ptr_eq(&first.image, &other.image));
    assert_eq!(target.axis, (0, 0));
    assert_eq!(other.axis, (7, 7));
    assert_eq!(first.image.dimensions(), (64, 32));
}

#[test]
fn check_of_20000_links_to_one_large_lz5_sprite_decodes_it_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("links.sff");
    let bytes = adversarial::sff_with_links(4096, 8192, 20_000);
    assert!(bytes.len() < 1 << 20, "{} bytes", bytes.len());
    std::fs::write(&path, bytes).unwrap();
    // Decoding the sprite once per link took over a minute even in a release build.
    let (code, out, err) = sprat(&["check", path.to_str().unwrap()], Duration::from_secs(60));
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("0 errors"), "{out}");
}

#[test]
fn images_too_large_to_decode_are_errors_not_crashes() {
    let dir = tempfile::tempdir().unwrap();
    // Twelve 11000x11000 textures (484 MB each decoded) in a project: each is refused at its
    // header instead of being decoded and kept.
    std::fs::write(
        dir.path().join("huge.png"),
        adversarial::large_png(11000, 11000),
    )
    .unwrap();
    let project =
        adversarial::sprat_project(dir.path(), "huge.sprat", "huge.png", (11000, 11000), 12, 1);
    let project = project.to_str().unwrap();
    let limit = Duration::from_secs(60);
    let (code, out, err) = sprat(&["check", project], limit);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("11000x11000"), "{out}");
    let frame = dir.path().join("frame.png");
    let (code, _, err) = sprat(
        &[
            "render",
            project,
            "--frame",
            "0",
            "-o",
            frame.to_str().unwrap(),
        ],
        limit,
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("11000x11000"), "{err}");
    let gif = dir.path().join("all.gif");
    let (code, _, err) = sprat(
        &["render", project, "--gif", "-o", gif.to_str().unwrap()],
        limit,
    );
    assert_eq!(code, Some(1), "{err}");
}

#[test]
fn a_hundred_elements_drawing_one_large_graphic_decode_it_once() {
    let dir = tempfile::tempdir().unwrap();
    // The renderer composites every element: the graphic is kept small for a debug build.
    std::fs::write(dir.path().join("big.png"), adversarial::large_png(256, 256)).unwrap();
    let project =
        adversarial::sprat_project(dir.path(), "many.sprat", "big.png", (256, 256), 1, 100);
    let project = project.to_str().unwrap();
    let limit = Duration::from_secs(120);
    let (code, out, err) = sprat(&["check", project], limit);
    assert_eq!(code, Some(0), "{out}{err}");
    let frame = dir.path().join("frame.png");
    let (code, _, err) = sprat(
        &[
            "render",
            project,
            "--frame",
            "0",
            "-o",
            frame.to_str().unwrap(),
        ],
        limit,
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(frame.exists());
    // The same frame as ISPRITE elements.
    let isprite = dir.path().join("many.isprite");
    let isprite = isprite.to_str().unwrap();
    let (code, _, err) = sprat(&["convert", project, isprite, "--allow-loss"], limit);
    assert_eq!(code, Some(0), "{err}");
    let (code, out, err) = sprat(&["check", isprite], limit);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, _, err) = sprat(
        &[
            "render",
            isprite,
            "--frame",
            "0",
            "--force",
            "-o",
            frame.to_str().unwrap(),
        ],
        limit,
    );
    assert_eq!(code, Some(0), "{err}");
}

#[cfg(unix)]
#[test]
fn a_gif_of_many_large_frames_is_encoded_frame_by_frame() {
    let dir = tempfile::tempdir().unwrap();
    // Small frames keep a debug build quick; what is tested is that memory does not grow
    // with the number of frames: 120 frames of 256x256 RGBA are 30 MiB if every frame is
    // kept until the end, well under 1 MiB at a time when each is encoded as it is drawn.
    std::fs::write(dir.path().join("big.png"), adversarial::large_png(256, 256)).unwrap();
    let project =
        adversarial::sprat_project(dir.path(), "long.sprat", "big.png", (256, 256), 120, 1);
    let gif = dir.path().join("long.gif");
    // The address space is limited to 54 MiB (the program itself maps about 36, the check of
    // every picture before drawing included): keeping the frames aborts (exit 134). One worker thread, sharing the main thread's heap: glibc
    // would reserve 64 MiB of address space (not memory used) for each thread's own heap, and
    // what is measured here is frames not being kept, not the threads' fixed cost.
    let script = format!(
        "ulimit -v 55296; MALLOC_ARENA_MAX=1 exec \"{}\" render \"{}\" --gif --jobs 1 -o \"{}\"",
        env!("CARGO_BIN_EXE_sprat"),
        project.display(),
        gif.display()
    );
    let output = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(gif.exists());
}
