//! Editing the hierarchy tree through the real editor: rename in place, add, duplicate,
//! delete and undo, reorder by drag, the default sequence, and directions of a Solarus sprite.

use crate::{common, gui_support};

use gui_support::{click_row, drag, status, undo};

use egui::accesskit::Role;
use egui::{Key, Modifiers, pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use sprat::app::SpratApp;
use sprat::model::{AnimationSet, TreeItem};
use std::path::{Path, PathBuf};

/// The showcase set written as a Sprat project in a fresh folder.
fn showcase_file(name: &str) -> (gui_support::TempDir, PathBuf) {
    gui_support::showcase_file("gui-tree", name)
}

/// The editor with `path` opened through File > Open.
fn editor_on(path: &Path) -> Harness<'static, SpratApp> {
    gui_support::editor_opening(path, &[], egui::vec2(1280.0, 800.0))
}

fn document(harness: &Harness<'_, SpratApp>) -> AnimationSet {
    harness
        .state()
        .active_document()
        .unwrap()
        .document()
        .clone()
}

fn names(items: &[TreeItem]) -> Vec<String> {
    items
        .iter()
        .map(|item| match item {
            TreeItem::Group(g) => format!("[{}]", g.name),
            TreeItem::Sequence(s) => s.name.clone(),
        })
        .collect()
}

/// Types into the focused field (the rename field selects its text when it opens).
fn type_text(harness: &mut Harness<'_, SpratApp>, text: &str) {
    harness.event(egui::Event::Text(text.to_string()));
    harness.run_steps(1);
}

#[test]
fn f2_renames_in_place_enter_commits_and_a_taken_name_is_shown_not_lost() {
    let (_path_dir, path) = showcase_file("rename");
    let mut harness = editor_on(&path);
    click_row(&mut harness, "punch");

    harness.key_press(Key::F2);
    harness.run_steps(2);
    type_text(&mut harness, "guard");
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    let doc = document(&harness);
    assert!(
        doc.sequence_by_name("punch").is_some(),
        "a taken name is refused"
    );
    assert!(
        status(&harness).contains("already named"),
        "{}",
        status(&harness)
    );
    // The refused text stays in the field with the reason beside it.
    assert_eq!(
        harness
            .get_all_by_label_contains("already named \"guard\"")
            .count(),
        2,
        "beside the field and in the status bar"
    );
    assert_eq!(
        harness
            .state()
            .active_tab()
            .unwrap()
            .tree
            .renaming
            .as_ref()
            .map(|r| r.text.as_str()),
        Some("guard")
    );

    // The field has taken the focus back with its text selected: typing replaces it.
    type_text(&mut harness, "jab");
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    let doc = document(&harness);
    assert!(doc.sequence_by_name("punch").is_none());
    assert_eq!(
        doc.sequence_by_name("jab").unwrap().directions[0]
            .frames
            .len(),
        5
    );
    assert!(
        harness
            .state()
            .active_tab()
            .unwrap()
            .tree
            .renaming
            .is_none()
    );
    harness.get_by_role_and_label(Role::Button, "jab");

    // Esc cancels without a change; one undo brings the old name back.
    harness.key_press(Key::F2);
    harness.run_steps(2);
    type_text(&mut harness, "hook");
    harness.key_press(Key::Escape);
    harness.run_steps(2);
    assert!(document(&harness).sequence_by_name("hook").is_none());
    assert!(
        harness
            .state()
            .active_tab()
            .unwrap()
            .tree
            .renaming
            .is_none()
    );
    undo(&mut harness);
    assert!(document(&harness).sequence_by_name("punch").is_some());
}

#[test]
fn add_duplicate_and_delete_a_sequence_and_undo_each() {
    let (_path_dir, path) = showcase_file("add");
    let mut harness = editor_on(&path);
    let opened = document(&harness);
    click_row(&mut harness, "punch");

    // Add: lands after the selected sequence, in its group, with its name open for editing.
    harness
        .get_by_role_and_label(Role::Button, "Add sequence")
        .click();
    harness.run_steps(2);
    let doc = document(&harness);
    let TreeItem::Group(combat) = &doc.root.items[2] else {
        panic!("the combat group moved")
    };
    assert_eq!(names(&combat.items), ["punch", "new sequence", "guard"]);
    type_text(&mut harness, "kick");
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    assert!(document(&harness).sequence_by_name("kick").is_some());
    undo(&mut harness);
    undo(&mut harness);
    assert_eq!(document(&harness), opened);

    // Duplicate with Ctrl+D: a copy with its own frames.
    click_row(&mut harness, "punch");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::D);
    harness.run_steps(2);
    let doc = document(&harness);
    let copy = doc.sequence_by_name("punch copy").expect("the copy");
    let original = doc.sequence_by_name("punch").unwrap();
    assert_eq!(copy.directions[0].frames.len(), 5);
    assert!(
        copy.directions[0]
            .frames
            .iter()
            .all(|f| !original.directions[0].frames.contains(f))
    );
    undo(&mut harness);
    assert_eq!(document(&harness), opened);

    // Delete with the Delete key (no frame is selected: the tree row is the target).
    click_row(&mut harness, "punch");
    harness.key_press(Key::Delete);
    harness.run_steps(2);
    let doc = document(&harness);
    assert!(doc.sequence_by_name("punch").is_none());
    assert_eq!(doc.frames.len(), opened.frames.len() - 5);
    undo(&mut harness);
    assert_eq!(document(&harness), opened);
}

#[test]
fn sequences_are_reordered_by_dragging_them_in_the_tree() {
    let (_path_dir, path) = showcase_file("drag");
    let mut harness = editor_on(&path);
    assert_eq!(
        names(&document(&harness).root.items),
        ["idle", "walk", "[combat]"]
    );

    let from = harness
        .get_by_role_and_label(Role::Button, "idle")
        .rect()
        .center();
    let walk = harness.get_by_role_and_label(Role::Button, "walk").rect();
    // The lower half of the "walk" row drops after it.
    let to = pos2(walk.center().x, walk.bottom() - 2.0);
    drag(&mut harness, from, to);
    assert_eq!(
        names(&document(&harness).root.items),
        ["walk", "idle", "[combat]"]
    );
    assert_eq!(gui_support::undo_steps(&harness), 1, "one undo step");

    // Dropped on the middle of a group's row, a sequence goes into that group.
    let from = harness
        .get_by_role_and_label(Role::Button, "idle")
        .rect()
        .center();
    let combat = harness.get_by_role_and_label(Role::Button, "combat").rect();
    drag(&mut harness, from, combat.center() + vec2(0.0, 1.0));
    let doc = document(&harness);
    assert_eq!(names(&doc.root.items), ["walk", "[combat]"]);
    let TreeItem::Group(group) = &doc.root.items[1] else {
        panic!()
    };
    assert_eq!(names(&group.items), ["punch", "guard", "idle"]);

    undo(&mut harness);
    undo(&mut harness);
    assert_eq!(
        names(&document(&harness).root.items),
        ["idle", "walk", "[combat]"]
    );
}

#[test]
fn the_context_menu_sets_the_default_sequence() {
    let (_path_dir, path) = showcase_file("default");
    let mut harness = editor_on(&path);
    let walk = document(&harness).sequence_by_name("walk").unwrap().id;
    harness
        .get_by_role_and_label(Role::Button, "walk")
        .click_secondary();
    harness.run_steps(2);
    // The menu lists the actions with their shortcuts.
    harness.get_by_label("Rename sequence F2");
    harness.get_by_label("Delete sequence Delete / Backspace");
    harness.get_by_label("Duplicate sequence Ctrl+D");
    harness
        .get_by_label_contains("Set as default sequence")
        .click();
    harness.run_steps(2);
    assert_eq!(document(&harness).default_sequence, Some(walk));
    harness.get_by_label_contains("default ·");
    undo(&mut harness);
    assert_ne!(document(&harness).default_sequence, Some(walk));
}

#[test]
fn a_direction_is_added_and_deleted_on_a_solarus_sprite() {
    let path = common::corpus().join("solarus/lua-1.x/zsdx/sprites/hero/tunic1.dat");
    let mut harness = editor_on(&path);
    assert_eq!(
        harness.state().active_document().unwrap().format_id(),
        "solarus-lua"
    );
    click_row(&mut harness, "walking");
    let directions = |harness: &Harness<'_, SpratApp>| {
        document(harness)
            .sequence_by_name("walking")
            .unwrap()
            .directions
            .len()
    };
    assert_eq!(directions(&harness), 4);

    harness
        .get_by_role_and_label(Role::Button, "Add direction")
        .click();
    harness.run_steps(2);
    assert_eq!(directions(&harness), 5);
    let doc = harness.state().active_document().unwrap();
    assert_eq!(doc.player.direction(), 4, "the new direction is on show");

    // Delete acts on the new direction (its row is the selected one, no frame is selected).
    harness.key_press(Key::Delete);
    harness.run_steps(2);
    assert_eq!(directions(&harness), 4);
    assert!(document(&harness).sequence_by_name("walking").is_some());
    undo(&mut harness);
    assert_eq!(directions(&harness), 5);
    undo(&mut harness);
    assert_eq!(directions(&harness), 4);

    // Directions are reordered by dragging their rows: "left" dropped above "right".
    let order = |harness: &Harness<'_, SpratApp>| {
        document(harness)
            .sequence_by_name("walking")
            .unwrap()
            .directions[..]
            .iter()
            .map(|d| d.id)
            .collect::<Vec<_>>()
    };
    let before = order(&harness);
    // Every four-way animation has rows with these names: take those under "walking".
    let walking = harness
        .get_by_role_and_label(Role::Button, "walking")
        .rect()
        .top();
    let row = |harness: &Harness<'_, SpratApp>, label: &str| {
        harness
            .get_all_by_label(label)
            .map(|n| n.rect())
            .filter(|r| r.center().x < 240.0 && r.top() > walking)
            .min_by(|a, b| a.top().total_cmp(&b.top()))
            .unwrap_or_else(|| panic!("no tree row {label}"))
    };
    let from = row(&harness, "left").center();
    let right = row(&harness, "right");
    drag(
        &mut harness,
        from,
        pos2(right.center().x, right.top() + 2.0),
    );
    assert_eq!(
        order(&harness),
        [before[2], before[0], before[1], before[3]]
    );
    undo(&mut harness);
    assert_eq!(order(&harness), before);
}

#[test]
fn a_group_is_renamed_and_deleted_with_its_sequences() {
    let (_path_dir, path) = showcase_file("group");
    let mut harness = editor_on(&path);
    let opened = document(&harness);
    click_row(&mut harness, "combat");
    assert!(
        harness
            .state()
            .active_document()
            .unwrap()
            .session
            .selection()
            .group
            .is_some()
    );

    harness.key_press(Key::F2);
    harness.run_steps(2);
    type_text(&mut harness, "fights");
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    assert_eq!(
        names(&document(&harness).root.items),
        ["idle", "walk", "[fights]"]
    );

    harness.key_press(Key::Delete);
    harness.run_steps(2);
    let doc = document(&harness);
    assert_eq!(names(&doc.root.items), ["idle", "walk"]);
    assert!(doc.sequence_by_name("punch").is_none() && doc.sequence_by_name("guard").is_none());

    undo(&mut harness);
    undo(&mut harness);
    assert_eq!(document(&harness), opened);
}

#[test]
fn a_new_mugen_action_gets_the_next_free_number_and_its_name_field_in_view() {
    let path = common::corpus().join("mugen/kfm/kfm.def");
    let mut harness = editor_on(&path);
    // Alt+Up from the first action wraps to the last one, far down the list.
    harness.key_press_modifiers(Modifiers::ALT, Key::ArrowUp);
    harness.run_steps(2);
    let last = harness.state().active_document().unwrap().player.sequence();
    let highest = document(&harness)
        .sequences()
        .iter()
        .map(|s| s.name.parse::<i64>().unwrap())
        .max()
        .unwrap();
    harness
        .get_by_role_and_label(Role::Button, "Add sequence")
        .click();
    harness.run_steps(3);
    let doc = document(&harness);
    let added = doc
        .sequence_by_name(&(highest + 1).to_string())
        .expect("the new action");
    assert_ne!(added.id, last);
    let field = harness
        .get_all_by_role(Role::TextInput)
        .find(|n| n.is_focused())
        .expect("the name field is on screen and focused");
    assert_eq!(
        field.value().as_deref(),
        Some((highest + 1).to_string().as_str())
    );
}

#[test]
fn mugen_action_titles_show_in_the_tree_and_inspector_and_the_filter_finds_them() {
    let dir = gui_support::TempDir::new("gui-tree-titles");
    let source = common::corpus().join("mugen/kfm");
    for name in ["kfm.def", "kfm.air", "kfm.sff"] {
        crate::common::copy_writable(&source.join(name), &dir.0.join(name));
    }
    let mut harness = editor_on(&dir.0.join("kfm.def"));
    // The comment line above [Begin Action 0] is shown beside the number.
    click_row(&mut harness, "0 · Standing Animation");
    let title = harness.get_by_role_and_label(Role::TextInput, "Title");
    assert_eq!(title.value().as_deref(), Some("Standing Animation"));

    // The filter matches titles, not just numbers.
    gui_support::type_into(&mut harness, "Filter", "crouching anim");
    harness.run_steps(2);
    assert!(
        harness
            .query_by_role_and_label(Role::Button, "11 · Crouching animation")
            .is_some()
    );
    assert!(
        harness
            .query_by_role_and_label(Role::Button, "0 · Standing Animation")
            .is_none()
    );

    // Retitling edits the document (and only the comment line on save: tests/mugen_edit.rs).
    click_row(&mut harness, "11 · Crouching animation");
    gui_support::type_into(&mut harness, "Title", " (low)");
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    let doc = document(&harness);
    assert_eq!(
        doc.sequence_by_name("11").unwrap().title.as_deref(),
        Some("Crouching animation (low)")
    );
}

#[test]
fn enter_in_the_filter_shows_the_first_match_when_the_sequence_on_show_is_filtered_out() {
    let dir = gui_support::TempDir::new("gui-tree-filter-enter");
    let source = common::corpus().join("mugen/kfm");
    for name in ["kfm.def", "kfm.air", "kfm.sff"] {
        crate::common::copy_writable(&source.join(name), &dir.0.join(name));
    }
    let mut harness = editor_on(&dir.0.join("kfm.def"));
    let shown = |harness: &Harness<'_, SpratApp>| {
        let doc = harness.state().active_document().unwrap();
        doc.sequence().unwrap().name.clone()
    };
    assert_eq!(shown(&harness), "0");
    gui_support::type_into(&mut harness, "Filter", "200");
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    assert_eq!(shown(&harness), "200", "Enter takes the first match");

    // A match already on show stays: Enter again does not move on to the next match (1200).
    harness
        .get_by_role_and_label(Role::TextInput, "Filter")
        .focus();
    harness.run();
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    assert_eq!(shown(&harness), "200");
}

#[test]
fn clicking_a_rows_grey_counts_selects_the_row_as_its_name_does() {
    let (_path_dir, path) = showcase_file("whole-row");
    let mut harness = editor_on(&path);
    click_row(&mut harness, "punch");
    let sequence = |harness: &Harness<'_, SpratApp>| {
        let doc = harness.state().active_document().unwrap();
        doc.sequence().unwrap().name.clone()
    };
    assert_eq!(sequence(&harness), "punch");

    // The grey text on the guard row: its frame count and duration, under the name.
    let name = harness.get_by_role_and_label(Role::Button, "guard").rect();
    let details = harness
        .get_all_by_label_contains(" frames")
        .find(|n| {
            let r = n.rect();
            r.top() >= name.bottom() - 1.0 && r.top() <= name.bottom() + 8.0
        })
        .expect("the guard row shows its counts under its name");
    let text = details
        .value()
        .or_else(|| details.accesskit_node().label())
        .unwrap_or_default();
    assert!(
        text.starts_with("2 frames"),
        "the guard row's counts: {text}"
    );
    details.click();
    harness.run_steps(2);
    assert_eq!(
        sequence(&harness),
        "guard",
        "clicking {text:?} selects its row"
    );
}
