"""The engine runs without the GIL: Python threads go on while a simulation runs."""

import threading
import time

import schedlab


def test_other_threads_run_meanwhile():
    scenario = schedlab.preset("gi-colocation")  # about 2 s of engine time on a small machine
    started = time.monotonic()
    worker = threading.Thread(target=schedlab.run, args=(scenario,))
    worker.start()
    beats = [time.monotonic()]
    while worker.is_alive():
        time.sleep(0.005)
        beats.append(time.monotonic())
    took = beats[-1] - started
    longest_pause = max(b - a for a, b in zip(beats, beats[1:]))
    # Holding the GIL, the run would stop this loop for all of its time.
    assert longest_pause < took / 2, (longest_pause, took)
