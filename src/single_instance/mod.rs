//! One editor window: a second `sprat FILE` (a file opened from the file manager while the
//! editor runs) hands FILE to the window already open, where it opens as a tab.
//!
//! The first editor listens where later starts of the same user find it (see [`socket_path`]):
//! on Unix a Unix socket in the user's runtime folder ([`unix`]); on Windows a loopback TCP
//! port named, with a secret the start must send first, by a file in the user's own local
//! data folder ([`loopback`]). An endpoint left behind by an editor that was killed refuses
//! connections: the next editor removes it and listens in its place, so a stale endpoint never
//! blocks a start.
//!
//! A later start and the editor speak in three steps:
//!
//! 1. the start sends the files' absolute paths, each followed by a NUL byte (a Unix path
//!    never holds one), and an empty path (one more NUL) to end the list;
//! 2. the editor answers [`READY`];
//! 3. the start, if [`READY`] came within [`ANSWER_TIMEOUT`], sends [`OPEN`]; the editor opens
//!    the files when it reads [`OPEN`], and only then, and answers [`TAKEN`] once they are
//!    with its window (the start waits for that a moment so that it ends after; the answer
//!    changes nothing).
//!
//! An editor that is busy or stopped (SIGSTOP, a debugger, a long hang) cannot answer: its
//! socket still accepts the connection (the system queues it) and the request waits there.
//! After [`ANSWER_TIMEOUT`] without [`READY`] the start withdraws: it closes the connection
//! without sending [`OPEN`] and opens the file in a window of its own, saying why
//! ([`BUSY_NOTICE`]). When the editor wakes up it reads the queued request, answers, and finds
//! the connection closed where [`OPEN`] would be: it drops the request.
//!
//! This is free of races because one side alone decides, once: the start, by sending [`OPEN`]
//! or closing. The editor never decides by the clock once it has answered (it waits for
//! [`OPEN`] or the end of the connection however long that takes, on a thread per
//! connection; before answering it drops a start too slow to send its list, which cannot have
//! decided anything yet, having had no answer), so there is no moment
//! when both could think the file theirs: after [`OPEN`] is sent the start never opens a
//! window, and without it the editor never opens the file. (Should the editor die between the
//! start's [`OPEN`] and reading it, the file opens nowhere; nothing is lost, it is on disk.)

pub mod loopback;
#[cfg(unix)]
pub mod unix;

#[cfg(not(unix))]
use loopback as platform;
#[cfg(unix)]
use unix as platform;

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where the user's editor listens: on Unix the socket, on Windows the file naming the
/// loopback port (`None` where no place can be trusted to be the user's own: the editor then
/// always opens a window of its own).
pub use platform::endpoint_path as socket_path;

/// One connection between a start and the editor, whatever carries it.
pub trait Connection: Read + Write + Send {
    /// How long a read may wait (`None`: for ever).
    fn set_read_timeout(&self, timeout: Option<Duration>) -> io::Result<()>;
    /// How long a write may wait (`None`: for ever).
    fn set_write_timeout(&self, timeout: Option<Duration>) -> io::Result<()>;
}

/// Where the editor takes the connections of later starts.
pub trait Server: Send + Sync + std::fmt::Debug {
    /// The next connection (blocking until one comes).
    fn accept(&self) -> io::Result<Box<dyn Connection>>;
    /// Checks that a connection comes from a start of this user's sprat (on the thread of
    /// that connection, so a slow one holds up no other): an error drops it unread.
    fn admit(&self, connection: &mut dyn Connection) -> io::Result<()>;
    /// Removes the endpoint, if it is still this editor's (a later editor may have taken
    /// the place): the editor is going.
    fn release(&self);
}

/// How long a second start waits for the running editor's answer before it opens a window of
/// its own: an editor that hangs must not keep the user's file from opening.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(3);

/// The editor's answer once it has read the paths: it is awake and will open them if asked.
const READY: &[u8] = b"ready\n";

/// The start's go-ahead after [`READY`]: from then on the files are the editor's to open.
const OPEN: &[u8] = b"open\n";

/// The editor's last word, once the files are with its window (the start then ends).
const TAKEN: &[u8] = b"taken\n";

/// The longest request the editor reads (the paths, then [`OPEN`]); a longer one is dropped
/// (no reason to hold more).
const MAX_MESSAGE: u64 = 256 * 1024;

/// What the status bar of a window opened because the running editor did not answer says.
pub const BUSY_NOTICE: &str =
    "Another Sprat window did not answer; this file opened in a window of its own.";

/// How handing files to the running editor went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandOver {
    /// The editor took them: it opens them.
    Taken,
    /// No editor listens there (no socket, or one left by an editor that has gone).
    NoEditor,
    /// An editor listens but did not answer in time (busy, stopped) or broke off: the request
    /// was withdrawn, so it never opens the files.
    NoAnswer,
}

/// What a start of the editor does about an editor already running.
#[derive(Debug)]
pub enum Start {
    /// The running editor took the file: this start is done.
    HandedOver,
    /// This start opens a window of its own.
    OwnWindow {
        /// Where it takes the files of later starts, when it got the socket.
        listener: Option<Listener>,
        /// Why the file was not handed over, for the window's status bar, when the user
        /// expected it in the window already open.
        notice: Option<&'static str>,
    },
}

/// Decides what a start does: hands `file` (when given) to the editor listening at `socket`,
/// or opens a window of its own, listening at `socket` for later starts when no editor does.
/// `socket` is `None` where no socket can be trusted (see [`socket_path`]).
pub fn start(socket: Option<&Path>, file: Option<&Path>) -> Start {
    let Some(socket) = socket else {
        return Start::OwnWindow {
            listener: None,
            notice: None,
        };
    };
    let hand = |file: &Path| hand_over(socket, &[file.to_path_buf()]);
    let mut outcome = file.map(hand);
    if outcome == Some(HandOver::Taken) {
        return Start::HandedOver;
    }
    let listener = Listener::bind(socket)
        .inspect_err(|e| log::warn!("cannot listen at {}: {e}", socket.display()))
        .ok()
        .flatten();
    // Another start won the socket since the look above (several files opened at once from
    // a file manager): its window takes this file too. An editor that did not answer is not
    // asked twice.
    if listener.is_none() && outcome == Some(HandOver::NoEditor) {
        outcome = file.map(hand);
        if outcome == Some(HandOver::Taken) {
            return Start::HandedOver;
        }
    }
    Start::OwnWindow {
        listener,
        notice: (outcome == Some(HandOver::NoAnswer)).then_some(BUSY_NOTICE),
    }
}

/// Hands `paths` to the editor listening at `socket`, waiting [`ANSWER_TIMEOUT`] at most
/// for its answer.
pub fn hand_over(socket: &Path, paths: &[PathBuf]) -> HandOver {
    hand_over_through(platform::connect, socket, paths)
}

/// [`hand_over`] through the endpoint `connect` reaches.
fn hand_over_through(
    connect: fn(&Path) -> io::Result<Box<dyn Connection>>,
    socket: &Path,
    paths: &[PathBuf],
) -> HandOver {
    let stream = match connect(socket) {
        Ok(stream) => stream,
        Err(e) => {
            if !matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::ConnectionRefused
            ) {
                log::info!("cannot reach the editor at {}: {e}", socket.display());
            }
            return HandOver::NoEditor;
        }
    };
    // Dropping `stream` without sending OPEN withdraws the request (see the module's doc).
    match ask(stream, paths, Instant::now() + ANSWER_TIMEOUT) {
        Ok(true) => HandOver::Taken,
        Ok(false) => HandOver::NoAnswer,
        Err(e) => {
            log::info!(
                "the running editor at {} did not answer: {e}",
                socket.display()
            );
            HandOver::NoAnswer
        }
    }
}

/// Sends the paths, waits for [`READY`] until `deadline` and then sends [`OPEN`]: true when
/// it was sent (the editor has the files).
fn ask(mut stream: Box<dyn Connection>, paths: &[PathBuf], deadline: Instant) -> io::Result<bool> {
    let mut message = Vec::new();
    for path in paths {
        // The editor runs in another folder: relative paths are made absolute here.
        let path = std::path::absolute(path)?;
        message.extend_from_slice(path.as_os_str().as_encoded_bytes());
        message.push(0);
    }
    // An empty path ends the list.
    message.push(0);
    let left = |deadline: Instant| {
        let left = deadline.saturating_duration_since(Instant::now());
        // A zero timeout means none at all: wait a moment rather than forever.
        Some(left.max(Duration::from_millis(1)))
    };
    stream.set_write_timeout(left(deadline))?;
    stream.write_all(&message)?;
    let mut answer = Vec::with_capacity(READY.len());
    while answer.len() < READY.len() {
        if Instant::now() >= deadline {
            return Ok(false);
        }
        stream.set_read_timeout(left(deadline))?;
        let mut byte = [0u8; 8];
        let wanted = READY.len() - answer.len();
        match stream.read(&mut byte[..wanted]) {
            Ok(0) => return Ok(false),
            Ok(n) => answer.extend_from_slice(&byte[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                return Ok(false);
            }
            Err(e) => return Err(e),
        }
    }
    if answer != READY {
        return Ok(false);
    }
    // The decision: once OPEN is written the files are the editor's.
    stream.write_all(OPEN)?;
    // The editor says TAKEN once the files are with its window, so the start ends after
    // that; whatever comes (or nothing), the decision stands.
    stream.set_read_timeout(Some(ANSWER_TIMEOUT))?;
    let mut taken = Vec::new();
    let _ = (&mut stream)
        .take(TAKEN.len() as u64)
        .read_to_end(&mut taken);
    Ok(true)
}

/// The editor's end: where it listens, given up when it is dropped (if it is still this
/// editor's: a later editor may have taken the place).
#[derive(Debug)]
pub struct Listener {
    server: Arc<dyn Server>,
}

impl Listener {
    /// Listens at `socket`, unless an editor already does there (`Ok(None)`). An endpoint
    /// nobody listens on, left by an editor that was killed, is removed first.
    pub fn bind(socket: &Path) -> io::Result<Option<Listener>> {
        Ok(platform::bind(socket)?.map(Listener::over))
    }

    /// The listener taking its connections from `server`.
    pub fn over(server: Arc<dyn Server>) -> Listener {
        Listener { server }
    }

    /// Starts a thread that takes the requests of later starts, each on a thread of its own,
    /// and gives the paths of every request the start went on with to `receive` (called on
    /// that request's thread).
    pub fn serve(&self, receive: impl Fn(Vec<PathBuf>) + Send + Sync + 'static) -> io::Result<()> {
        let server = Arc::clone(&self.server);
        let receive = Arc::new(receive);
        std::thread::Builder::new()
            .name("sprat single window".into())
            .spawn(move || {
                loop {
                    let mut stream = match server.accept() {
                        Ok(stream) => stream,
                        Err(e) => {
                            log::warn!("a start of sprat could not connect: {e}");
                            continue;
                        }
                    };
                    let receive = Arc::clone(&receive);
                    let server = Arc::clone(&server);
                    // A start that stops between READY and OPEN must not hold up the next.
                    let spawned = std::thread::Builder::new()
                        .name("sprat single window request".into())
                        .spawn(move || match server.admit(stream.as_mut()) {
                            Ok(()) => answer(stream, &*receive),
                            Err(e) => log::warn!("a connection that is not a start of sprat: {e}"),
                        });
                    if let Err(e) = spawned {
                        log::warn!("cannot answer a start of sprat: {e}");
                    }
                }
            })?;
        Ok(())
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.server.release();
    }
}

/// Reads one request, answers [`READY`] and gives its paths to `receive` if the start
/// goes on with [`OPEN`]; a start that gave up meanwhile has closed the connection, and its
/// request is dropped.
fn answer(stream: Box<dyn Connection>, receive: &dyn Fn(Vec<PathBuf>)) {
    match take_request(stream) {
        Ok(Some((paths, mut stream))) => {
            receive(paths);
            let _ = stream.write_all(TAKEN);
        }
        Ok(None) => log::debug!(
            "a start of sprat withdrew its request, or only looked whether this editor runs"
        ),
        Err(e) => log::warn!("a start of sprat sent an unreadable request: {e}"),
    }
}

/// The paths of a request once the start said [`OPEN`], with the connection to answer
/// [`TAKEN`] on; `None` for one withdrawn, or empty (an editor looking whether this one is
/// alive).
#[allow(clippy::type_complexity)]
fn take_request(
    stream: Box<dyn Connection>,
) -> io::Result<Option<(Vec<PathBuf>, Box<dyn Connection>)>> {
    // A start that never finishes its list must not keep a thread forever: it has not been
    // answered yet, so dropping it decides nothing.
    stream.set_read_timeout(Some(ANSWER_TIMEOUT))?;
    stream.set_write_timeout(Some(ANSWER_TIMEOUT))?;
    let mut reader = BufReader::new(stream);
    let mut request = (&mut reader).take(MAX_MESSAGE);
    let mut paths = Vec::new();
    loop {
        let mut entry = Vec::new();
        request.read_until(0, &mut entry)?;
        if entry.last() != Some(&0) {
            // The end of the connection (or the size limit) before the list ended.
            return Ok(None);
        }
        entry.pop();
        if entry.is_empty() {
            break;
        }
        paths.push(entry);
    }
    let paths = paths_of(&paths);
    if paths.is_empty() {
        return Ok(None);
    }
    if reader.get_mut().write_all(READY).is_err() {
        return Ok(None);
    }
    // No timeout from here: the start decides, by OPEN or by closing (see the module's doc).
    reader.get_ref().set_read_timeout(None)?;
    let mut go = Vec::with_capacity(OPEN.len());
    (&mut reader).take(OPEN.len() as u64).read_to_end(&mut go)?;
    // The start sends nothing after OPEN: nothing is left in the reader's buffer.
    Ok((go == OPEN).then_some((paths, reader.into_inner())))
}

/// The absolute paths among a request's entries (anything else is not from a start of
/// sprat: left out).
fn paths_of(entries: &[Vec<u8>]) -> Vec<PathBuf> {
    entries
        .iter()
        .map(Vec::as_slice)
        .filter_map(path_of)
        .filter(|path| path.is_absolute())
        .collect()
}

/// The path a start sent: on Unix any bytes but NUL make a path.
#[cfg(unix)]
fn path_of(bytes: &[u8]) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    Some(PathBuf::from(std::ffi::OsStr::from_bytes(bytes)))
}

/// The path a start sent: elsewhere, a start sends its path's text (UTF-8); anything else
/// did not come from a start of sprat.
#[cfg(not(unix))]
fn path_of(bytes: &[u8]) -> Option<PathBuf> {
    std::str::from_utf8(bytes).ok().map(PathBuf::from)
}

#[cfg(test)]
impl Listener {
    /// Serves, sending the paths of each request taken to the receiver returned.
    fn serve_to_channel(&self) -> std::sync::mpsc::Receiver<Vec<PathBuf>> {
        let (sender, received) = std::sync::mpsc::channel();
        let sender = std::sync::Mutex::new(sender);
        self.serve(move |paths| sender.lock().unwrap().send(paths).unwrap())
            .unwrap();
        received
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::net::{UnixListener, UnixStream};
    use std::sync::mpsc;

    /// An editor listening at a new socket in `folder`, handing what it opens to the receiver.
    fn serving(folder: &Path) -> (PathBuf, Listener, mpsc::Receiver<Vec<PathBuf>>) {
        let socket = folder.join("sprat.sock");
        let listener = Listener::bind(&socket)
            .unwrap()
            .expect("nobody listens yet");
        let received = listener.serve_to_channel();
        (socket, listener, received)
    }

    #[test]
    fn a_second_start_hands_its_paths_to_the_editor_listening() {
        let folder = tempfile::tempdir().unwrap();
        let (socket, _listener, received) = serving(folder.path());

        let file = folder.path().join("hero tunic.dat");
        assert_eq!(
            hand_over(&socket, std::slice::from_ref(&file)),
            HandOver::Taken
        );
        let paths = received.recv_timeout(Duration::from_secs(5)).unwrap();
        assert_eq!(paths, vec![file]);

        // While it listens, another editor does not take its place.
        assert!(Listener::bind(&socket).unwrap().is_none());
    }

    #[test]
    fn relative_paths_arrive_absolute() {
        let folder = tempfile::tempdir().unwrap();
        let (socket, _listener, received) = serving(folder.path());

        assert_eq!(
            hand_over(&socket, &[PathBuf::from("kfm.air")]),
            HandOver::Taken
        );
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

        assert_eq!(
            hand_over(&socket, &[PathBuf::from("/a.sff")]),
            HandOver::NoEditor
        );
        let (socket, _listener, received) = serving(folder.path());
        assert_eq!(
            hand_over(&socket, &[PathBuf::from("/a.sff")]),
            HandOver::Taken
        );
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
        assert_eq!(
            hand_over(&socket, &[PathBuf::from("/a.air")]),
            HandOver::NoEditor
        );
    }

    #[test]
    fn with_no_editor_a_start_opens_its_own_window_and_listens() {
        let folder = tempfile::tempdir().unwrap();
        let socket = folder.path().join("sprat.sock");
        let Start::OwnWindow { listener, notice } = start(Some(&socket), Some(Path::new("/a.air")))
        else {
            panic!("nobody could take the file");
        };
        assert!(listener.is_some(), "it takes the files of later starts");
        assert_eq!(notice, None, "nothing to explain");
    }

    #[test]
    fn a_start_hands_its_file_to_the_editor_running_unless_told_to_open_its_own_window() {
        let folder = tempfile::tempdir().unwrap();
        let (socket, _listener, received) = serving(folder.path());
        assert!(matches!(
            start(Some(&socket), Some(Path::new("/a.air"))),
            Start::HandedOver
        ));
        assert_eq!(
            received.recv_timeout(Duration::from_secs(5)).unwrap(),
            vec![PathBuf::from("/a.air")]
        );
        // `--new-window` (no file to hand over): a window of its own, the socket left alone.
        let Start::OwnWindow { listener, notice } = start(Some(&socket), None) else {
            panic!("a new window was asked for");
        };
        assert!(listener.is_none() && notice.is_none());
    }

    #[test]
    fn an_editor_that_does_not_answer_is_given_up_on() {
        let folder = tempfile::tempdir().unwrap();
        let socket = folder.path().join("sprat.sock");
        // Listening, but never accepting: a hung editor.
        let _hung = UnixListener::bind(&socket).unwrap();
        let started = std::time::Instant::now();
        assert_eq!(
            hand_over(&socket, &[PathBuf::from("/a.air")]),
            HandOver::NoAnswer
        );
        assert!(started.elapsed() < ANSWER_TIMEOUT * 2);
    }

    #[test]
    fn a_start_beside_a_frozen_editor_opens_its_own_window_and_the_editor_never_opens_the_file() {
        let folder = tempfile::tempdir().unwrap();
        let socket = folder.path().join("sprat.sock");
        // The editor listens but is stopped (SIGSTOP): the system queues connections, nobody
        // reads them.
        let frozen = Listener::bind(&socket).unwrap().unwrap();
        let file = PathBuf::from("/home/me/hero.air");
        let started = std::time::Instant::now();
        let Start::OwnWindow { listener, notice } = start(Some(&socket), Some(&file)) else {
            panic!("a frozen editor cannot take the file");
        };
        assert!(
            started.elapsed() >= ANSWER_TIMEOUT,
            "it waited for the answer"
        );
        assert!(started.elapsed() < ANSWER_TIMEOUT * 2, "and asked once");
        assert!(listener.is_none(), "the socket stays the frozen editor's");
        assert_eq!(notice, Some(BUSY_NOTICE), "the new window says why");

        // The editor wakes up and reads the queued request: the start has withdrawn it.
        let received = frozen.serve_to_channel();
        assert!(
            received.recv_timeout(Duration::from_millis(700)).is_err(),
            "the withdrawn request is dropped"
        );
        // Awake, it takes the next start's file, and only that one.
        let next = PathBuf::from("/home/me/villain.air");
        assert_eq!(
            hand_over(&socket, std::slice::from_ref(&next)),
            HandOver::Taken
        );
        assert_eq!(
            received.recv_timeout(Duration::from_secs(5)).unwrap(),
            vec![next]
        );
        assert!(received.recv_timeout(Duration::from_millis(300)).is_err());
    }

    #[test]
    fn a_request_answered_but_not_confirmed_is_dropped() {
        let folder = tempfile::tempdir().unwrap();
        let (socket, _listener, received) = serving(folder.path());
        // A start that gives up just as the editor answers: it reads READY, then closes
        // without OPEN. The editor, which opens only on OPEN, drops the request.
        let mut stream = UnixStream::connect(&socket).unwrap();
        stream.write_all(b"/a.air\0\0").unwrap();
        let mut answer = [0u8; READY.len()];
        stream.read_exact(&mut answer).unwrap();
        assert_eq!(&answer, READY);
        drop(stream);
        assert!(received.recv_timeout(Duration::from_millis(500)).is_err());
        // The same request confirmed is taken.
        let mut stream = UnixStream::connect(&socket).unwrap();
        stream.write_all(b"/a.air\0\0").unwrap();
        stream.read_exact(&mut answer).unwrap();
        stream.write_all(OPEN).unwrap();
        assert_eq!(
            received.recv_timeout(Duration::from_secs(5)).unwrap(),
            vec![PathBuf::from("/a.air")]
        );
    }

    #[test]
    fn requests_keep_only_absolute_paths() {
        assert_eq!(
            paths_of(&[
                b"/a/b.air".to_vec(),
                b"relative".to_vec(),
                b"/c d/\xffe.sff".to_vec()
            ]),
            vec![
                PathBuf::from("/a/b.air"),
                PathBuf::from(std::ffi::OsStr::from_bytes(b"/c d/\xffe.sff"))
            ]
        );
    }
}
