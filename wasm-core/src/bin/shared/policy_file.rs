//! A sched_ext policy read from the file a scenario names
//! (`policy.source_file`). The scenario names the file, so it may name
//! anything the CLI can read, and `schedsim real` runs as root:
//!
//! ```text
//!   not a regular file (/dev/zero never ends; a FIFO blocks)   refused by its type, unread
//!   more than 64 KiB                                            refused by its size, unread; at most one byte past
//!                                                               the limit is read in any case
//!   not UTF-8, or not JavaScript (/etc/shadow, /proc/self/environ)
//!                                                               refused with the error's place and kind only
//!   JavaScript declaring no sched_ext callback (a one-word token or hostname file parses as JavaScript)
//!                                                               refused unrun: running it would quote its first
//!                                                               word ("ReferenceError: <the token> is not defined")
//! ```
//!
//! No refusal quotes the file's text.

use schedlab_core::api::scenario::MAX_POLICY_SOURCE;
use schedlab_core::sim::ext::syntax::check_syntax;
use std::io::Read;

/// The callbacks of sched_ext's `struct sched_ext_ops` a policy may define, as the runtime looks them up
/// (`sched/ext/runtime.js`, `__scx_boot`).
const CALLBACKS: [&str; 12] = [
    "select_cpu",
    "enqueue",
    "dequeue",
    "dispatch",
    "runnable",
    "running",
    "stopping",
    "quiescent",
    "tick",
    "init_task",
    "exit_task",
    "init",
];

/// A policy file's text, or why it is refused (never quoting it).
pub fn read_policy_file(at: &std::path::Path) -> Result<String, String> {
    use std::os::unix::fs::OpenOptionsExt;
    const MAX: usize = MAX_POLICY_SOURCE;
    let regular = |m: &std::fs::Metadata| {
        if !m.is_file() {
            return Err("not a regular file".to_string());
        }
        if m.len() > MAX as u64 {
            return Err(format!("{} bytes; the largest policy source is {MAX} bytes", m.len()));
        }
        Ok(())
    };
    regular(&std::fs::metadata(at).map_err(|e| e.to_string())?)?;
    // O_NONBLOCK: a FIFO swapped in after the check does not hold the open.
    let file =
        std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(at).map_err(|e| e.to_string())?;
    regular(&file.metadata().map_err(|e| e.to_string())?)?;
    let mut bytes = Vec::new();
    file.take(MAX as u64 + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() > MAX {
        return Err(format!("more than {MAX} bytes; the largest policy source is {MAX} bytes"));
    }
    let source = String::from_utf8(bytes)
        .map_err(|e| format!("not UTF-8 text (invalid bytes at offset {})", e.utf8_error().valid_up_to()))?;
    check_syntax(&source).map_err(|p| {
        format!(
            "line {}, column {}: {}: the file is not a JavaScript policy (its text is not shown)",
            p.line, p.column, p.kind
        )
    })?;
    if !declares_a_callback(&source) {
        return Err(format!(
            "the file declares none of the sched_ext callbacks ({}): not a policy, so it is not run (its text \
             is not shown)",
            CALLBACKS.join(", ")
        ));
    }
    Ok(source)
}

/// Whether `source` declares one of `CALLBACKS` (`function NAME`, or `var`, `let` or `const NAME`), read
/// word by word. Comments and strings are not told apart: the check keeps a file that is not a policy
/// (a secret, a hostname) from being run, and such a file holds no such declaration; a file written to
/// pass it is a policy its author wrote.
fn declares_a_callback(source: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let words: Vec<&str> = source.split(|c: char| !word(c)).filter(|w| !w.is_empty()).collect();
    words.windows(2).any(|w| matches!(w[0], "function" | "var" | "let" | "const") && CALLBACKS.contains(&w[1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_callbacks_are_the_runtimes() {
        let runtime = include_str!("../../sched/ext/runtime.js");
        let list = runtime.split_once("['select_cpu'").map(|(_, rest)| rest.split_once(']').unwrap().0).unwrap();
        let named: Vec<&str> =
            ["select_cpu"].into_iter().chain(list.split(',').map(|n| n.trim().trim_matches('\'')).skip(1)).collect();
        assert_eq!(named, CALLBACKS);
    }

    #[test]
    fn a_policy_declares_a_callback_and_a_token_file_does_not() {
        assert!(declares_a_callback("function enqueue(p, f) { scx.dsq_insert(p, -1, 0, f); }"));
        assert!(declares_a_callback("const dispatch = (cpu, prev) => {};"));
        assert!(declares_a_callback("var init=function(){}"));
        for not in ["hunter2secret\n", "API_KEY = \"abc\"\n", "function enqueued() {}", "enqueue(1)", ""] {
            assert!(!declares_a_callback(not), "{not:?}");
        }
    }
}
