"""Build the whole offline demo web: four news/tech sites, a digest, a mirror, ads.

``build_site(port)`` is pure and deterministic: the same article files and
port always give byte-identical resources and truth, so tests can compare a
crawl against the truth without any network access.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._core import (
    AD_HOSTS,
    ALL_HOSTS,
    CONTENT_HOSTS,
    HOST_ADS,
    HOST_CDN,
    Builder,
    Resource,
)
from ._digest import COPY_KINDS, Digest
from ._news import Courier, Jiangcheng
from ._tech import ByteHarbor, ByteHarborMirror, Shuma
from .content import Article, load_articles

__all__ = [
    "AD_HOSTS",
    "ALL_HOSTS",
    "CONTENT_HOSTS",
    "COPY_KINDS",
    "HOST_ADS",
    "HOST_CDN",
    "Resource",
    "Site",
    "build_site",
]


@dataclass
class Site:
    """Every resource of the demo web on one port, plus the ground truth."""

    port: int
    resources: dict[str, Resource]
    truth: dict[str, Any]

    @property
    def home_urls(self) -> list[str]:
        """Home pages of the content sites (mirror and digest included)."""
        return [
            self.truth["sites"][host]["home"]
            for host in CONTENT_HOSTS
            if host in self.truth["sites"]
        ]

    def get(self, url: str) -> Resource | None:
        """The resource for an absolute URL, or ``None``."""
        return self.resources.get(url)

    def truth_json(self, indent: int | None = 2) -> str:
        """The truth as JSON text (UTF-8 friendly, not ASCII-escaped)."""
        return json.dumps(self.truth, ensure_ascii=False, indent=indent)

    def write_truth(self, path: str | Path) -> None:
        """Write the truth as UTF-8 JSON."""
        Path(path).write_text(self.truth_json() + "\n", encoding="utf-8")


def build_site(
    port: int,
    *,
    content_dir: str | Path | None = None,
    articles: list[Article] | None = None,
) -> Site:
    """Render every page and image of the demo web for *port*.

    Articles come from *articles* if given, else from *content_dir* (default:
    the package's ``content/`` folder); whatever files exist are used.
    """
    if not 0 < port < 65536:
        raise ValueError(f"bad port {port}")
    if articles is None:
        articles = load_articles(content_dir)

    def pick(lang: str, first: bool) -> list[Article]:
        return [a for a in articles if a.lang == lang and (a.number <= 16) == first]

    builder = Builder(port)
    courier = Courier(builder, pick("en", True))
    byte_harbor = ByteHarbor(builder, pick("en", False))
    jiangcheng = Jiangcheng(builder, pick("zh", True))
    shuma = Shuma(builder, pick("zh", False))
    originals = [courier, byte_harbor, jiangcheng, shuma]
    for site in originals:
        site.build()
    Digest(builder, originals).build()
    ByteHarborMirror(builder, byte_harbor).build()
    truth = builder.finish()
    return Site(port=port, resources=builder.resources, truth=truth)
