//! Being told to stop: SIGTERM (a `kill`, a system shutdown) and SIGHUP (a logout, the
//! terminal closed) ask the editor to write its unsaved documents to the recovery folder and
//! close, where by default they would end it at once and lose up to
//! [`AUTOSAVE_INTERVAL`](crate::session::AUTOSAVE_INTERVAL) of work.
//!
//! A signal handler may only do what is async-signal-safe: no allocation, no lock, no call
//! into the window system. So the handler does two things only: it writes one byte to a pipe
//! of its own (the self-pipe; its write end does not block, and a full pipe already holds a
//! wake-up) and restores `errno`. A thread waits on the pipe's other end and, on a byte, raises
//! every [`StopRequest`] given to [`forward_to`] and calls its `wake` (the editor asks for a
//! repaint there, as the disk waker does), so the editor's next frame writes the recovery
//! files and closes the window on its own thread.
//!
//! [`StopRequest`] itself is a plain flag, on every platform: the editor looks at it each
//! frame, and tests raise it as the signal would.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The flag that asks the editor to write its unsaved work aside and close.
#[derive(Clone, Debug, Default)]
pub struct StopRequest(Arc<AtomicBool>);

impl StopRequest {
    /// A flag not raised yet.
    pub fn new() -> StopRequest {
        StopRequest::default()
    }

    /// Asks to stop (what a SIGTERM or SIGHUP does, through [`forward_to`]).
    pub fn request(&self) {
        self.0.store(true, Ordering::Release);
    }

    /// Whether stopping was asked for.
    pub fn is_requested(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
}

#[cfg(unix)]
pub use handler::forward_to;

#[cfg(unix)]
mod handler {
    use super::StopRequest;
    use std::io::{self, Read};
    use std::os::fd::{AsRawFd, IntoRawFd};
    use std::sync::atomic::{AtomicI32, Ordering};
    use std::sync::{Mutex, OnceLock};

    /// The signals that stop the editor with its work written aside.
    const STOP_SIGNALS: [(libc::c_int, &str); 2] =
        [(libc::SIGTERM, "SIGTERM"), (libc::SIGHUP, "SIGHUP")];

    /// The self-pipe's write end, for the handler (-1 until installed).
    static PIPE: AtomicI32 = AtomicI32::new(-1);
    /// The last signal received, for the log line the waiting thread writes.
    static LAST_SIGNAL: AtomicI32 = AtomicI32::new(0);

    /// Whom the waiting thread tells: each request with its wake-up.
    type Listeners = Mutex<Vec<(StopRequest, Box<dyn Fn() + Send>)>>;
    static LISTENERS: OnceLock<Listeners> = OnceLock::new();
    /// The outcome of installing the handlers, which happens once per process.
    static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();

    /// From now on SIGTERM and SIGHUP raise `request` and call `wake` (on a thread of their
    /// own) instead of ending the process. The handlers are installed on the first call;
    /// later calls add their request to the ones raised.
    pub fn forward_to(request: StopRequest, wake: impl Fn() + Send + 'static) -> io::Result<()> {
        LISTENERS
            .get_or_init(|| Mutex::new(Vec::new()))
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((request, Box::new(wake)));
        INSTALLED
            .get_or_init(|| install().map_err(|e| e.to_string()))
            .clone()
            .map_err(io::Error::other)
    }

    /// Makes the self-pipe, starts the thread that waits on it and installs the handlers.
    fn install() -> io::Result<()> {
        let (mut reader, writer) = io::pipe()?;
        // SAFETY: `fcntl` on a descriptor this function owns, with flags it read just before.
        unsafe {
            let fd = writer.as_raw_fd();
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
                return Err(io::Error::last_os_error());
            }
        }
        // The write end lives as long as the process: the handler may run at any time.
        PIPE.store(writer.into_raw_fd(), Ordering::Release);
        std::thread::Builder::new()
            .name("sprat stop signals".into())
            .spawn(move || {
                let mut bytes = [0u8; 16];
                loop {
                    match reader.read(&mut bytes) {
                        Ok(0) => return,
                        Ok(_) => tell_listeners(),
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => {
                            log::warn!("stopped waiting for stop signals: {e}");
                            return;
                        }
                    }
                }
            })?;
        for (signal, name) in STOP_SIGNALS {
            // SAFETY: a zeroed `sigaction` is a valid empty one; the handler only does
            // async-signal-safe work (see `on_stop_signal`).
            let installed = unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_stop_signal as *const () as libc::sighandler_t;
                libc::sigemptyset(&mut action.sa_mask);
                action.sa_flags = libc::SA_RESTART;
                libc::sigaction(signal, &action, std::ptr::null_mut())
            };
            if installed != 0 {
                let error = io::Error::last_os_error();
                return Err(io::Error::other(format!("cannot handle {name}: {error}")));
            }
        }
        Ok(())
    }

    /// Raises every request and wakes its owner.
    fn tell_listeners() {
        let signal = LAST_SIGNAL.load(Ordering::Acquire);
        let name = STOP_SIGNALS
            .iter()
            .find(|(s, _)| *s == signal)
            .map_or("a stop signal", |(_, name)| name);
        log::info!("{name} received: writing unsaved work to the recovery folder and closing");
        let listeners = LISTENERS
            .get_or_init(|| Mutex::new(Vec::new()))
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        for (request, wake) in listeners.iter() {
            request.request();
            wake();
        }
    }

    /// The handler: an atomic store and a `write` to the self-pipe, both async-signal-safe.
    extern "C" fn on_stop_signal(signal: libc::c_int) {
        let saved_errno = errno();
        LAST_SIGNAL.store(signal, Ordering::Release);
        let fd = PIPE.load(Ordering::Acquire);
        if fd >= 0 {
            let byte = 1u8;
            // SAFETY: one byte from a local to a descriptor that stays open. A full pipe
            // (`EAGAIN`) already holds a wake-up, so the result does not matter.
            unsafe {
                libc::write(fd, (&byte as *const u8).cast(), 1);
            }
        }
        set_errno(saved_errno);
    }

    // The interrupted code may look at `errno` right after the signal: the handler leaves it
    // as it found it.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn errno_location() -> Option<*mut libc::c_int> {
        // SAFETY: returns the calling thread's errno, always valid.
        Some(unsafe { libc::__errno_location() })
    }

    #[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
    fn errno_location() -> Option<*mut libc::c_int> {
        // SAFETY: returns the calling thread's errno, always valid.
        Some(unsafe { libc::__error() })
    }

    // Elsewhere `errno` is not reachable through `libc` under one name: a failed write (a full
    // pipe) may leave it changed.
    #[cfg(not(any(
        target_os = "linux",
        target_os = "android",
        target_os = "macos",
        target_os = "ios",
        target_os = "freebsd"
    )))]
    fn errno_location() -> Option<*mut libc::c_int> {
        None
    }

    fn errno() -> libc::c_int {
        // SAFETY: the calling thread's errno.
        errno_location().map_or(0, |errno| unsafe { *errno })
    }

    fn set_errno(value: libc::c_int) {
        if let Some(errno) = errno_location() {
            // SAFETY: the calling thread's errno.
            unsafe { *errno = value }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use std::sync::mpsc;
        use std::time::Duration;

        #[test]
        fn sigterm_and_sighup_raise_the_request_and_wake_instead_of_ending_the_process() {
            for signal in [libc::SIGTERM, libc::SIGHUP] {
                let request = StopRequest::new();
                let (woken, wakes) = mpsc::channel();
                forward_to(request.clone(), move || {
                    let _ = woken.send(());
                })
                .unwrap();
                assert!(!request.is_requested());
                // SAFETY: raising a signal this process handles.
                assert_eq!(unsafe { libc::raise(signal) }, 0);
                wakes
                    .recv_timeout(Duration::from_secs(5))
                    .expect("the waiting thread wakes the editor");
                assert!(request.is_requested(), "signal {signal}");
            }
        }
    }
}
