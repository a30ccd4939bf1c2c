//! A sched_ext policy's syntax checked without running it (native only, with
//! boa's parser), for the CLI's `policy.source_file`: a file named by a
//! scenario may be anything readable (`/etc/shadow`, a key), and a parse
//! error's message quotes the offending token. The caller reports where the
//! text failed and the kind of error, never the text.

use crate::sim::ext::guard;
use boa_engine::{Context, Script, Source};

/// Where a source failed to parse (1-based; 0 when the parser did not say)
/// and the error's kind (`SyntaxError`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxProblem {
    pub line: u32,
    pub column: u32,
    pub kind: String,
}

/// The runtime compiles a policy as a strict function body on the line of
/// its own first line (`sched/ext/runtime.js`); parsed the same way, a
/// position on line 1 is past this prefix.
const PREFIX: &str = "function __policy() {'use strict';";

/// Ok if `source` parses as the runtime will compile it, or nests deeper
/// than a policy may: boa's parser recurses on every bracket, and a file of
/// 20,000 nested brackets overflows even a 256 MiB stack, which aborts the
/// process. That source is left to the guard, which refuses it unparsed
/// when the policy is built ("the policy's brackets nest N deep"), as it
/// refuses one given inline; its text is not shown either way.
pub fn check_syntax(source: &str) -> Result<(), SyntaxProblem> {
    if guard::nesting(source) > guard::MAX_NESTING {
        return Ok(());
    }
    let text = format!("{PREFIX}{source}\n}}");
    let mut ctx = Context::default();
    match Script::parse(Source::from_bytes(&text), None, &mut ctx) {
        Ok(_) => Ok(()),
        Err(e) => {
            let message = e.to_string();
            let kind = message.split(':').next().filter(|k| k.ends_with("Error")).unwrap_or("SyntaxError");
            let (line, column) = position(&message);
            let column = if line == 1 { column.saturating_sub(PREFIX.len() as u32) } else { column };
            Err(SyntaxProblem { line, column, kind: kind.to_string() })
        }
    }
}

/// `… at line L, col C` at the end of boa's message, else (0, 0).
fn position(message: &str) -> (u32, u32) {
    let Some(at) = message.rfind("line ") else { return (0, 0) };
    let mut nums = message[at..].split(|c: char| !c.is_ascii_digit()).filter(|s| !s.is_empty());
    let line = nums.next().and_then(|n| n.parse().ok()).unwrap_or(0);
    let column = nums.next().and_then(|n| n.parse().ok()).unwrap_or(0);
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_policy_that_parses_passes_and_one_that_does_not_is_placed() {
        assert_eq!(check_syntax("function enqueue(p) { scx.dsq_insert(p, -1, 0); }"), Ok(()));
        let p = check_syntax("var a = 1;\nroot:x:19000:0:99999:7:::\n").unwrap_err();
        assert_eq!((p.line, p.kind.as_str()), (2, "SyntaxError"));
        assert!(p.column > 0, "{p:?}");
        // Strict mode, as the runtime compiles it.
        assert!(check_syntax("with (a) {}").is_err());
    }

    #[test]
    fn brackets_deeper_than_a_policy_may_nest_are_left_to_the_guard_unparsed() {
        // Parsed, this would overflow the test thread's stack (and the CLI's 256 MiB one).
        let deep = format!("function enqueue(p) {{ var x = {}1{}; }}", "(".repeat(30_000), ")".repeat(30_000));
        assert_eq!(check_syntax(&deep), Ok(()));
        assert!(guard::instrument(&deep).unwrap_err().contains("the policy's brackets nest 30001 deep"));
    }
}
