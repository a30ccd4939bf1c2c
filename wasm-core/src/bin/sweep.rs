//! `sweep`: runs a preset across policies and sizes and prints one row per
//! run (or JSON for plotting).
//!
//!   sweep greedy-threads [--json]       A (1 thread) vs B (m threads) under CFS, PFS, DW-CFS
//!   sweep gi-colocation [--json]        online wakeup latency: none, plain, pinned, Group Identity
//!   sweep eevdf-vs-cfs [--json]         a short-slice task's wakeup latency: CFS vs EEVDF
//!   sweep o1-vs-cfs [--json]            two hogs and an editor under O(1) and CFS
//!   sweep alpha [NO] [--json]           DW-CFS's α(Nt, No) under formulas A, B, C (No default 4)
//!
//! A sweep's runs are independent, so they run in parallel on every core
//! (`RAYON_NUM_THREADS` caps the threads); rows come out in the sweep's
//! order, so the output is the same bytes whatever the thread count.

#[path = "shared/out.rs"]
mod out;
#[path = "shared/parallel.rs"]
mod parallel;

use parallel::map_in_order;

use schedlab_core::api::sweep::preset as sweep;
use std::process::ExitCode;

const USAGE: &str = "usage: sweep greedy-threads [--json] | sweep gi-colocation [--json] | sweep eevdf-vs-cfs [--json] | sweep o1-vs-cfs [--json] | sweep alpha [NO] [--json]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    let rest: Vec<&str> = args.iter().map(String::as_str).filter(|a| *a != "--json").collect();
    let text = match rest.as_slice() {
        ["greedy-threads"] => {
            let rows = map_in_order(&sweep::greedy_threads_points(), |&(p, m)| sweep::greedy_threads_point(p, m));
            if json {
                to_json(&rows)
            } else {
                Ok(sweep::greedy_table(&rows))
            }
        }
        ["gi-colocation"] => {
            let rows = map_in_order(sweep::GI_VARIANTS, |v| sweep::gi_colocation_point(v));
            if json {
                to_json(&rows)
            } else {
                Ok(sweep::colocation_table(&rows))
            }
        }
        ["eevdf-vs-cfs"] => {
            let rows = map_in_order(sweep::EEVDF_VARIANTS, |v| sweep::eevdf_point(v));
            if json {
                to_json(&rows)
            } else {
                Ok(sweep::latency_table(&rows))
            }
        }
        ["o1-vs-cfs"] => {
            let rows = map_in_order(sweep::O1_POLICIES, |p| sweep::o1_vs_cfs_point(p)).concat();
            if json {
                to_json(&rows)
            } else {
                Ok(sweep::o1_table(&rows))
            }
        }
        ["alpha", more @ ..] if more.len() <= 1 => {
            let Some(no) = more.first().map_or(Some(4), |s| s.parse::<u32>().ok().filter(|n| (1..=1024).contains(n)))
            else {
                out::warn("sweep", &format!("NO must be a CPU count 1..1024\n{USAGE}"));
                return ExitCode::from(2);
            };
            let pts = sweep::alpha_curve(1100, no, 64);
            if json {
                to_json(&pts)
            } else {
                let mut s = format!("alpha(Nt, No = {no}), beta = 1.1\n{:>4} {:>8} {:>8} {:>8}\n", "Nt", "A", "B", "C");
                for nt in 1..=64u32 {
                    let v: Vec<f64> = pts.iter().filter(|p| p.nt == nt).map(|p| p.alpha).collect();
                    s += &format!("{nt:>4} {:>8.3} {:>8.3} {:>8.3}\n", v[0], v[1], v[2]);
                }
                Ok(s)
            }
        }
        _ => {
            out::warn("sweep", USAGE);
            return ExitCode::from(2);
        }
    };
    match text {
        Ok(text) => out::finish("sweep", &text),
        Err(e) => {
            out::warn("sweep", &e);
            ExitCode::from(out::WRITE_FAILED)
        }
    }
}

/// The rows as pretty JSON (plain numbers and strings: a failure is not
/// expected, but it would be a message, not a panic).
fn to_json<T: serde::Serialize>(v: &T) -> Result<String, String> {
    serde_json::to_string_pretty(v).map_err(|e| format!("cannot write the rows as JSON: {e}"))
}
