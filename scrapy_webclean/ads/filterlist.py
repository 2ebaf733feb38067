"""An optional real filter list (EasyList and the like) through Brave's ``adblock`` engine.

Install the extra (``pip install 'scrapy-webclean[adblock]'``) and give a path or URL in
``WEBCLEAN_ADS_FILTER_LIST``; a list fetched from a URL is cached on disk. Two kinds of
rules count: network rules (the image URL is blocked when requested from the page) and
element-hiding rules (the image or one of its containers is hidden on the page).
"""

from __future__ import annotations

import hashlib
import logging
import time
import urllib.request
from pathlib import Path
from typing import Any

from lxml import etree

from scrapy_webclean.redact import redact_text, redact_url

logger = logging.getLogger(__name__)

#: A cached list older than this is fetched again (seconds).
MAX_CACHE_AGE = 4 * 24 * 3600


class FilterListUnavailable(RuntimeError):
    """The ``adblock`` package is missing or the list cannot be read."""


class FilterList:
    """A compiled filter list: network checks and element hiding."""

    def __init__(self, rules: str) -> None:
        try:
            import adblock
        except ImportError as exc:  # pragma: no cover - depends on the extra
            raise FilterListUnavailable(
                "a filter list needs the adblock package: pip install 'scrapy-webclean[adblock]'"
            ) from exc
        filters = adblock.FilterSet()
        filters.add_filter_list(rules)
        self._engine: Any = adblock.Engine(filters, optimize=True)
        self.rules = rules.count("\n") + 1

    @classmethod
    def load(cls, source: str, cache_dir: Path | None = None) -> FilterList:
        """Read a list from a file path or an http(s) URL (cached under ``cache_dir``)."""
        if source.startswith(("http://", "https://")):
            return cls(_fetch_cached(source, cache_dir or Path(".webclean-cache")))
        try:
            return cls(Path(source).read_text(encoding="utf-8", errors="replace"))
        except OSError as exc:
            raise FilterListUnavailable(
                f"cannot read filter list {redact_url(source)}: {redact_text(str(exc))}"
            ) from exc

    def blocks(self, url: str, page_url: str | None) -> bool:
        """True when a network rule blocks image ``url`` requested from ``page_url``."""
        result = self._engine.check_network_urls(url, page_url or url, "image")
        return bool(result.matched) and not bool(getattr(result, "exception", None))

    def hidden_elements(self, root: etree._Element, page_url: str) -> set[etree._Element]:
        """The elements of a page that the list's element-hiding rules hide."""
        resources = self._engine.url_cosmetic_resources(page_url)
        classes: set[str] = set()
        ids: set[str] = set()
        for element in root.iter():
            if not isinstance(element.tag, str):
                continue
            classes.update((element.get("class") or "").split())
            element_id = element.get("id")
            if element_id:
                ids.add(element_id)
        selectors = set(resources.hide_selectors)
        if not resources.generichide:
            selectors.update(
                self._engine.hidden_class_id_selectors(
                    sorted(classes), sorted(ids), resources.exceptions
                )
            )
        hidden: set[etree._Element] = set()
        for selector in selectors:
            try:
                hidden.update(root.cssselect(selector))
            except Exception:
                continue
        return hidden


def _fetch_cached(url: str, cache_dir: Path) -> str:
    cache_dir.mkdir(parents=True, exist_ok=True)
    path = cache_dir / f"filterlist-{hashlib.sha1(url.encode()).hexdigest()[:16]}.txt"
    if path.exists() and time.time() - path.stat().st_mtime < MAX_CACHE_AGE:
        return path.read_text(encoding="utf-8", errors="replace")
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            text: str = response.read().decode("utf-8", errors="replace")
    except OSError as exc:
        if path.exists():
            logger.warning(
                "webclean: cannot refresh filter list %s (%s); using the cache",
                redact_url(url),
                redact_text(str(exc)),
            )
            return path.read_text(encoding="utf-8", errors="replace")
        raise FilterListUnavailable(
            f"cannot fetch filter list {redact_url(url)}: {redact_text(str(exc))}"
        ) from exc
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return text
