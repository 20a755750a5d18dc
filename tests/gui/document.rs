//! The editor's view of an open document: tree filter, navigation and duration read-outs.

use crate::gui_support;

use sprat::app::context::document::{OpenDocument, total_duration_text, total_native};

fn demo() -> OpenDocument {
    OpenDocument::new(
        gui_support::showcase(),
        None,
        &sprat::formats::sprat::SpratFormat,
        Vec::new(),
    )
}

fn names(open: &OpenDocument, filter: &str) -> Vec<String> {
    open.filtered_sequences(filter)
        .into_iter()
        .map(|id| open.session.document().sequence(id).unwrap().name.clone())
        .collect()
}

#[test]
fn the_filter_matches_sequence_names_and_whole_groups() {
    let open = demo();
    assert_eq!(names(&open, ""), ["idle", "walk", "punch", "guard"]);
    assert_eq!(names(&open, "UN"), ["punch"]);
    assert_eq!(names(&open, "combat"), ["punch", "guard"]);
    assert!(names(&open, "nothing").is_empty());
}

#[test]
fn neighbour_navigation_wraps_within_the_filter() {
    let mut open = demo();
    assert_eq!(open.sequence().unwrap().name, "idle");
    open.select_neighbour_sequence("", -1);
    assert_eq!(open.sequence().unwrap().name, "guard");
    open.select_neighbour_sequence("combat", 1);
    assert_eq!(open.sequence().unwrap().name, "punch");
}

#[test]
fn totals_read_in_native_units_and_forever_shows() {
    let open = demo();
    let punch = open.session.document().sequence_by_name("punch").unwrap();
    let frames = open.session.document().direction_frames(punch, 0);
    assert_eq!(total_native(&frames).as_deref(), Some("21 ticks"));
    assert_eq!(total_duration_text(&frames, 0), "350 ms");
    let guard = open.session.document().sequence_by_name("guard").unwrap();
    assert_eq!(
        total_duration_text(&open.session.document().direction_frames(guard, 0), 0),
        "∞"
    );
}
