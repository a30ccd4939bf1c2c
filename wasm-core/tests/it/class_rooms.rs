//! Each scheduling class is a room of its own (`src/sim/fair/`, `src/sim/o1/`,
//! `src/sim/ext/`, `src/sim/rt/`, `src/sim/dl/`): no room names another room or its state, and the core
//! (the rest of `src/sim/`) reaches a class only through `SchedClass`, never
//! into a class's state. Inside the fair class each kernel generation
//! (`linux41/`, `linux612/`) is a room too.
//!
//! A reach is a line (comments left out) that names another room's module
//! (`sim::o1`, `super::fair`, `fair::…`) or its state (`FairState`,
//! `O1State`, `ExtState`, the simulator's `.fair.` slot). The core's reaches
//! left from before the rooms are listed in `KNOWN_CORE_REACHES`, per file,
//! with their count: the list may only shrink, and a file whose count
//! changes fails until the list says so.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The rooms and the names by which another file would reach into each.
const ROOMS: &[(&str, &[&str])] = &[
    (
        "fair",
        &[
            "sim::fair",
            "super::fair",
            "fair::class",
            "fair::state",
            "fair::linux41",
            "fair::cx",
            "fair::chain",
            "FairState",
            "FairCx",
            ".fair.",
        ],
    ),
    ("o1", &["sim::o1", "super::o1", "o1::class", "O1State", "O1Cx"]),
    ("ext", &["sim::ext", "super::ext", "ext::class", "ext::host", "ExtState"]),
    ("rt", &["sim::rt", "super::rt", "rt::class", "rt::state", "RtState", "RtCx"]),
    ("dl", &["sim::dl", "super::dl", "dl::class", "dl::state", "DlState", "DlCx"]),
];

/// Core files that still reach into a class's room, and how many lines do.
/// The views' accessors read the fair state directly (they are reads of the
/// snapshot, not scheduling); boot and hotplug tell it of the machine.
const KNOWN_CORE_REACHES: &[(&str, usize)] = &[
    // class_for: the one place that names each class's static (6.12's fair class among them), and
    // rt_class and dl_class, the real-time and deadline classes', above whichever runs at the fair
    // class's place.
    ("class.rs", 7),
    // The simulator's fair slot; its accessors for the views (task groups, runqueues, entities,
    // decisions and how many were kept, tunables, 6.12's EEVDF queues) and the benchmarks' balancing pass.
    ("mod.rs", 12),
    // Boot makes the fair state (with the task groups) and its runqueues' idle costs, and tells the
    // balancers (4.1's, and 6.12's under that kernel) of a domain rebuild.
    ("boot.rs", 5),
    // Sched's slot for the state every run has is typed as the fair class's: named rather than found by
    // a downcast through `Any`, which cost four indirect calls on every hook (about 4 % more instructions
    // per event). A class with a box of its own never sees that slot: it holds `Others`, which hands the
    // fair state back to the dispatch across classes (a real-time task's hook, then a fair task's).
    ("dispatch.rs", 5),
    // Hotplug tells the fair state of a dying CPU and of the new CPU count.
    ("hotplug.rs", 2),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable dir") {
        let p = entry.expect("entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Lines of `text` (outside `//` comments) that name one of `names`.
fn reaches(text: &str, names: &[&str]) -> Vec<String> {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .filter(|code| names.iter().any(|n| code.contains(n)))
        .map(|code| code.trim().to_string())
        .collect()
}

fn sim_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join("sim")
}

#[test]
fn no_room_reaches_another() {
    let mut found = Vec::new();
    for (room, _) in ROOMS {
        let mut files = Vec::new();
        rust_files(&sim_dir().join(room), &mut files);
        assert!(!files.is_empty(), "the room src/sim/{room}/ has files");
        for file in files {
            let text = std::fs::read_to_string(&file).expect("readable");
            for (other, names) in ROOMS.iter().filter(|(o, _)| o != room) {
                for line in reaches(&text, names) {
                    found.push(format!("{} reaches {other}: {line}", file.display()));
                }
            }
        }
    }
    assert!(found.is_empty(), "a class reaches another class's room:\n{}", found.join("\n"));
}

#[test]
fn the_core_reaches_classes_only_where_listed() {
    let names: Vec<&str> = ROOMS.iter().flat_map(|(_, n)| n.iter().copied()).collect();
    let rooms: Vec<PathBuf> = ROOMS.iter().map(|(room, _)| sim_dir().join(room)).collect();
    let mut files = Vec::new();
    rust_files(&sim_dir(), &mut files);
    let mut counts = BTreeMap::new();
    // The core is every file of src/sim/ outside the rooms: the files directly in it and its own folders
    // (the kernel generation's core parts, `kernel/`).
    for p in files.iter().filter(|p| !rooms.iter().any(|r| p.starts_with(r))) {
        let text = std::fs::read_to_string(p).expect("readable");
        let n = reaches(&text, &names).len();
        if n > 0 {
            let rel = p.strip_prefix(sim_dir()).expect("under src/sim");
            counts.insert(rel.to_string_lossy().replace('\\', "/"), n);
        }
    }
    let known: BTreeMap<String, usize> = KNOWN_CORE_REACHES.iter().map(|(f, n)| (f.to_string(), *n)).collect();
    assert_eq!(counts, known, "the core's reaches into class rooms (left: found, right: KNOWN_CORE_REACHES)");
}

/// The fair class's kernel generations, each a folder of `src/sim/fair/`.
const GENERATIONS: &[&str] = &["linux41", "linux612"];

/// Shared fair-class files that name a generation, and how many lines do:
/// the dispatch, the module list, and the state that holds 4.1's balancer
/// state and 6.12's own. The list may only shrink.
const KNOWN_SHARED_FAIR_REACHES: &[(&str, usize)] = &[("generation.rs", 2), ("mod.rs", 2), ("state.rs", 2)];

/// A generation is a room inside the fair class: it does not name another
/// generation, and the class's shared walk reaches one only through
/// `FairGeneration` (`generation.rs`'s dispatch on the run's kernel).
#[test]
fn generations_are_rooms_of_the_fair_class() {
    let fair = sim_dir().join("fair");
    let mut found = Vec::new();
    for generation in GENERATIONS {
        let mut files = Vec::new();
        rust_files(&fair.join(generation), &mut files);
        assert!(!files.is_empty(), "the generation src/sim/fair/{generation}/ has files");
        let others: Vec<&str> = GENERATIONS.iter().copied().filter(|g| g != generation).collect();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("readable");
            for line in reaches(&text, &others) {
                found.push(format!("{} reaches another generation: {line}", file.display()));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    let mut counts = BTreeMap::new();
    for entry in std::fs::read_dir(&fair).expect("readable src/sim/fair") {
        let p = entry.expect("entry").path();
        if p.extension().is_some_and(|e| e == "rs") {
            let n = reaches(&std::fs::read_to_string(&p).expect("readable"), GENERATIONS).len();
            if n > 0 {
                counts.insert(p.file_name().expect("a name").to_string_lossy().into_owned(), n);
            }
        }
    }
    let known: BTreeMap<String, usize> = KNOWN_SHARED_FAIR_REACHES.iter().map(|(f, n)| (f.to_string(), *n)).collect();
    assert_eq!(counts, known, "shared fair files naming a generation (left: found, right: KNOWN_SHARED_FAIR_REACHES)");
}

/// Class code is written over the class's own context (`FairCx`, `O1Cx`,
/// the sched_ext class's functions over `Sched`), never as `impl Simulator`:
/// a method of the simulator could reach every class's state.
#[test]
fn no_class_code_is_a_method_of_the_simulator() {
    let mut found = Vec::new();
    for (room, _) in ROOMS {
        let mut files = Vec::new();
        rust_files(&sim_dir().join(room), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).expect("readable");
            for line in text.lines().filter(|l| l.trim_start().starts_with("impl") && l.contains("Simulator")) {
                found.push(format!("{}: {}", file.display(), line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "class code written on the simulator:\n{}", found.join("\n"));
}

/// `SchedClass` hands a class `Sched` (the core and the class's own state),
/// never the simulator.
#[test]
fn no_class_hook_takes_the_simulator() {
    let text = std::fs::read_to_string(sim_dir().join("class.rs")).expect("readable");
    let start = text.find("pub trait SchedClass").expect("the trait");
    let end = start + text[start..].find("\n}\n").expect("its end");
    let takes: Vec<&str> = text[start..end].lines().filter(|l| l.contains("Simulator")).collect();
    assert!(takes.is_empty(), "SchedClass methods that take the simulator:\n{}", takes.join("\n"));
}
