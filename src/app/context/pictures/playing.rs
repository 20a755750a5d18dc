//! The picture the canvas shows while a sequence plays: composed ahead of its time on the
//! worker ([`super::compose`]) and handed to one texture, reused from picture to picture.
//!
//! The playback engine alone decides which frame shows: this only makes pictures ready. The
//! coming frames are asked of the engine (a copy of the player stepped ahead, loops and
//! follow-ups included), so the worker composes them in the order they will show. A frame
//! whose picture is still being composed leaves the last picture up for the moment (the worker
//! wakes the editor when it is ready), so the UI thread never waits on a composition and
//! playback time never slows; a frame whose picture comes too late is skipped, as a game
//! would skip it.

use super::compose::{ComposeAhead, Composed, ComposedPixels, Job, PictureSources};
use super::{FrameKey, FrameTextures, RenderedFrame, ShownPicture, texture_bytes};
use crate::assets::ImageStore;
use crate::model::{AnimationSet, FrameId};
use crate::playback::{Player, displayed_frame, is_interpolating};
use crate::render::Scene;
use egui::TextureOptions;
use std::sync::Arc;
use std::time::Duration;
use web_time::Instant;

/// How many frames after the one on show have their pictures composed ahead: at 30 frames a
/// second, a fifth of a second of pictures (22 MB of 1280x720 ones), fewer when the memory
/// setting holds fewer.
pub const FRAMES_AHEAD: usize = 6;

/// Pictures the worker composes faster than this (small sprites; half a 60 Hz display's frame)
/// are composed on the UI thread when they are due and not ready: waiting for the worker would
/// cost a second paint to save less time than that. A 1280x720 picture takes longer.
const COMPOSE_NOW_BELOW: Duration = Duration::from_millis(8);

impl FrameTextures {
    /// The picture of what `player` shows now (`key`, drawn by `scene`), for the canvas.
    /// Playing, the pictures of the current and next [`FRAMES_AHEAD`] frames are composed
    /// ahead, and while the current one's is not ready the last picture stays up. Paused, the
    /// frame is drawn at once.
    pub fn playing_frame<'a>(
        &mut self,
        ctx: &egui::Context,
        document: &'a AnimationSet,
        player: &Player,
        key: FrameKey,
        scene: impl FnOnce() -> Option<Scene<'a>>,
        pixels: &Arc<ImageStore>,
    ) -> Option<ShownPicture> {
        if !player.is_playing() {
            self.stop_playing(key);
            return self
                .frame(ctx, document, key, scene, pixels)
                .map(ShownPicture::Texture);
        }
        if let Some((shown_key, shown)) = &self.shown
            && *shown_key == key
        {
            return Some(shown.clone());
        }
        let stamp = self.stamp;
        self.start_ahead(ctx, pixels);
        let Some(ahead) = &self.ahead else {
            return None;
        };
        ahead.follow(stamp, || PictureSources::of(document));
        ahead.set_palette_lookup(self.palette_painter.is_some());
        if !ahead.has_worker() {
            // No threads (the web): the frame on show is composed now, as indices for the
            // palette lookup when it runs and the frame is one paletted sprite.
            if self.palette_painter.is_none() {
                return self
                    .frame(ctx, document, key, scene, pixels)
                    .map(ShownPicture::Texture);
            }
            let composed = scene().and_then(|s| ahead.compose_now(document, &s, pixels));
            self.renders += 1;
            let picture = composed.map(|c| self.show_through_stage(ctx, c));
            self.shown = picture.clone().map(|p| (key, p));
            return picture;
        }
        let jobs = upcoming_jobs(document, player, FRAMES_AHEAD);
        // A texture made already (the paused frame, an onion skin's) is shown as it is.
        if let Some(done) = self.frames.get(&key).cloned() {
            ahead.want(jobs, None);
            log::debug!("picture of frame {} shown", key.index);
            let done = done.map(ShownPicture::Texture);
            self.shown = done.clone().map(|picture| (key, picture));
            return done;
        }
        let interpolated = key.progress != 0;
        let composed = if interpolated { None } else { ahead.get(&key) };
        let composed = match composed {
            Some(ready) => {
                ahead.want(jobs, None);
                ready
            }
            None if !interpolated
                && self.shown.is_some()
                && ahead.compose_time() >= COMPOSE_NOW_BELOW =>
            {
                // Shown on until the worker has the current frame's picture.
                log::debug!("frame {} is due, its picture not ready", key.index);
                ahead.want(jobs, Some(key));
                return self.shown.as_ref().map(|(_, picture)| picture.clone());
            }
            None => {
                // An interpolated frame changes with every paint, before anything is on show
                // there is nothing to leave up, and a small picture is made sooner than the
                // worker would wake the editor: composed now (as indices when the lookup
                // runs and the frame is one paletted sprite).
                ahead.want(jobs, None);
                let composed = scene().and_then(|s| ahead.compose_now(document, &s, pixels));
                self.renders += 1;
                composed
            }
        };
        let picture = composed.map(|c| self.show_through_stage(ctx, c));
        // With `RUST_LOG=sprat::app::context::pictures=debug`: the pictures a second the
        // real window shows (docs/speed.md).
        log::debug!("picture of frame {} shown", key.index);
        self.shown = picture.clone().map(|p| (key, p));
        picture
    }

    /// Shows `composed`: a paletted sprite through the palette lookup when one runs, else
    /// through the playing texture, whose pixels are replaced when the size is the same (no
    /// new texture), else a texture of the new size takes its place.
    fn show_through_stage(&mut self, ctx: &egui::Context, composed: Composed) -> ShownPicture {
        if let (ComposedPixels::Indexed(picture), Some(painter)) =
            (&composed.pixels, &self.palette_painter)
        {
            return ShownPicture::Indexed {
                picture: picture.clone(),
                painter: Arc::clone(painter),
            };
        }
        let image = composed.texels();
        match &mut self.stage {
            Some(stage) if stage.size() == image.size => {
                stage.set(image, TextureOptions::NEAREST);
            }
            _ => {
                // The old texture is freed once the last picture shown through it is let go.
                self.stage =
                    Some(ctx.load_texture("sprat-playing", image, TextureOptions::NEAREST));
                self.fit_frames_budget();
            }
        }
        let texture = self.stage.clone().expect("the stage was just filled");
        ShownPicture::Texture(RenderedFrame {
            texture,
            rect: composed.rect,
        })
    }

    /// Playback stopped with `key` on show: the playing texture, which shows it, is kept as
    /// that frame's texture rather than made again.
    fn stop_playing(&mut self, key: FrameKey) {
        let Some((shown_key, ShownPicture::Texture(shown))) = self.shown.take() else {
            return;
        };
        let Some(stage) = self.stage.take() else {
            return;
        };
        self.fit_frames_budget();
        if shown_key == key && shown.texture.id() == stage.id() && !self.frames.contains(&key) {
            let bytes = texture_bytes(&shown.texture);
            self.frames.insert(key, Some(shown), bytes);
        }
    }

    /// Starts the composer unless it runs already.
    pub(super) fn start_ahead(&mut self, ctx: &egui::Context, pixels: &Arc<ImageStore>) {
        if self.ahead.is_none() {
            let ctx = ctx.clone();
            let wake = move || ctx.request_repaint();
            let budget = self.memory.composed();
            self.ahead = Some(ComposeAhead::start(budget, Arc::clone(pixels), wake));
        }
    }
}

/// The player as it will be at the frame on show and at each of the next `count` frames it
/// will show, as the playback engine steps through them (loops and follow-ups included), each
/// frame once, with how long from now until it gets there.
fn coming(document: &AnimationSet, player: &Player, count: usize) -> Vec<(Player, Duration)> {
    let mut players = vec![(player.clone(), Duration::ZERO)];
    let mut seen: Vec<FrameId> = player.frame_id(document).into_iter().collect();
    let mut future = player.clone();
    let mut from_now = Duration::ZERO;
    // Each step moves to the next frame; the guard stops a player that would not move.
    for _ in 0..count * 4 {
        if players.len() > count {
            break;
        }
        let Some(until) = future.until_next_frame(document) else {
            break;
        };
        // A microsecond more than the rounded wait, so the step lands in the next frame.
        let step = until + Duration::from_micros(1);
        future.advance(document, step);
        from_now += step;
        let Some(id) = future.frame_id(document) else {
            break;
        };
        if !seen.contains(&id) {
            seen.push(id);
            players.push((future.clone(), from_now));
        }
    }
    players
}

/// The frame on show and the next `count` frames the player will show, each once.
pub fn upcoming_frames(document: &AnimationSet, player: &Player, count: usize) -> Vec<FrameId> {
    coming(document, player, count)
        .iter()
        .filter_map(|(p, _)| p.frame_id(document))
        .collect()
}

/// The pictures of the frame on show and of the next `count`, soonest first, to compose:
/// frames that change while they show (interpolated) and hidden ones are left out.
fn upcoming_jobs(document: &AnimationSet, player: &Player, count: usize) -> Vec<Job> {
    let now = Instant::now();
    coming(document, player, count)
        .iter()
        .filter(|(p, _)| p.visible() && !is_interpolating(p, document))
        .filter_map(|(p, from_now)| {
            let frame = displayed_frame(p, document)?.into_owned();
            let key = FrameKey {
                sequence: p.sequence(),
                direction: p.direction(),
                index: p.frame_index(),
                progress: 0,
            };
            Some(Job {
                key,
                frame,
                due: now + *from_now,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Frame, FrameDuration, Sequence, SequenceId, TreeItem};

    fn looping_sequence(frames: usize) -> (AnimationSet, SequenceId, Vec<FrameId>) {
        let mut set = AnimationSet::new();
        let id = SequenceId(set.alloc_id());
        let direction = crate::model::DirectionId(set.alloc_id());
        let mut sequence = Sequence::new(id, "0", direction);
        let mut ids = Vec::new();
        for _ in 0..frames {
            let fid = FrameId(set.alloc_id());
            set.frames.insert(fid, Frame::new(FrameDuration::Ticks(2)));
            sequence.directions[0].frames.push(fid);
            ids.push(fid);
        }
        sequence.loop_point = Some(0);
        set.root.items.push(TreeItem::Sequence(sequence));
        (set, id, ids)
    }

    #[test]
    fn the_upcoming_frames_follow_the_engine_round_the_loop() {
        let (set, id, ids) = looping_sequence(4);
        let mut player = Player::new(&set, id, 0);
        player.play(&set);
        player.seek_frame(&set, 2);
        player.play(&set);
        let upcoming = upcoming_frames(&set, &player, 3);
        assert_eq!(upcoming, vec![ids[2], ids[3], ids[0], ids[1]]);
        // Paused, nothing is coming.
        player.pause();
        assert_eq!(upcoming_frames(&set, &player, 3), vec![ids[2]]);
    }
}
