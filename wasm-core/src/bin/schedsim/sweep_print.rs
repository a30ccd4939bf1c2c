//! A sweep's rows printed while the runs go on. Runs finish in any order on
//! the worker threads; row k is written as soon as rows 0..=k are done, so
//! stdout carries the same bytes at any thread count, only sooner. Progress
//! (runs done, an estimate of the time left from the mean run so far) goes to
//! stderr, at most about once a second, never into the data. A reader that
//! went away stops the remaining runs (`stopped`); a failed write is the
//! sweep's failure.

use crate::out;
use schedlab_core::api::sweep::layout::SweepLayout;
use schedlab_core::api::sweep::rows::SweepRow;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct Printer {
    layout: SweepLayout,
    runs: usize,
    started: Instant,
    state: Mutex<State>,
}

struct State {
    /// The next row to print; the rows done past it, waiting.
    next: usize,
    waiting: BTreeMap<usize, SweepRow>,
    done: usize,
    failed: usize,
    first_failure: Option<(usize, u64, String)>,
    last_progress: Instant,
    /// The write that failed, if one did (nothing more is printed or run).
    broken: Option<io::Error>,
}

/// How often progress is printed at most.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

impl Printer {
    /// Prints the layout's head at once: the plan is checked, the rows will come.
    pub fn new(layout: SweepLayout, runs: usize, threads: usize) -> Printer {
        let started = Instant::now();
        let broken = write(&layout.head()).err();
        // Only to a sweep whose output is read: a reader gone at once (`| head -0`) ends it quietly.
        if broken.is_none() {
            out::warn("schedsim", &format!("sweep: {runs} runs on {threads} thread(s)"));
        }
        let state = State {
            next: 0,
            waiting: BTreeMap::new(),
            done: 0,
            failed: 0,
            first_failure: None,
            last_progress: started,
            broken,
        };
        Printer { layout, runs, started, state: Mutex::new(state) }
    }

    /// True once output failed: the remaining runs are skipped.
    pub fn stopped(&self) -> bool {
        self.lock().broken.is_some()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panicking run poisons nothing we rely on: the rows are whole or absent.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Row `i` is done: print it and every row after it that waited for it.
    pub fn done(&self, i: usize, row: SweepRow) {
        let mut st = self.lock();
        st.done += 1;
        if let Some(why) = &row.error {
            st.failed += 1;
            if st.first_failure.as_ref().is_none_or(|(k, _, _)| i < *k) {
                st.first_failure = Some((i, row.seed, why.clone()));
            }
        }
        st.waiting.insert(i, row);
        while st.broken.is_none() {
            let next = st.next;
            let Some(row) = st.waiting.remove(&next) else { break };
            match self.layout.row(next, &row).map_err(io::Error::other).and_then(|text| write(&text)) {
                Ok(()) => st.next += 1,
                Err(e) => st.broken = Some(e),
            }
        }
        if st.broken.is_none() && st.last_progress.elapsed() >= PROGRESS_EVERY && st.done < self.runs {
            st.last_progress = Instant::now();
            out::warn("schedsim", &self.progress(st.done));
        }
    }

    /// "run 120/2000, ~35 s left": the wall time per finished run so far (the threads' work together)
    /// times the runs left.
    fn progress(&self, done: usize) -> String {
        let spent = self.started.elapsed().as_secs_f64();
        let left = spent / done.max(1) as f64 * (self.runs - done) as f64;
        format!("sweep: run {done}/{}, ~{} s left", self.runs, left.ceil() as u64)
    }

    /// The rest of the output, and how the sweep ends.
    pub fn finish(self) -> Result<out::Done, String> {
        let st = self.state.into_inner().unwrap_or_else(|p| p.into_inner());
        let written = st.broken.is_none() && st.next == self.runs;
        let broken = st.broken.or_else(|| if written { write(&self.layout.tail(self.runs)).err() } else { None });
        if let Some(e) = broken {
            return Ok(match e.kind() {
                // The reader took what it wanted (`| head`): quietly, as every command.
                io::ErrorKind::BrokenPipe => out::Done { text: None, failure: None },
                _ => out::Done {
                    text: None,
                    failure: Some((out::WRITE_FAILED, format!("cannot write the output: {e}"))),
                },
            });
        }
        let failure = st.first_failure.map(|(k, seed, why)| {
            let msg =
                format!("{} of {} runs failed; the first, row {} (seed {seed}): {why}", st.failed, self.runs, k + 1);
            (out::RUN_FAILED, msg)
        });
        Ok(out::Done { text: None, failure })
    }
}

/// Writes `text` to stdout and flushes it, so a row is seen when it is done.
fn write(text: &str) -> io::Result<()> {
    let mut o = io::stdout().lock();
    o.write_all(text.as_bytes())?;
    o.flush()
}
