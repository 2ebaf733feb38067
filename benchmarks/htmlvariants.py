"""A dev set of English HTML near-duplicate variants, made from real article pages with a
fixed seed, for ``benchmarks/dedup_html.py`` (issue 22).

Articles: pages of the WCXB dev set (``page_type == "article"`` only), scrapinghub and
dragnet-gold (``benchmarks/datasets.py``) whose cleaned text has at least
:data:`MIN_TEXT_CHARS` characters, at most :data:`MAX_PER_SITE` of a site. A page whose
ground-truth text shares more than :data:`SOURCE_OVERLAP_MAX` of its word 5-grams with an
earlier page of the pool (one story in two sets, a wire story on two sites) is left out, so
that two originals are never copies of each other. :data:`TOPIC_PAIRS` pairs of articles on
one topic (the highest TF-IDF cosine of their cleaned texts, different sites) are taken
first, the rest at random.

Each article is one cluster: its original page and, edited in the HTML with lxml (never in
the text), one variant of each kind of :data:`KINDS` that the page allows:

* ``timestamp``: one date of the page (the first in a short text line, else a ``<time>``,
  else a date ``<meta>``) moved by 1-400 days, in its own format, wherever that date
  stands on the page (lines, ``<time>``, metas);
* ``ad_block``: a ``<div class="ad-slot">`` with a banner ``<img>``, "Advertisement" and a
  "Sponsored: ..." line, after the article's second paragraph;
* ``url_only``: the original bytes under another URL of the site (a tracking query, an
  ``amp`` or ``print`` path);
* ``minor_edit``: one word changed (a synonym, or a number) in each of 3-5 article
  paragraphs;
* ``boilerplate``: the page's navigation, header and footer elements (``<nav>``,
  ``<header>``, ``<footer>``, ids and classes naming nav, menu, header, footer or masthead;
  none holding article text or the headline) replaced by those of an article of another
  site;
* ``content_swap``: the article's blocks (paragraphs, subheads, list items, quotes matching
  its ground truth) and headline replaced by those of another article (of the same site half
  the time when the site has one): the variant carries that article's body in this page's
  template, and its cluster is *that* article's.

Article blocks are the ``p``, ``h2``-``h6``, ``li``, ``blockquote``, ``pre`` elements of at
least :data:`MIN_BLOCK_WORDS` words of which :data:`BLOCK_TRUTH_SHARE` of the word 4-grams
are in the page's ground truth. A variant is checked against the truths (never against our
cleaner): a swap must leave at most :data:`SWAP_LEFTOVER_MAX` of the template article's truth
and carry :data:`SWAP_DONOR_MIN` of the donor's, a boilerplate swap must keep
:data:`KEEP_TRUTH_MIN` of the article's; a page that allows no variant of a kind (no date,
no navigation, too few paragraphs) is skipped for that kind, and counted.

Variants other than ``url_only`` are the edited tree serialised by lxml, UTF-8 with a byte
order mark (the page was decoded with the project's encoding policy first, so the bytes
read as the same text). Nothing is written to disk.
"""

from __future__ import annotations

import copy
import datetime as dt
import math
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import lxml.html
import numpy as np
from lxml import etree
from scipy import sparse

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from datasets import Dataset, Page

from scrapy_webclean.html.encoding import decode_html
from scrapy_webclean.text.language import guess_language

#: The variant kinds, in the order the tables show them.
KINDS = ("timestamp", "ad_block", "url_only", "minor_edit", "boilerplate", "content_swap")
ORIGINAL = "original"
#: The sorts of each kind, reported apart.
DETAILS = {
    "timestamp": ("a date line changed", "date metas only"),
    "ad_block": ("ad line with a figure", "ad line without figures"),
    "url_only": ("tracking query", "amp path", "print path"),
    "minor_edit": ("a number changed", "words only"),
    "boilerplate": ("",),
    "content_swap": ("donor of the same site", "donor of another site"),
}
SEED = 13
DEFAULT_ARTICLES = 300
#: Sets the articles come from (WCXB: article pages only).
SETS = ("wcxb-dev", "scrapinghub", "dragnet-gold")
MIN_TEXT_CHARS = 400
MAX_PER_SITE = 4
#: Pairs of articles on one topic (hard negatives), taken first ...
TOPIC_PAIRS = 40
#: ... when their TF-IDF cosine is at least this.
TOPIC_MIN_COSINE = 0.2
#: Terms in more than this share of the pool's texts carry no topic.
TOPIC_MAX_DF = 0.1
#: A pool page whose truth shares more than this share of its word 5-grams with an earlier
#: page's truth (of the page with fewer) is left out: one story twice.
SOURCE_OVERLAP_MAX = 0.3
#: An element is an article block when it has at least this many words ...
MIN_BLOCK_WORDS = 6
#: ... of which this share of the word 4-grams are in the page's truth.
BLOCK_TRUTH_SHARE = 0.7
BLOCK_TAGS = frozenset(("p", "h2", "h3", "h4", "h5", "h6", "li", "blockquote", "pre"))
#: A content swap leaves at most this share of the template article's truth 4-grams ...
SWAP_LEFTOVER_MAX = 0.2
#: ... and carries at least this share of the donor's.
SWAP_DONOR_MIN = 0.6
#: Donors tried for a content swap or a boilerplate swap.
DONOR_TRIES = 6
#: A boilerplate swap keeps at least this share of the article's truth 4-grams.
KEEP_TRUTH_MIN = 0.8
#: Words changed by a minor edit (one per paragraph), and the paragraphs' least length.
EDITS_MIN, EDITS_MAX = 3, 5
EDIT_MIN_WORDS = 8
#: A timestamp moves by this many days, either way.
DATE_SHIFT_DAYS = (1, 400)
#: A date line: a text whose element holds at most this many characters.
DATE_LINE_CHARS = 200
SAME_SITE_SWAP_SHARE = 0.5
#: The article's region: the deepest element that holds this share of its blocks' text
#: (navigation and headers inside it are the article's own, never swapped).
REGION_SHARE = 0.8
#: Articles in this language only (``guess_language`` of the cleaned text).
LANGUAGE = "en"

FURNITURE_RE = re.compile(r"nav|menu|header|footer|masthead", re.I)
FOOTER_RE = re.compile(r"foot", re.I)
FURNITURE_TAGS = frozenset(("nav", "header", "footer"))
SKIPPED_TAGS = frozenset(("script", "style", "noscript", "template"))
DATE_META_RE = re.compile(r"(published|modified|updated|date|time)", re.I)
XML_DECLARATION_RE = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)
WORD_RE = re.compile(r"\w+")
BOM = "\ufeff"

MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH = (
    r"(?P<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_YEAR = r"(?P<year>(?:19|20)\d\d)"
DATE_RES = (
    re.compile(rf"\b{_MONTH}\.?\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+{_YEAR}\b", re.I),
    re.compile(rf"\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+{_MONTH}\.?,?\s+{_YEAR}\b", re.I),
    re.compile(rf"\b{_YEAR}-(?P<mnum>\d\d)-(?P<day>\d\d)\b"),
    re.compile(rf"\b{_YEAR}/(?P<mnum>\d\d)/(?P<day>\d\d)\b"),
    re.compile(rf"\b(?P<mnum>\d{{1,2}})/(?P<day>\d{{1,2}})/{_YEAR}\b"),
)

#: One-word replacements of a minor edit (both ways where it reads).
SYNONYMS = {
    "said": "stated",
    "says": "states",
    "told": "informed",
    "big": "large",
    "large": "big",
    "small": "little",
    "new": "recent",
    "many": "numerous",
    "people": "individuals",
    "help": "assist",
    "show": "display",
    "shows": "displays",
    "start": "begin",
    "started": "began",
    "make": "create",
    "made": "created",
    "important": "significant",
    "get": "obtain",
    "buy": "purchase",
    "use": "employ",
    "used": "employed",
    "need": "require",
    "think": "believe",
    "often": "frequently",
    "quickly": "rapidly",
    "very": "really",
    "about": "around",
    "after": "following",
    "company": "firm",
    "companies": "firms",
    "city": "town",
    "because": "since",
    "but": "yet",
    "first": "initial",
    "last": "final",
    "major": "key",
    "best": "finest",
    "good": "fine",
    "great": "terrific",
    "hard": "difficult",
    "whole": "entire",
    "almost": "nearly",
    "maybe": "perhaps",
    "home": "house",
    "children": "kids",
    "job": "position",
    "problem": "issue",
    "problems": "issues",
    "report": "study",
    "reports": "studies",
    "week": "fortnight",
    "month": "quarter",
    "increase": "rise",
    "decline": "drop",
}
SYNONYM_RE = re.compile(r"\b(" + "|".join(SYNONYMS) + r")\b", re.I)
NUMBER_RE = re.compile(r"(?<![\d.,/:-])\d{1,4}(?![\d/:])")

AD_SIZES = ((728, 90), (300, 250), (468, 60), (970, 250))
AD_LINES = (
    "Sponsored: Compare this year's best mortgage rates in two minutes.",
    "Sponsored: The one gadget every home office needs - now 40% off.",
    "Sponsored: Doctors are stunned by this simple morning routine.",
    "Sponsored: Book your summer getaway today and save up to 30%.",
    "Sponsored: Learn a new language in 15 minutes a day. Try it free.",
)
URL_TAILS = ("query", "amp", "print")
_STOPWORD_LIST = (
    "the and for that with this from have has had was were are not but they their there "
    "will would can could been which when what who whom where why how all any each more most "
    "other some such only own same than too very also just about after before into over under "
    "again then once here his her hers him she our ours you your yours its it's itself them "
    "these those being did does doing out off down said says one two new year years time "
    "people like get got make made many much may might must shall should now even well back "
    "first last mr mrs ms per because while still since between through during"
)
STOPWORDS = frozenset(_STOPWORD_LIST.split())

Clean = Callable[[bytes, "str | None"], str]


@dataclass(slots=True)
class Article:
    """A page taken as an original: its cluster number, page and cleaned text."""

    cluster: int
    page: Page
    text: str


@dataclass(slots=True)
class DevDoc:
    """A document of the dev set. ``cluster``: the article whose text it carries;
    ``template``: the article whose page was edited (differs for a content swap);
    ``site``: the site whose template it shows."""

    key: str
    cluster: int
    kind: str
    url: str | None
    html: bytes = field(repr=False)
    site: str
    template: int
    note: str = ""
    #: The variant's sort within its kind (see :data:`DETAILS`), "" for an original.
    detail: str = ""


@dataclass(slots=True, frozen=True)
class Edit:
    """What an edit did (``note``, free text) and its sort (one of :data:`DETAILS`)."""

    note: str
    detail: str


@dataclass(slots=True, frozen=True)
class Variant:
    """A page made by an edit: its bytes, URL and cluster (the article whose text it
    carries)."""

    html: bytes
    url: str | None
    cluster: int
    edit: Edit


@dataclass(slots=True)
class DevSet:
    """The originals (``articles``, by cluster), every page (``docs``: originals and
    variants, article by article) and what the report needs to know about them."""

    articles: list[Article]
    docs: list[DevDoc]
    #: (cluster, cluster, TF-IDF cosine), two articles on one topic.
    topic_pairs: list[tuple[int, int, float]]
    #: kind -> articles that allowed no variant of it.
    skips: Counter[str]
    #: Counts worth a line in the report (the pool, the selection).
    notes: dict[str, int]


# -- text helpers ---------------------------------------------------------------------------


def words(text: str) -> list[str]:
    return WORD_RE.findall(text.lower())


def shingles(text: str, n: int = 4) -> set[int]:
    """Hashes of the word n-grams of ``text`` (lower-cased)."""
    tokens = words(text)
    return {hash(tuple(tokens[i : i + n])) for i in range(max(1, len(tokens) - n + 1))}


def share_in(part: set[int], whole: set[int]) -> float:
    return len(part & whole) / len(part) if part else 0.0


# -- HTML helpers ---------------------------------------------------------------------------


def parse(html: bytes) -> lxml.html.HtmlElement:
    """The page decoded as the cleaner decodes it, parsed by lxml."""
    text = XML_DECLARATION_RE.sub("", decode_html(html).text, count=1).replace("\x00", "")
    return lxml.html.document_fromstring(text)


def serialize(root: lxml.html.HtmlElement) -> bytes:
    doctype = root.getroottree().docinfo.doctype
    markup: str = lxml.html.tostring(root, encoding="unicode", doctype=doctype or None)
    return (BOM + markup).encode("utf-8")


def element_text(el: etree._Element) -> str:
    return " ".join(el.text_content().split())


def body_of(root: lxml.html.HtmlElement) -> lxml.html.HtmlElement:
    body = root.find("body")
    return body if body is not None else root


def is_skipped(el: etree._Element) -> bool:
    return not isinstance(el.tag, str) or any(
        a.tag in SKIPPED_TAGS for a in (el, *el.iterancestors())
    )


@dataclass(slots=True)
class Anatomy:
    """Where an article's parts are in its tree, as positions in ``root.iter()`` order (so
    that they can be found again in a copy of the tree)."""

    blocks: list[int]
    paragraphs: list[int]
    furniture: list[int]
    headline: int | None
    truth: set[int]
    donor_share: float  # share of the truth's 4-grams its blocks hold


def anatomy(root: lxml.html.HtmlElement, truth: str) -> Anatomy:
    grams = shingles(truth)
    elements = list(root.iter())
    position = {el: i for i, el in enumerate(elements)}
    blocks: list[int] = []
    taken: set[etree._Element] = set()
    held: set[int] = set()
    for el in elements:
        if not isinstance(el.tag, str) or el.tag not in BLOCK_TAGS:
            continue
        if any(a in taken for a in el.iterancestors()) or is_skipped(el):
            continue
        text = element_text(el)
        if len(words(text)) < MIN_BLOCK_WORDS:
            continue
        own = shingles(text)
        if share_in(own, grams) >= BLOCK_TRUTH_SHARE:
            blocks.append(position[el])
            taken.add(el)
            held |= own & grams
    headline = _headline(root)
    furniture = _furniture(root, [elements[i] for i in blocks], headline)
    return Anatomy(
        blocks=blocks,
        paragraphs=[i for i in blocks if elements[i].tag == "p"],
        furniture=[position[el] for el in furniture],
        headline=position[headline] if headline is not None else None,
        truth=grams,
        donor_share=len(held) / len(grams) if grams else 0.0,
    )


def _headline(root: lxml.html.HtmlElement) -> etree._Element | None:
    """The ``h1`` that shares most words with the ``<title>`` (at least one), else the only
    ``h1``."""
    title = root.find(".//title")
    title_words = set(words(title.text_content())) if title is not None else set()
    heads = [h for h in root.iter("h1") if words(h.text_content())]
    if not heads:
        return None
    scored = [(len(set(words(h.text_content())) & title_words), -i, h) for i, h in enumerate(heads)]
    best = max(scored, key=lambda s: (s[0], s[1]))
    return best[2] if best[0] > 0 or len(heads) == 1 else None


def _region(blocks: Sequence[etree._Element]) -> etree._Element | None:
    """The deepest element that holds :data:`REGION_SHARE` of the article blocks' text."""
    sizes: Counter[etree._Element] = Counter()
    total = 0
    for block in blocks:
        size = len(element_text(block))
        total += size
        for ancestor in block.iterancestors():
            sizes[ancestor] += size
    held = [el for el, size in sizes.items() if size >= REGION_SHARE * total]
    return max(held, key=lambda el: sum(1 for _ in el.iterancestors()), default=None)


def _furniture(
    root: lxml.html.HtmlElement, blocks: Sequence[etree._Element], headline: etree._Element | None
) -> list[etree._Element]:
    """The top-most navigation, header and footer elements outside the article's region
    that hold no article block and not the headline."""
    protected = set(blocks)
    if headline is not None:
        protected.add(headline)
    region = _region(blocks)
    if region is not None:
        protected.add(region)
    # Elements that hold a protected one, or sit inside one, are never furniture.
    holding: set[etree._Element] = set()
    for el in protected:
        holding.update(el.iterancestors())
    found: list[etree._Element] = []
    chosen: set[etree._Element] = set()
    for el in body_of(root).iterdescendants():
        if not isinstance(el.tag, str) or el in holding or el.tag in SKIPPED_TAGS:
            continue
        names = f"{el.get('id', '')} {el.get('class', '')}"
        if el.tag not in FURNITURE_TAGS and not FURNITURE_RE.search(names):
            continue
        if any(a in chosen or a in protected for a in el.iterancestors()):
            continue
        found.append(el)
        chosen.add(el)
    return found


def is_footer(el: etree._Element) -> bool:
    return el.tag == "footer" or bool(FOOTER_RE.search(f"{el.get('id', '')} {el.get('class', '')}"))


def drop(el: etree._Element) -> None:
    """Remove an element, keeping its tail text."""
    if isinstance(el, lxml.html.HtmlElement):
        el.drop_tree()
    else:
        parent = el.getparent()
        if parent is not None:
            parent.remove(el)


# -- dates ----------------------------------------------------------------------------------


def _date_of(match: re.Match[str]) -> dt.date | None:
    groups = match.groupdict()
    try:
        year, day = int(groups["year"]), int(groups["day"])
        if groups.get("month"):
            month = 1 + next(
                i for i, m in enumerate(MONTHS) if m.startswith(groups["month"][:3].lower())
            )
        else:
            month = int(groups["mnum"])
        if groups.get("mnum") and month > 12 and day <= 12:  # d/m/Y
            month, day = day, month
        return dt.date(year, month, day)
    except (ValueError, StopIteration):
        return None


def _month_name(original: str, month: int) -> str:
    full = MONTHS[month - 1]
    name = full if original.lower() in MONTHS else full[:3]
    if original.isupper() and len(original) > 1:
        return name.upper()
    return name.capitalize() if original[:1].isupper() else name


def _redate(match: re.Match[str], new: dt.date) -> str:
    """The matched date written as ``new`` in the same format."""
    groups = match.groupdict()
    # A numeric date whose month field is over 12 is day first (see _date_of).
    day_first = groups.get("mnum") is not None and int(groups["mnum"]) > 12
    values = {
        "year": str(new.year),
        "day": str(new.month if day_first else new.day),
        "mnum": str(new.day if day_first else new.month),
    }
    text, start = match.group(0), match.start()
    spans = []
    for name, original in groups.items():
        if original is None:
            continue
        if name == "month":
            value = _month_name(original, new.month)
        else:
            value = values[name].zfill(len(original))
        spans.append((match.start(name) - start, match.end(name) - start, value))
    for begin, end, value in sorted(spans, reverse=True):
        text = text[:begin] + value + text[end:]
    return text


def _find_dates(text: str) -> list[tuple[re.Match[str], dt.date]]:
    """The dates in ``text``, in order, none overlapping another (the first pattern wins)."""
    found: list[tuple[re.Match[str], dt.date]] = []
    for pattern in DATE_RES:
        for match in pattern.finditer(text):
            date = _date_of(match)
            overlaps = any(match.start() < m.end() and m.start() < match.end() for m, _ in found)
            if date is not None and not overlaps:
                found.append((match, date))
    return sorted(found, key=lambda m: m[0].start())


def _replace_date(text: str, old: dt.date, new: dt.date) -> tuple[str, int]:
    """``text`` with every date equal to ``old`` written as ``new``; and how many."""
    count = 0
    for match, date in reversed(_find_dates(text)):
        if date == old:
            text = text[: match.start()] + _redate(match, new) + text[match.end() :]
            count += 1
    return text, count


def _text_slots(
    root: lxml.html.HtmlElement,
) -> Iterable[tuple[etree._Element, str, etree._Element]]:
    """(element, "text" or "tail", the element the text belongs to) for the body's text
    nodes, in document order, outside scripts and styles."""
    for el in body_of(root).iter():
        if not isinstance(el.tag, str) or el.tag in SKIPPED_TAGS or is_skipped(el):
            continue
        if el.text:
            yield el, "text", el
        parent = el.getparent()
        if el.tail and parent is not None:
            yield el, "tail", parent


def _date_metas(root: lxml.html.HtmlElement) -> list[etree._Element]:
    metas = []
    for meta in root.iter("meta"):
        name = meta.get("property") or meta.get("name") or meta.get("itemprop") or ""
        if DATE_META_RE.search(name) and meta.get("content"):
            metas.append(meta)
    return metas


def redate_page(root: lxml.html.HtmlElement, rng: random.Random) -> Edit | None:
    """Move the page's first date (a short line's, else a ``<time>``'s, else a date meta's)
    wherever it stands; None when the page has no date."""
    lines = [
        (el, slot)
        for el, slot, owner in _text_slots(root)
        if len(element_text(owner)) <= DATE_LINE_CHARS
    ]
    times = list(root.iter("time"))
    metas = _date_metas(root)
    target: dt.date | None = None
    for el, slot in lines:
        found = _find_dates(getattr(el, slot))
        if found:
            target = found[0][1]
            break
    if target is None:
        for holder in [*times, *metas]:
            for value in (holder.get("datetime") or "", holder.get("content") or ""):
                found = _find_dates(value)
                if found:
                    target = found[0][1]
                    break
            if target is not None:
                break
    if target is None:
        return None
    shift = rng.randint(*DATE_SHIFT_DAYS) * rng.choice((-1, 1))
    new = target + dt.timedelta(days=shift)
    visible = 0
    for el, slot in lines:
        text, count = _replace_date(getattr(el, slot), target, new)
        if count:
            setattr(el, slot, text)
            visible += count
    for holder in [*times, *metas]:
        for attribute in ("datetime", "content"):
            value = holder.get(attribute)
            if value:
                holder.set(attribute, _replace_date(value, target, new)[0])
    detail = DETAILS["timestamp"][0 if visible else 1]
    return Edit(f"{target} -> {new}, {visible} in text", detail)


# -- the variants ---------------------------------------------------------------------------


@dataclass(slots=True)
class Source:
    """An article ready to be edited: its parsed tree (never edited itself) and anatomy."""

    article: Article
    root: lxml.html.HtmlElement
    parts: Anatomy

    def copy(self) -> lxml.html.HtmlElement:
        """A copy of the tree, to edit (positions in ``iter()`` order are the same)."""
        return copy.deepcopy(self.root)


def ad_block(root: lxml.html.HtmlElement, src: Source, rng: random.Random) -> Edit | None:
    if not src.parts.paragraphs:
        return None
    elements = list(root.iter())
    after = elements[src.parts.paragraphs[min(1, len(src.parts.paragraphs) - 1)]]
    width, height = rng.choice(AD_SIZES)
    creative = rng.randrange(10**5, 10**6)
    line = rng.choice(AD_LINES)
    slot = lxml.html.fragment_fromstring(
        f'<div class="ad-slot ad-{width}x{height}" data-ad-unit="article-inline">'
        '<span class="ad-label">Advertisement</span>'
        f'<a href="https://click.adnetwork-example.com/c?cr={creative}" rel="sponsored nofollow">'
        f'<img src="https://cdn.adnetwork-example.com/creatives/{creative}/banner-{width}x{height}.jpg"'
        f' width="{width}" height="{height}" alt="Advertisement"></a>'
        f'<p class="ad-text">{line}</p></div>'
    )
    after.addnext(slot)
    detail = DETAILS["ad_block"][0 if any(c.isdigit() for c in line) else 1]
    return Edit(f"{width}x{height}: {line}", detail)


def minor_edit(root: lxml.html.HtmlElement, src: Source, rng: random.Random) -> Edit | None:
    elements = list(root.iter())
    paragraphs = [
        elements[i]
        for i in src.parts.paragraphs
        if len(words(element_text(elements[i]))) >= EDIT_MIN_WORDS
    ]
    rng.shuffle(paragraphs)
    wanted = rng.randint(EDITS_MIN, EDITS_MAX)
    edits: list[str] = []
    for paragraph in paragraphs:
        if len(edits) == wanted:
            break
        slots = [
            (el, slot)
            for el in paragraph.iter()
            if isinstance(el.tag, str)
            for slot in ("text", "tail")
            if (slot == "text" or el is not paragraph) and getattr(el, slot)
        ]
        options = [
            (el, slot, match)
            for el, slot in slots
            for pattern in (SYNONYM_RE, NUMBER_RE)
            for match in pattern.finditer(getattr(el, slot))
        ]
        if not options:
            continue
        el, slot, match = rng.choice(options)
        old = match.group(0)
        if old.isdigit():
            new = str(int(old) + rng.randint(1, 9))
        else:
            new = SYNONYMS[old.lower()]
            new = new.capitalize() if old[:1].isupper() else new
        text = getattr(el, slot)
        setattr(el, slot, text[: match.start()] + new + text[match.end() :])
        edits.append(f"{old}->{new}")
    if len(edits) < EDITS_MIN:
        return None
    numbers = any(edit.split("->")[0].isdigit() for edit in edits)
    return Edit(", ".join(edits), DETAILS["minor_edit"][0 if numbers else 1])


def other_url(url: str | None, rng: random.Random) -> Edit | None:
    """Another URL of the page's site (the note): a tracking query, or an amp or print path."""
    if not url:
        return None
    parts = urlsplit(url)
    which = rng.randrange(len(URL_TAILS))
    tail = URL_TAILS[which]
    if tail == "query":
        extra = "utm_source=newsletter&utm_medium=email&utm_campaign=daily"
        query = f"{parts.query}&{extra}" if parts.query else extra
        new = urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))
    else:
        path = parts.path.rstrip("/")
        new = urlunsplit((parts.scheme, parts.netloc, f"{path}/{tail}/", parts.query, ""))
    return Edit(new, DETAILS["url_only"][which])


def swap_boilerplate(root: lxml.html.HtmlElement, src: Source, donor: Source) -> Edit | None:
    if not src.parts.furniture or not donor.parts.furniture:
        return None
    elements = list(root.iter())
    donor_elements = list(donor.root.iter())
    for i in src.parts.furniture:
        drop(elements[i])
    body = body_of(root)
    tops = [copy.deepcopy(donor_elements[i]) for i in donor.parts.furniture]
    heads = [el for el in tops if not is_footer(el)]
    for offset, el in enumerate(heads):
        el.tail = None
        body.insert(offset, el)
    for el in tops:
        if is_footer(el):
            el.tail = None
            body.append(el)
    kept = share_in(src.parts.truth, shingles(body.text_content()))
    if kept < KEEP_TRUTH_MIN:
        return None
    site = donor.article.page.site
    return Edit(f"{len(src.parts.furniture)} -> {len(tops)} elements of {site}", "")


def swap_content(root: lxml.html.HtmlElement, src: Source, donor: Source) -> Edit | None:
    if not src.parts.blocks or not donor.parts.blocks:
        return None
    if donor.parts.donor_share < SWAP_DONOR_MIN:
        return None
    elements = list(root.iter())
    donor_elements = list(donor.root.iter())
    first = elements[src.parts.blocks[0]]
    marker = etree.Element("span")
    first.addprevious(marker)
    for i in src.parts.blocks:
        drop(elements[i])
    for i in donor.parts.blocks:
        el = copy.deepcopy(donor_elements[i])
        el.tail = "\n"
        marker.addprevious(el)
    drop(marker)
    if src.parts.headline is not None and donor.parts.headline is not None:
        head = elements[src.parts.headline]
        if head.getroottree().getroot() is root:  # (not inside a block dropped)
            for child in list(head):
                head.remove(child)
            head.text = element_text(donor_elements[donor.parts.headline])
    text = shingles(body_of(root).text_content())
    own = src.parts.truth - donor.parts.truth
    if (
        share_in(own, text) > SWAP_LEFTOVER_MAX
        or share_in(donor.parts.truth, text) < SWAP_DONOR_MIN
    ):
        return None
    same = donor.article.page.site == src.article.page.site
    detail = DETAILS["content_swap"][0 if same else 1]
    return Edit(f"body of {donor.article.page.set_name}:{donor.article.page.id}", detail)


# -- the set --------------------------------------------------------------------------------


def _pool(
    sets: Sequence[Dataset], clean: Clean, rng: random.Random
) -> tuple[list[Article], dict[str, int]]:
    """Every eligible page with its cleaned text, in a seeded random order, one copy of each
    story (see :data:`SOURCE_OVERLAP_MAX`)."""
    pages: list[Page] = [
        p
        for s in sets
        for p in s.pages
        if (p.set_name != "wcxb-dev" or p.page_type == "article") and p.has_truth
    ]
    rng.shuffle(pages)
    notes = {"pool pages": len(pages)}
    postings: dict[int, list[int]] = defaultdict(list)
    grams: list[set[int]] = []
    kept: list[Article] = []
    short = overlapping = foreign = 0
    for page in pages:
        own = shingles(page.truth or "", 5)
        shared: Counter[int] = Counter()
        for gram in own:
            for other in postings.get(gram, ()):
                shared[other] += 1
        if any(n > SOURCE_OVERLAP_MAX * min(len(own), len(grams[o])) for o, n in shared.items()):
            overlapping += 1
            continue
        text = clean(page.html, page.url)
        if len(text) < MIN_TEXT_CHARS:
            short += 1
            continue
        if guess_language(text) != LANGUAGE:
            foreign += 1
            continue
        number = len(grams)
        grams.append(own)
        for gram in own:
            postings[gram].append(number)
        kept.append(Article(-1, page, text))
    notes["pool: one story twice, left out"] = overlapping
    notes[f"pool: cleaned text under {MIN_TEXT_CHARS} chars, left out"] = short
    notes[f"pool: not in language {LANGUAGE!r}, left out"] = foreign
    notes["pool: eligible articles"] = len(kept)
    return kept, notes


def topic_pairs(pool: Sequence[Article]) -> list[tuple[int, int, float]]:
    """Pairs of pool positions by the TF-IDF cosine of their cleaned texts (content words of
    3+ letters, stop words left out, terms in 2 to :data:`TOPIC_MAX_DF` of the texts),
    highest first, of different sites, each article in one pair at most."""
    counts = [
        Counter(w for w in words(a.text) if len(w) > 2 and w.isalpha() and w not in STOPWORDS)
        for a in pool
    ]
    df: Counter[str] = Counter()
    for c in counts:
        df.update(c.keys())
    vocabulary = {
        w: n
        for n, w in enumerate(
            sorted(w for w, d in df.items() if 2 <= d <= TOPIC_MAX_DF * len(pool))
        )
    }
    rows, cols, values = [], [], []
    for i, c in enumerate(counts):
        for w, n in c.items():
            if w in vocabulary:
                rows.append(i)
                cols.append(vocabulary[w])
                values.append((1 + math.log(n)) * math.log(len(pool) / df[w]))
    matrix = sparse.csr_matrix((values, (rows, cols)), shape=(len(pool), len(vocabulary)))
    norms = np.sqrt(matrix.multiply(matrix).sum(axis=1)).A1
    matrix = sparse.diags(1 / np.maximum(norms, 1e-12)) @ matrix
    cosine = sparse.triu(matrix @ matrix.T, k=1).tocoo()
    order = sorted(
        zip(cosine.data, cosine.row, cosine.col, strict=True), key=lambda t: (-t[0], t[1], t[2])
    )
    pairs = []
    used: set[int] = set()
    for score, i, j in order:
        if score < TOPIC_MIN_COSINE:
            break
        if i in used or j in used or pool[i].page.site == pool[j].page.site:
            continue
        pairs.append((int(i), int(j), float(score)))
        used.update((int(i), int(j)))
    return pairs


def select_articles(
    pool: Sequence[Article], count: int
) -> tuple[list[Article], list[tuple[int, int, float]]]:
    """The topic pairs first (as many as :data:`TOPIC_PAIRS` within the site cap), then the
    pool in its order, at most :data:`MAX_PER_SITE` a site; clusters numbered in order."""
    per_site: Counter[str] = Counter()
    chosen: list[int] = []
    taken: set[int] = set()
    pairs: list[tuple[int, int, float]] = []
    for i, j, score in topic_pairs(pool):
        if len(pairs) == TOPIC_PAIRS or len(chosen) + 2 > count:
            break
        a, b = pool[i].page.site, pool[j].page.site
        if per_site[a] >= MAX_PER_SITE or per_site[b] >= MAX_PER_SITE:
            continue
        per_site.update((a, b))
        chosen += [i, j]
        taken.update((i, j))
        pairs.append((i, j, score))
    for i, article in enumerate(pool):
        if len(chosen) >= count:
            break
        if i in taken or per_site[article.page.site] >= MAX_PER_SITE:
            continue
        per_site[article.page.site] += 1
        chosen.append(i)
        taken.add(i)
    cluster_of = {i: c for c, i in enumerate(chosen)}
    articles = [Article(c, pool[i].page, pool[i].text) for c, i in enumerate(chosen)]
    return articles, [(cluster_of[i], cluster_of[j], score) for i, j, score in pairs]


def _pick(
    rng: random.Random, candidates: Sequence[Source], ok: Callable[[Source], bool]
) -> list[Source]:
    """Up to :data:`DONOR_TRIES` candidates that pass ``ok``, in a seeded random order."""
    order = list(candidates)
    rng.shuffle(order)
    return [c for c in order if ok(c)][:DONOR_TRIES]


def make_variant(
    kind: str, src: Source, sources: Sequence[Source], rng: random.Random
) -> Variant | None:
    """One variant of ``src``, or None when the page allows none of this kind."""
    page = src.article.page
    cluster = src.article.cluster
    if kind == "url_only":
        moved = other_url(page.url, rng)
        return Variant(page.html, moved.note, cluster, moved) if moved else None
    root = src.copy()
    edit: Edit | None = None
    if kind == "timestamp":
        edit = redate_page(root, rng)
    elif kind == "ad_block":
        edit = ad_block(root, src, rng)
    elif kind == "minor_edit":
        edit = minor_edit(root, src, rng)
    elif kind == "boilerplate":
        others = [d for d in sources if d.article.page.site != page.site]
        for donor in _pick(rng, others, lambda d: bool(d.parts.furniture)):
            edit = swap_boilerplate(root, src, donor)
            if edit is not None:
                break
            root = src.copy()
    elif kind == "content_swap":
        same = [d for d in sources if d is not src and d.article.page.site == page.site]
        others = [d for d in sources if d.article.page.site != page.site]
        donors = same if same and rng.random() < SAME_SITE_SWAP_SHARE else others
        for donor in _pick(rng, donors, lambda d: d.parts.donor_share >= SWAP_DONOR_MIN):
            edit = swap_content(root, src, donor)
            if edit is not None:
                cluster = donor.article.cluster
                break
            root = src.copy()
    else:
        raise ValueError(f"unknown variant kind {kind!r}")
    return None if edit is None else Variant(serialize(root), page.url, cluster, edit)


def build_dev_set(
    sets: Sequence[Dataset], clean: Clean, articles: int = DEFAULT_ARTICLES, seed: int = SEED
) -> DevSet:
    """The dev set: originals, their variants (see the module docstring), the topic pairs,
    the skips per kind."""
    rng = random.Random(seed)
    pool, notes = _pool(sets, clean, rng)
    chosen, pairs = select_articles(pool, articles)
    notes["articles"] = len(chosen)
    notes["sites"] = len({a.page.site for a in chosen})
    site_counts = Counter(a.page.site for a in chosen)
    notes["same-site article pairs"] = sum(n * (n - 1) // 2 for n in site_counts.values())
    for name in SETS:
        notes[f"articles from {name}"] = sum(a.page.set_name == name for a in chosen)
    sources = []
    for article in chosen:
        root = parse(article.page.html)
        sources.append(Source(article, root, anatomy(root, article.page.truth or "")))
    docs: list[DevDoc] = []
    skips: Counter[str] = Counter()
    for src in sources:
        page = src.article.page
        stem = f"{page.set_name}:{page.id}"
        original = Variant(page.html, page.url, src.article.cluster, Edit("", ""))
        variants: list[tuple[str, Variant | None]] = [(ORIGINAL, original)]
        variants += [(kind, make_variant(kind, src, sources, rng)) for kind in KINDS]
        for kind, made in variants:
            if made is None:
                skips[kind] += 1
                continue
            docs.append(
                DevDoc(
                    f"{kind}:{stem}",
                    made.cluster,
                    kind,
                    made.url,
                    made.html,
                    page.site,
                    src.article.cluster,
                    made.edit.note,
                    made.edit.detail,
                )
            )
    return DevSet(chosen, docs, pairs, skips, notes)
