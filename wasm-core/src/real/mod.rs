//! The real kernel beside the model (native only; never compiled to wasm).
//!
//! `host` reads the machine the CLI runs on as the engine's machine model.

pub mod host;
