//! ADL reading and saving. A character file is read when it is opened and parsed again on
//! every save (to keep unedited bytes), so both should take well under a millisecond.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sprat::formats::adl::{AdlFormat, move_part};
use sprat::formats::{Format, ReadContext, WriteContext};
use sprat::model::Point;
use std::hint::black_box;
use std::path::Path;

fn demo_bytes() -> Vec<u8> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/adl/mods/sprat/sprites/pip.properties");
    std::fs::read(path).unwrap()
}

fn adl(c: &mut Criterion) {
    let bytes = demo_bytes();
    let mut group = c.benchmark_group("adl");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("read pip.properties", |b| {
        b.iter(|| {
            AdlFormat
                .read(black_box(&bytes), &ReadContext::default())
                .unwrap()
        })
    });
    let mut edited = AdlFormat
        .read(&bytes, &ReadContext::default())
        .unwrap()
        .document;
    let walk = edited.sequence_by_name("ANIM_WALK").unwrap().directions[0].frames[1];
    move_part(&mut edited, walk, "HEAD", Point::from_ints(1, 0));
    group.bench_function("save pip.properties with one part moved", |b| {
        b.iter(|| {
            AdlFormat
                .write(black_box(&edited), &WriteContext::default())
                .unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, adl);
criterion_main!(benches);
