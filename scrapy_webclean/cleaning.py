"""``clean_html``: one page in, a :class:`CleanResult` out. No Scrapy needed.

Pipeline: decode and parse once (``html.loader``) -> block model in one iterative pass ->
Quark segmentation -> Quark classification -> title, text, language, links and images
grouped by block label.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from lxml import etree

from scrapy_webclean.html.loader import DEFAULT_FALLBACK_ENCODINGS, DEFAULT_MAX_DEPTH, load_html
from scrapy_webclean.result import Block, CleanResult, Image, Link
from scrapy_webclean.segmentation.blockmodel import (
    DEFAULT_CUSTOM_PATTERNS,
    DEFAULT_CUSTOM_TAGS,
    PageModel,
    build_page_model,
    collapse_ws,
)
from scrapy_webclean.segmentation.classify import BlockLabel, ClassifierOptions, QuarkClassifier
from scrapy_webclean.segmentation.quark import QuarkOptions, segment_page, segment_text
from scrapy_webclean.text.language import guess_language

_TITLE_SEPARATORS_RE = re.compile(r"\s+[-|–—·:]\s+|\s*[_｜|—–]\s*")


@dataclass(frozen=True, slots=True)
class CleanOptions:
    """Everything ``clean_html`` can be told; the defaults suit news and article sites."""

    custom_tags: tuple[str, ...] = DEFAULT_CUSTOM_TAGS
    custom_patterns: tuple[str, ...] = DEFAULT_CUSTOM_PATTERNS
    quark: QuarkOptions = field(default_factory=QuarkOptions)
    classifier: ClassifierOptions = field(default_factory=ClassifierOptions)
    fallback_encodings: tuple[str, ...] = DEFAULT_FALLBACK_ENCODINGS
    max_depth: int = DEFAULT_MAX_DEPTH


@lru_cache(maxsize=16)
def _classifier(options: ClassifierOptions) -> QuarkClassifier:
    return QuarkClassifier(options)


@lru_cache(maxsize=16)
def _compiled(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p) for p in patterns)


def clean_html(
    html: bytes | str,
    url: str | None = None,
    *,
    content_type: str | bytes | None = None,
    options: CleanOptions | None = None,
) -> CleanResult:
    """Clean one page: main text, title, language, and blocks with their labels.

    ``html`` may be bytes (decoded with the project's encoding policy, using the HTTP
    ``content_type`` header when given) or text. ``url`` makes links and image sources
    absolute. Raises :class:`scrapy_webclean.errors.CleanError` (with a ``reason``) when
    the input is empty or not HTML.
    """
    opts = options or CleanOptions()
    page = load_html(html, content_type, opts.fallback_encodings, opts.max_depth)
    model = build_page_model(page.root, url, opts.custom_tags, _compiled(opts.custom_patterns))
    segments = segment_page(model, opts.quark)
    texts = [segment_text(model, s) for s in segments]
    judgements = _classifier(opts.classifier).classify(model, segments, texts)

    blocks: list[Block] = []
    for index, (segment, text, judgement) in enumerate(
        zip(segments, texts, judgements, strict=False)
    ):
        blocks.append(
            Block(
                index=index,
                label=judgement.label,
                text=text,
                path=_node_path(model, segment.root),
                chars=segment.text_len,
                anchor_chars=segment.anchor_len,
                link_count=segment.link_count,
                punct_count=segment.punct_count,
                content_probability=round(judgement.content_probability, 4),
                similarity=round(judgement.similarity, 4),
                features=judgement.features,
                links=[Link(model.links[i].url, model.links[i].text) for i in segment.links],
                images=[_image(model, i) for i in segment.images],
            )
        )

    title = pick_title(model)
    content = [b.text for b in blocks if b.label is BlockLabel.CONTENT and b.text]
    # The headline is its own (customised) block; it is reported in ``title`` only.
    if content and title and collapse_ws(content[0]).strip() == title:
        content = content[1:]
    text = "\n".join(content)
    lang = guess_language(text or " ".join(texts)[:4000])
    return CleanResult(
        url=url, title=title, text=text, lang=lang, encoding=page.decoded.encoding, blocks=blocks
    )


def _image(model: PageModel, position: int) -> Image:
    ref = model.images[position]
    return Image(ref.src, ref.alt, ref.title, ref.width, ref.height, ref.link)


def _node_path(model: PageModel, node: int) -> str:
    """A short CSS-like path to a node, e.g. ``body>div#main>div.article``."""
    parts: list[str] = []
    while node > 0:
        element = model.elements[node]
        part = model.tags[node] or "?"
        element_id = element.get("id")
        classes = (element.get("class") or "").split()
        if element_id:
            part += "#" + element_id.strip()
        elif classes:
            part += "." + classes[0]
        parts.append(part)
        node = model.parents[node]
    return ">".join(reversed(parts)) or model.tags[0]


def _element_text(element: etree._Element) -> str:
    return collapse_ws(element.xpath("string()")).strip()


def pick_title(model: PageModel) -> str:
    """The page's headline: an ``<h1>`` that the ``<title>`` confirms, else the ``<title>``
    (or ``og:title``) with its site-name part cut off."""
    title_tag = model.meta_title or model.title
    headings = [
        _element_text(model.elements[i])
        for i, tag in enumerate(model.tags)
        if tag == "h1" and model.visible[i]
    ]
    headings = [h for h in headings if h]
    for heading in headings:
        if title_tag and (heading in title_tag or title_tag in heading):
            return heading
    if title_tag:
        parts = [p.strip() for p in _TITLE_SEPARATORS_RE.split(title_tag) if p.strip()]
        if parts:
            return max(parts, key=len)
    return headings[0] if headings else ""
