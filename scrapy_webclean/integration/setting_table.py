"""The table of every ``WEBCLEAN_*`` setting (:data:`SETTINGS`: name, default, meaning
and rule), the defaults it shares with the components, and the order each component takes
in Scrapy's component lists when the add-on installs it. Reading and checking the values
is ``integration.settings``'s job."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scrapy_webclean.ads.options import AdModelOptions
from scrapy_webclean.dedup.store import MAX_MEMORY_DOCS, MIN_MEMORY_DOCS
from scrapy_webclean.extraction.options import FAVOR_CHOICES
from scrapy_webclean.html.loader import DEFAULT_FALLBACK_ENCODINGS, Limits
from scrapy_webclean.html.pagewalk import DEFAULT_CUSTOM_PATTERNS, DEFAULT_CUSTOM_TAGS
from scrapy_webclean.integration.setting_rules import (
    OUTPUT_GROUPS,
    Rule,
    boolean,
    choice,
    codec_problem,
    integer,
    label_weights,
    line_model_choice,
    number,
    output_fields,
    output_group_problem,
    rank_weights,
    regex_problem,
    text,
    text_list,
    word_weights,
)
from scrapy_webclean.integration.workers import DEFAULT_PAGE_TIMEOUT
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
#: Order of LinkGraphWriter in ITEM_PIPELINES: after cleaning, before DedupPipeline (a
#: page dropped as a copy still links where it links).
LINK_GRAPH_ORDER = 250
#: Order of ContentFirstPriority in SPIDER_MIDDLEWARES: it sees the spider's requests
#: after OffsiteMiddleware (500) and before DepthMiddleware (900) on the output side.
PRIORITY_MIDDLEWARE_ORDER = 700

#: The results CleanPipeline can write, each under the field name WEBCLEAN_OUTPUT_FIELDS
#: gives it. ``images`` is written as ``page_images``: Scrapy's ImagesPipeline writes its
#: downloads into ``images`` (IMAGES_RESULT_FIELD) and FilesPipeline into ``files``.
DEFAULT_OUTPUT_FIELDS: dict[str, str | None] = {
    "title": "title",
    "text": "text",
    "lang": "lang",
    "encoding": "encoding",
    "page_type": "page_type",
    "date": "date",
    "date_modified": "date_modified",
    "author": "author",
    "sitename": "sitename",
    "description": "description",
    "categories": "categories",
    "tags": "tags",
    "image": "image",
    "canonical_url": "canonical_url",
    "license": "license",
    "text_source": "text_source",
    "comments": "comments",
    "links": "links",
    "images": "page_images",
    "blocks": "blocks",
}


#: Weights of the block labels for crawl priority, as QuarkRank's (content 1.5, the rest 0.5).
DEFAULT_PRIORITY_WEIGHTS: dict[str, float] = {"content": 1.5, "related": 0.5, "noise": 0.5}


@dataclass(frozen=True, slots=True)
class Setting:
    """A documented setting: its name, default, a one-line meaning, and its rule."""

    name: str
    default: Any
    doc: str
    rule: Rule

    @property
    def allowed(self) -> str:
        """What the setting allows, in words."""
        return self.rule.allowed


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "WEBCLEAN_ENABLED",
        True,
        "Master switch; False disables every webclean component.",
        boolean(),
    ),
    Setting(
        "WEBCLEAN_HTML_FIELD",
        "html",
        "Item field holding the page HTML (str or bytes).",
        text(),
    ),
    Setting("WEBCLEAN_URL_FIELD", "url", "Item field holding the page URL.", text()),
    Setting(
        "WEBCLEAN_CONTENT_TYPE_FIELD",
        "content_type",
        "Item field with the HTTP Content-Type header: its charset decodes bytes HTML, and a "
        "media type that is not HTML (application/pdf, image/png ...) is refused (not_html).",
        text(),
    ),
    Setting(
        "WEBCLEAN_KEEP_HTML",
        False,
        "Keep the page HTML (as text, never bytes) and content-type fields in the item.",
        boolean(),
    ),
    Setting(
        "WEBCLEAN_INCLUDE_BLOCKS",
        False,
        "Add the list of blocks (text, label, path, signals) to each item.",
        boolean(),
    ),
    Setting(
        "WEBCLEAN_OUTPUT_GROUPS",
        list(OUTPUT_GROUPS),
        "Which groups of the links and page_images fields are written: the blocks' "
        "labels 'content', 'related', 'noise' (the noise groups are most of an item's "
        "bytes: ['content', 'related'] leaves them out).",
        text_list(output_group_problem, "'content', 'related' or 'noise'"),
    ),
    Setting(
        "WEBCLEAN_OUTPUT_FIELDS",
        dict(DEFAULT_OUTPUT_FIELDS),
        "Names of the fields the pipeline fills; map a result to None to leave it out.",
        output_fields(DEFAULT_OUTPUT_FIELDS),
    ),
    Setting(
        "WEBCLEAN_ON_ERROR",
        "pass",
        "What to do with an item whose page cannot be cleaned: 'pass' (on, with an "
        "error field) or 'drop'.",
        choice("pass", "drop"),
    ),
    Setting(
        "WEBCLEAN_ERROR_FIELD",
        "webclean_error",
        "Field set to the failure reason when an uncleanable item is passed on.",
        text(),
    ),
    Setting(
        "WEBCLEAN_CUSTOM_TAGS",
        list(DEFAULT_CUSTOM_TAGS),
        "Customised (C) tags: each such element is its own block.",
        text_list(what="tag names"),
    ),
    Setting(
        "WEBCLEAN_CUSTOM_PATTERNS",
        list(DEFAULT_CUSTOM_PATTERNS),
        "Customised (C) regular expressions: a short line matching one is its own block.",
        text_list(regex_problem, "regular expressions"),
    ),
    Setting(
        "WEBCLEAN_EXTRA_NOISE_WORDS",
        [],
        "Words added to the built-in noise-word list of the block classifier.",
        text_list(what="words"),
    ),
    Setting(
        "WEBCLEAN_LINE_MODEL",
        "default",
        "The trained keep/drop decision per line and the page-type model beside it: "
        "'default' (the model shipped with the package), 'none' (the hand rules alone) or "
        "the path of a model file written by benchmarks/train_extraction.py.",
        line_model_choice(),
    ),
    Setting(
        "WEBCLEAN_LINE_MODEL_MIN_SITE_PAGES",
        1,
        "Pages of a site the crawl must have learned before the line model decides on the "
        "site's pages (the rules decide before: on a site's first page nothing tells its "
        "template from its content, and the model would keep a sidebar's sentence).",
        integer(minimum=0),
    ),
    Setting(
        "WEBCLEAN_FAVOR",
        "balanced",
        "Precision or recall first, as trafilatura's favor_precision and favor_recall: "
        "'balanced'; 'precision' (less of what may not be content: the line model keeps a "
        "line from a higher probability, the rules drop mostly-linked lines and short "
        "labels at the text's ends) or 'recall' (more of what may be: a lower probability, "
        "the rules recover more prose and keep photo captions and byline lines).",
        choice(*FAVOR_CHOICES),
    ),
    Setting(
        "WEBCLEAN_MIN_BLOCK_CHARS",
        QuarkOptions().min_block_chars,
        "Characters of text that make a B tag (div, td, ...) a block of its own.",
        integer(minimum=1),
    ),
    Setting(
        "WEBCLEAN_FALLBACK_ENCODINGS",
        list(DEFAULT_FALLBACK_ENCODINGS),
        "Encodings tried strictly, in order, for pages that declare none (no BOM, header or "
        "meta), before the encoding is detected from the bytes (charset-normalizer).",
        text_list(codec_problem, "encoding names"),
    ),
    Setting(
        "WEBCLEAN_ADS_ENABLED",
        True,
        "Drop ad (and template) image requests before they are fetched (AdImageFilter "
        "and ImageUrlsFilterPipeline).",
        boolean(),
    ),
    Setting(
        "WEBCLEAN_DROP_TEMPLATE_IMAGES",
        True,
        "Also drop template images (logos, icons, spacers repeated across a site's pages); "
        "False keeps them and drops ads only.",
        boolean(),
    ),
    Setting(
        "WEBCLEAN_ADS_NOISE_WORDS",
        {},
        "Extra noise words for image links, with weights ({'promo': 1.0}); they count in "
        "URL tokens, link targets, container class/id, alt/title/anchor.",
        word_weights(),
    ),
    Setting(
        "WEBCLEAN_ADS_ALLOW",
        [],
        "Image hosts (example.com matches its subdomains) or regular expressions over "
        "the image URL that are never dropped.",
        text_list(regex_problem, "hosts or regular expressions"),
    ),
    Setting(
        "WEBCLEAN_ADS_MIN_PAGES",
        AdModelOptions().min_pages,
        "Pages of a site seen before URL redundancy and entropy count; an image request "
        "of a site with fewer is sent back to the scheduler (see MAX_DEFERS).",
        integer(minimum=1),
    ),
    Setting(
        "WEBCLEAN_ADS_MAX_DEFERS",
        3,
        "How many times an image request may go back to the scheduler (lower priority) "
        "waiting for evidence before it is decided anyway; 0 decides at once.",
        integer(minimum=0),
    ),
    Setting(
        "WEBCLEAN_ADS_FILTER_LIST",
        None,
        "Path or URL of an Adblock Plus filter list (EasyList) to use as well; needs the "
        "'adblock' extra. A URL is cached on disk.",
        text(optional=True),
    ),
    Setting(
        "WEBCLEAN_ADS_FILTER_LIST_CACHE",
        None,
        "Folder for the downloaded filter list (default: JOBDIR, else .webclean-cache).",
        text(optional=True),
    ),
    Setting(
        "WEBCLEAN_DEDUP_ENABLED",
        True,
        "Drop (or mark) items whose main text copies an earlier item's (DedupPipeline).",
        boolean(),
    ),
    Setting(
        "WEBCLEAN_DEDUP_POLICY",
        "drop",
        "'drop': a later copy raises DropItem naming the first; 'mark': it is exported with "
        "the first copy's URL in WEBCLEAN_DEDUP_FIELD.",
        choice("drop", "mark"),
    ),
    Setting(
        "WEBCLEAN_DEDUP_FIELD",
        "duplicate_of",
        "Field naming the earlier copy when WEBCLEAN_DEDUP_POLICY is 'mark'.",
        text(),
    ),
    Setting(
        "WEBCLEAN_QUERY_KEYWORDS",
        [],
        "Query keywords of a topical crawl: fingerprints are drawn from the logical "
        "paragraphs around the paragraphs that name one.",
        text_list(what="words"),
    ),
    Setting(
        "WEBCLEAN_IMAGE_URLS_FIELD",
        "image_urls",
        "Item field of image URLs that ImageUrlsFilterPipeline prunes before the media "
        "pipeline (the ImagesPipeline's IMAGES_URLS_FIELD).",
        text(),
    ),
    Setting(
        "WEBCLEAN_OUTPUT_FORMAT",
        "text",
        "'text': the main content as plain text; 'markdown': as Markdown (headings, lists, "
        "tables, code, quotes, emphasis, links with absolute URLs); 'html': as minimal, "
        "sanitized HTML (no attribute but href, src and alt); in the same field.",
        choice("text", "markdown", "html"),
    ),
    Setting(
        "WEBCLEAN_MARKDOWN_LINKS",
        True,
        "The Markdown and HTML output keep the main content's links (absolute URLs); "
        "False writes their text only.",
        boolean(),
    ),
    Setting(
        "WEBCLEAN_MARKDOWN_IMAGES",
        False,
        "The Markdown and HTML output keep the main content's images (a Markdown image "
        "with its alt text, an img element with src and alt).",
        boolean(),
    ),
    Setting(
        "WEBCLEAN_INCLUDE_COMMENTS",
        False,
        "Add 'comments', the reader comments the text leaves out: a list of "
        "{author, date, text} (never part of the text).",
        boolean(),
    ),
    Setting(
        "WEBCLEAN_WORKERS",
        -1,
        "Worker processes that clean pages off the event loop, one site to one worker; "
        "0 cleans in the crawl's process (no time limit per page there, see "
        "WEBCLEAN_PAGE_TIMEOUT); -1: one less than the CPU cores, at most 4.",
        integer(minimum=-1),
    ),
    Setting(
        "WEBCLEAN_GC_FREEZE",
        True,
        "Once the crawl has started, move what it loaded (modules, models, word lists) out "
        "of the garbage collector's reach (gc.freeze): shorter full collections, which "
        "block the event loop; each cleaning worker does the same once it has loaded its "
        "models.",
        boolean(),
    ),
    Setting(
        "WEBCLEAN_PAGE_TIMEOUT",
        DEFAULT_PAGE_TIMEOUT,
        "Wall-clock seconds a cleaning worker may spend on one page; over it, the worker "
        "is killed and replaced, the page passed on uncleaned (items/failed/timeout) and "
        "the pages waiting behind it sent to the new worker. 0: no limit. Pages cleaned in "
        "the crawl's process (WEBCLEAN_WORKERS = 0) have no time limit, only the size limits.",
        number(minimum=0),
    ),
    Setting(
        "WEBCLEAN_WORKER_QUEUE",
        8,
        "Pages waiting per worker before process_item waits too (back-pressure).",
        integer(minimum=1),
    ),
    Setting(
        "WEBCLEAN_REJECTS_FEED",
        None,
        "File (JSON lines) for every dropped item: url, reason, duplicate_of, message; "
        "%(spider)s and %(time)s are filled in.",
        text(optional=True),
    ),
    Setting(
        "WEBCLEAN_MAX_HTML_BYTES",
        Limits().max_bytes,
        "Largest page cleaned (bytes); a bigger one is skipped whole (items/failed/too_large) "
        "and never parsed, by the ad filter either. The add-on also sets Scrapy's "
        "DOWNLOAD_WARNSIZE to it and DOWNLOAD_MAXSIZE to twice it (a bigger body is not "
        "downloaded), unless the project sets them.",
        integer(minimum=1),
    ),
    Setting(
        "WEBCLEAN_MAX_DEPTH",
        Limits().max_depth,
        "Deepest element nesting; a deeper page is skipped (items/failed/too_deep).",
        integer(minimum=1),
    ),
    Setting(
        "WEBCLEAN_MAX_NODES",
        Limits().max_nodes,
        "Most tags ('<' characters) in a page; more and it is not parsed "
        "(items/failed/too_many_nodes).",
        integer(minimum=1),
    ),
    Setting(
        "WEBCLEAN_MAX_TEXT_CHARS",
        Limits().max_text,
        "Longest run of visible text (one text node; scripts and attributes do not count); "
        "longer and the page is skipped (items/failed/text_too_long).",
        integer(minimum=1),
    ),
    Setting(
        "WEBCLEAN_STATE",
        "memory",
        "Where learned state lives: 'memory', 'jobdir' (SQLite in the crawl's JOBDIR: "
        "kept across pause/resume) or 'redis' (REDIS_URL, REDIS_PARAMS: shared by processes).",
        choice("memory", "jobdir", "redis"),
    ),
    Setting(
        "WEBCLEAN_STATE_FILE",
        "webclean-state.sqlite3",
        "File name of the 'jobdir' state inside JOBDIR.",
        text(),
    ),
    Setting(
        "WEBCLEAN_REDIS_PREFIX",
        "%(spider)s:webclean:",
        "Prefix of every Redis key of the 'redis' state (%(spider)s: the spider's name).",
        text(),
    ),
    Setting(
        "WEBCLEAN_REDIS_URL",
        None,
        "The Redis of the 'redis' state when it is not REDIS_URL's: a Redis Cluster "
        "(redis+cluster://host:port) while scrapy-redis's queue stays on one node.",
        text(optional=True),
    ),
    Setting(
        "WEBCLEAN_REDIS_CLUSTER",
        False,
        "With the 'redis' state, REDIS_URL names a node of a Redis Cluster (as a "
        "redis+cluster:// URL does): the state's tables are spread over its nodes.",
        boolean(),
    ),
    Setting(
        "WEBCLEAN_REDIS_BUCKETS",
        128,
        "Buckets each table of the 'redis' state is split into (the keys a cluster spreads "
        "over its nodes). Written into the store on first use; a crawl naming another "
        "count for the same keys stops at start-up.",
        integer(minimum=1, maximum=65536),
    ),
    Setting(
        "WEBCLEAN_STATE_RETRY_SECONDS",
        300.0,
        "How long a duplicate check waits (retrying with back-off) for an unreachable Redis "
        "before the item is passed on unchecked (counted under webclean/dedup/unchecked).",
        number(minimum=0),
    ),
    Setting(
        "WEBCLEAN_REDIS_REQUIRED",
        True,
        "With the 'redis' state, stop the crawl at start-up when Redis does not answer "
        "(an error naming REDIS_URL); False starts without it (duplicate checks wait for it, "
        "learning pauses until it answers).",
        boolean(),
    ),
    Setting(
        "WEBCLEAN_DEDUP_BATCH",
        64,
        "Most items checked for duplicates in one batch (one set of Redis round trips).",
        integer(minimum=1),
    ),
    Setting(
        "WEBCLEAN_DEDUP_MAX_DOCS",
        MAX_MEMORY_DOCS,
        "Most documents the near-duplicate index keeps in memory (WEBCLEAN_STATE 'memory'), "
        "about 2.5 KB each (6 KB a short text); when full it forgets the older half. Not "
        "used with 'jobdir' or 'redis'.",
        integer(minimum=MIN_MEMORY_DOCS),
    ),
    Setting(
        "WEBCLEAN_LINK_GRAPH",
        None,
        "A gzipped file the crawl writes its link graph into as it goes (LinkGraphWriter: "
        "source<TAB>target<TAB>label<TAB>anchor lines, appended), for scrapy webclean rank.",
        text(optional=True),
    ),
    Setting(
        "WEBCLEAN_PRIORITY_ENABLED",
        False,
        "Crawl content first (ContentFirstPriority): a request's priority rises by "
        "round(10 x weight) of the block label its link sits in on the page it was found on.",
        boolean(),
    ),
    Setting(
        "WEBCLEAN_PRIORITY_WEIGHTS",
        dict(DEFAULT_PRIORITY_WEIGHTS),
        "Weights of the block labels for WEBCLEAN_PRIORITY_ENABLED (the labels not given "
        "keep theirs): content links +15, related and noise links +5 by default.",
        label_weights(DEFAULT_PRIORITY_WEIGHTS),
    ),
    Setting(
        "WEBCLEAN_RANK_WEIGHTS",
        dict(DEFAULT_PRIORITY_WEIGHTS),
        "Weights of the block labels for `scrapy webclean rank` (QuarkRank): a link passes "
        "on rank in proportion to its label's weight; 0 drops the label's links. The "
        "command's --weight LABEL=WEIGHT overrides one.",
        rank_weights(DEFAULT_PRIORITY_WEIGHTS),
    ),
)
