"""The Scrapy add-on: ``ADDONS = {"scrapy_webclean.Addon": 100}`` turns cleaning on."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.settings import SETTINGS_PRIORITIES

from scrapy_webclean.integration.accounting import DropLogFormatter, ItemAccounting
from scrapy_webclean.integration.adfilter import AdImageFilter, ImageUrlsFilterPipeline
from scrapy_webclean.integration.dedup import DedupPipeline
from scrapy_webclean.integration.linkgraph import LinkGraphWriter
from scrapy_webclean.integration.pipelines import CleanPipeline
from scrapy_webclean.integration.priority import ContentFirstPriority
from scrapy_webclean.integration.setting_table import (
    AD_FILTER_ORDER,
    CLEAN_PIPELINE_ORDER,
    DEDUP_PIPELINE_ORDER,
    IMAGE_URLS_FILTER_ORDER,
    LINK_GRAPH_ORDER,
    PRIORITY_MIDDLEWARE_ORDER,
    SETTINGS,
)
from scrapy_webclean.integration.settings import check_settings, unknown_settings
from scrapy_webclean.integration.state import CrawlState
from scrapy_webclean.redact import redact_value

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

_ADDON_PRIORITY = SETTINGS_PRIORITIES["addon"]
#: ``DOWNLOAD_MAXSIZE`` is this many times ``WEBCLEAN_MAX_HTML_BYTES``: a page somewhat
#: over the limit still arrives and is passed on as ``too_large`` (the item says why it has
#: no text); a bigger body, or a compressed one that inflates past it, is not downloaded.
DOWNLOAD_MAXSIZE_FACTOR = 2
#: Scrapy's own log formatter: the add-on replaces it only when the project kept it.
_SCRAPY_LOG_FORMATTER = "scrapy.logformatter.LogFormatter"


class Addon:
    """Checks the ``WEBCLEAN_*`` settings and installs the webclean components.

    - every ``WEBCLEAN_*`` value is checked before the crawl starts: a bad one raises
      :class:`~scrapy_webclean.integration.settings.SettingError` naming the setting, the
      value and what is allowed (the crawl stops, exit code 1); an unknown ``WEBCLEAN_*``
      name is logged as a warning with the nearest known name;
    - the ``WEBCLEAN_*`` defaults are registered at add-on priority, so every component,
      and any other add-on or extension, reads them from the crawl's settings; the values the
      project changed are logged in one line (``scrapy settings --get`` cannot show the
      defaults: that command does not load add-ons);
    - ``CleanPipeline`` in ``ITEM_PIPELINES`` at 200 (unless the project already lists it,
      at any order or as ``None`` to disable it);
    - ``DedupPipeline`` in ``ITEM_PIPELINES`` at 300 (after cleaning);
    - ``AdImageFilter`` in ``DOWNLOADER_MIDDLEWARES`` at 560 and
      ``ImageUrlsFilterPipeline`` in ``ITEM_PIPELINES`` at 0 (before the media pipelines),
      on the same terms;
    - ``ContentFirstPriority`` in ``SPIDER_MIDDLEWARES`` at 700, on the same terms; it does
      nothing (``NotConfigured``) unless ``WEBCLEAN_PRIORITY_ENABLED`` is on;
    - ``LinkGraphWriter`` in ``ITEM_PIPELINES`` at 250 (after cleaning, before dedup), on
      the same terms, when ``WEBCLEAN_LINK_GRAPH`` names a file;
    - ``CrawlState`` (the learned state the components share) and ``ItemAccounting``
      (counts where every item went, writes the rejects feed) in ``EXTENSIONS``;
    - ``LOG_FORMATTER``: :class:`~scrapy_webclean.integration.accounting.DropLogFormatter`
      when the project kept Scrapy's own (a webclean drop is one line, never the item);
    - ``FEED_EXPORT_ENCODING = "utf-8"`` at add-on priority, so Chinese is written as is,
      not as ``\\uXXXX``; a value set in the project's settings wins;
    - with cleaning on, Scrapy's ``DOWNLOAD_WARNSIZE`` = ``WEBCLEAN_MAX_HTML_BYTES`` and
      ``DOWNLOAD_MAXSIZE`` = :data:`DOWNLOAD_MAXSIZE_FACTOR` times it, unless the project
      (or another add-on) set them: Scrapy's 1 GiB default would let a body, or a small
      gzip that inflates, grow far past what is ever cleaned. (Scrapy applies them to every
      download, files too; a request's ``download_maxsize`` meta key still wins.)
    """

    def __repr__(self) -> str:
        return "scrapy_webclean.Addon"

    def update_settings(self, settings: BaseSettings) -> None:
        values = check_settings(settings)
        for warning in unknown_settings(settings):
            logger.warning("webclean: %s", warning)
        for setting in SETTINGS:
            settings.set(setting.name, setting.default, "addon")
        changed = {n: v for n, v in values.items() if settings.getpriority(n) != _ADDON_PRIORITY}
        logger.info(
            "webclean settings (the rest at their defaults, see the settings reference): %s",
            ", ".join(f"{name}={redact_value(value)!r}" for name, value in sorted(changed.items()))
            or "none",
        )
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
        settings.setdefault_in_component_priority_dict(
            "SPIDER_MIDDLEWARES", ContentFirstPriority, PRIORITY_MIDDLEWARE_ORDER
        )
        if settings.get("WEBCLEAN_LINK_GRAPH"):
            settings.setdefault_in_component_priority_dict(
                "ITEM_PIPELINES", LinkGraphWriter, LINK_GRAPH_ORDER
            )
        settings.setdefault_in_component_priority_dict("EXTENSIONS", CrawlState, 0)
        settings.setdefault_in_component_priority_dict("EXTENSIONS", ItemAccounting, 0)
        if settings.get("LOG_FORMATTER") == _SCRAPY_LOG_FORMATTER:
            settings.set("LOG_FORMATTER", DropLogFormatter, "addon")
        settings.set("FEED_EXPORT_ENCODING", "utf-8", "addon")
        if values["WEBCLEAN_ENABLED"]:
            _align_download_sizes(settings, values["WEBCLEAN_MAX_HTML_BYTES"])


def _align_download_sizes(settings: BaseSettings, max_html_bytes: int) -> None:
    """Set ``DOWNLOAD_WARNSIZE`` and ``DOWNLOAD_MAXSIZE`` from the largest page cleaned,
    each only when nobody set it (it is still at Scrapy's default priority)."""
    sizes = {
        "DOWNLOAD_WARNSIZE": max_html_bytes,
        "DOWNLOAD_MAXSIZE": DOWNLOAD_MAXSIZE_FACTOR * max_html_bytes,
    }
    for name, size in sizes.items():
        if (settings.getpriority(name) or 0) <= SETTINGS_PRIORITIES["default"]:
            settings.set(name, size, "addon")
