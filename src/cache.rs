//! One cache type for every kind of picture Sprat keeps (decoded image files, cut slices, SFF
//! sprites, GPU textures): bounded by bytes, the least recently used let go first.
//!
//! Counting entries would not do: a 48x64 sprite and a 1280x720 one differ by 300 times, so a
//! count that suits one lets the other grow without bound.

use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

/// An entry: its value, the bytes it holds and when it was last used.
struct Entry<V> {
    value: V,
    bytes: usize,
    last_used: u64,
}

/// A map whose values together hold at most `budget` bytes: past it, the least recently used
/// entries go. The entry just put in or just resized always stays (it is in use), even alone
/// over the budget.
pub struct ByteLru<K, V> {
    entries: HashMap<K, Entry<V>>,
    /// Keys by last use, oldest first: eviction takes from the front.
    by_age: BTreeMap<u64, K>,
    clock: u64,
    bytes: usize,
    budget: usize,
}

impl<K: Hash + Eq + Clone, V> ByteLru<K, V> {
    /// An empty cache that keeps at most `budget` bytes.
    pub fn new(budget: usize) -> ByteLru<K, V> {
        ByteLru {
            entries: HashMap::new(),
            by_age: BTreeMap::new(),
            clock: 0,
            bytes: 0,
            budget,
        }
    }

    /// The value of `key`, marked as just used.
    pub fn get<Q>(&mut self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let now = self.tick();
        let entry = self.entries.get_mut(key)?;
        let before = std::mem::replace(&mut entry.last_used, now);
        if let Some(owned) = self.by_age.remove(&before) {
            self.by_age.insert(now, owned);
        }
        self.entries.get(key).map(|e| &e.value)
    }

    /// The value of `key`, leaving its age alone.
    pub fn peek<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.entries.get(key).map(|e| &e.value)
    }

    /// Whether `key` is kept.
    pub fn contains<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.entries.contains_key(key)
    }

    /// Keeps `value` (holding `bytes`) under `key` as just used, replacing what was there, and
    /// lets the least recently used others go until the whole fits in the budget.
    pub fn insert(&mut self, key: K, value: V, bytes: usize) {
        let now = self.tick();
        if let Some(old) = self.entries.remove(&key) {
            self.by_age.remove(&old.last_used);
            self.bytes -= old.bytes;
        }
        self.by_age.insert(now, key.clone());
        self.bytes += bytes;
        self.entries.insert(
            key,
            Entry {
                value,
                bytes,
                last_used: now,
            },
        );
        self.evict_past_budget();
    }

    /// Says `key`'s value now holds `bytes` (a cell filled after it was put in), marks it as
    /// just used and lets others go past the budget. Nothing happens to a key not kept.
    pub fn resize<Q>(&mut self, key: &Q, bytes: usize)
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        if self.get(key).is_none() {
            return;
        }
        if let Some(entry) = self.entries.get_mut(key) {
            self.bytes = self.bytes - entry.bytes + bytes;
            entry.bytes = bytes;
        }
        self.evict_past_budget();
    }

    /// Takes `key` out.
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let entry = self.entries.remove(key)?;
        self.by_age.remove(&entry.last_used);
        self.bytes -= entry.bytes;
        Some(entry.value)
    }

    /// Keeps only the entries `keep` says yes to.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &V) -> bool) {
        let (by_age, bytes) = (&mut self.by_age, &mut self.bytes);
        self.entries.retain(|key, entry| {
            let kept = keep(key, &entry.value);
            if !kept {
                by_age.remove(&entry.last_used);
                *bytes -= entry.bytes;
            }
            kept
        });
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.by_age.clear();
        self.bytes = 0;
    }

    /// Changes the budget, letting the least recently used go if it shrank.
    pub fn set_budget(&mut self, budget: usize) {
        self.budget = budget;
        self.evict_past_budget();
    }

    /// The most bytes kept (the newest entry excepted).
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// The bytes kept now.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// How many entries are kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The values kept, in no order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.values().map(|e| &e.value)
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// Lets the oldest entries go until the rest fit, never the newest one.
    fn evict_past_budget(&mut self) {
        while self.bytes > self.budget && self.entries.len() > 1 {
            let Some((_, oldest)) = self.by_age.pop_first() else {
                break;
            };
            if let Some(entry) = self.entries.remove(&oldest) {
                self.bytes -= entry.bytes;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_go_first_past_the_budget() {
        let mut cache = ByteLru::new(10);
        cache.insert("a", 1, 4);
        cache.insert("b", 2, 4);
        assert_eq!(cache.get("a"), Some(&1), "a is now the more recent");
        cache.insert("c", 3, 4);
        assert!(!cache.contains("b"), "b was the least recently used");
        assert!(cache.contains("a") && cache.contains("c"));
        assert_eq!(cache.bytes(), 8);
    }

    #[test]
    fn the_newest_entry_stays_even_alone_over_the_budget() {
        let mut cache = ByteLru::new(10);
        cache.insert(1, (), 3);
        cache.insert(2, (), 30);
        assert_eq!(cache.len(), 1);
        assert!(cache.contains(&2));
        assert_eq!(cache.bytes(), 30);
        cache.insert(3, (), 2);
        assert!(!cache.contains(&2) && cache.contains(&3));
        assert_eq!(cache.bytes(), 2);
    }

    #[test]
    fn replacing_resizing_removing_and_retaining_keep_the_count_right() {
        let mut cache = ByteLru::new(100);
        cache.insert("a", 1, 10);
        cache.insert("a", 2, 20);
        assert_eq!((cache.len(), cache.bytes()), (1, 20));
        cache.insert("b", 3, 0);
        cache.resize("b", 50);
        assert_eq!(cache.bytes(), 70);
        cache.resize("missing", 500);
        assert_eq!(cache.bytes(), 70);
        cache.resize("b", 90);
        assert!(!cache.contains("a"), "growing b pushed a out");
        assert_eq!(cache.remove("b"), Some(3));
        assert_eq!((cache.len(), cache.bytes()), (0, 0));
        for (i, key) in ["x", "y", "z"].into_iter().enumerate() {
            cache.insert(key, i, 5);
        }
        cache.retain(|_, v| *v != 1);
        assert_eq!((cache.len(), cache.bytes()), (2, 10));
        cache.set_budget(5);
        assert_eq!((cache.len(), cache.bytes()), (1, 5));
        assert!(cache.contains("z"), "the most recent stays");
    }

    #[test]
    fn many_uses_never_exceed_the_budget_but_for_the_newest() {
        let mut cache = ByteLru::new(1000);
        for i in 0..10_000u32 {
            let bytes = (i * 37 % 300) as usize;
            if i % 3 == 0 {
                cache.get(&(i / 2));
            }
            cache.insert(i, i, bytes);
            assert!(cache.bytes() <= 1000 || cache.len() == 1);
            let counted: usize = cache.entries.values().map(|e| e.bytes).sum();
            assert_eq!(counted, cache.bytes());
            assert_eq!(cache.by_age.len(), cache.len());
        }
    }
}
