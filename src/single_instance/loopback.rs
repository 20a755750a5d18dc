//! The single window's endpoint where there are no Unix sockets (Windows): a TCP port on the
//! loopback address, which any program of any user on the machine could reach, so the editor
//! names it in a file only its user can read (in the user's local data folder, with a random
//! secret), and takes a connection only once it has sent that secret.
//!
//! The file holds one line, `PORT SECRET`. It is written whole under a temporary name and
//! linked to its own, which fails when the name exists: two editors starting together cannot
//! both listen, and a start never reads half a file. A file whose port refuses connections
//! was left by an editor that was killed: the next editor removes it.

use super::{ANSWER_TIMEOUT, Connection, Server};
use std::io::{self, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The secret's length: 32 hexadecimal digits (128 bits).
const SECRET_LEN: usize = 32;

/// The file naming the user's editor: `Sprat\single-window` in the user's local data folder
/// (`%LOCALAPPDATA%`, which Windows keeps to the user and never roams to another machine).
/// `None` without that folder (the editor then always opens a window of its own).
pub fn endpoint_path() -> Option<PathBuf> {
    let local = std::env::var_os("LOCALAPPDATA").filter(|d| !d.is_empty())?;
    let folder = PathBuf::from(local).join("Sprat");
    if let Err(e) = std::fs::create_dir_all(&folder) {
        log::warn!("cannot create {}: {e}", folder.display());
        return None;
    }
    Some(folder.join("single-window"))
}

impl Connection for TcpStream {
    fn set_read_timeout(&self, timeout: Option<Duration>) -> io::Result<()> {
        TcpStream::set_read_timeout(self, timeout)
    }

    fn set_write_timeout(&self, timeout: Option<Duration>) -> io::Result<()> {
        TcpStream::set_write_timeout(self, timeout)
    }
}

/// The port and secret `endpoint` names: `NotFound` without the file, `ConnectionRefused`
/// for a file that is not one (nobody can listen there).
fn read_endpoint(endpoint: &Path) -> io::Result<(u16, String)> {
    let text = std::fs::read_to_string(endpoint)?;
    let refused = || io::Error::new(io::ErrorKind::ConnectionRefused, "not an editor's port");
    let (port, secret) = text.trim_end().split_once(' ').ok_or_else(refused)?;
    let port = port.parse().map_err(|_| refused())?;
    if secret.len() != SECRET_LEN {
        return Err(refused());
    }
    Ok((port, secret.to_string()))
}

/// Connects to the editor that `endpoint` names and sends it the secret. `NotFound`: no
/// editor; `ConnectionRefused`: one that has gone.
pub fn connect(endpoint: &Path) -> io::Result<Box<dyn Connection>> {
    let (port, secret) = read_endpoint(endpoint)?;
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let mut stream = match TcpStream::connect_timeout(&address, ANSWER_TIMEOUT) {
        Ok(stream) => stream,
        // Windows retries a refused loopback connection for a while before saying so.
        Err(e) if e.kind() == io::ErrorKind::TimedOut => {
            return Err(io::Error::new(io::ErrorKind::ConnectionRefused, e));
        }
        Err(e) => return Err(e),
    };
    stream.set_write_timeout(Some(ANSWER_TIMEOUT))?;
    stream.write_all(secret.as_bytes())?;
    Ok(Box::new(stream))
}

/// The editor's port, and the file naming it (removed when the editor goes, if it is still
/// this editor's).
#[derive(Debug)]
pub struct PortServer {
    listener: TcpListener,
    endpoint: PathBuf,
    secret: String,
}

/// Listens on a loopback port named at `endpoint`, unless an editor already does
/// (`Ok(None)`). A file naming a port nobody listens on is removed first.
pub fn bind(endpoint: &Path) -> io::Result<Option<Arc<dyn Server>>> {
    match connect(endpoint) {
        Ok(_) => return Ok(None),
        Err(e) if e.kind() == io::ErrorKind::ConnectionRefused => {
            log::info!(
                "removing {}, left by an editor that has gone",
                endpoint.display()
            );
            match std::fs::remove_file(endpoint) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
    let port = listener.local_addr()?.port();
    let secret = random_secret();
    // Written whole under a name of this process's, then linked to the endpoint's name.
    let draft = endpoint.with_extension(format!("{}.new", std::process::id()));
    let mut file = std::fs::File::create(&draft)?;
    file.write_all(format!("{port} {secret}\n").as_bytes())?;
    file.sync_all()?;
    drop(file);
    let linked = std::fs::hard_link(&draft, endpoint);
    let _ = std::fs::remove_file(&draft);
    match linked {
        Ok(()) => {}
        // Another editor started between the look and the link: it is the one.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Ok(None),
        Err(e) => return Err(e),
    }
    Ok(Some(Arc::new(PortServer {
        listener,
        endpoint: endpoint.to_path_buf(),
        secret,
    })))
}

/// 128 random bits in hexadecimal, from the keys the standard library draws from the system
/// for its hash maps (fresh for each `RandomState`).
fn random_secret() -> String {
    use std::hash::BuildHasher;
    let time = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let half = |salt: u8| {
        std::collections::hash_map::RandomState::new().hash_one((salt, std::process::id(), time))
    };
    format!("{:016x}{:016x}", half(1), half(2))
}

impl Server for PortServer {
    fn accept(&self) -> io::Result<Box<dyn Connection>> {
        Ok(Box::new(self.listener.accept()?.0))
    }

    /// Only a connection that sends the secret first is the user's.
    fn admit(&self, connection: &mut dyn Connection) -> io::Result<()> {
        connection.set_read_timeout(Some(ANSWER_TIMEOUT))?;
        let mut secret = [0u8; SECRET_LEN];
        connection.read_exact(&mut secret)?;
        if secret != self.secret.as_bytes() {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                "the connection did not send this editor's secret",
            ));
        }
        Ok(())
    }

    fn release(&self) {
        let ours = read_endpoint(&self.endpoint).is_ok_and(|(_, secret)| secret == self.secret);
        if ours {
            let _ = std::fs::remove_file(&self.endpoint);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{HandOver, Listener, hand_over_through};
    use super::*;
    use std::io::Read;
    use std::sync::mpsc;

    /// An editor listening on a port named in `folder`, handing what it opens to the receiver.
    fn serving(folder: &Path) -> (PathBuf, Listener, mpsc::Receiver<Vec<PathBuf>>) {
        let endpoint = folder.join("single-window");
        let listener = Listener::over(bind(&endpoint).unwrap().expect("nobody listens yet"));
        let received = listener.serve_to_channel();
        (endpoint, listener, received)
    }

    /// Hands `file` over through the port file at `endpoint`, and checks the editor took it.
    fn taken(endpoint: &Path, received: &mpsc::Receiver<Vec<PathBuf>>, file: PathBuf) {
        assert_eq!(
            hand_over_through(connect, endpoint, std::slice::from_ref(&file)),
            HandOver::Taken
        );
        assert_eq!(
            received.recv_timeout(Duration::from_secs(5)).unwrap(),
            vec![file]
        );
    }

    #[test]
    fn a_second_start_hands_its_paths_to_the_editor_on_the_loopback_port() {
        let folder = tempfile::tempdir().unwrap();
        let (endpoint, listener, received) = serving(folder.path());
        taken(
            &endpoint,
            &received,
            std::path::absolute("chars/kfm/kfm.def").unwrap(),
        );
        // While it listens, another editor does not take its place.
        assert!(bind(&endpoint).unwrap().is_none());
        // Going, it takes its file with it.
        drop(listener);
        assert!(!endpoint.exists());
        assert_eq!(
            hand_over_through(connect, &endpoint, &[PathBuf::from("/a.air")]),
            HandOver::NoEditor
        );
    }

    #[test]
    fn a_connection_without_the_secret_is_dropped_unread() {
        let folder = tempfile::tempdir().unwrap();
        let (endpoint, _listener, received) = serving(folder.path());
        let (port, secret) = read_endpoint(&endpoint).unwrap();
        // Another user's program can reach the port, but cannot read the file.
        let mut stranger = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
        let guess = "0".repeat(SECRET_LEN);
        assert_ne!(guess, secret);
        stranger.write_all(guess.as_bytes()).unwrap();
        stranger.write_all(b"/etc/passwd\0\0open\n").unwrap();
        stranger
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut answer = Vec::new();
        // Dropped: no READY comes, the connection ends.
        let _ = stranger.read_to_end(&mut answer);
        assert!(answer.is_empty(), "no answer to a stranger: {answer:?}");
        assert!(received.recv_timeout(Duration::from_millis(300)).is_err());
    }

    #[test]
    fn a_file_left_by_a_killed_editor_never_blocks_a_start() {
        let folder = tempfile::tempdir().unwrap();
        let endpoint = folder.path().join("single-window");
        // A port that was listened on and is no longer: the editor that wrote the file died.
        let gone = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let port = gone.local_addr().unwrap().port();
        drop(gone);
        std::fs::write(&endpoint, format!("{port} {}\n", "a".repeat(SECRET_LEN))).unwrap();
        assert_eq!(
            hand_over_through(connect, &endpoint, &[PathBuf::from("/a.sff")]),
            HandOver::NoEditor
        );
        let (endpoint, _listener, received) = serving(folder.path());
        taken(&endpoint, &received, PathBuf::from("/a.sff"));
    }

    #[test]
    fn a_damaged_file_is_taken_for_a_gone_editor() {
        let folder = tempfile::tempdir().unwrap();
        let endpoint = folder.path().join("single-window");
        std::fs::write(&endpoint, "half").unwrap();
        assert_eq!(
            read_endpoint(&endpoint).unwrap_err().kind(),
            io::ErrorKind::ConnectionRefused
        );
        assert!(bind(&endpoint).unwrap().is_some());
    }

    #[test]
    fn a_frozen_editor_is_given_up_on_and_never_opens_the_file() {
        let folder = tempfile::tempdir().unwrap();
        let endpoint = folder.path().join("single-window");
        // Bound but not serving yet: the system queues connections, nobody reads them.
        let frozen = Listener::over(bind(&endpoint).unwrap().unwrap());
        let started = std::time::Instant::now();
        assert_eq!(
            hand_over_through(connect, &endpoint, &[PathBuf::from("/home/me/hero.air")]),
            HandOver::NoAnswer
        );
        assert!(started.elapsed() >= ANSWER_TIMEOUT);
        assert!(started.elapsed() < ANSWER_TIMEOUT * 2);
        // Awake, it finds the request withdrawn and takes only the next one.
        let received = frozen.serve_to_channel();
        assert!(received.recv_timeout(Duration::from_millis(700)).is_err());
        taken(&endpoint, &received, PathBuf::from("/home/me/villain.air"));
    }

    #[test]
    fn secrets_differ_between_editors() {
        let (a, b) = (random_secret(), random_secret());
        assert_eq!(a.len(), SECRET_LEN);
        assert_ne!(a, b);
    }
}
