//! Which boxes are hit boxes and which hurt boxes, for the checks that need to know.
//!
//! Some formats say it (M.U.G.E.N's `Clsn1` and `Clsn2`, Sprat's own classes: their
//! [`Capabilities::box_classes_known`](crate::formats::Capabilities) is set). Others only name
//! their boxes (an Aseprite slice is a name, "Hitbox" or "Body" or "Door"): there, only the
//! names the user said are hit and hurt boxes count as such. That answer is a per-document
//! setting: kept in the document's metadata where the format keeps it (a Sprat project), else
//! given by the caller from Sprat's settings.

use crate::model::{AnimationSet, BoxClass};
use serde::{Deserialize, Serialize};

/// The metadata keys under which a document keeps the names of its hit and hurt boxes
/// (comma-separated).
pub const HIT_NAMES_KEY: &str = "sprat.hit_boxes";
/// See [`HIT_NAMES_KEY`].
pub const HURT_NAMES_KEY: &str = "sprat.hurt_boxes";

/// What a box is for, as far as the hit/hurt checks go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// It hits (M.U.G.E.N `Clsn1`).
    Hit,
    /// It can be hit (M.U.G.E.N `Clsn2`).
    Hurt,
}

/// The box classes (names) the user said are hit boxes and hurt boxes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoxRoles {
    /// Class names that are hit boxes.
    pub hit: Vec<String>,
    /// Class names that are hurt boxes.
    pub hurt: Vec<String>,
}

impl BoxRoles {
    /// The roles `document` keeps in its metadata (none when it keeps none).
    pub fn of_document(document: &AnimationSet) -> BoxRoles {
        let names = |key: &str| -> Vec<String> {
            document
                .metadata
                .extra
                .iter()
                .filter(|(k, _)| k == key)
                .flat_map(|(_, v)| v.split(','))
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(str::to_string)
                .collect()
        };
        BoxRoles {
            hit: names(HIT_NAMES_KEY),
            hurt: names(HURT_NAMES_KEY),
        }
    }

    /// These roles added to `other`'s (the document's own with the caller's settings).
    pub fn with(mut self, other: &BoxRoles) -> BoxRoles {
        for name in &other.hit {
            if !self.hit.contains(name) {
                self.hit.push(name.clone());
            }
        }
        for name in &other.hurt {
            if !self.hurt.contains(name) {
                self.hurt.push(name.clone());
            }
        }
        self
    }

    /// Writes these roles into `document`'s metadata (replacing what it kept), for formats
    /// that keep metadata; an empty list removes its key.
    pub fn store_in(&self, document: &mut AnimationSet) {
        let extra = &mut document.metadata.extra;
        extra.retain(|(k, _)| k != HIT_NAMES_KEY && k != HURT_NAMES_KEY);
        for (key, names) in [(HIT_NAMES_KEY, &self.hit), (HURT_NAMES_KEY, &self.hurt)] {
            if !names.is_empty() {
                extra.push((key.to_string(), names.join(", ")));
            }
        }
    }

    /// The role of a box of `class`: the class's own where the format says which box is
    /// which (`classes_known`), else the role the user gave its name, if any.
    pub fn role_of(&self, class: &BoxClass, classes_known: bool) -> Option<Role> {
        let named = |name: &str| {
            if self.hit.iter().any(|n| n == name) {
                Some(Role::Hit)
            } else if self.hurt.iter().any(|n| n == name) {
                Some(Role::Hurt)
            } else {
                None
            }
        };
        match class {
            BoxClass::Hit if classes_known => Some(Role::Hit),
            BoxClass::Hurt if classes_known => Some(Role::Hurt),
            BoxClass::Hit => named("hit"),
            BoxClass::Hurt => named("hurt"),
            BoxClass::Custom(name) => named(name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_come_from_the_format_or_from_the_names_the_user_gave() {
        let mut document = AnimationSet::new();
        assert_eq!(BoxRoles::of_document(&document), BoxRoles::default());
        let roles = BoxRoles {
            hit: vec!["Hitbox".into()],
            hurt: vec!["Body".into(), "Head".into()],
        };
        roles.store_in(&mut document);
        let kept = BoxRoles::of_document(&document);
        assert_eq!(kept, roles);
        let hitbox = BoxClass::Custom("Hitbox".into());
        assert_eq!(kept.role_of(&hitbox, false), Some(Role::Hit));
        assert_eq!(
            kept.role_of(&BoxClass::Custom("Head".into()), false),
            Some(Role::Hurt)
        );
        assert_eq!(kept.role_of(&BoxClass::Custom("Door".into()), false), None);
        assert_eq!(BoxRoles::default().role_of(&hitbox, false), None);
        assert_eq!(
            BoxRoles::default().role_of(&BoxClass::Hit, true),
            Some(Role::Hit)
        );
        assert_eq!(BoxRoles::default().role_of(&BoxClass::Hit, false), None);
        let more = BoxRoles {
            hit: vec!["Attack".into()],
            hurt: vec!["Body".into()],
        };
        let both = kept.with(&more);
        assert_eq!(both.hit, ["Hitbox", "Attack"]);
        assert_eq!(both.hurt, ["Body", "Head"]);
        BoxRoles::default().store_in(&mut document);
        assert!(document.metadata.extra.is_empty());
    }
}
