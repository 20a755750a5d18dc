//! The bundled demo (`assets/demo/demo.sprat`), opened when the editor starts without a file.

use std::path::PathBuf;

/// Where the bundled demo lives: where the package installs it beside the program
/// (`/usr/share/sprat/demo/` for `/usr/bin/sprat`), else in the source tree it was built from.
#[cfg(not(target_arch = "wasm32"))]
pub fn demo_path() -> PathBuf {
    let installed = std::env::current_exe().ok().and_then(|program| {
        let prefix = program.parent()?.parent()?;
        Some(prefix.join("share/sprat/demo/demo.sprat"))
    });
    installed.filter(|path| path.is_file()).unwrap_or_else(|| {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat")
    })
}

/// On the web the demo is inside the program: its files are given to the readers (once) as
/// provided files, under `/demo`.
#[cfg(target_arch = "wasm32")]
pub fn demo_path() -> PathBuf {
    static PROVIDED: std::sync::Once = std::sync::Once::new();
    PROVIDED.call_once(|| {
        let files = [
            (
                "demo.sprat",
                &include_bytes!("../../../assets/demo/demo.sprat")[..],
            ),
            (
                "demo.png",
                &include_bytes!("../../../assets/demo/demo.png")[..],
            ),
        ];
        crate::formats::input::provide_files(
            files
                .iter()
                .map(|(name, bytes)| (PathBuf::from("/demo").join(name), bytes.to_vec()))
                .collect(),
        );
    });
    PathBuf::from("/demo/demo.sprat")
}
