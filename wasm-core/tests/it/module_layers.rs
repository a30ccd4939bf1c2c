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
//!
//! Inside `api` the same holds one level down and file by file: its
//! sub-modules (`api::scenario`, `api::report`, …) form no cycle, and
//! neither do its files. A 13-file loop once ran through the scenario
//! format, the editor's lists, the templates, the exercises and the report;
//! these tests keep it from coming back.

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

/// Fails on a cycle of `graph` once the `known` edges are left out, and on a
/// known edge that is gone (`list` names the constant to shrink).
fn assert_no_cycle(graph: &BTreeMap<String, BTreeMap<String, String>>, known: &[(&str, &str)], list: &str, what: &str) {
    for (from, to) in known {
        assert!(
            graph.get(*from).is_some_and(|deps| deps.contains_key(*to)),
            "{from} -> {to} is gone: remove it from {list}"
        );
    }
    let pruned: BTreeMap<String, BTreeSet<String>> = graph
        .iter()
        .map(|(from, deps)| {
            let kept = deps.keys().filter(|to| !known.contains(&(from.as_str(), to.as_str())));
            (from.clone(), kept.cloned().collect())
        })
        .collect();
    if let Some(cycle) = find_cycle(&pruned) {
        let steps: Vec<String> =
            cycle.windows(2).map(|w| format!("  {} -> {}   (e.g. {})", w[0], w[1], graph[&w[0]][&w[1]])).collect();
        panic!("a cycle between {what}:\n{}\n", steps.join("\n"));
    }
}

#[test]
fn top_level_modules_have_no_cycle() {
    assert_no_cycle(&module_graph(), KNOWN_CYCLE_EDGES, "KNOWN_CYCLE_EDGES", "top-level modules");
}

/// Dependencies between files of `api` that still close a cycle, each as
/// (from, to). The list may only shrink, as `KNOWN_CYCLE_EDGES`.
const KNOWN_API_FILE_CYCLE_EDGES: &[(&str, &str)] = &[];

/// The same between `api`'s own sub-modules (`api::scenario`, `api::report`, …).
const KNOWN_API_SUBMODULE_CYCLE_EDGES: &[(&str, &str)] = &[];

#[test]
fn api_files_have_no_cycle() {
    assert_no_cycle(&api_graph(usize::MAX), KNOWN_API_FILE_CYCLE_EDGES, "KNOWN_API_FILE_CYCLE_EDGES", "files of api");
}

#[test]
fn api_submodules_have_no_cycle() {
    let list = "KNOWN_API_SUBMODULE_CYCLE_EDGES";
    assert_no_cycle(&api_graph(2), KNOWN_API_SUBMODULE_CYCLE_EDGES, list, "api's sub-modules");
}

/// Every module of `src/api` with the text of its file (comments left out):
/// `api/report/verdict.rs` is `api::report::verdict`, `api/report/mod.rs` is
/// `api::report`, and a file a `#[path]` attribute names is the module its
/// declaration names (`frame_test.rs` beside `views/frame.rs`: `api::views::frame::frame_test`).
fn api_modules() -> BTreeMap<Vec<String>, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("api"), &mut files);
    let texts: BTreeMap<PathBuf, String> = files
        .iter()
        .map(|f| (f.clone(), strip_line_comments(&std::fs::read_to_string(f).expect("readable"))))
        .collect();
    let mut path_of: BTreeMap<PathBuf, Vec<String>> =
        files.iter().map(|f| (f.clone(), module_path(f.strip_prefix(&src).expect("under src")))).collect();
    for (file, text) in &texts {
        for (i, _) in text.match_indices("#[path = \"") {
            let rest = &text[i + "#[path = \"".len()..];
            let target = &rest[..rest.find('"').expect("a closed path")];
            let decl = rest.split_once("mod ").expect("a module declared").1;
            let mut module = path_of[file].clone();
            module.push(ident_at(decl).to_string());
            path_of.insert(file.parent().expect("a folder").join(target), module);
        }
    }
    texts.into_iter().map(|(f, text)| (path_of[&f].clone(), text)).collect()
}

/// The paths a use tree or a path names, from just after its `crate::`,
/// `super::` or first segment: `{a, b::{c, d}}` is [a], [b, c], [b, d];
/// `x::y(…)` is [x, y]; a trailing `self` or `*` names the module so far.
fn paths_at(s: &str) -> Vec<Vec<String>> {
    let mut segs: Vec<String> = Vec::new();
    let mut rest = s;
    loop {
        rest = rest.trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut start, mut out) = (0, 0, Vec::new());
            for (i, c) in group.char_indices() {
                let end = match c {
                    '{' => {
                        depth += 1;
                        false
                    }
                    '}' if depth > 0 => {
                        depth -= 1;
                        false
                    }
                    '}' => true,
                    ',' => depth == 0,
                    _ => false,
                };
                if end {
                    for p in paths_at(&group[start..i]) {
                        out.push(segs.iter().cloned().chain(p).collect());
                    }
                    start = i + 1;
                    if c == '}' {
                        break;
                    }
                }
            }
            return out;
        }
        let id = ident_at(rest);
        if id.is_empty() || id == "self" {
            break;
        }
        segs.push(id.to_string());
        match rest[id.len()..].strip_prefix("::") {
            Some(r) => rest = r,
            None => break,
        }
    }
    vec![segs]
}

/// Whether the text before a path's start leaves it a path of its own (not the tail of another).
fn starts_path(before: &str) -> bool {
    !before.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':' || c == '$')
}

/// The modules one file names (absolute paths), written from `crate::`, `super::`, `self::` or one of its own
/// child modules. A file's inline module (`mod tests { … }`, always last in this code base) is a level deeper.
fn named_modules(text: &str, module: &[String], children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let inline_from = text
        .lines()
        .scan(0, |at, line| {
            let start = *at;
            *at += line.len() + 1;
            Some((start, line.trim_start()))
        })
        .find(|(_, l)| l.strip_prefix("mod ").is_some_and(|r| r.trim_end().ends_with('{')))
        .map_or(usize::MAX, |(at, _)| at);
    let base = |at: usize| {
        let mut b = module.to_vec();
        if at >= inline_from {
            b.push("tests".into());
        }
        b
    };
    let mut out = Vec::new();
    for (i, _) in text.match_indices("crate::").filter(|(i, _)| starts_path(&text[..*i])) {
        out.extend(paths_at(&text[i + "crate::".len()..]));
    }
    for (i, _) in text.match_indices("self::").filter(|(i, _)| starts_path(&text[..*i])) {
        out.extend(paths_at(&text[i + "self::".len()..]).into_iter().map(|p| [base(i), p].concat()));
    }
    for (i, _) in text.match_indices("super::").filter(|(i, _)| starts_path(&text[..*i])) {
        let mut rest = &text[i..];
        let mut b = base(i);
        while let Some(r) = rest.strip_prefix("super::") {
            b.pop();
            rest = r;
        }
        out.extend(paths_at(rest).into_iter().map(|p| [b.clone(), p].concat()));
    }
    for child in children {
        let head = format!("{child}::");
        for (i, _) in text.match_indices(&head).filter(|(i, _)| starts_path(&text[..*i])) {
            out.extend(paths_at(&text[i..]).into_iter().map(|p| [module.to_vec(), p].concat()));
        }
    }
    out
}

/// The dependencies between `api`'s modules, each cut to its first `depth`
/// levels below the crate root (2: `api::scenario`), with one file that makes each.
fn api_graph(depth: usize) -> BTreeMap<String, BTreeMap<String, String>> {
    let modules = api_modules();
    let known: BTreeSet<Vec<String>> = modules.keys().cloned().collect();
    let name = |m: &[String]| m[..m.len().min(depth)].join("::");
    let mut graph: BTreeMap<String, BTreeMap<String, String>> =
        known.iter().map(|m| (name(m), BTreeMap::new())).collect();
    for (module, text) in &modules {
        let children: BTreeSet<String> = known
            .iter()
            .filter(|k| k.len() == module.len() + 1 && k.starts_with(module))
            .map(|k| k[module.len()].clone())
            .collect();
        for path in named_modules(text, module, &children) {
            // The longest module the path is in: `api::report::Report` is `api::report`.
            let Some(target) = (1..=path.len()).rev().map(|n| &path[..n]).find(|p| known.contains(*p)) else {
                continue;
            };
            let (from, to) = (name(module), name(target));
            if from != to {
                graph.get_mut(&from).expect("a module").entry(to).or_insert_with(|| module.join("/"));
            }
        }
    }
    graph
}

/// The scan itself: it sees a dependency written each way.
#[test]
fn the_scan_reads_paths_groups_and_super() {
    let path = vec!["sim".to_string()];
    let refs = root_refs("use crate::balance::x; use crate::{config, time::SimTime}; use super::task::Task;", &path);
    assert_eq!(refs.into_iter().collect::<Vec<_>>(), ["balance", "config", "task", "time"]);
    let graph = module_graph();
    assert!(graph["api"].contains_key("sim"), "api reads the simulator");
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(paths_at("{a, b::{c, self}, d::*}; e"), [s(&["a"]), s(&["b", "c"]), s(&["b"]), s(&["d"])]);
    let module = s(&["api", "report", "text"]);
    let text = "use super::verdict::line;\nuse crate::api::{text::shown, scenario};\nmod tests {\n    use super::*;\n}";
    let named = named_modules(text, &module, &BTreeSet::new());
    let crate_paths = [s(&["api", "text", "shown"]), s(&["api", "scenario"])];
    assert_eq!(named[..2], crate_paths);
    assert_eq!(named[2], s(&["api", "report", "verdict", "line"]));
    assert_eq!(named[3], module, "`super` in the file's tests is the file");
}
