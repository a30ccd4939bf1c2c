//! One refresh of the lab, read from a run in one call: a small header (JSON,
//! its TypeScript type generated from `FrameHeader`) and typed arrays whose
//! layouts are documented here. The page used to stitch a frame from some
//! twenty calls that each serialized a part; now the worker makes one call per
//! machine and hands the arrays to the page without copying them.
//!
//! A simulation and a recorded real trace are both a `FrameSource`: what a
//! trace cannot say (placements, balancing decisions, schedstats, trees) its
//! source leaves at the defaults.

use crate::api::report::schedstat::CpuSchedstat;
use crate::api::report::Report;
use crate::api::views::inspector::{DecisionView, PlacementView};
use crate::api::views::metrics::LatencyCdf;
use crate::api::views::misses::MissView;
use crate::api::views::topology::MigrationView;
use crate::api::views::view::{CpuView, EventView, RotationView, SimView, TaskList};
use crate::sched::entity::EntId;
use crate::time::{CpuId, Pid};
use serde::Serialize;
use serde_json::Value;

/// What the page asks of one machine at a refresh. Everything the cursor
/// decides (where the lanes' window ends, which history is current) is worked
/// out here, at the cursor the worker has. It crosses as JSON read by hand
/// (`FrameQuery::from_json`): a derived deserializer would cost the wasm 2 KB
/// gzipped for a dozen numbers. Its TypeScript type is generated all the same.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct FrameQuery {
    /// The CPU whose trees (and schedstats) the frame carries.
    pub cpu: CpuId,
    /// The lab holds nothing of this load yet: every part comes.
    pub fresh: bool,
    /// The slow parts are due: the report and the latency quantiles.
    pub report: bool,
    /// Quantile points per latency curve.
    pub cdf_points: u32,
    /// The heatmap history may come (it comes only when its key differs from `history_key`).
    pub history: bool,
    /// The history key the lab holds (null: none).
    pub history_key: Option<String>,
    /// Task names from this pid on (the lab has the ones before it).
    pub names_from: u32,
    /// Migrations drawn as arrows: at most `arrows`, of the last `arrow_window_ns`.
    pub arrows: u32,
    pub arrow_window_ns: u64,
    /// The lab's own machine asks for lanes, the event log, schedstats and task rows; a compare partner does not.
    pub lanes: Option<LanesQuery>,
}

/// The lanes' window and the other parts only the lab's own machine shows.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct LanesQuery {
    pub span_ns: u64,
    /// Where the window ends (null: it follows the cursor).
    pub end_ns: Option<u64>,
    /// The window is read in this many buckets at most per CPU (slices shorter than a bucket come once per bucket).
    pub buckets: u32,
    /// The CPUs drawn: `lo..hi`.
    pub lo: u32,
    pub hi: u32,
    /// Records of the event log.
    pub events: u32,
    /// Task table rows (0: the table is left as it is, unless the lab holds no names yet; then `fresh_rows`).
    pub rows: u32,
    pub fresh_rows: u32,
}

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key).ok_or_else(|| format!("frame query: missing field `{key}`"))
}

fn uint(v: &Value, key: &str) -> Result<u64, String> {
    field(v, key)?.as_u64().ok_or_else(|| format!("frame query: `{key}` must be a whole number"))
}

fn small(v: &Value, key: &str) -> Result<u32, String> {
    u32::try_from(uint(v, key)?).map_err(|_| format!("frame query: `{key}` is too large"))
}

fn flag(v: &Value, key: &str) -> Result<bool, String> {
    field(v, key)?.as_bool().ok_or_else(|| format!("frame query: `{key}` must be true or false"))
}

impl FrameQuery {
    /// Reads the query the page wrote (its generated TypeScript type `FrameQuery`).
    pub fn from_json(text: &str) -> Result<FrameQuery, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("frame query: {e}"))?;
        let lanes = match field(&v, "lanes")? {
            Value::Null => None,
            l => Some(LanesQuery {
                span_ns: uint(l, "span_ns")?,
                end_ns: match field(l, "end_ns")? {
                    Value::Null => None,
                    _ => Some(uint(l, "end_ns")?),
                },
                buckets: small(l, "buckets")?,
                lo: small(l, "lo")?,
                hi: small(l, "hi")?,
                events: small(l, "events")?,
                rows: small(l, "rows")?,
                fresh_rows: small(l, "fresh_rows")?,
            }),
        };
        Ok(FrameQuery {
            cpu: CpuId(small(&v, "cpu")?),
            fresh: flag(&v, "fresh")?,
            report: flag(&v, "report")?,
            cdf_points: small(&v, "cdf_points")?,
            history: flag(&v, "history")?,
            history_key: match field(&v, "history_key")? {
                Value::Null => None,
                k => Some(k.as_str().ok_or("frame query: `history_key` must be text or null")?.to_string()),
            },
            names_from: small(&v, "names_from")?,
            arrows: small(&v, "arrows")?,
            arrow_window_ns: uint(&v, "arrow_window_ns")?,
            lanes,
        })
    }
}

/// A frame's JSON part. Beside it cross the typed arrays of `FramePacket`.
#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct FrameHeader {
    pub events: u64,
    pub now_ns: u64,
    pub duration_ns: u64,
    pub finished: bool,
    /// The queried CPU with its trees (null past the last CPU). Every CPU's counters are in the `cpus` array.
    pub detail: Option<CpuView>,
    pub rotations: Vec<RotationView>,
    pub migrations: Vec<MigrationView>,
    /// The latest wakeup/fork placement and the latest designated balancing decision.
    pub placement: Option<PlacementView>,
    pub decision: Option<DecisionView>,
    /// Names of pids from the query's `names_from` on.
    pub new_names: Vec<String>,
    pub report: Option<Report>,
    pub cdfs: Option<Vec<LatencyCdf>>,
    /// Changes whenever the heatmap history gains or merges buckets.
    pub history_key: String,
    /// The history's bucket width and count, when its arrays came with this frame.
    pub history: Option<HistoryShape>,
    /// The lab's own machine only (null for a compare partner): see `LanesQuery`.
    pub lanes: Option<LanesHeader>,
}

#[derive(Serialize, Debug, PartialEq)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct HistoryShape {
    pub width_ns: u64,
    pub buckets: u32,
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct LanesHeader {
    /// The lanes' window as resolved at the cursor.
    pub t0_ns: u64,
    pub t1_ns: u64,
    pub recent_events: Vec<EventView>,
    /// The queried CPU's schedstats (a simulation's; null for a trace).
    pub schedstat: Option<CpuSchedstat>,
    /// Lane detail exists from this time on (null: from the start; older slices were dropped).
    pub slices_kept_from_ns: Option<u64>,
    pub tasks: Option<TaskList>,
    /// The deadlines missed late across the window on the lanes' CPUs (a trace's: none), in the order noticed.
    pub misses: Vec<MissView>,
}

/// The heatmaps' history: per bucket × CPU (bucket-major) the mean nr_running and load; per bucket the
/// migrations and the wasted core time (ns).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HistoryArrays {
    pub nr_running: Vec<f32>,
    pub load: Vec<f32>,
    pub migrations: Vec<u32>,
    pub wasted: Vec<f64>,
}

/// One machine's frame.
pub struct FramePacket {
    pub header: FrameHeader,
    /// Every CPU's counters: `CPU_FIELDS.len()` numbers a CPU, in CPU order, in the order `CPU_FIELDS` names them.
    pub cpus: Vec<f64>,
    /// Run slices of the lanes' window as flat quads `[cpu, pid, start_ns, end_ns, …]` (empty for a partner).
    pub slices: Vec<f64>,
    /// The history's arrays, when `header.history` says they came.
    pub history: Option<HistoryArrays>,
}

/// The layout of `FramePacket::cpus`: a CPU's numbers in this order. A pid absent (idle, none) is -1; a flag is 0 or 1.
pub const CPU_FIELDS: [&str; 8] =
    ["online", "curr", "nr_running", "min_vruntime", "load_weight", "root_curr", "load", "tick_stopped"];

fn cpu_numbers(c: &CpuView, out: &mut Vec<f64>) {
    let pid = |p: Option<Pid>| p.map_or(-1.0, |p| f64::from(p.0));
    let entity = |e: Option<EntId>| e.map_or(-1.0, |e| f64::from(e.0));
    out.extend_from_slice(&[
        f64::from(u8::from(c.online)),
        pid(c.curr),
        f64::from(c.nr_running),
        c.min_vruntime as f64,
        c.load_weight as f64,
        entity(c.root_curr),
        c.load as f64,
        f64::from(u8::from(c.tick_stopped)),
    ]);
}

/// What a frame reads of a run. Each method is one of the views the page
/// used to ask for separately; the defaults are what a run that cannot say
/// (a recorded trace) shows.
pub trait FrameSource {
    fn now_ns(&self) -> u64;
    fn duration_ns(&self) -> u64;
    /// Every CPU's counters and `detail`'s trees (others' trees empty), and the recent rotations.
    fn view(&self, detail: CpuId) -> SimView;
    fn migrations(&self, since_ns: u64, n: usize) -> Vec<MigrationView>;
    fn placement(&self) -> Option<PlacementView> {
        None
    }
    fn decision(&self) -> Option<DecisionView> {
        None
    }
    fn names_from(&self, from: usize) -> Vec<String>;
    fn report(&self) -> Report;
    fn cdfs(&self, points: usize) -> Vec<LatencyCdf>;
    fn history_key(&self) -> String;
    fn history(&self) -> (HistoryShape, HistoryArrays);
    fn recent_events(&self, n: usize) -> Vec<EventView>;
    /// Flat quads of run slices on CPUs `lo..hi` overlapping `[t0, t1]`, short ones once per bucket.
    fn slices(&self, t0: u64, t1: u64, bucket_ns: u64, lo: u32, hi: u32) -> Vec<f64>;
    fn schedstat(&self, _cpu: CpuId) -> Option<CpuSchedstat> {
        None
    }
    fn slices_kept_from(&self) -> Option<u64> {
        None
    }
    fn tasks(&self, max: usize) -> TaskList;
    /// The deadlines missed late across `[t0, t1]` on CPUs `lo..hi` (a recorded trace cannot say).
    fn misses(&self, _t0: u64, _t1: u64, _lo: u32, _hi: u32) -> Vec<MissView> {
        Vec::new()
    }
}

/// Where the lanes' window lies at `now`: following, it ends at the cursor; a window panned past a cursor
/// since rewound ends at it (and never starts before 0).
pub fn lanes_window(span_ns: u64, end_ns: Option<u64>, now: u64) -> (u64, u64) {
    let end = end_ns.map_or(now, |e| e.min(now.max(span_ns)));
    let t0 = end.saturating_sub(span_ns);
    (t0, t0 + span_ns)
}

/// Reads the frame `q` asks for from `src`.
pub fn frame(src: &dyn FrameSource, q: &FrameQuery) -> FramePacket {
    let now = src.now_ns();
    let view = src.view(q.cpu);
    let mut cpus = Vec::with_capacity(view.cpus.len() * CPU_FIELDS.len());
    let mut detail = None;
    for c in view.cpus {
        cpu_numbers(&c, &mut cpus);
        if c.cpu == q.cpu {
            detail = Some(c);
        }
    }
    let history_key = src.history_key();
    let history_due = q.fresh || (q.history && q.history_key.as_deref() != Some(history_key.as_str()));
    let (history_shape, history) = match history_due.then(|| src.history()) {
        Some((shape, arrays)) => (Some(shape), Some(arrays)),
        None => (None, None),
    };
    let slow = q.report || q.fresh;
    let mut slices = Vec::new();
    let lanes = q.lanes.as_ref().map(|l| {
        let (t0, t1) = lanes_window(l.span_ns, l.end_ns, now);
        let bucket = (t1 - t0) / u64::from(l.buckets.max(1));
        slices = src.slices(t0, t1, bucket, l.lo, l.hi);
        let rows = if l.rows > 0 { l.rows } else { l.fresh_rows };
        LanesHeader {
            t0_ns: t0,
            t1_ns: t1,
            recent_events: src.recent_events(l.events as usize),
            schedstat: src.schedstat(q.cpu),
            slices_kept_from_ns: src.slices_kept_from(),
            // A lab with no names yet has no rows either.
            tasks: (l.rows > 0 || q.names_from == 0).then(|| src.tasks(rows as usize)),
            misses: src.misses(t0, t1, l.lo, l.hi),
        }
    });
    let header = FrameHeader {
        events: view.events,
        now_ns: now,
        duration_ns: src.duration_ns(),
        finished: view.finished,
        detail,
        rotations: view.rotations,
        migrations: src.migrations(now.saturating_sub(q.arrow_window_ns), q.arrows as usize),
        placement: src.placement(),
        decision: src.decision(),
        new_names: src.names_from(q.names_from as usize),
        report: slow.then(|| src.report()),
        cdfs: slow.then(|| src.cdfs(q.cdf_points as usize)),
        history_key,
        history: history_shape,
        lanes,
    };
    FramePacket { header, cpus, slices, history }
}

#[cfg(test)]
#[path = "frame_test.rs"]
mod frame_test;
