//! Converting with relative paths, as a user types them in a terminal: every image the written
//! file names is found again, whatever folder the command ran in (issue: `sprat convert
//! hero/tunic1.dat tunic1.sprat` run from a Solarus `sprites/` folder wrote
//! `hero/hero/stopped.tunic.png`).

mod common;

use std::path::Path;
use std::process::Command;

/// Runs the real binary in `dir`; panics with its output unless it exits 0.
fn sprat_in(dir: &Path, args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_sprat"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success(),
        "sprat {args:?} in {dir:?}:\n{text}"
    );
    text
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// `source` (relative to `workdir`) converted to `.sprat` and `.isprite`, beside and in another
/// folder, then checked and its default sequence rendered from a different folder: no image
/// may be missing.
fn converts_with_relative_paths(workdir: &Path, source: &str) {
    for output in [
        "converted.sprat",
        "out/converted.sprat",
        "out/converted.isprite",
    ] {
        sprat_in(workdir, &["convert", source, output, "--allow-loss"]);
        let elsewhere = workdir.parent().unwrap();
        let written = workdir.join(output);
        let checked = sprat_in(elsewhere, &["check", written.to_str().unwrap()]);
        assert!(checked.contains("0 errors"), "{output}: {checked}");
        let strip = workdir.join("strip.png");
        sprat_in(
            elsewhere,
            &[
                "render",
                written.to_str().unwrap(),
                "--strip",
                "--force",
                "-o",
                strip.to_str().unwrap(),
            ],
        );
        let picture = image::open(&strip).unwrap();
        assert!(picture.width() > 1 && picture.height() > 1, "{output}");
        std::fs::remove_dir_all(workdir.join("out")).ok();
    }
}

#[test]
fn a_solarus_sprite_converted_from_its_sprites_folder_keeps_its_images() {
    let scratch = tempfile::tempdir().unwrap();
    let sprites = scratch.path().join("quest/sprites");
    copy_dir(
        &common::corpus().join("solarus/lua-1.x/zsdx/sprites/hero"),
        &sprites.join("hero"),
    );
    converts_with_relative_paths(&sprites, "hero/tunic1.dat");
}

#[test]
fn a_mugen_character_converted_from_its_folder_keeps_its_sprites() {
    let scratch = tempfile::tempdir().unwrap();
    let chars = scratch.path().join("mugen/chars");
    let kfm = chars.join("kfm");
    std::fs::create_dir_all(&kfm).unwrap();
    for name in ["kfm.def", "kfm.air", "kfm.sff"] {
        std::fs::copy(
            common::corpus().join("mugen/kfm").join(name),
            kfm.join(name),
        )
        .unwrap();
    }
    converts_with_relative_paths(&chars, "kfm/kfm.def");
}

#[test]
fn an_adl_character_converted_from_the_assets_folder_keeps_its_body_parts() {
    let scratch = tempfile::tempdir().unwrap();
    let assets = scratch.path().join("assets");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/adl"),
        &assets,
    );
    converts_with_relative_paths(&assets, "mods/sprat/sprites/pip.properties");
}
