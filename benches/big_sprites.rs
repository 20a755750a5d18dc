//! Big sprites stay smooth and bounded: a generated high-definition character (2,000 different
//! 1280x720 sprites, 20 actions of 100 frames at 2 ticks) opened in the real editor and its
//! actions played one after another in real time. Printed per action: resident memory (budget:
//! under 500 MB however many actions are played), the bytes of the textures a GPU would hold,
//! the pictures shown a second (the animation runs at 30), the slowest UI frame in the second
//! after the action was chosen (budget: under 16.7 ms, a 60 Hz display's frame) and the
//! slowest after that, each as wall time and as the UI thread's own CPU time (which a busy
//! machine's other work does not lengthen). Timed by criterion: one UI frame while an action plays, and a click on
//! a tree row while one plays.
//!
//! With `SPRAT_BENCH_FULL_HD=1`, the full-HD variant (`make_hd_character --full-hd`): 1920x1080
//! sprites at one tick a frame, 60 pictures a second.

#[allow(dead_code)] // The 5,000-sprite character's figure is the `ui` bench's.
#[path = "common/generated_sff.rs"]
mod generated_sff;

use criterion::{Criterion, criterion_group, criterion_main};
use egui::TexturesDelta;
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use egui_kittest::{Harness, TestRenderer};
use sprat::app::SpratApp;
use sprat::app::context::platform::ScriptedDialogs;
use sprat::app::context::settings::Settings;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use generated_sff::{HEIGHT, WIDTH};
const ACTIONS: u32 = 20;
/// How long after an action is chosen its UI frames count as those of the change.
const CHANGE_SECONDS: f64 = 1.0;
/// How long each action plays, in seconds of wall time.
const PLAY_SECONDS: f64 = 3.0;
/// A 60 Hz display.
const DISPLAY_FRAME: Duration = Duration::from_nanos(16_666_667);

/// Stands in for a GPU: takes the editor's texture uploads and counts the bytes the live
/// textures would hold (the default test renderer keeps every upload until it renders).
struct CountingGpu {
    sizes: HashMap<egui::TextureId, usize>,
    live_bytes: Arc<AtomicUsize>,
}

impl TestRenderer for CountingGpu {
    fn handle_delta(&mut self, delta: &mut TexturesDelta) {
        for (id, changes) in std::mem::take(&mut delta.set) {
            for change in changes.iter().filter(|c| c.pos.is_none()) {
                let [width, height] = change.image.size();
                self.sizes
                    .insert(id, width * height * change.image.bytes_per_pixel());
            }
        }
        for id in std::mem::take(&mut delta.free) {
            self.sizes.remove(&id);
        }
        self.live_bytes
            .store(self.sizes.values().sum(), Ordering::Relaxed);
    }

    fn render(
        &mut self,
        _ctx: &egui::Context,
        _output: &egui::FullOutput,
    ) -> Result<image::RgbaImage, String> {
        Err("this bench counts textures and draws nothing".into())
    }
}

/// Resident memory of this process in MiB, from /proc/self/statm (0 elsewhere than Linux).
fn resident_mib() -> f64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|statm| statm.split_whitespace().nth(1)?.parse::<f64>().ok())
        .map_or(0.0, |pages| pages * 4096.0 / 1_048_576.0)
}

/// The editor on `def` (read as the editor reads a file, its archive with it), the textures
/// it uploads counted into `live_bytes`.
fn editor_on(def: &Path, live_bytes: Arc<AtomicUsize>) -> Harness<'static, SpratApp> {
    let file = sprat::app::context::loader::load_now(def).expect("the character reads");
    let gpu = CountingGpu {
        sizes: HashMap::new(),
        live_bytes,
    };
    Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .renderer(gpu)
        .build_eframe(move |_| {
            let mut app = SpratApp::new(Settings::default(), Box::new(ScriptedDialogs::default()));
            app.show_file(file);
            app
        })
}

/// The CPU time this thread has used (zero where the system does not say).
fn thread_cpu_time() -> Duration {
    #[cfg(unix)]
    {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `now` is a valid timespec for the call to fill.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0 {
            return Duration::new(now.tv_sec as u64, now.tv_nsec as u32);
        }
    }
    Duration::ZERO
}

/// How long a UI frame took: on the wall clock, and of the UI thread's CPU.
#[derive(Clone, Copy, Default)]
struct FrameTime {
    wall: Duration,
    cpu: Duration,
}

impl FrameTime {
    fn max(self, other: FrameTime) -> FrameTime {
        FrameTime {
            wall: self.wall.max(other.wall),
            cpu: self.cpu.max(other.cpu),
        }
    }
}

/// Runs UI frames in real time: the input clock is the wall clock since `epoch`.
struct RealTime {
    epoch: Instant,
}

impl RealTime {
    /// One UI frame at the current wall time; how long it took.
    fn frame(&self, harness: &mut Harness<'_, SpratApp>) -> FrameTime {
        harness.input_mut().time = Some(self.epoch.elapsed().as_secs_f64());
        let started = Instant::now();
        let cpu = thread_cpu_time();
        harness.step();
        FrameTime {
            wall: started.elapsed(),
            cpu: thread_cpu_time().saturating_sub(cpu),
        }
    }
}

/// Clicks the tree row of action `action`.
/// Goes to action `action`: the first by a click on its tree row, each next one with
/// Alt+Down, as a user steps through a character (the later rows are below the tree's view).
fn go_to_action(harness: &mut Harness<'_, SpratApp>, action: u32) {
    if action == 0 {
        harness
            .get_by_role_and_label(Role::Button, "0 · Move 0")
            .click();
    } else {
        harness.key_press_modifiers(egui::Modifiers::ALT, egui::Key::ArrowDown);
    }
}

/// What playing one action for [`PLAY_SECONDS`] showed.
struct Played {
    pictures_a_second: f64,
    /// The slowest UI frame in the [`CHANGE_SECONDS`] after the action was chosen.
    slowest_at_change: FrameTime,
    /// The slowest UI frame after that.
    slowest_later: FrameTime,
}

/// Plays what is selected for `seconds` at 60 UI frames a second (fewer when frames take
/// longer), counting the different pictures the canvas showed.
fn play_for_a_while(harness: &mut Harness<'_, SpratApp>, clock: &RealTime, seconds: f64) -> Played {
    let started = Instant::now();
    let mut shown = None;
    let mut pictures = 0usize;
    let mut slowest_at_change = FrameTime::default();
    let mut slowest_later = FrameTime::default();
    while started.elapsed().as_secs_f64() < seconds {
        let at_change = started.elapsed().as_secs_f64() < CHANGE_SECONDS;
        let took = clock.frame(harness);
        if at_change {
            slowest_at_change = slowest_at_change.max(took);
        } else {
            slowest_later = slowest_later.max(took);
        }
        let now = harness.state().textures.shown_key();
        if now.is_some() && now != shown {
            pictures += 1;
            shown = now;
        }
        std::thread::sleep(DISPLAY_FRAME.saturating_sub(took.wall));
    }
    Played {
        pictures_a_second: pictures as f64 / started.elapsed().as_secs_f64(),
        slowest_at_change,
        slowest_later,
    }
}

fn big_sprites(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let generating = Instant::now();
    let full_hd = std::env::var_os("SPRAT_BENCH_FULL_HD").is_some_and(|v| v != "0");
    let ((width, height), ticks) = if full_hd {
        ((1920, 1080), 1)
    } else {
        ((WIDTH, HEIGHT), 2)
    };
    let rate = 60 / ticks;
    let axis = ((width / 2) as i16, (height - 1) as i16);
    let archive = generated_sff::archive_of(ACTIONS * 100, axis, |n| {
        generated_sff::big_figure(n, (width, height))
    });
    let def = generated_sff::write_character(dir.path(), &archive, ACTIONS, 100, ticks);
    println!(
        "HD character: {} sprites of {width}x{height} at {rate} pictures a second, {:.1} MB of SFF, made in {:.1} s",
        ACTIONS * 100,
        archive.len() as f64 / 1e6,
        generating.elapsed().as_secs_f64()
    );
    drop(archive);
    let before = resident_mib();
    let live_bytes = Arc::new(AtomicUsize::new(0));
    let opening = Instant::now();
    let mut harness = editor_on(&def, Arc::clone(&live_bytes));
    let clock = RealTime {
        epoch: Instant::now(),
    };
    clock.frame(&mut harness);
    println!(
        "opened to the first painted frame in {:.1} ms: resident {:.0} MiB ({before:.0} MiB before)",
        opening.elapsed().as_secs_f64() * 1e3,
        resident_mib()
    );
    harness.get_by_label("Play").click();
    clock.frame(&mut harness);
    // `cargo test --all-targets` runs benches once as a smoke test, in a debug build: there two
    // short actions show that the bench works; `cargo bench` (which passes --bench) plays all.
    let benching = std::env::args().any(|arg| arg == "--bench");
    let (actions, seconds) = if benching {
        (ACTIONS, PLAY_SECONDS)
    } else {
        (2, 0.5)
    };
    let mut highest = 0.0f64;
    let mut worst_at_change = FrameTime::default();
    for action in 0..actions {
        go_to_action(&mut harness, action);
        let played = play_for_a_while(&mut harness, &clock, seconds);
        let app = harness.state();
        let playing = app
            .active_document()
            .and_then(|o| o.sequence())
            .map(|s| &s.name);
        assert_eq!(playing, Some(&action.to_string()), "action {action} plays");
        let resident = resident_mib();
        highest = highest.max(resident);
        worst_at_change = worst_at_change.max(played.slowest_at_change);
        let (texture_bytes, texture_budget) = app.textures.texture_bytes();
        println!(
            "after action {action:2}: resident {resident:4.0} MiB, GPU textures {:3.0} MiB (cache {:3.0} of {:3.0} MiB), decoded {:3.0} MiB; {:4.1} pictures/s of {rate}, slowest UI frame {:.1} ms ({:.1} ms of CPU) at the change, {:.1} ms ({:.1}) later",
            live_bytes.load(Ordering::Relaxed) as f64 / 1_048_576.0,
            texture_bytes as f64 / 1_048_576.0,
            texture_budget as f64 / 1_048_576.0,
            app.pixels.cached_bytes() as f64 / 1_048_576.0,
            played.pictures_a_second,
            played.slowest_at_change.wall.as_secs_f64() * 1e3,
            played.slowest_at_change.cpu.as_secs_f64() * 1e3,
            played.slowest_later.wall.as_secs_f64() * 1e3,
            played.slowest_later.cpu.as_secs_f64() * 1e3,
        );
    }
    println!(
        "slowest UI frame at an action change over {actions} actions: {:.1} ms, {:.1} ms of the UI thread's CPU (budget < 16.7 ms)",
        worst_at_change.wall.as_secs_f64() * 1e3,
        worst_at_change.cpu.as_secs_f64() * 1e3
    );
    println!("highest resident memory over {actions} actions: {highest:.0} MiB (budget < 500 MB)");

    c.bench_function(
        &format!("ui frame, playing a {width}x{height} action"),
        |b| b.iter(|| clock.frame(&mut harness)),
    );
    // The first ten rows: those in the tree's view at 1280x800.
    let mut next = 0;
    c.bench_function(
        &format!("tree click while a {width}x{height} action plays"),
        |b| {
            b.iter(|| {
                next = (next + 1) % 10;
                harness
                    .get_by_role_and_label(Role::Button, &format!("{next} · Move {next}"))
                    .click();
                clock.frame(&mut harness)
            })
        },
    );
}

criterion_group!(benches, big_sprites);
criterion_main!(benches);
