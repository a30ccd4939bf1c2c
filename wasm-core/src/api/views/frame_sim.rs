//! A simulation as a `FrameSource`: the views at the timeline's cursor, the
//! report with the scenario's exercise judged (the simulator does not carry
//! the scenario), and the timeline's sampled history.

use super::frame::{FrameSource, HistoryArrays, HistoryShape};
use super::inspector::{self, DecisionView, PlacementView};
use super::metrics::{self, LatencyCdf};
use super::misses::{self, MissView};
use super::topology::{self, MigrationView};
use super::view::{self, EventView, SimView, TaskList};
use crate::api::report::schedstat::{self, CpuSchedstat};
use crate::api::report::{self, Report};
use crate::api::scenario::exercise::ExerciseFile;
use crate::api::timeline::Timeline;
use crate::time::{CpuId, SimTime};

/// A timeline at its cursor, and the exercise its reports judge.
pub struct SimFrame<'a> {
    pub timeline: &'a Timeline,
    pub exercise: Option<&'a ExerciseFile>,
}

impl FrameSource for SimFrame<'_> {
    fn now_ns(&self) -> u64 {
        self.timeline.sim().now().ns()
    }
    fn duration_ns(&self) -> u64 {
        self.timeline.sim().duration().ns()
    }
    fn view(&self, detail: CpuId) -> SimView {
        view::frame_view(self.timeline.sim(), detail)
    }
    fn migrations(&self, since_ns: u64, n: usize) -> Vec<MigrationView> {
        topology::recent_migrations(self.timeline.sim(), since_ns, n)
    }
    fn placement(&self) -> Option<PlacementView> {
        inspector::recent_placements(self.timeline.sim(), 1).pop()
    }
    fn decision(&self) -> Option<DecisionView> {
        inspector::recent_decisions(self.timeline.sim(), 1, true).pop()
    }
    fn names_from(&self, from: usize) -> Vec<String> {
        view::task_names(self.timeline.sim(), from).into_iter().map(str::to_string).collect()
    }
    fn report(&self) -> Report {
        let sim = self.timeline.sim();
        report::with_exercise(report::page_report(sim), self.exercise, sim)
    }
    fn cdfs(&self, points: usize) -> Vec<LatencyCdf> {
        metrics::latency_cdfs(self.timeline.sim(), points)
    }
    fn history_key(&self) -> String {
        let h = self.timeline.history();
        format!("{}:{}", h.len(), h.width_ns())
    }
    fn history(&self) -> (HistoryShape, HistoryArrays) {
        let h = self.timeline.history();
        let shape = HistoryShape { width_ns: h.width_ns(), buckets: h.len() as u32 };
        let arrays = HistoryArrays {
            nr_running: h.nr_running().to_vec(),
            load: h.load().to_vec(),
            migrations: h.migrations().to_vec(),
            wasted: h.wasted().iter().map(|&w| w as f64).collect(),
        };
        (shape, arrays)
    }
    fn recent_events(&self, n: usize) -> Vec<EventView> {
        view::recent_events(self.timeline.sim(), n)
    }
    fn slices(&self, t0: u64, t1: u64, bucket_ns: u64, lo: u32, hi: u32) -> Vec<f64> {
        view::slices(self.timeline.sim(), SimTime(t0), SimTime(t1), bucket_ns, lo..hi)
    }
    fn schedstat(&self, cpu: CpuId) -> Option<CpuSchedstat> {
        schedstat::cpu_schedstat(self.timeline.sim(), cpu)
    }
    fn slices_kept_from(&self) -> Option<u64> {
        self.timeline.sim().trace().slices_kept_from().map(|t| t.ns())
    }
    fn tasks(&self, max: usize) -> TaskList {
        view::listed_task_views(self.timeline.sim(), max)
    }
    fn misses(&self, t0: u64, t1: u64, lo: u32, hi: u32) -> Vec<MissView> {
        misses::misses_view(self.timeline.sim(), SimTime(t0), SimTime(t1), lo..hi)
    }
}
