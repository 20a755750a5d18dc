//! Detection by content on arbitrary bytes: no panic, and bytes no format recognises are
//! refused (never read as an empty document of some text format), whatever the extension
//! says; empty files are read only by a format their extension names.

use proptest::prelude::*;
use sprat::formats::{ReadContext, Sniff, registry};
use std::path::Path;

const EXTENSIONS: [&str; 10] = [
    "bin",
    "sprat",
    "dat",
    "zsd",
    "air",
    "def",
    "sff",
    "isprite",
    "properties",
    "png",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_are_detected_without_panicking(
        bytes in prop::collection::vec(any::<u8>(), 0..4096),
        ext in 0..EXTENSIONS.len(),
    ) {
        let name = format!("file.{}", EXTENSIONS[ext]);
        let path = Path::new(&name);
        let chosen = registry().detect(&bytes, Some(path));
        let recognised = registry()
            .formats()
            .any(|f| f.capabilities().read && f.sniff(&bytes) != Sniff::No);
        match chosen {
            // Unknown extension: only the content can choose.
            None => {
                prop_assert!(registry().by_extension(path).is_empty());
                prop_assert!(!recognised || bytes.trim_ascii().is_empty());
            }
            Some(format) => {
                let named = registry().by_extension(path).iter().any(|f| f.id() == format.id());
                prop_assert!(named || format.sniff(&bytes) != Sniff::No);
                // Reading never panics; a refusal says why.
                if let Err(failure) = format.read(&bytes, &ReadContext::default()) {
                    prop_assert!(!failure.diagnostics.is_empty());
                }
            }
        }
    }

    #[test]
    fn binary_noise_without_a_known_extension_is_refused(
        bytes in prop::collection::vec(128u8..=255, 1..4096),
    ) {
        // High bytes only: no text construct and no magic number of any format but
        // Aseprite's, 0xA5E0 after the file size, which such noise carries once in 65,536
        // (then it is an Aseprite file with a broken header, and its reader says so).
        prop_assume!(bytes.get(4..6) != Some(&[0xE0, 0xA5][..]));
        prop_assert!(registry().detect(&bytes, Some(Path::new("noise.bin"))).is_none());
        prop_assert!(registry().detect(&bytes, None).is_none());
    }
}

#[test]
fn an_empty_file_is_read_only_by_the_format_its_extension_names() {
    for ext in EXTENSIONS {
        let name = format!("empty.{ext}");
        let chosen = registry().detect(b"", Some(Path::new(&name)));
        match chosen {
            Some(format) => assert!(
                format.extensions().contains(&ext),
                "{name} read as {}",
                format.id()
            ),
            None => assert!(
                registry().by_extension(Path::new(&name)).is_empty(),
                "{name}"
            ),
        }
    }
}
