//! The arithmetic behind the multi-frame tools, free of the document's edit machinery:
//! [`retime`] (new durations in whole units without drift), applied by
//! [`crate::edit::retime`].

pub mod retime;
