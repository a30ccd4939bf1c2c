//! Chart data beyond the report's headline figures: each process's wakeup
//! latency distribution as quantiles (the latency CDF).

use crate::sim::Simulator;
use serde::Serialize;

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
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
    sim.processes()
        .iter()
        .filter(|p| !p.wakeup_latency.is_empty())
        .map(|p| LatencyCdf {
            tgid: p.tgid,
            name: p.name.clone(),
            samples: p.wakeup_latency.len() as usize,
            quantiles: p.wakeup_latency.cdf(points),
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
            let lat = &sim.processes()[c.tgid as usize].wakeup_latency;
            assert_eq!(c.quantiles[20], lat.max());
            assert_eq!(c.quantiles[0], lat.min());
        }
    }
}
