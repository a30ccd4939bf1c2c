//! `schedsim sweep`'s rows: one per run, taken from the run's metrics report
//! (`api::report`, what `schedsim run` prints) — the seed and the varied
//! values, events, trace hash, simulated time, then the report's headline:
//! wasted core time, sanity-checker violations, migrations and each
//! process's CPU share. Printed as a text table, CSV or JSON.

use super::metrics_csv::text_cell;
use super::report::Report;
use super::sweep_plan::{SweepPlan, SweepRun};
use super::text::escape_controls as shown;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

#[derive(serde::Serialize, Debug, Clone)]
pub struct SweepRow {
    pub seed: u64,
    /// Each --set path and this run's value, in the order given.
    pub set: SetColumns,
    pub events: u64,
    pub trace_hash: String,
    pub sim_time_ns: u64,
    pub wasted_core_ns: u64,
    pub sanity_violations: u64,
    pub migrations: u64,
    pub processes: Vec<ProcessShare>,
}

#[derive(serde::Serialize, Debug, Clone)]
pub struct ProcessShare {
    pub name: String,
    /// CPU time over (elapsed time × CPUs), as the report's.
    pub share: f64,
}

/// (path, value as JSON, value as tables show it), serialized as a JSON
/// object whose keys keep the command line's order.
#[derive(Debug, Clone)]
pub struct SetColumns(pub Vec<(String, Value, String)>);

impl Serialize for SetColumns {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (path, value, _) in &self.0 {
            map.serialize_entry(path, value)?;
        }
        map.end()
    }
}

impl SweepRow {
    /// The row of `run` from its report.
    pub fn new(plan: &SweepPlan, run: &SweepRun, r: &Report) -> SweepRow {
        SweepRow {
            seed: r.seed,
            set: SetColumns(plan.values(run).map(|(a, v)| (a.path.clone(), v.json.clone(), v.shown())).collect()),
            events: r.events,
            trace_hash: r.trace_hash.clone(),
            sim_time_ns: r.sim_time_ns,
            wasted_core_ns: r.wasted_core_ns,
            sanity_violations: r.sanity_violations_total,
            migrations: r.migrations,
            processes: r.processes.iter().map(|p| ProcessShare { name: p.name.clone(), share: p.share }).collect(),
        }
    }
}

fn ms(ns: u64, decimals: usize) -> String {
    format!("{:.decimals$}", ns as f64 / 1e6)
}

/// Every process name of the rows, in order of first appearance (a --set
/// may rename or add processes, so rows need not all have the same ones).
fn process_names(rows: &[SweepRow]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for p in rows.iter().flat_map(|r| &r.processes) {
        if !names.contains(&p.name) {
            names.push(p.name.clone());
        }
    }
    names
}

/// Header and cells of every row, before any formatting choice: `share`
/// writes a process's share (None: the row has no such process).
fn cells(rows: &[SweepRow], decimals: usize, share: impl Fn(Option<f64>) -> String) -> (Vec<String>, Vec<Vec<String>>) {
    let names = process_names(rows);
    let mut header = vec!["seed".to_string()];
    header.extend(rows.first().map_or(vec![], |r| r.set.0.iter().map(|(p, _, _)| p.clone()).collect()));
    header.extend(
        ["events", "trace_hash", "sim_time_ms", "wasted_core_ms", "sanity_violations", "migrations"].map(String::from),
    );
    header.extend(names.iter().map(|n| format!("share:{n}")));
    let body = rows
        .iter()
        .map(|r| {
            let mut c = vec![r.seed.to_string()];
            c.extend(r.set.0.iter().map(|(_, _, v)| v.clone()));
            c.extend([
                r.events.to_string(),
                r.trace_hash.clone(),
                ms(r.sim_time_ns, decimals),
                ms(r.wasted_core_ns, decimals),
                r.sanity_violations.to_string(),
                r.migrations.to_string(),
            ]);
            c.extend(names.iter().map(|n| share(r.processes.iter().find(|p| &p.name == n).map(|p| p.share))));
            c
        })
        .collect();
    (header, body)
}

/// The rows as an aligned text table (ms to the µs, shares in percent);
/// names and values are shown with control characters escaped.
pub fn sweep_table(rows: &[SweepRow]) -> String {
    let (header, body) = cells(rows, 3, |s| s.map_or("-".into(), |s| format!("{:.2}%", s * 100.0)));
    let header: Vec<String> = header.iter().map(|h| shown(h).into_owned()).collect();
    let body: Vec<Vec<String>> = body.iter().map(|r| r.iter().map(|c| shown(c).into_owned()).collect()).collect();
    let width = |i: usize| body.iter().map(|r| r[i].chars().count()).chain([header[i].chars().count()]).max();
    let widths: Vec<usize> = (0..header.len()).map(|i| width(i).unwrap_or(0)).collect();
    let line = |cells: &[String]| {
        let padded: Vec<String> = cells.iter().zip(&widths).map(|(c, &w)| format!("{c:>w$}")).collect();
        padded.join("  ")
    };
    let mut out = line(&header);
    for r in &body {
        out.push('\n');
        out += &line(r);
    }
    out
}

/// The rows as CSV: one header line, one line per run (ms with six
/// decimals and shares as fractions, as `metrics_csv` writes them); text
/// cells escaped, quoted and defused as there.
pub fn sweep_csv(rows: &[SweepRow]) -> String {
    let (header, body) = cells(rows, 6, |s| s.map_or(String::new(), |s| format!("{s:.6}")));
    let set_columns = 1..1 + rows.first().map_or(0, |r| r.set.0.len());
    let mut out = header.iter().map(|h| text_cell(h)).collect::<Vec<_>>().join(",");
    for r in body {
        // Numbers are ours; the values come from the command line.
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, c)| if set_columns.contains(&i) { text_cell(c) } else { c.clone() })
            .collect();
        out.push('\n');
        out += &line.join(",");
    }
    out
}

/// The rows as pretty JSON, an array of objects.
pub fn sweep_json(rows: &[SweepRow]) -> Result<String, String> {
    serde_json::to_string_pretty(rows).map_err(|e| format!("cannot write the rows as JSON: {e}"))
}
