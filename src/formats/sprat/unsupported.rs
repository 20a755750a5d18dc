//! What the fast RON reader and writer answer when a text or a value is outside their part of
//! RON: the caller then leaves the work to `ron`, so the answer carries no detail.

use serde::{de, ser};
use std::fmt;

/// The text or value needs something only `ron` reads or writes, or is not valid.
#[derive(Debug)]
pub struct Unsupported;

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("outside the part of RON the fast reader and writer handle")
    }
}

impl std::error::Error for Unsupported {}

impl de::Error for Unsupported {
    fn custom<T: fmt::Display>(_message: T) -> Self {
        Unsupported
    }
}

impl ser::Error for Unsupported {
    fn custom<T: fmt::Display>(_message: T) -> Self {
        Unsupported
    }
}
