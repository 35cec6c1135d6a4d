//! A JSON object's fields, sorted by key: one vector, searched by halves. It does the job
//! `BTreeMap` did here (the same methods, iterated in the same order, equal when their fields
//! are) for less code: the tree's insertion, search, cloning and dropping cost the core wasm
//! 2.7 KB gzip, and the objects tao reads are small (settings, a tool's input, a step's fields).
//! A reader that meets the fields out of order sorts them once ([`Map::from_pairs`]), so
//! reading a large object stays `n log n`.

use std::borrow::Borrow;
use std::fmt;

use super::Value;

/// The fields of a JSON object, sorted by key (no key twice).
#[derive(Clone, PartialEq, Eq)]
pub struct Map<K = String, V = Value> {
    fields: Vec<(K, V)>,
}

impl<K, V> Default for Map<K, V> {
    fn default() -> Self {
        Map { fields: Vec::new() }
    }
}

impl<K: Ord, V> Map<K, V> {
    /// No fields.
    pub fn new() -> Self {
        Map::default()
    }

    /// The fields `pairs`, in any order; of a key given twice, the last value is kept (as a
    /// JSON reader does).
    pub fn from_pairs(mut pairs: Vec<(K, V)>) -> Self {
        if !pairs.windows(2).all(|w| w[0].0 < w[1].0) {
            pairs = merge_sort(pairs);
            // Equal keys are now together, in the order given: keep the last of each.
            let mut fields: Vec<(K, V)> = Vec::with_capacity(pairs.len());
            for (key, value) in pairs {
                match fields.last_mut() {
                    Some(last) if last.0 == key => last.1 = value,
                    _ => fields.push((key, value)),
                }
            }
            pairs = fields;
        }
        Map { fields: pairs }
    }

    /// Where `key` is, or where it would go.
    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.fields.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// Sets `key` to `value`; the value it replaced, if any.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(at) => Some(std::mem::replace(&mut self.fields[at].1, value)),
            Err(at) => {
                self.fields.insert(at, (key, value));
                None
            }
        }
    }

    /// The value of `key`.
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|at| &self.fields[at].1)
    }

    /// The value of `key`, to change.
    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|at| &mut self.fields[at].1)
    }

    /// Whether `key` is there.
    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Takes `key` out; its value, if it was there.
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|at| self.fields.remove(at).1)
    }

    /// Moves every field of `other` into this map (its values win), leaving it empty.
    pub fn append(&mut self, other: &mut Map<K, V>) {
        for (key, value) in std::mem::take(&mut other.fields) {
            self.insert(key, value);
        }
    }
}

impl<K, V> Map<K, V> {
    /// How many fields.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// The fields, by key.
    pub fn iter(&self) -> Iter<'_, K, V> {
        self.fields.iter().map(|(k, v)| (k, v))
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.fields.iter().map(|(k, _)| k)
    }

    /// The values, in their keys' order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.fields.iter().map(|(_, v)| v)
    }
}

/// The fields of a [`Map`], by key.
pub type Iter<'a, K, V> = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&(K, V)) -> (&K, &V)>;

impl<'a, K, V> IntoIterator for &'a Map<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<K, V> IntoIterator for Map<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.fields.into_iter()
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for Map<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> Self {
        Map::from_pairs(pairs.into_iter().collect())
    }
}

/// As `BTreeMap` shows itself: `{"a": 1, "b": 2}`.
impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for Map<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// `pairs` sorted by key, keys that are equal kept in the order given. (The standard library's
/// sorts would bring more code than this one; it runs only for fields met out of order.)
fn merge_sort<K: Ord, V>(mut pairs: Vec<(K, V)>) -> Vec<(K, V)> {
    if pairs.len() < 2 {
        return pairs;
    }
    let right = merge_sort(pairs.split_off(pairs.len() / 2));
    let left = merge_sort(pairs);
    let mut sorted = Vec::with_capacity(left.len() + right.len());
    let (mut left, mut right) = (left.into_iter().peekable(), right.into_iter().peekable());
    while let (Some(l), Some(r)) = (left.peek(), right.peek()) {
        // Ties go to the left: it was given first.
        let next = if r.0 < l.0 { right.next() } else { left.next() };
        sorted.extend(next);
    }
    sorted.extend(left);
    sorted.extend(right);
    sorted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_given_in_any_order_are_sorted_and_the_last_of_a_key_wins() {
        let pairs = vec![("b", 1), ("a", 2), ("c", 3), ("a", 4), ("b", 5), ("d", 6)];
        let map = Map::from_pairs(pairs);
        let fields: Vec<_> = map.iter().map(|(k, v)| (*k, *v)).collect();
        assert_eq!(fields, [("a", 4), ("b", 5), ("c", 3), ("d", 6)]);
        // Inserting one by one gives the same map.
        let mut inserted = Map::new();
        for (k, v) in [("b", 1), ("a", 2), ("c", 3), ("a", 4), ("b", 5), ("d", 6)] {
            inserted.insert(k, v);
        }
        assert_eq!(inserted, map);
        assert_eq!(format!("{map:?}"), r#"{"a": 4, "b": 5, "c": 3, "d": 6}"#);
    }

    #[test]
    fn a_large_object_out_of_order_is_read_in_n_log_n() {
        // 200,000 keys in falling order: inserting each at the front would move 2·10¹⁰ fields.
        let n = 200_000;
        let pairs: Vec<(String, usize)> = (0..n).rev().map(|i| (format!("{i:08}"), i)).collect();
        let started = std::time::Instant::now();
        let map = Map::from_pairs(pairs);
        // About 0.1 s in a debug build; one insertion at a time would take minutes.
        let took = started.elapsed();
        assert!(took.as_secs_f64() < 2.0, "200,000 fields took {took:?}");
        assert_eq!(map.len(), n);
        assert!(map.keys().zip(map.keys().skip(1)).all(|(a, b)| a < b));
        assert_eq!(map.get("00000007"), Some(&7));
    }

    #[test]
    fn get_remove_and_append() {
        let mut map: Map<String, i32> = [("x".to_string(), 1), ("y".to_string(), 2)]
            .into_iter()
            .collect();
        assert!(map.contains_key("x") && !map.contains_key("z"));
        *map.get_mut("x").unwrap() = 10;
        assert_eq!(map.remove("y"), Some(2));
        assert_eq!(map.remove("y"), None);
        let mut other: Map<String, i32> = [("x".to_string(), 3), ("a".to_string(), 4)]
            .into_iter()
            .collect();
        map.append(&mut other);
        assert!(other.is_empty());
        let fields: Vec<_> = map.into_iter().collect();
        assert_eq!(fields, [("a".to_string(), 4), ("x".to_string(), 3)]);
    }
}
