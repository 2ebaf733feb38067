"""Emptying the process's memo caches between timed runs of the extraction benchmark.

Ours and the peers memoize per text or per host (``functools.lru_cache``): a line's noise
verdict and a container's hint (``scrapy_webclean``; a class token's hint words in a plain
dict, :data:`MEMO_DICTS`), a line's printable form and its trimming (trafilatura), a date
expression (htmldate). A row of ``extraction.py`` that runs
after another over the same pages would find those caches full of the very pages it is
timed on, and so would a second pass: on scrapinghub that took about 1 ms off a page's
median (a scratch in-process A/B: 10.2-11.3 ms with the caches emptied, 9.3-10.2 ms right
after cleaning the same pages). :func:`clear_memo_caches` empties them before each row and
each pass, so that every row starts as a crawl of unseen pages would, whatever ran before.
"""

from __future__ import annotations

import functools
import gc
import sys

#: Caches of at most this many entries are left alone: they hold what is loaded or
#: compiled once per process (a model file, compiled options, a suffix list), not what was
#: read on the pages.
LOADER_CACHE_MAX_SIZE = 64
#: The package's memos kept in a plain dict (``module:name``), where a lookup per class
#: token is cheaper than a cached call: a container's class token's hint words
#: (``hintwords._TOKEN_FLAGS``; cold, they cost 0.17 ms a page, median on WCXB dev).
MEMO_DICTS = ("scrapy_webclean.extraction.hintwords:_TOKEN_FLAGS",)


def clear_memo_caches() -> int:
    """Empty every bounded ``functools.lru_cache`` of the process larger than
    :data:`LOADER_CACHE_MAX_SIZE` entries and the package's :data:`MEMO_DICTS` (of the
    modules loaded); returns how many were emptied."""
    emptied = 0
    for obj in gc.get_objects():
        if isinstance(obj, functools._lru_cache_wrapper):
            size = obj.cache_parameters()["maxsize"]
            if size is not None and size > LOADER_CACHE_MAX_SIZE:
                obj.cache_clear()
                emptied += 1
    for target in MEMO_DICTS:
        module_name, _, name = target.partition(":")
        module = sys.modules.get(module_name)
        if module is not None:
            getattr(module, name).clear()
            emptied += 1
    return emptied
