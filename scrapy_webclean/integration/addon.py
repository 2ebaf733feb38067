"""The Scrapy add-on: ``ADDONS = {"scrapy_webclean.Addon": 100}`` turns cleaning on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy_webclean.integration.accounting import ItemAccounting
from scrapy_webclean.integration.adfilter import AdImageFilter, ImageUrlsFilterPipeline
from scrapy_webclean.integration.dedup import DedupPipeline
from scrapy_webclean.integration.pipelines import CleanPipeline
from scrapy_webclean.integration.settings import (
    AD_FILTER_ORDER,
    CLEAN_PIPELINE_ORDER,
    DEDUP_PIPELINE_ORDER,
    IMAGE_URLS_FILTER_ORDER,
)

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings


class Addon:
    """Installs the webclean components at their documented order numbers.

    - ``CleanPipeline`` in ``ITEM_PIPELINES`` at 200 (unless the project already lists it,
      at any order or as ``None`` to disable it);
    - ``DedupPipeline`` in ``ITEM_PIPELINES`` at 300 (after cleaning);
    - ``AdImageFilter`` in ``DOWNLOADER_MIDDLEWARES`` at 560 and
      ``ImageUrlsFilterPipeline`` in ``ITEM_PIPELINES`` at 0 (before the media pipelines),
      on the same terms;
    - ``ItemAccounting`` in ``EXTENSIONS`` (counts every drop, writes the rejects feed);
    - ``FEED_EXPORT_ENCODING = "utf-8"`` at add-on priority, so Chinese is written as is,
      not as ``\\uXXXX``; a value set in the project's settings wins.
    """

    def update_settings(self, settings: BaseSettings) -> None:
        settings.setdefault_in_component_priority_dict(
            "ITEM_PIPELINES", CleanPipeline, CLEAN_PIPELINE_ORDER
        )
        settings.setdefault_in_component_priority_dict(
            "ITEM_PIPELINES", DedupPipeline, DEDUP_PIPELINE_ORDER
        )
        settings.setdefault_in_component_priority_dict(
            "ITEM_PIPELINES", ImageUrlsFilterPipeline, IMAGE_URLS_FILTER_ORDER
        )
        settings.setdefault_in_component_priority_dict(
            "DOWNLOADER_MIDDLEWARES", AdImageFilter, AD_FILTER_ORDER
        )
        settings.setdefault_in_component_priority_dict("EXTENSIONS", ItemAccounting, 0)
        settings.set("FEED_EXPORT_ENCODING", "utf-8", "addon")
