"""Every ``WEBCLEAN_*`` setting in one place: name, default, meaning.

Components read settings through :func:`get_setting`, so a default lives here only, and the
README's settings table is generated from :data:`SETTINGS` (``python -m
scrapy_webclean.integration.settings``). This module imports nothing from Scrapy.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from scrapy_webclean.ads.model import AdModelOptions
from scrapy_webclean.html.loader import DEFAULT_FALLBACK_ENCODINGS, Limits
from scrapy_webclean.segmentation.blockmodel import DEFAULT_CUSTOM_PATTERNS, DEFAULT_CUSTOM_TAGS
from scrapy_webclean.segmentation.classify import ClassifierOptions
from scrapy_webclean.segmentation.quark import QuarkOptions

#: Order of CleanPipeline in ITEM_PIPELINES when installed by the add-on.
CLEAN_PIPELINE_ORDER = 200
#: Order of AdImageFilter in DOWNLOADER_MIDDLEWARES: after the stock middlewares that
#: change requests (robots, auth, user agent ...), before HttpCompression on the response
#: side's view, i.e. it sees the decompressed HTML.
AD_FILTER_ORDER = 560
#: Order of DedupPipeline in ITEM_PIPELINES: after cleaning, before storage pipelines.
DEDUP_PIPELINE_ORDER = 300
#: Order of ImageUrlsFilterPipeline in ITEM_PIPELINES: before Scrapy's media pipelines
#: (their usual order is 1).
IMAGE_URLS_FILTER_ORDER = 0


@dataclass(frozen=True, slots=True)
class Setting:
    """A documented setting: its name, default and a one-line meaning."""

    name: str
    default: Any
    doc: str


SETTINGS: tuple[Setting, ...] = (
    Setting("WEBCLEAN_ENABLED", True, "Master switch; False disables every webclean component."),
    Setting("WEBCLEAN_HTML_FIELD", "html", "Item field holding the page HTML (str or bytes)."),
    Setting("WEBCLEAN_URL_FIELD", "url", "Item field holding the page URL."),
    Setting(
        "WEBCLEAN_CONTENT_TYPE_FIELD",
        "content_type",
        "Item field with the HTTP Content-Type header, used to decode bytes HTML (optional).",
    ),
    Setting(
        "WEBCLEAN_KEEP_HTML",
        False,
        "Keep the raw HTML (and content-type) fields in the item after cleaning.",
    ),
    Setting(
        "WEBCLEAN_INCLUDE_BLOCKS",
        False,
        "Add the list of blocks (text, label, path, signals) to each item.",
    ),
    Setting(
        "WEBCLEAN_OUTPUT_FIELDS",
        {
            "title": "title",
            "text": "text",
            "lang": "lang",
            "encoding": "encoding",
            "page_type": "page_type",
            "date": "date",
            "links": "links",
            "images": "images",
            "blocks": "blocks",
        },
        "Names of the fields the pipeline fills; map a result to None to leave it out.",
    ),
    Setting(
        "WEBCLEAN_ON_ERROR",
        "pass",
        "What to do with an item whose page cannot be cleaned: 'pass' (on, with an "
        "error field) or 'drop'.",
    ),
    Setting(
        "WEBCLEAN_ERROR_FIELD",
        "webclean_error",
        "Field set to the failure reason when an uncleanable item is passed on.",
    ),
    Setting(
        "WEBCLEAN_CUSTOM_TAGS",
        list(DEFAULT_CUSTOM_TAGS),
        "Customised (C) tags: each such element is its own block.",
    ),
    Setting(
        "WEBCLEAN_CUSTOM_PATTERNS",
        list(DEFAULT_CUSTOM_PATTERNS),
        "Customised (C) regular expressions: a short line matching one is its own block.",
    ),
    Setting(
        "WEBCLEAN_EXTRA_NOISE_WORDS",
        [],
        "Words added to the built-in noise-word list of the block classifier.",
    ),
    Setting(
        "WEBCLEAN_MIN_BLOCK_CHARS",
        QuarkOptions().min_block_chars,
        "Characters of text that make a B tag (div, td, ...) a block of its own.",
    ),
    Setting(
        "WEBCLEAN_SIMILARITY_THRESHOLD",
        ClassifierOptions().similarity_threshold,
        "Token overlap (0-1) with the longest block that marks a block as content.",
    ),
    Setting(
        "WEBCLEAN_FALLBACK_ENCODINGS",
        list(DEFAULT_FALLBACK_ENCODINGS),
        "Encodings tried, in order, for pages that declare none.",
    ),
    Setting(
        "WEBCLEAN_ADS_ENABLED",
        True,
        "Drop ad (and template) image requests before they are fetched (AdImageFilter "
        "and ImageUrlsFilterPipeline).",
    ),
    Setting(
        "WEBCLEAN_DROP_TEMPLATE_IMAGES",
        True,
        "Also drop template images (logos, icons, spacers repeated across a site's pages); "
        "False keeps them and drops ads only.",
    ),
    Setting(
        "WEBCLEAN_ADS_NOISE_WORDS",
        {},
        "Extra noise words for image links, with weights ({'promo': 1.0}); they count in "
        "URL tokens, link targets, container class/id, alt/title/anchor.",
    ),
    Setting(
        "WEBCLEAN_ADS_ALLOW",
        [],
        "Image hosts (example.com matches its subdomains) or regular expressions over "
        "the image URL that are never dropped.",
    ),
    Setting(
        "WEBCLEAN_ADS_MIN_PAGES",
        AdModelOptions().min_pages,
        "Pages of a site seen before URL redundancy and entropy count; an image request "
        "of a site with fewer is sent back to the scheduler (see MAX_DEFERS).",
    ),
    Setting(
        "WEBCLEAN_ADS_MAX_DEFERS",
        3,
        "How many times an image request may go back to the scheduler (lower priority) "
        "waiting for evidence before it is decided anyway; 0 decides at once.",
    ),
    Setting(
        "WEBCLEAN_ADS_FILTER_LIST",
        None,
        "Path or URL of an Adblock Plus filter list (EasyList) to use as well; needs the "
        "'adblock' extra. A URL is cached on disk.",
    ),
    Setting(
        "WEBCLEAN_ADS_FILTER_LIST_CACHE",
        None,
        "Folder for the downloaded filter list (default: JOBDIR, else .webclean-cache).",
    ),
    Setting(
        "WEBCLEAN_DEDUP_ENABLED",
        True,
        "Drop (or mark) items whose main text copies an earlier item's (DedupPipeline).",
    ),
    Setting(
        "WEBCLEAN_DEDUP_POLICY",
        "drop",
        "'drop': a later copy raises DropItem naming the first; 'mark': it is exported with "
        "the first copy's URL in WEBCLEAN_DEDUP_FIELD.",
    ),
    Setting(
        "WEBCLEAN_DEDUP_FIELD",
        "duplicate_of",
        "Field naming the earlier copy when WEBCLEAN_DEDUP_POLICY is 'mark'.",
    ),
    Setting(
        "WEBCLEAN_QUERY_KEYWORDS",
        [],
        "Query keywords of a topical crawl: fingerprints are drawn from the logical "
        "paragraphs around the paragraphs that name one.",
    ),
    Setting(
        "WEBCLEAN_IMAGE_URLS_FIELD",
        "image_urls",
        "Item field of image URLs that ImageUrlsFilterPipeline prunes before the media "
        "pipeline (the ImagesPipeline's IMAGES_URLS_FIELD).",
    ),
    Setting(
        "WEBCLEAN_OUTPUT_FORMAT",
        "text",
        "'text': the main content as plain text; 'markdown': as Markdown (headings, lists, "
        "tables, emphasis, links with absolute URLs), in the same field.",
    ),
    Setting(
        "WEBCLEAN_WORKERS",
        -1,
        "Worker processes that clean pages off the event loop, one site to one worker; "
        "0 cleans in the crawl's process; -1: one less than the CPU cores, at most 4.",
    ),
    Setting(
        "WEBCLEAN_WORKER_QUEUE",
        8,
        "Pages waiting per worker before process_item waits too (back-pressure).",
    ),
    Setting(
        "WEBCLEAN_REJECTS_FEED",
        None,
        "File (JSON lines) for every dropped item: url, reason, duplicate_of, message; "
        "%(spider)s and %(time)s are filled in.",
    ),
    Setting(
        "WEBCLEAN_MAX_HTML_BYTES",
        Limits().max_bytes,
        "Largest page cleaned (bytes); a bigger one is skipped whole (items/failed/too_large).",
    ),
    Setting(
        "WEBCLEAN_MAX_DEPTH",
        Limits().max_depth,
        "Deepest element nesting; a deeper page is skipped (items/failed/too_deep).",
    ),
    Setting(
        "WEBCLEAN_MAX_NODES",
        Limits().max_nodes,
        "Most tags ('<' characters) in a page; more and it is not parsed "
        "(items/failed/too_many_nodes).",
    ),
    Setting(
        "WEBCLEAN_MAX_TEXT_CHARS",
        Limits().max_text,
        "Longest run of visible text (one text node; scripts and attributes do not count); "
        "longer and the page is skipped (items/failed/text_too_long).",
    ),
    Setting(
        "WEBCLEAN_STATE",
        "memory",
        "Where learned state lives: 'memory', 'jobdir' (SQLite in the crawl's JOBDIR: "
        "kept across pause/resume) or 'redis' (REDIS_URL, REDIS_PARAMS: shared by processes).",
    ),
    Setting(
        "WEBCLEAN_STATE_FILE",
        "webclean-state.sqlite3",
        "File name of the 'jobdir' state inside JOBDIR.",
    ),
    Setting(
        "WEBCLEAN_REDIS_PREFIX",
        "%(spider)s:webclean:",
        "Prefix of every Redis key of the 'redis' state (%(spider)s: the spider's name).",
    ),
    Setting(
        "WEBCLEAN_STATE_RETRY_SECONDS",
        300.0,
        "How long a duplicate check waits (retrying with back-off) for an unreachable Redis "
        "before the item is passed on unchecked (counted under webclean/dedup/unchecked).",
    ),
    Setting(
        "WEBCLEAN_DEDUP_BATCH",
        64,
        "Most items checked for duplicates in one batch (one set of Redis round trips).",
    ),
)

_BY_NAME = {s.name: s for s in SETTINGS}


class SettingsLike(Protocol):
    """The part of ``scrapy.settings.BaseSettings`` we use (kept Scrapy-free here)."""

    def get(self, name: str, default: Any = None) -> Any: ...


def get_setting(settings: SettingsLike | Mapping[str, Any], name: str) -> Any:
    """Value of a ``WEBCLEAN_*`` setting, falling back to its documented default."""
    default = _BY_NAME[name].default
    value = settings.get(name, None)
    if value is None:
        return default
    if isinstance(default, bool) and isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    if isinstance(default, int) and not isinstance(default, bool) and isinstance(value, str):
        return int(value)
    if isinstance(default, float) and isinstance(value, str):
        return float(value)
    if isinstance(default, list) and isinstance(value, str):
        if value.lstrip().startswith("["):
            return list(json.loads(value))
        return [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(default, dict) and isinstance(value, str):
        value = json.loads(value)
    if isinstance(default, dict) and isinstance(value, Mapping):
        return {**default, **value}
    return value


def settings_table() -> str:
    """The settings as a Markdown table (for the README)."""
    rows = ["| Setting | Default | Meaning |", "|---|---|---|"]
    for setting in SETTINGS:
        default = repr(setting.default)
        if len(default) > 60:
            default = default[:57] + "..."
        default = default.replace("|", "\\|")
        rows.append(f"| `{setting.name}` | `{default}` | {setting.doc} |")
    return "\n".join(rows)


if __name__ == "__main__":  # pragma: no cover - documentation helper
    print(settings_table())
