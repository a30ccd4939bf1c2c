//! JSON as rt-app reads it: json-c's tokener in its default, non-strict mode
//! (`json_object_from_file`), which accepts more than RFC 8259:
//!
//! ```text
//!   /* comments */ and // comments    wherever white space may be
//!   'single-quoted' strings and keys  ("\'" is still refused, as json-c does)
//!   trailing commas                   [1, 2,]  {"a": 1,}
//!   True, NULL, nan, -Infinity        literals in any case
//!   01, 1., 2.e3, 123e+               numbers as strtod reads them
//!   raw control characters            inside strings
//!   text after the top-level value    ignored (the tokener stops there)
//! ```
//!
//! A key written twice in one object is kept twice, in file order: rt-app's
//! own examples repeat keys ("run", "sleep", …) and rely on its `workgen`
//! script to number them (run, run1, …) before rt-app reads the file; json-c
//! alone would keep one entry, at the first one's place with the last one's
//! value. The reader lists where keys repeat so the import can say which
//! reading it took.
//!
//! Errors name the line and column (counted in characters, from 1) and what
//! json-c expected there. Nesting is bounded as json-c's default depth
//! bounds it, so the recursion is too.

use super::ordered_json::Json;

/// json-c's JSON_TOKENER_DEFAULT_DEPTH: objects and arrays nest at most this deep, the top level included.
const MAX_DEPTH: usize = 32;

/// A file read: its value, where keys repeat (`path: key, key`), and whether
/// text follows the top-level value.
#[derive(Debug, PartialEq)]
pub struct Read {
    pub value: Json,
    pub repeated_keys: Vec<String>,
    pub trailing_text: bool,
}

/// `text` as json-c reads it, or the place and reason it stops.
pub fn read(text: &str) -> Result<Read, String> {
    let mut p = Reader { s: text.as_bytes(), at: 0, path: Vec::new(), repeated_keys: Vec::new() };
    p.space()?;
    if p.at >= p.s.len() {
        return Err(p.error_at(p.at, "the text ends before its JSON value does"));
    }
    let value = p.value(0)?;
    p.space()?;
    Ok(Read { value, repeated_keys: p.repeated_keys, trailing_text: p.at < p.s.len() })
}

struct Reader<'a> {
    s: &'a [u8],
    at: usize,
    /// Where the reader is, as keys and indices (for the repeated keys' places).
    path: Vec<String>,
    repeated_keys: Vec<String>,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    /// "line L, column C: what", the column counted in characters.
    fn error_at(&self, at: usize, what: &str) -> String {
        let before = &self.s[..at.min(self.s.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
        format!("line {line}, column {column}: {what}")
    }

    fn error(&self, what: &str) -> String {
        self.error_at(self.at, what)
    }

    fn unexpected(&self, expected: &str) -> String {
        match self.peek() {
            None => self.error(&format!("the text ends where {expected} was expected")),
            Some(_) => {
                let c = std::str::from_utf8(&self.s[self.at..]).ok().and_then(|t| t.chars().next()).unwrap_or('?');
                self.error(&format!("{expected} was expected, not {c:?}"))
            }
        }
    }

    /// White space and comments (json-c's eatws state).
    fn space(&mut self) -> Result<(), String> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.at += 1,
                Some(b'/') => {
                    let start = self.at;
                    match self.s.get(self.at + 1) {
                        Some(b'*') => {
                            let body = &self.s[self.at + 2..];
                            let end = body.windows(2).position(|w| w == b"*/");
                            let Some(end) = end else {
                                return Err(self.error_at(start, "a /* comment is not closed"));
                            };
                            self.at += 2 + end + 2;
                        }
                        Some(b'/') => {
                            let rest = &self.s[self.at..];
                            self.at += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                        }
                        _ => return Err(self.error("a comment starts with /* or //")),
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        match self.peek() {
            Some(b'{') | Some(b'[') if depth + 1 >= MAX_DEPTH => {
                Err(self.error(&format!("objects and arrays nest deeper than json-c's {MAX_DEPTH} levels")))
            }
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(q @ (b'"' | b'\'')) => self.string(q).map(Json::String),
            Some(b'0'..=b'9' | b'-') => self.number(),
            Some(c) if c.is_ascii_alphabetic() => self.literal(),
            _ => Err(self.unexpected("a value")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, String> {
        self.at += 1;
        let mut members: Vec<(String, Json)> = Vec::new();
        loop {
            self.space()?;
            match self.peek() {
                // Also after a comma: json-c takes a trailing comma.
                Some(b'}') => break,
                Some(q @ (b'"' | b'\'')) => {
                    let key = self.string(q)?;
                    self.space()?;
                    if self.peek() != Some(b':') {
                        return Err(self.unexpected("':' after the key"));
                    }
                    self.at += 1;
                    self.space()?;
                    self.path.push(key.clone());
                    let v = self.value(depth + 1)?;
                    self.path.pop();
                    members.push((key, v));
                    self.space()?;
                    match self.peek() {
                        Some(b',') => self.at += 1,
                        Some(b'}') => break,
                        _ => return Err(self.unexpected("',' or '}' after a value")),
                    }
                }
                _ => return Err(self.unexpected("a key in quotes or '}'")),
            }
        }
        self.at += 1;
        self.note_repeats(&members);
        Ok(Json::Object(members))
    }

    fn note_repeats(&mut self, members: &[(String, Json)]) {
        let mut repeated: Vec<&str> = Vec::new();
        for (i, (k, _)) in members.iter().enumerate() {
            if members[..i].iter().any(|(e, _)| e == k) && !repeated.contains(&k.as_str()) {
                repeated.push(k);
            }
        }
        if !repeated.is_empty() {
            let place = if self.path.is_empty() { "the top level".to_string() } else { self.path.join(".") };
            self.repeated_keys.push(format!("{place}: {}", repeated.join(", ")));
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, String> {
        self.at += 1;
        let mut items = Vec::new();
        loop {
            self.space()?;
            if self.peek() == Some(b']') {
                break;
            }
            self.path.push(format!("[{}]", items.len()));
            let v = self.value(depth + 1)?;
            self.path.pop();
            items.push(v);
            self.space()?;
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => break,
                _ => return Err(self.unexpected("',' or ']' after a value")),
            }
        }
        self.at += 1;
        Ok(Json::Array(items))
    }

    /// A string quoted by `q`, its escapes as json-c reads them.
    fn string(&mut self, q: u8) -> Result<String, String> {
        let start = self.at;
        self.at += 1;
        let mut out: Vec<u8> = Vec::new();
        let mut high_surrogate: Option<u32> = None;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error_at(start, "a string is not closed"));
            };
            if c != b'\\' {
                if let Some(_h) = high_surrogate.take() {
                    push_char(&mut out, char::REPLACEMENT_CHARACTER);
                }
                self.at += 1;
                if c == q {
                    break;
                }
                out.push(c);
                continue;
            }
            let escape_at = self.at;
            self.at += 1;
            let e = self.peek().ok_or_else(|| self.error_at(start, "a string is not closed"))?;
            self.at += 1;
            let plain = match e {
                b'"' | b'\\' | b'/' => Some(e),
                b'b' => Some(0x08),
                b'f' => Some(0x0c),
                b'n' => Some(b'\n'),
                b'r' => Some(b'\r'),
                b't' => Some(b'\t'),
                b'u' => None,
                _ => {
                    return Err(
                        self.error_at(escape_at, "a string escape is one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
                    )
                }
            };
            if let Some(b) = plain {
                if high_surrogate.take().is_some() {
                    push_char(&mut out, char::REPLACEMENT_CHARACTER);
                }
                out.push(b);
                continue;
            }
            let hex = self.s.get(self.at..self.at + 4).and_then(|h| std::str::from_utf8(h).ok());
            let Some(unit) = hex.and_then(|h| u32::from_str_radix(h, 16).ok()) else {
                return Err(self.error_at(escape_at, "\\u takes four hexadecimal digits"));
            };
            self.at += 4;
            match (high_surrogate.take(), unit) {
                (Some(h), 0xDC00..=0xDFFF) => {
                    let c = 0x10000 + ((h - 0xD800) << 10) + (unit - 0xDC00);
                    push_char(&mut out, char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER));
                }
                (h, 0xD800..=0xDBFF) => {
                    if h.is_some() {
                        push_char(&mut out, char::REPLACEMENT_CHARACTER);
                    }
                    high_surrogate = Some(unit);
                }
                (h, _) => {
                    if h.is_some() {
                        push_char(&mut out, char::REPLACEMENT_CHARACTER);
                    }
                    push_char(&mut out, char::from_u32(unit).unwrap_or(char::REPLACEMENT_CHARACTER));
                }
            }
        }
        // The text was UTF-8 and escapes add whole characters, so this holds.
        String::from_utf8(out).map_err(|_| self.error_at(start, "a string is not UTF-8"))
    }

    /// A number as json-c's tokener gathers it, then as strtoll / strtod read it.
    fn number(&mut self) -> Result<Json, String> {
        let start = self.at;
        let (mut double, mut exponent) = (false, false);
        let (mut minus_ok, mut plus_ok) = (true, false);
        while let Some(c) = self.peek() {
            let ok = c.is_ascii_digit()
                || (!exponent && (c == b'e' || c == b'E'))
                || (minus_ok && c == b'-')
                || (plus_ok && c == b'+')
                || (!double && c == b'.');
            if !ok {
                break;
            }
            (minus_ok, plus_ok) = (false, false);
            match c {
                b'.' => (double, minus_ok, plus_ok) = (true, true, true),
                b'e' | b'E' => (exponent, double, minus_ok, plus_ok) = (true, true, true, true),
                _ => {}
            }
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.at]).unwrap_or("");
        if text == "-" && matches!(self.peek(), Some(b'i' | b'I')) {
            return self.literal().map(|_| Json::Null);
        }
        match self.peek() {
            None | Some(b',' | b']' | b'}' | b'/' | b' ' | b'\t' | b'\n' | b'\r') => {}
            _ => return Err(self.error_at(start, "a malformed number")),
        }
        if double {
            // "123e+" reads as 123, as json-c trims a dangling exponent.
            let trimmed = text.trim_end_matches(['e', 'E', '+', '-']);
            let v: f64 = leading_float(trimmed).ok_or_else(|| self.error_at(start, "a malformed number"))?;
            return Ok(serde_json::Number::from_f64(v).map_or(Json::Null, Json::Number));
        }
        let digits = text.strip_prefix('-');
        let n = match digits {
            Some("") => return Err(self.error_at(start, "a malformed number")),
            // strtoll: out of range saturates, as json-c takes it outside strict mode.
            Some(d) => serde_json::Number::from(d.parse::<u64>().map_or(i64::MIN, |u| 0i64.saturating_sub_unsigned(u))),
            None => serde_json::Number::from(text.parse::<u64>().unwrap_or(u64::MAX)),
        };
        Ok(Json::Number(n))
    }

    /// true, false, null, NaN or Infinity, in any case. NaN and the
    /// infinities have no JSON number: they read as null, which no rt-app
    /// field takes.
    fn literal(&mut self) -> Result<Json, String> {
        let start = self.at;
        let rest = &self.s[self.at..];
        for (word, value) in
            [("true", Json::Bool(true)), ("false", Json::Bool(false)), ("null", Json::Null), ("nan", Json::Null)]
        {
            if rest.len() >= word.len() && rest[..word.len()].eq_ignore_ascii_case(word.as_bytes()) {
                self.at += word.len();
                return Ok(value);
            }
        }
        if rest.len() >= 8 && rest[..8].eq_ignore_ascii_case(b"infinity") {
            self.at += 8;
            return Ok(Json::Null);
        }
        Err(self.error_at(start, "a value was expected (true, false, null, a number, a string, an object or an array)"))
    }
}

fn push_char(out: &mut Vec<u8>, c: char) {
    let mut buf = [0u8; 4];
    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
}

/// The longest prefix of `s` that reads as a float (strtod stops where the
/// number does: "1.2e" is 1.2).
fn leading_float(s: &str) -> Option<f64> {
    (1..=s.len()).rev().find_map(|n| s.get(..n).and_then(|p| p.parse::<f64>().ok()))
}

#[cfg(test)]
#[path = "json_c_test.rs"]
mod tests;
