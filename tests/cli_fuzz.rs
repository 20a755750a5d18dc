//! The real `sprat` binary on damaged input: corpus files of every format emptied, truncated,
//! mutated and replaced by random bytes, through `check`, `info --json`, `render` (a frame and
//! a GIF) and `convert`. Whatever the bytes, the program answers with an exit code of its own
//! (0-3): never a panic (101), an abort (134) or a signal, and never a hang.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one run may take before it counts as a hang (a debug build on a busy machine).
const LIMIT: Duration = Duration::from_secs(60);

/// A small deterministic generator (xorshift64*), so a failure is reproducible.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// The files to damage: one or more of every format Sprat reads, with the files they name
/// copied beside them so the damage reaches images and archives too.
fn seeds(dir: &Path) -> Vec<PathBuf> {
    let corpus = common::corpus();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    let mut files = Vec::new();
    let copy = |from: PathBuf, name: &str| {
        let to = dir.join(name);
        std::fs::copy(&from, &to).unwrap();
        to
    };
    copy(demo.join("demo.png"), "demo.png");
    files.push(copy(demo.join("demo.sprat"), "demo.sprat"));
    files.push(copy(
        corpus.join("solarus/zsd/sprites/entities/bush.zsd"),
        "bush.zsd",
    ));
    files.push(copy(
        corpus.join("solarus/dat-0.9/sprites/enemies/ganon.dat"),
        "ganon09.dat",
    ));
    files.push(copy(
        corpus.join("solarus/lua-1.x/zsdx/sprites/enemies/ganon.dat"),
        "ganon.dat",
    ));
    copy(corpus.join("mugen/gofx/gofx.air"), "gofx.air");
    files.push(copy(corpus.join("mugen/gofx/gofx.def"), "gofx.def"));
    files.push(copy(corpus.join("mugen/gofx/gofx.air"), "alone.air"));
    files.push(copy(corpus.join("mugen/fonts/f-6x9.sff"), "font.sff"));
    files.push(copy(
        corpus.join("mugen/stages_ikemen2018/stage0.sff"),
        "stage0.sff",
    ));
    files.push(copy(
        corpus.join("adl/mods/basegame/sprites/test_sprite_emsv.properties"),
        "emsv.properties",
    ));
    // An ISPRITE file (the corpus has none): the demo converted by the binary itself.
    let isprite = dir.join("demo.isprite");
    let converted = sprat(&[
        "convert",
        dir.join("demo.sprat").to_str().unwrap(),
        isprite.to_str().unwrap(),
        "--allow-loss",
    ]);
    assert_eq!(converted.0, Some(0), "{converted:?}");
    files.push(isprite);
    files
}

/// Runs the binary; the exit code (`None` for a signal) and stderr. Panics on a hang.
fn sprat(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sprat"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("sprat {} did not end within {LIMIT:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Every command on `file`: each must end with one of Sprat's own exit codes.
fn every_command_ends_well(file: &Path, scratch: &Path) {
    let file_text = file.to_str().unwrap();
    let png = scratch.join("out.png");
    let gif = scratch.join("out.gif");
    let converted = scratch.join("out.sprat");
    let runs: [Vec<&str>; 5] = [
        vec!["check", file_text],
        vec!["info", "--json", file_text],
        vec![
            "render",
            file_text,
            "--frame",
            "0",
            "-o",
            png.to_str().unwrap(),
        ],
        vec!["render", file_text, "--gif", "-o", gif.to_str().unwrap()],
        vec![
            "convert",
            file_text,
            converted.to_str().unwrap(),
            "--force",
            "--allow-loss",
        ],
    ];
    for args in runs {
        let (code, stderr) = sprat(&args);
        assert!(
            matches!(code, Some(0..=3)),
            "sprat {} ended with {code:?}:\n{stderr}",
            args.join(" ")
        );
        assert!(
            !stderr.contains("panicked"),
            "sprat {}:\n{stderr}",
            args.join(" ")
        );
    }
}

#[test]
fn damaged_files_of_every_format_never_crash_or_hang_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let mut noise = Noise(0x5EED_0017);
    for seed in seeds(dir.path()) {
        let original = std::fs::read(&seed).unwrap();
        let mut variants: Vec<Vec<u8>> = vec![
            Vec::new(),
            original[..original.len() / 3].to_vec(),
            noise.bytes(original.len().clamp(1, 4096)),
        ];
        for _ in 0..2 {
            let mut mutated = original.clone();
            for _ in 0..8 {
                if mutated.is_empty() {
                    break;
                }
                let at = noise.below(mutated.len());
                mutated[at] = noise.next() as u8;
            }
            variants.push(mutated);
        }
        for bytes in variants {
            std::fs::write(&seed, &bytes).unwrap();
            every_command_ends_well(&seed, scratch.path());
        }
        std::fs::write(&seed, &original).unwrap();
    }
}

#[test]
fn check_on_a_folder_of_damaged_files_reports_each_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let mut noise = Noise(42);
    for name in [
        "a.sff",
        "b.air",
        "c.def",
        "d.dat",
        "e.isprite",
        "f.sprat",
        "g.zsd",
    ] {
        std::fs::write(dir.path().join(name), noise.bytes(2048)).unwrap();
    }
    std::fs::write(dir.path().join("h.sff"), b"").unwrap();
    let (code, stderr) = sprat(&["check", "--jobs", "3", dir.path().to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stderr}");
    for name in ["a.sff", "c.def", "e.isprite", "f.sprat", "h.sff"] {
        assert!(stderr.contains(name), "{name} not reported:\n{stderr}");
    }
}
