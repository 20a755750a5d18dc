//! Changes made outside: a save compares every file it would replace with what the document
//! read (or this session last saved) and stops before replacing another program's change; the
//! watch covers the files read with the document too. On copies of Kung Fu Man.

mod common;

use sprat::edit::timeline::SetFrameDuration;
use sprat::formats::ReadContext;
use sprat::model::FrameDuration;
use sprat::session::{BackupStore, FileChange, Session};
use std::fs;
use std::path::{Path, PathBuf};

/// KFM's `.def`, `.air` and `.sff`, writable, in a fresh folder: the guard, the `.def`, the
/// `.air`.
fn kfm() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("sprat-outside-")
        .tempdir()
        .unwrap();
    let source = common::corpus().join("mugen/kfm");
    for name in ["kfm.def", "kfm.air", "kfm.sff"] {
        common::copy_writable(&source.join(name), &dir.path().join(name));
    }
    let (def, air) = (dir.path().join("kfm.def"), dir.path().join("kfm.air"));
    (dir, def, air)
}

fn open(path: &Path) -> Session {
    Session::open(path, &ReadContext::for_path(path)).unwrap()
}

/// Action `action`'s first frame lasts one tick longer (an undo step).
fn lengthen(session: &mut Session, action: &str) {
    let document = session.document();
    let sequence = document
        .sequence_by_name(action)
        .unwrap_or_else(|| panic!("KFM has action {action}"));
    let frame = sequence.directions[0].frames[0];
    let duration = match document.frame(frame).unwrap().duration {
        FrameDuration::Ticks(n) => FrameDuration::Ticks(n + 1),
        other => panic!("an AIR frame lasts ticks, not {other:?}"),
    };
    session
        .apply(&SetFrameDuration { frame, duration }, None)
        .unwrap();
}

/// The first frame duration of action `action` in the file at `path`, read afresh.
fn first_duration(path: &Path, action: &str) -> FrameDuration {
    let session = open(path);
    let document = session.document();
    let sequence = document.sequence_by_name(action).unwrap();
    document
        .frame(sequence.directions[0].frames[0])
        .unwrap()
        .duration
}

/// `path` with an action appended by another program.
fn append_action(path: &Path) {
    let mut text = fs::read(path).unwrap();
    text.extend_from_slice(b"\r\n[Begin Action 9876]\r\n0,0, 0,0, 7\r\n");
    fs::write(path, text).unwrap();
}

#[test]
fn two_sessions_on_one_file_the_later_save_stops_and_save_anyway_keeps_the_other_as_a_backup() {
    let (dir, _def, air) = kfm();
    let mut a = open(&air);
    a.enable_backups(BackupStore::new(dir.path().join("data/backups")));
    let mut b = open(&air);
    lengthen(&mut a, "0");
    lengthen(&mut b, "5");
    let a_zero = first_duration(&air, "0");
    b.save(None).unwrap();
    let by_b = fs::read(&air).unwrap();

    let error = a.save(None).unwrap_err();
    assert_eq!(
        error.changed_outside,
        std::slice::from_ref(&air),
        "{}",
        error.message
    );
    assert!(
        error.message.contains("changed by another program"),
        "{}",
        error.message
    );
    assert_eq!(fs::read(&air).unwrap(), by_b, "B's save is still on disk");
    assert!(a.is_dirty(), "A's edit is still open");

    // The editor's question: the save prepared again shows the file; "Save anyway".
    let mut pending = a.prepare_save_as(&air, "mugen-air", None).unwrap();
    assert_eq!(pending.changed_outside(), std::slice::from_ref(&air));
    assert!(pending.needs_confirmation());
    pending.overwrite_changes_outside();
    a.commit_save_as(pending).unwrap();
    assert_ne!(first_duration(&air, "0"), a_zero, "A's edit is saved");
    let kept = a.backups();
    assert_eq!(
        fs::read(&kept[0].path).unwrap(),
        by_b,
        "B's version is kept as the newest backup"
    );

    // What A saved is now what it compares with: the next save asks nothing.
    lengthen(&mut a, "0");
    a.save(None).unwrap();
}

#[test]
fn an_outside_edit_of_the_air_a_def_names_stops_the_save_of_the_character() {
    let (_dir, def, air) = kfm();
    let mut session = open(&def);
    lengthen(&mut session, "0");
    append_action(&air);
    let outside = fs::read(&air).unwrap();

    let error = session.save(None).unwrap_err();
    assert_eq!(
        error.changed_outside,
        std::slice::from_ref(&air),
        "{}",
        error.message
    );
    assert_eq!(fs::read(&air).unwrap(), outside, "the outside edit stays");

    // Reloading takes the outside edit; a save then has nothing to ask.
    session.reload(&ReadContext::for_path(&def)).unwrap();
    assert!(session.document().sequence_by_name("9876").is_some());
    lengthen(&mut session, "0");
    session.save(None).unwrap();
    let saved = open(&def);
    assert!(
        saved.document().sequence_by_name("9876").is_some(),
        "the outside action is kept"
    );
}

#[test]
fn a_def_changed_outside_is_not_replaced_by_a_save_of_its_air_edit() {
    let (_dir, def, _air) = kfm();
    let mut session = open(&def);
    lengthen(&mut session, "0");
    let mut text = fs::read(&def).unwrap();
    text.extend_from_slice(b"\r\n; a note added in another editor\r\n");
    fs::write(&def, &text).unwrap();
    let error = session.save(None).unwrap_err();
    assert_eq!(
        error.changed_outside,
        std::slice::from_ref(&def),
        "{}",
        error.message
    );
    assert_eq!(fs::read(&def).unwrap(), text);
}

#[test]
fn a_file_only_touched_outside_does_not_stop_a_save() {
    let (_dir, def, air) = kfm();
    let mut session = open(&def);
    lengthen(&mut session, "0");
    let bytes = fs::read(&air).unwrap();
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    fs::write(&air, &bytes).unwrap();
    fs::File::options()
        .write(true)
        .open(&air)
        .unwrap()
        .set_modified(later)
        .unwrap();
    session.save(None).unwrap();
}

#[test]
fn save_as_over_a_file_the_document_never_read_is_not_an_outside_change() {
    let (dir, _def, air) = kfm();
    let mut session = open(&air);
    lengthen(&mut session, "0");
    let other = dir.path().join("other.air");
    fs::write(&other, "; someone else's file\r\n").unwrap();
    let pending = session.prepare_save_as(&other, "mugen-air", None).unwrap();
    assert!(pending.changed_outside().is_empty());
    session.commit_save_as(pending).unwrap();
}

#[test]
fn the_watch_reports_a_change_of_the_air_a_def_names() {
    let (_dir, def, air) = kfm();
    let mut session = open(&def);
    assert!(
        sprat::session::watch::watched_paths(Some(&def), session.document()).contains(&air),
        "the .air is watched"
    );
    append_action(&air);
    assert_eq!(
        session.check_files(),
        [FileChange::Companion {
            path: air.clone(),
            exists: true
        }]
    );
    assert!(session.check_files().is_empty(), "reported once");
}

#[cfg(target_os = "linux")]
#[test]
fn opening_a_character_removes_what_a_killed_save_of_its_archive_left() {
    let (dir, def, _air) = kfm();
    // No process has this id (Linux ids stop at 2^22).
    let stale = dir.path().join(".kfm.sff.saving-999999999-0.tmp");
    fs::write(&stale, b"half an archive").unwrap();
    let _session = open(&def);
    assert!(!stale.exists());
}

#[test]
fn a_recovered_document_still_stops_before_replacing_a_change_made_after_it_was_read() {
    let (dir, _def, air) = kfm();
    let store = sprat::session::RecoveryStore::new(dir.path().join("recovery"));
    let mut a = open(&air);
    a.enable_autosave(store.clone());
    lengthen(&mut a, "0");
    a.autosave_now();
    // The editor is stopped (a crash); meanwhile another window saves its own edit.
    drop(a);
    let mut b = open(&air);
    lengthen(&mut b, "5");
    b.save(None).unwrap();
    let by_b = fs::read(&air).unwrap();

    let entry = store
        .list()
        .into_iter()
        .next()
        .expect("the stopped editor's work is offered back");
    let mut recovered = store.recover(&entry).unwrap();
    let error = recovered.save(None).unwrap_err();
    assert_eq!(
        error.changed_outside,
        std::slice::from_ref(&air),
        "the recovered document's save must stop and name the file changed since it was read: {}",
        error.message
    );
    assert_eq!(
        fs::read(&air).unwrap(),
        by_b,
        "the other window's save is kept"
    );
}
