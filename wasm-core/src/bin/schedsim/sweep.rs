//! `schedsim sweep FILE [--seeds A..B] [--set path=v1,v2]... [--json | --csv] [--jobs N]`:
//! the scenario run for every seed and every combination of the values
//! set, in parallel, one row per run in the plan's order.
//!
//! Every combination is loaded and checked before the first run starts, so
//! a value the scenario refuses costs no simulation time and no partial
//! table is printed.

use crate::{load_file, parallel, USAGE};
use schedlab_core::api::report::report;
use schedlab_core::api::sweep_plan::{parse_seeds, parse_set, SweepPlan};
use schedlab_core::api::sweep_rows::{sweep_csv, sweep_json, sweep_table, SweepRow};
use schedlab_core::sim::Simulator;

enum Format {
    Table,
    Csv,
    Json,
}

pub fn command(args: &[String]) -> Result<String, String> {
    let file = args.first().filter(|a| !a.starts_with("--")).ok_or(USAGE)?;
    let (mut seeds, mut axes, mut format, mut jobs) = (None, Vec::new(), Format::Table, None);
    let mut opts = args.iter().skip(1);
    while let Some(a) = opts.next() {
        let mut value = || opts.next().ok_or_else(|| format!("{a} needs a value\n{USAGE}"));
        match a.as_str() {
            "--seeds" => seeds = Some(parse_seeds(value()?)?),
            "--set" => axes.push(parse_set(value()?)?),
            "--jobs" => jobs = Some(parallel::parse_jobs(value()?)?),
            "--json" | "--csv" if !matches!(format, Format::Table) => {
                return Err(format!("give one of --json and --csv\n{USAGE}"))
            }
            "--json" => format = Format::Json,
            "--csv" => format = Format::Csv,
            bad => return Err(format!("unknown option '{bad}'\n{USAGE}")),
        }
    }
    let (text, cfg) = load_file(file)?;
    let plan = SweepPlan::new(&text, seeds.unwrap_or((cfg.seed, cfg.seed)), axes)?;
    let rows = parallel::pool(jobs)?.install(|| run_plan(&plan))?;
    match format {
        Format::Table => Ok(sweep_table(&rows)),
        Format::Csv => Ok(sweep_csv(&rows)),
        Format::Json => sweep_json(&rows),
    }
}

/// Checks every combination, then runs every run; on the current pool.
fn run_plan(plan: &SweepPlan) -> Result<Vec<SweepRow>, String> {
    // The first refusal in plan order, whichever thread found it.
    parallel::map_indices(plan.set_combinations(), |k| plan.check_combination(k))
        .into_iter()
        .collect::<Result<(), _>>()?;
    parallel::map_indices(plan.runs(), |i| {
        let run = plan.run(i);
        let mut sim = Simulator::new(&plan.load(&run)?);
        sim.run_to_end();
        Ok(SweepRow::new(plan, &run, &report(&sim)))
    })
    .into_iter()
    .collect()
}
