"""Where what the crawl learns lives: memory, the crawl's JOBDIR (SQLite) or Redis.

:class:`StateBackend` is the one storage interface; :mod:`.stores` builds the three
models' stores on it; :func:`scrapy_webclean.integration.state.CrawlState` picks the
backend from the settings, in one place.
"""

from scrapy_webclean.state.backend import MemoryBackend, StateBackend
from scrapy_webclean.state.resilience import Lenient, Retrying, StateUnavailable
from scrapy_webclean.state.sqlite import SqliteBackend
from scrapy_webclean.state.stores import (
    BackendAdStatsStore,
    BackendDedupStore,
    BackendTemplateStore,
)

__all__ = [
    "BackendAdStatsStore",
    "BackendDedupStore",
    "BackendTemplateStore",
    "Lenient",
    "MemoryBackend",
    "Retrying",
    "SqliteBackend",
    "StateBackend",
    "StateUnavailable",
]
