//! One editor window: a second `sprat FILE` (a file opened from the file manager while the
//! editor runs) hands FILE to the window already open, where it opens as a tab.
//!
//! The first editor listens on a Unix socket in the user's runtime folder
//! (`$XDG_RUNTIME_DIR/sprat.sock`, or `sprat-UID/sprat.sock` under the temporary folder, a
//! folder only the user can enter). A later start connects, sends the file's absolute path and
//! waits for the editor's answer that it took it; then it exits. A socket left behind by an
//! editor that was killed refuses connections: the next editor removes it and listens in its
//! place, so a stale socket never blocks a start. An editor that does not answer in time
//! ([`ANSWER_TIMEOUT`]) is left alone and the file gets a window of its own.
//!
//! The message is the paths' bytes, each followed by a NUL byte (a Unix path never holds
//! one); the answer is [`TAKEN`].

use std::io::{self, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a second start waits for the running editor's answer before it opens a window of
/// its own: an editor that hangs must not keep the user's file from opening.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(3);

/// The editor's answer once it has the paths.
const TAKEN: &[u8] = b"taken\n";

/// The longest message the editor reads; a longer one is dropped (no reason to hold more).
const MAX_MESSAGE: u64 = 256 * 1024;

/// The socket of the user's editor: `$XDG_RUNTIME_DIR/sprat.sock`, or, without a runtime
/// folder, `sprat-UID/sprat.sock` under the temporary folder, created for the user alone.
/// `None` when no folder can be trusted to be the user's own (the editor then always opens
/// a window of its own).
pub fn socket_path() -> Option<PathBuf> {
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

/// The editor's end at [`socket_path`]: `None` when another editor listens there already, or
/// the socket cannot be made (said in the log).
pub fn listen() -> Option<Listener> {
    let socket = socket_path()?;
    Listener::bind(&socket)
        .inspect_err(|e| log::warn!("cannot listen at {}: {e}", socket.display()))
        .ok()
        .flatten()
}

/// Sends `paths` to the editor listening at `socket`. True when the editor took them; false
/// when no editor listens there (or one does not answer within [`ANSWER_TIMEOUT`]).
pub fn hand_over(socket: &Path, paths: &[PathBuf]) -> bool {
    match try_hand_over(socket, paths) {
        Ok(taken) => taken,
        Err(e) => {
            if !matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::ConnectionRefused
            ) {
                log::info!(
                    "the running editor at {} did not answer: {e}",
                    socket.display()
                );
            }
            false
        }
    }
}

fn try_hand_over(socket: &Path, paths: &[PathBuf]) -> io::Result<bool> {
    let mut message = Vec::new();
    for path in paths {
        // The editor runs in another folder: relative paths are made absolute here.
        let path = std::path::absolute(path)?;
        message.extend_from_slice(path.as_os_str().as_encoded_bytes());
        message.push(0);
    }
    let mut stream = UnixStream::connect(socket)?;
    stream.set_write_timeout(Some(ANSWER_TIMEOUT))?;
    stream.set_read_timeout(Some(ANSWER_TIMEOUT))?;
    stream.write_all(&message)?;
    stream.shutdown(std::net::Shutdown::Write)?;
    let mut answer = Vec::new();
    stream.take(TAKEN.len() as u64).read_to_end(&mut answer)?;
    Ok(answer == TAKEN)
}

/// The editor's end: the socket it listens on, removed when it is dropped (if it is still
/// this editor's: a later editor may have taken the place).
pub struct Listener {
    listener: UnixListener,
    path: PathBuf,
    /// The socket file's device and inode as bound, to know it is still ours.
    identity: (u64, u64),
}

impl Listener {
    /// Listens at `socket`, unless an editor already does there (`Ok(None)`). A socket
    /// nobody listens on, left by an editor that was killed, is removed first.
    pub fn bind(socket: &Path) -> io::Result<Option<Listener>> {
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
        Ok(Some(Listener {
            listener,
            path: socket.to_path_buf(),
            identity: (meta.dev(), meta.ino()),
        }))
    }

    /// Starts a thread that gives the paths of every message to `receive` (called on that
    /// thread) and answers each sender that they were taken.
    pub fn serve(&self, receive: impl Fn(Vec<PathBuf>) + Send + 'static) -> io::Result<()> {
        let listener = self.listener.try_clone()?;
        std::thread::Builder::new()
            .name("sprat single window".into())
            .spawn(move || {
                for stream in listener.incoming() {
                    match stream {
                        Ok(stream) => answer(stream, &receive),
                        Err(e) => log::warn!("a start of sprat could not connect: {e}"),
                    }
                }
            })?;
        Ok(())
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let ours = std::fs::symlink_metadata(&self.path)
            .is_ok_and(|meta| (meta.dev(), meta.ino()) == self.identity);
        if ours {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Reads one message, gives its paths to `receive` and answers.
fn answer(mut stream: UnixStream, receive: &impl Fn(Vec<PathBuf>)) {
    // A sender that never finishes must not keep the next one waiting.
    let _ = stream.set_read_timeout(Some(ANSWER_TIMEOUT));
    let _ = stream.set_write_timeout(Some(ANSWER_TIMEOUT));
    let mut message = Vec::new();
    if let Err(e) = (&mut stream)
        .take(MAX_MESSAGE + 1)
        .read_to_end(&mut message)
    {
        log::warn!("a start of sprat sent an unreadable message: {e}");
        return;
    }
    if message.len() as u64 > MAX_MESSAGE {
        log::warn!("a start of sprat sent more than {MAX_MESSAGE} bytes: ignored");
        return;
    }
    let paths = paths_of(&message);
    // An empty message is an editor looking whether this one is alive.
    if paths.is_empty() {
        return;
    }
    receive(paths);
    let _ = stream.write_all(TAKEN);
}

/// The absolute paths of a message (anything else is not from a start of sprat: left out).
fn paths_of(message: &[u8]) -> Vec<PathBuf> {
    message
        .split(|&b| b == 0)
        .filter(|bytes| !bytes.is_empty())
        // On Unix any bytes but NUL make a path.
        .map(|bytes| PathBuf::from(std::ffi::OsStr::from_bytes(bytes)))
        .filter(|path| path.is_absolute())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn a_second_start_hands_its_paths_to_the_editor_listening() {
        let folder = tempfile::tempdir().unwrap();
        let socket = folder.path().join("sprat.sock");
        let listener = Listener::bind(&socket)
            .unwrap()
            .expect("nobody listens yet");
        let (sender, received) = mpsc::channel();
        listener
            .serve(move |paths| sender.send(paths).unwrap())
            .unwrap();

        let file = folder.path().join("hero tunic.dat");
        assert!(hand_over(&socket, std::slice::from_ref(&file)));
        let paths = received.recv_timeout(Duration::from_secs(5)).unwrap();
        assert_eq!(paths, vec![file]);

        // While it listens, another editor does not take its place.
        assert!(Listener::bind(&socket).unwrap().is_none());
    }

    #[test]
    fn relative_paths_arrive_absolute() {
        let folder = tempfile::tempdir().unwrap();
        let socket = folder.path().join("sprat.sock");
        let listener = Listener::bind(&socket).unwrap().unwrap();
        let (sender, received) = mpsc::channel();
        listener
            .serve(move |paths| sender.send(paths).unwrap())
            .unwrap();

        assert!(hand_over(&socket, &[PathBuf::from("kfm.air")]));
        let paths = received.recv_timeout(Duration::from_secs(5)).unwrap();
        assert_eq!(
            paths,
            vec![std::env::current_dir().unwrap().join("kfm.air")]
        );
    }

    #[test]
    fn a_socket_left_by_a_killed_editor_never_blocks_a_start() {
        let folder = tempfile::tempdir().unwrap();
        let socket = folder.path().join("sprat.sock");
        // A listener dropped without its `Listener` leaves the socket file behind, as a
        // killed editor does.
        drop(UnixListener::bind(&socket).unwrap());
        assert!(socket.exists());

        assert!(!hand_over(&socket, &[PathBuf::from("/a.sff")]));
        let listener = Listener::bind(&socket)
            .unwrap()
            .expect("the stale socket is replaced");
        let (sender, received) = mpsc::channel();
        listener
            .serve(move |paths| sender.send(paths).unwrap())
            .unwrap();
        assert!(hand_over(&socket, &[PathBuf::from("/a.sff")]));
        assert_eq!(
            received.recv_timeout(Duration::from_secs(5)).unwrap(),
            vec![PathBuf::from("/a.sff")]
        );
    }

    #[test]
    fn the_socket_goes_with_its_editor() {
        let folder = tempfile::tempdir().unwrap();
        let socket = folder.path().join("sprat.sock");
        let listener = Listener::bind(&socket).unwrap().unwrap();
        assert!(socket.exists());
        drop(listener);
        assert!(!socket.exists());
        assert!(!hand_over(&socket, &[PathBuf::from("/a.air")]));
    }

    #[test]
    fn with_no_editor_a_start_opens_its_own_window() {
        let folder = tempfile::tempdir().unwrap();
        assert!(!hand_over(
            &folder.path().join("sprat.sock"),
            &[PathBuf::from("/a.air")]
        ));
    }

    #[test]
    fn an_editor_that_does_not_answer_is_given_up_on() {
        let folder = tempfile::tempdir().unwrap();
        let socket = folder.path().join("sprat.sock");
        // Listening, but never accepting: a hung editor.
        let _hung = UnixListener::bind(&socket).unwrap();
        let started = std::time::Instant::now();
        assert!(!hand_over(&socket, &[PathBuf::from("/a.air")]));
        assert!(started.elapsed() < ANSWER_TIMEOUT * 2);
    }

    #[test]
    fn messages_keep_only_absolute_paths() {
        assert_eq!(
            paths_of(b"/a/b.air\0relative\0\0/c d/\xffe.sff\0"),
            vec![
                PathBuf::from("/a/b.air"),
                PathBuf::from(std::ffi::OsStr::from_bytes(b"/c d/\xffe.sff"))
            ]
        );
    }
}
