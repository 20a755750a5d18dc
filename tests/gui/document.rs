//! The editor's view of an open document: tree filter, navigation and duration read-outs.

use crate::gui_support;

use sprat::app::context::document::OpenDocument;
use sprat::app::context::duration_text::{total_duration_text, total_native};

fn demo() -> OpenDocument {
    OpenDocument::new(
        gui_support::showcase(),
        None,
        &sprat::formats::sprat::SpratFormat,
        Vec::new(),
    )
}

fn names(doc: &OpenDocument, filter: &str) -> Vec<String> {
    doc.filtered_sequences(filter)
        .into_iter()
        .map(|id| doc.session.document().sequence(id).unwrap().name.clone())
        .collect()
}

#[test]
fn the_filter_matches_sequence_names_and_whole_groups() {
    let doc = demo();
    assert_eq!(names(&doc, ""), ["idle", "walk", "punch", "guard"]);
    assert_eq!(names(&doc, "UN"), ["punch"]);
    assert_eq!(names(&doc, "combat"), ["punch", "guard"]);
    assert!(names(&doc, "nothing").is_empty());
}

#[test]
fn neighbour_navigation_wraps_within_the_filter() {
    let mut doc = demo();
    assert_eq!(doc.sequence().unwrap().name, "idle");
    doc.select_neighbour_sequence("", -1);
    assert_eq!(doc.sequence().unwrap().name, "guard");
    doc.select_neighbour_sequence("combat", 1);
    assert_eq!(doc.sequence().unwrap().name, "punch");
}

#[test]
fn totals_read_in_native_units_and_forever_shows() {
    let doc = demo();
    let punch = doc.session.document().sequence_by_name("punch").unwrap();
    let frames = doc.session.document().direction_frames(punch, 0);
    assert_eq!(total_native(&frames).as_deref(), Some("21 ticks"));
    assert_eq!(total_duration_text(&frames, 0), "350 ms");
    let guard = doc.session.document().sequence_by_name("guard").unwrap();
    assert_eq!(
        total_duration_text(&doc.session.document().direction_frames(guard, 0), 0),
        "∞"
    );
}
