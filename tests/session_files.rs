//! What a save writes on disk: only the files whose bytes change, nothing beside a game's
//! files (the versions a save replaces go to the backup store in Sprat's data folder), and,
//! after Save As into another folder, only into that folder. The diagnostics of a saved file
//! carry its new line numbers.

mod common;

use sprat::check::{CheckOptions, Checker};
use sprat::edit::boxes::{BoxTarget, CopyBoxes, CopyBoxesTo, FrameAt};
use sprat::edit::inspector::{FrameField, SetFrameField};
use sprat::edit::tree::{Rename, TreeNode};
use sprat::formats::{ReadContext, ReadOptions};
use sprat::model::FrameDuration;
use sprat::session::{BackupStore, Session};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// A copy of the corpus folder `from` in a fresh temporary folder.
fn copy_of(from: &Path) -> (tempfile::TempDir, PathBuf) {
    let guard = tempfile::tempdir().unwrap();
    let to = guard.path().join(from.file_name().unwrap());
    copy_folder(from, &to);
    (guard, to)
}

fn copy_folder(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            common::copy_writable(&entry.path(), &target);
        }
    }
}

/// A time long past, given to every file of `dir` so a write shows in its modification time.
fn age_files(dir: &Path) -> SystemTime {
    let long_ago = SystemTime::UNIX_EPOCH + Duration::from_secs(1 << 30);
    for path in all_files(dir) {
        fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(long_ago)
            .unwrap();
    }
    long_ago
}

/// Every file below `dir`, sorted, relative to it.
fn all_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap().flatten() {
            if entry.path().is_dir() {
                stack.push(entry.path());
            } else {
                out.push(entry.path());
            }
        }
    }
    out.sort();
    out
}

fn names(dir: &Path) -> Vec<PathBuf> {
    all_files(dir)
        .iter()
        .map(|p| p.strip_prefix(dir).unwrap().to_path_buf())
        .collect()
}

fn modified(path: &Path) -> SystemTime {
    fs::metadata(path).unwrap().modified().unwrap()
}

#[test]
fn saving_kfm_after_editing_its_air_writes_only_the_air_and_no_backup_beside_it() {
    let (_guard, folder) = copy_of(&common::corpus().join("mugen/kfm"));
    let data = tempfile::tempdir().unwrap();
    let store = BackupStore::new(data.path().join("backups"));
    let before = names(&folder);
    let long_ago = age_files(&folder);
    let def = folder.join("kfm.def");
    let def_bytes = fs::read(&def).unwrap();
    let air_bytes = fs::read(folder.join("kfm.air")).unwrap();
    let mut session = Session::open(&def, &ReadContext::default()).unwrap();
    session.enable_backups(store.clone());
    let frame = session.document().sequence_by_name("0").unwrap().directions[0].frames[5];
    let retime = SetFrameField {
        frame,
        field: FrameField::Duration(FrameDuration::Ticks(120)),
    };
    session.apply(&retime, None).unwrap();
    let report = session.save(None).unwrap();
    assert_eq!(report.companions, vec![folder.join("kfm.air")]);
    assert_eq!(
        report.unchanged,
        vec![def.clone()],
        "the report names what was not written"
    );

    assert_eq!(
        modified(&def),
        long_ago,
        "kfm.def would not change: not written"
    );
    assert_eq!(fs::read(&def).unwrap(), def_bytes);
    for unchanged in ["kfm.sff", "intro.def", "intro.sff"] {
        assert_eq!(modified(&folder.join(unchanged)), long_ago, "{unchanged}");
    }
    assert_ne!(fs::read(folder.join("kfm.air")).unwrap(), air_bytes);
    assert_eq!(
        names(&folder),
        before,
        "no backup nor anything else beside the files"
    );
    let kept = store.list(&folder.join("kfm.air"));
    assert_eq!(kept.len(), 1, "the replaced kfm.air is in the store");
    assert_eq!(fs::read(&kept[0].path).unwrap(), air_bytes);
    assert!(store.list(&def).is_empty());
}

#[test]
fn saving_a_solarus_sprite_leaves_nothing_in_the_quest_sprites_folder() {
    let (_guard, quest) = copy_of(&common::corpus().join("solarus/lua-1.x/zsdx"));
    let before = names(&quest);
    let data = tempfile::tempdir().unwrap();
    let store = BackupStore::new(data.path().join("backups"));
    let path = quest.join("sprites/hero/tunic1.dat");
    let original = fs::read(&path).unwrap();
    let mut session = Session::open(&path, &ReadContext::default()).unwrap();
    session.enable_backups(store.clone());
    let sequence = session.document().sequences()[0].id;
    let rename = Rename {
        node: TreeNode::Sequence(sequence),
        name: "renamed".into(),
    };
    session.apply(&rename, None).unwrap();
    session.save(None).unwrap();
    assert_ne!(fs::read(&path).unwrap(), original);
    assert_eq!(names(&quest), before, "no .bak ships with the quest");
    assert_eq!(fs::read(&store.list(&path)[0].path).unwrap(), original);
}

/// The kfm.air line numbers `diagnostics` name, in order.
fn air_lines(diagnostics: &[sprat::formats::Diagnostic]) -> Vec<u32> {
    diagnostics
        .iter()
        .filter(|d| d.file.as_deref().is_some_and(|f| f.ends_with("kfm.air")))
        .filter_map(|d| match d.location {
            sprat::formats::Location::Text { line, .. } => Some(line),
            _ => None,
        })
        .collect()
}

#[test]
fn diagnostics_after_a_save_carry_the_saved_line_numbers_and_equal_sprat_check() {
    let (_guard, folder) = copy_of(&common::corpus().join("mugen/kfm"));
    let def = folder.join("kfm.def");
    let checker = Checker::new();
    let (read, options) = (ReadOptions::default(), CheckOptions::default());
    let before = checker.check_file(&def, &read, &options).diagnostics;
    let lines_before = air_lines(&before);
    assert!(!lines_before.is_empty(), "{before:?}");

    // Stand Light Punch (action 200) frame 2's four boxes copied to frame 3: six lines
    // ("Clsn1: 1", a box, "Clsn2: 3", three boxes) go in before its frame line.
    let mut session = Session::open(&def, &ReadContext::default()).unwrap();
    let sequence = session.document().sequence_by_name("200").unwrap();
    let (id, frame) = (sequence.id, sequence.directions[0].frames[2]);
    let elements = session.document().frames[&frame]
        .boxes()
        .map(|(e, _)| e.id)
        .collect();
    let copy = CopyBoxes {
        target: BoxTarget::new(FrameAt {
            sequence: id,
            direction: 0,
            index: 2,
        }),
        elements,
        to: CopyBoxesTo::Next,
    };
    session.apply(&copy, None).unwrap();
    let air = folder.join("kfm.air");
    let old_air = fs::read_to_string(&air).unwrap();
    session.save(None).unwrap();
    let new_air = fs::read_to_string(&air).unwrap();
    let inserted = (new_air.lines().count() - old_air.lines().count()) as u32;
    assert_eq!(inserted, 6, "Clsn1: 1, one box, Clsn2: 3, three boxes");
    // The first line that moves: frame 3's, after frame 2's (one-based).
    let at = old_air
        .lines()
        .position(|l| l.trim() == "200,2, 0,0, 4")
        .unwrap() as u32
        + 2;

    let after = checker.check_file(&def, &read, &options).diagnostics;
    let expected: Vec<u32> = lines_before
        .iter()
        .map(|&l| if l >= at { l + inserted } else { l })
        .collect();
    assert_eq!(air_lines(&after), expected, "the saved file's line numbers");
    assert!(
        lines_before.iter().any(|&l| l >= at),
        "some come after the edit"
    );

    // Exactly what `sprat check` prints for the saved file.
    let name = def.display().to_string();
    let (_, printed, _) = common::sprat(&["check", "--all", &name]);
    let mut sorted: Vec<_> = after.iter().collect();
    sorted.sort_by_key(|d| d.severity);
    let listed: Vec<String> = sorted.iter().map(|d| d.display_with(&name)).collect();
    let printed: Vec<&str> = printed.lines().collect();
    assert_eq!(printed[..printed.len() - 1], listed, "{printed:?}");
}

/// Every file of `dir` with its bytes.
fn contents(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    all_files(dir)
        .into_iter()
        .map(|p| (p.clone(), fs::read(&p).unwrap()))
        .collect()
}

#[test]
fn after_save_as_into_another_folder_later_saves_write_only_there() {
    let guard = tempfile::tempdir().unwrap();
    let old = guard.path().join("kfm");
    copy_folder(&common::corpus().join("mugen/kfm"), &old);
    let new = guard.path().join("copy");
    fs::create_dir_all(&new).unwrap();
    let before = contents(&old);

    let mut session = Session::open(&old.join("kfm.def"), &ReadContext::default()).unwrap();
    let target = new.join("kfm.def");
    let pending = session.prepare_save_as(&target, "mugen-def", None).unwrap();
    session.commit_save_as(pending).unwrap();
    assert_eq!(
        contents(&old),
        before,
        "Save As leaves the old folder alone"
    );

    // A sprite edited after Save As: its archive is saved into the new folder.
    let archive = session
        .document()
        .images
        .iter()
        .find(|i| matches!(i.kind, sprat::model::ImageKind::Sff { .. }))
        .unwrap()
        .id;
    let pixels = sprat::assets::ImageStore::new();
    let mut sff =
        sprat::formats::sff::document::edit_archive(session.document(), archive, pixels.sff())
            .unwrap();
    sff.set_axis(0, 0, (1, 2)).unwrap();
    let change = sprat::edit::sprites::ChangeSprites {
        label: "axis".into(),
        image: archive,
        archive: sff,
        renumbered: Vec::new(),
        cleared: Vec::new(),
    };
    session.apply(&change, None).unwrap();
    let report = session.save(None).unwrap();
    assert!(report.losses.is_empty(), "{:?}", report.losses);
    for path in std::iter::once(&report.path).chain(&report.companions) {
        assert!(
            sprat::formats::absolute(path.clone()).starts_with(&new),
            "{} is written outside the new folder",
            path.display()
        );
    }
    assert_eq!(
        contents(&old),
        before,
        "the old folder's files keep their bytes"
    );
    assert!(
        new.join("kfm.sff").is_file(),
        "the archive is in the new folder"
    );

    // The saved character reads back from the new folder alone, with the edit.
    fs::remove_dir_all(&old).unwrap();
    let again = Session::open(&target, &ReadContext::default()).unwrap();
    let image = again
        .document()
        .images
        .iter()
        .find(|i| matches!(i.kind, sprat::model::ImageKind::Sff { .. }))
        .unwrap();
    assert!(
        image
            .resolved
            .as_deref()
            .is_some_and(|p| p.starts_with(&new)),
        "{:?}",
        image.resolved
    );
}
