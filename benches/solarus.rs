//! Reading and saving the whole Solarus corpus. Budget: 20 ms for all files together.

use criterion::{Criterion, criterion_group, criterion_main};
use sprat::formats::{ReadContext, WriteContext, registry};
use std::hint::black_box;
use std::path::{Path, PathBuf};

fn corpus_files() -> Vec<(PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/solarus");
    let mut files = Vec::new();
    let mut folders = vec![root];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "dat" || e == "zsd") {
                let bytes = std::fs::read(&path).unwrap();
                files.push((path, bytes));
            }
        }
    }
    files.sort();
    files
}

fn read_and_write_all(c: &mut Criterion) {
    let files = corpus_files();
    // As the editor does it: images looked up in the quest (their sizes, for edge warnings).
    c.bench_function(
        "solarus corpus: read + write, with the quest on disk",
        |b| {
            b.iter(|| {
                for (path, bytes) in &files {
                    let format = registry().detect(bytes, Some(path)).unwrap();
                    let loaded = format.read(bytes, &ReadContext::for_path(path)).unwrap();
                    let written = format
                        .write(&loaded.document, &WriteContext::for_path(path))
                        .unwrap();
                    black_box(written.bytes);
                }
            })
        },
    );
    // The text work alone.
    c.bench_function("solarus corpus: read + write, bytes only", |b| {
        b.iter(|| {
            for (path, bytes) in &files {
                let format = registry().detect(bytes, Some(path)).unwrap();
                let loaded = format.read(bytes, &ReadContext::default()).unwrap();
                let written = format
                    .write(&loaded.document, &WriteContext::default())
                    .unwrap();
                black_box(written.bytes);
            }
        })
    });
}

criterion_group!(benches, read_and_write_all);
criterion_main!(benches);
