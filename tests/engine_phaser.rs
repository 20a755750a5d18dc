//! Our atlases loaded by a real engine: Phaser 3 in headless Chromium. `sprat convert … --to
//! aseprite-json` writes the demo, KFM, two Solarus sprites (the hero's tunic and Ganon from
//! Zelda: Mystery of Solarus DX) and an Aseprite file with tags into a temporary folder; a
//! small page loads each atlas with `this.load.aseprite` + `this.anims.createFromAseprite`
//! and with `this.load.atlas` (animations built from the tags, as a game does), and posts
//! back every animation's key, frame names in order and the delay Phaser plays each frame for
//! (the frame's duration, else the animation's `msPerFrame`, as `AnimationState` does). Those must match the file:
//! one animation per sequence direction, no animation without frames, frames in order,
//! durations in milliseconds as written.
//!
//! Skipped (and passing) when Chromium or the Phaser bundle is missing; `scripts/engine-check`
//! installs both and runs it.

mod common;

use common::browser::{chromium, open_headless, read_request, respond};

use sprat::formats::atlas_json::schema;
use sprat::formats::{ReadContext, registry};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long the browser gets to load the page and report before the test gives up.
const BROWSER_TIME_LIMIT: Duration = Duration::from_secs(60);
/// The largest request the test server reads (the report is a few kilobytes).
const MAX_REQUEST_BYTES: usize = 16 * 1024 * 1024;

/// Phaser's browser bundle: `SPRAT_PHASER_JS`, else where `scripts/engine-check` installs it.
fn phaser_bundle() -> Option<PathBuf> {
    let path = match std::env::var_os("SPRAT_PHASER_JS") {
        Some(path) => PathBuf::from(path),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("target/phaser/node_modules/phaser/dist/phaser.min.js"),
    };
    Some(path).filter(|p| p.is_file())
}

/// One animation as Phaser made it.
#[derive(Debug, PartialEq)]
struct EngineAnimation {
    key: String,
    frames: Vec<String>,
    delays_ms: Vec<u64>,
}

/// The page: loads every atlas both ways, then posts the animations to `/report`.
fn page(atlas_stems: &[&str]) -> String {
    let stems = serde_json::to_string(atlas_stems).unwrap();
    format!(
        r#"<!doctype html><html><head><meta charset="utf-8"><script src="phaser.min.js"></script></head>
<body><script>
const stems = {stems};
function report(value) {{
  fetch('/report', {{ method: 'POST', body: JSON.stringify(value) }});
}}
window.onerror = (message) => report({{ error: String(message) }});
// The delay Phaser's AnimationState plays a frame for at the animation's own frame rate.
function describe(anim) {{
  return {{
    key: anim.key,
    frames: anim.frames.map(f => String(f.textureFrame)),
    delays: anim.frames.map(f => f.duration || anim.msPerFrame),
  }};
}}
class Check extends Phaser.Scene {{
  preload() {{
    for (const stem of stems) {{
      this.load.aseprite('ase-' + stem, stem + '.png', stem + '.json');
      this.load.atlas('atlas-' + stem, stem + '.png', stem + '.json');
    }}
  }}
  create() {{
    const out = {{ aseprite: {{}}, atlas: {{}} }};
    for (const stem of stems) {{
      // Animations are global in Phaser: each atlas's are removed once described, so that
      // tags named alike in two atlases ("stopped", "walking") do not meet.
      const made = this.anims.createFromAseprite('ase-' + stem);
      out.aseprite[stem] = made.map(describe);
      made.forEach(anim => this.anims.remove(anim.key));
      // What a game does with load.atlas: one animation per tag, its frames in file order.
      const key = 'atlas-' + stem;
      const texture = this.textures.get(key);
      const names = texture.getFrameNames();
      const tags = (texture.customData.meta && texture.customData.meta.frameTags) || [];
      out.atlas[stem] = tags.map(tag => {{
        let frames = names.slice(tag.from, tag.to + 1)
          .map(name => ({{ key, frame: name, duration: texture.get(name).customData.duration }}));
        if (tag.direction === 'reverse') frames = frames.reverse();
        return describe(this.anims.create({{ key: key + '/' + tag.name, frames }}));
      }});
    }}
    report(out);
  }}
}}
new Phaser.Game({{ type: Phaser.CANVAS, width: 64, height: 64, banner: false, audio: {{ noAudio: true }}, scene: Check }});
</script></body></html>"#
    )
}

/// Answers one request: files of `dir` (plain names only) and the Phaser bundle; a POST to
/// `/report` goes to `reports`.
fn answer(mut stream: TcpStream, dir: &Path, phaser: &Path, reports: &mpsc::Sender<Vec<u8>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let Some((method, path, body)) = read_request(&stream, MAX_REQUEST_BYTES) else {
        return;
    };
    let name = path.trim_start_matches('/').split('?').next().unwrap_or("");
    let file = match name {
        "phaser.min.js" => Some(phaser.to_path_buf()),
        _ if !name.is_empty() && !name.contains(['/', '\\']) && !name.starts_with('.') => {
            Some(dir.join(name))
        }
        _ => None,
    };
    let (status, content) = if method == "POST" && name == "report" {
        let _ = reports.send(body);
        ("200 OK", Vec::new())
    } else {
        match file.and_then(|f| std::fs::read(f).ok()) {
            Some(bytes) => ("200 OK", bytes),
            None => ("404 Not Found", Vec::new()),
        }
    };
    respond(&mut stream, status, name, &content);
}

/// Serves `dir` on 127.0.0.1 until a report arrives or the time limit passes; returns the
/// address and the channel the report comes on.
fn serve(dir: PathBuf, phaser: PathBuf) -> (String, mpsc::Receiver<Vec<u8>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let started = Instant::now();
        let (inner_sender, inner_receiver) = mpsc::channel();
        while started.elapsed() < BROWSER_TIME_LIMIT {
            match listener.accept() {
                Ok((stream, _)) => {
                    let _ = stream.set_nonblocking(false);
                    answer(stream, &dir, &phaser, &inner_sender);
                    if let Ok(report) = inner_receiver.try_recv() {
                        let _ = sender.send(report);
                        return;
                    }
                }
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    });
    (address, receiver)
}

/// Runs headless Chromium on `url` and waits for the page's report.
fn run_page(
    chromium: &Path,
    url: &str,
    profile: &Path,
    reports: &mpsc::Receiver<Vec<u8>>,
) -> Vec<u8> {
    let _browser = open_headless(chromium, url, profile, &[]);
    reports
        .recv_timeout(BROWSER_TIME_LIMIT)
        .expect("the page reported within the time limit")
}

/// The animations of one engine path for one atlas, from the report.
fn animations(report: &serde_json::Value, path: &str, stem: &str) -> Vec<EngineAnimation> {
    let list = report[path][stem]
        .as_array()
        .unwrap_or_else(|| panic!("no {path} animations for {stem} in {report}"));
    list.iter()
        .map(|a| EngineAnimation {
            key: a["key"].as_str().unwrap().to_string(),
            frames: a["frames"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_str().unwrap().to_string())
                .collect(),
            delays_ms: a["delays"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.as_f64().unwrap() as u64)
                .collect(),
        })
        .collect()
}

/// What Phaser should make of the atlas JSON: per tag, its frame names in play order and
/// their durations as written.
fn expected(json: &[u8], key_prefix: &str) -> Vec<EngineAnimation> {
    let sheet = schema::parse(json).expect("the atlas parses");
    sheet
        .meta
        .frame_tags
        .iter()
        .map(|tag| {
            let mut frames: Vec<_> = sheet.frames.list[tag.from..=tag.to].iter().collect();
            if tag.direction == "reverse" {
                frames.reverse();
            }
            EngineAnimation {
                key: format!("{key_prefix}{}", tag.name),
                frames: frames.iter().map(|f| f.filename.clone()).collect(),
                delays_ms: frames.iter().map(|f| u64::from(f.duration)).collect(),
            }
        })
        .collect()
}

/// The frame count of every sequence direction of the document at `path`, in order.
fn direction_frame_counts(path: &Path) -> Vec<usize> {
    let (opened, _) = registry()
        .open(path, &ReadContext::for_path(path))
        .expect("opens");
    opened
        .document
        .sequences()
        .iter()
        .flat_map(|s| s.directions.iter().map(|d| d.frames.len()))
        .collect()
}

#[test]
fn phaser_plays_every_animation_of_our_atlases_as_written() {
    let (Some(chromium), Some(phaser)) = (chromium(), phaser_bundle()) else {
        println!(
            "skipped: needs chromium on PATH and Phaser in target/phaser (run scripts/engine-check)"
        );
        return;
    };
    let sources = [
        (
            "demo",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat"),
        ),
        ("kfm", common::corpus().join("mugen/kfm/kfm.def")),
        (
            "tunic1",
            common::corpus().join("solarus/lua-1.x/zsdx/sprites/hero/tunic1.dat"),
        ),
        (
            "ganon",
            common::corpus().join("solarus/lua-1.x/zsdx/sprites/enemies/ganon.dat"),
        ),
        (
            "layers_and_tags",
            common::corpus().join("aseprite/layers_and_tags.aseprite"),
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    std::fs::create_dir(&site).unwrap();
    for (stem, source) in &sources {
        let status = Command::new(env!("CARGO_BIN_EXE_sprat"))
            .arg("convert")
            .arg(source)
            .arg(site.join(format!("{stem}.json")))
            .args(["--to", "aseprite-json", "--allow-loss"])
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "converting {}", source.display());
    }
    let stems: Vec<&str> = sources.iter().map(|(stem, _)| *stem).collect();
    std::fs::write(site.join("index.html"), page(&stems)).unwrap();

    let (address, reports) = serve(site.clone(), phaser);
    let report = run_page(
        &chromium,
        &format!("http://{address}/index.html"),
        &dir.path().join("profile"),
        &reports,
    );
    let report: serde_json::Value = serde_json::from_slice(&report).expect("the report is JSON");
    assert!(report.get("error").is_none(), "the page failed: {report}");

    for (stem, source) in &sources {
        let json = std::fs::read(site.join(format!("{stem}.json"))).unwrap();
        let counts = direction_frame_counts(source);
        for (path, prefix) in [
            ("aseprite", String::new()),
            ("atlas", format!("atlas-{stem}/")),
        ] {
            let made = animations(&report, path, stem);
            let made_counts: Vec<usize> = made.iter().map(|a| a.frames.len()).collect();
            assert_eq!(
                made_counts, counts,
                "{stem} through load.{path}: frames per direction"
            );
            assert!(made.iter().all(|a| !a.frames.is_empty()), "{stem}: {path}");
            assert_eq!(made, expected(&json, &prefix), "{stem} through load.{path}");
            println!(
                "{stem} through load.{path}: {} animations, {} frames, as written",
                made.len(),
                made_counts.iter().sum::<usize>()
            );
        }
    }
}
