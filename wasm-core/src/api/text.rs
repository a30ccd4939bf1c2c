//! Text from scenario files, share links, traces and rt-app files is
//! untrusted. Validation refuses, in names, control characters (Unicode
//! category Cc: NUL, BEL, ESC, line breaks…) and the characters that change
//! how the text around them shows without showing themselves: format
//! characters (Cf: the bidirectional embeddings, overrides, isolates and
//! marks, zero-width spaces and joiners, the soft hyphen, the byte-order
//! mark, tags…) and the line and paragraph separators (Zl, Zp). Every text
//! output escapes any that reach it anyway (a trace's task names are not a
//! scenario's), so no name can drive a terminal, fake a row of a table,
//! reverse the text around it or pass for another name. JSON outputs keep
//! the exact string.

use std::borrow::Cow;

/// A format character (Unicode general category Cf, Unicode 17.0): they
/// direct the layout of the text around them and show nothing themselves.
/// The page's helper (`src/views/hidden-chars.ts`) reads the same category
/// from the browser's own tables; `tests/unit/hidden-chars.test.ts` checks
/// the two agree.
pub fn is_format(ch: char) -> bool {
    matches!(
        ch as u32,
        0xAD | 0x600..=0x605
            | 0x61C
            | 0x6DD
            | 0x70F
            | 0x890..=0x891
            | 0x8E2
            | 0x180E
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0001
            | 0xE0020..=0xE007F
    )
}

/// A character a name must not hold and a text output never prints as it
/// is: a control character (Cc), a format character (Cf), or a line or
/// paragraph separator (U+2028, U+2029).
pub fn is_hidden(ch: char) -> bool {
    ch.is_control() || is_format(ch) || matches!(ch, '\u{2028}' | '\u{2029}')
}

/// `s` with each hidden character (`is_hidden`) written as an escape: a
/// control character as Rust writes it (`\n`, `\t`, `\0`, `\u{1b}`), any
/// other by its code point (`\u{202e}`); other characters, backslashes
/// included, are left as they are.
pub fn escape_controls(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_hidden) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for ch in s.chars() {
        if ch.is_control() {
            out.extend(ch.escape_debug());
        } else if is_hidden(ch) {
            out.extend(ch.escape_unicode());
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

/// Why a name (or other one-line text from a file) is refused, if it is:
/// its first hidden character, named by its code point.
pub fn name_problem(s: &str) -> Option<String> {
    let ch = s.chars().find(|&ch| is_hidden(ch))?;
    Some(if ch.is_control() {
        format!("must not contain control characters ({})", code_point(ch))
    } else {
        format!(
            "must not contain invisible or bidirectional formatting characters ({}): they change how the text \
             around them shows",
            code_point(ch)
        )
    })
}

/// The control characters prose may contain (a scenario's description, an
/// exercise's text): line breaks and tabs.
pub const DESCRIPTION_CONTROLS: [char; 2] = ['\n', '\t'];

/// The format characters of the Basic Multilingual Plane and the line and paragraph separators
/// (U+2028–U+202E: Zl, Zp and the five embeddings and overrides), as a pattern's class writes them.
macro_rules! hidden_bmp {
    () => {
        r"\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    };
}

/// The same rules as patterns, for the scenario's JSON Schema. Names: no control characters (Unicode category
/// Cc), no format characters (Cf) and no line or paragraph separators. A pattern's class can list only the format
/// characters of the Basic Multilingual Plane (a validator reading the pattern without JavaScript's `u` flag sees
/// UTF-16 code units); validation also refuses the rest (U+110BD, U+110CD, U+13430–U+1343F, U+1BCA0–U+1BCA3,
/// U+1D173–U+1D17A, U+E0001, U+E0020–U+E007F).
pub const NAME_PATTERN: &str = concat!(r"^[^\u0000-\u001f\u007f-\u009f", hidden_bmp!(), "]*$");
/// Prose: line breaks and tabs, but no other control characters.
pub const TEXT_PATTERN: &str = r"^[^\u0000-\u0008\u000b-\u001f\u007f-\u009f]*$";
/// A process's name: no '/' either (a wake step names a thread as 'process/k').
pub const PROCESS_NAME_PATTERN: &str = concat!(r"^[^/\u0000-\u001f\u007f-\u009f", hidden_bmp!(), "]*$");

/// A character as a message names it: `U+001B`.
pub fn code_point(ch: char) -> String {
    format!("U+{:04X}", ch as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hidden_characters_are_escaped() {
        assert!(matches!(escape_controls("plain ünïcode \\ name, 中文, עברית, 👍🏽"), Cow::Borrowed(_)));
        assert_eq!(
            escape_controls("a\u{1b}[31mred\u{7}\0\nb\tc\r\u{85}"),
            "a\\u{1b}[31mred\\u{7}\\0\\nb\\tc\\r\\u{85}"
        );
    }

    #[test]
    fn bidirectional_and_invisible_characters_are_escaped_by_code_point() {
        // A name that reverses what follows it, and one that passes for "worker".
        assert_eq!(escape_controls("evil\u{202e}gnp.exe"), "evil\\u{202e}gnp.exe");
        assert_eq!(escape_controls("wor\u{200b}ker\u{feff}"), "wor\\u{200b}ker\\u{feff}");
        let every = "\u{202a}\u{202b}\u{202c}\u{202d}\u{202e}\u{2066}\u{2067}\u{2068}\u{2069}\u{200e}\u{200f}\u{61c}\
                     \u{200b}\u{200c}\u{200d}\u{2060}\u{feff}\u{ad}\u{2028}\u{2029}\u{e0041}\u{1d173}";
        let shown = escape_controls(every);
        assert!(!shown.chars().any(is_hidden), "{shown}");
        assert_eq!(shown.matches("\\u{").count(), every.chars().count(), "{shown}");
    }

    #[test]
    fn the_hidden_characters_are_cc_cf_zl_and_zp() {
        for ch in
            ['\u{0}', '\u{1f}', '\u{7f}', '\u{9f}', '\u{ad}', '\u{600}', '\u{61c}', '\u{180e}', '\u{2064}', '\u{206f}']
        {
            assert!(is_hidden(ch), "{}", code_point(ch));
        }
        for ch in ['\u{2028}', '\u{2029}', '\u{fff9}', '\u{110bd}', '\u{1343f}', '\u{e0001}', '\u{e007f}'] {
            assert!(is_hidden(ch), "{}", code_point(ch));
        }
        // Spaces, letters, marks and emoji show themselves; U+2065 and U+E0000 are unassigned.
        for ch in [' ', '\u{a0}', '\u{2009}', 'é', '\u{301}', '\u{fe0f}', '\u{2065}', '\u{e0000}', '\u{e0080}', '🦀']
        {
            assert!(!is_hidden(ch), "{}", code_point(ch));
        }
        // Unicode 17.0 has 170 format characters.
        assert_eq!((0..=0x10FFFF).filter_map(char::from_u32).filter(|&c| is_format(c)).count(), 170);
    }

    #[test]
    fn a_name_problem_names_the_character_by_its_code_point() {
        assert_eq!(name_problem("plain name"), None);
        assert_eq!(name_problem("a\u{1b}b").as_deref(), Some("must not contain control characters (U+001B)"));
        let why = name_problem("a\u{202e}b\u{1b}").unwrap();
        assert!(why.starts_with("must not contain invisible or bidirectional formatting characters (U+202E)"), "{why}");
        assert!(name_problem("tag\u{e0041}").unwrap().contains("(U+E0041)"));
    }

    /// The schema's pattern lists the hidden characters of the Basic Multilingual Plane as ranges: every
    /// range's ends are hidden, and every hidden BMP character outside Cc falls in one.
    #[test]
    fn the_patterns_class_lists_the_hidden_characters_of_the_bmp() {
        let class = hidden_bmp!();
        let units: Vec<u32> = class.split("\\u").skip(1).map(|h| u32::from_str_radix(&h[..4], 16).unwrap()).collect();
        let ranged: Vec<bool> = class.split("\\u").skip(1).map(|h| h.ends_with('-')).collect();
        let mut listed = std::collections::BTreeSet::new();
        let mut i = 0;
        while i < units.len() {
            let (lo, hi) = if ranged[i] { (units[i], units[i + 1]) } else { (units[i], units[i]) };
            listed.extend(lo..=hi);
            i += if ranged[i] { 2 } else { 1 };
        }
        let hidden: std::collections::BTreeSet<u32> =
            (0xA0..=0xFFFF).filter_map(char::from_u32).filter(|&c| is_hidden(c)).map(|c| c as u32).collect();
        assert_eq!(listed, hidden);
        assert!(NAME_PATTERN.contains(class) && PROCESS_NAME_PATTERN.contains(class));
    }

    #[test]
    fn the_first_forbidden_control_is_found() {
        assert_eq!(forbidden_control("two\nlines\tand\u{1b}", &['\n', '\t']), Some('\u{1b}'));
        assert_eq!(forbidden_control("two\nlines", &['\n']), None);
        assert_eq!(code_point('\u{1b}'), "U+001B");
        assert_eq!(code_point('\u{9f}'), "U+009F");
    }
}
