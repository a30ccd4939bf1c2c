//! rt-app's events, one key at a time, as program steps.
//!
//! rt-app knows an event by the start of its key, tried in its parser's
//! order (`run2`, `sleepy` and `lock_order` are events too; `runtime…` is a
//! runtime, not a run): so does this. Its compound events are spelt out as
//! rt-app runs them (rt-app.c's `run_event`):
//!
//! ```text
//!   wait {ref, mutex}    cond_wait ref (mutex)          the caller should hold mutex
//!   signal / broad ref   cond_signal / cond_broadcast
//!   sync {ref, mutex}    cond_signal ref; cond_wait ref (mutex)
//!   suspend (any value)  lock T; cond_wait T (T); unlock T      T: the task's own name
//!   resume X             lock X; cond_broadcast X; unlock X
//!   timer {ref, period}  timer (shared, or the thread's own if ref begins with "unique")
//!   runtime N            busy_us N (wall-clock time, where run is work)
//! ```
//!
//! A wrong type rt-app would stop at (a string where it wants a number) is
//! refused here; a value rt-app reads as its default (`wait` without `ref`
//! waits on "unknown") is read so, with a note.

use super::import_model::{Event, Findings};
use super::ordered_json::Json;

/// The events rt-app's parser knows, by key prefix, in the order it tries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Run,
    Runtime,
    Sleep,
    MemRun,
    Mem,
    IoRun,
    Lock,
    Unlock,
    Signal,
    Broad,
    Wait,
    Sync,
    Barrier,
    Timer,
    Resume,
    Suspend,
    Yield,
    Fork,
    SemPost,
    SemWait,
}

impl Kind {
    /// The key's start that names the event.
    pub fn prefix(self) -> &'static str {
        match self {
            Kind::Run => "run",
            Kind::Runtime => "runtime",
            Kind::Sleep => "sleep",
            Kind::MemRun => "memrun",
            Kind::Mem => "mem",
            Kind::IoRun => "iorun",
            Kind::Lock => "lock",
            Kind::Unlock => "unlock",
            Kind::Signal => "signal",
            Kind::Broad => "broad",
            Kind::Wait => "wait",
            Kind::Sync => "sync",
            Kind::Barrier => "barrier",
            Kind::Timer => "timer",
            Kind::Resume => "resume",
            Kind::Suspend => "suspend",
            Kind::Yield => "yield",
            Kind::Fork => "fork",
            Kind::SemPost => "sem_post",
            Kind::SemWait => "sem_wait",
        }
    }
}

/// The event a key names, if it names one (rt-app ignores other keys).
pub fn event_kind(key: &str) -> Option<Kind> {
    use Kind::*;
    // rt-app tries run and sleep first (a runtime is a kind of run), then the others in this order.
    const ORDER: [Kind; 20] = [
        Sleep, Runtime, Run, MemRun, Mem, IoRun, Lock, Unlock, Signal, Broad, Wait, Sync, Barrier, Timer, Resume,
        Suspend, Yield, Fork, SemPost, SemWait,
    ];
    ORDER.into_iter().find(|k| key.starts_with(k.prefix()))
}

/// The steps of the event `key` (of kind `kind`) of task `task`, at `at`;
/// none if it is refused (recorded in `f`).
pub fn event(task: &str, kind: Kind, v: &Json, at: &str, f: &mut Findings) -> Vec<Event> {
    let micros = |f: &mut Findings| match v.as_i64() {
        Some(n) if n >= 0 => Some(n as u64),
        _ => {
            f.refuse(at, "a duration is a whole, non-negative number of microseconds");
            None
        }
    };
    let name = |f: &mut Findings| match v.as_str() {
        Some(s) => Some(s.to_string()),
        None => {
            f.refuse(
                at,
                format!(
                    "rt-app reads a key beginning \"{}\" as that event, which names its resource with a string",
                    kind.prefix()
                ),
            );
            None
        }
    };
    let one = |e: Option<Event>| e.into_iter().collect();
    match kind {
        Kind::Run => one(micros(f).map(Event::Run)),
        Kind::Sleep => one(micros(f).map(Event::Sleep)),
        Kind::Runtime => one(micros(f).map(Event::Busy)),
        Kind::Lock => one(name(f).map(Event::Lock)),
        Kind::Unlock => one(name(f).map(Event::Unlock)),
        Kind::Signal => one(name(f).map(Event::Signal)),
        Kind::Broad => one(name(f).map(Event::Broadcast)),
        Kind::Barrier => one(name(f).map(Event::Barrier)),
        Kind::Fork => one(name(f).map(Event::Fork)),
        Kind::Yield => vec![Event::Yield],
        Kind::Wait | Kind::Sync => {
            let cond = ref_field(v, "ref", at, f);
            let mutex = ref_field(v, "mutex", at, f);
            let (Some(cond), Some(mutex)) = (cond, mutex) else { return Vec::new() };
            let wait = Event::CondWait { cond: cond.clone(), mutex };
            if kind == Kind::Sync {
                vec![Event::Signal(cond), wait]
            } else {
                vec![wait]
            }
        }
        Kind::Suspend => {
            if let Some(s) = v.as_str().filter(|s| *s != task) {
                f.note(at, format!("\"{s}\" is not read: rt-app suspends a task on its own name, \"{task}\""));
            }
            let own = task.to_string();
            vec![
                Event::Lock(own.clone()),
                Event::CondWait { cond: own.clone(), mutex: own.clone() },
                Event::Unlock(own),
            ]
        }
        Kind::Resume => match name(f) {
            Some(x) => vec![Event::Lock(x.clone()), Event::Broadcast(x.clone()), Event::Unlock(x)],
            None => Vec::new(),
        },
        Kind::Timer => timer(v, at, f).into_iter().collect(),
        Kind::Mem | Kind::IoRun | Kind::MemRun => {
            f.refuse(
                at,
                "memory or I/O work: it takes as long as the machine's memory or device takes, which is not modelled",
            );
            Vec::new()
        }
        Kind::SemPost | Kind::SemWait => {
            f.refuse(at, "rt-app's counting semaphores: schedlab has no semaphore step");
            Vec::new()
        }
    }
}

/// A string field of an event object, or rt-app's default "unknown" when it
/// is absent (or the value is not an object, which rt-app reads alike).
fn ref_field(v: &Json, field: &str, at: &str, f: &mut Findings) -> Option<String> {
    match v.get(field) {
        Some(Json::String(s)) => Some(s.clone()),
        Some(Json::Null) | None => {
            f.note(&format!("{at}.{field}"), "absent: rt-app names the resource \"unknown\"");
            Some("unknown".into())
        }
        Some(_) => {
            f.refuse(&format!("{at}.{field}"), "a resource is named with a string");
            None
        }
    }
}

/// A `timer` event: its ref, period and mode (the mode is the timer's: the
/// program makes every use of an absolute timer absolute).
fn timer(v: &Json, at: &str, f: &mut Findings) -> Option<Event> {
    let name = ref_field(v, "ref", at, f)?;
    let period_us = match v.get("period") {
        None => 0,
        Some(p) => match p.as_i64() {
            Some(n) if n >= 0 => n as u64,
            _ => {
                f.refuse(&format!("{at}.period"), "a period is a whole, non-negative number of microseconds");
                return None;
            }
        },
    };
    if period_us == 0 {
        f.note(at, "a timer of period 0 never sleeps (rt-app's own placeholder): left out");
        return None;
    }
    // rt-app compares the mode's start only; anything but "absolute…" is relative.
    let absolute = v.get("mode").and_then(Json::as_str).is_some_and(|m| m.starts_with("absolute"));
    Some(Event::Timer { unique: name.starts_with("unique"), name, period_us, absolute })
}
