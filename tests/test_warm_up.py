"""What a crawl loads before its first request: jieba's dictionary in the crawl's process
(the ad filter cuts the Chinese text of image links), and, when pages are cleaned in that
process, the cleaner's models. Loaded on the first page instead, they block Scrapy's event
loop for a second or more. Once the engine has started, what was loaded is kept out of the
collector's full walks (``WEBCLEAN_GC_FREEZE``).

Each check runs in a fresh interpreter: in this one, other tests have loaded them already.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_PRELUDE = """
import jieba
from scrapy import signals
from scrapy_webclean.extraction.linemodel import default_line_model
from scrapy_webclean.integration.adfilter import AdImageFilter
from scrapy_webclean.integration.pipelines import CleanPipeline
from tests.crawlers import crawler_with_engine

def loaded():
    return jieba.dt.initialized, default_line_model.cache_info().currsize > 0

crawler = crawler_with_engine({"ADDONS": {"scrapy_webclean.Addon": 100}, **SETTINGS})
"""


def _run(settings: dict[str, object], body: str) -> str:
    script = f"SETTINGS = {settings!r}\n" + _PRELUDE + body
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip()


def test_the_ad_filter_loads_the_chinese_segmenter_when_the_spider_opens() -> None:
    body = """
assert crawler.get_downloader_middleware(AdImageFilter) is not None
print(loaded()[0])
crawler.signals.send_catch_log(signals.spider_opened, spider=crawler.spider)
print(loaded()[0])
"""
    # (the pipeline's own warm-up is in worker processes here, never started)
    assert _run({"ITEM_PIPELINES": {}}, body).split() == ["False", "True"]


def test_an_inline_clean_pipeline_loads_its_models_when_the_spider_opens() -> None:
    body = """
pipeline = crawler.get_item_pipeline(CleanPipeline)
before = loaded()
pipeline.open_spider(crawler.spider)
print(before, loaded())
"""
    out = _run({"WEBCLEAN_WORKERS": 0, "WEBCLEAN_ADS_ENABLED": False}, body)
    # (Reading the settings may load the line model; the segmenter waits for the page.)
    before, after = out.split(") (")
    assert before.startswith("(False,"), out
    assert after == "True, True)", out


def test_the_dedup_pipeline_loads_the_chinese_segmenter_when_the_spider_opens() -> None:
    body = """
from scrapy_webclean.integration.dedup import DedupPipeline

pipeline = crawler.get_item_pipeline(DedupPipeline)
print(loaded()[0])
pipeline.open_spider(crawler.spider)
print(loaded()[0])
"""
    out = _run({"WEBCLEAN_ADS_ENABLED": False}, body)
    assert out.split() == ["False", "True"], out


def test_what_the_start_up_loaded_is_frozen_once_the_engine_starts() -> None:
    body = """
import gc
print(gc.get_freeze_count())
crawler.signals.send_catch_log(signals.engine_started)
print(gc.get_freeze_count(), crawler.stats.get_value("webclean/gc/frozen_objects"))
"""
    before, frozen, stat = _run({"ITEM_PIPELINES": {}}, body).split()
    assert before == "0"
    # (the stat counts them at the freeze; a few were freed since)
    assert int(stat) >= int(frozen) > 10_000
    # turned off, nothing is frozen
    assert _run({"ITEM_PIPELINES": {}, "WEBCLEAN_GC_FREEZE": False}, body).split() == [
        "0",
        "0",
        "None",
    ]


def test_the_workers_are_asked_to_freeze_what_they_load_as_the_setting_says() -> None:
    body = """
from scrapy_webclean.integration.pipelines import CleanPipeline

import asyncio

async def main():
    pipeline = crawler.get_item_pipeline(CleanPipeline)
    pool = pipeline._pool()  # (under an event loop; no worker starts before its first job)
    print(pool.freeze)
    pipeline.close_spider(crawler.spider)

asyncio.run(main())
"""
    for setting in (True, False):
        settings = {"ITEM_PIPELINES": {}, "WEBCLEAN_WORKERS": 1, "WEBCLEAN_GC_FREEZE": setting}
        assert _run(settings, body).split() == [str(setting)]
