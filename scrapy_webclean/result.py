"""What cleaning a page returns: plain dataclasses, JSON-ready through ``to_dict``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from scrapy_webclean.segmentation.classify import BlockLabel

LABELS: tuple[str, ...] = tuple(label.value for label in BlockLabel)


@dataclass(slots=True)
class Link:
    """A hyperlink: absolute URL and anchor text."""

    url: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        """The fields as a dict (what ``dataclasses.asdict`` gives, at a fraction of its
        cost: every item holds a page's links)."""
        return {"url": self.url, "text": self.text}


@dataclass(slots=True)
class Image:
    """An image reference as written on the page (sizes in CSS pixels when given)."""

    src: str
    alt: str = ""
    title: str = ""
    width: int | None = None
    height: int | None = None
    link: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The fields as a dict (what ``dataclasses.asdict`` gives, at a fraction of its
        cost)."""
        return {
            "src": self.src,
            "alt": self.alt,
            "title": self.title,
            "width": self.width,
            "height": self.height,
            "link": self.link,
        }


@dataclass(slots=True)
class Comment:
    """A reader comment under the article (``CleanOptions(include_comments=True)``): its
    author's name and date when the page shows them ("" and None when not), its text."""

    author: str
    date: str | None
    text: str

    def to_dict(self) -> dict[str, Any]:
        """The fields as a dict."""
        return {"author": self.author, "date": self.date, "text": self.text}


@dataclass(slots=True)
class Block:
    """One block of the page with its label and the signals that decided it.

    ``chars``/``anchor_chars`` are character counts; ``content_probability`` is the naive
    Bayes posterior (0-1); ``similarity`` is the token overlap with the longest block (0-1),
    computed with ``CleanOptions(explain=True)`` only (0 otherwise).
    """

    index: int
    label: BlockLabel
    text: str
    path: str
    chars: int
    anchor_chars: int
    link_count: int
    punct_count: int
    content_probability: float
    similarity: float
    features: dict[str, bool] = field(default_factory=dict)
    links: list[Link] = field(default_factory=list)
    images: list[Image] = field(default_factory=list)
    #: The block's root element: its index in document order in the page model.
    node: int = -1

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["label"] = self.label.value
        return data


@dataclass(slots=True)
class CleanResult:
    """A cleaned page.

    ``text`` is the main content as plain text, paragraphs separated by newlines (the title
    is in ``title``, not repeated in ``text``); ``lang`` is an ISO 639-1 code or "und";
    ``encoding`` is the codec the page was decoded with; ``page_type`` is "article" (one
    main text), "forum" (a thread: posts with their authors and dates), "listing" (a hub,
    list or collection page: its items are the text) or "other" (no main content, or only
    a few short lines of it);
    ``date`` is the publication date the page shows (``YYYY-MM-DD``) or None, and
    ``date_modified`` the date it was last changed.

    The page's metadata, each None (or an empty list) when the page does not give it:
    ``author`` (the names of its authors), ``sitename``, ``description``, ``categories`` and
    ``tags``, ``image`` (the lead image's absolute URL), ``canonical_url`` and ``license``.
    ``comments`` are the reader comments (a list, with
    ``CleanOptions(include_comments=True)``; None otherwise), never part of ``text``.
    ``text_source`` says where ``text`` came from: ``"html"`` (the page's markup), or the
    structured data of a page whose markup carries little of its text (``"json-ld"``,
    ``"next-data"``, ``"nuxt-data"``, ``"json"``).

    ``blocks`` are built on first access (segmenting and classifying a page costs about a
    fifth of cleaning it, and a caller that wants the text only does not pay for it); until
    then the result keeps a reference to the parsed page.
    """

    url: str | None
    title: str
    text: str
    lang: str
    encoding: str
    page_type: str = "article"
    date: str | None = None
    built_blocks: list[Block] | None = field(default=None, repr=False)
    block_builder: Callable[[], list[Block]] | None = field(default=None, repr=False, compare=False)
    built_markdown: str | None = field(default=None, repr=False)
    #: The parsed page (``PageModel``) the result came from, kept for reports
    #: (``scrapy_webclean.report``); None when not kept.
    page_model: Any = field(default=None, repr=False, compare=False)
    markdown_builder: Callable[[], str] | None = field(default=None, repr=False, compare=False)
    #: The page-model nodes of the lines kept as text (with ``page_model``, for reports).
    kept_nodes: tuple[int, ...] = field(default=(), repr=False, compare=False)
    date_modified: str | None = None
    author: list[str] = field(default_factory=list)
    sitename: str | None = None
    description: str | None = None
    categories: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    image: str | None = None
    canonical_url: str | None = None
    license: str | None = None
    comments: list[Comment] | None = None
    text_source: str = "html"
    built_html: str | None = field(default=None, repr=False)
    html_builder: Callable[[], str] | None = field(default=None, repr=False, compare=False)

    @property
    def markdown(self) -> str:
        """The main content as Markdown: the headline as ``#``, then headings,
        paragraphs, lists, tables, quotes, code, emphasis and links (absolute URLs), and
        nothing of the noise (built on first access)."""
        if self.built_markdown is None:
            builder, self.markdown_builder = self.markdown_builder, None
            self.built_markdown = builder() if builder is not None else ""
        return self.built_markdown

    @property
    def html(self) -> str:
        """The main content as minimal, safe HTML: the headline as ``<h1>``, then headings,
        paragraphs, lists, tables, quotes and code, with no attribute but ``href``, ``src``
        and ``alt`` (built on first access)."""
        if self.built_html is None:
            builder, self.html_builder = self.html_builder, None
            self.built_html = builder() if builder is not None else ""
        return self.built_html

    @property
    def blocks(self) -> list[Block]:
        """The page's blocks in reading order, with their labels (built on first access)."""
        if self.built_blocks is None:
            builder, self.block_builder = self.block_builder, None
            self.built_blocks = builder() if builder is not None else []
        return self.built_blocks

    def links_by_label(self) -> dict[str, list[Link]]:
        """Links grouped by the label of the block they sit in."""
        grouped: dict[str, list[Link]] = {label: [] for label in LABELS}
        for block in self.blocks:
            grouped[block.label.value].extend(block.links)
        return grouped

    def images_by_label(self) -> dict[str, list[Image]]:
        """Images grouped by the label of the block they sit in."""
        grouped: dict[str, list[Image]] = {label: [] for label in LABELS}
        for block in self.blocks:
            grouped[block.label.value].extend(block.images)
        return grouped

    def to_dict(
        self,
        include_blocks: bool = False,
        include_markdown: bool = False,
        include_html: bool = False,
    ) -> dict[str, Any]:
        """A JSON-ready dict: title, text, lang, encoding, page type, the metadata, links
        and images by label, the comments when they were asked for (and the blocks, the
        Markdown, the HTML, when asked)."""
        data: dict[str, Any] = {
            "url": self.url,
            "title": self.title,
            "text": self.text,
            "lang": self.lang,
            "encoding": self.encoding,
            "page_type": self.page_type,
            "date": self.date,
            "date_modified": self.date_modified,
            "author": list(self.author),
            "sitename": self.sitename,
            "description": self.description,
            "categories": list(self.categories),
            "tags": list(self.tags),
            "image": self.image,
            "canonical_url": self.canonical_url,
            "license": self.license,
            "text_source": self.text_source,
            "links": {k: [v.to_dict() for v in vs] for k, vs in self.links_by_label().items()},
            "images": {k: [v.to_dict() for v in vs] for k, vs in self.images_by_label().items()},
        }
        if include_blocks:
            data["blocks"] = [block.to_dict() for block in self.blocks]
        if self.comments is not None:
            data["comments"] = [comment.to_dict() for comment in self.comments]
        if include_markdown:
            data["markdown"] = self.markdown
        if include_html:
            data["html"] = self.html
        return data
