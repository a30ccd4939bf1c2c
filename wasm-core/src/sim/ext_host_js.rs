//! The browser's host of sched_ext policies: the engine worker's own
//! JavaScript engine. The worker registers a factory once (`set_factory`,
//! from `wasm.rs`); for each run the factory boots `sched/ext/runtime.js`
//! over the policy's source and answers an object whose methods this host
//! calls: `call(op, a, b, c, d)`, `initTask(now, pid, weight, nice, cpus)`
//! and `kicks()` (NaN from the first two means the policy failed: `error()`
//! says why). The factory lives in TypeScript because the page bounds the
//! policy's loops there (V8 has no iteration limit like boa's).

use super::ext_host::{parse_kicks, HostOp, PolicyHost, RUNTIME_JS};
use js_sys::{Function, Reflect};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};

thread_local! {
    static FACTORY: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// The worker's factory: `(runtime, source, nrCpus, seed) => host` (it throws
/// when the policy does not load).
pub fn set_factory(f: Function) {
    FACTORY.with(|x| *x.borrow_mut() = Some(f));
}

pub struct JsHost {
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
    pub fn create(source: &str, nr_cpus: u32, seed: u64) -> Result<Box<dyn PolicyHost>, String> {
        let factory = FACTORY
            .with(|f| f.borrow().clone())
            .ok_or("no JavaScript host is registered in this worker for sched_ext policies")?;
        let args = js_sys::Array::of4(
            &JsValue::from_str(RUNTIME_JS),
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
