//! What the browser tests share: finding Chromium, reading the requests a page sends to the
//! test's server, and a browser that is killed when the test ends.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The Chromium executable: `SPRAT_CHROMIUM`, else `chromium` or `chromium-browser` on PATH.
pub fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("SPRAT_CHROMIUM") {
        return Some(PathBuf::from(path)).filter(|p| p.is_file());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// Reads one HTTP request of at most `max_bytes`: the method, the path (with its query) and
/// the body.
pub fn read_request(stream: &TcpStream, max_bytes: usize) -> Option<(String, String, Vec<u8>)> {
    let mut reader = BufReader::new(stream.take(max_bytes as u64));
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut content_length = 0usize;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            content_length = value.trim().parse().ok()?;
        }
    }
    let mut body = vec![0; content_length.min(max_bytes)];
    reader.read_exact(&mut body).ok()?;
    Some((method, path, body))
}

/// A running browser, killed when the test ends, whichever way it ends.
pub struct Browser(pub Child);

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Answers a request with `content` (the file `name`'s, typed by its extension; a name without
/// one is the page) and closes the connection. Nothing is cached: every run reads afresh.
pub fn respond(stream: &mut TcpStream, status: &str, name: &str, content: &[u8]) {
    let content_type = match name.rsplit_once('.').map(|(_, extension)| extension) {
        None | Some("html") => "text/html",
        Some("js") => "text/javascript",
        Some("json") => "application/json",
        Some("wasm") => "application/wasm",
        Some("png") => "image/png",
        Some(_) => "application/octet-stream",
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        content.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(content);
}

/// Opens `url` in headless Chromium (drawing on the CPU through SwiftShader) with a profile
/// of its own in `profile`, and `extra` arguments.
pub fn open_headless(chromium: &Path, url: &str, profile: &Path, extra: &[&str]) -> Browser {
    Browser(
        Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--use-angle=swiftshader",
                "--enable-unsafe-swiftshader",
                "--no-first-run",
                "--disable-extensions",
                "--mute-audio",
            ])
            .args(extra)
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts"),
    )
}
