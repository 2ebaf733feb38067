"""What ``scrapy webclean`` shows of one page: why a fetch failed, the URL a page gives
itself, every image's verdict from this one page and the words the crawl's output uses
for it, one line per block (``--explain``), and the summary of the page's fields."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from lxml import etree
from lxml import html as lxml_html

from scrapy_webclean.ads import AdImageModel, Verdict

if TYPE_CHECKING:
    from twisted.python.failure import Failure

    from scrapy_webclean.result import CleanResult


#: What ``--format`` may ask for: the main content as text, Markdown or HTML, or the whole
#: result as JSON.
OUTPUT_FORMATS = ("text", "markdown", "html", "json")


def summary_lines(result: CleanResult) -> list[str]:
    """The summary above the main content: title, dates, page type, language, then each
    metadata field the page gives (one left out when it gives none) and where the text
    came from when not the markup."""
    lines = [
        f"Title:       {result.title}",
        f"Date:        {result.date or '-'}"
        + (f"    Modified: {result.date_modified}" if result.date_modified else ""),
        f"Page type:   {result.page_type}",
        f"Language:    {result.lang}    Encoding: {result.encoding}",
    ]
    fields = (
        ("Author", ", ".join(result.author)),
        ("Site", result.sitename),
        ("Description", result.description),
        ("Categories", ", ".join(result.categories)),
        ("Tags", ", ".join(result.tags)),
        ("Image", result.image),
        ("Canonical", result.canonical_url),
        ("License", result.license),
    )
    lines += [f"{name + ':':12} {value}" for name, value in fields if value]
    if result.text_source != "html":
        lines.append(f"Text from:   {result.text_source} (the page's structured data)")
    return lines


def comment_lines(result: CleanResult) -> list[str]:
    """One entry per reader comment: its author and date, then its text indented."""
    lines: list[str] = []
    for comment in result.comments or ():
        lines.append(f"  - {comment.author or 'anonymous'} ({comment.date or 'no date'})")
        lines += [f"    {line}" for line in comment.text.splitlines()]
    return lines


def fetch_failure(failure: Failure) -> str:
    """Why a request failed, in a few words: ``HTTP 404 Not Found`` for a response Scrapy
    filtered out by its status, else the error's class and message (no traceback)."""
    from scrapy.spidermiddlewares.httperror import HttpError
    from scrapy.utils.response import response_status_message

    error = failure.value
    if isinstance(error, HttpError):
        return f"HTTP {response_status_message(error.response.status)}"
    message = failure.getErrorMessage()
    name = type(error).__name__
    return f"{name}: {message}" if message and message != name else name


def page_own_url(body: bytes) -> str | None:
    """The URL a page gives itself: its ``<link rel="canonical">`` href, else its
    ``<base href>``, if absolute http(s); else None."""
    try:
        root = lxml_html.document_fromstring(body)
    except (etree.LxmlError, ValueError):
        return None
    canonical = [
        link.get("href", "")
        for link in root.iter("link")
        if "canonical" in (link.get("rel") or "").lower().split()
    ]
    for href in [*canonical, *(base.get("href", "") for base in root.iter("base"))]:
        href = str(href).strip()
        parts = urlsplit(href)
        if parts.scheme.lower() in ("http", "https") and parts.netloc:
            return href
    return None


def judge_images(body: bytes | str, url: str | None) -> dict[str, Verdict]:
    """Each image of the page with the ad filter's verdict from this one page (the
    statistics that need several pages of a site, redundancy and entropy, cannot fire)."""
    model = AdImageModel()
    page_url = url or "http://localhost/"
    links = model.observe_page(page_url, body)
    return {link.src: model.judge(link.src, page_url) for link in links}


def image_groups(result: CleanResult) -> dict[str, str]:
    """The output's ``page_images`` group (content, related, noise) of each image."""
    return {
        image.src: group for group, images in result.images_by_label().items() for image in images
    }


def image_words(verdict: Verdict, group: str | None) -> tuple[str, str]:
    """What the crawl's output says of an image: ``drop`` and the filter's kind (ad,
    pixel, template: the words of the ``webclean/images/dropped_kind/...`` stats), or
    ``keep`` and the ``page_images`` group the cleaner files it under (a logo in a noise
    block is ``noise``, not content)."""
    if verdict.drop:
        return "drop", verdict.kind
    return "keep", group or verdict.kind


def verdict_dict(verdict: Verdict) -> dict[str, Any]:
    return {
        "drop": verdict.drop,
        "kind": verdict.kind,
        "score": verdict.score,
        "reasons": list(verdict.reasons),
    }


def explain_blocks(result: CleanResult) -> list[str]:
    """One line per block: index, label, size, the classifier's signals, a text preview."""
    lines = []
    for block in result.blocks:
        fired = ",".join(name for name, on in block.features.items() if on) or "-"
        preview = " ".join(block.text.split())[:70]
        lines.append(
            f"  #{block.index:<3} {block.label.value:8} chars={block.chars:<5} "
            f"links={block.link_count:<3} link-density="
            f"{block.anchor_chars / block.chars if block.chars else 0:.2f} "
            f"p(content)={block.content_probability:.2f} features={fired}  {block.path}\n"
            f"        {preview}"
        )
    return lines
