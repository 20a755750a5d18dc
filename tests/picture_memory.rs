//! Resident memory follows the picture budget: a generated high-definition character (1280x720
//! sprites, 20 actions) played action after action through the editor's picture cache as the
//! canvas drives it (the playback engine, the pictures composed ahead on the worker, the
//! texture they are handed to), with a stand-in GPU holding a copy of every live texture as a
//! software OpenGL driver does. The process's own resident memory (VmRSS) stays under the
//! budget plus 150 MB, and falls back to within 50 MB of the figure before opening when the
//! document is closed.
//!
//! No window and no wgpu: an `egui::Context` runs the UI frames.
#![cfg(all(feature = "gui", target_os = "linux"))]

#[path = "../benches/common/generated_sff.rs"]
#[allow(dead_code)] // The benches' 48x64 figure is not used here.
mod generated_sff;
#[path = "../benches/common/opened.rs"]
mod opened;

use egui::{TextureId, TexturesDelta};
use sprat::app::context::document::OpenDocument;
use sprat::app::context::pictures::{FrameKey, FrameTextures, PictureMemory};
use sprat::assets::ImageStore;
use sprat::model::DefaultBoxRule;
use sprat::playback::Player;
use sprat::render::Scene;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

const ACTIONS: u32 = 20;
/// Frames of each action: fewer than the bench's 100 (a debug build composes slowly), still
/// 240 different pictures, 880 MB of them, three times the budget.
const FRAMES: u32 = 12;
const MB: usize = 1_000_000;

/// This process's resident memory in bytes, as the kernel counts it.
fn resident() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .expect("a VmRSS line");
    let kib: usize = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("VmRSS in kB");
    kib * 1024
}

/// Stands in for the GPU of a software OpenGL driver, which keeps every live texture's pixels
/// in the process's memory: a copy of each upload, let go when egui frees the texture.
#[derive(Default)]
struct SoftwareGpu {
    textures: HashMap<TextureId, Vec<u8>>,
}

impl SoftwareGpu {
    fn apply(&mut self, mut delta: TexturesDelta) {
        for (id, changes) in std::mem::take(&mut delta.set) {
            for change in changes.iter().filter(|c| c.pos.is_none()) {
                let egui::ImageData::Color(image) = &change.image;
                self.textures.insert(id, image.as_raw().to_vec());
            }
        }
        for id in std::mem::take(&mut delta.free) {
            self.textures.remove(&id);
        }
    }

    fn bytes(&self) -> usize {
        self.textures.values().map(Vec::len).sum()
    }
}

/// The canvas's part of the editor: the picture cache, the decoded pictures, the GPU.
struct Canvas {
    ctx: egui::Context,
    textures: FrameTextures,
    pixels: Arc<ImageStore>,
    gpu: SoftwareGpu,
    memory: PictureMemory,
}

impl Canvas {
    /// One UI frame showing what `player` shows; the key of the picture on show.
    fn paint(&mut self, doc: &OpenDocument, player: &Player) -> Option<FrameKey> {
        let document = doc.session.document();
        let key = FrameKey {
            sequence: player.sequence(),
            direction: player.direction(),
            index: player.frame_index(),
            progress: 0,
        };
        let Canvas {
            ctx,
            textures,
            pixels,
            memory,
            ..
        } = self;
        let output = ctx.run_pass(egui::RawInput::default(), |ctx| {
            textures.begin_frame(doc.identity, doc.revision, pixels);
            textures.set_memory(*memory, pixels);
            let scene = || Scene::playing(document, player, DefaultBoxRule::default());
            let picture = textures.playing_frame(ctx, document, player, key, scene, pixels);
            assert!(picture.is_some(), "every frame draws its sprite");
        });
        self.gpu.apply(output.textures_delta);
        self.textures.shown_key()
    }

    /// Paints until the picture of the frame `player` is at is on show (the worker wakes the
    /// real editor when it is; here the frames come every 2 ms), then moves to the next frame.
    fn show_and_step(&mut self, doc: &OpenDocument, player: &mut Player) {
        let document = doc.session.document();
        let due = player.frame_index();
        let started = Instant::now();
        while self.paint(doc, player).map(|k| k.index) != Some(due) {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the picture of frame {due} never came"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        let until = player.until_next_frame(document).expect("playing");
        player.advance(document, until + Duration::from_micros(1));
    }
}

#[test]
fn resident_memory_follows_the_picture_budget_and_falls_back_when_the_document_closes() {
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let archive = generated_sff::archive_of(ACTIONS * 100, (640, 719), |n| {
        if n % 100 < FRAMES {
            generated_sff::hd_figure(n)
        } else {
            sprat::formats::sff::encode::SpritePixels::Indexed {
                width: 1,
                height: 1,
                indices: vec![0],
            }
        }
    });
    let def = generated_sff::write_character(dir.path(), &archive, ACTIONS, FRAMES, 2);
    drop(archive);
    let before = resident();
    println!(
        "character made in {:.1} s: {} MB resident",
        started.elapsed().as_secs_f64(),
        before / MB
    );

    let doc = opened::opened(&def);
    let memory = PictureMemory::default();
    let mut canvas = Canvas {
        ctx: egui::Context::default(),
        textures: FrameTextures::default(),
        pixels: Arc::new(ImageStore::new()),
        gpu: SoftwareGpu::default(),
        memory,
    };
    // egui's own texture (the font atlas) is made on the first frame and stays.
    let output = canvas.ctx.run_pass(egui::RawInput::default(), |_| {});
    canvas.gpu.apply(output.textures_delta);
    let egui_own = canvas.gpu.bytes();
    let budget = memory.bytes();
    let mut highest = 0;
    let mut sprites_most = 0;
    let mut composed_most = 0;
    for action in 0..ACTIONS {
        let document = doc.session.document();
        let mut player = Player::new(document, doc.player.sequence(), 0);
        player.set_sequence_by_name(document, &action.to_string());
        player.play(document);
        // Round the action and back to its first frame.
        for _ in 0..=FRAMES {
            canvas.show_and_step(&doc, &mut player);
        }
        let (composed, _) = canvas.textures.composed_bytes();
        let decoded = canvas.pixels.cached_bytes();
        let held = decoded + composed + canvas.gpu.bytes() - egui_own;
        assert!(
            held <= budget,
            "after action {action}: pictures hold {held} bytes, over the budget of {budget}"
        );
        sprites_most = sprites_most.max(canvas.pixels.sff().cached_bytes());
        composed_most = composed_most.max(composed);
        let now = resident();
        highest = highest.max(now);
        println!(
            "after action {action:2}: {} MB resident; pictures: {} MB decoded, {} MB composed, \
             {} MB of textures",
            now / MB,
            decoded / MB,
            composed / MB,
            canvas.gpu.bytes() / MB
        );
        assert!(
            now < budget + 150 * MB,
            "after action {action}: {} MB resident, over the budget ({} MB) + 150 MB \
             ({} MB before opening)",
            now / MB,
            budget / MB,
            before / MB
        );
    }
    // The shares the character uses were filled, so the bound was tested.
    assert!(
        sprites_most > memory.decoded().sprites / 2,
        "decoded sprites held at most {sprites_most} bytes"
    );
    assert!(
        composed_most > memory.composed() / 2,
        "composed pictures held at most {composed_most} bytes"
    );

    // Closing the document, as closing its tab does.
    let still_drawn = |_: &std::path::Path| false;
    canvas
        .pixels
        .release_files_of(doc.session.document(), still_drawn);
    drop(doc);
    canvas.textures.release();
    let output = canvas.ctx.run_pass(egui::RawInput::default(), |_| {});
    canvas.gpu.apply(output.textures_delta);
    assert_eq!(
        canvas.gpu.bytes(),
        egui_own,
        "every picture's texture is freed"
    );
    // As the editor does at the frame after a tab closes.
    sprat::app::context::allocator::return_freed_memory();
    let after = resident();
    println!(
        "resident: {} MB before opening, at most {} MB playing, {} MB closed",
        before / MB,
        highest / MB,
        after / MB
    );
    assert!(
        after < before + 50 * MB,
        "{} MB resident after closing, {} MB before opening",
        after / MB,
        before / MB
    );
}
