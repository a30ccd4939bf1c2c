//! The native host of sched_ext policies: boa, a JavaScript engine in Rust.
//! A policy's loops are bounded (`LOOP_LIMIT` iterations of one loop), so a
//! loop that never ends stops the run instead of the engine.

use crate::sim::ext::host::{parse_kicks, HostOp, PolicyHost, RUNTIME_JS};
use boa_engine::object::builtins::JsFunction;
use boa_engine::{Context, JsString, JsValue, Source};

/// Iterations one loop of a policy may make in one callback.
pub const LOOP_LIMIT: u64 = 10_000_000;

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
        let mut ctx = Context::default();
        ctx.runtime_limits_mut().set_loop_iteration_limit(LOOP_LIMIT);
        ctx.eval(Source::from_bytes(RUNTIME_JS)).map_err(|e| e.to_string())?;
        let boot = global(&mut ctx, "__scx_boot")?;
        let args =
            [JsValue::from(JsString::from(source)), JsValue::from(nr_cpus), JsValue::from((seed % (1 << 53)) as f64)];
        boot.call(&JsValue::undefined(), &args, &mut ctx)
            .map_err(|e| format!("the policy does not load: {}", placed_in_source(&e.to_string(), source)))?;
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

impl PolicyHost for BoaHost {
    fn call(&mut self, op: HostOp, args: [f64; 4]) -> Result<f64, String> {
        let a = [op as u32 as f64, args[0], args[1], args[2], args[3]].map(JsValue::from);
        let v = self.call.call(&JsValue::undefined(), &a, &mut self.ctx).map_err(|e| e.to_string())?;
        self.number(v)
    }

    fn init_task(&mut self, now: f64, pid: f64, weight: f64, nice: f64, cpus: &str) -> Result<(), String> {
        let mut a: Vec<JsValue> = [now, pid, weight, nice].into_iter().map(JsValue::from).collect();
        a.push(JsValue::from(JsString::from(cpus)));
        let v = self.init_task.call(&JsValue::undefined(), &a, &mut self.ctx).map_err(|e| e.to_string())?;
        self.number(v).map(|_| ())
    }

    fn kicks(&mut self) -> Result<Vec<(u32, bool)>, String> {
        let v = self.kicks.call(&JsValue::undefined(), &[], &mut self.ctx).map_err(|e| e.to_string())?;
        let s = v.as_string().map(|s| s.to_std_string_escaped()).unwrap_or_default();
        Ok(parse_kicks(&s))
    }
}
