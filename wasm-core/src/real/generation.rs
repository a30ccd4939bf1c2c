//! Which of the model's kernel generations stands for this host's kernel
//! (`schedsim fidelity`): a scenario that names none is modelled on the
//! generation nearest the host's release, and the report says which, and
//! how far the host is from it.

use crate::config::Kernel;

/// The generation nearest a kernel release (`uname -r`): 4.1 for 4.x and
/// older, 6.12 for 5.x and later (the 5.5 balancer rework and 6.6's EEVDF
/// put every 5.x and 6.x kernel nearer 6.12 than 4.1). None if unreadable.
pub fn nearest_generation(release: &str) -> Option<Kernel> {
    let major: u32 = release.split('.').next()?.parse().ok()?;
    Some(if major >= 5 { Kernel::Linux612 } else { Kernel::Linux41 })
}

/// The generation's release as the report names it.
pub fn generation_release(k: Kernel) -> &'static str {
    match k {
        Kernel::Linux41 => "4.1",
        Kernel::Linux612 => "6.12",
    }
}

/// The note that names the model's generation beside the host's release.
pub fn generation_note(model: Kernel, chosen: bool, host: &str) -> String {
    let m = generation_release(model);
    let how = if chosen { "the generation nearest this host's" } else { "as the scenario says; this host runs" };
    let same = host.split('-').next().is_some_and(|v| v == m || v.starts_with(&format!("{m}.")));
    let gap = if same { "" } else { "; what changed between the two is not modelled" };
    format!("the model runs Linux {m} ({how} {host}{gap})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_is_modelled_on_the_nearest_generation() {
        assert_eq!(nearest_generation("6.18.3-amd64"), Some(Kernel::Linux612));
        assert_eq!(nearest_generation("5.4.0-150-generic"), Some(Kernel::Linux612));
        assert_eq!(nearest_generation("4.19.0-27-amd64"), Some(Kernel::Linux41));
        assert_eq!(nearest_generation("unknown"), None);
    }

    #[test]
    fn the_note_names_both_releases_and_the_gap() {
        let n = generation_note(Kernel::Linux612, true, "6.18.3-amd64");
        assert!(n.contains("Linux 6.12") && n.contains("6.18.3-amd64") && n.contains("not modelled"), "{n}");
        let same = generation_note(Kernel::Linux612, true, "6.12.117-amd64");
        assert!(!same.contains("not modelled"), "{same}");
        let said = generation_note(Kernel::Linux41, false, "6.18.3");
        assert!(said.contains("as the scenario says"), "{said}");
    }
}
