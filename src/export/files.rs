//! Saving a writer's output — the main file and its companions (atlas sheets, more pages) —
//! all or nothing, through the session's safe save: every file is written to a temporary
//! name in its folder first and renamed into place only when all are written, so an export
//! into a folder that cannot be written leaves nothing behind.

use crate::formats::Written;
use crate::session::atomic::{FileToSave, save_files_with_rule};
use crate::session::target::WriteRule;
use std::path::{Path, PathBuf};

/// Saves `written` as `path` plus its companions beside it; returns every path written.
pub fn save_written(path: &Path, written: &Written) -> Result<Vec<PathBuf>, String> {
    let placed = placed_files(path, written)?;
    save_together(
        placed
            .iter()
            .map(|(path, bytes)| FileToSave {
                path: path.clone(),
                bytes,
            })
            .collect(),
    )
}

/// Where `written` goes for a main file at `path`: the main file, then each companion in the
/// same folder (or below it). Refused, with nothing written, when a companion would land
/// outside that folder.
pub fn placed_files<'a>(
    path: &Path,
    written: &'a Written,
) -> Result<Vec<(PathBuf, &'a [u8])>, String> {
    let dir = path.parent().unwrap_or(Path::new(""));
    if let Some(outside) = written
        .companions
        .iter()
        .find(|c| crate::formats::escapes_folder(&c.relative_path))
    {
        return Err(format!(
            "cannot write {}: it is outside the folder of {}; nothing was written",
            dir.join(&outside.relative_path).display(),
            path.display()
        ));
    }
    let mut files = vec![(path.to_path_buf(), written.bytes.as_slice())];
    files.extend(
        written
            .companions
            .iter()
            .map(|c| (dir.join(&c.relative_path), c.bytes.as_slice())),
    );
    Ok(files)
}

/// Saves `files` all or nothing; returns their paths.
pub fn save_together(files: Vec<FileToSave>) -> Result<Vec<PathBuf>, String> {
    save_together_sparing(files, &[])
}

/// [`save_together`], refusing to write over any of `keep` (the files the document reads):
/// an export is never a save of the document, so the write rule spares them.
pub fn save_together_sparing(
    files: Vec<FileToSave>,
    keep: &[PathBuf],
) -> Result<Vec<PathBuf>, String> {
    // A rename onto a folder is the one failure that comes after every file is staged; it is
    // refused before anything is written.
    if let Some(folder) = files.iter().find(|f| f.path.is_dir()) {
        return Err(format!(
            "cannot write {}: a folder of that name is in the way; nothing was written",
            folder.path.display()
        ));
    }
    let rule = WriteRule::save().sparing(keep.to_vec());
    save_files_with_rule(&files, None, &rule).map_err(|e| e.message)?;
    Ok(files.into_iter().map(|f| f.path).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_export_never_writes_over_a_file_the_document_reads() {
        let dir = tempfile::tempdir().unwrap();
        let sheet = dir.path().join("demo.png");
        std::fs::write(&sheet, "the sheet").unwrap();
        let json = dir.path().join("demo.json");
        let files = vec![
            FileToSave {
                path: json.clone(),
                bytes: b"{}",
            },
            FileToSave {
                path: sheet.clone(),
                bytes: b"a new sheet",
            },
        ];
        let error = save_together_sparing(files, std::slice::from_ref(&sheet)).unwrap_err();
        assert!(error.contains("the document reads"), "{error}");
        assert_eq!(std::fs::read_to_string(&sheet).unwrap(), "the sheet");
        assert!(!json.exists(), "nothing written");
    }
}
