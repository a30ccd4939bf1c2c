//! The native host of sched_ext policies: boa, a JavaScript engine in Rust.
//! What a policy may spend is counted by the host (`guard.rs`: steps per
//! callback over every frame and builtin, bracket nesting, memory); boa's
//! own limits stay as a backstop (one loop's rounds, call depth, value
//! stack). Code built from strings (`Function`, `eval`) is refused once the
//! runtime has compiled the policy: it would run uncounted.

use crate::sim::ext::guard;
use crate::sim::ext::host::{parse_kicks, HostOp, PolicyHost, RUNTIME_JS};
use boa_engine::context::HostHooks;
use boa_engine::job::IdleJobQueue;
use boa_engine::object::builtins::JsFunction;
use boa_engine::realm::Realm;
use boa_engine::{Context, JsNativeError, JsResult, JsString, JsValue, NativeFunction, Source};
use std::cell::Cell;

/// Iterations one loop of a policy may make in one callback (boa's own
/// bound, under the host's `guard::STEP_LIMIT`).
pub const LOOP_LIMIT: u64 = 10_000_000;
/// Frames (JavaScript calls) deep a callback may go.
pub const RECURSION_LIMIT: usize = 256;

thread_local! {
    /// Set from the runtime's start to its compile of the policy on this
    /// thread: the one time code may be built from a string.
    static COMPILING: Cell<bool> = const { Cell::new(false) };
}

struct Hooks;
static HOOKS: Hooks = Hooks;

impl HostHooks for Hooks {
    fn ensure_can_compile_strings(
        &self,
        _realm: Realm,
        _parameters: &[JsString],
        _body: &JsString,
        _direct: bool,
        _context: &mut Context,
    ) -> JsResult<()> {
        // The runtime's one compile of the policy; nothing after it.
        if COMPILING.with(|c| c.replace(false)) {
            Ok(())
        } else {
            Err(JsNativeError::typ()
                .with_message("a policy cannot build code from a string (Function, eval): it would run uncounted")
                .into())
        }
    }

    // No clock: were `Date` reached, it would read the epoch, the same on
    // every machine and in the page's guest (where no clock exists).
    fn utc_now(&self) -> i64 {
        0
    }

    fn local_timezone_offset_seconds(&self, _unix_time_seconds: i64) -> i32 {
        0
    }

    // An ArrayBuffer is refused past the memory a callback may take, before
    // any of it is allocated.
    fn max_buffer_size(&self, _context: &mut Context) -> u64 {
        guard::MEMORY_LIMIT as u64
    }
}

pub struct BoaHost {
    ctx: Context,
    call: JsFunction,
    init_task: JsFunction,
    kicks: JsFunction,
}

fn global(ctx: &mut Context, name: &str) -> Result<JsFunction, String> {
    let v = ctx.global_object().get(JsString::from(name), ctx).map_err(|e| e.to_string())?;
    v.as_object().cloned().and_then(JsFunction::from_object).ok_or_else(|| format!("the runtime lacks {name}"))
}

impl BoaHost {
    pub fn create(source: &str, nr_cpus: u32, seed: u64) -> Result<Box<dyn PolicyHost>, String> {
        // Counted text; a syntax error is left to the runtime's compile of
        // the text as written, which places it.
        let text = match guard::instrument(source) {
            Ok(t) => t,
            Err(e) if e.starts_with("SyntaxError") => source.to_string(),
            Err(e) => return Err(format!("the policy does not load: {e}")),
        };
        // Promise jobs never run natively: the idle queue drops them rather
        // than holding every one for good.
        let mut ctx = Context::builder()
            .host_hooks(&HOOKS)
            .job_queue(std::rc::Rc::new(IdleJobQueue))
            .build()
            .map_err(|e| e.to_string())?;
        ctx.runtime_limits_mut().set_loop_iteration_limit(LOOP_LIMIT);
        ctx.runtime_limits_mut().set_recursion_limit(RECURSION_LIMIT);
        ctx.eval(Source::from_bytes(RUNTIME_JS)).map_err(|e| e.to_string())?;
        let boot = global(&mut ctx, "__scx_boot")?;
        let step = NativeFunction::from_fn_ptr(guard::step_fn).to_js_function(ctx.realm());
        let args = [
            JsValue::from(JsString::from(text.as_str())),
            JsValue::from(nr_cpus),
            JsValue::from((seed % (1 << 53)) as f64),
            JsValue::from(step),
        ];
        COMPILING.with(|c| c.set(true));
        guard::reset_memory();
        guard::begin("init");
        let booted = boot.call(&JsValue::undefined(), &args, &mut ctx);
        COMPILING.with(|c| c.set(false));
        let broken = guard::end();
        if let Some(limit) = broken {
            return Err(format!("init: {}", limit.describe()));
        }
        booted.map_err(|e| format!("the policy does not load: {}", placed_in_source(&e.to_string(), source)))?;
        let call = global(&mut ctx, "__scx_call")?;
        let init_task = global(&mut ctx, "__scx_init_task")?;
        let kicks = global(&mut ctx, "__scx_kicks")?;
        Ok(Box::new(BoaHost { ctx, call, init_task, kicks }))
    }

    fn error(&mut self) -> String {
        let v = self.ctx.global_object().get(JsString::from("__scx_error"), &mut self.ctx);
        v.ok().and_then(|v| v.as_string().map(|s| s.to_std_string_escaped())).unwrap_or_default()
    }

    fn number(&mut self, v: JsValue) -> Result<f64, String> {
        let n = v.as_number().unwrap_or(f64::NAN);
        if n.is_nan() {
            Err(self.error())
        } else {
            Ok(n)
        }
    }
}

/// A syntax error's position in the policy's own text. The runtime compiles
/// the policy with the `Function` constructor, whose synthesized source puts
/// the body below a line of its own, so boa's "at line L, col C" counts that
/// line too; the same parse as the CLI's syntax check (`syntax.rs`) places
/// it in the text as written.
fn placed_in_source(message: &str, source: &str) -> String {
    let (Some(at), Err(p)) = (message.rfind(" at line "), crate::sim::ext::syntax::check_syntax(source)) else {
        return message.to_string();
    };
    if !message.starts_with("SyntaxError") || p.line == 0 {
        return message.to_string();
    }
    format!("{} at line {}, col {}", &message[..at], p.line, p.column)
}

/// Runs one callback under the guard's count: a broken limit is the
/// reason, whatever the policy did after (a `catch` of its own).
fn counted<R>(callback: &'static str, f: impl FnOnce() -> Result<R, String>) -> Result<R, String> {
    guard::begin(callback);
    let r = f();
    match guard::end() {
        Some(limit) => Err(limit.describe()),
        None => r,
    }
}

impl PolicyHost for BoaHost {
    fn call(&mut self, op: HostOp, args: [f64; 4]) -> Result<f64, String> {
        let a = [op as u32 as f64, args[0], args[1], args[2], args[3]].map(JsValue::from);
        let v = counted(op.callback(), || {
            self.call.call(&JsValue::undefined(), &a, &mut self.ctx).map_err(|e| e.to_string())
        })?;
        self.number(v)
    }

    fn init_task(&mut self, now: f64, pid: f64, weight: f64, nice: f64, cpus: &str) -> Result<(), String> {
        let mut a: Vec<JsValue> = [now, pid, weight, nice].into_iter().map(JsValue::from).collect();
        a.push(JsValue::from(JsString::from(cpus)));
        let v = counted("init_task", || {
            self.init_task.call(&JsValue::undefined(), &a, &mut self.ctx).map_err(|e| e.to_string())
        })?;
        self.number(v).map(|_| ())
    }

    fn kicks(&mut self) -> Result<Vec<(u32, bool)>, String> {
        let v = self.kicks.call(&JsValue::undefined(), &[], &mut self.ctx).map_err(|e| e.to_string())?;
        let s = v.as_string().map(|s| s.to_std_string_escaped()).unwrap_or_default();
        Ok(parse_kicks(&s))
    }
}
