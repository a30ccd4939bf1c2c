//! What a policy may spend natively, counted by the host so that a limit
//! trips at the same point on every machine (steps, never time):
//!
//! - **steps per callback, over every frame**: the policy's text is parsed
//!   and printed again with a count at the head of every function body and
//!   every loop body (`instrument`); the count is a native function the
//!   policy receives as a parameter under a name it may not use. Heavy
//!   builtins charge their size through the same count (`runtime.js`'s
//!   `__scx_boot` wraps them when given the count). Boa's own limits stay
//!   as a backstop: a loop's rounds, the call depth, the value stack.
//! - **nesting**: boa's parser recurses on every bracket; a policy whose
//!   brackets nest deeper than `MAX_NESTING` is refused before it is parsed.
//! - **memory**: the policy's heap, as a probe the binary registers reads it
//!   (`set_memory_probe`; the library alone has no allocator to ask),
//!   checked at every `MEMORY_EVERY` steps and after every callback, and at
//!   the next step after a request past the hard cap that its host let
//!   through (`look_at_memory`).
//!
//! A limit ends the policy with an uncatchable error naming the limit; the
//! class names the callback.

use boa_engine::ast::expression::Expression;
use boa_engine::ast::function::FunctionBody;
use boa_engine::ast::statement::iteration::{DoWhileLoop, ForInLoop, ForLoop, ForOfLoop, WhileLoop};
use boa_engine::ast::statement::{Block, Statement};
use boa_engine::ast::visitor::{VisitWith, VisitorMut};
use boa_engine::ast::{Declaration, StatementListItem};
use boa_engine::interner::{Interner, ToIndentedString};
use boa_engine::parser::{Parser, Source};
use boa_engine::{JsNativeError, JsResult, JsValue};
use std::cell::Cell;
use std::ops::ControlFlow;
use std::sync::OnceLock;

/// Steps one callback may take: a loop's round, a function's entry, an
/// element a builtin goes over.
pub const STEP_LIMIT: u64 = 2_000_000;
/// How deep a policy's brackets may nest.
pub const MAX_NESTING: usize = 64;
/// The policy's heap may grow to this many bytes (where a probe is set).
/// (Boa's collector goes over every live object at each collection, so a
/// heap of millions of small objects is slow to fill: 64 MiB of them take
/// a few seconds; a policy's queues of thousands of tasks take a few MiB.)
pub const MEMORY_LIMIT: usize = 64 << 20;
/// Steps between two looks at the memory probe.
const MEMORY_EVERY: u64 = 1 << 12;
/// The count's name in the instrumented text; a policy may not use it.
pub const STEP_NAME: &str = "__scx_step";

thread_local! {
    static STEPS: Cell<u64> = const { Cell::new(0) };
    /// The limit a callback broke, for the host's message.
    static BROKEN: Cell<Option<Limit>> = const { Cell::new(None) };
    /// The callback running on this thread (the binary's last-resort
    /// messages name it).
    static CALLBACK: Cell<Option<&'static str>> = const { Cell::new(None) };
    /// The heap is to be read at the next step, not the next `MEMORY_EVERY`.
    static LOOK: Cell<bool> = const { Cell::new(false) };
}

/// How the policy heap is read, and set back to zero when a policy starts.
struct Probe {
    read: fn() -> usize,
    reset: fn(),
}
static MEMORY_PROBE: OnceLock<Probe> = OnceLock::new();

/// Registers how the policy's heap is read (the `schedsim` binary's
/// counting allocator: the bytes allocated while a policy runs on this
/// thread, less those freed) and how it is zeroed when a policy is built
/// (a thread runs one run at a time: a sweep's worker runs many in turn).
pub fn set_memory_probe(read: fn() -> usize, reset: fn()) {
    let _ = MEMORY_PROBE.set(Probe { read, reset });
}

/// A policy is built on this thread: its heap starts empty.
pub fn reset_memory() {
    if let Some(p) = MEMORY_PROBE.get() {
        (p.reset)();
    }
}

/// The callback running on this thread, if a policy runs.
pub fn current_callback() -> Option<&'static str> {
    CALLBACK.with(Cell::get)
}

/// The policy's heap is read at its next step: a request past the hard cap
/// was let through (`policy_heap`), and the steps to the next regular look
/// could double a string to terabytes, one step each. Called from the
/// allocator: it only sets a const-initialised thread-local, which never
/// allocates.
pub fn look_at_memory() {
    LOOK.with(|l| l.set(true));
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Steps,
    Memory(usize),
}

impl Limit {
    pub fn describe(self) -> String {
        match self {
            Limit::Steps => format!(
                "the policy went past {STEP_LIMIT} steps in one callback (loop rounds, calls and builtins' work, \
                 over every frame): does it ever end?"
            ),
            Limit::Memory(bytes) => format!(
                "the policy's memory went past its limit of {} MiB ({} MiB in use)",
                MEMORY_LIMIT >> 20,
                bytes >> 20
            ),
        }
    }
}

/// A callback starts: its counts from zero, steps and memory alike. The
/// memory limit is what one callback may take: what it allocates less what it
/// frees. Counted over a whole run it would also count what the engine keeps
/// from a callback and frees later outside one (a task put on a queue), and
/// what boa's collector frees between callbacks, and grow without a leak.
pub fn begin(callback: &'static str) {
    reset_memory();
    STEPS.with(|s| s.set(0));
    BROKEN.with(|b| b.set(None));
    LOOK.with(|l| l.set(false));
    CALLBACK.with(|c| c.set(Some(callback)));
}

/// A callback ended: the limit it broke, if any, also one it broke inside a
/// `catch` the policy wrote, or in memory since its last count.
pub fn end() -> Option<Limit> {
    CALLBACK.with(|c| c.set(None));
    if let Some(l) = BROKEN.with(Cell::get) {
        return Some(l);
    }
    memory_over().map(Limit::Memory)
}

fn memory_over() -> Option<usize> {
    let used = MEMORY_PROBE.get().map(|p| (p.read)())?;
    (used > MEMORY_LIMIT).then_some(used)
}

/// Charges `n` steps; past a limit, an error no `catch` stops.
pub fn charge(n: u64) -> JsResult<()> {
    let before = STEPS.with(Cell::get);
    let after = before.saturating_add(n);
    STEPS.with(|s| s.set(after));
    let broken = if after > STEP_LIMIT {
        Some(Limit::Steps)
    } else if LOOK.with(Cell::take) || before / MEMORY_EVERY != after / MEMORY_EVERY {
        memory_over().map(Limit::Memory)
    } else {
        None
    };
    match broken {
        Some(l) => {
            BROKEN.with(|b| b.set(Some(l)));
            Err(JsNativeError::runtime_limit().with_message(l.describe()).into())
        }
        None => Ok(()),
    }
}

/// The native `__scx_step(n)`: one step, or `n` (a builtin's work).
pub fn step_fn(_this: &JsValue, args: &[JsValue], _ctx: &mut boa_engine::Context) -> JsResult<JsValue> {
    let n = match args.first().and_then(JsValue::as_number) {
        Some(n) if n.is_finite() && n >= 1.0 => n.min(1e18) as u64,
        Some(n) if n.is_nan() || n.is_infinite() => u64::MAX,
        _ => 1,
    };
    charge(n)?;
    Ok(JsValue::undefined())
}

/// The deepest the brackets of `source` nest (round, square, curly and
/// template substitutions), outside strings and comments: boa's parser
/// recurses on each, a few kilobytes of stack a level.
pub fn nesting(source: &str) -> usize {
    let b = source.as_bytes();
    let (mut depth, mut max, mut i) = (0usize, 0usize, 0usize);
    // The depths at which a template literal's text resumes (`}` of `${`).
    let mut templates: Vec<usize> = Vec::new();
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'`' => {
                i += 1;
                template_text(b, &mut i, &mut depth, &mut max, &mut templates);
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b')' | b']' => depth = depth.saturating_sub(1),
            b'}' => {
                if templates.last() == Some(&depth) {
                    // Back in the template's text.
                    templates.pop();
                    depth = depth.saturating_sub(1);
                    i += 1;
                    template_text(b, &mut i, &mut depth, &mut max, &mut templates);
                } else {
                    depth = depth.saturating_sub(1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    max
}

/// A template literal's text from `i` up to its closing backquote (left at
/// `i`) or a `${`, which opens a level whose `}` resumes the text.
fn template_text(b: &[u8], i: &mut usize, depth: &mut usize, max: &mut usize, templates: &mut Vec<usize>) {
    while *i < b.len() && b[*i] != b'`' {
        if b[*i] == b'\\' {
            *i += 1;
        } else if b[*i] == b'$' && b.get(*i + 1) == Some(&b'{') {
            *depth += 1;
            *max = (*max).max(*depth);
            templates.push(*depth);
            *i += 1;
            return;
        }
        *i += 1;
    }
}

/// The policy as the runtime compiles it (a strict function body), with a
/// count at the head of every function body and loop body. An `Err` says
/// why it cannot run (its syntax errors are the syntax check's to place:
/// the caller parses it as written first).
pub fn instrument(source: &str) -> Result<String, String> {
    if source.contains(STEP_NAME) {
        return Err(format!("the name {STEP_NAME} is the runtime's: a policy may not use it"));
    }
    let depth = nesting(source);
    if depth > MAX_NESTING {
        return Err(format!("the policy's brackets nest {depth} deep; the most a policy may nest is {MAX_NESTING}"));
    }
    let mut interner = Interner::default();
    let text = format!("function __policy() {{'use strict';{source}\n}}");
    let scope = boa_engine::ast::scope::Scope::new_global();
    let mut script = Parser::new(Source::from_bytes(&text))
        .parse_script(&scope, &mut interner)
        .map_err(|e| format!("SyntaxError: {e}"))?;
    let count = {
        let stmt = format!("{STEP_NAME}();");
        let s =
            Parser::new(Source::from_bytes(&stmt)).parse_script(&scope, &mut interner).map_err(|e| e.to_string())?;
        s.statements().statements()[0].clone()
    };
    let mut v = Counter { count, regexp: false };
    let _ = script.visit_with_mut(&mut v);
    crate::sim::ext::reprint::quote_strings(&mut script, &mut interner);
    if v.regexp {
        return Err("regular expressions are not available to a policy (their backtracking is not counted)".into());
    }
    let Some(StatementListItem::Declaration(Declaration::FunctionDeclaration(f))) =
        script.statements().statements().first()
    else {
        return Err("the policy does not parse as a function body".into());
    };
    Ok(f.body().statement_list().to_indented_string(&interner, 0))
}

struct Counter {
    count: StatementListItem,
    regexp: bool,
}

impl Counter {
    fn counted(&self, body: &Statement) -> Statement {
        Statement::Block(Block::from(vec![self.count.clone(), StatementListItem::Statement(body.clone())]))
    }
}

impl<'ast> VisitorMut<'ast> for Counter {
    type BreakTy = ();

    fn visit_function_body_mut(&mut self, node: &'ast mut FunctionBody) -> ControlFlow<()> {
        let _ = node.visit_with_mut(self);
        let mut items = vec![self.count.clone()];
        items.extend(node.statements().iter().cloned());
        *node = FunctionBody::new(items, node.strict());
        ControlFlow::Continue(())
    }

    fn visit_statement_mut(&mut self, node: &'ast mut Statement) -> ControlFlow<()> {
        let _ = node.visit_with_mut(self);
        let counted = match &*node {
            Statement::WhileLoop(l) => {
                Statement::WhileLoop(WhileLoop::new(l.condition().clone(), self.counted(l.body())))
            }
            Statement::DoWhileLoop(l) => {
                Statement::DoWhileLoop(DoWhileLoop::new(self.counted(l.body()), l.cond().clone()))
            }
            Statement::ForLoop(l) => Statement::ForLoop(ForLoop::new(
                l.init().cloned(),
                l.condition().cloned(),
                l.final_expr().cloned(),
                self.counted(l.body()),
            )),
            Statement::ForInLoop(l) => Statement::ForInLoop(ForInLoop::new(
                l.initializer().clone(),
                l.target().clone(),
                self.counted(l.body()),
            )),
            Statement::ForOfLoop(l) => Statement::ForOfLoop(ForOfLoop::new(
                l.initializer().clone(),
                l.iterable().clone(),
                self.counted(l.body()),
                l.r#await(),
            )),
            _ => return ControlFlow::Continue(()),
        };
        *node = counted;
        ControlFlow::Continue(())
    }

    fn visit_expression_mut(&mut self, node: &'ast mut Expression) -> ControlFlow<()> {
        if matches!(node, Expression::RegExpLiteral(_)) {
            self.regexp = true;
        }
        node.visit_with_mut(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_and_loop_body_counts() {
        let out =
            instrument("var n = 0;\nfunction f(a) { while (a) a--; return a => a + 1; }\nfor (;;) break;\n").unwrap();
        // The policy's own body (its top level), f, the while, the arrow, the for.
        assert_eq!(out.matches(STEP_NAME).count(), 5, "{out}");
        assert!(instrument("var __scx_step = 1;").is_err());
        assert!(instrument("var r = /a+/;").unwrap_err().contains("regular expressions"));
    }

    /// What the instrumented `source` returns, run by boa with a count that counts nothing.
    fn returned(source: &str) -> String {
        let text = instrument(source).unwrap();
        let program = format!("(function () {{ var {STEP_NAME} = function () {{}}; {text} }})()");
        let mut ctx = boa_engine::Context::default();
        let v = ctx.eval(Source::from_bytes(&program)).unwrap_or_else(|e| panic!("{e}: {text}"));
        v.to_string(&mut ctx).unwrap().to_std_string_escaped()
    }

    #[test]
    fn the_printed_policy_is_the_same_program() {
        // Keys that are not identifiers, strings with quotes and backslashes,
        // templates with backquotes and dollars: each reads back as written.
        let src = r#"var o = { 'a b': 1, '01': 2, 'x"y': 3, 1e21: 4, __proto__: null, 'é': 5 };
            var q = "q\"q\\" + 'it\'s' + "\u2028";
            var t = `t${'`'}\${x}` + `${"a" + `b`}`;
            return JSON.stringify(o) + '|' + q + '|' + t + '|' + Object.getPrototypeOf(o);"#;
        assert_eq!(
            returned(src),
            "{\"a b\":1,\"01\":2,\"x\\\"y\":3,\"1e+21\":4,\"é\":5}|q\"q\\it's\u{2028}|t`${x}ab|null"
        );
        // Code in a string stays a string: its loop is never run, counted or not.
        assert_eq!(returned(r#"var s = "\"; while (true) {} \""; return s.length;"#), "20");
    }

    #[test]
    fn nesting_counts_brackets_outside_strings_and_comments() {
        assert_eq!(nesting("f((1), [2, {a: 3}])"), 3);
        assert_eq!(nesting("'((((' + \"[[[\" // (((\n /* {{{ */ x"), 0);
        assert_eq!(nesting("`a ${ (b) } c ${ `d ${e}` }`"), 2);
        let deep = format!("var x = {}1{};", "(".repeat(700), ")".repeat(700));
        assert!(instrument(&deep).unwrap_err().contains("nest 700 deep"));
    }
}
