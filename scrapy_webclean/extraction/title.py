"""The page's headline (:func:`pick_title`) and the names a page gives its site: its
``og:site_name`` and the like, its host's labels, the alt text of its logo. A ``<title>``
part or an ``<h1>`` that names the site is not the headline, and a page whose every kept
line opens with the site's name shows a header's slogan, not content
(:func:`drop_site_slogans`).
"""

from __future__ import annotations

import re

from lxml import etree

from scrapy_webclean.extraction.extract import Extraction
from scrapy_webclean.html.pagemodel import PageModel, UrlResolver, climb, collapse_ws
from scrapy_webclean.segmentation.classify import text_units
from scrapy_webclean.urls import host_of, is_site_root

# (A match starts only where a whitespace run starts, so a long run is scanned once. A
# spaced slash separates, "Topic / Forum / Site", but not between numbers: "2026 / 2027".)
TITLE_SEPARATORS_RE = re.compile(
    r"(?<!\s)\s+[-|–—·:]\s+|(?<![\s\d])\s+/\s+|(?<=\d)\s+/\s+(?!\d)|(?<!\s)\s*[_｜|—–]\s*"
)


#: Elements a title is not read from: ruby annotations, scripts, styles and the labels
#: of buttons (a heading's "Copy item path").
NOT_TITLE_TEXT_TAGS = frozenset(("rt", "rp", "script", "style", "button"))
#: A heading's text is read up to this many characters (raw, before whitespace is
#: collapsed; each element counts one): a title is a line, and headings nested in
#: headings would each read all the page below them. (The longest ``<h1>`` of the
#: extraction sets' 2,532 pages is 488.)
HEADING_TEXT_MAX_CHARS = 5_000


#: What a heading's permalink anchor shows after its text: a pilcrow ("Models¶") or an
#: icon font's glyph (Unicode's private use area, U+E000-U+F8FF). (Not a hash: "C#".)
PILCROW = "\u00b6"
_PRIVATE_USE_FIRST, _PRIVATE_USE_LAST = "\ue000", "\uf8ff"


def strip_permalink_marks(text: str) -> str:
    """``text`` without the whitespace, pilcrows and private-use glyphs it ends with: one
    pass from the end, in the length of what is stripped. (A pattern ending in ``+$`` is
    tried from every character of a long run, in its square.)"""
    end = len(text)
    while end:
        char = text[end - 1]
        if not (
            char.isspace() or char == PILCROW or _PRIVATE_USE_FIRST <= char <= _PRIVATE_USE_LAST
        ):
            break
        end -= 1
    return text[:end]


#: Class words of a label a forum puts before a thread's title inside its heading
#: (XenForo's ``<span class="label">News</span>``, a badge, a prefix, a tag).
_LABEL_CLASS_RE = re.compile(r"(?<![a-z0-9])(?:label|badge|prefix|tag)(?![a-z0-9])", re.I)


#: Words a heading may open with to say what follows is the title ("Thread: How do
#: I...", vBulletin's thread heading; "Title: ..." of a paper's abstract page).
TITLE_LABEL_WORDS = ("thread", "topic", "title", "subject")
_LABEL_WORD_RE = re.compile(rf"^(?:{'|'.join(TITLE_LABEL_WORDS)})\s*:\s*", re.I)


def _leading_label(element: etree._Element) -> etree._Element | None:
    """The heading's first child when it comes before any text and its class names a
    label (:data:`_LABEL_CLASS_RE`), else None."""
    if (element.text or "").strip() or not len(element):
        return None
    first = element[0]
    if not isinstance(first.tag, str) or not _LABEL_CLASS_RE.search(first.get("class") or ""):
        return None
    return first


def _text_pieces(element: etree._Element) -> list[tuple[str, etree._Element | None]]:
    """The text of ``element`` (its own and its descendants', not its tail) outside the
    :data:`NOT_TITLE_TEXT_TAGS` below it, each piece with the element that holds it (a
    tail is its element's parent's text), in document order, until
    :data:`HEADING_TEXT_MAX_CHARS` characters and elements are read. One walk: an ``ancestor::`` test per text
    node cost the element's depth per piece."""
    pieces: list[tuple[str, etree._Element | None]] = []
    size = 0
    walker = etree.iterwalk(element, events=("start", "end"))
    for event, node in walker:
        if event == "start":
            size += 1
            if node.tag in NOT_TITLE_TEXT_TAGS:
                walker.skip_subtree()  # (its tail is read at its end)
            elif isinstance(node.tag, str) and node.text:
                pieces.append((node.text, node))
                size += len(node.text)
        elif node is not element and node.tail:
            pieces.append((node.tail, node.getparent()))
            size += len(node.tail)
        if size > HEADING_TEXT_MAX_CHARS:
            break
    return pieces


def _element_text(element: etree._Element) -> str:
    """A heading's text (:func:`_text_pieces`, whitespace collapsed), without a leading
    label (:func:`_leading_label`, :data:`_LABEL_WORD_RE`) or trailing permalink marks."""
    pieces = _text_pieces(element)
    label = _leading_label(element)
    if label is not None:
        # (the text the label holds, not its tail: the title follows it)
        # (the set holds the label's elements, so each keeps its one Python proxy while
        # their identities are compared)
        inside = set(label.iter())
        rest = [piece for piece in pieces if piece[1] not in inside]
        if collapse_ws("".join(text for text, _ in rest)).strip():
            pieces = rest
    text = collapse_ws("".join(text for text, _ in pieces)).strip()
    text = strip_permalink_marks(text)
    unlabelled = _LABEL_WORD_RE.sub("", text, count=1)
    return unlabelled or text


#: How a title cut short ends (``og:title`` trimmed for a social card).
_CUT_MARKS = ("...", "\u2026")

#: ``<meta>`` tags that name the site (not the page).
_SITE_NAME_META = (
    "meta[@property='og:site_name']",
    "meta[@name='application-name']",
    "meta[@name='apple-mobile-web-app-title']",
)
#: Class or id words of a site's logo or name (``class="logo"``, ``id="site-title"``).
_LOGO_RE = re.compile(r"(?<![a-z0-9])(?:logo|site-?(?:title|name))", re.I)
_NAME_KEY_RE = re.compile(r"\W+|_")
#: Host labels that are not a site's name.
_HOST_WORDS = frozenset(("www", "com", "org", "net", "co", "edu", "gov", "ac", "m", "en", "blog"))
#: A heading that holds the title's main part, or is held by it, is the title when it is at
#: least this share of the part's length.
HEADING_MIN_SHARE = 0.5
#: A title's main part shorter than this many characters is not taken when the page has a
#: heading: its first heading is the title.
TITLE_PART_MIN_CHARS = 5


def _name_key(text: str) -> str:
    """``text`` reduced for comparing names: lower case, letters and digits only."""
    return _NAME_KEY_RE.sub("", text.casefold())


def _site_names(model: PageModel) -> set[str]:
    """The keys (:func:`_name_key`) of the names the page gives its site: ``og:site_name``
    and the like, and its host's labels and their tails (``en.wikipedia.org``:
    ``wikipedia``, ``wikipediaorg``)."""
    names: set[str] = set()
    root = model.elements[0] if model.elements else None
    if root is not None:
        head = root.find("head")
        scope = head if head is not None else root
        for path in _SITE_NAME_META:
            for meta in scope.iterfind(path):
                key = _name_key(meta.get("content") or "")
                if key:
                    names.add(key)
    labels = host_of(model.base_url).split(".") if model.base_url else []
    for start, label in enumerate(labels):
        if len(label) > 2 and label not in _HOST_WORDS:
            names.add(_name_key(label))
            if start < len(labels) - 1:
                names.add(_name_key("".join(labels[start:])))
    return names


def _logo_names(model: PageModel) -> set[str]:
    """The keys of the alt texts of the images that link to the site's front page (its
    logo: ``<a href="/"><img alt="Site name"></a>``)."""
    names: set[str] = set()
    for image in model.images:
        link = image.link_url
        if link and is_site_root(link):
            key = _name_key(image.alt)
            if key:
                names.add(key)
    return names


def drop_site_slogans(model: PageModel, extraction: Extraction) -> None:
    """A page read as a few short lines (type "other") whose every kept line opens with
    the site's name ("Example News · Tomorrow's news today", a header's slogan) has no
    main content: its lines are dropped. (A sitemap or an empty section of a site whose
    template the crawl has not learned yet showed the slogan as its text.)"""
    names = {name for name in _site_names(model) | _logo_names(model) if len(name) >= 2}
    if not names:
        return
    kept = [line for line, keep in zip(extraction.lines, extraction.kept, strict=False) if keep]
    if all(any(_name_key(line.text).startswith(name) for name in names) for line in kept):
        extraction.kept = [False] * len(extraction.lines)


def _is_site_name(text: str, site_names: set[str]) -> bool:
    key = _name_key(text)
    return bool(key) and key in site_names


def _is_logo_heading(model: PageModel, node: int) -> bool:
    """True for an ``<h1>`` that is the site's logo: it sits in (or holds) a link to the
    site's front page, or it or its parent is named as a logo or the site's name."""
    element = model.elements[node]
    resolve = UrlResolver(model.base_url)
    anchors = list(element.iter("a"))
    parent = element.getparent()
    for ancestor in element.iterancestors("a"):
        anchors.append(ancestor)
        break
    for anchor in anchors:
        href = (anchor.get("href") or "").strip()
        if href in ("/", "./") or (href and is_site_root(resolve(href))):
            return True
    for candidate in (element, parent):
        if candidate is None:
            continue
        words = (candidate.get("class") or "") + " " + (candidate.get("id") or "")
        if _LOGO_RE.search(words):
            return True
    return False


def pick_title(model: PageModel) -> str:
    """The page's headline.

    The ``<title>`` (or ``og:title``) is split on its separators; the parts that name the
    site (``og:site_name``, a label of the host) are set aside and the longest other part
    is the reference. An ``<h1>`` that matches it is preferred (it has the exact wording);
    an ``<h1>`` that is the site's name or logo (it names the site, or links to the front
    page) is not taken. With no usable title, the first other ``<h1>``. On a site's front
    page the site's name is the page's title: nothing is set aside.
    """
    title_tag = model.meta_title or model.title
    if title_tag.endswith(_CUT_MARKS) and model.title:
        # (a social card's title cut short for its card: "... in the watch...")
        title_tag = model.title
    front_page = is_site_root(model.base_url)
    site_names = set() if front_page else _site_names(model)
    headings: list[str] = []
    site_headings: list[str] = []
    tags, parents = model.tags, model.parents
    unreadable: dict[int, int] = {}  # (climb's answers: the nearest element not read)

    def readable(node: int) -> bool:
        return tags[node] not in NOT_TITLE_TEXT_TAGS

    for i, tag in enumerate(tags):
        if tag != "h1" or not model.visible[i]:
            continue
        if climb(parents, i, readable, unreadable) > 0:
            continue  # (in a button: none of its text is read)
        heading = _element_text(model.elements[i])
        if not heading:
            continue
        if not front_page and (_is_site_name(heading, site_names) or _is_logo_heading(model, i)):
            site_headings.append(heading)
        else:
            headings.append(heading)
    parts = [p.strip() for p in TITLE_SEPARATORS_RE.split(title_tag) if p.strip()]
    own_parts = [p for p in parts if not _is_site_name(p, site_names)]
    # (a part that a logo <h1> repeats names the site too, when the title has another)
    logo_keys = {_name_key(h) for h in site_headings}
    if len(own_parts) > 1:
        own_parts = [p for p in own_parts if _name_key(p) not in logo_keys] or own_parts
    if not own_parts:
        # The title names the site only (a front page): it is the title.
        own_parts = parts
        headings = headings or site_headings
    main_part = max(own_parts, key=text_units) if own_parts else ""
    # (the longest part first, then the others but the last, where a site puts its name:
    # "Sudo - ArchWiki" with an <h1> "Sudo", but not "Traits - The Rust Book" with an <h1>
    # "The Rust Book")
    others = [part for part in own_parts[:-1] if part != main_part]
    for part in [main_part, *others] if main_part else []:
        for heading in headings:
            if heading == part or (
                len(heading) >= HEADING_MIN_SHARE * len(part)
                and (heading in part or part in heading)
            ):
                return heading
    if len(main_part) >= TITLE_PART_MIN_CHARS or not headings:
        return main_part or (site_headings[0] if site_headings else "")
    return headings[0]
