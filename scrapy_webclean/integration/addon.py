"""The Scrapy add-on: ``ADDONS = {"scrapy_webclean.Addon": 100}`` turns cleaning on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy_webclean.integration.pipelines import CleanPipeline
from scrapy_webclean.integration.settings import CLEAN_PIPELINE_ORDER

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings


class Addon:
    """Installs the webclean components at their documented order numbers.

    - ``CleanPipeline`` in ``ITEM_PIPELINES`` at 200 (unless the project already lists it,
      at any order or as ``None`` to disable it);
    - ``FEED_EXPORT_ENCODING = "utf-8"`` at add-on priority, so Chinese is written as is,
      not as ``\\uXXXX``; a value set in the project's settings wins.
    """

    def update_settings(self, settings: BaseSettings) -> None:
        settings.setdefault_in_component_priority_dict(
            "ITEM_PIPELINES", CleanPipeline, CLEAN_PIPELINE_ORDER
        )
        settings.set("FEED_EXPORT_ENCODING", "utf-8", "addon")
