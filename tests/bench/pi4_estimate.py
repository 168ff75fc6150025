"""A Raspberry Pi 4's time for the game analysis, estimated from this machine's.

There is no Pi 4 in CI, so the estimate scales a measured time by a
per-core speed ratio taken from one published pure-Python figure:

* **published** — the Computer Language Benchmarks Game's n-body program in
  CPython, 5,000,000 steps: 158.26 s on a Raspberry Pi 4 Model B at a fixed
  1.5 GHz (performance governor), C. Mehta, "Performance Analysis of
  Languages on Raspberry Pi",
  https://chaitanyamehta.github.io/projects/performance-analysis-of-programming-languages
* **here** — the same algorithm (:func:`nbody`, 5 bodies, dt 0.01) for
  ``STEPS`` steps, CPU seconds of this process scaled to 5,000,000 steps.
  CPU rather than wall time, so that other users of a shared machine do not
  make it look slower than it is.
* **estimate** — the analysis's CPU seconds here (the worker processes', from
  ``getrusage``) × (Pi seconds / here seconds), spread over the Pi's 4 cores.

What can make it wrong: the page does not say which CPython ran; the Pi OS
of its time shipped 3.7, and CPython 3.11 runs this very program up to 3x
faster than 3.8 (3.8: 96.8 s, 3.11: 32.0 s on an M1 Pro,
https://jott.live/markdown/py3.11_vs_3.8), so a Pi 4 on Raspberry Pi OS 12
(CPython 3.11) should do better than the estimate: it is printed as a range
from a third of it (``CPYTHON_311_GAIN``) to it.  One benchmark stands for
the interpreter's whole speed; the 4 cores are assumed to share the
positions perfectly, as the 2 here nearly do.
"""

from __future__ import annotations

import math
import resource
import time

#: The published Pi 4 figure (see the module docstring): seconds, steps.
PI4_NBODY_SECONDS = 158.26
PI4_NBODY_STEPS = 5_000_000
PI4_CORES = 4
#: The most CPython 3.11 may gain over the Pi figure's interpreter (3.8 -> 3.11
#: on the same n-body program, jott.live, see the module docstring).
CPYTHON_311_GAIN = 3.0
#: Steps measured here: about a second of CPU on an x86 core of 2020.
STEPS = 100_000

SOLAR_MASS = 4 * math.pi * math.pi
DAYS_PER_YEAR = 365.24


def _bodies() -> list[tuple[list[float], list[float], float]]:
    """Sun, Jupiter, Saturn, Uranus, Neptune: the benchmark's initial state."""
    planets = [
        ([4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01],
         [1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05],
         9.54791938424326609e-04),
        ([8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01],
         [-2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05],
         2.85885980666130812e-04),
        ([1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01],
         [2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05],
         4.36624404335156298e-05),
        ([1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01],
         [2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05],
         5.15138902046611451e-05),
    ]
    bodies = [([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], SOLAR_MASS)]
    for pos, vel, mass in planets:
        bodies.append((pos, [v * DAYS_PER_YEAR for v in vel], mass * SOLAR_MASS))
    # Offset the sun's momentum so that the system's is zero.
    px = py = pz = 0.0
    for _, (vx, vy, vz), m in bodies:
        px -= vx * m
        py -= vy * m
        pz -= vz * m
    sun_v = bodies[0][1]
    sun_v[:] = [px / SOLAR_MASS, py / SOLAR_MASS, pz / SOLAR_MASS]
    return bodies


def energy(bodies: list[tuple[list[float], list[float], float]]) -> float:
    e = 0.0
    for i, ((x1, y1, z1), (vx, vy, vz), m1) in enumerate(bodies):
        e += 0.5 * m1 * (vx * vx + vy * vy + vz * vz)
        for (x2, y2, z2), _, m2 in bodies[i + 1:]:
            e -= m1 * m2 / math.sqrt((x1 - x2) ** 2 + (y1 - y2) ** 2 + (z1 - z2) ** 2)
    return e


def nbody(steps: int, dt: float = 0.01) -> float:
    """Advance the benchmark's system ``steps`` times; its energy at the end."""
    bodies = _bodies()
    pairs = [(bodies[i], bodies[j]) for i in range(len(bodies))
             for j in range(i + 1, len(bodies))]
    for _ in range(steps):
        for ([x1, y1, z1], v1, m1), ([x2, y2, z2], v2, m2) in pairs:
            dx, dy, dz = x1 - x2, y1 - y2, z1 - z2
            mag = dt * ((dx * dx + dy * dy + dz * dz) ** -1.5)
            b1, b2 = m1 * mag, m2 * mag
            v1[0] -= dx * b2
            v1[1] -= dy * b2
            v1[2] -= dz * b2
            v2[0] += dx * b1
            v2[1] += dy * b1
            v2[2] += dz * b1
        for r, (vx, vy, vz), _ in bodies:
            r[0] += dt * vx
            r[1] += dt * vy
            r[2] += dt * vz
    return energy(bodies)


def pi4_ratio(steps: int = STEPS) -> float:
    """How many times longer a Pi 4 core takes than a core here (from n-body)."""
    samples = []
    for _ in range(3):  # the fastest of three: the least disturbed by other work
        start = time.process_time()
        nbody(steps)
        samples.append(time.process_time() - start)
    here = min(samples) * PI4_NBODY_STEPS / steps
    return PI4_NBODY_SECONDS / here


def children_cpu() -> float:
    """CPU seconds of this process's finished child processes (pool workers)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def pi4_line(cpu_seconds: float) -> str:
    """The Pi 4 estimate of a job that took ``cpu_seconds`` of CPU here, with its method."""
    ratio = pi4_ratio()
    high = cpu_seconds * ratio / PI4_CORES
    return (f"  Pi 4 estimate: {high / CPYTHON_311_GAIN:.0f}-{high:.0f} s = {cpu_seconds:.1f} CPU s"
            f" here x {ratio:.2f} (a Pi 4 core's time / a core's here, CPython n-body: published"
            f" {PI4_NBODY_SECONDS} s for 5M steps on a Pi 4, {STEPS} steps measured now)"
            f" / {PI4_CORES} cores, / up to {CPYTHON_311_GAIN:g} for CPython 3.11 on the Pi;"
            " method: tests/bench/pi4_estimate.py")
