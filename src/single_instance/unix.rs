//! The single window's endpoint on Unix: a Unix socket in a folder only the user can enter.

use super::{Connection, Server};
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The socket of the user's editor: `$XDG_RUNTIME_DIR/sprat.sock`, or, without a runtime
/// folder, `sprat-UID/sprat.sock` under the temporary folder, created for the user alone.
/// `None` when no folder can be trusted to be the user's own (the editor then always opens
/// a window of its own).
pub fn endpoint_path() -> Option<PathBuf> {
    if let Some(runtime) = std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        let runtime = PathBuf::from(runtime);
        if runtime.is_dir() {
            return Some(runtime.join("sprat.sock"));
        }
    }
    let uid = own_uid()?;
    let folder = std::env::temp_dir().join(format!("sprat-{uid}"));
    match std::fs::DirBuilder::new().mode(0o700).create(&folder) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => {
            log::warn!("cannot create {}: {e}", folder.display());
            return None;
        }
    }
    // A folder someone else made (or opened to others) could hand us their files, or read
    // ours: then no single window.
    let meta = std::fs::symlink_metadata(&folder).ok()?;
    let private = meta.is_dir() && meta.uid() == uid && meta.permissions().mode() & 0o077 == 0;
    if !private {
        log::warn!(
            "{} is not a folder of this user's alone: every start opens a window of its own",
            folder.display()
        );
        return None;
    }
    Some(folder.join("sprat.sock"))
}

/// This process's user id, as the owner of its `/proc` entry (Linux) or of the home folder.
fn own_uid() -> Option<u32> {
    let meta = match std::fs::metadata("/proc/self") {
        Ok(meta) => meta,
        Err(_) => std::fs::metadata(std::env::var_os("HOME")?).ok()?,
    };
    Some(meta.uid())
}

impl Connection for UnixStream {
    fn set_read_timeout(&self, timeout: Option<Duration>) -> io::Result<()> {
        UnixStream::set_read_timeout(self, timeout)
    }

    fn set_write_timeout(&self, timeout: Option<Duration>) -> io::Result<()> {
        UnixStream::set_write_timeout(self, timeout)
    }
}

/// Connects to the editor listening at `socket`.
pub fn connect(socket: &Path) -> io::Result<Box<dyn Connection>> {
    Ok(Box::new(UnixStream::connect(socket)?))
}

/// The editor's socket, removed when it goes (if it is still this editor's).
#[derive(Debug)]
pub struct SocketServer {
    listener: UnixListener,
    path: PathBuf,
    /// The socket file's device and inode as bound, to know it is still ours.
    identity: (u64, u64),
}

/// Listens at `socket`, unless an editor already does there (`Ok(None)`). A socket nobody
/// listens on, left by an editor that was killed, is removed first.
pub fn bind(socket: &Path) -> io::Result<Option<std::sync::Arc<dyn Server>>> {
    match UnixStream::connect(socket) {
        Ok(_) => return Ok(None),
        Err(e) if e.kind() == io::ErrorKind::ConnectionRefused => {
            log::info!(
                "removing {}, left by an editor that has gone",
                socket.display()
            );
            std::fs::remove_file(socket)?;
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let listener = match UnixListener::bind(socket) {
        Ok(listener) => listener,
        // Another editor started between the look and the bind: it is the one.
        Err(e) if e.kind() == io::ErrorKind::AddrInUse => return Ok(None),
        Err(e) => return Err(e),
    };
    let meta = std::fs::symlink_metadata(socket)?;
    Ok(Some(std::sync::Arc::new(SocketServer {
        listener,
        path: socket.to_path_buf(),
        identity: (meta.dev(), meta.ino()),
    })))
}

impl Server for SocketServer {
    fn accept(&self) -> io::Result<Box<dyn Connection>> {
        Ok(Box::new(self.listener.accept()?.0))
    }

    /// The socket's folder is the user's alone: whoever reaches it is.
    fn admit(&self, _connection: &mut dyn Connection) -> io::Result<()> {
        Ok(())
    }

    fn release(&self) {
        let ours = std::fs::symlink_metadata(&self.path)
            .is_ok_and(|meta| (meta.dev(), meta.ino()) == self.identity);
        if ours {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}
