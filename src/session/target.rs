//! The one rule for every file Sprat writes: a save, a Save As, an export, every command's
//! `-o`.
//!
//! - Only regular files are written: a folder, a device, a named pipe or a socket in the way is
//!   refused, whatever the caller allows (replacing one by rename would leave a regular file
//!   where the node was).
//! - A file the document reads (its own file, the `.air`/`.sff`/palettes a `.def` names, its
//!   sheets and images) is never the target of a write of another kind (a render, an export, a
//!   conversion to another format).
//! - An existing file is replaced only when the caller allows it (`--force`; in the editor, the
//!   document's own file or a confirmed choice).
//! - Permissions are the user's word: a file without write bits is replaced only when the caller
//!   allows that too. The mode bits are looked at, not whether the file can be opened, because
//!   the administrator can open anything.
//!
//! [`check_target`] decides; [`super::atomic`] asks it before writing anything, so the editor
//! and the command line follow the same rule.

use crate::model::AnimationSet;
use std::fs;
use std::path::{Path, PathBuf};

/// What a write may replace, and what it must leave alone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteRule {
    /// Replace a file that exists (`--force`, the document's own file, a confirmed choice).
    pub replace_existing: bool,
    /// Replace a file that has no write bits (`--force`, or the user said so).
    pub replace_read_only: bool,
    /// The files the document reads, when the write is of another kind than the document
    /// (a render, an export, a conversion): none of them may be written.
    pub read_by_document: Vec<PathBuf>,
}

impl WriteRule {
    /// A save of the document's own files: they may exist, but one without write bits is
    /// refused until the user says otherwise.
    pub fn save() -> WriteRule {
        WriteRule {
            replace_existing: true,
            ..WriteRule::default()
        }
    }

    /// A command line write: `--force` replaces existing files, read-only ones included.
    pub fn command_line(force: bool) -> WriteRule {
        WriteRule {
            replace_existing: force,
            replace_read_only: force,
            read_by_document: Vec::new(),
        }
    }

    /// This rule, with `files` (those a document reads) never written.
    pub fn sparing(mut self, files: Vec<PathBuf>) -> WriteRule {
        self.read_by_document.extend(files);
        self
    }
}

/// What is in the way of a write, other than a regular file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A folder.
    Folder,
    /// A character or block device.
    Device,
    /// A named pipe (FIFO).
    Pipe,
    /// A socket.
    Socket,
    /// Anything else that is not a regular file.
    Other,
}

impl NodeKind {
    fn of(file_type: fs::FileType) -> NodeKind {
        if file_type.is_dir() {
            return NodeKind::Folder;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if file_type.is_char_device() || file_type.is_block_device() {
                return NodeKind::Device;
            }
            if file_type.is_fifo() {
                return NodeKind::Pipe;
            }
            if file_type.is_socket() {
                return NodeKind::Socket;
            }
        }
        NodeKind::Other
    }

    fn described(self) -> &'static str {
        match self {
            NodeKind::Folder => "a folder",
            NodeKind::Device => "a device",
            NodeKind::Pipe => "a named pipe (FIFO)",
            NodeKind::Socket => "a socket",
            NodeKind::Other => "not a regular file",
        }
    }
}

/// Why a write to a path is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalReason {
    /// The file exists and replacing it was not allowed.
    Exists,
    /// The document reads this file, and the write is of another kind.
    ReadByDocument,
    /// What is there is not a regular file.
    NotRegularFile(NodeKind),
    /// The file has no write bits and replacing it was not allowed.
    ReadOnly,
}

/// A write refused by [`check_target`], with the path and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The path that would have been written.
    pub path: PathBuf,
    /// Why not.
    pub reason: RefusalReason,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = self.path.display();
        match self.reason {
            RefusalReason::Exists => write!(f, "{path} exists"),
            RefusalReason::ReadByDocument => write!(
                f,
                "{path} is a file the document reads, and this write would replace it with something else"
            ),
            RefusalReason::NotRegularFile(kind) => write!(
                f,
                "{path} is {}; only regular files are written",
                kind.described()
            ),
            RefusalReason::ReadOnly => {
                write!(f, "{path} is read-only (it has no write permission)")
            }
        }
    }
}

impl std::error::Error for Refused {}

/// Whether `rule` lets a write replace `path`: `Ok` when nothing is there or what is there may
/// be replaced. A symbolic link is judged by what it points to (a save writes into that).
pub fn check_target(path: &Path, rule: &WriteRule) -> Result<(), Refused> {
    let refused = |reason| {
        Err(Refused {
            path: path.to_path_buf(),
            reason,
        })
    };
    let metadata = fs::metadata(path).ok();
    if let Some(metadata) = &metadata
        && !metadata.is_file()
    {
        return refused(RefusalReason::NotRegularFile(NodeKind::of(
            metadata.file_type(),
        )));
    }
    if !rule.read_by_document.is_empty() {
        let target = comparable(path);
        if rule
            .read_by_document
            .iter()
            .any(|read| comparable(read) == target)
        {
            return refused(RefusalReason::ReadByDocument);
        }
    }
    let Some(metadata) = metadata else {
        return Ok(());
    };
    if !rule.replace_existing {
        return refused(RefusalReason::Exists);
    }
    if metadata.permissions().readonly() && !rule.replace_read_only {
        return refused(RefusalReason::ReadOnly);
    }
    Ok(())
}

/// Whether `a` and `b` name the same file (links and `..` resolved; neither need exist).
pub fn same_file(a: &Path, b: &Path) -> bool {
    comparable(a) == comparable(b)
}

/// `path` in a form two spellings of one file share: absolute, with links and `..` resolved
/// (for a file that does not exist yet, its folder's resolved path and its name).
fn comparable(path: &Path) -> PathBuf {
    if let Ok(resolved) = fs::canonicalize(path) {
        return resolved;
    }
    let absolute = crate::formats::absolute(path.to_path_buf());
    match (absolute.parent(), absolute.file_name()) {
        (Some(dir), Some(name)) => fs::canonicalize(dir)
            .map(|dir| dir.join(name))
            .unwrap_or(absolute),
        _ => absolute,
    }
}

/// Every file `document` reads from disk: the file it was read from, the files read with it
/// (the `.air` a `.def` names), and the images, archives, palettes and tilesets it draws from.
pub fn files_read_by(document: &AnimationSet) -> Vec<PathBuf> {
    let own = document.original.iter().filter_map(|o| o.path.clone());
    let companions = document
        .companion_originals
        .iter()
        .filter_map(|o| o.path.clone());
    own.chain(companions)
        .chain(
            super::watch::source_files(document)
                .into_iter()
                .map(|(_, path)| path),
        )
        .collect()
}

/// Keeps the owner and group of `old` on the new file `temp` where this process may set them
/// (the administrator may; another user may set only a group of their own), so that replacing
/// a file does not hand it to whoever saved it. The mode is kept by the caller.
#[cfg(unix)]
pub(super) fn keep_owner(temp: &Path, old: &fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    let Ok(new) = fs::metadata(temp) else {
        return;
    };
    if new.uid() == old.uid() && new.gid() == old.gid() {
        return;
    }
    if std::os::unix::fs::chown(temp, Some(old.uid()), Some(old.gid())).is_err() {
        // Not allowed to give the file away: keep at least its group where that is ours.
        let _ = std::os::unix::fs::chown(temp, None, Some(old.gid()));
    }
}

/// Owners are not kept where the system has none to keep.
#[cfg(not(unix))]
pub(super) fn keep_owner(_temp: &Path, _old: &fs::Metadata) {}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(path: &Path, rule: &WriteRule) -> Option<RefusalReason> {
        check_target(path, rule).err().map(|r| r.reason)
    }

    #[test]
    fn a_missing_file_may_be_written() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            reason(&dir.path().join("new.png"), &WriteRule::default()),
            None
        );
    }

    #[test]
    fn an_existing_file_needs_leave() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("kfm.air");
        fs::write(&file, "air").unwrap();
        assert_eq!(
            reason(&file, &WriteRule::command_line(false)),
            Some(RefusalReason::Exists)
        );
        assert_eq!(reason(&file, &WriteRule::command_line(true)), None);
        assert_eq!(reason(&file, &WriteRule::save()), None);
    }

    #[test]
    fn a_folder_is_never_written() {
        let dir = tempfile::tempdir().unwrap();
        let refusal = check_target(dir.path(), &WriteRule::command_line(true)).unwrap_err();
        assert_eq!(
            refusal.reason,
            RefusalReason::NotRegularFile(NodeKind::Folder)
        );
        assert!(refusal.to_string().contains("is a folder"), "{refusal}");
    }

    #[cfg(unix)]
    #[test]
    fn a_named_pipe_is_never_written() {
        let dir = tempfile::tempdir().unwrap();
        let pipe = crate::session::test_files::named_pipe_in(dir.path(), "pipe.air");
        assert_eq!(
            reason(&pipe, &WriteRule::command_line(true)),
            Some(RefusalReason::NotRegularFile(NodeKind::Pipe))
        );
    }

    #[test]
    fn a_file_without_write_bits_is_read_only_even_where_it_can_be_opened() {
        let dir = tempfile::tempdir().unwrap();
        let file = crate::session::test_files::read_only_file_in(dir.path(), "kfm.air", "air");
        assert_eq!(
            reason(&file, &WriteRule::save()),
            Some(RefusalReason::ReadOnly)
        );
        assert_eq!(reason(&file, &WriteRule::command_line(true)), None);
    }

    #[test]
    fn a_file_the_document_reads_is_spared_under_any_spelling() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("chars")).unwrap();
        let sff = dir.path().join("chars/kfm.sff");
        fs::write(&sff, "sff").unwrap();
        let rule = WriteRule::command_line(true).sparing(vec![sff.clone()]);
        let other_spelling = dir.path().join("chars/../chars/kfm.sff");
        assert_eq!(
            reason(&other_spelling, &rule),
            Some(RefusalReason::ReadByDocument)
        );
        assert_eq!(reason(&dir.path().join("chars/kfm.png"), &rule), None);
    }
}
