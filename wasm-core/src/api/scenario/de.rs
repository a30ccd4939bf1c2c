//! Hand-written deserializers for the scenario format's either-or values
//! (a duration, the sanity checker, the bugs). serde's untagged enums refuse
//! a bad value with "data did not match any variant of untagged enum …",
//! which names no accepted form; these say which forms are accepted, and an
//! object's own fields are still read by derived code, so a wrong key or a
//! wrong type inside it keeps its path (`run_us.uniform`).

use super::file::{BugSwitchesFile, BugsSpec, SanityFile};
use super::steps::DistFile;
use serde::de::value::MapAccessDeserializer;
use serde::de::{Error, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::fmt;

/// The forms a duration takes.
pub const DIST_FORMS: &str = r#"a number of microseconds, {"uniform": [lo, hi]} or {"exp": mean}"#;
/// The forms `sanity_checker` takes.
pub const SANITY_FORMS: &str = r#"true, false or {"period_ms": P, "window_ms": W}"#;
/// The forms `bugs` takes.
pub const BUGS_FORMS: &str =
    r#""linux-4.1", "linux-4.1-fixed" or an object of switches such as {"group_imbalance": false}"#;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DistObject {
    uniform: Option<[u64; 2]>,
    exp: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SanitySettings {
    period_ms: u64,
    window_ms: u64,
}

struct DistVisitor;

impl<'de> Visitor<'de> for DistVisitor {
    type Value = DistFile;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(DIST_FORMS)
    }

    fn visit_u64<E: Error>(self, v: u64) -> Result<DistFile, E> {
        Ok(DistFile::Fixed(v))
    }

    fn visit_i64<E: Error>(self, v: i64) -> Result<DistFile, E> {
        u64::try_from(v).map(DistFile::Fixed).map_err(|_| E::custom(format!("must not be negative (got {v})")))
    }

    fn visit_f64<E: Error>(self, v: f64) -> Result<DistFile, E> {
        Err(E::custom(format!("must be a whole number of microseconds (got {v})")))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<DistFile, A::Error> {
        let d = DistObject::deserialize(MapAccessDeserializer::new(map))?;
        match (d.uniform, d.exp) {
            (Some(uniform), None) => Ok(DistFile::Uniform { uniform }),
            (None, Some(exp)) => Ok(DistFile::Exponential { exp }),
            _ => Err(A::Error::custom(format!(
                "an object needs exactly one of \"uniform\" or \"exp\"; expected {DIST_FORMS}"
            ))),
        }
    }
}

impl<'de> Deserialize<'de> for DistFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<DistFile, D::Error> {
        d.deserialize_any(DistVisitor)
    }
}

struct SanityVisitor;

impl<'de> Visitor<'de> for SanityVisitor {
    type Value = SanityFile;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(SANITY_FORMS)
    }

    fn visit_bool<E: Error>(self, v: bool) -> Result<SanityFile, E> {
        Ok(SanityFile::Enabled(v))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<SanityFile, A::Error> {
        let s = SanitySettings::deserialize(MapAccessDeserializer::new(map))?;
        Ok(SanityFile::Settings { period_ms: s.period_ms, window_ms: s.window_ms })
    }
}

impl<'de> Deserialize<'de> for SanityFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SanityFile, D::Error> {
        d.deserialize_any(SanityVisitor)
    }
}

struct BugsVisitor;

impl<'de> Visitor<'de> for BugsVisitor {
    type Value = BugsSpec;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(BUGS_FORMS)
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<BugsSpec, E> {
        Ok(BugsSpec::Profile(v.to_string()))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<BugsSpec, A::Error> {
        BugSwitchesFile::deserialize(MapAccessDeserializer::new(map)).map(BugsSpec::Switches)
    }
}

impl<'de> Deserialize<'de> for BugsSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<BugsSpec, D::Error> {
        d.deserialize_any(BugsVisitor)
    }
}
