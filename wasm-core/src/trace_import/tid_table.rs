//! A table by kernel tid (or host CPU number): a `HashMap<u32, u32>` of slots over a `Vec`, in the order keys were
//! first seen. The trace import keeps a few tables by tid or CPU; with one map type for all of them the wasm
//! carries one hash-map instantiation instead of one per value type (each is a few kilobytes of code). A removed tid keeps its slot,
//! empty, so iteration order stays the order of first sight.

use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq)]
pub(super) struct TidTable<T> {
    slot: HashMap<u32, u32>,
    all: Vec<(u32, Option<T>)>,
}

impl<T> Default for TidTable<T> {
    fn default() -> Self {
        TidTable { slot: HashMap::new(), all: Vec::new() }
    }
}

impl<T> TidTable<T> {
    fn slot_of(&mut self, tid: u32) -> usize {
        match self.slot.get(&tid) {
            Some(&i) => i as usize,
            None => {
                self.slot.insert(tid, self.all.len() as u32);
                self.all.push((tid, None));
                self.all.len() - 1
            }
        }
    }

    pub(super) fn get(&self, tid: u32) -> Option<&T> {
        self.all[*self.slot.get(&tid)? as usize].1.as_ref()
    }

    pub(super) fn get_mut(&mut self, tid: u32) -> Option<&mut T> {
        let i = *self.slot.get(&tid)? as usize;
        self.all[i].1.as_mut()
    }

    /// `tid`'s value, `make()` if it has none.
    pub(super) fn entry_or(&mut self, tid: u32, make: impl FnOnce() -> T) -> &mut T {
        let i = self.slot_of(tid);
        self.all[i].1.get_or_insert_with(make)
    }

    pub(super) fn insert(&mut self, tid: u32, value: T) {
        let i = self.slot_of(tid);
        self.all[i].1 = Some(value);
    }

    pub(super) fn remove(&mut self, tid: u32) {
        if let Some(&i) = self.slot.get(&tid) {
            self.all[i as usize].1 = None;
        }
    }

    /// (tid, value) in the order tids were first seen.
    pub(super) fn iter(&self) -> impl Iterator<Item = (u32, &T)> {
        self.all.iter().filter_map(|(tid, v)| Some((*tid, v.as_ref()?)))
    }

    pub(super) fn values(&self) -> impl Iterator<Item = &T> {
        self.all.iter().filter_map(|(_, v)| v.as_ref())
    }

    pub(super) fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.all.iter_mut().filter_map(|(_, v)| v.as_mut())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_as_a_map_and_iterates_in_order_of_first_sight() {
        let mut t = TidTable::default();
        let mut m = HashMap::new();
        for (k, (tid, v)) in [(9, 1), (3, 2), (9, 3), (5, 4), (3, 5)].into_iter().enumerate() {
            if k == 3 {
                t.remove(3);
                m.remove(&3);
            }
            t.insert(tid, v);
            m.insert(tid, v);
        }
        *t.entry_or(7, || 0) += 10;
        *m.entry(7).or_insert(0) += 10;
        for tid in [3, 5, 7, 9, 11] {
            assert_eq!(t.get(tid), m.get(&tid), "tid {tid}");
        }
        assert_eq!(t.iter().map(|(tid, _)| tid).collect::<Vec<_>>(), vec![9, 3, 5, 7]);
        t.remove(5);
        assert_eq!(t.values().copied().collect::<Vec<_>>(), vec![3, 5, 10]);
    }
}
