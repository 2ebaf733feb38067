"""scrapy-webclean: clean the web while it is crawled.

The core (``clean_html``, ``scrapy_webclean.ads.AdImageModel`` and everything under
``html``, ``text``, ``segmentation``, ``extraction`` and ``ads``) imports nothing from
Scrapy. The Scrapy components (``Addon``, ``CleanPipeline``, ``DedupPipeline``,
``AdImageFilter``, ``ImageUrlsFilterPipeline``) and ``page_item`` are loaded lazily on first access, so ``import
scrapy_webclean`` works without Scrapy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy_webclean import threads  # noqa: F401  (first: numpy's pools before numpy)
from scrapy_webclean.cleaning import Cleaner, CleanOptions, clean_html
from scrapy_webclean.errors import CleanError, EmptyDocument, NotHtml, ParseFailure
from scrapy_webclean.result import Block, CleanResult, Image, Link
from scrapy_webclean.segmentation.classify import BlockLabel

__version__ = "0.1.0"

if TYPE_CHECKING:
    from scrapy_webclean.integration.addon import Addon
    from scrapy_webclean.integration.adfilter import AdImageFilter, ImageUrlsFilterPipeline
    from scrapy_webclean.integration.dedup import DedupPipeline
    from scrapy_webclean.integration.page import page_item
    from scrapy_webclean.integration.pipelines import CleanPipeline

_LAZY = {
    "Addon": "scrapy_webclean.integration.addon",
    "CleanPipeline": "scrapy_webclean.integration.pipelines",
    "AdImageFilter": "scrapy_webclean.integration.adfilter",
    "ImageUrlsFilterPipeline": "scrapy_webclean.integration.adfilter",
    "DedupPipeline": "scrapy_webclean.integration.dedup",
    "page_item": "scrapy_webclean.integration.page",
}


def __getattr__(name: str) -> Any:
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'scrapy_webclean' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module_name), name)


__all__ = [
    "AdImageFilter",
    "Addon",
    "Block",
    "BlockLabel",
    "CleanError",
    "CleanOptions",
    "CleanPipeline",
    "CleanResult",
    "Cleaner",
    "DedupPipeline",
    "EmptyDocument",
    "Image",
    "ImageUrlsFilterPipeline",
    "Link",
    "NotHtml",
    "ParseFailure",
    "__version__",
    "clean_html",
    "page_item",
]
