//! The picture the canvas shows while a sequence plays, with the next frames' pictures
//! decoded ahead on a worker thread.
//!
//! The playback engine alone decides which frame shows: this only makes pictures ready. A frame
//! whose pictures are still being decoded leaves the last picture up for the moment (the
//! worker wakes the editor when they are ready), so the UI thread never waits on a decode and
//! playback time never slows; a frame whose pictures come too late is skipped, as a game
//! would skip it.

use super::{FrameKey, FrameTextures, RenderedFrame};
use crate::assets::ImageStore;
use crate::assets::ahead::{DecodeAhead, Wanted};
use crate::model::{AnimationSet, FrameId};
use crate::playback::Player;
use crate::render::Scene;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How many frames after the one on show have their pictures decoded ahead: at 30 frames a
/// second, a fifth of a second of pictures (22 MB of 1280x720 sprites).
pub const FRAMES_AHEAD: usize = 6;

/// The worker and the flag saying the canvas waits for it.
pub(crate) struct Ahead {
    worker: DecodeAhead,
    /// Set while the canvas shows an older picture because the current one's pictures are
    /// being decoded: the worker then asks for a repaint when it has decoded one.
    waiting: Arc<AtomicBool>,
}

impl FrameTextures {
    /// The picture of what `player` shows now (`key`, drawn by `scene`), for the canvas.
    /// Playing, the pictures of the current and next [`FRAMES_AHEAD`] frames are decoded
    /// ahead, and while the current one's are not ready the last picture stays up. Paused, the
    /// frame is drawn at once.
    pub fn playing_frame<'a>(
        &mut self,
        ctx: &egui::Context,
        document: &'a AnimationSet,
        player: &Player,
        key: FrameKey,
        scene: impl FnOnce() -> Option<Scene<'a>>,
        pixels: &Arc<ImageStore>,
    ) -> Option<RenderedFrame> {
        if !player.is_playing() {
            self.shown = None;
            return self.frame(ctx, document, key, scene, pixels);
        }
        let frames = upcoming_frames(document, player, FRAMES_AHEAD);
        let mut wanted: Vec<Wanted> = Vec::new();
        for frame in frames.iter().filter_map(|id| document.frame(*id)) {
            for one in Wanted::of_frame(document, frame) {
                if !wanted.contains(&one) {
                    wanted.push(one);
                }
            }
        }
        let current: Vec<Wanted> = player
            .frame_id(document)
            .and_then(|id| document.frame(id))
            .map(|frame| Wanted::of_frame(document, frame))
            .unwrap_or_default();
        // Said before looking, so a picture decoded meanwhile still wakes the UI.
        if let Some(ahead) = self.ahead(ctx, pixels) {
            ahead.waiting.store(true, Ordering::Release);
            ahead.worker.want(wanted);
        }
        let ready = self.has_frame(&key) || current.iter().all(|w| pixels.is_ready(w));
        if let Some(ahead) = &self.ahead {
            if ready {
                ahead.waiting.store(false, Ordering::Release);
            } else if let Some((_, shown)) = &self.shown {
                // Shown on until the worker has the current frame's pictures.
                return Some(shown.clone());
            }
        }
        let picture = self.frame(ctx, document, key, scene, pixels);
        self.shown = picture.clone().map(|p| (key, p));
        picture
    }

    /// The decode-ahead worker, started on first use; `None` if no thread can be started.
    fn ahead(&mut self, ctx: &egui::Context, pixels: &Arc<ImageStore>) -> Option<&Ahead> {
        if self.ahead.is_none() {
            let waiting = Arc::new(AtomicBool::new(false));
            let theirs = Arc::clone(&waiting);
            let ctx = ctx.clone();
            let wake = move || {
                if theirs.swap(false, Ordering::AcqRel) {
                    ctx.request_repaint();
                }
            };
            self.ahead = DecodeAhead::start(Arc::clone(pixels), wake)
                .map(|worker| Ahead { worker, waiting });
        }
        self.ahead.as_ref()
    }
}

/// The frame on show and the next `count` frames the player will show, as the playback engine
/// steps through them (loops and follow-ups included), each once.
pub fn upcoming_frames(document: &AnimationSet, player: &Player, count: usize) -> Vec<FrameId> {
    let mut frames: Vec<FrameId> = player.frame_id(document).into_iter().collect();
    let mut future = player.clone();
    // Each step moves to the next frame; the guard stops a player that would not move.
    for _ in 0..count * 4 {
        if frames.len() > count {
            break;
        }
        let Some(until) = future.until_next_frame(document) else {
            break;
        };
        // A microsecond more than the rounded wait, so the step lands in the next frame.
        future.advance(document, until + Duration::from_micros(1));
        let Some(id) = future.frame_id(document) else {
            break;
        };
        if !frames.contains(&id) {
            frames.push(id);
        }
    }
    frames
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
