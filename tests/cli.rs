//! The command line, run in-process on the bundled demo.

mod common;

use common::sprat;

use std::path::{Path, PathBuf};

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat")
}

#[test]
fn info_lists_sequences_with_counts_durations_boxes_and_points() {
    let (code, out, _) = sprat(&["info", demo().to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("3 sequences, 15 frames"), "{out}");
    assert!(
        out.contains("idle (default): 1 direction, loops at frame 0"),
        "{out}"
    );
    assert!(out.contains("walk: 1 direction, loops at frame 2"), "{out}");
    assert!(out.contains("attack: 1 direction, then \"idle\""), "{out}");
    assert!(
        out.contains("5 frames, 420 ms, 5 graphics, boxes: 2 hit, 10 hurt, points: weapon"),
        "{out}"
    );
}

#[test]
fn info_counts_the_boxes_in_force_as_json_does() {
    let kfm = common::corpus().join("mugen/kfm/kfm.def");
    let kfm = kfm.to_str().unwrap();
    let (code, text, _) = sprat(&["info", kfm]);
    assert_eq!(code, 0);
    let (_, json, _) = sprat(&["info", "--json", kfm]);
    let json: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    // Action 0 declares two default hurt boxes on its first frame; its other frames inherit
    // them.
    let action = json["files"][0]["document"]["sequences"]
        .as_array()
        .unwrap_or_else(|| panic!("{json}"))
        .iter()
        .find(|s| s["name"] == "0")
        .unwrap_or_else(|| panic!("{json}"));
    let frames = action["directions"][0]["frames"].as_array().unwrap();
    let in_force: usize = frames
        .iter()
        .map(|f| f["boxes"].as_array().map_or(0, Vec::len))
        .sum();
    assert!(in_force > 2, "{action}");
    let line = text
        .lines()
        .skip_while(|l| !l.starts_with("0 "))
        .nth(1)
        .unwrap();
    assert!(
        line.ends_with(&format!("boxes: {in_force} hurt")),
        "{line} ({in_force} in force)"
    );
}

#[test]
fn info_of_an_aseprite_file_counts_its_slices_and_says_nothing_of_cut_outs() {
    let path = common::corpus().join("aseprite/slice_advanced.aseprite");
    let slices = asefile::AsepriteFile::read_file(&path)
        .unwrap()
        .slices()
        .len();
    let (code, out, _) = sprat(&["info", path.to_str().unwrap()]);
    assert_eq!(code, 0);
    let first = out.lines().nth(1).unwrap();
    assert!(
        first.ends_with(&format!(", {slices} slices")),
        "{first} ({slices} slices in the file)"
    );
    assert!(!out.contains("(s)") && !out.contains("cut-out"), "{out}");
    // The demo's sheet cells are image cut-outs, said as such.
    let (_, out, _) = sprat(&["info", demo().to_str().unwrap()]);
    assert!(out.contains("1 image, 15 image cut-outs\n"), "{out}");
}

#[test]
fn check_exits_zero_on_a_clean_file_and_one_on_errors() {
    let (code, out, _) = sprat(&["check", demo().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 errors, 0 warnings"));
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let broken = dir.join("broken.sprat");
    std::fs::write(
        &broken,
        "(version: 1, set: (root: (id: 0, items: [], next_id: 1)\n",
    )
    .unwrap();
    let (code, _, err) = sprat(&["check", broken.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("broken.sprat:"), "{err}");
}

#[test]
fn convert_to_the_same_format_unedited_gives_the_same_bytes() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let demo_copy = dir.join("demo.sprat");
    std::fs::copy(demo(), &demo_copy).unwrap();
    // The picture it names too: a project whose picture is missing has an error.
    std::fs::copy(demo().with_file_name("demo.png"), dir.join("demo.png")).unwrap();
    let out_path = dir.join("copy.sprat");
    let (code, out, err) = sprat(&[
        "convert",
        demo_copy.to_str().unwrap(),
        out_path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        std::fs::read(&out_path).unwrap(),
        std::fs::read(&demo_copy).unwrap()
    );
}

#[test]
fn convert_refuses_to_overwrite_without_force() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let out_path = dir.join("x.sprat");
    std::fs::write(&out_path, "keep me").unwrap();
    let (code, _, err) = sprat(&[
        "convert",
        demo().to_str().unwrap(),
        out_path.to_str().unwrap(),
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), "keep me");
    let (code, _, err) = sprat(&[
        "convert",
        demo().to_str().unwrap(),
        out_path.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_ne!(std::fs::read_to_string(&out_path).unwrap(), "keep me");
}

#[test]
fn convert_names_unknown_target_formats() {
    let (code, _, err) = sprat(&["convert", demo().to_str().unwrap(), "/tmp/x.unknown-ext"]);
    assert_eq!(code, 2);
    assert!(err.contains("use --to"), "{err}");
    let (code, _, err) = sprat(&[
        "convert",
        demo().to_str().unwrap(),
        "/tmp/x.y",
        "--to",
        "nope",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown format \"nope\""), "{err}");
}

#[test]
fn render_writes_a_frame_a_strip_and_a_gif() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let frame = dir.join("frame.png");
    let (code, _, err) = sprat(&[
        "render",
        demo().to_str().unwrap(),
        "--sequence",
        "attack",
        "--frame",
        "2",
        "--overlay",
        "-o",
        frame.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let picture = image::open(&frame).unwrap().to_rgba8();
    // The hit box of attack frame 2 (6..24 x -20..-8) is drawn in red over the sword.
    assert!(
        picture
            .pixels()
            .any(|p| p[0] > 200 && p[1] < 80 && p[2] < 80 && p[3] > 0)
    );

    let strip = dir.join("strip.png");
    let (code, _, err) = sprat(&[
        "render",
        demo().to_str().unwrap(),
        "-s",
        "walk",
        "--strip",
        "--scale",
        "2",
        "-o",
        strip.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (w, h) = image::image_dimensions(&strip).unwrap();
    assert_eq!(w % 6, 0, "six equal cells");
    assert!(h > 0 && w / 6 > 0);

    let gif = dir.join("walk.gif");
    let (code, _, err) = sprat(&[
        "render",
        demo().to_str().unwrap(),
        "-s",
        "walk",
        "--gif",
        "-o",
        gif.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(&std::fs::read(&gif).unwrap()[..6], b"GIF89a");
}

#[test]
fn render_names_an_archive_that_cannot_be_found_and_writes_nothing() {
    // KFM's .def and .air without the .sff they name: the reader never finds the archive, and a
    // picture of holes is not written.
    let kfm = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/mugen/kfm");
    let scratch = tempfile::tempdir().unwrap();
    for name in ["kfm.def", "kfm.air"] {
        std::fs::copy(kfm.join(name), scratch.path().join(name)).unwrap();
    }
    let out = scratch.path().join("frame.png");
    let (code, _, err) = sprat(&[
        "render",
        scratch.path().join("kfm.def").to_str().unwrap(),
        "--frame",
        "0",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("kfm.sff cannot be found"), "{err}");
    assert!(!out.exists());
}

#[test]
fn render_names_the_sequences_and_directions_that_exist() {
    let (code, _, err) = sprat(&[
        "render",
        demo().to_str().unwrap(),
        "-s",
        "run",
        "--frame",
        "0",
        "-o",
        "/tmp/never.png",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("there are: idle, walk, attack"), "{err}");
    let (code, _, err) = sprat(&[
        "render",
        demo().to_str().unwrap(),
        "-s",
        "idle",
        "-d",
        "3",
        "--frame",
        "0",
        "-o",
        "/tmp/never.png",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("has no direction 3"), "{err}");
}

#[test]
fn render_game_sheet_lays_out_every_adl_animation_on_its_row() {
    let pip =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/adl/mods/sprat/sprites/pip.properties");
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let out = dir.join("sheet.png");
    let (code, _, err) = sprat(&[
        "render",
        pip.to_str().unwrap(),
        "--strip",
        "--game-sheet",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let document = sprat::formats::registry()
        .open(&pip, &sprat::formats::ReadContext::default())
        .unwrap()
        .0
        .document;
    let layout = sprat::formats::adl::game_sheet_layout(&document).unwrap();
    let (w, h) = image::image_dimensions(&out).unwrap();
    assert_eq!((w as u64, h as u64), layout.size());
    // A file with no game layout is refused plainly.
    let (code, _, err) = sprat(&[
        "render",
        demo().to_str().unwrap(),
        "--strip",
        "--game-sheet",
        "--force",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("needs an ADL file"), "{err}");
}

#[test]
fn convert_keeps_the_inputs_format_when_the_output_extension_fits_it() {
    // A Solarus 0.9 `.dat` written to another `.dat` stays 0.9 (the Lua format of 1.x shares the
    // extension); `--to` still chooses.
    let input = common::corpus().join("solarus/dat-0.9/sprites/hero/tunic1.dat");
    let scratch = tempfile::tempdir().unwrap();
    let output = scratch.path().join("new.dat");
    let (code, out, err) = sprat(&["convert", input.to_str().unwrap(), output.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("0.9 .dat"), "{out}");
    assert_eq!(
        std::fs::read(&output).unwrap(),
        std::fs::read(&input).unwrap(),
        "unedited, the same format writes the same bytes"
    );
    let lua = scratch.path().join("lua.dat");
    let (code, out, err) = sprat(&[
        "convert",
        input.to_str().unwrap(),
        lua.to_str().unwrap(),
        "--to",
        "solarus-lua",
        "--allow-loss",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        std::fs::read_to_string(&lua)
            .unwrap()
            .contains("animation{"),
        "--to still chooses the Lua format"
    );
}

/// A copy of KFM in `dir/evil` whose `.def` names its `.air` by `anim` (any path).
fn kfm_copy_naming_its_air(dir: &Path, anim: &str) -> PathBuf {
    let source = common::corpus().join("mugen/kfm");
    let evil = dir.join("evil");
    std::fs::create_dir_all(&evil).unwrap();
    for name in ["kfm.air", "kfm.sff"] {
        std::fs::copy(source.join(name), evil.join(name)).unwrap();
    }
    let def = std::fs::read_to_string(source.join("kfm.def"))
        .unwrap()
        .replace("anim    = kfm.air", &format!("anim    = {anim}"));
    let path = evil.join("char.def");
    std::fs::write(&path, def).unwrap();
    path
}

fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_character_converted_into_another_folder_is_written_only_there() {
    let dir = tempfile::tempdir().unwrap();
    // The `.def` names the source's own `.air` by its absolute path.
    let air = dir.path().join("evil/kfm.air");
    let def = kfm_copy_naming_its_air(dir.path(), &air.display().to_string());
    let air_before = std::fs::read(&air).unwrap();
    let out = dir.path().join("other/out.def");
    let (code, stdout, stderr) = sprat(&["convert", def.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        file_names(&dir.path().join("other")),
        ["kfm.air", "out.def"]
    );
    assert_eq!(
        file_names(&dir.path().join("evil")),
        ["char.def", "kfm.air", "kfm.sff"],
        "nothing written beside the source"
    );
    assert_eq!(std::fs::read(&air).unwrap(), air_before);
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("anim    = kfm.air"), "{written}");
    assert!(written.contains("sprite  = ../evil/kfm.sff"), "{written}");
    // The rest of the `.def` is as it was.
    let original = std::fs::read_to_string(&def).unwrap();
    assert_eq!(written.lines().count(), original.lines().count());
    let (code, stdout, stderr) = sprat(&["check", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains(" 0 errors"), "{stdout}");
    assert!(
        !stdout.contains("not found"),
        "the sprite file is found: {stdout}"
    );
}

#[test]
fn a_conversion_never_writes_outside_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let def = kfm_copy_naming_its_air(dir.path(), "../outside/kfm.air");
    std::fs::create_dir_all(dir.path().join("outside")).unwrap();
    std::fs::copy(
        dir.path().join("evil/kfm.air"),
        dir.path().join("outside/kfm.air"),
    )
    .unwrap();
    let copy = dir.path().join("evil/copy.def");
    let (code, stdout, stderr) = sprat(&["convert", def.to_str().unwrap(), copy.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stderr.contains("outside the folder"), "{stderr}");
    assert!(!copy.exists());
    assert_eq!(file_names(&dir.path().join("outside")), ["kfm.air"]);
}

#[test]
fn completions_name_every_command_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (code, out, err) = sprat(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        for word in ["info", "check", "convert", "render", "boxes", "allow-loss"] {
            assert!(out.contains(word), "{shell} completions lack {word}");
        }
    }
}

/// Every command and option the README's synopsis names is in `man sprat`, and every
/// command of the program has its section there.
#[test]
fn the_manual_page_lists_every_command_and_option_of_the_synopsis() {
    let (code, page, err) = sprat(&["manpage"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        page.contains("\n.TH sprat 1 "),
        "{}",
        &page[..200.min(page.len())]
    );
    // roff writes a hyphen of an option as `\-`.
    let page = page.replace("\\-", "-");

    use clap::CommandFactory;
    let command = sprat::cli::Cli::command();
    let subcommands: Vec<&str> = command.get_subcommands().map(|s| s.get_name()).collect();
    assert!(subcommands.len() >= 7, "{subcommands:?}");
    for name in &subcommands {
        let section = format!(".SH \"SPRAT {}\"", name.to_uppercase());
        assert!(page.contains(&section), "no section for {name}");
    }

    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let synopsis = readme
        .split("## Command line\n\n```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the README's synopsis");
    let mut named = 0;
    for line in synopsis.lines() {
        if let Some(rest) = line.strip_prefix("sprat ") {
            let command = rest.split_whitespace().next().unwrap();
            if command.chars().all(|c| c.is_ascii_lowercase()) {
                assert!(
                    page.contains(&format!("SPRAT {}", command.to_uppercase())),
                    "{command}"
                );
                named += 1;
            }
        }
        for word in line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
            if word.starts_with("--") && word.len() > 2 {
                assert!(page.contains(word), "{word}");
                named += 1;
            }
        }
    }
    assert!(
        named > 20,
        "the synopsis was not found whole: {named} names"
    );
}

/// `sprat --version`: the package version, and the commit when built from a git checkout.
#[test]
fn version_names_the_package_version_and_the_commit() {
    use clap::CommandFactory;
    let version = sprat::cli::Cli::command().render_version();
    let package = env!("CARGO_PKG_VERSION");
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let expected = match commit {
        Some(commit) => format!("sprat {package} ({commit})\n"),
        None => format!("sprat {package}\n"),
    };
    assert_eq!(version, expected);
}
