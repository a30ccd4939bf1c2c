//! How `schedsim sweep` prints its rows while the runs go on: the header as
//! soon as the plan is checked, then each row as soon as it and every row
//! before it are done (`rows` makes them). Everything the layout needs
//! is known before the first run — the --set paths and values, each
//! combination's process names, the largest figure each column can hold — so
//! a row is printed once, never re-aligned, and the bytes are the same at any
//! thread count. Formats: an aligned text table (ms to the µs, shares in
//! percent, the failed run's reason last), CSV (one header line, ms with six
//! decimals and shares as fractions, as `metrics_csv` writes them; text cells
//! escaped, quoted and defused as there) and JSON (an array of objects, as
//! serde_json's pretty printer writes it).

use super::plan::SweepPlan;
use super::rows::SweepRow;
use crate::api::exports::metrics_csv::text_cell;
use crate::api::text::escape_controls as shown;
use crate::config::SimConfig;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SweepFormat {
    Table,
    Csv,
    Json,
}

/// The columns of a sweep and, for the table, their widths.
pub struct SweepLayout {
    format: SweepFormat,
    set_paths: Vec<String>,
    /// Every process name of the combinations, in order of first appearance
    /// (a --set may rename or add processes, so rows need not all have the same ones).
    names: Vec<String>,
    widths: Vec<usize>,
}

const FIGURES: [&str; 6] = ["events", "trace_hash", "sim_time_ms", "wasted_core_ms", "sanity_violations", "migrations"];

fn ms(ns: u64, decimals: usize) -> String {
    format!("{:.decimals$}", ns as f64 / 1e6)
}

fn digits(n: u64) -> usize {
    n.to_string().len()
}

impl SweepLayout {
    /// The layout of `plan`'s rows; `combinations` is each combination's configuration, in order.
    pub fn new(format: SweepFormat, plan: &SweepPlan, combinations: &[SimConfig]) -> SweepLayout {
        let mut names: Vec<String> = Vec::new();
        for p in combinations.iter().flat_map(|c| &c.processes) {
            if !names.contains(&p.name) {
                names.push(p.name.clone());
            }
        }
        let set_paths: Vec<String> = plan.axes.iter().map(|a| a.path.clone()).collect();
        // The widest each figure can be: a run stops at its duration and its event budget.
        let longest = combinations.iter().map(|c| c.duration_ns).max().unwrap_or(0);
        let most_core = combinations.iter().map(|c| c.duration_ns.saturating_mul(c.machine.nr_cpus() as u64)).max();
        let budget = combinations.iter().map(|c| c.event_budget).max().unwrap_or(0);
        let mut widths = vec!["seed".len().max(digits(plan.seeds().1))];
        widths.extend(plan.axes.iter().map(|a| {
            let values = a.values.iter().map(|v| shown(&v.shown()).chars().count());
            values.chain([shown(&a.path).chars().count()]).max().unwrap_or(0)
        }));
        let bounds = [digits(budget), 16, ms(longest, 3).len(), ms(most_core.unwrap_or(0), 3).len(), 0, digits(budget)];
        widths.extend(FIGURES.iter().zip(bounds).map(|(h, b)| h.len().max(b)));
        widths.extend(names.iter().map(|n| shown(&format!("share:{n}")).chars().count().max("100.00%".len())));
        SweepLayout { format, set_paths, names, widths }
    }

    fn header(&self) -> Vec<String> {
        let mut h = vec!["seed".to_string()];
        h.extend(self.set_paths.iter().cloned());
        h.extend(FIGURES.map(String::from));
        h.extend(self.names.iter().map(|n| format!("share:{n}")));
        h.push("error".into());
        h
    }

    /// A row's cells before any format's escaping: `share` writes a process's share (None: no such process).
    fn cells(&self, r: &SweepRow, decimals: usize, share: impl Fn(Option<f64>) -> String) -> Vec<String> {
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
        c.extend(self.names.iter().map(|n| share(r.processes.iter().find(|p| &p.name == n).map(|p| p.share))));
        c
    }

    /// A table line: every cell but the last right-aligned to its width, the reason (last) as it is.
    fn table_line(&self, cells: &[String], last: &str) -> String {
        let padded: Vec<String> = cells.iter().zip(&self.widths).map(|(c, &w)| format!("{c:>w$}")).collect();
        format!("{}  {}\n", padded.join("  "), shown(last))
    }

    /// What comes before the first row.
    pub fn head(&self) -> String {
        let h = self.header();
        match self.format {
            SweepFormat::Table => {
                let cells: Vec<String> = h[..h.len() - 1].iter().map(|c| shown(c).into_owned()).collect();
                self.table_line(&cells, "error")
            }
            SweepFormat::Csv => format!("{}\n", h.iter().map(|c| text_cell(c)).collect::<Vec<_>>().join(",")),
            // Written at once, as the other formats' headers are: a reader that went away is seen before any run.
            SweepFormat::Json => "[".into(),
        }
    }

    /// Row `k` (0-based, in plan order) as printed.
    pub fn row(&self, k: usize, r: &SweepRow) -> Result<String, String> {
        match self.format {
            SweepFormat::Table => {
                let cells = self.cells(r, 3, |s| s.map_or("-".into(), |s| format!("{:.2}%", s * 100.0)));
                let cells: Vec<String> = cells.iter().map(|c| shown(c).into_owned()).collect();
                Ok(self.table_line(&cells, r.error.as_deref().unwrap_or("-")))
            }
            SweepFormat::Csv => {
                let set_columns = 1..1 + self.set_paths.len();
                // Numbers are ours; the values come from the command line, the reason from the policy.
                let mut line: Vec<String> = self
                    .cells(r, 6, |s| s.map_or(String::new(), |s| format!("{s:.6}")))
                    .into_iter()
                    .enumerate()
                    .map(|(i, c)| if set_columns.contains(&i) { text_cell(&c) } else { c })
                    .collect();
                line.push(r.error.as_deref().map_or(String::new(), text_cell));
                Ok(format!("{}\n", line.join(",")))
            }
            SweepFormat::Json => {
                // serde_json's pretty array: "[" then each element on its own lines, indented two spaces.
                let one = serde_json::to_string_pretty(r).map_err(|e| format!("cannot write the rows as JSON: {e}"))?;
                let indented: Vec<String> = one.lines().map(|l| format!("  {l}")).collect();
                Ok(format!("{}{}", if k == 0 { "\n" } else { ",\n" }, indented.join("\n")))
            }
        }
    }

    /// What comes after the last of `rows` rows.
    pub fn tail(&self, rows: usize) -> String {
        match (self.format, rows) {
            (SweepFormat::Json, 0) => "]\n".into(),
            (SweepFormat::Json, _) => "\n]\n".into(),
            _ => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::plan::{parse_set, SweepPlan};
    use super::super::rows::{ProcessShare, SweepRow};
    use super::*;
    use crate::api::scenario::load_scenario;

    const SCENARIO: &str = r#"{"version":1,"name":"t","duration_ms":20,"machine":{"preset":"uniprocessor"},
      "processes":[{"name":"a","program":[{"run_us":1000}]}]}"#;

    fn rows(plan: &SweepPlan) -> Vec<SweepRow> {
        (0..plan.runs())
            .map(|i| {
                let run = plan.run(i);
                let mut r = SweepRow::not_run(plan, &run, String::new());
                r.error = (i == 1).then(|| "at 0.000 ms the sched_ext policy failed: init: boom".into());
                r.trace_hash = format!("{i:016x}");
                r.processes = vec![ProcessShare { name: "a".into(), share: 0.5 }];
                r
            })
            .collect()
    }

    fn printed(format: SweepFormat) -> String {
        let plan = SweepPlan::new(SCENARIO, (1, 1), vec![parse_set("processes.0.nice=0,5").unwrap()]).unwrap();
        let combos: Vec<SimConfig> = (0..2).map(|k| plan.load_combination(k).unwrap()).collect();
        let layout = SweepLayout::new(format, &plan, &combos);
        let rows = rows(&plan);
        let mut out = layout.head();
        for (k, r) in rows.iter().enumerate() {
            out += &layout.row(k, r).unwrap();
        }
        out + &layout.tail(rows.len())
    }

    #[test]
    fn a_failed_run_is_flagged_in_every_format() {
        let json: serde_json::Value = serde_json::from_str(&printed(SweepFormat::Json)).unwrap();
        assert_eq!(json[0]["error"], serde_json::Value::Null);
        assert!(json[1]["error"].as_str().unwrap().contains("policy failed"));
        let csv = printed(SweepFormat::Csv);
        let lines: Vec<&str> = csv.lines().collect();
        assert!(lines[0].ends_with(",share:a,error"), "{csv}");
        assert!(lines[1].ends_with(",0.500000,"), "{csv}");
        assert!(lines[2].ends_with(",at 0.000 ms the sched_ext policy failed: init: boom"), "{csv}");
        let table = printed(SweepFormat::Table);
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[0].ends_with("share:a  error") && lines[1].ends_with("  -"), "{table}");
        assert!(lines[2].ends_with("policy failed: init: boom"), "{table}");
    }

    #[test]
    fn json_streamed_row_by_row_is_serde_json_s_pretty_array() {
        let plan = SweepPlan::new(SCENARIO, (1, 1), vec![parse_set("processes.0.nice=0,5").unwrap()]).unwrap();
        assert_eq!(printed(SweepFormat::Json), serde_json::to_string_pretty(&rows(&plan)).unwrap() + "\n");
        let layout = SweepLayout::new(SweepFormat::Json, &plan, &[load_scenario(SCENARIO).unwrap()]);
        assert_eq!(layout.head() + &layout.tail(0), "[]\n");
    }

    #[test]
    fn table_columns_are_as_wide_as_their_largest_possible_figure() {
        let table = printed(SweepFormat::Table);
        let lines: Vec<&str> = table.lines().collect();
        // Every line's cells end at the same columns, whatever the figures: the widths are the plan's.
        let hash_end = |l: &str, h: &str| l.find(h).map(|i| i + h.len());
        assert_eq!(hash_end(lines[0], "trace_hash"), hash_end(lines[1], "0000000000000000"));
        assert_eq!(hash_end(lines[1], "0000000000000000"), hash_end(lines[2], "0000000000000001"));
        // sim_time_ms holds 20.000 ms at most here, wasted_core_ms as much (one CPU): their headers are wider.
        assert!(lines[1].contains("  sim_time_ms".replace("sim_time_ms", "      0.000").as_str()), "{table}");
    }
}
