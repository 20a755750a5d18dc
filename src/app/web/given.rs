//! Files given to the web page: dropped on it (a folder too), picked in the browser's file
//! dialog, or named in its address. A page has no disk: the files are read into memory and
//! handed to the library's store of provided files ([`crate::formats::input`]), where the
//! readers find them (and their companions) as on disk. Sizes are known before reading, so a
//! file the store would refuse is never read, and a folder of thousands of files is decided
//! by name and size.

use crate::formats::input::{MAX_PROVIDED_BYTES, MAX_PROVIDED_FILES};
use std::path::{Path, PathBuf};

/// Where given files are put, under their path relative to what was given (a dropped
/// folder's name first): `/dropped/kfm/kfm.def`.
pub const GIVEN_ROOT: &str = "/dropped";

/// Which listed files to read, and why the others are not.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Choice {
    /// Indexes into the listing of the files to read.
    pub read: Vec<usize>,
    /// The files not read, each with a plain sentence saying why.
    pub refused: Vec<(PathBuf, String)>,
}

/// Decides which of the `listing` (path and size, before anything is read) to read, in order:
/// each file `refusal` (the store's own check against what it holds,
/// [`crate::formats::input::refusal_before_reading`]) lets through, while the files chosen
/// together stay within the store's limits on bytes and files.
pub fn choose_files_to_read(
    listing: &[(PathBuf, u64)],
    refusal: impl Fn(&Path, u64) -> Option<String>,
) -> Choice {
    let mut choice = Choice::default();
    let mut chosen_bytes = 0u64;
    for (index, (path, size)) in listing.iter().enumerate() {
        let why = refusal(path, *size).or_else(|| {
            if choice.read.len() >= MAX_PROVIDED_FILES {
                Some(format!("at most {MAX_PROVIDED_FILES} files can be given"))
            } else if chosen_bytes + size > MAX_PROVIDED_BYTES {
                Some(format!(
                    "the files given may take {} MiB together and the ones before it take {} MiB",
                    MAX_PROVIDED_BYTES >> 20,
                    chosen_bytes.div_ceil(1 << 20)
                ))
            } else {
                None
            }
        });
        match why {
            Some(why) => choice.refused.push((path.clone(), why)),
            None => {
                chosen_bytes += size;
                choice.read.push(index);
            }
        }
    }
    choice
}

/// Where a file given under `relative` (as the browser names it: `kfm/kfm.def` for a file in
/// a dropped folder) is put. Parts that would climb out (`..`) or are empty are left out.
pub fn given_path(relative: &str) -> PathBuf {
    let mut path = PathBuf::from(GIVEN_ROOT);
    relative
        .split(['/', '\\'])
        .filter(|part| !part.is_empty() && *part != "." && *part != "..")
        .for_each(|part| path.push(part));
    path
}

/// A given file's name as the user gave it (without the store's root).
pub fn shown_name(path: &Path) -> String {
    path.strip_prefix(GIVEN_ROOT)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// One file a save or an export would write, for the download: its name relative to the
/// folder it would be written in.
pub struct FileOut<'a> {
    /// The name in the download (`kfm.air`, `sprites/hero.png`).
    pub name: String,
    /// Its bytes, exactly as the native save or export writes them.
    pub bytes: &'a [u8],
}

/// What a save or an export downloads: the one file as it is, or several in one zip named
/// `<zip_stem>.zip` (the document's name for a save, the export's), each under its name.
/// Returns the download's name and bytes.
pub fn download_of(files: &[FileOut], zip_stem: &str) -> Result<(String, Vec<u8>), String> {
    match files {
        [] => Err("there is no file to download".to_string()),
        [one] => Ok((file_name_of(&one.name), one.bytes.to_vec())),
        _ => Ok((format!("{zip_stem}.zip"), zip_files(files)?)),
    }
}

/// The stem of `path`'s file name (`kfm` of `/dropped/kfm/kfm.def`), or `fallback`.
pub fn stem_of(path: &Path, fallback: &str) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| fallback.to_string())
}

fn file_name_of(name: &str) -> String {
    Path::new(name)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| name.to_string())
}

/// A zip of `files`, compressed, each under its name.
fn zip_files(files: &[FileOut]) -> Result<Vec<u8>, String> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(
            files
                .iter()
                .any(|f| f.bytes.len() as u64 >= u32::MAX as u64),
        );
    for file in files {
        zip.start_file(file.name.replace('\\', "/"), options)
            .and_then(|()| zip.write_all(file.bytes).map_err(Into::into))
            .map_err(|e| format!("could not zip {}: {e}", file.name))?;
    }
    zip.finish()
        .map(std::io::Cursor::into_inner)
        .map_err(|e| format!("could not finish the zip: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(entries: &[(&str, u64)]) -> Vec<(PathBuf, u64)> {
        entries.iter().map(|(p, s)| (given_path(p), *s)).collect()
    }

    #[test]
    fn a_file_too_big_is_refused_by_its_size_and_the_rest_are_read() {
        let choice = choose_files_to_read(
            &listing(&[
                ("kfm/kfm.def", 900),
                ("kfm/huge.sff", 2_000_000_000),
                ("kfm/kfm.air", 40_000),
            ]),
            crate::formats::input::refusal_before_reading,
        );
        assert_eq!(choice.read, vec![0, 2]);
        assert_eq!(choice.refused.len(), 1);
        assert_eq!(choice.refused[0].0, PathBuf::from("/dropped/kfm/huge.sff"));
        assert!(
            choice.refused[0].1.contains("1024 MiB"),
            "{}",
            choice.refused[0].1
        );
    }

    #[test]
    fn thousands_of_files_are_read_up_to_the_count_and_the_rest_refused_by_name() {
        let many: Vec<(PathBuf, u64)> = (0..MAX_PROVIDED_FILES + 5)
            .map(|i| (given_path(&format!("big/{i}.png")), 10))
            .collect();
        let choice = choose_files_to_read(&many, |_, _| None);
        assert_eq!(choice.read.len(), MAX_PROVIDED_FILES);
        assert_eq!(choice.refused.len(), 5);
        assert_eq!(
            choice.refused[0].0,
            given_path(&format!("big/{MAX_PROVIDED_FILES}.png"))
        );
        assert!(choice.refused[0].1.contains("at most 20000 files"));
    }

    #[test]
    fn the_files_chosen_together_stay_within_the_store_bytes() {
        let half = MAX_PROVIDED_BYTES / 2 + 1;
        let choice = choose_files_to_read(
            &listing(&[("a.sff", half), ("b.sff", half), ("c.png", 100)]),
            |_, _| None,
        );
        assert_eq!(choice.read, vec![0, 2]);
        assert!(
            choice.refused[0]
                .1
                .contains("the ones before it take 513 MiB")
        );
    }

    #[test]
    fn the_store_refusal_is_said_as_it_is() {
        let choice = choose_files_to_read(&listing(&[("a.def", 1)]), |_, _| {
            Some("it is the folder of other files given".to_string())
        });
        assert!(choice.read.is_empty());
        assert_eq!(choice.refused[0].1, "it is the folder of other files given");
    }

    #[test]
    fn given_paths_stay_under_the_root() {
        assert_eq!(
            given_path("kfm/kfm.def"),
            PathBuf::from("/dropped/kfm/kfm.def")
        );
        assert_eq!(
            given_path("../../etc/x.png"),
            PathBuf::from("/dropped/etc/x.png")
        );
        assert_eq!(given_path("a\\b.air"), PathBuf::from("/dropped/a/b.air"));
    }

    #[test]
    fn one_saved_file_downloads_as_itself_and_several_as_a_zip_of_them() {
        let one = [FileOut {
            name: "kfm.air".into(),
            bytes: b"[Begin Action 0]",
        }];
        assert_eq!(
            download_of(&one, "kfm").unwrap(),
            ("kfm.air".to_string(), b"[Begin Action 0]".to_vec())
        );
        let two = [
            FileOut {
                name: "hero.json".into(),
                bytes: b"{}",
            },
            FileOut {
                name: "sheets/hero.png".into(),
                bytes: &[137, 80, 78, 71],
            },
        ];
        let (name, bytes) = download_of(&two, "hero").unwrap();
        assert_eq!(name, "hero.zip");
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        for file in &two {
            let mut entry = archive.by_name(&file.name).unwrap();
            let mut read = Vec::new();
            std::io::Read::read_to_end(&mut entry, &mut read).unwrap();
            assert_eq!(read, file.bytes);
        }
        assert!(download_of(&[], "x").is_err());
    }
}
