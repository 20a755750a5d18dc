//! Sessions: dirty state, safe saving with backups, failed saves, Save As with losses,
//! autosave and crash recovery, and changes on disk.

use sprat::edit::timeline::SetLoopPoint;
use sprat::edit::tree::{Rename, TreeNode};
use sprat::formats::fidelity::same_content;
use sprat::formats::sprat::SpratFormat;
use sprat::formats::{Format, ReadContext, WriteContext};
use sprat::model::*;
use sprat::session::{
    AUTOSAVE_INTERVAL, BackupStore, FileChange, RecoveryStore, Session, TickReport, WATCH_INTERVAL,
};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A fresh empty folder for one test, and the guard that removes it when the test ends.
fn scratch(name: &str) -> (tempfile::TempDir, PathBuf) {
    let guard = tempfile::Builder::new()
        .prefix(&format!("sprat-session-{name}-"))
        .tempdir()
        .unwrap();
    let dir = guard.path().to_path_buf();
    (guard, dir)
}

/// A small set: one image, one sequence "walk" with two frames.
fn sample() -> AnimationSet {
    let mut set = AnimationSet::new();
    let image = ImageId(set.alloc_id());
    set.images.push(SourceImage {
        id: image,
        path: "hero.png".into(),
        resolved: None,
        kind: ImageKind::File,
        nearest_neighbour: true,
    });
    let mut frames = Vec::new();
    for ms in [100, 150] {
        let mut frame = Frame::new(FrameDuration::Millis(ms));
        frame.elements.push(Element {
            id: ElementId(set.alloc_id()),
            name: Name::default(),
            kind: ElementKind::Graphic(Graphic::new(
                GraphicSource::Image(image),
                Point::ZERO,
                Origin::At(Point::from_ints(8, 8)),
            )),
        });
        let id = FrameId(set.alloc_id());
        set.frames.insert(id, frame);
        frames.push(id);
    }
    let mut walk = Sequence::new(
        SequenceId(set.alloc_id()),
        "walk",
        DirectionId(set.alloc_id()),
    );
    walk.directions[0].frames = frames;
    set.root.items.push(TreeItem::Sequence(walk));
    set
}

/// Writes the sample as a `.sprat` file (and a stand-in `hero.png`) into `dir`.
fn sample_file(dir: &Path) -> PathBuf {
    let path = dir.join("hero.sprat");
    let written = SpratFormat
        .write(&sample(), &WriteContext::for_path(&path))
        .unwrap();
    fs::write(&path, &written.bytes).unwrap();
    fs::write(dir.join("hero.png"), b"not really a png").unwrap();
    path
}

fn first_sequence(session: &Session) -> SequenceId {
    session.document().sequences()[0].id
}

fn rename(session: &mut Session, name: &str) {
    let id = first_sequence(session);
    session
        .apply(
            &Rename {
                node: TreeNode::Sequence(id),
                name: name.into(),
            },
            None,
        )
        .unwrap();
}

/// The content of the newest backup the session kept of its file.
fn newest_backup(session: &Session) -> Vec<u8> {
    let backups = session.backups();
    fs::read(&backups.first().expect("a backup").path).unwrap()
}

/// Every file name in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn reread(path: &Path) -> AnimationSet {
    let bytes = fs::read(path).unwrap();
    SpratFormat
        .read(&bytes, &ReadContext::for_path(path))
        .unwrap()
        .document
}

/// Files in `dir` whose names start with a dot (temporary files left behind).
fn leftovers(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect()
}

#[test]
fn an_unedited_file_saves_to_the_same_bytes_and_is_not_dirty() {
    let (_guard, dir) = scratch("unedited");
    let path = sample_file(&dir);
    let original = fs::read(&path).unwrap();
    let (_data_guard, data) = scratch("unedited-data");
    let mut session = Session::open(&path, &ReadContext::default()).unwrap();
    session.enable_backups(BackupStore::new(data.join("backups")));
    assert_eq!(session.format_id(), "sprat");
    assert!(!session.is_dirty());
    assert_eq!(session.title(), "hero.sprat");
    let modified = fs::metadata(&path).unwrap().modified().unwrap();
    std::thread::sleep(Duration::from_millis(20));
    let report = session.save(None).unwrap();
    assert!(report.losses.is_empty());
    assert_eq!(fs::read(&path).unwrap(), original);
    assert_eq!(
        fs::metadata(&path).unwrap().modified().unwrap(),
        modified,
        "a file whose bytes would not change is not written"
    );
    assert!(session.backups().is_empty(), "and gets no backup");
    assert_eq!(names(&dir), ["hero.png", "hero.sprat"]);
}

#[test]
fn dirty_follows_the_history_position_and_saving_keeps_a_backup() {
    let (_guard, dir) = scratch("dirty");
    let path = sample_file(&dir);
    let first_version = fs::read(&path).unwrap();
    let (_data_guard, data) = scratch("dirty-data");
    let mut session = Session::open(&path, &ReadContext::default()).unwrap();
    session.enable_backups(BackupStore::new(data.join("backups")));
    rename(&mut session, "stroll");
    assert!(session.is_dirty());
    assert_eq!(session.title(), "hero.sprat *");
    session.undo();
    assert!(!session.is_dirty(), "undo back to the saved state is clean");
    session.redo();
    assert!(session.is_dirty());

    session.save(None).unwrap();
    assert!(!session.is_dirty());
    assert!(same_content(&reread(&path), session.document()));
    assert_eq!(newest_backup(&session), first_version);
    let second_version = fs::read(&path).unwrap();

    session.undo();
    assert!(
        session.is_dirty(),
        "undo past the save differs from the disk"
    );
    session.redo();
    assert!(!session.is_dirty());

    let id = first_sequence(&session);
    session
        .apply(
            &SetLoopPoint {
                sequence: id,
                loop_point: Some(1),
            },
            None,
        )
        .unwrap();
    session.save(None).unwrap();
    assert_eq!(
        newest_backup(&session),
        second_version,
        "the newest backup is the version before the latest save"
    );
    assert_eq!(session.backups().len(), 2);
    assert_eq!(
        names(&dir),
        ["hero.png", "hero.sprat"],
        "nothing beside the file"
    );
}

#[test]
fn save_as_shows_losses_first_and_moves_the_session_to_the_new_file() {
    let (_guard, dir) = scratch("save-as");
    let path = sample_file(&dir);
    let mut session = Session::open(&path, &ReadContext::default()).unwrap();
    rename(&mut session, "stroll");
    let target = dir.join("copy.sprat");
    let pending = session.prepare_save_as(&target, "sprat", None).unwrap();
    assert!(pending.losses().is_empty());
    assert!(
        !target.exists(),
        "nothing is written before the caller confirms"
    );
    session.commit_save_as(pending).unwrap();
    assert_eq!(session.path(), Some(target.as_path()));
    assert!(!session.is_dirty());
    assert!(same_content(&reread(&target), session.document()));
    assert_eq!(
        names(&dir),
        ["copy.sprat", "hero.png", "hero.sprat"],
        "a new file has no previous version"
    );

    assert!(
        session
            .prepare_save_as(&target, "no-such-format", None)
            .unwrap_err()
            .message
            .contains("does not know")
    );
    let stale = session.prepare_save_as(&target, "sprat", None).unwrap();
    rename(&mut session, "later");
    let error = session.commit_save_as(stale).unwrap_err();
    assert!(error.message.contains("changed after"), "{}", error.message);
}

#[test]
fn a_document_never_saved_asks_where_to_save() {
    let mut session = Session::with_document(sample(), &SpratFormat, None);
    assert_eq!(session.title(), "Untitled");
    let error = session.save(None).unwrap_err();
    assert!(error.message.contains("choose where"), "{}", error.message);
}

/// True when folder permissions do not stop this process (root).
#[cfg(unix)]
fn permissions_do_not_apply(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let probe = dir.join("probe");
    fs::create_dir_all(&probe).unwrap();
    fs::set_permissions(&probe, fs::Permissions::from_mode(0o555)).unwrap();
    let writable = fs::write(probe.join("x"), b"x").is_ok();
    fs::set_permissions(&probe, fs::Permissions::from_mode(0o755)).unwrap();
    let _ = fs::remove_dir_all(&probe);
    writable
}

#[cfg(unix)]
const AS_CHILD: &str = "SPRAT_READ_ONLY_TEST_CHILD";

#[cfg(unix)]
#[test]
fn saving_into_a_read_only_folder_keeps_the_old_file_and_the_edits() {
    use std::os::unix::process::CommandExt;
    let (_guard, dir) = scratch(&format!("read-only-{}", std::env::var(AS_CHILD).is_ok()));
    if std::env::var(AS_CHILD).is_err() && permissions_do_not_apply(&dir) {
        // Root ignores folder permissions: run this same test as the unprivileged `nobody`.
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "saving_into_a_read_only_folder_keeps_the_old_file_and_the_edits",
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(AS_CHILD, "1")
            .uid(65534)
            .gid(65534)
            .status()
            .unwrap();
        assert!(status.success(), "the unprivileged run failed");
        return;
    }
    read_only_folder_body(&dir);
}

#[cfg(unix)]
fn read_only_folder_body(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let path = sample_file(dir);
    let before = fs::read(&path).unwrap();
    let mut session = Session::open(&path, &ReadContext::default()).unwrap();
    rename(&mut session, "stroll");
    fs::set_permissions(dir, fs::Permissions::from_mode(0o555)).unwrap();
    let result = session.save(None);
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755)).unwrap();
    let error = result.expect_err("saving into a read-only folder fails");
    assert!(
        error.message.contains("permission denied"),
        "{}",
        error.message
    );
    assert!(error.message.contains("unchanged"), "{}", error.message);
    assert_eq!(fs::read(&path).unwrap(), before, "the old file is intact");
    assert!(session.is_dirty(), "the edits are still there, unsaved");
    assert_eq!(session.document().sequences()[0].name, "stroll");
    assert!(leftovers(dir).is_empty(), "{:?}", leftovers(dir));
    // Once the folder is writable again, the same session saves.
    session.save(None).unwrap();
    assert!(!session.is_dirty());
}

#[test]
fn autosave_writes_a_recovery_after_30_seconds_dirty_and_it_is_found_after_a_crash() {
    let (_guard, dir) = scratch("recovery");
    let path = sample_file(&dir);
    let store = RecoveryStore::new(dir.join("recovery"));
    let t0 = Instant::now();
    let edited;
    {
        let mut session = Session::open(&path, &ReadContext::default()).unwrap();
        session.enable_autosave(store.clone());
        assert_eq!(
            session.tick(t0).autosaved,
            None,
            "clean documents are not written"
        );
        rename(&mut session, "stroll");
        assert_eq!(session.tick(t0 + Duration::from_secs(1)).autosaved, None);
        let almost = t0 + Duration::from_secs(1) + AUTOSAVE_INTERVAL - Duration::from_millis(1);
        assert_eq!(session.tick(almost).autosaved, None);
        let due = t0 + Duration::from_secs(1) + AUTOSAVE_INTERVAL;
        let report = session.tick(due);
        assert_eq!(report.autosaved.as_deref(), session.recovery_folder());
        assert!(report.autosave_error.is_none());
        assert_eq!(
            session.tick(due + AUTOSAVE_INTERVAL).autosaved,
            None,
            "nothing new to write"
        );
        edited = session.document().clone();
        // The program crashes here: the session is dropped without closing or saving.
    }
    let found = store.list();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].source.as_deref(), Some(path.as_path()));
    assert_eq!(found[0].format, "sprat");
    let mut recovered = store.recover(&found[0]).unwrap();
    assert_eq!(
        recovered.document(),
        &edited,
        "everything, original bytes included"
    );
    assert!(recovered.is_dirty());
    assert_eq!(recovered.path(), Some(path.as_path()));
    recovered.save(None).unwrap();
    assert!(store.list().is_empty(), "saving removes the recovery");
    assert_eq!(reread(&path).sequences()[0].name, "stroll");
}

#[test]
fn closing_or_discarding_removes_the_recovery() {
    let (_guard, dir) = scratch("discard");
    let path = sample_file(&dir);
    let store = RecoveryStore::new(dir.join("recovery"));
    let t0 = Instant::now();
    let mut session = Session::open(&path, &ReadContext::default()).unwrap();
    session.enable_autosave(store.clone());
    rename(&mut session, "stroll");
    session.tick(t0);
    assert!(session.tick(t0 + AUTOSAVE_INTERVAL).autosaved.is_some());
    assert_eq!(store.list().len(), 1);
    session.close();
    assert!(store.list().is_empty());

    let mut session = Session::open(&path, &ReadContext::default()).unwrap();
    session.enable_autosave(store.clone());
    rename(&mut session, "run");
    session.tick(t0);
    session.tick(t0 + AUTOSAVE_INTERVAL);
    drop(session);
    let found = store.list();
    store.discard(&found[0]).unwrap();
    assert!(store.list().is_empty());
}

/// Rewrites a file with other content and a later modification time.
fn touch(path: &Path, bytes: &[u8]) {
    fs::write(path, bytes).unwrap();
    let file = fs::File::options().write(true).open(path).unwrap();
    file.set_modified(std::time::SystemTime::now() + Duration::from_secs(5))
        .unwrap();
}

#[test]
fn changes_on_disk_are_reported_but_our_own_saves_are_not() {
    let (_guard, dir) = scratch("watch");
    let path = sample_file(&dir);
    let mut session = Session::open(&path, &ReadContext::default()).unwrap();
    let image = session.document().images[0].id;
    let t0 = Instant::now();
    assert!(
        session.tick(t0).changes.is_empty(),
        "the first look only records"
    );

    touch(&dir.join("hero.png"), b"new pixels, longer than before");
    assert!(
        session.tick(t0 + WATCH_INTERVAL / 2).changes.is_empty(),
        "not checked twice a second"
    );
    assert_eq!(
        session.tick(t0 + WATCH_INTERVAL).changes,
        vec![FileChange::Source {
            image,
            path: dir.join("hero.png"),
            exists: true
        }]
    );
    assert!(session.tick(t0 + WATCH_INTERVAL * 2).changes.is_empty());

    rename(&mut session, "stroll");
    session.save(None).unwrap();
    assert!(
        session.tick(t0 + WATCH_INTERVAL * 3).changes.is_empty(),
        "our own save is not an outside change"
    );

    let mut outside = reread(&path);
    if let Some(TreeItem::Sequence(s)) = outside.root.items.first_mut() {
        s.name = "changed elsewhere".into();
    }
    let bytes = SpratFormat
        .write(&outside, &WriteContext::for_path(&path))
        .unwrap()
        .bytes;
    touch(&path, &bytes);
    assert_eq!(
        session.tick(t0 + WATCH_INTERVAL * 4).changes,
        vec![FileChange::Document {
            path: path.clone(),
            exists: true
        }]
    );
    session.reload(&ReadContext::default()).unwrap();
    assert_eq!(session.document().sequences()[0].name, "changed elsewhere");
    assert!(!session.is_dirty());
    assert!(!session.history().can_undo());
    assert!(session.tick(t0 + WATCH_INTERVAL * 5).changes.is_empty());
}

#[test]
fn a_change_between_opening_and_the_first_tick_is_seen() {
    let (_guard, dir) = scratch("watch-early");
    let path = sample_file(&dir);
    let mut session = Session::open(&path, &ReadContext::default()).unwrap();
    touch(&dir.join("hero.png"), b"changed right after opening");
    let changes = session.tick(Instant::now()).changes;
    assert_eq!(changes.len(), 1, "{changes:?}");
}

#[test]
fn keeping_my_version_after_an_outside_change_counts_as_unsaved() {
    let (_guard, dir) = scratch("keep-mine");
    let path = sample_file(&dir);
    let mut session = Session::open(&path, &ReadContext::default()).unwrap();
    touch(&path, b"(version: 1, set: (root: (), next_id: 1))");
    assert_eq!(session.check_files().len(), 1);
    session.keep_mine();
    assert!(session.is_dirty());
    // The file on disk is another program's now: a save asks before replacing it.
    let error = session.save(None).unwrap_err();
    assert_eq!(
        error.changed_outside,
        std::slice::from_ref(&path),
        "{}",
        error.message
    );
    let mut pending = session.prepare_save_as(&path, "sprat", None).unwrap();
    pending.overwrite_changes_outside();
    session.commit_save_as(pending).unwrap();
    assert!(!session.is_dirty());
    assert!(same_content(&reread(&path), session.document()));
}

#[test]
fn an_untitled_document_is_recovered_as_untitled() {
    let (_guard, dir) = scratch("untitled");
    let store = RecoveryStore::new(dir.join("recovery"));
    let mut session = Session::with_document(sample(), &SpratFormat, None);
    session.enable_autosave(store.clone());
    rename(&mut session, "draft");
    let t0 = Instant::now();
    session.tick(t0);
    assert!(session.tick(t0 + AUTOSAVE_INTERVAL).autosaved.is_some());
    let edited = session.document().clone();
    drop(session);
    let found = store.list();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].source, None);
    let recovered = store.recover(&found[0]).unwrap();
    assert_eq!(recovered.document(), &edited);
    assert_eq!(recovered.title(), "Untitled *");
}

#[test]
fn a_failed_autosave_is_reported_and_retried_later() {
    let (_guard, dir) = scratch("autosave-fails");
    let path = sample_file(&dir);
    // The recovery "directory" is a plain file, so nothing can be written into it.
    let blocked = dir.join("not-a-folder");
    fs::write(&blocked, b"x").unwrap();
    let mut session = Session::open(&path, &ReadContext::default()).unwrap();
    session.enable_autosave(RecoveryStore::new(&blocked));
    rename(&mut session, "stroll");
    let t0 = Instant::now();
    session.tick(t0);
    let report = session.tick(t0 + AUTOSAVE_INTERVAL);
    assert_eq!(report.autosaved, None);
    let message = report.autosave_error.expect("the failure is reported");
    assert!(
        message.starts_with("Could not write the recovery file"),
        "{message}"
    );
    assert!(session.is_dirty());
    assert!(
        session
            .tick(t0 + AUTOSAVE_INTERVAL + Duration::from_secs(1))
            .autosave_error
            .is_none(),
        "not retried at once"
    );
    assert!(
        session
            .tick(t0 + AUTOSAVE_INTERVAL * 2 + Duration::from_secs(1))
            .autosave_error
            .is_some(),
        "retried after another interval"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn opening_a_document_removes_what_a_killed_save_of_it_left() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample_file(dir.path());
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    // No process has this id (Linux ids stop at 2^22).
    let stale = dir.path().join(format!(".{name}.saving-999999999-3.tmp"));
    fs::write(&stale, b"half a save").unwrap();
    let _session = Session::open(&path, &ReadContext::default()).unwrap();
    assert!(!stale.exists());
}

/// One small edit any format can hold: the first frame with a length lasts one unit longer.
fn lengthen_first_frame(session: &mut Session) {
    use sprat::edit::timeline::SetFrameDuration;
    let (frame, duration) = session
        .document()
        .frames
        .iter()
        .find_map(|(id, frame)| match frame.duration {
            FrameDuration::Millis(n) => Some((*id, FrameDuration::Millis(n + 1))),
            FrameDuration::Ticks(n) => Some((*id, FrameDuration::Ticks(n + 1))),
            FrameDuration::Holds(n) => Some((*id, FrameDuration::Holds(n + 1))),
            FrameDuration::Seconds { nanos } => Some((
                *id,
                FrameDuration::Seconds {
                    nanos: nanos + 1_000_000,
                },
            )),
            _ => None,
        })
        .expect("a frame with a length");
    session
        .apply(&SetFrameDuration { frame, duration }, None)
        .unwrap();
}

#[test]
fn a_recovered_document_saves_exactly_like_the_one_that_was_open_in_every_format() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    let files = [
        "corpus/mugen/kfm/kfm.def", // with its .air as a companion original
        "corpus/solarus/lua-1.x/zsdx/sprites/hero/tunic1.dat",
        "corpus/solarus/dat-0.9/sprites/hud/magic_bar.dat",
        "corpus/adl/mods/basegame/sprites/taimu.properties",
        "corpus/solarus/zsd/sprites/hud/magic_bar.zsd",
        "spec/isprite-minimal.isprite",
    ];
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat");
    let paths: Vec<PathBuf> = files.iter().map(|f| corpus.join(f)).chain([demo]).collect();
    for path in paths {
        let dir = tempfile::tempdir().unwrap();
        let store = RecoveryStore::new(dir.path().join("recovery"));
        let mut open = Session::open(&path, &ReadContext::default()).unwrap();
        open.enable_autosave(store.clone());
        lengthen_first_frame(&mut open);
        let t0 = Instant::now();
        open.tick(t0);
        assert!(
            open.tick(t0 + AUTOSAVE_INTERVAL).autosaved.is_some(),
            "{path:?} autosaved"
        );
        let found = store.list();
        assert_eq!(found.len(), 1, "{path:?}");
        let recovered = store.recover(&found[0]).unwrap();
        let format = open.format().id().to_string();
        let expected = open.prepare_save_as(&path, &format, None).unwrap();
        let got = recovered.prepare_save_as(&path, &format, None).unwrap();
        assert!(
            got.written().bytes == expected.written().bytes,
            "{path:?}: the recovered document writes other bytes"
        );
        let names = |p: &sprat::session::PendingSave| -> Vec<(String, Vec<u8>)> {
            p.written()
                .companions
                .iter()
                .map(|c| (c.relative_path.clone(), c.bytes.clone()))
                .collect()
        };
        assert!(
            names(&got) == names(&expected),
            "{path:?}: companions differ"
        );
        assert_eq!(got.losses(), expected.losses(), "{path:?}");
        assert_eq!(recovered.diagnostics(), open.diagnostics(), "{path:?}");
        assert_eq!(
            recovered.document().companion_originals,
            open.document().companion_originals,
            "{path:?}"
        );
    }
}

#[test]
fn a_save_onto_a_read_only_file_fails_with_its_reason_until_the_user_allows_it() {
    let (_guard, dir) = scratch("read-only-file");
    let path = sample_file(&dir);
    let mut permissions = fs::metadata(&path).unwrap().permissions();
    permissions.set_readonly(true);
    fs::set_permissions(&path, permissions).unwrap();
    let before = fs::read(&path).unwrap();
    let mut session = Session::open(&path, &ReadContext::default()).unwrap();
    rename(&mut session, "stroll");
    // Refused even for the administrator, who could open the file: its mode says read-only.
    let error = session
        .save(None)
        .expect_err("a read-only file is not replaced");
    let refused = error.refused.as_ref().expect("a typed reason");
    assert_eq!(
        refused.reason,
        sprat::session::target::RefusalReason::ReadOnly
    );
    assert!(error.message.contains("read-only"), "{}", error.message);
    assert_eq!(fs::read(&path).unwrap(), before, "the file is intact");
    assert!(session.is_dirty());
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    // The user says yes: replaced, still read-only.
    let mut pending = session
        .prepare_save_as(&path, SpratFormat.id(), None)
        .unwrap();
    pending.confirm_read_only();
    session.commit_save_as(pending).unwrap();
    assert_ne!(fs::read(&path).unwrap(), before);
    assert!(fs::metadata(&path).unwrap().permissions().readonly());
    assert!(!session.is_dirty());
}

#[test]
fn save_as_another_format_never_writes_over_a_file_the_document_reads() {
    let (_guard, dir) = scratch("save-as-over-its-sheet");
    let path = sample_file(&dir);
    let sheet = dir.join("hero.png");
    let before = fs::read(&sheet).unwrap();
    let mut session = Session::open(&path, &ReadContext::default()).unwrap();
    let pending = session.prepare_save_as(&sheet, "mugen-air", None).unwrap();
    let error = session
        .commit_save_as(pending)
        .expect_err("the sheet is not replaced by an .air");
    assert_eq!(
        error.refused.map(|r| r.reason),
        Some(sprat::session::target::RefusalReason::ReadByDocument),
        "{}",
        error.message
    );
    assert_eq!(fs::read(&sheet).unwrap(), before);
}

/// Copies a corpus file (kept read-only) as a user's own, writable copy: a save refuses to
/// replace a file without write permission.
fn copy_writable(from: &Path, to: &Path) {
    fs::copy(from, to).unwrap();
    let mut permissions = fs::metadata(to).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    permissions.set_readonly(false);
    fs::set_permissions(to, permissions).unwrap();
}

#[test]
fn a_save_writes_outside_its_folder_only_once_that_path_is_confirmed() {
    let dir = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/mugen/kfm");
    let (evil, outside) = (dir.path().join("evil"), dir.path().join("outside"));
    fs::create_dir_all(&evil).unwrap();
    fs::create_dir_all(&outside).unwrap();
    copy_writable(&source.join("kfm.sff"), &evil.join("kfm.sff"));
    copy_writable(&source.join("kfm.air"), &outside.join("kfm.air"));
    let def = fs::read_to_string(source.join("kfm.def"))
        .unwrap()
        .replace("anim    = kfm.air", "anim    = ../outside/kfm.air");
    let path = evil.join("char.def");
    fs::write(&path, def).unwrap();
    let before = fs::read(outside.join("kfm.air")).unwrap();

    let mut session = Session::open(&path, &ReadContext::default()).unwrap();
    lengthen_first_frame(&mut session);
    let error = session.save(None).unwrap_err();
    assert!(
        error.message.contains("outside the folder") && error.message.contains("kfm.air"),
        "{}",
        error.message
    );
    assert_eq!(fs::read(outside.join("kfm.air")).unwrap(), before);

    let mut pending = session.prepare_save_as(&path, "mugen-def", None).unwrap();
    assert_eq!(pending.writes_outside(), [evil.join("../outside/kfm.air")]);
    assert!(pending.needs_confirmation());
    pending.confirm_outside();
    assert!(!pending.needs_confirmation());
    session.commit_save_as(pending).unwrap();
    assert_ne!(fs::read(outside.join("kfm.air")).unwrap(), before);
}

#[test]
fn an_autosave_in_the_background_writes_the_same_recovery_and_reports_it_later() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample_file(dir.path());
    let store = RecoveryStore::new(dir.path().join("recovery"));
    let mut session = Session::open(&path, &ReadContext::default()).unwrap();
    session.enable_autosave(store.clone());
    session.autosave_in_background();
    rename(&mut session, "stroll");
    let t0 = Instant::now();
    session.tick(t0);
    let due = t0 + AUTOSAVE_INTERVAL;
    assert_eq!(
        session.tick(due).autosaved,
        None,
        "the tick only starts the write"
    );
    assert!(session.autosave_writing());
    assert!(
        session.autosave_due_in(due).is_some(),
        "the editor looks again soon"
    );
    let mut reported = None;
    for _ in 0..500 {
        reported = session.tick(due).autosaved;
        if reported.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(reported.as_deref(), session.recovery_folder());
    assert!(!session.autosave_writing());
    let found = store.list();
    assert_eq!(found.len(), 1);
    let recovered = store.recover(&found[0]).unwrap();
    assert_eq!(recovered.document(), session.document());
    // Saving removes the recovery, waiting for a write under way first (else the write
    // would bring the folder back).
    rename(&mut session, "walk again");
    let t1 = due + AUTOSAVE_INTERVAL;
    session.tick(t1);
    session.tick(t1 + AUTOSAVE_INTERVAL);
    assert!(session.autosave_writing(), "a second write is under way");
    session.save(None).unwrap();
    assert!(!session.autosave_writing());
    assert!(store.list().is_empty());
    assert!(
        !dir.path()
            .join("recovery")
            .read_dir()
            .unwrap()
            .any(|_| true)
    );
}

#[test]
fn autosave_now_writes_the_last_edit_at_once_after_a_write_under_way() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample_file(dir.path());
    let store = RecoveryStore::new(dir.path().join("recovery"));
    let mut session = Session::open(&path, &ReadContext::default()).unwrap();
    session.enable_autosave(store.clone());
    session.autosave_in_background();
    // An earlier edit is being written on its thread when a later one comes.
    rename(&mut session, "stroll");
    let t0 = Instant::now();
    session.tick(t0);
    session.tick(t0 + AUTOSAVE_INTERVAL);
    assert!(session.autosave_writing());
    rename(&mut session, "saunter");

    // Told to stop a moment later: the recovery holds the last edit, written before it returns.
    let report = session.autosave_now();
    assert_eq!(report.autosaved.as_deref(), session.recovery_folder());
    assert!(!session.autosave_writing());
    let found = store.list();
    assert_eq!(found.len(), 1);
    let recovered = store.recover(&found[0]).unwrap();
    assert_eq!(recovered.document(), session.document());
    // Nothing new to write: nothing written.
    assert_eq!(session.autosave_now(), TickReport::default());
}

#[test]
fn a_recovered_character_keeps_its_edited_archive_and_edited_act_palette() {
    let dir = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/mugen/kfm");
    for name in ["kfm.air", "kfm.sff"] {
        copy_writable(&source.join(name), &dir.path().join(name));
    }
    let def = fs::read_to_string(source.join("kfm.def"))
        .unwrap()
        .replacen(
            "anim    = kfm.air",
            "anim    = kfm.air\npal1    = mine.act",
            1,
        );
    let path = dir.path().join("kfm.def");
    fs::write(&path, def).unwrap();
    fs::write(dir.path().join("mine.act"), vec![7u8; 768]).unwrap();

    let store = RecoveryStore::new(dir.path().join("recovery"));
    let mut open = Session::open(&path, &ReadContext::default()).unwrap();
    open.enable_autosave(store.clone());
    let archive = open
        .document()
        .images
        .iter()
        .find(|i| matches!(i.kind, ImageKind::Sff { .. }))
        .unwrap()
        .id;
    let pixels = sprat::assets::ImageStore::new();
    let mut sff =
        sprat::formats::sff::document::edit_archive(open.document(), archive, pixels.sff())
            .unwrap();
    sff.set_axis(0, 0, (1, 2)).unwrap();
    open.apply(
        &sprat::edit::sprites::ChangeSprites {
            label: "axis".into(),
            image: archive,
            archive: sff,
            renumbered: Vec::new(),
            cleared: Vec::new(),
        },
        None,
    )
    .unwrap();
    open.apply(
        &sprat::edit::sprites::SetActPalette {
            image: archive,
            palette: 0,
            bytes: std::sync::Arc::new(vec![9u8; 768]),
        },
        None,
    )
    .unwrap();
    let t0 = Instant::now();
    open.tick(t0);
    assert!(open.tick(t0 + AUTOSAVE_INTERVAL).autosaved.is_some());
    let recovered = store.recover(&store.list()[0]).unwrap();
    assert_eq!(
        recovered.document().edited_files,
        open.document().edited_files
    );
    let expected = open.prepare_save_as(&path, "mugen-def", None).unwrap();
    let got = recovered.prepare_save_as(&path, "mugen-def", None).unwrap();
    let names = |p: &sprat::session::PendingSave| -> Vec<(String, Vec<u8>)> {
        p.written()
            .companions
            .iter()
            .map(|c| (c.relative_path.clone(), c.bytes.clone()))
            .collect()
    };
    let written = names(&got);
    assert!(written == names(&expected), "the same files");
    assert!(
        written
            .iter()
            .any(|(name, bytes)| name == "mine.act" && *bytes == vec![9u8; 768]),
        "the edited .act is written to its file"
    );
}
