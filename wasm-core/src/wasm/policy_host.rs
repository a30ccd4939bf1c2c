//! The page's host of sched_ext policies (wasm only): the engine worker's own JavaScript engine runs the policy,
//! through the factory the worker registered with `setPolicyHost` (`wasm/mod.rs`). Plain `js_sys` calls, no
//! binding attribute of its own: the binding crate's types come from the parent, the one binding file.

use super::{JsCast, JsValue};
use crate::sim::ext::host::{self, parse_kicks, HostOp, PolicyHost};
use js_sys::{Function, Reflect};
use std::cell::RefCell;

/// Keeps the worker's factory and makes it the engine's way to build each run's host.
pub fn register(factory: Function) {
    FACTORY.with(|x| *x.borrow_mut() = Some(factory));
    host::set_factory(JsHost::create);
}

thread_local! {
    static FACTORY: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// The page's host of sched_ext policies: the engine worker's own JavaScript
/// engine, through the factory it registered (`setPolicyHost`; the object
/// answers `call`, `initTask`, `kicks`, `error`, NaN from the first two
/// meaning the policy failed). It lives in TypeScript because the page bounds
/// the policy's loops there (src/engine/policy-host.ts).
struct JsHost {
    this: JsValue,
    call: Function,
    init_task: Function,
    kicks: Function,
    error: Function,
}

fn message(e: JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        return String::from(err.message());
    }
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}

fn method(obj: &JsValue, name: &str) -> Result<Function, String> {
    Reflect::get(obj, &JsValue::from_str(name))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| format!("the page's policy host lacks {name}()"))
}

impl JsHost {
    fn create(source: &str, nr_cpus: u32, seed: u64) -> Result<Box<dyn PolicyHost>, String> {
        let factory = FACTORY
            .with(|f| f.borrow().clone())
            .ok_or("no JavaScript host is registered in this worker for sched_ext policies")?;
        // The host boots the runtime it imports itself (the same runtime.js boa runs natively): the wasm does not
        // carry its text.
        let args = js_sys::Array::of3(
            &JsValue::from_str(source),
            &JsValue::from(nr_cpus),
            // The same 53 bits boa is given natively.
            &JsValue::from((seed % (1 << 53)) as f64),
        );
        let this = factory.apply(&JsValue::UNDEFINED, &args).map_err(message)?;
        Ok(Box::new(JsHost {
            call: method(&this, "call")?,
            init_task: method(&this, "initTask")?,
            kicks: method(&this, "kicks")?,
            error: method(&this, "error")?,
            this,
        }))
    }

    fn number(&self, v: Result<JsValue, JsValue>) -> Result<f64, String> {
        let n = v.map_err(message)?.as_f64().unwrap_or(f64::NAN);
        if n.is_nan() {
            Err(self.error.call0(&self.this).ok().and_then(|e| e.as_string()).unwrap_or_default())
        } else {
            Ok(n)
        }
    }
}

impl PolicyHost for JsHost {
    fn call(&mut self, op: HostOp, args: [f64; 4]) -> Result<f64, String> {
        let [a, b, c, d] = args.map(JsValue::from);
        let v = self.call.call5(&self.this, &JsValue::from(op as u32), &a, &b, &c, &d);
        self.number(v)
    }

    fn init_task(&mut self, now: f64, pid: f64, weight: f64, nice: f64, cpus: &str) -> Result<(), String> {
        let [a, b, c, d] = [now, pid, weight, nice].map(JsValue::from);
        let v = self.init_task.call5(&self.this, &a, &b, &c, &d, &JsValue::from_str(cpus));
        self.number(v).map(|_| ())
    }

    fn kicks(&mut self) -> Result<Vec<(u32, bool)>, String> {
        let s = self.kicks.call0(&self.this).map_err(message)?.as_string().unwrap_or_default();
        Ok(parse_kicks(&s))
    }
}
