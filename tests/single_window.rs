//! The single window through the real program: `sprat FILE` beside an editor that answers
//! hands the file over and exits; beside one that is stopped it gives up after
//! `ANSWER_TIMEOUT`, goes to a window of its own saying why, and the stopped editor, once it
//! wakes, does not open the file too.
#![cfg(unix)]

use sprat::single_instance::{ANSWER_TIMEOUT, BUSY_NOTICE, Listener};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

/// A home of its own for the program (its log and settings go there), with a runtime folder
/// for the socket and a file to open.
struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new() -> Home {
        let dir = tempfile::tempdir().unwrap();
        let runtime = dir.path().join("runtime");
        std::fs::create_dir(&runtime).unwrap();
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
        std::fs::write(
            dir.path().join("hero.air"),
            b"[Begin Action 0]\n0,0, 0,0, 5\n",
        )
        .unwrap();
        Home { dir }
    }

    fn socket(&self) -> PathBuf {
        self.dir.path().join("runtime/sprat.sock")
    }

    fn file(&self) -> PathBuf {
        self.dir.path().join("hero.air")
    }

    /// `sprat FILE` in this home, without a display (a window of its own cannot open, and
    /// says so): its exit code, stderr and how long it took.
    fn start_sprat(&self, file: &Path) -> (Option<i32>, String, Duration) {
        let home = self.dir.path();
        let started = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_sprat"))
            .arg(file)
            .env("XDG_RUNTIME_DIR", home.join("runtime"))
            .env("HOME", home)
            .env("XDG_DATA_HOME", home.join("data"))
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("sprat {} did not end within a minute", file.display());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let took = started.elapsed();
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        (output.status.code(), stderr, took)
    }
}

/// Starts `listener` answering, as an editor that is awake; what it opens comes out of the
/// receiver.
fn wake(listener: &Listener) -> mpsc::Receiver<Vec<PathBuf>> {
    let (sender, received) = mpsc::channel();
    let sender = Mutex::new(sender);
    listener
        .serve(move |paths| sender.lock().unwrap().send(paths).unwrap())
        .unwrap();
    received
}

#[test]
fn a_start_hands_its_file_to_the_editor_running_and_exits() {
    let home = Home::new();
    let editor = Listener::bind(&home.socket()).unwrap().unwrap();
    let opened = wake(&editor);
    let (code, stderr, _) = home.start_sprat(&home.file());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("opened in the editor window already open"),
        "{stderr}"
    );
    assert_eq!(
        opened.recv_timeout(Duration::from_secs(5)).unwrap(),
        vec![home.file()]
    );
}

#[test]
fn a_start_beside_a_stopped_editor_opens_its_own_window_and_the_editor_never_takes_the_file() {
    let home = Home::new();
    // The editor listens but is stopped (SIGSTOP): the system queues the connection, nobody
    // answers it.
    let stopped = Listener::bind(&home.socket()).unwrap().unwrap();
    let (code, stderr, took) = home.start_sprat(&home.file());
    assert!(
        took >= ANSWER_TIMEOUT,
        "it waited for the answer ({took:?})"
    );
    assert!(stderr.contains(BUSY_NOTICE), "{stderr}");
    // Its own window is what it went on to open (here, without a display, it cannot).
    assert!(stderr.contains("cannot open the editor window"), "{stderr}");
    assert_eq!(code, Some(2), "{stderr}");

    // The editor resumes and reads the queued request, which the start withdrew.
    let opened = wake(&stopped);
    assert!(
        opened.recv_timeout(Duration::from_secs(1)).is_err(),
        "the file is not opened a second time"
    );
}
