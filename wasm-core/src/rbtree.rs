//! An arena-based red-black tree, the structure behind every CFS runqueue.
//!
//! Why our own: the UI draws the tree's exact shape (colours, children) and
//! animates the rotations an operation performed, which no map in std or on
//! crates.io exposes. The algorithms are the textbook ones (insert fix-up with
//! recolouring and at most two rotations, delete fix-up with at most three),
//! with a black sentinel at index 0 so that the delete fix-up can follow the
//! parent of an empty child.
//!
//! ```text
//!   nodes: [NIL, n1, n2, ...]   free: indices of removed nodes, reused
//!   leftmost cached, as the kernel caches rb_leftmost, so picking is O(1)
//! ```
//!
//! Keys must be unique (CFS uses (vruntime, pid)); duplicates are refused.

use std::cmp::Ordering;

const NIL: u32 = 0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS), ts(rename_all = "lowercase"))]
pub enum RotationDir {
    Left,
    Right,
}

/// One rotation an operation performed: direction and the value at the node
/// that moved down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rotation<V> {
    pub dir: RotationDir,
    pub pivot: V,
}

/// One node of an exported shape; children are given by value (e.g. pid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeNode<K, V> {
    pub key: K,
    pub val: V,
    pub red: bool,
    pub left: Option<V>,
    pub right: Option<V>,
}

#[derive(Clone, Debug)]
struct Node<K, V> {
    key: K,
    val: V,
    left: u32,
    right: u32,
    parent: u32,
    red: bool,
}

#[derive(Clone, Debug)]
pub struct RbTree<K, V> {
    nodes: Vec<Node<K, V>>,
    free: Vec<u32>,
    root: u32,
    leftmost: u32,
    len: usize,
    /// Rotations performed since the last `take_rotations`.
    rotations: Vec<Rotation<V>>,
    /// Whether rotations are logged at all (only trees the UI animates).
    log_rotations: bool,
}

impl<K: Ord + Copy + Default, V: Copy + Default> Default for RbTree<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Ord + Copy + Default, V: Copy + Default> RbTree<K, V> {
    pub fn new() -> Self {
        let sentinel = Node { key: K::default(), val: V::default(), left: NIL, right: NIL, parent: NIL, red: false };
        RbTree {
            nodes: vec![sentinel],
            free: Vec::new(),
            root: NIL,
            leftmost: NIL,
            len: 0,
            rotations: Vec::new(),
            log_rotations: true,
        }
    }

    /// A tree that keeps no rotation log: nobody drains it, so it must not grow.
    pub fn without_rotation_log() -> Self {
        RbTree { log_rotations: false, ..Self::new() }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The smallest entry, in O(1).
    pub fn first(&self) -> Option<(K, V)> {
        (self.leftmost != NIL).then(|| {
            let n = &self.nodes[self.leftmost as usize];
            (n.key, n.val)
        })
    }

    /// The entry following `key` in order (the kernel's rb_next), if any.
    pub fn next_after(&self, key: K) -> Option<(K, V)> {
        let mut x = self.root;
        let mut best = NIL;
        while x != NIL {
            let n = &self.nodes[x as usize];
            if n.key > key {
                best = x;
                x = n.left;
            } else {
                x = n.right;
            }
        }
        (best != NIL).then(|| (self.nodes[best as usize].key, self.nodes[best as usize].val))
    }

    /// Forgets the rotations logged so far, keeping the log's memory (for
    /// trees nobody animates).
    pub fn clear_rotations(&mut self) {
        self.rotations.clear();
    }

    /// Whether rotations were logged since the last drain.
    pub fn has_rotations(&self) -> bool {
        !self.rotations.is_empty()
    }

    /// Moves the logged rotations to the end of `out` (the log keeps its memory).
    pub fn drain_rotations_into<T>(&mut self, out: &mut Vec<T>, f: impl Fn(Rotation<V>) -> T) {
        out.extend(self.rotations.drain(..).map(f));
    }

    /// Drains the log of rotations performed since the previous call.
    pub fn take_rotations(&mut self) -> Vec<Rotation<V>> {
        std::mem::take(&mut self.rotations)
    }

    /// In-order entries.
    pub fn iter(&self) -> Vec<(K, V)> {
        let mut out = Vec::with_capacity(self.len);
        let mut stack = Vec::new();
        let mut x = self.root;
        while x != NIL || !stack.is_empty() {
            while x != NIL {
                stack.push(x);
                x = self.nodes[x as usize].left;
            }
            let top = stack.pop().unwrap_or(NIL);
            let n = &self.nodes[top as usize];
            out.push((n.key, n.val));
            x = n.right;
        }
        out
    }

    /// The exact shape, root first (pre-order), for drawing.
    pub fn shape(&self) -> (Option<V>, Vec<ShapeNode<K, V>>) {
        let mut out = Vec::with_capacity(self.len);
        let mut stack = vec![self.root];
        let val_of = |i: u32| (i != NIL).then(|| self.nodes[i as usize].val);
        while let Some(x) = stack.pop() {
            if x == NIL {
                continue;
            }
            let n = &self.nodes[x as usize];
            out.push(ShapeNode { key: n.key, val: n.val, red: n.red, left: val_of(n.left), right: val_of(n.right) });
            stack.push(n.right);
            stack.push(n.left);
        }
        (val_of(self.root), out)
    }

    /// Inserts a unique key; returns false (and changes nothing) on a duplicate.
    pub fn insert(&mut self, key: K, val: V) -> bool {
        let mut parent = NIL;
        let mut x = self.root;
        let mut went_left_only = true;
        while x != NIL {
            parent = x;
            match key.cmp(&self.nodes[x as usize].key) {
                Ordering::Less => x = self.nodes[x as usize].left,
                Ordering::Greater => {
                    x = self.nodes[x as usize].right;
                    went_left_only = false;
                }
                Ordering::Equal => return false,
            }
        }
        let z = self.alloc(Node { key, val, left: NIL, right: NIL, parent, red: true });
        if parent == NIL {
            self.root = z;
        } else if key < self.nodes[parent as usize].key {
            self.nodes[parent as usize].left = z;
        } else {
            self.nodes[parent as usize].right = z;
        }
        if went_left_only {
            self.leftmost = z;
        }
        self.len += 1;
        self.insert_fixup(z);
        true
    }

    /// Removes the entry with `key`; returns its value if it was present.
    pub fn remove(&mut self, key: K) -> Option<V> {
        // Picking the next entity removes the leftmost: no search for it.
        let z = if self.leftmost != NIL && self.nodes[self.leftmost as usize].key == key {
            self.leftmost
        } else {
            self.find(key)
        };
        if z == NIL {
            return None;
        }
        let val = self.nodes[z as usize].val;
        if z == self.leftmost {
            self.leftmost = self.successor(z);
        }
        self.delete_node(z);
        self.len -= 1;
        self.free.push(z);
        Some(val)
    }

    fn alloc(&mut self, node: Node<K, V>) -> u32 {
        if let Some(i) = self.free.pop() {
            self.nodes[i as usize] = node;
            i
        } else {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        }
    }

    fn find(&self, key: K) -> u32 {
        let mut x = self.root;
        while x != NIL {
            match key.cmp(&self.nodes[x as usize].key) {
                Ordering::Less => x = self.nodes[x as usize].left,
                Ordering::Greater => x = self.nodes[x as usize].right,
                Ordering::Equal => return x,
            }
        }
        NIL
    }

    fn minimum(&self, mut x: u32) -> u32 {
        while self.nodes[x as usize].left != NIL {
            x = self.nodes[x as usize].left;
        }
        x
    }

    fn successor(&self, x: u32) -> u32 {
        if self.nodes[x as usize].right != NIL {
            return self.minimum(self.nodes[x as usize].right);
        }
        let mut x = x;
        let mut y = self.nodes[x as usize].parent;
        while y != NIL && x == self.nodes[y as usize].right {
            x = y;
            y = self.nodes[y as usize].parent;
        }
        y
    }

    fn rotate(&mut self, x: u32, dir: RotationDir) {
        // For a left rotation y = x.right moves up; for a right one y = x.left.
        let (y, inner) = match dir {
            RotationDir::Left => {
                let y = self.nodes[x as usize].right;
                (y, self.nodes[y as usize].left)
            }
            RotationDir::Right => {
                let y = self.nodes[x as usize].left;
                (y, self.nodes[y as usize].right)
            }
        };
        match dir {
            RotationDir::Left => self.nodes[x as usize].right = inner,
            RotationDir::Right => self.nodes[x as usize].left = inner,
        }
        if inner != NIL {
            self.nodes[inner as usize].parent = x;
        }
        let xp = self.nodes[x as usize].parent;
        self.nodes[y as usize].parent = xp;
        if xp == NIL {
            self.root = y;
        } else if self.nodes[xp as usize].left == x {
            self.nodes[xp as usize].left = y;
        } else {
            self.nodes[xp as usize].right = y;
        }
        match dir {
            RotationDir::Left => self.nodes[y as usize].left = x,
            RotationDir::Right => self.nodes[y as usize].right = x,
        }
        self.nodes[x as usize].parent = y;
        if self.log_rotations {
            self.rotations.push(Rotation { dir, pivot: self.nodes[x as usize].val });
        }
    }

    fn is_red(&self, x: u32) -> bool {
        self.nodes[x as usize].red
    }

    fn insert_fixup(&mut self, mut z: u32) {
        while self.is_red(self.nodes[z as usize].parent) {
            let p = self.nodes[z as usize].parent;
            let g = self.nodes[p as usize].parent;
            let p_is_left = self.nodes[g as usize].left == p;
            let uncle = if p_is_left { self.nodes[g as usize].right } else { self.nodes[g as usize].left };
            if self.is_red(uncle) {
                self.nodes[p as usize].red = false;
                self.nodes[uncle as usize].red = false;
                self.nodes[g as usize].red = true;
                z = g;
                continue;
            }
            let (inner_child, toward, away) = if p_is_left {
                (self.nodes[p as usize].right, RotationDir::Left, RotationDir::Right)
            } else {
                (self.nodes[p as usize].left, RotationDir::Right, RotationDir::Left)
            };
            let mut p = p;
            if z == inner_child {
                z = p;
                self.rotate(z, toward);
                p = self.nodes[z as usize].parent;
            }
            self.nodes[p as usize].red = false;
            self.nodes[g as usize].red = true;
            self.rotate(g, away);
        }
        let r = self.root;
        self.nodes[r as usize].red = false;
    }

    /// Replaces the subtree at u by the one at v (v may be the sentinel, whose
    /// parent is then set so the fix-up can climb from it).
    fn transplant(&mut self, u: u32, v: u32) {
        let up = self.nodes[u as usize].parent;
        if up == NIL {
            self.root = v;
        } else if self.nodes[up as usize].left == u {
            self.nodes[up as usize].left = v;
        } else {
            self.nodes[up as usize].right = v;
        }
        self.nodes[v as usize].parent = up;
    }

    fn delete_node(&mut self, z: u32) {
        let mut y = z;
        let mut y_was_red = self.is_red(y);
        let x;
        let zl = self.nodes[z as usize].left;
        let zr = self.nodes[z as usize].right;
        if zl == NIL {
            x = zr;
            self.transplant(z, zr);
        } else if zr == NIL {
            x = zl;
            self.transplant(z, zl);
        } else {
            y = self.minimum(zr);
            y_was_red = self.is_red(y);
            x = self.nodes[y as usize].right;
            if self.nodes[y as usize].parent == z {
                self.nodes[x as usize].parent = y;
            } else {
                self.transplant(y, x);
                self.nodes[y as usize].right = zr;
                self.nodes[zr as usize].parent = y;
            }
            self.transplant(z, y);
            let zl = self.nodes[z as usize].left;
            self.nodes[y as usize].left = zl;
            self.nodes[zl as usize].parent = y;
            self.nodes[y as usize].red = self.is_red(z);
        }
        if !y_was_red {
            self.delete_fixup(x);
        }
        // The sentinel must stay black with no meaningful links.
        self.nodes[NIL as usize].parent = NIL;
        self.nodes[NIL as usize].red = false;
    }

    fn delete_fixup(&mut self, mut x: u32) {
        while x != self.root && !self.is_red(x) {
            let p = self.nodes[x as usize].parent;
            let x_is_left = self.nodes[p as usize].left == x;
            let (toward, away) = if x_is_left {
                (RotationDir::Left, RotationDir::Right)
            } else {
                (RotationDir::Right, RotationDir::Left)
            };
            let sib = |t: &Self, p: u32| {
                if x_is_left {
                    t.nodes[p as usize].right
                } else {
                    t.nodes[p as usize].left
                }
            };
            let mut w = sib(self, p);
            if self.is_red(w) {
                self.nodes[w as usize].red = false;
                self.nodes[p as usize].red = true;
                self.rotate(p, toward);
                w = sib(self, p);
            }
            let (near, far) = if x_is_left {
                (self.nodes[w as usize].left, self.nodes[w as usize].right)
            } else {
                (self.nodes[w as usize].right, self.nodes[w as usize].left)
            };
            if !self.is_red(near) && !self.is_red(far) {
                self.nodes[w as usize].red = true;
                x = p;
                continue;
            }
            if !self.is_red(far) {
                self.nodes[near as usize].red = false;
                self.nodes[w as usize].red = true;
                self.rotate(w, away);
                w = sib(self, p);
            }
            self.nodes[w as usize].red = self.is_red(p);
            self.nodes[p as usize].red = false;
            let far = if x_is_left { self.nodes[w as usize].right } else { self.nodes[w as usize].left };
            self.nodes[far as usize].red = false;
            self.rotate(p, toward);
            x = self.root;
        }
        self.nodes[x as usize].red = false;
    }

    /// Checks every red-black invariant; returns the first violation found.
    /// Used by the property tests and by debug assertions in the engine.
    pub fn check_invariants(&self) -> Result<(), String> {
        if self.is_red(self.root) {
            return Err("root is red".into());
        }
        let (count, _) = self.check_subtree(self.root, NIL)?;
        if count != self.len {
            return Err(format!("len {} but {} nodes reachable", self.len, count));
        }
        let expected_leftmost = if self.root == NIL { NIL } else { self.minimum(self.root) };
        if expected_leftmost != self.leftmost {
            return Err("cached leftmost is stale".into());
        }
        Ok(())
    }

    /// Returns (node count, black height) of the subtree at x.
    fn check_subtree(&self, x: u32, parent: u32) -> Result<(usize, usize), String> {
        if x == NIL {
            return Ok((0, 1));
        }
        let n = &self.nodes[x as usize];
        if n.parent != parent {
            return Err("broken parent link".into());
        }
        if n.red && (self.is_red(n.left) || self.is_red(n.right)) {
            return Err("red node with a red child".into());
        }
        if n.left != NIL && self.nodes[n.left as usize].key >= n.key {
            return Err("left child not smaller".into());
        }
        if n.right != NIL && self.nodes[n.right as usize].key <= n.key {
            return Err("right child not larger".into());
        }
        let (lc, lh) = self.check_subtree(n.left, x)?;
        let (rc, rh) = self.check_subtree(n.right, x)?;
        if lh != rh {
            return Err("unequal black heights".into());
        }
        Ok((lc + rc + 1, lh + usize::from(!n.red)))
    }
}
