//! The arithmetic and picture analysis behind the multi-frame tools, free of the document's
//! edit machinery: [`retime`] (new durations in whole units without drift) and [`anchor`]
//! (where a frame's feet, centre or point is). The commands that apply them are in
//! [`crate::edit::retime`] and [`crate::edit::align`]; finding sprites on a sheet is in
//! [`crate::assets::sprites`].

pub mod anchor;
pub mod retime;
