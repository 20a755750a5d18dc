//! Names shared between the many elements that carry the same one.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

/// An element's name: immutable text that every clone shares, so the frames naming the same
/// joint or layer (an ADL file names two elements after each joint in every frame) hold it
/// once instead of once each. Empty when unnamed, which holds no text at all. It compares,
/// hashes, orders and prints as its text.
#[derive(Clone, Default)]
pub struct Name(Option<Arc<str>>);

impl Name {
    /// The name's text.
    pub fn as_str(&self) -> &str {
        self.0.as_deref().unwrap_or("")
    }

    /// True when unnamed.
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }
}

impl Deref for Name {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Name {
    fn from(text: &str) -> Name {
        Name((!text.is_empty()).then(|| Arc::from(text)))
    }
}

impl From<String> for Name {
    fn from(text: String) -> Name {
        Name((!text.is_empty()).then(|| Arc::from(text)))
    }
}

impl From<&String> for Name {
    fn from(text: &String) -> Name {
        Name::from(text.as_str())
    }
}

impl From<&Name> for String {
    fn from(name: &Name) -> String {
        name.as_str().to_string()
    }
}

impl From<Name> for String {
    fn from(name: Name) -> String {
        name.as_str().to_string()
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Name {}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        self == other.as_str()
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Name) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

// As its text, so a name can be looked up by `&str` in maps keyed by names (`Borrow<str>`).
impl Hash for Name {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Name, D::Error> {
        String::deserialize(deserializer).map(Name::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_one_text_and_the_empty_name_holds_none() {
        let name = Name::from("LEG_REST_RIGHT");
        let copy = name.clone();
        assert!(std::ptr::eq(name.as_str(), copy.as_str()));
        assert_eq!(Name::from(String::new()), Name::default());
        assert!(Name::from("").is_empty());
        assert_eq!(Name::from("").as_str(), "");
    }

    #[test]
    fn compares_hashes_and_prints_as_its_text() {
        use std::collections::HashSet;
        let name = Name::from("TAIL_0");
        assert_eq!(name, "TAIL_0");
        assert_eq!("TAIL_0".to_string(), name);
        let (a, b) = (Name::from("A"), Name::from("B"));
        assert!(a < b);
        let set: HashSet<Name> = [name.clone()].into_iter().collect();
        assert!(set.contains("TAIL_0"));
        assert_eq!(format!("{name} {name:?}"), "TAIL_0 \"TAIL_0\"");
    }
}
