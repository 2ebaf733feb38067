"""Settings of the example project.

Cleaning is switched on by the scrapy-webclean add-on alone; the stock
ImagesPipeline runs first so its download results are available to it.
"""

BOT_NAME = "example_project"
SPIDER_MODULES = ["example_project.spiders"]
NEWSPIDER_MODULE = "example_project.spiders"

USER_AGENT = "scrapy-webclean-demo (+local demo crawl)"
ROBOTSTXT_OBEY = True

ADDONS = {"scrapy_webclean.Addon": 100}

ITEM_PIPELINES = {"scrapy.pipelines.images.ImagesPipeline": 1}
IMAGES_STORE = "images"
# ImagesPipeline writes its downloads into ``images``; the cleaner's images found in the
# page go to ``page_images``, so the two never overwrite each other.

# The demo server is local: no politeness delay needed.
CONCURRENT_REQUESTS = 16
DOWNLOAD_DELAY = 0
DOWNLOAD_TIMEOUT = 30

FEED_EXPORT_ENCODING = "utf-8"
TELNETCONSOLE_ENABLED = False
LOG_LEVEL = "INFO"

EXTENSIONS = {
    "example_project.extensions.StatsDump": 500,
    "example_project.extensions.StayWhileShared": 510,
    "example_project.extensions.LoopLag": 490,
}
# DEMO_LOOP_LAG = True  # measure event-loop stalls (benchmarks/crawl.py sets it)
# DEMO_IDLE_SECONDS = 3  # with a shared (scrapy-redis) queue: stay open while others work
# DEMO_STATS_FILE = "stats.json"  # set with -s to dump the final stats as JSON
