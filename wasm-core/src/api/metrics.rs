//! Chart data beyond the report's headline figures: each process's wakeup
//! latency distribution as quantiles (the latency CDF).

use crate::sim::Simulator;
use serde::Serialize;

#[derive(Serialize)]
pub struct LatencyCdf {
    pub tgid: u32,
    pub name: String,
    pub samples: usize,
    /// `points` + 1 latencies (ns) at quantiles 0, 1/points, …, 1.
    pub quantiles: Vec<u64>,
}

/// The wakeup latency distribution of every process that was ever woken.
pub fn latency_cdfs(sim: &Simulator, points: usize) -> Vec<LatencyCdf> {
    let points = points.clamp(1, 1000);
    let tasks = sim.tasks();
    sim.processes()
        .iter()
        .filter_map(|p| {
            let mut lat: Vec<u64> =
                p.threads.iter().flat_map(|&pid| tasks[pid as usize].stats.wakeup_latencies.iter().copied()).collect();
            if lat.is_empty() {
                return None;
            }
            lat.sort_unstable();
            let last = lat.len() - 1;
            let quantiles = (0..=points).map(|i| lat[(i * last + points / 2) / points]).collect();
            Some(LatencyCdf { tgid: p.tgid, name: p.name.clone(), samples: lat.len(), quantiles })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_rise_from_the_fastest_to_the_slowest_wakeup() {
        let p = crate::api::presets::find("cfs-nice-levels").unwrap();
        let mut sim = Simulator::new(&crate::api::scenario::load_scenario(p.json).unwrap());
        sim.run_until(crate::time::SimTime(2_000_000_000));
        let cdfs = latency_cdfs(&sim, 20);
        assert!(!cdfs.is_empty(), "the sleeper is woken");
        for c in &cdfs {
            assert_eq!(c.quantiles.len(), 21);
            assert!(c.quantiles.windows(2).all(|w| w[0] <= w[1]));
            let tasks = sim.tasks();
            let all: Vec<u64> = sim.processes()[c.tgid as usize]
                .threads
                .iter()
                .flat_map(|&t| tasks[t as usize].stats.wakeup_latencies.clone())
                .collect();
            assert_eq!(c.quantiles[20], *all.iter().max().unwrap());
            assert_eq!(c.quantiles[0], *all.iter().min().unwrap());
        }
    }
}
