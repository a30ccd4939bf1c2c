//! A problem with a scenario (`Diagnostic`: the field's JSON path and the
//! reason), and the checker validation collects them in, bounded so a file
//! of a million bad steps makes a hundred messages and a count.

use crate::api::text::name_problem;

/// A problem with a scenario: the JSON path of the field and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub field: String,
    pub reason: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

/// At most this many problems are listed; the rest are counted in one last
/// line (a file of a million bad steps must not make a million messages).
pub const MAX_DIAGNOSTICS: usize = 100;

/// The problems validation finds, as it finds them: each with its field, at
/// most `MAX_DIAGNOSTICS` listed and the rest counted.
#[derive(Default)]
pub(crate) struct Checker {
    diags: Vec<Diagnostic>,
    /// Problems found past `MAX_DIAGNOSTICS`.
    omitted: usize,
}

impl Checker {
    pub(crate) fn fail(&mut self, field: impl Into<String>, reason: impl Into<String>) {
        if self.diags.len() < MAX_DIAGNOSTICS {
            self.diags.push(Diagnostic { field: field.into(), reason: reason.into() });
        } else {
            self.omitted += 1;
        }
    }

    /// A name or other one-line text from the file: no control characters
    /// (they would reach terminals and tables as they are), no format
    /// characters and no line or paragraph separators (they would reverse
    /// the text around the name, or hide in it to pass for another name).
    pub(crate) fn one_line(&mut self, field: &str, s: &str) {
        if let Some(why) = name_problem(s) {
            self.fail(field, why);
        }
    }

    /// Problems found so far, listed or not.
    pub(crate) fn found(&self) -> usize {
        self.diags.len() + self.omitted
    }

    pub(crate) fn into_diagnostics(mut self) -> Vec<Diagnostic> {
        if self.omitted > 0 {
            self.diags.push(Diagnostic {
                field: "scenario".into(),
                reason: format!("{} more problems not listed (only the first {MAX_DIAGNOSTICS} are)", self.omitted),
            });
        }
        self.diags
    }

    pub(crate) fn range<T: PartialOrd + std::fmt::Display>(&mut self, field: &str, v: T, lo: T, hi: T) {
        if v < lo || v > hi {
            self.fail(field, format!("must be between {lo} and {hi} (got {v})"));
        }
    }
}
