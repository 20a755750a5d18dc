//! The name of a tab, on its own so that the tabs and what refers to them (sequences hung from
//! another tab's document) need not refer to each other.

/// Names a tab for as long as it is open; ids are never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TabId(pub u64);
