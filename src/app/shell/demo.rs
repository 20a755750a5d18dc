//! The bundled demo (`assets/demo/demo.sprat`), opened when the editor starts without a file.

use std::path::PathBuf;

/// Where the bundled demo lives in the source tree.
#[cfg(not(target_arch = "wasm32"))]
pub fn demo_path() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat")
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
