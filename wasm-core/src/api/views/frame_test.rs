//! The frame call against the separate views it replaces.

use crate::api::timeline::Timeline;
use crate::api::views::frame::{frame, lanes_window, FrameQuery, FrameSource, LanesQuery, CPU_FIELDS};
use crate::api::views::frame_sim::SimFrame;
use crate::api::views::view;
use crate::api::{presets, scenario};
use crate::time::{CpuId, SimTime};

/// Views compare as the JSON the page reads.
fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

fn timeline(preset: &str, t_ms: u64) -> Timeline {
    let cfg = scenario::load_scenario(presets::find(preset).unwrap().json).unwrap();
    let mut tl = Timeline::from_config(&cfg);
    tl.run_until(SimTime(t_ms * 1_000_000));
    tl
}

fn query(cpu: u32) -> FrameQuery {
    FrameQuery {
        cpu: CpuId(cpu),
        fresh: false,
        report: false,
        cdf_points: 40,
        history: false,
        history_key: None,
        names_from: 0,
        arrows: 32,
        arrow_window_ns: 20_000_000,
        lanes: Some(LanesQuery {
            span_ns: 50_000_000,
            end_ns: None,
            buckets: 4096,
            lo: 0,
            hi: u32::MAX,
            events: 14,
            rows: 0,
            fresh_rows: 300,
        }),
    }
}

#[test]
fn the_cpu_array_holds_every_cpus_counters_in_the_documented_order() {
    let tl = timeline("group-imbalance-make", 40);
    let src = SimFrame { timeline: &tl, exercise: None };
    let p = frame(&src, &query(3));
    let v = view::frame_view(tl.sim(), CpuId(3));
    assert_eq!(p.cpus.len(), v.cpus.len() * CPU_FIELDS.len());
    for (c, row) in v.cpus.iter().zip(p.cpus.chunks(CPU_FIELDS.len())) {
        let field = |name: &str| row[CPU_FIELDS.iter().position(|f| *f == name).unwrap()];
        assert_eq!(field("online"), if c.online { 1.0 } else { 0.0 });
        assert_eq!(field("curr"), c.curr.map_or(-1.0, |p| f64::from(p.0)));
        assert_eq!(field("nr_running"), f64::from(c.nr_running));
        assert_eq!(field("min_vruntime"), c.min_vruntime as f64);
        assert_eq!(field("load_weight"), c.load_weight as f64);
        assert_eq!(field("root_curr"), c.root_curr.map_or(-1.0, |e| f64::from(e.0)));
        assert_eq!(field("load"), c.load as f64);
        assert_eq!(field("tick_stopped"), if c.tick_stopped { 1.0 } else { 0.0 });
    }
    // At 40 ms only R1 and R2 run: the idle CPUs have stopped their ticks.
    assert!(v.cpus.iter().filter(|c| c.tick_stopped).count() >= 60);
    assert!(v.cpus.iter().all(|c| !c.tick_stopped || c.curr.is_none()));
    assert_eq!(v.cpus[3].cpu_load.as_ref().map(Vec::len), Some(5), "the detail CPU's load history");
    assert!(v.cpus[4].cpu_load.is_none(), "only the detail CPU's");
    // The queried CPU's trees come in the header, and they are the trees the full view draws.
    let d = p.header.detail.as_ref().unwrap();
    assert_eq!(d.cpu, CpuId(3));
    assert_eq!(json(d), json(&v.cpus[3]));
    assert!(p.cpus.iter().any(|&x| x > 0.0), "a running machine has non-zero counters");
}

#[test]
fn the_lanes_window_follows_the_cursor_or_stays_where_it_was_panned() {
    assert_eq!(lanes_window(50, None, 120), (70, 120));
    assert_eq!(lanes_window(50, Some(90), 120), (40, 90));
    // Panned past a cursor since rewound: it ends at the cursor.
    assert_eq!(lanes_window(50, Some(200), 120), (70, 120));
    // Near the start, the window keeps its span from 0.
    assert_eq!(lanes_window(50, None, 20), (0, 50));
    assert_eq!(lanes_window(50, Some(30), 20), (0, 50));
}

#[test]
fn slices_and_the_event_log_are_the_lanes_window_of_the_cursor() {
    let tl = timeline("group-imbalance-make", 40);
    let src = SimFrame { timeline: &tl, exercise: None };
    let p = frame(&src, &query(0));
    let l = p.header.lanes.as_ref().unwrap();
    assert_eq!((l.t0_ns, l.t1_ns), (0, 50_000_000));
    let bucket = 50_000_000 / 4096;
    assert_eq!(p.slices, src.slices(0, 50_000_000, bucket, 0, u32::MAX));
    assert!(!p.slices.is_empty() && p.slices.len().is_multiple_of(4));
    assert_eq!(json(&l.recent_events), json(&view::recent_events(tl.sim(), 14)));
    assert_eq!(l.schedstat.as_ref().map(|s| s.cpu), Some(CpuId(0)));
    // No names held yet: the table comes with the first frame.
    assert!(l.tasks.as_ref().is_some_and(|t| !t.rows.is_empty()));
}

#[test]
fn slow_parts_and_history_come_only_when_due() {
    let tl = timeline("group-imbalance-make", 40);
    let src = SimFrame { timeline: &tl, exercise: None };
    let held = src.history_key();
    let names = src.names_from(0).len() as u32;
    let steady = FrameQuery { history_key: Some(held.clone()), names_from: names, ..query(0) };
    let p = frame(&src, &steady);
    assert!(p.header.report.is_none() && p.header.cdfs.is_none());
    assert!(p.history.is_none() && p.header.history.is_none());
    assert!(p.header.new_names.is_empty());
    assert!(p.header.lanes.as_ref().unwrap().tasks.is_none());
    // The history is asked for but the lab holds the current one: it does not come again.
    assert!(frame(&src, &FrameQuery { history: true, ..steady.clone() }).history.is_none());
    let due =
        frame(&src, &FrameQuery { report: true, history: true, history_key: Some("0:0".into()), ..steady.clone() });
    assert!(due.header.report.is_some() && due.header.cdfs.is_some());
    let shape = due.header.history.as_ref().unwrap();
    let h = due.history.as_ref().unwrap();
    assert_eq!(h.nr_running.len(), shape.buckets as usize * tl.sim().rqs().len());
    // A fresh load gets everything.
    let fresh = frame(&src, &FrameQuery { fresh: true, names_from: 0, ..steady });
    assert!(fresh.header.report.is_some() && fresh.history.is_some());
    assert_eq!(fresh.header.new_names.len() as u32, names);
}

#[test]
fn a_compare_partner_gets_the_machine_without_lanes() {
    let tl = timeline("group-imbalance-make", 10);
    let p = frame(&SimFrame { timeline: &tl, exercise: None }, &FrameQuery { lanes: None, ..query(0) });
    assert!(p.header.lanes.is_none() && p.slices.is_empty());
    assert_eq!(p.cpus.len(), tl.sim().rqs().len() * CPU_FIELDS.len());
    assert_eq!(p.header.now_ns, 10_000_000);
}

#[test]
fn a_query_reads_back_as_written() {
    // Written by serde from the struct whose fields also make its TypeScript type: a field renamed in the struct
    // but not in the reader fails here.
    for q in [query(3), FrameQuery { lanes: None, history_key: Some("12:4000".into()), fresh: true, ..query(0) }] {
        assert_eq!(FrameQuery::from_json(&json(&q)).unwrap(), q);
    }
    let end = FrameQuery { lanes: query(1).lanes.map(|l| LanesQuery { end_ns: Some(7), ..l }), ..query(1) };
    assert_eq!(FrameQuery::from_json(&json(&end)).unwrap(), end);
    assert!(FrameQuery::from_json(r#"{"lanes": null, "cpu": -1}"#).unwrap_err().contains("`cpu`"));
    assert!(FrameQuery::from_json("[").is_err());
}

/// The preset moved to Linux 6.12 as the app's kernel pick moves it (`kernel` set, the 4.1 bug switches dropped).
fn timeline_612(preset: &str, t_ms: u64) -> Timeline {
    let mut v: serde_json::Value = serde_json::from_str(presets::find(preset).unwrap().json).unwrap();
    let o = v.as_object_mut().unwrap();
    o.insert("kernel".into(), "6.12".into());
    o.remove("bugs");
    let cfg = scenario::load_scenario(&v.to_string()).unwrap();
    let mut tl = Timeline::from_config(&cfg);
    tl.run_until(SimTime(t_ms * 1_000_000));
    tl
}

#[test]
fn a_612_frame_carries_the_detail_cpus_eevdf_queues_and_a_41_frame_none() {
    // cfs-nice-levels: three hogs (nice 0, 5, 10) and a sleeper on one CPU.
    let tl = timeline_612("cfs-nice-levels", 300);
    let p = frame(&SimFrame { timeline: &tl, exercise: None }, &query(0));
    let qs = p.header.detail.as_ref().and_then(|d| d.eevdf.as_ref()).expect("6.12's queues");
    let root = &qs[0];
    assert_eq!((root.tg, root.name.as_str()), (0, ""));
    let waiting = root.queued.len() + usize::from(root.curr.as_ref().is_some_and(|c| c.on_rq));
    assert_eq!(root.nr_running as usize, waiting);
    assert!(root.queued.len() >= 2, "hogs wait");
    assert!(root.queued.iter().chain(&root.curr).all(|e| !e.name.is_empty() && e.group.is_none()));
    // Deadline order, and eligibility is the lag's sign.
    assert!(root.queued.windows(2).all(|w| w[0].deadline <= w[1].deadline));
    assert!(root.queued.iter().chain(&root.curr).all(|e| e.eligible == (e.vlag >= 0)));
    let text = json(&p.header);
    assert!(text.contains("\"eevdf\":[{\"tg\":0"), "{}", &text[..text.len().min(400)]);

    // On 4.1 the same preset's frame has none.
    let tl = timeline("cfs-nice-levels", 300);
    let p = frame(&SimFrame { timeline: &tl, exercise: None }, &query(0));
    assert!(p.header.detail.as_ref().expect("CPU 0").eevdf.is_none());

    // A group runqueue comes after the root (autogroups on the Opteron); other CPUs carry none.
    let tl = timeline_612("group-imbalance-make", 200);
    let v = view::frame_view(tl.sim(), CpuId(3));
    let qs = v.cpus[3].eevdf.as_ref().expect("6.12's queues");
    assert_eq!(qs[0].tg, 0);
    assert!(qs[1..].iter().all(|q| q.tg > 0 && !q.name.is_empty() && q.nr_running > 0));
    assert!(qs[0].queued.iter().chain(&qs[0].curr).all(|e| e.group.is_some()), "autogroups: the root holds groups");
    assert!(v.cpus.iter().filter(|c| c.cpu != CpuId(3)).all(|c| c.eevdf.is_none()));
}

/// The lanes carry the misses late across their window: under rate-monotonic FIFO t9 misses at 9 + 18k ms,
/// seen at 10 + 18k; a 50 ms window ending at 60 ms holds the ones due at 27 and 45 and the first, late
/// across 9–10 ms, and a rewind to 9.5 ms (t9 still running, due at 9) none yet: nothing has noticed it.
#[test]
fn the_lanes_carry_the_misses_of_their_window() {
    let mut tl = timeline("edf-vs-fixed-priorities-rm", 60);
    let misses = |tl: &Timeline| {
        let p = frame(&SimFrame { timeline: tl, exercise: None }, &query(0));
        let l = p.header.lanes.expect("the lab's lanes");
        l.misses.iter().map(|m| (m.deadline_ns / 1_000_000, m.at_ns / 1_000_000, m.cpu.0)).collect::<Vec<_>>()
    };
    assert_eq!(misses(&tl), [(9, 10, 0), (27, 28, 0), (45, 46, 0)]);
    assert!(json(&frame(&SimFrame { timeline: &tl, exercise: None }, &query(0)).header).contains("\"kind\":\"timer\""));
    tl.seek_time(SimTime(9_500_000));
    assert_eq!(misses(&tl), []);
    tl.run_until(SimTime(12_000_000));
    assert_eq!(misses(&tl), [(9, 10, 0)]);
}
