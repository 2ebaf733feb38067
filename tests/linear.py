"""Linear-time checks that assert no timing: the growth of a path's cost, in one process.

A test of "fast enough" fails on a busy machine and passes a quadratic path on a fast one.
What these helpers assert is the *shape*: the CPU time at ``factor * n`` over the time at
``n``, each the least of a few runs. A linear path gives about ``factor`` (8 by default), an
``n log n`` one a little more, a quadratic one ``factor ** 2`` (64). The bound sits far
from both ends, so load from other processes (which slows both sizes alike) does not move
the verdict. The cyclic garbage collector is paused while a size is timed (a full
collection of a long test session's heap, landing in one run, is no cost of the path), and
a ratio over the bound is measured once more before the check fails: noise does not repeat,
a quadratic path does.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: The growth ratio above which a path is not linear (8x the input: linear ~8, quadratic 64).
MAX_GROWTH = 24.0
#: The least CPU time the smaller input must take, so timer resolution is no part of the ratio.
MIN_SECONDS = 0.01
#: The smaller input is doubled at most this many times to reach ``MIN_SECONDS``.
MAX_DOUBLINGS = 12


def _least_time(func: Callable[[T], object], value: T, repeats: int) -> float:
    best = float("inf")
    enabled = gc.isenabled()
    gc.disable()  # (no collect first: in a long session's heap each would take long)
    try:
        for _ in range(repeats):
            started = time.process_time()
            func(value)
            best = min(best, time.process_time() - started)
    finally:
        if enabled:
            gc.enable()
    return best


def growth_ratio(
    func: Callable[[T], object],
    make_input: Callable[[int], T],
    n: int,
    factor: int = 8,
    repeats: int = 3,
) -> tuple[float, int]:
    """``(time at factor*n / time at n, n)``: CPU seconds, each the least of ``repeats``
    runs. ``n`` is doubled (at most ``MAX_DOUBLINGS`` times) until the smaller input takes at
    least ``MIN_SECONDS``; the ``n`` returned is the one measured."""
    small = make_input(n)
    base = _least_time(func, small, repeats)
    doublings = 0
    while base < MIN_SECONDS and doublings < MAX_DOUBLINGS:
        n *= 2
        doublings += 1
        small = make_input(n)
        base = _least_time(func, small, repeats)
    large = make_input(n * factor)
    return _least_time(func, large, repeats) / max(base, 1e-9), n


def assert_linear(
    func: Callable[[T], object],
    make_input: Callable[[int], T],
    n: int,
    what: str,
    factor: int = 8,
    limit: float = MAX_GROWTH,
) -> None:
    """Fail when ``func``'s CPU time grows faster than linearly in ``make_input``'s size
    (see :func:`growth_ratio`); ``what`` names the input class in the message."""
    ratio, measured = growth_ratio(func, make_input, n, factor)
    if ratio >= limit:  # (once more: a burst of load does not come back, a square does)
        ratio, measured = growth_ratio(func, make_input, measured, factor)
    assert ratio < limit, (
        f"{what}: {factor}x the input took {ratio:.1f}x the time (n={measured}); "
        f"linear is about {factor}, quadratic {factor * factor}"
    )
