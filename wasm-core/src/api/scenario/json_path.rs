//! Where in a JSON text serde_json stopped, as a field path
//! (`processes[0].program[2].run`). serde_json says only the line and column;
//! the path is read back from the text up to there. Tracking the path while
//! deserializing (a wrapping deserializer) would compile every scenario type's
//! deserializer a second time, a large share of the wasm bundle.
//!
//! The text up to the error is scanned with a stack of open containers, each
//! knowing the key or index it is at. A member whose key was read (an unknown
//! field), whose value is under way or was just read (a wrong type) is part of
//! the path; a container closed before the error (serde_json reads a struct's
//! closing bracket before it reports a missing field) is the member it was.

/// One step of a path.
#[derive(Debug, Clone, PartialEq)]
pub enum Segment {
    Key(String),
    Index(usize),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum At {
    /// Before a member (an object's key, an array's element).
    Before,
    /// An object's key read, its value not begun.
    Key,
    /// The member's value begun and not finished.
    Value,
    /// The member's value read to its end.
    Done,
}

struct Open {
    object: bool,
    key: Option<String>,
    index: usize,
    at: At,
}

/// The byte offset serde_json reports as line and column (1-based line; the
/// column counts the bytes read on that line).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    (start + column).min(text.len())
}

/// The string starting at `b[i] == '"'`: its decoded text and the index past
/// its closing quote (the end of `b` when it is cut short).
fn string_at(b: &[u8], i: usize) -> (String, usize, bool) {
    let mut j = i + 1;
    let mut raw = Vec::new();
    while j < b.len() {
        match b[j] {
            b'"' => return (decode(&raw), j + 1, true),
            b'\\' if j + 1 < b.len() => {
                raw.extend_from_slice(&b[j..j + 2]);
                j += 2;
            }
            c => {
                raw.push(c);
                j += 1;
            }
        }
    }
    (decode(&raw), j, false)
}

/// A key's text with its escapes resolved (as serde reports the key).
fn decode(raw: &[u8]) -> String {
    let quoted = [b"\"".as_slice(), raw, b"\""].concat();
    serde_json::from_slice::<String>(&quoted).unwrap_or_else(|_| String::from_utf8_lossy(raw).into_owned())
}

/// The path at which `err` stopped reading `text`.
pub fn error_path(text: &str, err: &serde_json::Error) -> Vec<Segment> {
    let end = offset_of(text, err.line(), err.column());
    let b = &text.as_bytes()[..end];
    let mut stack: Vec<Open> = Vec::new();
    let mut i = 0;
    // A member's value begins: the open container's member is under way.
    let begin = |stack: &mut Vec<Open>| {
        if let Some(top) = stack.last_mut() {
            top.at = At::Value;
        }
    };
    let done = |stack: &mut Vec<Open>| {
        if let Some(top) = stack.last_mut() {
            top.at = At::Done;
        }
    };
    while i < b.len() {
        match b[i] {
            b'{' | b'[' => {
                begin(&mut stack);
                stack.push(Open { object: b[i] == b'{', key: None, index: 0, at: At::Before });
                i += 1;
            }
            b'}' | b']' => {
                stack.pop();
                done(&mut stack);
                i += 1;
            }
            b'"' => {
                let (s, next, closed) = string_at(b, i);
                match stack.last_mut() {
                    Some(top) if top.object && top.at == At::Before => {
                        if closed {
                            top.key = Some(s);
                            top.at = At::Key;
                        }
                    }
                    _ => {
                        begin(&mut stack);
                        if closed {
                            done(&mut stack);
                        }
                    }
                }
                i = next;
            }
            b':' => {
                // The value is due: an error before it begins (a `{` where a number goes) is the value's.
                if let Some(top) = stack.last_mut() {
                    top.at = At::Value;
                }
                i += 1;
            }
            b',' => {
                if let Some(top) = stack.last_mut() {
                    top.at = At::Before;
                    top.key = None;
                    if !top.object {
                        top.index += 1;
                    }
                }
                i += 1;
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                // A number, true, false or null: under way until the text shows its end.
                begin(&mut stack);
                while i < b.len() && !matches!(b[i], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    i += 1;
                }
                if i < b.len() {
                    done(&mut stack);
                }
            }
        }
    }
    // A sequence refused as a whole (a visitor that takes no list) is reported just inside its `[`, where an
    // element refused before it is read (a `[` where a number goes) is reported too: the text tells them apart.
    let next = text.as_bytes()[end..].iter().find(|c| !c.is_ascii_whitespace());
    let whole_list_refused = stack.last().is_some_and(|t| !t.object && t.at == At::Before && t.index == 0)
        && next != Some(&b'[')
        && err.to_string().starts_with("invalid type: sequence");
    if whole_list_refused {
        stack.pop();
    }
    let mut path = Vec::new();
    for open in &stack {
        // An array before its next element is at that element (serde_json reports a `{` where a number goes
        // before reading it); an object before its next key is at no member.
        if open.object && open.at == At::Before {
            break;
        }
        path.push(match &open.key {
            Some(k) if open.object => Segment::Key(k.clone()),
            _ => Segment::Index(open.index),
        });
    }
    path
}

/// A path as the messages write it: `processes[0].nice`; "." at the root.
pub fn path_text(path: &[Segment]) -> String {
    let mut out = String::new();
    for s in path {
        match s {
            Segment::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Segment::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    if out.is_empty() {
        ".".to_string()
    } else {
        out
    }
}

#[cfg(test)]
#[path = "json_path_test.rs"]
mod json_path_test;
