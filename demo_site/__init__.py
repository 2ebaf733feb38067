"""Offline demo web for scrapy-webclean: news, tech, digest and mirror sites plus ads.

``build_site(port)`` renders every resource and the ground truth in memory;
``DemoServer`` serves them on 127.0.0.2-.7, .10 and .11 (stdlib only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .content import Article, load_articles
from .images import gif_bytes, png_bytes
from .site import AD_HOSTS, CONTENT_HOSTS, Resource, Site, build_site

if TYPE_CHECKING:
    from .server import DemoServer

__all__ = [
    "AD_HOSTS",
    "CONTENT_HOSTS",
    "Article",
    "DemoServer",
    "Resource",
    "Site",
    "build_site",
    "gif_bytes",
    "load_articles",
    "png_bytes",
]


def __getattr__(name: str) -> Any:
    # Imported lazily so ``python -m demo_site.server`` does not import the
    # module twice (runpy warns when the package already imported it).
    if name == "DemoServer":
        from .server import DemoServer

        return DemoServer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
