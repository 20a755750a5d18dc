//! Budget (issue 2): at least 10 million `advance` calls per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sprat::model::fixtures::long_sequence;
use sprat::playback::Player;
use std::hint::black_box;
use std::time::Duration;

fn advance(c: &mut Criterion) {
    let set = long_sequence(100);
    let sequence = set.sequences()[0].id;
    let mut group = c.benchmark_group("playback");
    const CALLS: u64 = 10_000;
    group.throughput(Throughput::Elements(CALLS));
    group.bench_function("advance x10000 (144 Hz steps)", |b| {
        let mut player = Player::new(&set, sequence, 0);
        player.play(&set);
        b.iter(|| {
            for _ in 0..CALLS {
                player.advance(&set, black_box(Duration::from_nanos(6_944_444)));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, advance);
criterion_main!(benches);
