"""``LinkGraphWriter``: the crawl writes its link graph as it goes, for QuarkRank.

An item pipeline after ``CleanPipeline``: for each cleaned item, one line per link of its
``links`` field, ``source<TAB>target<TAB>label<TAB>anchor text`` (the label of the block the
link sits in; the anchor text with its whitespace collapsed),
into the gzipped file ``WEBCLEAN_LINK_GRAPH`` names (appended to, so a resumed crawl goes
on with it); a page without links gets a line of its own (``source<TAB><TAB>page``), so
that it is a page of the graph. ``scrapy webclean rank links.tsv.gz`` reads it
(``scrapy_webclean.rank.graph``). It runs before ``DedupPipeline``: a page dropped as a
copy still links where it links. It writes the groups ``WEBCLEAN_OUTPUT_GROUPS`` keeps.
"""

from __future__ import annotations

import gzip
from typing import IO, TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured

from scrapy_webclean.integration.settings import check_settings, get_setting

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

#: The label of the line that makes a page without links a page of the graph.
PAGE_LINE = "page"


class LinkGraphWriter:
    """Item pipeline: writes each cleaned item's links as edges (see the module)."""

    def __init__(self, crawler: Crawler) -> None:
        check_settings(crawler.settings)
        path = get_setting(crawler.settings, "WEBCLEAN_LINK_GRAPH")
        if not path or not get_setting(crawler.settings, "WEBCLEAN_ENABLED"):
            raise NotConfigured
        self.path: str = path
        fields = get_setting(crawler.settings, "WEBCLEAN_OUTPUT_FIELDS")
        self.links_field: str | None = fields.get("links")
        self.url_field: str = get_setting(crawler.settings, "WEBCLEAN_URL_FIELD")
        assert crawler.stats is not None
        self.stats = crawler.stats
        self._file: IO[str] | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> LinkGraphWriter:
        return cls(crawler)

    def open_spider(self, spider: Any = None) -> None:
        # (open for the crawl's lifetime, closed in close_spider)
        self._file = gzip.open(self.path, "at", encoding="utf-8")  # noqa: SIM115

    def close_spider(self, spider: Any = None) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        url = adapter.get(self.url_field)
        links = adapter.get(self.links_field) if self.links_field else None
        if self._file is None or not isinstance(url, str) or not isinstance(links, dict):
            return item
        source = _clean(url)
        lines = [
            f"{source}\t{_clean(link['url'])}\t{label}\t{_anchor(link.get('text'))}\n"
            for label, group in links.items()
            for link in group or ()
            if isinstance(link, dict) and isinstance(link.get("url"), str)
        ]
        self._file.writelines(lines or [f"{source}\t\t{PAGE_LINE}\n"])
        self.stats.inc_value("webclean/link_graph/pages")
        self.stats.inc_value("webclean/link_graph/edges", len(lines))
        return item


def _anchor(text: Any) -> str:
    """A link's anchor text as the last field of a line: its whitespace one space each."""
    return " ".join(text.split()) if isinstance(text, str) else ""


def _clean(url: str) -> str:
    """A URL as one field of a line: no tab, no line break."""
    return url.replace("\t", "%09").replace("\n", "%0A").replace("\r", "%0D")
