//! `sprat check` budgets: the 20,000-link SFF (each link shares its target's pixels) under
//! 1 s, a folder of 1,000 files at least 1.6x faster on 2 cores than on 1, and the same folder
//! checked with the box lint in at most twice the time without it (each distinct picture's
//! mask drawn once per run), and one HD character (2,000 different 1280x720 sprites) checked
//! at least 1.7x faster with `--jobs 2` than with `--jobs 1` on 2 cores.

#[path = "../tests/adversarial/mod.rs"]
mod adversarial;
#[allow(dead_code)] // Only the 1280x720 figure and the character writer are used here.
#[path = "common/generated_sff.rs"]
mod generated_sff;

use clap::Parser;
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::Path;

fn check(args: &[&str]) -> i32 {
    let mut argv = vec!["sprat", "check"];
    argv.extend_from_slice(args);
    let cli = sprat::cli::Cli::try_parse_from(argv).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    sprat::cli::run(cli.command.unwrap(), &mut out, &mut err)
}

fn links(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("links.sff");
    std::fs::write(&path, adversarial::sff_with_links(4096, 8192, 20_000)).unwrap();
    let path = path.to_str().unwrap();
    let mut group = c.benchmark_group("check");
    group.sample_size(10);
    group.bench_function("sff_20000_links_to_one_4096x8192_lz5", |b| {
        b.iter(|| assert_eq!(check(&[path]), 0))
    });
    group.finish();
}

/// 1,000 documents: the demo project, its sheet beside each tenth, the rest in subfolders.
fn folder_of_documents(dir: &Path) {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    for folder in 0..100 {
        let sub = dir.join(format!("set{folder:03}"));
        std::fs::create_dir(&sub).unwrap();
        std::fs::copy(demo.join("demo.png"), sub.join("demo.png")).unwrap();
        for file in 0..10 {
            std::fs::copy(
                demo.join("demo.sprat"),
                sub.join(format!("demo{file}.sprat")),
            )
            .unwrap();
        }
    }
}

fn folder(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    folder_of_documents(dir.path());
    let path = dir.path().to_str().unwrap();
    let mut group = c.benchmark_group("check_1000_files");
    group.sample_size(10);
    for jobs in ["1", "2"] {
        group.bench_function(format!("jobs_{jobs}"), |b| {
            b.iter(|| assert_eq!(check(&["--jobs", jobs, path]), 0))
        });
    }
    group.finish();
}

fn lint(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    folder_of_documents(dir.path());
    let path = dir.path().to_str().unwrap();
    let mut group = c.benchmark_group("check_1000_files_box_lint");
    group.sample_size(10);
    group.bench_function("off", |b| {
        b.iter(|| assert_eq!(check(&["--jobs", "1", "--no-box-lint", path]), 0))
    });
    group.bench_function("on", |b| {
        b.iter(|| assert_eq!(check(&["--jobs", "1", path]), 0))
    });
    group.finish();
}

fn hd_character(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let archive = generated_sff::archive_of(2_000, (640, 719), generated_sff::hd_figure);
    let def = generated_sff::write_character(dir.path(), &archive, 20, 100, 2);
    drop(archive);
    let path = def.to_str().unwrap();
    let mut group = c.benchmark_group("check_hd_character");
    group.sample_size(10);
    for jobs in ["1", "2"] {
        group.bench_function(format!("jobs_{jobs}"), |b| {
            b.iter(|| assert_eq!(check(&["--jobs", jobs, path]), 0))
        });
    }
    group.finish();
}

criterion_group!(benches, links, folder, lint, hd_character);
criterion_main!(benches);
