//! The `.tres` text of a SpriteFrames resource, as Godot 4 saves it: the header, one
//! `ext_resource` per sheet, one `AtlasTexture` sub-resource per distinct frame picture (and
//! margin), then `[resource]` with the `animations` array, each animation's keys in Godot's
//! (alphabetical) order.

use super::timing::godot_timing;
use crate::formats::atlas::Atlas;
use crate::formats::{Loss, Place};
use crate::model::AnimationSet;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::hash::{Hash, Hasher};

/// The `.tres` text for `atlas`, whose sheets are at `sheet_paths`; timing losses are added
/// to `losses`. `document` supplies the exact durations.
pub fn sprite_frames(
    atlas: &Atlas,
    document: &AnimationSet,
    sheet_paths: &[String],
    stem: &str,
    losses: &mut Vec<Loss>,
) -> String {
    let mut ids = IdMaker::new(stem);
    let ext_ids: Vec<String> = (0..sheet_paths.len())
        .map(|k| format!("{}_{}", k + 1, ids.short()))
        .collect();
    let mut page_of_run = vec![0; atlas.runs.len()];
    for (k, page) in atlas.pages.iter().enumerate() {
        for &r in &page.runs {
            page_of_run[r] = k;
        }
    }
    // One sub-resource per (sheet, picture, place on the canvas), in order of first use.
    let mut subs: Vec<(usize, usize, (i32, i32), String)> = Vec::new();
    let mut sub_index: HashMap<(usize, usize, (i32, i32)), usize> = HashMap::new();
    let mut animations = Vec::new();
    for (r, run) in atlas.runs.iter().enumerate() {
        let page = page_of_run[r];
        let mut textures = Vec::with_capacity(run.frames.len());
        for o in &run.frames {
            let key = (page, o.picture, o.at);
            let index = *sub_index.entry(key).or_insert_with(|| {
                subs.push((
                    page,
                    o.picture,
                    o.at,
                    format!("AtlasTexture_{}", ids.short()),
                ));
                subs.len() - 1
            });
            textures.push(index);
        }
        let timing = match document.sequence(run.sequence) {
            Some(sequence) => {
                let frames = document.direction_frames(sequence, run.direction);
                let rate = sequence
                    .frame_rate
                    .or(document.frame_rate)
                    .unwrap_or_default();
                let millis: Vec<u32> = run.frames.iter().map(|o| o.millis).collect();
                godot_timing(&frames, rate, &millis)
            }
            None => continue,
        };
        for (i, what) in &timing.inexact {
            losses.push(Loss::new(
                Place::frame(&run.sequence_name, run.direction, *i),
                what.clone(),
            ));
        }
        animations.push((run, textures, timing));
    }
    let mut out = String::new();
    let load_steps = sheet_paths.len() + subs.len() + 1;
    let _ = writeln!(
        out,
        "[gd_resource type=\"SpriteFrames\" load_steps={load_steps} format=3 uid=\"{}\"]\n",
        ids.uid()
    );
    for (path, id) in sheet_paths.iter().zip(&ext_ids) {
        let _ = writeln!(
            out,
            "[ext_resource type=\"Texture2D\" path=\"{}\" id=\"{id}\"]\n",
            escape(path)
        );
    }
    let (cw, ch) = atlas.canvas_size();
    for (page, picture, at, id) in &subs {
        let (w, h) = atlas.pictures[*picture].image.dimensions();
        let (x, y) = atlas.pages[*page].regions[*picture].unwrap_or((0, 0));
        let _ = writeln!(out, "[sub_resource type=\"AtlasTexture\" id=\"{id}\"]");
        let _ = writeln!(out, "atlas = ExtResource(\"{}\")", ext_ids[*page]);
        let _ = writeln!(out, "region = Rect2({x}, {y}, {w}, {h})");
        if *at != (0, 0) || (w, h) != (cw, ch) {
            let _ = writeln!(
                out,
                "margin = Rect2({}, {}, {}, {})",
                at.0,
                at.1,
                cw as i64 - w as i64,
                ch as i64 - h as i64
            );
        }
        out.push('\n');
    }
    out.push_str("[resource]\nanimations = [");
    for (a, (run, textures, timing)) in animations.iter().enumerate() {
        out.push_str(if a == 0 { "{\n" } else { ", {\n" });
        out.push_str("\"frames\": [");
        for (i, index) in textures.iter().enumerate() {
            let _ = write!(
                out,
                "{}{{\n\"duration\": {}.0,\n\"texture\": SubResource(\"{}\")\n}}",
                if i == 0 { "" } else { ", " },
                timing.durations[i],
                subs[*index].3
            );
        }
        let _ = write!(
            out,
            "],\n\"loop\": {},\n\"name\": &\"{}\",\n\"speed\": {}.0\n}}",
            run.loops,
            escape(&run.name()),
            timing.speed
        );
    }
    out.push_str("]\n");
    out
}

/// Godot's string escapes for the characters that end or escape a string.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Ids in Godot's shapes, derived from the file's name so the same export gives the same text.
struct IdMaker {
    state: u64,
    used: HashSet<String>,
}

impl IdMaker {
    fn new(seed: &str) -> IdMaker {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        seed.hash(&mut hasher);
        IdMaker {
            state: hasher.finish() | 1,
            used: HashSet::new(),
        }
    }

    fn next(&mut self) -> u64 {
        // xorshift64*: a fixed, well-spread sequence.
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Five characters of `[a-z0-9]`, as in `1_abcde` and `AtlasTexture_abcde`.
    fn short(&mut self) -> String {
        const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
        loop {
            let mut v = self.next();
            let id: String = (0..5)
                .map(|_| {
                    let c = CHARS[(v % 36) as usize] as char;
                    v /= 36;
                    c
                })
                .collect();
            if self.used.insert(id.clone()) {
                return id;
            }
        }
    }

    /// A `uid://` text as Godot's `ResourceUID::id_to_text` spells a 63-bit id (base 34:
    /// `a`-`y` then `0`-`8`).
    fn uid(&mut self) -> String {
        let mut v = self.next() & (u64::MAX >> 1);
        let mut text = Vec::new();
        loop {
            let c = (v % 34) as u8;
            text.push(if c < 25 { b'a' + c } else { b'0' + c - 25 });
            v /= 34;
            if v == 0 {
                break;
            }
        }
        text.reverse();
        format!("uid://{}", String::from_utf8_lossy(&text))
    }
}
