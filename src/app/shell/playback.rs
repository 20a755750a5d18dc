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

    /// Moves playback on by the time since the last frame, and asks for the next repaint when
    /// the shown frame will change (continuously only while a frame is interpolated): paused,
    /// nothing asks for a repaint at all.
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
        let open = &mut tab.open;
        let document = open.session.document();
        let hang = &mut tab.canvas.tools.hang;
        if open.player.is_playing() {
            if self.was_playing {
                open.player.advance(document, elapsed);
                hang.advance(document, elapsed);
            }
            open.player.take_events();
        }
        self.was_playing = open.player.is_playing();
        if crate::playback::is_interpolating(&open.player, document) {
            ctx.request_repaint();
            return;
        }
        let next = open
            .player
            .until_next_frame(document)
            .into_iter()
            .chain(
                hang.until_next_frame(document)
                    .filter(|_| open.player.is_playing()),
            )
            .min();
        if let Some(next) = next {
            ctx.request_repaint_after(next);
        }
    }
}
