//! What the editor remembers between runs: layout, view, colours and recent files.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The key the settings are stored under in eframe's storage.
pub const STORAGE_KEY: &str = "sprat-editor-settings";

/// How many recent files File > Open Recent lists.
pub const RECENT_LIMIT: usize = 10;

/// Which panels are shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Layout {
    /// The hierarchy tree on the left.
    pub tree: bool,
    /// The inspector on the right.
    pub inspector: bool,
    /// The timeline and transport at the bottom.
    pub timeline: bool,
    /// The source-sheet view (a tab beside the canvas).
    pub sheet: bool,
    /// The diagnostics list above the status bar.
    pub diagnostics: bool,
}

impl Default for Layout {
    fn default() -> Self {
        Layout {
            tree: true,
            inspector: true,
            timeline: true,
            sheet: false,
            diagnostics: true,
        }
    }
}

/// The canvas background.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Background {
    /// A grey checkerboard, so transparency shows.
    Checkerboard,
    /// A plain colour (RGB).
    Colour([u8; 3]),
}

/// How the canvas shows a frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewSettings {
    /// Screen pixels per image pixel (0.1 to 64).
    pub zoom: f32,
    /// Draw the pixel grid when zoomed in enough to see it.
    pub pixel_grid: bool,
    /// Draw the origin's axis cross.
    pub axis_cross: bool,
    /// What is behind the sprite.
    pub background: Background,
    /// Draw the boxes and points at all.
    pub overlay: bool,
    /// Box classes the user has hidden, by their label.
    pub hidden_box_classes: Vec<String>,
    /// Show attachment points.
    pub points: bool,
    /// Show the previous and next frames faintly.
    pub onion_skin: bool,
    /// How many frames before and after the onion skin shows.
    pub onion_frames: u8,
    /// AIR: which rule decides the boxes after a one-frame override.
    pub documented_default_box_rule: bool,
    /// Timeline cells as wide as their duration.
    pub proportional_timeline: bool,
}

impl Default for ViewSettings {
    fn default() -> Self {
        ViewSettings {
            zoom: 2.0,
            pixel_grid: true,
            axis_cross: true,
            background: Background::Checkerboard,
            overlay: true,
            hidden_box_classes: Vec::new(),
            points: true,
            onion_skin: false,
            onion_frames: 1,
            documented_default_box_rule: false,
            proportional_timeline: false,
        }
    }
}

/// Everything persisted.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Panels shown.
    pub layout: Layout,
    /// Canvas options.
    pub view: ViewSettings,
    /// Most recent first.
    pub recent_files: Vec<PathBuf>,
}

impl Settings {
    /// Puts `path` first in the recent files, without duplicates, keeping at most
    /// [`RECENT_LIMIT`].
    pub fn remember_recent(&mut self, path: &Path) {
        self.recent_files.retain(|p| p != path);
        self.recent_files.insert(0, path.to_path_buf());
        self.recent_files.truncate(RECENT_LIMIT);
    }

    /// Whether boxes of the class with this label are drawn.
    pub fn box_class_visible(&self, label: &str) -> bool {
        !self.view.hidden_box_classes.iter().any(|c| c == label)
    }

    /// Shows or hides a box class.
    pub fn set_box_class_visible(&mut self, label: &str, visible: bool) {
        self.view.hidden_box_classes.retain(|c| c != label);
        if !visible {
            self.view.hidden_box_classes.push(label.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_files_move_to_the_front_without_duplicates() {
        let mut settings = Settings::default();
        for i in 0..12 {
            settings.remember_recent(Path::new(&format!("/f{i}")));
        }
        settings.remember_recent(Path::new("/f5"));
        assert_eq!(settings.recent_files.len(), RECENT_LIMIT);
        assert_eq!(settings.recent_files[0], Path::new("/f5"));
        assert_eq!(settings.recent_files[1], Path::new("/f11"));
        assert_eq!(
            settings
                .recent_files
                .iter()
                .filter(|p| *p == Path::new("/f5"))
                .count(),
            1
        );
    }

    #[test]
    fn settings_survive_a_round_trip_through_ron() {
        let mut settings = Settings::default();
        settings.view.zoom = 8.0;
        settings.set_box_class_visible("hit (Clsn1)", false);
        let text = ron::to_string(&settings).unwrap();
        let back: Settings = ron::from_str(&text).unwrap();
        assert_eq!(back, settings);
        assert!(!back.box_class_visible("hit (Clsn1)"));
    }
}
