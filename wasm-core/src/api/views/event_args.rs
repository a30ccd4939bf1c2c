//! An event's parts by name (`EventView::args`): a handful of pairs kept in name order, written as a JSON object.
//! A `Vec` rather than a `BTreeMap`: the wasm carries one fewer map instantiation, and a record has at most four
//! parts, so a sorted insert is as quick.

use serde::{Serialize, Serializer};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventArgs(Vec<(&'static str, String)>);

impl EventArgs {
    /// Sets `key` (replacing its value if it has one), keeping the names in order.
    pub fn insert(&mut self, key: &'static str, value: String) {
        match self.0.binary_search_by(|(k, _)| (*k).cmp(key)) {
            Ok(i) => self.0[i].1 = value,
            Err(i) => self.0.insert(i, (key, value)),
        }
    }

    /// The parts in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.0.iter().map(|(k, v)| (*k, v.as_str()))
    }
}

impl Serialize for EventArgs {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_names_in_order_like_the_map_it_replaced() {
        let mut a = EventArgs::default();
        let mut m = std::collections::BTreeMap::new();
        for (k, v) in [("to", "3"), ("cause", "idle"), ("task", "a[1]"), ("from", "2"), ("task", "b[2]")] {
            a.insert(k, v.to_string());
            m.insert(k, v.to_string());
        }
        assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&m).unwrap());
        assert_eq!(a.iter().map(|(k, _)| k).collect::<Vec<_>>(), m.keys().copied().collect::<Vec<_>>());
    }
}
