//! The real run's report as text (the layout of `schedsim run`'s), and the
//! model and the host kernel side by side (`schedsim fidelity`).

use super::analysis::RealReport;
use super::runner::RealRun;
use crate::api::report::process_table;
use crate::api::report::{ProcessReport, Report};
use crate::api::text::escape_controls as shown;
use crate::trace_import::deadline::runtime_per_period;

fn ms(ns: u64) -> f64 {
    ns as f64 / 1e6
}

/// `schedsim real`'s text report (and `schedsim real-trace`'s, from a saved trace).
pub fn real_text(r: &RealReport, notes: &[String], schedstat: &Result<String, String>) -> String {
    let e = &r.events;
    let mut out = format!(
        "real run of {} (seed {}) on Linux {}, {} CPUs: {:.3} ms window\n\n",
        shown(&r.scenario),
        r.seed,
        shown(&r.kernel),
        r.cpus.len(),
        ms(r.window_ns)
    );
    out += &format!(
        "workload events: sched_switch {}, sched_waking {}, sched_wakeup {}, sched_wakeup_new {}, \
         sched_migrate_task {}, sched_process_fork {}, sched_process_exit {}; lost {}\n",
        e.sched_switch,
        e.sched_waking,
        e.sched_wakeup,
        e.sched_wakeup_new,
        e.sched_migrate_task,
        e.sched_process_fork,
        e.sched_process_exit,
        r.lost_events
    );
    out += &format!("migrations {}, Jain fairness (threads) {:.4}\n", r.migrations, r.jain_fairness_threads);
    for n in notes {
        out += &format!("note: {}\n", shown(n));
    }
    out += "\n";
    out += &process_table(&r.processes);
    out += &policy_table(r);
    out += &deadline_table(r);
    out += "\ncpu  host      busy ms      idle ms  workload ms\n";
    for c in &r.cpus {
        out += &format!(
            "{:<4} {:<4} {:>12.3} {:>12.3} {:>12.3}\n",
            c.cpu,
            c.host_cpu,
            ms(c.busy_ns),
            ms(c.idle_ns),
            ms(c.workload_ns)
        );
    }
    match schedstat {
        Ok(d) => out += &format!("\n/proc/schedstat, after − before:\n{d}"),
        Err(why) => out += &format!("\n/proc/schedstat: {why}\n"),
    }
    out.trim_end().to_string()
}

/// Each process's policy beside the priorities its threads were switched at, and its longest run.
fn policy_table(r: &RealReport) -> String {
    let mut out = format!("\n{:<24} {:<10} {:>10} {:>16}\n", "process", "policy", "trace prio", "longest run ms");
    for (p, pol) in r.processes.iter().zip(&r.policies) {
        let prio = match pol.trace_prio {
            Some([lo, hi]) if lo == hi => lo.to_string(),
            Some([lo, hi]) => format!("{lo}-{hi}"),
            None => "-".into(),
        };
        out +=
            &format!("{:<24} {:<10} {prio:>10} {:>16.3}\n", shown(&p.name), shown(&pol.label()), ms(p.longest_run_ns));
    }
    out
}

/// Each deadline process's reservation beside the CPU time it got per period (`trace_import::deadline`).
fn deadline_table(r: &RealReport) -> String {
    let rows: Vec<String> = r
        .processes
        .iter()
        .zip(&r.policies)
        .filter_map(|(p, pol)| {
            let d = pol.dl.as_ref()?;
            let got = d.runtime_per_period_ns.map_or("-".into(), |g| format!("{:.3}", ms(g)));
            Some(format!(
                "{:<24} {:>10.3} {:>11.3} {:>9.3} {got:>13}\n",
                shown(&p.name),
                ms(d.runtime_ns),
                ms(d.deadline_ns),
                ms(d.period_ns)
            ))
        })
        .collect();
    if rows.is_empty() {
        return String::new();
    }
    format!(
        "\n{:<24} {:>10} {:>11} {:>9} {:>13}\n{}",
        "deadline process",
        "runtime ms",
        "deadline ms",
        "period ms",
        "got ms/period",
        rows.concat()
    )
}

/// (real − model) / model as a signed percentage; "-" when the model has 0 and the host not.
pub fn rel_err(model: f64, real: f64) -> String {
    if model == 0.0 {
        return if real == 0.0 { "0.0%".into() } else { "-".into() };
    }
    format!("{:+.1}%", (real - model) / model * 100.0)
}

fn rows(p: &ProcessReport) -> Vec<(&'static str, Option<f64>)> {
    vec![
        ("cpu ms", Some(ms(p.cpu_time_ns))),
        ("share %", Some(p.share * 100.0)),
        ("wait ms", Some(ms(p.wait_time_ns))),
        ("nvcsw", Some(p.nvcsw as f64)),
        ("nivcsw", Some(p.nivcsw as f64)),
        ("longest run ms", Some(ms(p.longest_run_ns))),
        ("migrations", Some(p.migrations as f64)),
        ("done at ms", p.completion_ns.map(ms)),
        ("p50 wake us", p.wakeup_latency_ns.map(|l| l[0] as f64 / 1e3)),
        ("p99 wake us", p.wakeup_latency_ns.map(|l| l[2] as f64 / 1e3)),
    ]
}

fn cell(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.3}"))
}

/// The model's report beside the real run's, metric by metric, with relative errors.
pub fn fidelity_text(model: &Report, run: &RealRun) -> String {
    let real = &run.report;
    let mut out = format!(
        "fidelity of {} (seed {}): the model beside Linux {} on this host, {:.3} ms\n",
        shown(&model.scenario),
        model.seed,
        shown(&real.kernel),
        ms(real.window_ns)
    );
    for n in &run.notes {
        out += &format!("note: {}\n", shown(n));
    }
    let others: u64 = real.cpus.iter().map(|c| c.busy_ns - c.workload_ns).sum();
    if others > 0 {
        out += &format!(
            "note: other tasks of the host ran {:.3} ms of CPU time in the window (the model's machine runs only \
             the scenario)\n",
            ms(others)
        );
    }
    out += &format!("\n{:<24} {:<12} {:>14} {:>14} {:>9}\n", "process", "metric", "model", "real", "rel err");
    for (i, (m, r)) in model.processes.iter().zip(&real.processes).enumerate() {
        let (mut mrows, mut rrows) = (rows(m), rows(r));
        if let Some(d) = real.policies.get(i).and_then(|p| p.dl.as_ref()) {
            // The model's threads live from the process's start to its end (or the run's): the same measure.
            let start = run.workload.processes.get(i).map_or(0, |w| w.start_ns);
            let lived = m.completion_ns.unwrap_or(model.sim_time_ns.saturating_sub(start)) * m.threads as u64;
            let per = |ns: Option<u64>| ns.map(ms);
            mrows.push(("ms/period", per(runtime_per_period(m.cpu_time_ns, lived, d.period_ns))));
            rrows.push(("ms/period", per(d.runtime_per_period_ns)));
        }
        for (i, ((name, mv), (_, rv))) in mrows.into_iter().zip(rrows).enumerate() {
            let err = match (mv, rv) {
                (Some(a), Some(b)) => rel_err(a, b),
                _ => "-".into(),
            };
            let who = if i == 0 { shown(&m.name) } else { "".into() };
            out += &format!("{who:<24} {name:<12} {:>14} {:>14} {err:>9}\n", cell(mv), cell(rv));
        }
    }
    out += &format!("\n{:<6} {:>14} {:>14} {:>9}\n", "cpu", "model busy ms", "real busy ms", "rel err");
    for (m, r) in model.cpus.iter().zip(&real.cpus) {
        out += &format!(
            "{:<6} {:>14.3} {:>14.3} {:>9}\n",
            m.cpu,
            ms(m.busy_ns),
            ms(r.busy_ns),
            rel_err(m.busy_ns as f64, r.busy_ns as f64)
        );
    }
    out += &format!(
        "\nmigrations: model {}, real {}; Jain fairness (threads): model {:.4}, real {:.4}",
        model.migrations, real.migrations, model.jain_fairness_threads, real.jain_fairness_threads
    );
    out
}

#[cfg(test)]
mod tests {
    use super::{real_text, rel_err};

    #[test]
    fn a_deadline_process_has_its_reservation_beside_what_it_got_and_others_none() {
        let dl = super::super::report_from_trace(include_str!("../../tests/fixtures/real/dl-hog.txt")).unwrap();
        let text = real_text(&dl, &[], &Err("none".into()));
        assert!(text.contains("deadline process         runtime ms deadline ms period ms got ms/period"), "{text}");
        assert!(text.contains("\ndl                           10.000     100.000   100.000         9.998\n"), "{text}");
        let fair = super::super::report_from_trace(include_str!("../../tests/fixtures/real/two-hogs.txt")).unwrap();
        assert!(!real_text(&fair, &[], &Err("none".into())).contains("deadline process"));
    }

    #[test]
    fn relative_errors_are_signed_against_the_model() {
        assert_eq!(rel_err(200.0, 210.0), "+5.0%");
        assert_eq!(rel_err(200.0, 190.0), "-5.0%");
        assert_eq!(rel_err(0.0, 0.0), "0.0%");
        assert_eq!(rel_err(0.0, 3.0), "-");
    }
}
