//! Sets `SPRAT_VERSION` for `sprat --version`: the package version, followed by the commit
//! (`git rev-parse --short HEAD`) when built from a git checkout with git at hand. A build
//! from a source archive, or without git, gets the version alone.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let version = env!("CARGO_PKG_VERSION");
    let commit = if Path::new(".git").exists() {
        git(&["rev-parse", "--short", "HEAD"])
    } else {
        None
    };
    match commit {
        Some(commit) => {
            // A new commit (or checkout) changes the HEAD reflog of this worktree.
            for file in ["HEAD", "logs/HEAD"] {
                if let Some(path) = git(&["rev-parse", "--git-path", file]) {
                    println!("cargo:rerun-if-changed={path}");
                }
            }
            println!("cargo:rustc-env=SPRAT_VERSION={version} ({commit})");
        }
        None => println!("cargo:rustc-env=SPRAT_VERSION={version}"),
    }
}

/// The trimmed output of a git command, or `None` when git is missing or fails.
fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    let text = text.trim();
    (output.status.success() && !text.is_empty()).then(|| text.to_string())
}
