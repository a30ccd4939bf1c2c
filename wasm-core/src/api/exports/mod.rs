//! A run written for other tools: Chrome / Perfetto trace JSON (`perfetto`,
//! replayed from the start to the cursor) and the metrics report as CSV
//! (`metrics_csv`, its text cells defused against formula injection).

pub mod metrics_csv;
pub mod perfetto;
