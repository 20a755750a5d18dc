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

/// The editor's colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Theme {
    /// Follow the system's dark or light setting.
    #[default]
    System,
    /// Always dark.
    Dark,
    /// Always light.
    Light,
}

impl Theme {
    /// Every choice, in menu order.
    pub const ALL: [Theme; 3] = [Theme::System, Theme::Dark, Theme::Light];

    /// The menu label.
    pub fn label(self) -> &'static str {
        match self {
            Theme::System => "Follow the system",
            Theme::Dark => "Dark",
            Theme::Light => "Light",
        }
    }

    fn preference(self) -> egui::ThemePreference {
        match self {
            Theme::System => egui::ThemePreference::System,
            Theme::Dark => egui::ThemePreference::Dark,
            Theme::Light => egui::ThemePreference::Light,
        }
    }
}

/// The UI scales the View menu offers.
pub const UI_SCALES: [f32; 5] = [1.0, 1.25, 1.5, 1.75, 2.0];

/// How the editor itself looks: colours, size of everything, and the window's size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Appearance {
    /// Dark, light or the system's choice.
    pub theme: Theme,
    /// Multiplies the size of every widget and text (egui's zoom factor).
    pub ui_scale: f32,
    /// The window's inner size in unscaled points (what the window measures at scale 1), so a
    /// scaled run never shrinks the next unscaled one's window.
    pub window_size: Option<[f32; 2]>,
}

impl Default for Appearance {
    fn default() -> Self {
        Appearance {
            theme: Theme::System,
            ui_scale: 1.0,
            window_size: None,
        }
    }
}

impl Appearance {
    /// The scale to apply: a stored value outside what the menu offers is clamped, so a
    /// hand-edited settings file cannot make the editor unusable.
    pub fn clamped_scale(&self) -> f32 {
        if self.ui_scale.is_finite() {
            self.ui_scale
                .clamp(UI_SCALES[0], UI_SCALES[UI_SCALES.len() - 1])
        } else {
            1.0
        }
    }

    /// Applies the theme and scale to `ctx` where they differ (setting them unchanged would
    /// cost a repaint each frame), and remembers the window's unscaled size.
    pub fn apply(&mut self, ctx: &egui::Context) {
        let preference = self.theme.preference();
        if ctx.options(|o| o.theme_preference) != preference {
            ctx.set_theme(preference);
        }
        let scale = self.clamped_scale();
        if (ctx.zoom_factor() - scale).abs() > f32::EPSILON {
            ctx.set_zoom_factor(scale);
        }
        if let Some(rect) = ctx.input(|i| i.viewport().inner_rect) {
            self.remember_window(rect.size(), ctx.zoom_factor());
        }
    }

    /// Keeps the window's size, measured as `points` at UI scale `zoom`, in unscaled points.
    pub fn remember_window(&mut self, points: egui::Vec2, zoom: f32) {
        let size = points * zoom;
        if size.x >= 1.0 && size.y >= 1.0 {
            self.window_size = Some([size.x.round(), size.y.round()]);
        }
    }

    /// The window size to open with, in the unscaled points the window builder takes.
    pub fn initial_window_size(&self) -> [f32; 2] {
        match self.window_size {
            Some([w, h]) if w.is_finite() && h.is_finite() && w >= 640.0 && h >= 400.0 => {
                [w.min(16384.0), h.min(16384.0)]
            }
            _ => [1280.0, 800.0],
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
    /// How many frames before and after the onion skin shows (1 to
    /// [`ViewSettings::MAX_ONION_FRAMES`]).
    pub onion_frames: u8,
    /// How the onion skin draws the frames around: tinted, or as flat silhouettes.
    pub onion_style: OnionStyle,
    /// The onion skin is drawn over the frame on show, else under it.
    pub onion_above: bool,
    /// The colour of the frames before (RGB).
    pub onion_before_colour: [u8; 3],
    /// The colour of the frames after (RGB).
    pub onion_after_colour: [u8; 3],
    /// How strongly the pinned reference shows, in percent (10 to 90).
    pub reference_opacity: u8,
    /// AIR: which rule decides the boxes after a one-frame override.
    pub documented_default_box_rule: bool,
    /// Timeline cells as wide as their duration.
    pub proportional_timeline: bool,
    /// The canvas shows the character facing left, as the engines draw it: mirrored about
    /// the origin, boxes and points too. A way of looking, never a change to the document.
    pub facing_left: bool,
}

impl Default for ViewSettings {
    fn default() -> Self {
        ViewSettings {
            pixel_grid: true,
            axis_cross: true,
            background: Background::Checkerboard,
            overlay: true,
            hidden_box_classes: Vec::new(),
            points: true,
            onion_skin: false,
            onion_frames: 1,
            onion_style: OnionStyle::Tinted,
            onion_above: false,
            onion_before_colour: [255, 90, 90],
            onion_after_colour: [80, 220, 120],
            reference_opacity: 35,
            documented_default_box_rule: false,
            proportional_timeline: false,
            facing_left: false,
        }
    }
}

impl ViewSettings {
    /// The most frames before and after the onion skin shows.
    pub const MAX_ONION_FRAMES: u8 = 5;
}

/// How the onion skin draws the frames before and after the one on show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum OnionStyle {
    /// The frames as drawn, tinted with the before or after colour.
    #[default]
    Tinted,
    /// Flat shapes of the before or after colour (where the frames are opaque), to compare
    /// outlines.
    Silhouettes,
}

impl OnionStyle {
    /// Both styles, as the View menu lists them.
    pub const ALL: [OnionStyle; 2] = [OnionStyle::Tinted, OnionStyle::Silhouettes];

    /// The name the View menu shows.
    pub fn label(self) -> &'static str {
        match self {
            OnionStyle::Tinted => "Tinted",
            OnionStyle::Silhouettes => "Silhouettes",
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
    /// Theme, UI scale and window size.
    pub appearance: Appearance,
    /// Open Aseprite files with one graphic per layer rather than composited frames.
    pub aseprite_layers: bool,
    /// Memory for decoded pictures and frame textures (256 MiB unless set).
    pub picture_memory: crate::app::context::pictures::PictureMemory,
    /// Per file, the box names the user said are hit and hurt boxes, for files whose format
    /// only names its boxes and cannot keep the answer (an Aseprite file's slices).
    pub box_roles: std::collections::BTreeMap<PathBuf, crate::boxes::roles::BoxRoles>,
}

impl Settings {
    /// Puts `path` first in the recent files, without duplicates, keeping at most
    /// [`RECENT_LIMIT`].
    pub fn remember_recent(&mut self, path: &Path) {
        self.recent_files.retain(|p| p != path);
        self.recent_files.insert(0, path.to_path_buf());
        self.recent_files.truncate(RECENT_LIMIT);
    }

    /// The box names the user said are hit and hurt boxes in the file at `path`.
    pub fn box_roles_of(&self, path: &Path) -> crate::boxes::roles::BoxRoles {
        self.box_roles.get(path).cloned().unwrap_or_default()
    }

    /// Keeps `roles` for the file at `path` (forgets the file when they are empty).
    pub fn remember_box_roles(&mut self, path: &Path, roles: &crate::boxes::roles::BoxRoles) {
        if roles.hit.is_empty() && roles.hurt.is_empty() {
            self.box_roles.remove(path);
        } else {
            self.box_roles.insert(path.to_path_buf(), roles.clone());
        }
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
    fn a_scaled_window_is_stored_at_its_unscaled_size() {
        // egui-winit measures the window in scaled points: a 1280x800 window at scale 2 is
        // 640x400 of them. The next run, at any scale, opens it at 1280x800 again.
        let mut appearance = Appearance {
            ui_scale: 2.0,
            ..Appearance::default()
        };
        appearance.remember_window(egui::vec2(640.0, 400.0), 2.0);
        assert_eq!(appearance.initial_window_size(), [1280.0, 800.0]);
        appearance.ui_scale = 1.0;
        assert_eq!(appearance.initial_window_size(), [1280.0, 800.0]);
    }

    #[test]
    fn an_odd_stored_scale_or_size_is_not_applied() {
        let appearance = Appearance {
            ui_scale: 40.0,
            window_size: Some([10.0, f32::NAN]),
            ..Appearance::default()
        };
        assert_eq!(appearance.clamped_scale(), 2.0);
        assert_eq!(appearance.initial_window_size(), [1280.0, 800.0]);
    }

    #[test]
    fn settings_survive_a_round_trip_through_ron() {
        let mut settings = Settings::default();
        settings.view.onion_frames = 3;
        settings.set_box_class_visible("hit (Clsn1)", false);
        let text = ron::to_string(&settings).unwrap();
        let back: Settings = ron::from_str(&text).unwrap();
        assert_eq!(back, settings);
        assert!(!back.box_class_visible("hit (Clsn1)"));
    }
}
