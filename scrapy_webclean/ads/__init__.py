"""Ad and template image links judged before they are fetched (docs/algorithms.md section 2).

``AdImageModel.observe_page(page_url, html)`` records a page's image links;
``AdImageModel.judge(img_src, page_url)`` returns a :class:`Verdict`. No Scrapy import here:
the downloader middleware in ``scrapy_webclean.integration`` is a thin shell over it.
"""

from scrapy_webclean.ads.filterlist import FilterList, FilterListUnavailable
from scrapy_webclean.ads.keywords import NoiseWordModel
from scrapy_webclean.ads.links import ImageLink, image_links
from scrapy_webclean.ads.model import AdImageModel
from scrapy_webclean.ads.models import AnchorEntropyModel, UrlRedundancyModel
from scrapy_webclean.ads.options import AdModelOptions
from scrapy_webclean.ads.stats import AdStatsStore, MemoryAdStatsStore
from scrapy_webclean.ads.verdict import Verdict

__all__ = [
    "AdImageModel",
    "AdModelOptions",
    "AdStatsStore",
    "AnchorEntropyModel",
    "FilterList",
    "FilterListUnavailable",
    "ImageLink",
    "MemoryAdStatsStore",
    "NoiseWordModel",
    "UrlRedundancyModel",
    "Verdict",
    "image_links",
]
