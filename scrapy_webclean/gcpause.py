"""The cyclic garbage collector kept out of the way: paused while a page is cleaned
(:func:`gc_paused`; in a crawl, until the page's item is made:
``integration.workers.clean_page``), and kept off what a crawl loads once
(:func:`freeze_start_up`).

Cleaning a page makes tens of thousands of short-lived containers (the page model's
lists, the lines, their features), nearly all freed by reference counting when the page
is done. The cyclic collector, woken by those allocations, walks them again and again
for nothing: about 0.4-0.6 ms a page of 6 ms (median, dragnet-gold), a tenth of the
cleaning. Paused while a page is cleaned, it collects any cycle left behind on its next
run. The pause is process-wide, so it is only ever lifted by the call that made it: with
several threads cleaning at once, the collector runs again once the last of those that
found it running is done, and a collector the program turned off stays off.

What a crawl loads when it starts lives as long as the crawl: modules, the cleaner's
models, the word lists. Every full collection walks it again; moved out of the collector's
reach once the crawl has started, it is never walked (in one demo crawl each way, the full
collections of the crawl's process took 1.2 s instead of 2.5 s, the longest 95 ms instead
of 166 ms: timed with ``gc.callbacks`` added for the purpose, which ``benchmarks/crawl.py``
does not print). Reference counting still
frees those objects; only a cycle among them that became garbage later would stay.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block, if it runs; restart it after."""
    running = gc.isenabled()
    if running:
        gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


def freeze_start_up() -> int:
    """Move every object alive now out of the cyclic collector's reach (``gc.freeze``), so
    that full collections no longer walk them; return how many objects that holds."""
    gc.freeze()
    return gc.get_freeze_count()
