//! File > Restore backup: the versions saves replaced of the open document's files (kept in
//! Sprat's data folder, see docs/saving.md), newest first with when each was replaced and its
//! size; one is put back after a confirmation, and the document is read again from disk.
//!
//! A restore is a save of the old bytes: the version it replaces is kept as a backup in turn,
//! so a restore is undone by restoring that one.

use crate::app::context::document::OpenDocument;
use crate::app::context::feedback::{Feedback, shown_path};
use crate::formats::Severity;
use crate::session::Backup;
use crate::text::count;
use std::time::{SystemTime, UNIX_EPOCH};

/// The window's state, per tab.
#[derive(Default)]
pub struct RestoreBackupState {
    /// The versions listed, while the window is shown (read when it opened).
    listed: Option<Vec<Backup>>,
    /// The version the user chose, waiting for the confirmation.
    chosen: Option<Backup>,
}

impl RestoreBackupState {
    /// Opens the window on the versions kept of `doc`'s files.
    pub fn open(&mut self, doc: &OpenDocument) {
        self.listed = Some(backups_of(doc));
        self.chosen = None;
    }

    /// True while the window is shown.
    pub fn is_open(&self) -> bool {
        self.listed.is_some()
    }
}

/// The versions kept of the document's files: its own file, the files it names (archives)
/// and the files saves wrote beside it (a character's `.air`), newest first.
pub fn backups_of(doc: &OpenDocument) -> Vec<Backup> {
    let Some(store) = doc.session.backup_store() else {
        return Vec::new();
    };
    let mut files = crate::session::watch::watched_paths(doc.path(), doc.document());
    let folder = doc.path().and_then(|p| {
        crate::formats::absolute(p.to_path_buf())
            .parent()
            .map(|f| f.to_path_buf())
    });
    for file in store.files() {
        if folder.is_some() && file.parent() == folder.as_deref() && !files.contains(&file) {
            files.push(file);
        }
    }
    files.sort();
    files.dedup_by(|a, b| {
        crate::formats::absolute(a.clone()) == crate::formats::absolute(b.clone())
    });
    let mut backups: Vec<Backup> = files.iter().flat_map(|f| store.list(f)).collect();
    backups.sort_by_key(|b| std::cmp::Reverse(b.replaced));
    backups
}

/// Shows the window; after a restore, says what was put back (or why it could not be).
pub fn show(
    ctx: &egui::Context,
    state: &mut RestoreBackupState,
    doc: &mut OpenDocument,
) -> Option<Feedback> {
    let listed = state.listed.as_ref()?;
    let mut open = true;
    let mut chosen = None;
    let mut confirmed = None;
    egui::Window::new("Restore backup")
        .open(&mut open)
        .collapsible(false)
        .show(ctx, |ui| match &state.chosen {
            None if listed.is_empty() => {
                ui.label(if doc.session.backup_store().is_none() {
                    "This editor keeps no backups (it was started without a data folder)."
                        .to_string()
                } else {
                    format!(
                        "No backup of {} yet: a save keeps the version it replaces.",
                        doc.display_name()
                    )
                });
            }
            None => {
                ui.label("Versions that saves replaced, newest first:");
                egui::Grid::new("sprat backups").striped(true).show(ui, |ui| {
                    for backup in listed {
                        ui.label(file_name(backup));
                        ui.label(when(backup.replaced, SystemTime::now()));
                        ui.label(size(backup.size));
                        if ui
                            .button("Restore…")
                            .on_hover_text(backup.path.display().to_string())
                            .clicked()
                        {
                            chosen = Some(backup.clone());
                        }
                        ui.end_row();
                    }
                });
            }
            Some(backup) => {
                ui.label(format!(
                    "Put back {} as it was before the save {} ({})?",
                    shown_path(&backup.file),
                    when(backup.replaced, SystemTime::now()),
                    size(backup.size)
                ));
                ui.label(
                    "The file on disk now is kept as a backup in turn, and the document is read again.",
                );
                if doc.session.is_dirty() {
                    ui.colored_label(
                        ui.visuals().warn_fg_color,
                        "Your unsaved changes to this document are lost.",
                    );
                }
                ui.horizontal(|ui| {
                    if ui.button("Restore").clicked() {
                        confirmed = Some(true);
                    }
                    if ui.button("Back").clicked() {
                        confirmed = Some(false);
                    }
                });
            }
        });
    if !open {
        *state = RestoreBackupState::default();
        return None;
    }
    if chosen.is_some() {
        state.chosen = chosen;
    }
    match confirmed {
        Some(false) => {
            state.chosen = None;
            None
        }
        Some(true) => {
            let backup = state.chosen.take()?;
            let said = restore(doc, &backup);
            *state = RestoreBackupState::default();
            Some(said)
        }
        None => None,
    }
}

/// Puts `backup` back and reads the document again.
fn restore(doc: &mut OpenDocument, backup: &Backup) -> Feedback {
    let Some(store) = doc.session.backup_store() else {
        return Feedback::new(
            Severity::Error,
            "Backups are not kept here; nothing was restored.",
        );
    };
    if let Err(error) = store.restore(backup) {
        return Feedback::new(Severity::Error, error.to_string());
    }
    let context = crate::formats::ReadContext::for_path(
        doc.path().map(|p| p.to_path_buf()).unwrap_or_default(),
    );
    match doc.session.reload(&context) {
        Ok(()) => {
            doc.after_reload();
            Feedback::new(
                Severity::Info,
                format!(
                    "Restored {} as it was before the save {}; the version it replaced is a backup now.",
                    shown_path(&backup.file),
                    when(backup.replaced, SystemTime::now())
                ),
            )
        }
        Err(failure) => {
            let why = failure.first_message();
            Feedback::new(
                Severity::Error,
                format!(
                    "Restored {}, but it could not be read again: {why}",
                    shown_path(&backup.file)
                ),
            )
        }
    }
}

fn file_name(backup: &Backup) -> String {
    backup
        .file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// "1.2 KiB", "532 bytes".
fn size(bytes: u64) -> String {
    match bytes {
        0..1024 => count(bytes as usize, "byte"),
        1024..1_048_576 => format!("{:.1} KiB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MiB", bytes as f64 / 1_048_576.0),
    }
}

/// When a version was replaced, as of `now`: "3 minutes ago (2026-11-28 01:20 UTC)".
fn when(replaced: SystemTime, now: SystemTime) -> String {
    let seconds = now
        .duration_since(replaced)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let ago = match seconds {
        0..60 => "just now".to_string(),
        60..3600 => format!("{} ago", count((seconds / 60) as usize, "minute")),
        3600..86_400 => format!("{} ago", count((seconds / 3600) as usize, "hour")),
        _ => format!("{} ago", count((seconds / 86_400) as usize, "day")),
    };
    let since_epoch = replaced
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (year, month, day) = civil_date(since_epoch / 86_400);
    let minutes = since_epoch % 86_400 / 60;
    format!(
        "{ago} ({year}-{month:02}-{day:02} {:02}:{:02} UTC)",
        minutes / 60,
        minutes % 60
    )
}

/// The (year, month, day) of the proleptic Gregorian calendar `days` days after 1970-01-01
/// (Howard Hinnant's `civil_from_days`).
fn civil_date(days: u64) -> (i64, u32, u32) {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_and_ages_read_as_a_person_writes_them() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        assert_eq!(civil_date(20_604), (2026, 5, 31));
        let replaced = UNIX_EPOCH + Duration::from_secs(20_604 * 86_400 + 3_600 + 120);
        assert_eq!(
            when(replaced, replaced + Duration::from_secs(180)),
            "3 minutes ago (2026-05-31 01:02 UTC)"
        );
        assert_eq!(
            when(replaced, replaced + Duration::from_secs(3_600)),
            "1 hour ago (2026-05-31 01:02 UTC)"
        );
        assert_eq!(size(1), "1 byte");
        assert_eq!(size(2048), "2.0 KiB");
    }
}
