//! Playback in the editor: Space plays and pauses (unless held to pan), and each frame moves
//! the player on by the time since the last one and asks for the next paint.

use crate::app::shell::app::{SpratApp, active_tab_in};
use std::time::Duration;

impl SpratApp {
    /// Space plays and pauses on release, unless it was held to pan with a drag.
    pub(super) fn handle_space(&mut self, ctx: &egui::Context) -> bool {
        if ctx.egui_wants_keyboard_input() {
            return false;
        }
        let mut toggle = false;
        let Some(canvas) = self.active_tab_mut().map(|t| &mut t.canvas) else {
            return false;
        };
        ctx.input(|i| {
            for event in &i.events {
                if let egui::Event::Key {
                    key: egui::Key::Space,
                    pressed,
                    repeat: false,
                    modifiers,
                    ..
                } = event
                    && modifiers.is_none()
                {
                    if *pressed {
                        canvas.space_held = true;
                        canvas.space_dragged = false;
                    } else if canvas.space_held {
                        canvas.space_held = false;
                        toggle = !canvas.space_dragged;
                    }
                }
            }
        });
        toggle
    }

    /// Moves playback on by the time since the last frame. Called before the panels paint, so
    /// a frame painted when the picture is due shows the new picture (moving on after the
    /// panels would show each picture one paint late, and need a second paint to catch up).
    pub(super) fn advance_playback(&mut self, ctx: &egui::Context) {
        let now = ctx.input(|i| (i.time.max(0.0) * 1e9).round() as u128);
        let elapsed = Duration::from_nanos(
            now.saturating_sub(self.last_frame_nanos)
                .min(u64::MAX as u128) as u64,
        );
        self.last_frame_nanos = now;
        let Some(tab) = active_tab_in(&mut self.documents, self.active) else {
            return;
        };
        let doc = &mut tab.doc;
        let document = doc.session.document();
        let hang = &mut tab.canvas.tools.hang;
        if doc.player.is_playing() {
            if self.was_playing {
                // Sequences hung on points start with the main player (the canvas would
                // start them only when it paints, after this frame's time was counted).
                hang.follow(&doc.player, document);
                doc.player.advance(document, elapsed);
                hang.advance(document, elapsed);
            }
            doc.player.take_events();
        }
    }

    /// Asks for the next paint when the shown picture will change, at that change's time
    /// (continuously only while a frame is interpolated); paused, nothing asks for a paint at
    /// all. Called after this frame's commands, which may have played, paused or moved: a
    /// player started in this frame counts its time from this frame.
    pub(super) fn schedule_next_picture(&mut self, ctx: &egui::Context) {
        let Some(tab) = active_tab_in(&mut self.documents, self.active) else {
            self.was_playing = false;
            return;
        };
        let doc = &tab.doc;
        self.was_playing = doc.player.is_playing();
        let document = doc.session.document();
        if crate::playback::is_interpolating(&doc.player, document) {
            ctx.request_repaint();
            return;
        }
        let hang = &tab.canvas.tools.hang;
        let next = doc
            .player
            .until_next_frame(document)
            .into_iter()
            .chain(
                hang.until_next_frame(document)
                    .filter(|_| doc.player.is_playing()),
            )
            .min();
        if let Some(next) = next {
            ctx.request_repaint_after(next);
        }
    }
}
