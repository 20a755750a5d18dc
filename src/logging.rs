//! Where the program's warnings go: standard error, and for the editor also a log file beside
//! its settings, so failures it can only note (a backup it could not keep, a recovery folder it
//! could not remove) are there to read after the window is gone.
//!
//! `RUST_LOG` chooses what is written (`RUST_LOG=info`, `RUST_LOG=sprat::session=debug`);
//! without it, warnings and errors are.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// When the program started, as near as it can tell: the first thing `main` does is note it.
static STARTED: OnceLock<Instant> = OnceLock::new();

/// Notes that the program starts now (the first call counts).
pub fn mark_start() {
    STARTED.get_or_init(Instant::now);
}

/// How long ago [`mark_start`] was called; `None` when it was not (tests, the web).
pub fn since_start() -> Option<Duration> {
    STARTED.get().map(Instant::elapsed)
}

/// The log file grows to this size; then the next start moves it to `sprat.log.old`, so the
/// log never fills a disk.
const LARGEST_LOG: u64 = 1024 * 1024;

/// The log file in `dir` (the editor's settings folder).
pub fn log_file_in(dir: &Path) -> PathBuf {
    dir.join("sprat.log")
}

/// Starts logging to standard error and, when `file` is given, to that file too (appended;
/// its folder is created). A file that cannot be opened leaves standard error alone, with a
/// line saying so. Calling it a second time changes nothing.
pub fn init(file: Option<&Path>) {
    let mut builder =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"));
    builder.format_timestamp_secs();
    let opened = file.map(|path| (path, open_log(path)));
    let mut failure = None;
    if let Some((path, opened)) = opened {
        match opened {
            Ok(log) => {
                builder.target(env_logger::Target::Pipe(Box::new(Both {
                    file: log,
                    stderr: io::stderr(),
                })));
            }
            Err(error) => {
                failure = Some(format!("cannot write the log {}: {error}", path.display()))
            }
        }
    }
    if builder.try_init().is_ok()
        && let Some(failure) = failure
    {
        log::warn!("{failure}");
    }
}

fn open_log(path: &Path) -> io::Result<File> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    if std::fs::metadata(path).is_ok_and(|m| m.len() > LARGEST_LOG) {
        let mut old = path.as_os_str().to_os_string();
        old.push(".old");
        std::fs::rename(path, old)?;
    }
    OpenOptions::new().create(true).append(true).open(path)
}

/// Writes each record to the file and to standard error.
struct Both {
    file: File,
    stderr: io::Stderr,
}

impl Write for Both {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        // Standard error may be closed (a desktop launcher); the file still gets the line.
        let _ = self.stderr.write_all(bytes);
        self.file.write_all(bytes)?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let _ = self.stderr.flush();
        self.file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_reach_the_log_file_and_a_large_log_is_moved_aside() {
        let dir = tempfile::tempdir().unwrap();
        let path = log_file_in(&dir.path().join("settings"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, vec![b'x'; LARGEST_LOG as usize + 1]).unwrap();
        init(Some(&path));
        log::warn!("a backup could not be kept");
        log::logger().flush();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("a backup could not be kept"), "{text}");
        assert!(text.contains("WARN"), "{text}");
        let old = path.with_file_name("sprat.log.old");
        assert_eq!(
            std::fs::metadata(old).unwrap().len(),
            LARGEST_LOG + 1,
            "the old log is kept once"
        );
    }
}
