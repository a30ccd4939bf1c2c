"""The scenario and plan the sweep tests share: short (20 ms) so that 200 runs take seconds, with random sleeps so
that every seed is another run."""

SCENARIO = {
    "version": 1,
    "name": "sweep-test",
    "duration_ms": 20,
    "machine": {"preset": "laptop-2c4t"},
    "policy": {"kind": "cfs"},
    "processes": [
        {"name": "hog", "program": [{"body": [{"run_us": 3000}, {"sleep_us": {"exp": 500}}]}]},
        {
            "name": "sleeper",
            "threads": 2,
            "program": [{"body": [{"run_us": {"exp": 300}}, {"sleep_us": {"exp": 900}}]}],
        },
    ],
}

# 50 seeds × 2 × 2 = 200 runs. One axis as a list of values, one as the command line's text.
GRID = {"processes.1.threads": [1, 3], "policy.kind": "cfs,eevdf"}
SEEDS = range(1, 51)
CLI_ARGS = ["--seeds", "1..50", "--set", "processes.1.threads=1,3", "--set", "policy.kind=cfs,eevdf"]
