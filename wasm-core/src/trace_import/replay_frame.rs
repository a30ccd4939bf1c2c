//! A recorded trace at the lab's cursor as a `FrameSource`: the page reads a
//! real run's frame with the one call it reads a simulation's with. What a
//! trace cannot say (placements, decisions, schedstats) keeps the trait's
//! empty defaults; its history is the whole recording's, so its key never changes.

use super::replay::Replay;
use crate::api::report::Report;
use crate::api::views::frame::{FrameSource, HistoryArrays, HistoryShape};
use crate::api::views::metrics::LatencyCdf;
use crate::api::views::topology::MigrationView;
use crate::api::views::view::{EventView, SimView, TaskList};
use crate::time::CpuId;

pub struct ReplayFrame<'a> {
    pub replay: &'a Replay,
    pub now: u64,
}

impl FrameSource for ReplayFrame<'_> {
    fn now_ns(&self) -> u64 {
        self.now
    }
    fn duration_ns(&self) -> u64 {
        self.replay.duration_ns
    }
    fn view(&self, _detail: CpuId) -> SimView {
        self.replay.frame_at(self.now)
    }
    fn migrations(&self, since_ns: u64, n: usize) -> Vec<MigrationView> {
        self.replay.migrations_between(since_ns, self.now, n)
    }
    fn names_from(&self, from: usize) -> Vec<String> {
        self.replay.names.get(from..).unwrap_or(&[]).to_vec()
    }
    fn report(&self) -> Report {
        self.replay.page_report()
    }
    fn cdfs(&self, points: usize) -> Vec<LatencyCdf> {
        self.replay.latency_cdfs(points)
    }
    fn history_key(&self) -> String {
        "trace".to_string()
    }
    fn history(&self) -> (HistoryShape, HistoryArrays) {
        let r = self.replay;
        let shape = HistoryShape { width_ns: r.width_ns, buckets: r.buckets as u32 };
        let arrays = HistoryArrays {
            nr_running: r.nr_running.clone(),
            load: r.load.clone(),
            migrations: r.migrations.clone(),
            wasted: r.wasted.iter().map(|&w| w as f64).collect(),
        };
        (shape, arrays)
    }
    fn recent_events(&self, n: usize) -> Vec<EventView> {
        self.replay.events_before(self.now, n)
    }
    fn slices(&self, t0: u64, t1: u64, bucket_ns: u64, lo: u32, hi: u32) -> Vec<f64> {
        self.replay.slices_in(self.now, t0, t1, bucket_ns, lo, hi)
    }
    fn tasks(&self, max: usize) -> TaskList {
        self.replay.tasks_at(self.now, max)
    }
}
