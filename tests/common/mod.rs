//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod allocation;
pub mod browser;
pub mod fuzz;

use std::path::{Path, PathBuf};

/// The shared corpus of real files (`../shared/corpus` beside the repository).
pub fn corpus() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    assert!(
        root.is_dir(),
        "the shared corpus is missing at {}",
        root.display()
    );
    root
}

/// Copies `from` to `to` as a user's own copy: writable (the corpus is kept read-only, and a
/// save refuses to replace a file without write permission).
pub fn copy_writable(from: &Path, to: &Path) {
    std::fs::copy(from, to).unwrap();
    let mut permissions = std::fs::metadata(to).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    permissions.set_readonly(false);
    std::fs::set_permissions(to, permissions).unwrap();
}

/// Every file below `dir` whose name ends with one of `extensions` (lowercase, no dot), sorted.
pub fn files_with_extensions(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path.file_name().unwrap().to_string_lossy().to_lowercase();
                if extensions.iter().any(|e| name.ends_with(&format!(".{e}"))) {
                    out.push(path);
                }
            }
        }
    }
    out.sort();
    out
}

/// Compares `actual` pixel for pixel with `tests/golden/<folder>/<name>.png`, or rewrites that
/// file when `UPDATE_GOLDEN` is set (then look at it before committing: golden files are the
/// specification).
pub fn check_golden(folder: &str, name: &str, actual: &image::RgbaImage) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(folder)
        .join(format!("{name}.png"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        actual.save(&path).unwrap();
        return;
    }
    let expected = image::open(&path)
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (run with UPDATE_GOLDEN=1 to create it)",
                path.display()
            )
        })
        .into_rgba8();
    assert_eq!(
        expected.dimensions(),
        actual.dimensions(),
        "{name}: canvas size"
    );
    let differing: Vec<(u32, u32)> = expected
        .enumerate_pixels()
        .filter(|(x, y, p)| actual.get_pixel(*x, *y) != *p)
        .map(|(x, y, _)| (x, y))
        .take(5)
        .collect();
    assert!(
        differing.is_empty(),
        "{name}: pixels differ from the golden image, first at {differing:?}"
    );
}

/// Runs the command line in this process with `args` (after `sprat`): exit code, standard
/// output, standard error.
pub fn sprat(args: &[&str]) -> (i32, String, String) {
    use clap::Parser;
    let mut argv = vec!["sprat"];
    argv.extend_from_slice(args);
    let cli = sprat::cli::Cli::try_parse_from(argv).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = sprat::cli::run(cli.command.expect("a subcommand"), &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// A layered Aseprite character written by the library into `dir`: the corpus'
/// `linked_cels.aseprite` (three layers, linked cels) with "Hitbox" and "Damage" slices added
/// on its first two frames, saved through the Aseprite writer (which splices the slices into
/// the original file). No corpus file has layers, linked cels and slices together.
pub fn layered_aseprite_with_slices(dir: &Path) -> PathBuf {
    use sprat::edit::boxes::{AddBox, BoxTarget, FrameAt};
    use sprat::formats::ReadContext;
    use sprat::model::{BoxClass, Fx, Shape};
    use sprat::session::Session;

    let source = corpus().join("aseprite/linked_cels.aseprite");
    let mut session = Session::open(&source, &ReadContext::for_path(&source)).unwrap();
    let sequence = session.document().sequences()[0].id;
    for (index, name, (x, y, width, height)) in [
        (0, "Hitbox", (2, 3, 6, 5)),
        (0, "Damage", (1, 1, 4, 4)),
        (1, "Hitbox", (3, 2, 5, 6)),
    ] {
        let at = FrameAt {
            sequence,
            direction: 0,
            index,
        };
        let add = AddBox {
            target: BoxTarget::new(at),
            class: BoxClass::Custom(name.to_string()),
            shape: Shape::Rect {
                x: Fx::from_int(x),
                y: Fx::from_int(y),
                width: Fx::from_int(width),
                height: Fx::from_int(height),
                rotation: 0.0,
            },
        };
        session.apply(&add, None).unwrap();
    }
    let path = dir.join("character.aseprite");
    let pending = session.prepare_save_as(&path, "aseprite", None).unwrap();
    let report = session.commit_save_as(pending).unwrap();
    assert!(report.losses.is_empty(), "{:?}", report.losses);
    path
}
