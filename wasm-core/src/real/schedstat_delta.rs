//! `/proc/schedstat` before and after a real run, and their difference in
//! the file's own layout (any version: numbers are subtracted field by field,
//! other fields — domain names, CPU masks — kept from the later reading).

/// The host's `/proc/schedstat`, if the kernel has it (CONFIG_SCHEDSTATS).
pub fn read() -> Option<String> {
    std::fs::read_to_string("/proc/schedstat").ok()
}

/// after − before, line by line; an error if the two are not alike (a CPU came or went).
pub fn delta(before: &str, after: &str) -> Result<String, String> {
    let (b, a): (Vec<&str>, Vec<&str>) = (before.lines().collect(), after.lines().collect());
    if a.len() != b.len() {
        return Err(format!("/proc/schedstat changed shape ({} lines, then {})", b.len(), a.len()));
    }
    let mut out = String::new();
    for (lb, la) in b.iter().zip(&a) {
        let (fb, fa): (Vec<&str>, Vec<&str>) = (lb.split_whitespace().collect(), la.split_whitespace().collect());
        if fb.len() != fa.len() || fb.first() != fa.first() {
            return Err(format!("/proc/schedstat changed shape: {lb:?} then {la:?}"));
        }
        // Fields kept as read: the version; a domain's CPU mask (and name, from version 17 on).
        let kept = match fa.first() {
            Some(&"version") => fa.len(),
            Some(d) if d.starts_with("domain") => {
                let mask_first = fa.get(1).is_some_and(|f| f.bytes().all(|c| c.is_ascii_hexdigit() || c == b','));
                if mask_first {
                    2
                } else {
                    3
                }
            }
            _ => 1,
        };
        let fields: Vec<String> = fb
            .iter()
            .zip(&fa)
            .enumerate()
            .map(|(i, (x, y))| match (i >= kept, x.parse::<u64>(), y.parse::<u64>()) {
                (true, Ok(x), Ok(y)) => y.saturating_sub(x).to_string(),
                _ => y.to_string(),
            })
            .collect();
        out += &fields.join(" ");
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_subtract_and_masks_and_names_stay() {
        let before = "version 17\ntimestamp 100\ncpu0 1 0 10 5 7 3 1000 200 9\ndomain0 MC 03 1 2 3\n";
        let after = "version 17\ntimestamp 175\ncpu0 4 0 30 6 9 3 5000 260 12\ndomain0 MC 03 2 2 10\n";
        assert_eq!(delta("domain0 3 1 2\n", "domain0 3 4 2\n").unwrap(), "domain0 3 3 0\n");
        assert_eq!(
            delta(before, after).unwrap(),
            "version 17\ntimestamp 75\ncpu0 3 0 20 1 2 0 4000 60 3\ndomain0 MC 03 1 0 7\n"
        );
    }

    #[test]
    fn a_changed_shape_is_an_error() {
        assert!(delta("version 15\ncpu0 1\n", "version 15\n").is_err());
        assert!(delta("cpu0 1\n", "cpu1 1\n").is_err());
    }
}
