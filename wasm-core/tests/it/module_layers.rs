//! The engine's top-level modules form layers: no cycle between them. Reads
//! every `src/**.rs` of the library (the binaries are their own crates),
//! collects each top-level module's references to the others (`crate::x`,
//! `crate::{x, y}`, and `super::x` that climbs to the crate root), and fails
//! on any cycle, printing it.
//!
//! ```text
//!   api, real, trace_import, wasm          the edges: scenario, views, reports, the host kernel, traces
//!   sim                                    the machine state, the core, and the classes acting on it
//!   balance, config, trace, task, sched    pure records and one-level algorithms
//!   topology, machine, program, program_names, latency, rbtree, event_queue, rng, time
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Dependencies that still close a cycle, each as (from, to). The list may
/// only shrink: an entry whose dependency is gone fails the test until it is
/// removed here.
const KNOWN_CYCLE_EDGES: &[(&str, &str)] = &[];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("readable src").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The file's module path: `sim/core.rs` → [sim, core]; `sim/mod.rs` → [sim].
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" {
        parts.push(stem.to_string());
    }
    parts
}

/// The text without `//` comments (doc comments name modules freely).
fn strip_line_comments(src: &str) -> String {
    src.lines()
        .map(|line| {
            // A `//` inside a string literal is rare in this code base; a
            // comment is what matters here.
            let mut in_str = false;
            let bytes = line.as_bytes();
            for i in 0..bytes.len() {
                match bytes[i] {
                    b'"' if i == 0 || bytes[i - 1] != b'\\' => in_str = !in_str,
                    b'/' if !in_str && bytes.get(i + 1) == Some(&b'/') => return &line[..i],
                    _ => {}
                }
            }
            line
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident_at(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}

/// The crate-root names a file refers to.
fn root_refs(src: &str, path: &[String]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in src.match_indices("crate::") {
        if i > 0 && src[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let rest = &src[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // `crate::{a, b::c}`: the first name of each item at the top level.
            let mut depth = 0;
            let mut start = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && (c.is_alphanumeric() || c == '_') => {
                        out.insert(ident_at(&group[j..]).to_string());
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            out.insert(ident_at(rest).to_string());
        }
    }
    for (i, _) in src.match_indices("super::") {
        if i > 0 && src[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let mut rest = &src[i..];
        let mut ups = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            ups += 1;
            rest = r;
        }
        if ups == path.len() {
            out.insert(ident_at(rest).to_string());
        }
    }
    out
}

/// Each top-level module's dependencies on the others, with one file that
/// makes each.
fn module_graph() -> BTreeMap<String, BTreeMap<String, String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let rel: Vec<PathBuf> = files.iter().map(|f| f.strip_prefix(&src).expect("under src").to_path_buf()).collect();
    let tops: BTreeSet<String> = rel
        .iter()
        .filter(|r| !r.starts_with("bin"))
        .map(|r| module_path(r))
        .filter(|p| !p.is_empty() && p[0] != "lib")
        .map(|p| p[0].clone())
        .collect();
    let mut graph: BTreeMap<String, BTreeMap<String, String>> =
        tops.iter().map(|t| (t.clone(), BTreeMap::new())).collect();
    for (file, r) in files.iter().zip(&rel) {
        let path = module_path(r);
        if r.starts_with("bin") || path.is_empty() || path[0] == "lib" {
            continue;
        }
        let text = strip_line_comments(&std::fs::read_to_string(file).expect("readable"));
        for name in root_refs(&text, &path) {
            if name != path[0] && tops.contains(&name) {
                graph.get_mut(&path[0]).expect("a top module").entry(name).or_insert_with(|| r.display().to_string());
            }
        }
    }
    graph
}

/// A cycle through the graph, if any (depth-first search, in name order).
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            match state.get(m.as_str()).copied().unwrap_or(0) {
                0 => {
                    if let Some(c) = visit(m, graph, state, stack) {
                        return Some(c);
                    }
                }
                1 => {
                    let from = stack.iter().position(|s| s == m).expect("on the stack");
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(m.clone());
                    return Some(cycle);
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if state.get(n.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(n, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn top_level_modules_have_no_cycle() {
    let graph = module_graph();
    for (from, to) in KNOWN_CYCLE_EDGES {
        assert!(
            graph.get(*from).is_some_and(|deps| deps.contains_key(*to)),
            "{from} -> {to} is gone: remove it from KNOWN_CYCLE_EDGES"
        );
    }
    let pruned: BTreeMap<String, BTreeSet<String>> = graph
        .iter()
        .map(|(from, deps)| {
            let kept = deps.keys().filter(|to| !KNOWN_CYCLE_EDGES.contains(&(from.as_str(), to.as_str())));
            (from.clone(), kept.cloned().collect())
        })
        .collect();
    if let Some(cycle) = find_cycle(&pruned) {
        let steps: Vec<String> =
            cycle.windows(2).map(|w| format!("  {} -> {}   (e.g. {})", w[0], w[1], graph[&w[0]][&w[1]])).collect();
        panic!("a cycle between top-level modules:\n{}\n", steps.join("\n"));
    }
}

/// The scan itself: it sees a dependency written each way.
#[test]
fn the_scan_reads_paths_groups_and_super() {
    let path = vec!["sim".to_string()];
    let refs = root_refs("use crate::balance::x; use crate::{config, time::SimTime}; use super::task::Task;", &path);
    assert_eq!(refs.into_iter().collect::<Vec<_>>(), ["balance", "config", "task", "time"]);
    let graph = module_graph();
    assert!(graph["api"].contains_key("sim"), "api reads the simulator");
}
