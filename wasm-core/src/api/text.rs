//! Text from scenario files is untrusted. Validation refuses control
//! characters (Unicode category Cc: NUL, BEL, ESC, line breaks…) in names,
//! and every text output escapes any that reach it anyway, so no name can
//! drive a terminal or fake a row of a table (defence in depth).

use std::borrow::Cow;

/// `s` with each control character written as an escape (`\n`, `\t`, `\0`,
/// `\u{1b}`); other characters, backslashes included, are left as they are.
pub fn escape_controls(s: &str) -> Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for ch in s.chars() {
        if ch.is_control() {
            out.extend(ch.escape_debug());
        } else {
            out.push(ch);
        }
    }
    Cow::Owned(out)
}

/// The first control character of `s` that is not in `allowed`.
pub fn forbidden_control(s: &str, allowed: &[char]) -> Option<char> {
    s.chars().find(|ch| ch.is_control() && !allowed.contains(ch))
}

/// The control characters prose may contain (a scenario's description, an
/// exercise's text): line breaks and tabs.
pub const DESCRIPTION_CONTROLS: [char; 2] = ['\n', '\t'];

/// The same rules as patterns, for the scenario's JSON Schema. Names: no control characters (Unicode category
/// Cc).
pub const NAME_PATTERN: &str = r"^[^\u0000-\u001f\u007f-\u009f]*$";
/// Prose: line breaks and tabs, but no other control characters.
pub const TEXT_PATTERN: &str = r"^[^\u0000-\u0008\u000b-\u001f\u007f-\u009f]*$";
/// A process's name: no '/' either (a wake step names a thread as 'process/k').
pub const PROCESS_NAME_PATTERN: &str = r"^[^/\u0000-\u001f\u007f-\u009f]*$";

/// A control character as a message names it: `U+001B`.
pub fn code_point(ch: char) -> String {
    format!("U+{:04X}", ch as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_control_characters_are_escaped() {
        assert!(matches!(escape_controls("plain ünïcode \\ name"), Cow::Borrowed(_)));
        assert_eq!(
            escape_controls("a\u{1b}[31mred\u{7}\0\nb\tc\r\u{85}"),
            "a\\u{1b}[31mred\\u{7}\\0\\nb\\tc\\r\\u{85}"
        );
    }

    #[test]
    fn the_first_forbidden_control_is_found() {
        assert_eq!(forbidden_control("two\nlines\tand\u{1b}", &['\n', '\t']), Some('\u{1b}'));
        assert_eq!(forbidden_control("two\nlines", &['\n']), None);
        assert_eq!(code_point('\u{1b}'), "U+001B");
        assert_eq!(code_point('\u{9f}'), "U+009F");
    }
}
