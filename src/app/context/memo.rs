//! A value worked out from what it depends on, kept until that changes: the windows that
//! preview an edit (Retime, Align frames) and the Import window's cells read pixels or plan a
//! whole document, which is too slow to do at every paint.

/// The last value made and the key it was made for.
#[derive(Debug)]
pub struct Memo<K, V> {
    made: Option<(K, V)>,
}

// Not derived: a derived `Default` would ask `K` and `V` to have one.
impl<K, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo { made: None }
    }
}

impl<K: PartialEq, V> Memo<K, V> {
    /// The value for `key`: the one kept when it was made for an equal key, else `make`'s,
    /// kept in its place. The flag is true when it was made now.
    pub fn get_or_make(&mut self, key: K, make: impl FnOnce() -> V) -> (&V, bool) {
        let fresh = !matches!(&self.made, Some((made_for, _)) if *made_for == key);
        if fresh {
            self.made = Some((key, make()));
        }
        let (_, value) = self.made.as_ref().expect("made above");
        (value, fresh)
    }

    /// The value kept, whatever it was made for.
    pub fn get(&self) -> Option<&V> {
        self.made.as_ref().map(|(_, value)| value)
    }

    /// Forgets the value: the next [`Memo::get_or_make`] makes it again.
    pub fn clear(&mut self) {
        self.made = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_made_again_only_when_its_key_changes() {
        let mut memo = Memo::default();
        let mut made = 0;
        let mut make = |key: u32| {
            made += 1;
            key * 10
        };
        assert_eq!(memo.get_or_make(1, || make(1)), (&10, true));
        assert_eq!(memo.get_or_make(1, || make(1)), (&10, false));
        assert_eq!(memo.get_or_make(2, || make(2)), (&20, true));
        memo.clear();
        assert_eq!(memo.get(), None);
        assert_eq!(memo.get_or_make(2, || make(2)), (&20, true));
        assert_eq!(made, 3);
    }
}
