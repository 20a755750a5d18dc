//! Hanging a sequence on an attachment point: the preview draws another sequence (of this
//! document, of another open tab, or of another file read read-only) at every frame's point of
//! that name, turned,
//! scaled, mirrored and faded as the point says, with its own playback kept in step with the
//! main player (it plays while the main player plays, at the same speed; while paused it shows
//! the moment the main player is at).
//!
//! Nothing here changes a document: hung sequences are a preview aid, like Fighter Factory's
//! "helpers" or a weapon held in a hand. Each tab keeps its own hung sequences (the app parks
//! [`Hanging::hung`] with the document); the files read for hanging are shared by all tabs.

use super::CanvasOutcome;
use crate::app::canvas::view::View;
use crate::app::context::loader;
use crate::app::context::pictures::{render_texture, texture_bytes};
use crate::app::context::platform::{DialogOutcome, Platform};
use crate::app::context::tab_id::TabId;
use crate::assets::ImageStore;
use crate::cache::ByteLru;
use crate::formats::registry;
use crate::model::{AnimationSet, AttachmentPoint, ElementKind, Frame, OPAQUE, SequenceId};
use crate::playback::{PlayState, Player};
use crate::render::{Scene, SpriteRect};
use egui::{Color32, Painter, TextureHandle, pos2};
use std::path::PathBuf;
use std::time::Duration;

/// Which document a hung sequence comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// The open document.
    ThisFile,
    /// The document of another open tab (see [`Hanging::offer_open_documents`]).
    Open(TabId),
    /// One of [`Hanging::files`].
    File(usize),
}

/// The document of another open tab, offered for hanging. A copy: only the tab on show is
/// edited, and the copy is taken again when the tab's document changes.
pub struct OtherDocument {
    /// Its tab.
    pub tab: TabId,
    /// Its tab's name.
    pub name: String,
    /// The tab document's revision the copy was taken at.
    revision: u64,
    /// The copy.
    pub document: AnimationSet,
}

/// A file read only to hang its sequences.
pub struct HungFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// Its content (never edited, never saved).
    pub document: AnimationSet,
}

/// A sequence hung on the points of one name.
pub struct Hung {
    /// The points' name.
    pub point: String,
    /// Where the sequence comes from.
    pub source: Source,
    /// The sequence; it shows the direction the main player shows when it has one, else its
    /// first (a sword hung on a four-way walk turns with it).
    pub sequence: SequenceId,
    /// Its own playback.
    pub player: Player,
}

/// The picker's state while it is open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picker {
    /// The point name a sequence is being chosen for.
    pub point: String,
    /// The document whose sequences are listed.
    pub source: Source,
}

/// Rendered frames of hung sequences, keyed by source, sequence, direction and frame.
type TextureKey = (Source, SequenceId, usize, usize);

/// Textures of hung frames kept at most (bytes); the least recently shown go first.
const HUNG_TEXTURE_BYTES: usize = 32 << 20;

/// Every hung sequence, the files read for them, and the picker.
pub struct Hanging {
    /// One hung sequence per point name.
    pub hung: Vec<Hung>,
    /// Files read to hang their sequences.
    pub files: Vec<HungFile>,
    /// The documents of the other open tabs that the picker lists or something hangs from.
    pub others: Vec<OtherDocument>,
    /// The picker, when open.
    pub picker: Option<Picker>,
    textures: ByteLru<TextureKey, Option<(TextureHandle, SpriteRect)>>,
    stamp: (u64, u64),
    /// A file being read to hang from, on a worker thread.
    reading: Option<loader::PendingLoad>,
}

impl Default for Hanging {
    fn default() -> Hanging {
        Hanging {
            hung: Vec::new(),
            files: Vec::new(),
            others: Vec::new(),
            picker: None,
            textures: ByteLru::new(HUNG_TEXTURE_BYTES),
            stamp: (0, 0),
            reading: None,
        }
    }
}

impl Hanging {
    /// Opens the picker for the points named `point`.
    pub fn open_picker(&mut self, point: String) {
        let source = self
            .hung
            .iter()
            .find(|h| h.point == point)
            .map_or(Source::ThisFile, |h| h.source);
        self.picker = Some(Picker { point, source });
    }

    /// The document a source names.
    fn document<'a>(&'a self, source: Source, this: &'a AnimationSet) -> Option<&'a AnimationSet> {
        match source {
            Source::ThisFile => Some(this),
            Source::Open(tab) => self
                .others
                .iter()
                .find(|o| o.tab == tab)
                .map(|o| &o.document),
            Source::File(i) => self.files.get(i).map(|f| &f.document),
        }
    }

    /// Hangs `sequence` of `source` on the points named `point`, replacing what hung there.
    pub fn hang(&mut self, point: &str, source: Source, sequence: SequenceId, this: &AnimationSet) {
        let Some(document) = self.document(source, this) else {
            return;
        };
        let player = Player::new(document, sequence, 0);
        self.hung.retain(|h| h.point != point);
        self.hung.push(Hung {
            point: point.to_string(),
            source,
            sequence,
            player,
        });
    }

    /// Takes down the sequences hung from the open document and closes the picker (another
    /// document was opened; the file-backed ones still make sense).
    pub fn forget_this_file(&mut self) {
        self.hung.retain(|h| h.source != Source::ThisFile);
        self.textures.clear();
        self.picker = None;
    }

    /// Takes in the documents of the other open tabs: `(tab, name, revision, document)` for
    /// each. Copies are kept of those the picker can list (while it is open) and those a
    /// sequence hangs from, taken again when their revision moves; a closed tab's copy goes,
    /// and with it what hung from it.
    pub fn offer_open_documents<'a>(
        &mut self,
        others: impl Iterator<Item = (TabId, String, u64, &'a AnimationSet)>,
    ) {
        let listing = self.picker.is_some();
        let mut kept = Vec::new();
        for (tab, name, revision, document) in others {
            let used = self.hung.iter().any(|h| h.source == Source::Open(tab));
            if !listing && !used {
                continue;
            }
            match self.others.iter().position(|o| o.tab == tab) {
                Some(i) if self.others[i].revision == revision => {
                    let mut other = self.others.swap_remove(i);
                    other.name = name;
                    kept.push(other);
                }
                _ => {
                    self.textures
                        .retain(|(source, ..), _| *source != Source::Open(tab));
                    kept.push(OtherDocument {
                        tab,
                        name,
                        revision,
                        document: document.clone(),
                    });
                }
            }
        }
        self.others = kept;
        if let Some(picker) = &mut self.picker
            && let Source::Open(tab) = picker.source
            && !self.others.iter().any(|o| o.tab == tab)
        {
            picker.source = Source::ThisFile;
        }
    }

    /// Takes down what hangs on the points named `point`.
    pub fn take_down(&mut self, point: &str) {
        self.hung.retain(|h| h.point != point);
    }

    /// Asks for a file through the platform's dialogs and starts reading it for hanging, in
    /// the background (`wake` is called when it is read); [`Hanging::take_read_file`] lists its
    /// sequences in the picker once it is. A dialog that cannot be shown comes back as the message to show.
    pub fn pick_file(
        &mut self,
        platform: &mut dyn Platform,
        wake: impl FnOnce() + Send + 'static,
    ) -> Result<(), String> {
        let extensions: Vec<&str> = registry()
            .formats()
            .filter(|f| f.capabilities().read)
            .flat_map(|f| f.extensions().iter().copied())
            .collect();
        let path = match platform.dialogs().pick_file_to_open(&extensions) {
            DialogOutcome::Chosen(path) => path,
            DialogOutcome::Cancelled => return Ok(()),
            DialogOutcome::Unavailable => {
                return Err("no file dialog can be shown to choose a file to hang".to_string());
            }
        };
        self.reading = Some(loader::PendingLoad::start(
            platform,
            path,
            crate::formats::ReadOptions::default(),
            wake,
        ));
        Ok(())
    }

    /// Whether a file to hang from is being read.
    pub fn is_reading(&self) -> bool {
        self.reading.is_some()
    }

    /// The file [`Hanging::pick_file`] started reading, once read: its sequences are listed in
    /// the picker. `None` while nothing has finished; a file that cannot be read comes back as
    /// the message to show.
    pub fn take_read_file(&mut self) -> Option<Result<(), String>> {
        let result = self.reading.as_ref()?.poll()?;
        let path = self.reading.take()?.path;
        let opened = match result {
            Ok(opened) => opened,
            Err(diagnostics) => {
                let why = diagnostics
                    .first()
                    .map(|d| d.message.clone())
                    .unwrap_or_default();
                return Some(Err(format!("{} could not be read: {why}", path.display())));
            }
        };
        let index = match self.files.iter().position(|f| f.path == path) {
            Some(i) => {
                self.files[i].document = opened.loaded.document;
                i
            }
            None => {
                self.files.push(HungFile {
                    path,
                    document: opened.loaded.document,
                });
                self.files.len() - 1
            }
        };
        self.textures
            .retain(|(source, ..), _| *source != Source::File(index));
        if let Some(picker) = &mut self.picker {
            picker.source = Source::File(index);
        }
        Some(Ok(()))
    }

    /// Keeps each hung sequence in step with the main player: playing while it plays, at its
    /// speed; while it is paused, at the moment it shows.
    pub fn follow(&mut self, main: &Player, this: &AnimationSet) {
        let moment = Duration::from_secs_f64(main.seconds_from_start(this).max(0.0));
        let mut hung = std::mem::take(&mut self.hung);
        for h in &mut hung {
            let Some(document) = self.document(h.source, this) else {
                continue;
            };
            if document.sequence(h.sequence).is_none() {
                continue;
            }
            let directions = document
                .sequence(h.sequence)
                .map_or(0, |s| s.directions.len());
            let direction = if main.direction() < directions {
                main.direction()
            } else {
                0
            };
            if h.player.direction() != direction {
                h.player.set_direction(document, direction);
            }
            h.player.set_speed_milli(main.speed_milli());
            if main.is_playing() {
                if h.player.state() == PlayState::Paused {
                    h.player.play(document);
                }
            } else {
                h.player.seek_time(document, moment);
            }
        }
        hung.retain(|h| {
            self.document(h.source, this)
                .is_some_and(|d| d.sequence(h.sequence).is_some())
        });
        self.hung = hung;
    }

    /// Moves the hung sequences' time on by `elapsed` (called with the main player's advance).
    pub fn advance(&mut self, this: &AnimationSet, elapsed: Duration) {
        let mut hung = std::mem::take(&mut self.hung);
        for h in &mut hung {
            if let Some(document) = self.document(h.source, this) {
                h.player.advance(document, elapsed);
            }
        }
        self.hung = hung;
    }

    /// The wall time until the first hung sequence shows another frame, if any will.
    pub fn until_next_frame(&self, this: &AnimationSet) -> Option<Duration> {
        self.hung
            .iter()
            .filter_map(|h| h.player.until_next_frame(self.document(h.source, this)?))
            .min()
    }

    /// The frame index each hung sequence shows, by point name (tests and the status).
    pub fn frame_of(&self, point: &str) -> Option<usize> {
        self.hung
            .iter()
            .find(|h| h.point == point)
            .map(|h| h.player.frame_index())
    }

    /// How many hung pictures have been rendered and hold pixels (tests check drawing with it).
    pub fn pictures_drawn(&self) -> usize {
        self.textures.values().filter(|t| t.is_some()).count()
    }

    /// Draws the hung sequences at the points of `frame` that carry their names.
    #[allow(clippy::too_many_arguments)]
    pub fn paint(
        &mut self,
        ctx: &egui::Context,
        painter: &Painter,
        view: &View,
        frame: &Frame,
        this: &AnimationSet,
        revision: u64,
        pixels: &ImageStore,
    ) {
        if self.hung.is_empty() {
            return;
        }
        let stamp = (revision, pixels.generation());
        if stamp != self.stamp {
            self.textures.clear();
            self.stamp = stamp;
        }
        let mut drawn = Vec::new();
        for h in &self.hung {
            if !h.player.visible() {
                continue;
            }
            for element in &frame.elements {
                if let ElementKind::Point(point) = &element.kind
                    && element.name == h.point
                {
                    let player = &h.player;
                    let key = (
                        h.source,
                        h.sequence,
                        player.direction(),
                        player.frame_index(),
                    );
                    drawn.push((key, point.clone()));
                }
            }
        }
        for (key, point) in drawn {
            let picture = match self.textures.get(&key) {
                Some(done) => done.clone(),
                None => {
                    let rendered = self
                        .document(key.0, this)
                        .and_then(|document| render_frame(ctx, document, key, pixels));
                    let bytes = rendered.as_ref().map_or(0, |(t, _)| texture_bytes(t));
                    self.textures.insert(key, rendered.clone(), bytes);
                    rendered
                }
            };
            if let Some((texture, rect)) = picture {
                paint_at_point(painter, view, &texture, rect, &point);
            }
        }
    }

    /// The picker window: a sequence of this document, of another open tab, or of a file read
    /// for the purpose.
    pub fn picker_window(
        &mut self,
        ctx: &egui::Context,
        this: &AnimationSet,
        outcome: &mut CanvasOutcome,
    ) {
        let Some(picker) = self.picker.clone() else {
            return;
        };
        let mut source = picker.source;
        let mut chosen = None;
        let mut close = false;
        let mut take_down = false;
        let hung_here = self.hung.iter().any(|h| h.point == picker.point);
        egui::Window::new("Hang a sequence")
            .collapsible(false)
            .resizable(true)
            .default_width(260.0)
            .show(ctx, |ui| {
                ui.label(format!("On the points named \"{}\"", picker.point));
                ui.horizontal_wrapped(|ui| {
                    ui.selectable_value(&mut source, Source::ThisFile, "This file");
                    for other in &self.others {
                        let label = format!("{} (open tab)", other.name);
                        ui.selectable_value(&mut source, Source::Open(other.tab), label)
                            .on_hover_text("A document open in another tab");
                    }
                    for (i, file) in self.files.iter().enumerate() {
                        let name = file
                            .path
                            .file_name()
                            .map(|n| n.to_string_lossy().into_owned())
                            .unwrap_or_default();
                        ui.selectable_value(&mut source, Source::File(i), name);
                    }
                    if self.reading.is_some() {
                        ui.spinner();
                        ui.weak("reading…");
                    } else if ui
                        .button("Other file…")
                        .on_hover_text("Read another file (read-only) to hang its sequences")
                        .clicked()
                    {
                        outcome.pick_hang_file = true;
                    }
                });
                ui.separator();
                egui::ScrollArea::vertical()
                    .max_height(240.0)
                    .show(ui, |ui| {
                        if let Some(document) = self.document(source, this) {
                            for sequence in document.sequences() {
                                let label = format!("Hang {}", sequence.name);
                                if ui.button(label).clicked() {
                                    chosen = Some(sequence.id);
                                }
                            }
                        }
                    });
                ui.separator();
                ui.horizontal(|ui| {
                    if hung_here && ui.button("Take down").clicked() {
                        take_down = true;
                    }
                    close |= ui.button("Close").clicked();
                });
            });
        if let Some(p) = &mut self.picker {
            p.source = source;
        }
        if let Some(sequence) = chosen {
            self.hang(&picker.point, source, sequence, this);
            close = true;
        }
        if take_down {
            self.take_down(&picker.point);
            close = true;
        }
        if close {
            self.picker = None;
        }
    }
}

fn render_frame(
    ctx: &egui::Context,
    document: &AnimationSet,
    (_, sequence, direction, index): TextureKey,
    pixels: &ImageStore,
) -> Option<(TextureHandle, SpriteRect)> {
    let scene = Scene::at(document, sequence, direction, index, Default::default())?;
    let rendered = render_texture(ctx, document, &scene, pixels, "hung")?;
    Some((rendered.texture, rendered.rect))
}

/// Draws a hung picture with its origin on the point, under the point's transform.
fn paint_at_point(
    painter: &Painter,
    view: &View,
    texture: &TextureHandle,
    rect: SpriteRect,
    point: &AttachmentPoint,
) {
    let sign = |flip: bool| if flip { -1.0 } else { 1.0 };
    let (sx, sy) = (
        point.scale_x * sign(point.flip_h),
        point.scale_y * sign(point.flip_v),
    );
    let (sin, cos) = point.rotation.to_radians().sin_cos();
    let (px, py) = (point.position.x.to_f64(), point.position.y.to_f64());
    let place = |x: f64, y: f64| {
        let (x, y) = (x * sx, y * sy);
        view.to_screen(px + x * cos - y * sin, py + x * sin + y * cos)
    };
    let (x0, y0) = (rect.x as f64, rect.y as f64);
    let (x1, y1) = (x0 + rect.width as f64, y0 + rect.height as f64);
    let alpha = (point.opacity as f32 / OPAQUE as f32 * 255.0).round() as u8;
    let tint = Color32::from_white_alpha(alpha);
    let mut mesh = egui::Mesh::with_texture(texture.id());
    let corners = [
        (place(x0, y0), pos2(0.0, 0.0)),
        (place(x1, y0), pos2(1.0, 0.0)),
        (place(x1, y1), pos2(1.0, 1.0)),
        (place(x0, y1), pos2(0.0, 1.0)),
    ];
    for (at, uv) in corners {
        mesh.vertices.push(egui::epaint::Vertex {
            pos: at,
            uv,
            color: tint,
        });
    }
    mesh.add_triangle(0, 1, 2);
    mesh.add_triangle(0, 2, 3);
    painter.add(egui::Shape::mesh(mesh));
}
