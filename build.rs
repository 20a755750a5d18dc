//! Sets `SPRAT_VERSION` for `sprat --version`: the package version, followed by the commit
//! (`git rev-parse --short HEAD`) when built from a git checkout with git at hand. A build
//! from a source archive, or without git, gets the version alone.
//!
//! Built for Windows with the GNU toolchain (`scripts/windows`), it also gives `sprat.exe`
//! its resource: the icon Explorer shows, and the version and description of its Properties
//! (compiled by mingw's `windres`, see [`windows_resource`]).

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let version = env!("CARGO_PKG_VERSION");
    let commit = if Path::new(".git").exists() {
        git(&["rev-parse", "--short", "HEAD"])
    } else {
        None
    };
    let full_version = match commit {
        Some(commit) => {
            // A new commit (or checkout) changes the HEAD reflog of this worktree.
            for file in ["HEAD", "logs/HEAD"] {
                if let Some(path) = git(&["rev-parse", "--git-path", file]) {
                    println!("cargo:rerun-if-changed={path}");
                }
            }
            format!("{version} ({commit})")
        }
        None => version.to_string(),
    };
    println!("cargo:rustc-env=SPRAT_VERSION={full_version}");
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let target_env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if target_os == "windows" && target_env == "gnu" {
        windows_resource(&full_version);
    }
}

/// The trimmed output of a git command, or `None` when git is missing or fails.
fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    let text = text.trim();
    (output.status.success() && !text.is_empty()).then(|| text.to_string())
}

/// The icons of `assets/icon/`, the smallest first, that `sprat.ico` holds.
const ICON_SIZES: [u32; 6] = [16, 32, 48, 64, 128, 256];

/// Compiles the Windows resource (icon, version, description) with `windres` (`$WINDRES`, or
/// mingw's `x86_64-w64-mingw32-windres`) and links it into `sprat.exe`. Without windres the
/// program builds all the same, without its icon, and the build says so.
fn windows_resource(full_version: &str) {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let icon = out.join("sprat.ico");
    let pngs: Vec<Vec<u8>> = ICON_SIZES
        .iter()
        .map(|size| {
            let path = format!("assets/icon/sprat-{size}.png");
            println!("cargo:rerun-if-changed={path}");
            std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
        })
        .collect();
    std::fs::write(&icon, ico_of_pngs(&pngs)).expect("OUT_DIR is writable");

    let numbers: Vec<u16> = env!("CARGO_PKG_VERSION")
        .split(['.', '-', '+'])
        .take(3)
        .map(|part| part.parse().unwrap_or(0))
        .collect();
    let (major, minor, patch) = (numbers[0], numbers[1], numbers[2]);
    let quoted = |text: &str| text.replace('"', "\"\"");
    let script = format!(
        r#"#include <winver.h>
1 ICON "{icon}"
1 VERSIONINFO
FILEVERSION {major},{minor},{patch},0
PRODUCTVERSION {major},{minor},{patch},0
FILEOS VOS_NT_WINDOWS32
FILETYPE VFT_APP
BEGIN
  BLOCK "StringFileInfo"
  BEGIN
    BLOCK "040904B0"
    BEGIN
      VALUE "CompanyName", "Sprat developers"
      VALUE "FileDescription", "Sprat, editor of 2D sprite animations"
      VALUE "FileVersion", "{version}"
      VALUE "InternalName", "sprat"
      VALUE "LegalCopyright", "Sprat developers, MIT OR Apache-2.0"
      VALUE "OriginalFilename", "sprat.exe"
      VALUE "ProductName", "Sprat"
      VALUE "ProductVersion", "{version}"
    END
  END
  BLOCK "VarFileInfo"
  BEGIN
    VALUE "Translation", 0x409, 1200
  END
END
"#,
        icon = icon.display().to_string().replace('\\', "/"),
        version = quoted(full_version),
    );
    let rc = out.join("sprat.rc");
    std::fs::write(&rc, script).expect("OUT_DIR is writable");
    let object = out.join("sprat-resource.o");
    println!("cargo:rerun-if-env-changed=WINDRES");
    let windres =
        std::env::var("WINDRES").unwrap_or_else(|_| "x86_64-w64-mingw32-windres".to_string());
    let compiled = Command::new(&windres)
        .arg("--input")
        .arg(&rc)
        .arg("--output-format=coff")
        .arg("--output")
        .arg(&object)
        .status();
    match compiled {
        // An object named on the linker's command line is always linked whole, resource
        // section included.
        Ok(status) if status.success() => {
            println!("cargo:rustc-link-arg-bin=sprat={}", object.display())
        }
        Ok(status) => panic!("{windres} failed on {} ({status})", rc.display()),
        Err(e) => println!(
            "cargo:warning=sprat.exe gets no icon or version resource: cannot run {windres}: {e}"
        ),
    }
}

/// An `.ico` holding `pngs` as they are (PNG entries, which Windows reads since Vista), each
/// square of the size its header says.
fn ico_of_pngs(pngs: &[Vec<u8>]) -> Vec<u8> {
    let count = pngs.len() as u16;
    let mut ico = Vec::new();
    ico.extend_from_slice(&0u16.to_le_bytes()); // reserved
    ico.extend_from_slice(&1u16.to_le_bytes()); // type: icon
    ico.extend_from_slice(&count.to_le_bytes());
    let mut offset = 6 + 16 * pngs.len() as u32;
    for png in pngs {
        // The PNG header's width and height, big-endian at bytes 16 and 20.
        let width = u32::from_be_bytes(png[16..20].try_into().expect("a PNG header"));
        let height = u32::from_be_bytes(png[20..24].try_into().expect("a PNG header"));
        // A side of 256 is written 0 in the directory.
        ico.push((width % 256) as u8);
        ico.push((height % 256) as u8);
        ico.push(0); // no palette
        ico.push(0); // reserved
        ico.extend_from_slice(&1u16.to_le_bytes()); // planes
        ico.extend_from_slice(&32u16.to_le_bytes()); // bits per pixel
        ico.extend_from_slice(&(png.len() as u32).to_le_bytes());
        ico.extend_from_slice(&offset.to_le_bytes());
        offset += png.len() as u32;
    }
    for png in pngs {
        ico.extend_from_slice(png);
    }
    ico
}
