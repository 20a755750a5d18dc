//! The Import window's "One sequence per group": the pictures chosen (or the folder dropped)
//! grouped into sequences by sub-folder and name prefix
//! ([`crate::assets::groups::group_pictures`]), listed first with each name (editable) and
//! frame count, then imported as one new sequence per group in one undo step.

use crate::app::context::document::OpenDocument;
use crate::assets::groups::{PictureGroup, group_pictures};
use crate::assets::import::ReadPictures;
use crate::edit::import::{ImportFrames, ImportTarget, ImportedImage, OriginPlace};
use crate::model::FrameDuration;
use std::path::PathBuf;

/// The groups of the files chosen.
#[derive(Debug, Default)]
pub struct Groups {
    /// The groups, names as the user edited them.
    pub groups: Vec<PictureGroup>,
    /// For each group, how many of its files were read (the frames it will have).
    read: Vec<usize>,
    /// A folder was given: its groups are offered first.
    pub from_folder: bool,
}

impl Groups {
    /// Groups `files` again (names as found).
    pub fn set_files(&mut self, files: &[PathBuf]) {
        self.groups = group_pictures(files);
        self.read.clear();
    }

    /// Counts the files of each group that were read.
    pub fn keep_read(&mut self, read: &ReadPictures) {
        let sources: std::collections::HashSet<&std::path::Path> = read
            .pictures
            .iter()
            .filter_map(|p| p.source.as_deref())
            .collect();
        self.read = self
            .groups
            .iter()
            .map(|g| {
                g.files
                    .iter()
                    .filter(|f| {
                        sources.contains(crate::formats::absolute(f.to_path_buf()).as_path())
                    })
                    .count()
            })
            .collect();
    }

    /// The groups that have frames, with their frame counts.
    fn with_frames(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.read
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, frames)| *frames > 0)
    }

    /// True when the pictures make more than one sequence.
    pub fn offered(&self) -> bool {
        self.with_frames().count() > 1
    }

    /// True when one sequence per group is the likelier wish: a folder was given, or some
    /// group has several pictures.
    pub fn offered_first(&self) -> bool {
        self.offered() && (self.from_folder || self.with_frames().any(|(_, n)| n > 1))
    }

    /// One import per group that has frames, each into a new sequence of its name.
    pub fn imports(
        &self,
        pictures: &[ImportedImage],
        origin: OriginPlace,
        duration: FrameDuration,
    ) -> Vec<ImportFrames> {
        self.with_frames()
            .map(|(i, _)| {
                let group = &self.groups[i];
                let images: Vec<ImportedImage> = group
                    .files
                    .iter()
                    .filter_map(|file| {
                        let source = crate::formats::absolute(file.to_path_buf());
                        pictures
                            .iter()
                            .find(|p| p.source.as_deref() == Some(source.as_path()))
                            .cloned()
                    })
                    .collect();
                ImportFrames {
                    cells: (0..images.len()).map(|i| (i, None)).collect(),
                    images,
                    origin,
                    duration,
                    target: ImportTarget::NewSequence(group.name.trim().to_string()),
                }
            })
            .collect()
    }
}

/// The groups listed: a name field and the frame count each, a warning where the name is
/// taken.
pub fn section(ui: &mut egui::Ui, state: &mut Groups, doc: &OpenDocument) {
    let count = state.with_frames().count();
    ui.label(format!(
        "{}, one new sequence each:",
        crate::text::count(count, "group")
    ));
    let rows: Vec<(usize, usize)> = state.with_frames().collect();
    egui::ScrollArea::vertical()
        .max_height(220.0)
        .show(ui, |ui| {
            egui::Grid::new("import groups")
                .num_columns(4)
                .striped(true)
                .show(ui, |ui| {
                    for (number, (i, frames)) in rows.into_iter().enumerate() {
                        let name = &mut state.groups[i].name;
                        let label = ui.weak(format!("{}", number + 1));
                        // A grid cell's width is what its widest row asked for: the field asks for its own
                        // (desired_width alone gives way to the cell and cuts the name).
                        ui.add(
                            egui::TextEdit::singleline(name)
                                .desired_width(160.0)
                                .min_size(egui::vec2(160.0, 0.0)),
                        )
                        .labelled_by(label.id);
                        ui.label(crate::text::count(frames, "frame"));
                        let taken = doc.document().sequence_by_name(name.trim()).is_some();
                        if name.trim().is_empty() {
                            ui.colored_label(ui.visuals().error_fg_color, "needs a name");
                        } else if taken {
                            ui.colored_label(ui.visuals().error_fg_color, "name taken");
                        } else {
                            ui.label("");
                        }
                        ui.end_row();
                    }
                });
        });
}
