//! `schedsim sweep FILE [--seeds A..B] [--set path=v1,v2]... [--json | --csv] [--jobs N]`:
//! the scenario run for every seed and every combination of the values
//! set, in parallel, one row per run in the plan's order.
//!
//! Every combination is loaded and checked before the first run starts, so
//! a value the scenario refuses costs no simulation time and no partial
//! table is printed. Then rows are printed as they are done, in plan order
//! (`sweep_print`), with progress on stderr; a run that failed is a row
//! saying why, and the sweep then exits with `out::RUN_FAILED`.

use crate::sweep_print::Printer;
use crate::{out, parallel, USAGE};
use schedlab_core::api::sweep::layout::{SweepFormat, SweepLayout};
use schedlab_core::api::sweep::plan::{parse_seeds, parse_set, SweepPlan};
use schedlab_core::api::sweep::rows::run_row;
use schedlab_core::config::SimConfig;

pub fn command(args: &[String]) -> Result<out::Done, String> {
    let file = args.first().filter(|a| !a.starts_with("--")).ok_or(USAGE)?;
    let (mut seeds, mut axes, mut format, mut jobs) = (None, Vec::new(), SweepFormat::Table, None);
    let mut opts = args.iter().skip(1);
    while let Some(a) = opts.next() {
        let mut value = || opts.next().ok_or_else(|| format!("{a} needs a value\n{USAGE}"));
        match a.as_str() {
            "--seeds" => seeds = Some(parse_seeds(value()?)?),
            "--set" => axes.push(parse_set(value()?)?),
            "--jobs" => jobs = Some(parallel::parse_jobs(value()?)?),
            "--json" | "--csv" if format != SweepFormat::Table => {
                return Err(format!("give one of --json and --csv\n{USAGE}"))
            }
            "--json" => format = SweepFormat::Json,
            "--csv" => format = SweepFormat::Csv,
            bad => return Err(format!("unknown option '{bad}'\n{USAGE}")),
        }
    }
    let (text, cfg) = crate::load_file(file)?;
    let plan = SweepPlan::new(&text, seeds.unwrap_or((cfg.seed, cfg.seed)), axes)?;
    let pool = parallel::pool(jobs)?;
    let combinations = pool.install(|| check_plan(&plan))?;
    let layout = SweepLayout::new(format, &plan, &combinations);
    let printer = Printer::new(layout, plan.runs(), pool.current_num_threads());
    pool.install(|| {
        parallel::for_each_index(plan.runs(), |i| printer.done(i, run_row(&plan, i)), || printer.stopped())
    });
    printer.finish()
}

/// Every combination loaded (the first refusal in plan order, whichever thread found it).
fn check_plan(plan: &SweepPlan) -> Result<Vec<SimConfig>, String> {
    parallel::map_indices(plan.set_combinations(), |k| plan.load_combination(k)).into_iter().collect()
}
