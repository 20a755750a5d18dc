//! AIR parsing speed on Kung Fu Man's kfm.air (goal: at least 100 MB/s).
//!
//! `parse` is the text to its syntax tree; `read` is the whole reader, syntax tree to document
//! model included (without looking for files on disk).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sprat::formats::mugen::AirFormat;
use sprat::formats::mugen::air_syntax::parse_air;
use sprat::formats::{Format, ReadContext};
use std::hint::black_box;
use std::path::Path;

fn kfm_air() -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/mugen/kfm/kfm.air");
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn air(c: &mut Criterion) {
    let bytes = kfm_air();
    let mut group = c.benchmark_group("kfm.air");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("parse", |b| b.iter(|| parse_air(black_box(&bytes), true)));
    group.bench_function("read", |b| {
        b.iter(|| AirFormat.read(black_box(&bytes), &ReadContext::default()))
    });
    group.finish();
}

criterion_group!(benches, air);
criterion_main!(benches);
