"""The add-on installs the components at documented orders; project settings win."""

from __future__ import annotations

from scrapy.utils.conf import build_component_list
from scrapy.utils.misc import load_object
from scrapy.utils.test import get_crawler

from scrapy_webclean import (
    Addon,
    AdImageFilter,
    CleanPipeline,
    DedupPipeline,
    ImageUrlsFilterPipeline,
)
from scrapy_webclean.html.loader import Limits
from scrapy_webclean.integration.addon import DOWNLOAD_MAXSIZE_FACTOR
from scrapy_webclean.integration.setting_table import (
    AD_FILTER_ORDER,
    CLEAN_PIPELINE_ORDER,
    DEDUP_PIPELINE_ORDER,
    IMAGE_URLS_FILTER_ORDER,
)

ADDONS = {"ADDONS": {"scrapy_webclean.Addon": 100}}


class Store:
    """Stands for a project's own storage pipeline."""

    def process_item(self, item: object) -> object:
        return item


def pipelines(settings: dict) -> list[type]:
    crawler = get_crawler(settings_dict=settings)
    return [
        load_object(p) for p in build_component_list(crawler.settings.getwithbase("ITEM_PIPELINES"))
    ]


def test_addon_is_importable_from_the_top_level() -> None:
    assert Addon.__module__ == "scrapy_webclean.integration.addon"


def test_addon_installs_clean_pipeline_and_utf8_feeds() -> None:
    crawler = get_crawler(settings_dict=ADDONS)
    assert crawler.settings.getdict("ITEM_PIPELINES") == {
        CleanPipeline: CLEAN_PIPELINE_ORDER,
        DedupPipeline: DEDUP_PIPELINE_ORDER,
        ImageUrlsFilterPipeline: IMAGE_URLS_FILTER_ORDER,
    }
    assert crawler.settings.getdict("DOWNLOADER_MIDDLEWARES") == {AdImageFilter: AD_FILTER_ORDER}
    assert crawler.settings["FEED_EXPORT_ENCODING"] == "utf-8"


def test_clean_pipeline_runs_after_the_images_pipeline() -> None:
    got = pipelines(
        ADDONS
        | {
            "ITEM_PIPELINES": {
                "scrapy.pipelines.images.ImagesPipeline": 1,
                "tests.test_addon.Store": 800,
            }
        }
    )
    names = [getattr(p, "__name__", str(p)) for p in got]
    assert names == [
        "ImageUrlsFilterPipeline",
        "ImagesPipeline",
        "CleanPipeline",
        "DedupPipeline",
        "Store",
    ]


def test_project_order_wins() -> None:
    crawler = get_crawler(
        settings_dict=ADDONS | {"ITEM_PIPELINES": {"scrapy_webclean.CleanPipeline": 900}}
    )
    assert crawler.settings.getdict("ITEM_PIPELINES") == {
        "scrapy_webclean.CleanPipeline": 900,
        DedupPipeline: DEDUP_PIPELINE_ORDER,
        ImageUrlsFilterPipeline: IMAGE_URLS_FILTER_ORDER,
    }


def test_project_can_disable_the_pipelines() -> None:
    assert (
        pipelines(
            ADDONS
            | {
                "ITEM_PIPELINES": {
                    "scrapy_webclean.CleanPipeline": None,
                    "scrapy_webclean.DedupPipeline": None,
                    "scrapy_webclean.ImageUrlsFilterPipeline": None,
                }
            }
        )
        == []
    )


def test_project_feed_encoding_wins() -> None:
    crawler = get_crawler(settings_dict=ADDONS | {"FEED_EXPORT_ENCODING": "latin-1"})
    assert crawler.settings["FEED_EXPORT_ENCODING"] == "latin-1"


def test_manual_route_without_the_addon() -> None:
    got = pipelines({"ITEM_PIPELINES": {"scrapy_webclean.CleanPipeline": 300}})
    assert got == [CleanPipeline]


def test_addon_aligns_scrapys_download_sizes_with_the_largest_page_cleaned() -> None:
    cap = Limits().max_bytes
    settings = get_crawler(settings_dict=ADDONS).settings
    assert settings.getint("DOWNLOAD_WARNSIZE") == cap
    assert settings.getint("DOWNLOAD_MAXSIZE") == DOWNLOAD_MAXSIZE_FACTOR * cap
    settings = get_crawler(settings_dict=ADDONS | {"WEBCLEAN_MAX_HTML_BYTES": 1000}).settings
    assert (settings.getint("DOWNLOAD_WARNSIZE"), settings.getint("DOWNLOAD_MAXSIZE")) == (
        1000,
        1000 * DOWNLOAD_MAXSIZE_FACTOR,
    )


def test_project_download_sizes_win_and_cleaning_off_changes_none() -> None:
    settings = get_crawler(settings_dict=ADDONS | {"DOWNLOAD_MAXSIZE": 2**32}).settings
    assert settings.getint("DOWNLOAD_MAXSIZE") == 2**32  # (files bigger than any page)
    assert settings.getint("DOWNLOAD_WARNSIZE") == Limits().max_bytes
    scrapy_defaults = get_crawler().settings
    settings = get_crawler(settings_dict=ADDONS | {"WEBCLEAN_ENABLED": False}).settings
    for name in ("DOWNLOAD_MAXSIZE", "DOWNLOAD_WARNSIZE"):
        assert settings.getint(name) == scrapy_defaults.getint(name)
