//! Budget (issue 2): read and write a 10,000-frame Sprat file, each under 50 ms on one core.

use criterion::{Criterion, criterion_group, criterion_main};
use sprat::formats::sprat::SpratFormat;
use sprat::formats::{Format, ReadContext, WriteContext};
use sprat::model::fixtures::long_sequence;
use std::hint::black_box;

fn sprat_file(c: &mut Criterion) {
    let mut set = long_sequence(10_000);
    let bytes = SpratFormat
        .write(&set, &WriteContext::default())
        .unwrap()
        .bytes;
    c.bench_function("sprat read 10k frames", |b| {
        b.iter(|| {
            SpratFormat
                .read(black_box(&bytes), &ReadContext::default())
                .unwrap()
        })
    });
    // A changed document, so the writer really encodes instead of returning the original bytes.
    set.metadata.title = "edited".into();
    c.bench_function("sprat write 10k frames", |b| {
        b.iter(|| {
            SpratFormat
                .write(black_box(&set), &WriteContext::default())
                .unwrap()
        })
    });
}

criterion_group!(benches, sprat_file);
criterion_main!(benches);
