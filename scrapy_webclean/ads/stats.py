"""Where the ad-link models keep what they learn: per-site counters behind one interface.

The statistics of NRelm2 (on how many pages of a site each image URL occurs) and NRelm3
(the site's word-by-link matrix) are plain counters, so one small interface serves both,
and a disk or Redis store can replace the in-memory one without touching the models.
Memory is bounded: at most ``max_sites`` sites (least recently used dropped first) and
``max_keys`` keys per counter family and site (the smallest counts pruned first).

A store is shared by threads: the ad filter learns from pages in its reading thread while
the crawl judges images on the reactor (the disk and Redis stores lock their backends).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Protocol


class AdStatsStore(Protocol):
    """Per-site counters, grouped in families (``"url"``, ``"word_tf"`` ...)."""

    def get(self, site: str, family: str, keys: Sequence[str]) -> list[float]:
        """The counters' values (0 for unknown keys)."""
        ...

    def add(self, site: str, family: str, deltas: Iterable[tuple[str, float]]) -> None:
        """Add each delta to its counter."""
        ...

    def size(self, site: str, family: str) -> int:
        """How many counters the family holds for ``site``."""
        ...

    def fetch(
        self, site: str, gets: Sequence[tuple[str, Sequence[str]]], sizes: Sequence[str] = ()
    ) -> tuple[list[list[float]], list[int]]:
        """:meth:`get` for each ``(family, keys)`` and :meth:`size` for each family, at
        once (one round trip for a remote store)."""
        ...

    def add_many(
        self, site: str, updates: Sequence[tuple[str, Iterable[tuple[str, float]]]]
    ) -> None:
        """:meth:`add` for each ``(family, deltas)``, at once."""
        ...


class MemoryAdStatsStore:
    """In-process :class:`AdStatsStore`, bounded in sites and in keys per family. Each
    call holds the store's lock: a count is never lost to two threads adding at once, nor
    a site dropped under a reader."""

    def __init__(self, max_sites: int = 1024, max_keys: int = 50_000) -> None:
        self.max_sites = max_sites
        self.max_keys = max_keys
        self._sites: OrderedDict[str, dict[str, dict[str, float]]] = OrderedDict()
        self._lock = threading.RLock()

    def __len__(self) -> int:
        return len(self._sites)

    def _families(self, site: str, create: bool) -> dict[str, dict[str, float]] | None:
        families = self._sites.get(site)
        if families is None:
            if not create:
                return None
            families = self._sites[site] = {}
            while len(self._sites) > self.max_sites:
                self._sites.popitem(last=False)
        else:
            self._sites.move_to_end(site)
        return families

    def get(self, site: str, family: str, keys: Sequence[str]) -> list[float]:
        with self._lock:
            families = self._sites.get(site)
            counters = families.get(family) if families is not None else None
            if not counters:
                return [0.0] * len(keys)
            get = counters.get
            return [get(key, 0.0) for key in keys]

    def add(self, site: str, family: str, deltas: Iterable[tuple[str, float]]) -> None:
        with self._lock:
            families = self._families(site, create=True)
            assert families is not None
            counters = families.setdefault(family, {})
            for key, delta in deltas:
                counters[key] = counters.get(key, 0.0) + delta
            if len(counters) > self.max_keys:
                # Keep the larger half: the frequent keys are the ones that decide.
                kept = sorted(counters.items(), key=lambda kv: kv[1], reverse=True)
                families[family] = dict(kept[: self.max_keys // 2])

    def size(self, site: str, family: str) -> int:
        with self._lock:
            families = self._sites.get(site)
            counters = families.get(family) if families is not None else None
            return len(counters) if counters else 0

    def fetch(
        self, site: str, gets: Sequence[tuple[str, Sequence[str]]], sizes: Sequence[str] = ()
    ) -> tuple[list[list[float]], list[int]]:
        with self._lock:  # (one view of the site, not one half-way through a page)
            return (
                [self.get(site, family, keys) for family, keys in gets],
                [self.size(site, family) for family in sizes],
            )

    def add_many(
        self, site: str, updates: Sequence[tuple[str, Iterable[tuple[str, float]]]]
    ) -> None:
        with self._lock:
            for family, deltas in updates:
                self.add(site, family, deltas)
