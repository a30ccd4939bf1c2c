//! Property tests: the red-black tree keeps every invariant, and its in-order
//! walk is the sorted set of live keys, under random inserts and removals.

use proptest::prelude::*;
use schedlab_core::rbtree::RbTree;
use std::collections::BTreeSet;

#[derive(Debug, Clone)]
enum Op {
    Insert(u16),
    Remove(u16),
    RemoveFirst,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0u16..400).prop_map(Op::Insert),
        2 => (0u16..400).prop_map(Op::Remove),
        1 => Just(Op::RemoveFirst),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn invariants_hold_and_inorder_is_sorted(ops in proptest::collection::vec(op(), 1..400)) {
        let mut tree: RbTree<(u64, u32), u32> = RbTree::new();
        let mut model = BTreeSet::new();
        for op in ops {
            match op {
                Op::Insert(k) => {
                    let key = (k as u64 / 4, k as u32);
                    prop_assert_eq!(tree.insert(key, k as u32), model.insert(key));
                }
                Op::Remove(k) => {
                    let key = (k as u64 / 4, k as u32);
                    prop_assert_eq!(tree.remove(key).is_some(), model.remove(&key));
                }
                Op::RemoveFirst => {
                    let first = tree.first().map(|(k, _)| k);
                    prop_assert_eq!(first, model.iter().next().copied());
                    if let Some(k) = first {
                        tree.remove(k);
                        model.remove(&k);
                    }
                }
            }
            if let Err(e) = tree.check_invariants() {
                return Err(TestCaseError::fail(e));
            }
            let keys: Vec<_> = tree.iter().into_iter().map(|(k, _)| k).collect();
            let expected: Vec<_> = model.iter().copied().collect();
            prop_assert_eq!(keys, expected);
        }
    }

    #[test]
    fn shape_lists_every_node_once(keys in proptest::collection::btree_set(0u32..1000, 0..100)) {
        let mut tree: RbTree<(u64, u32), u32> = RbTree::new();
        for k in &keys {
            tree.insert((*k as u64, *k), *k);
        }
        let (root, nodes) = tree.shape();
        prop_assert_eq!(nodes.len(), keys.len());
        prop_assert_eq!(root.is_some(), !keys.is_empty());
        let mut seen: Vec<u32> = nodes.iter().map(|n| n.val).collect();
        seen.sort();
        prop_assert_eq!(seen, keys.iter().copied().collect::<Vec<_>>());
    }
}

#[test]
fn ascending_inserts_rotate_and_next_after_walks_in_order() {
    let mut tree: RbTree<(u64, u32), u32> = RbTree::new();
    for k in 0..3u32 {
        tree.insert((k as u64, k), k);
    }
    // Inserting 0,1,2 in order forces one left rotation at 0.
    let rot = tree.take_rotations();
    assert_eq!(rot.len(), 1);
    assert_eq!(rot[0].pivot, 0);
    assert_eq!(tree.next_after((0, 0)), Some(((1, 1), 1)));
    assert_eq!(tree.next_after((2, 2)), None);
}
