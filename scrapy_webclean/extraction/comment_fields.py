"""A reader comment's author, date and text (:func:`read_comment`), and the comments a
page declares in its JSON-LD (:func:`json_ld_comments`); :mod:`comments` finds the
comments.

* The *author*: the comment's first element (its own, not a reply's) that is a ``<cite>``,
  a ``rel="author"`` link, or whose ``class``, ``id`` or ``itemprop`` says author
  (:data:`AUTHOR_PARTS`) and holds at most :data:`MAX_AUTHOR_CHARS`; from there, down the
  first chain of such elements or links (``div.comment-author > cite.fn > a.url``), the
  innermost; not an element holding all the comment's lines. Without one: the name of a
  byline line ("Posted by: Jo | June 15, 2012", "Kimberly says:"), else a first line that
  is a short heading, bold text or a link alone (:func:`_heading_author`). A trailing
  "says:", "said...", "wrote" and a leading "by" or "posted by" are cut.
* The *date*: the first ``<time>`` (its ``datetime``, else its text), microdata
  ``dateCreated`` or ``datePublished`` (its ``content``), or element whose words say date
  or time (:data:`DATE_PARTS`: its ``title``, else its text), read by ``dates.parse_date``;
  else the first date in the comment's chrome lines.
* The *text*: the comment's lines but the author's and its chrome (:func:`is_chrome`: a
  short line of nothing but the author's name, month names, numbers and
  :data:`CHROME_WORDS` such as "Reply", "Report abuse", "says", "at", "pm"; or a short
  line that is a link alone, "Permalink"), one a line, at most :data:`MAX_COMMENT_CHARS`.
* A comment with neither a date nor an author from its markup or a byline is a thread's
  notice ("No comments yet", "Loading comments...", a pingback) when it has fewer than
  :data:`MIN_ANONYMOUS_WORDS` words or a :data:`NOTICE_WORDS` word: no comment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from scrapy_webclean.extraction.dates import parse_date
from scrapy_webclean.extraction.jsonld import json_ld_items, json_objects, types_of
from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.html.pagemodel import PageModel, collapse_ws
from scrapy_webclean.result import Comment
from scrapy_webclean.text.datepatterns import MONTH_NAME
from scrapy_webclean.text.wordlists import read_word_list

#: A comment's text is cut to this many characters.
MAX_COMMENT_CHARS = 10_000
#: An author's element holds at most this many characters (a name, "says:").
MAX_AUTHOR_CHARS = 80
#: A date's element holds at most this many characters.
MAX_DATE_CHARS = 200
#: A chrome line (:func:`is_chrome`) has at most this many characters ...
MAX_CHROME_LINE_CHARS = 150
#: ... and a line that is a link alone at most this many words.
MAX_LINK_LINE_WORDS = 4
#: Class, id and ``itemprop`` parts naming a comment's author.
AUTHOR_PARTS = frozenset(
    (
        *("author", "name", "fn", "user", "username", "nick", "nickname", "commenter"),
        *("poster", "by", "profile"),
    )
)
#: Inside an author's element, these name its innermost part too (WordPress's ``a.url``),
#: and so does a link.
AUTHOR_INNER_PARTS = AUTHOR_PARTS | {"url"}
#: A comment's first line names its author when it is a heading of at most this many
#: words (:func:`_heading_author`).
MAX_HEADING_NAME_WORDS = 4
#: Class and id parts naming a comment's date.
DATE_PARTS = frozenset(
    ("date", "time", "timestamp", "datetime", "meta", "metadata", "commentmetadata", "posted")
)
#: Microdata properties of a comment's date.
DATE_ITEMPROPS = frozenset(("datecreated", "datepublished", "commenttime"))
#: Words of a comment's chrome (its byline, date and buttons; see :func:`is_chrome`).
CHROME_WORDS = frozenset(read_word_list("extraction/data/comment_chrome_words.txt"))
#: A class or id token of more parts than this is a slug, not a container's name.
MAX_TOKEN_PARTS = 3
#: A comment with neither author nor date needs this many words, and none of
#: :data:`NOTICE_WORDS` in its first :data:`NOTICE_CHARS` characters.
MIN_ANONYMOUS_WORDS = 4
NOTICE_CHARS = 300
#: Words of a thread's notices ("There are no comments yet", "blog comments powered by
#: Disqus", "Sign in to add comments", "Pingback: ...").
NOTICE_WORDS = frozenset(
    (
        "comment", "comments", "commenting", "commented", "commenter", "commenters",
        "discussion", "discussions", "pingback", "trackback", "trackbacks", "pingbacks",
    )
)  # fmt: skip

_PARTS_RE = re.compile(r"[-_]+")
#: Finds the start of every word of :data:`AUTHOR_INNER_PARTS` and :data:`DATE_PARTS`.
_AUTHOR_HINT_RE = re.compile(r"auth|name|fn|user|nick|comm|post|by|prof|url")
_DATE_HINT_RE = re.compile(r"date|time|meta|posted")
_WORD_RE = re.compile(r"[^\W\d_]+")
_MONTH_RE = re.compile(MONTH_NAME)
#: The verb after a name in a comment's byline ("Kimberly says:", "Jo said...").
_SAYS_RE = re.compile(r"\b(?:says|said|wrote|writes)\b", re.I)
#: "by" or "posted by" before a name.
_BY_RE = re.compile(r"(?i:posted\s++)?(?i:by)\b:?+")
#: A byline line's start before the name: "Posted by:", "Written by".
_POSTED_BY_RE = re.compile(r"(?i:(?:posted|written|submitted)\s++by)\b\s*+:?+")
#: Where a byline's name ends: a bar, a bullet, " on ", " at ", a digit.
_BYLINE_END_RE = re.compile(r"[|•·\d]|\s(?:on|at|in)\s")
#: The tags of a comment's first line that make it its author's name (see
#: :func:`_heading_author`).
_NAME_TAGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6", "strong", "b"))
_NAME_EDGES = " :|-–—·•,.…"


@dataclass(slots=True)
class CommentNodes:
    """One comment of a thread: its first node, its own nodes in page order (those that
    hold text, and ``<time>`` and ``<meta>`` elements; not a reply's), its lines."""

    start: int
    nodes: list[int]
    lines: list[Line]


def token_parts(token: str) -> list[str]:
    """A class or id token's parts between dashes and underscores."""
    return [part for part in _PARTS_RE.split(token) if part]


def read_comment(model: PageModel, item: CommentNodes) -> Comment | None:
    """The comment of ``item`` (see the module docstring); None when no text is left."""
    if not item.lines:
        return None
    author_node = _author_node(model, item)
    author = author_name(text_of(model.elements[author_node])) if author_node >= 0 else ""
    author_end = author_node + model.node_count[author_node] if author else -1
    date = _date(model, item)
    if not author:
        author = _byline_author(item.lines)
    # (a byline's or the markup's author, or a date, tells a comment from a notice)
    signed = bool(author)
    if not author and len(item.lines) > 1:
        author = _heading_author(model, item.lines[0])
    author_words = frozenset(_WORD_RE.findall(author.lower()))
    texts: list[str] = []
    size = 0
    for line in item.lines:
        if author_node <= line.node < author_end and line.chars <= MAX_AUTHOR_CHARS:
            continue
        if is_chrome(line, author_words):
            if date is None:
                date = parse_date(line.text)
            continue
        texts.append(line.text)
        size += len(line.text) + 1
        if size > MAX_COMMENT_CHARS:
            break
    text = "\n".join(texts)[:MAX_COMMENT_CHARS].strip()
    if not text:
        return None
    if not signed and date is None:
        # Nobody signed it, no day: a notice ("No comments yet", "Loading comments...",
        # a pingback), a label ("Staff"), or a comment too bare to tell from one.
        words = _WORD_RE.findall(text[:NOTICE_CHARS].lower())
        if len(words) < MIN_ANONYMOUS_WORDS or not NOTICE_WORDS.isdisjoint(words):
            return None
    return Comment(author, date, text)


def _heading_author(model: PageModel, line: Line) -> str:
    """A comment's first line as its author's name when it is a short heading, bold text
    or a link alone (:data:`MAX_HEADING_NAME_WORDS` words at most) and no date."""
    if line.chars > MAX_AUTHOR_CHARS or line.prose:
        return ""
    owner = model.runs[line.first_run].owner
    if not (model.tags[owner] in _NAME_TAGS or line.anchor_chars >= line.chars):
        return ""
    if len(line.text.split()) > MAX_HEADING_NAME_WORDS or parse_date(line.text) is not None:
        return ""
    return author_name(line.text)


def _byline_author(lines: list[Line]) -> str:
    """The name of the comment's first byline line, without markup naming it ("Posted
    by: Jo | June 15, 2012", "Kimberly says:"), or ""."""
    for line in lines:
        if line.chars > MAX_CHROME_LINE_CHARS:
            continue
        text = line.text
        by = _POSTED_BY_RE.match(text)
        if by is not None:
            name = _BYLINE_END_RE.split(text[by.end() :], 1)[0]
        else:
            says = _SAYS_RE.search(text)
            if says is None or says.start() > MAX_AUTHOR_CHARS:
                continue
            name = text[: says.start()]
        name = author_name(name)
        if name:
            return name
    return ""


def text_of(element: etree._Element) -> str:
    """An element's text, whitespace collapsed (markup comments left out)."""
    text = etree.tostring(element, method="text", encoding="unicode", with_tail=False)
    return collapse_ws(text).strip()


def author_name(text: str) -> str:
    """A byline's name: "Kimberly says:" -> "Kimberly", "by Jo" -> "Jo"."""
    says = _SAYS_RE.search(text)
    if says is not None:
        text = text[: says.start()]
    by = _BY_RE.match(text)
    if by is not None:
        text = text[by.end() :]
    text = text.strip(_NAME_EDGES)
    if len(text) > MAX_AUTHOR_CHARS or parse_date(text) is not None:
        return ""
    return text


def is_chrome(line: Line, author_words: frozenset[str]) -> bool:
    """True for a comment's byline, date or button line: at most
    :data:`MAX_CHROME_LINE_CHARS`, and a link alone of at most :data:`MAX_LINK_LINE_WORDS`
    words, or words that are all the author's, month names, :data:`CHROME_WORDS` or one
    letter long (numbers and signs are no words)."""
    if line.chars > MAX_CHROME_LINE_CHARS:
        return False
    words = _WORD_RE.findall(line.text.lower())
    if line.anchor_chars >= line.chars and len(words) <= MAX_LINK_LINE_WORDS:
        return True
    return all(
        len(word) == 1
        or word in CHROME_WORDS
        or word in author_words
        or _MONTH_RE.fullmatch(word) is not None
        for word in words
    )


def _names(element: etree._Element, parts_named: frozenset[str], hint: re.Pattern[str]) -> bool:
    """True when a class, id or ``itemprop`` token has a part in ``parts_named`` (``hint``
    finds one of them in the words first: most elements have none)."""
    words = (
        f"{element.get('class') or ''} {element.get('id') or ''} {element.get('itemprop') or ''}"
    )
    words = words.lower()
    if not hint.search(words):
        return False
    for token in words.split():
        parts = token_parts(token)
        if len(parts) <= MAX_TOKEN_PARTS and not parts_named.isdisjoint(parts):
            return True
    return False


def _names_author(element: etree._Element, tag: str, parts_named: frozenset[str]) -> bool:
    if tag == "cite":
        return True
    rel = element.get("rel")
    if rel and "author" in rel.lower().split():
        return True
    return _names(element, parts_named, _AUTHOR_HINT_RE)


def _author_node(model: PageModel, item: CommentNodes) -> int:
    """The node of the comment's author (see the module docstring), or -1."""
    elements, tags, text_len, node_count = (
        model.elements,
        model.tags,
        model.text_len,
        model.node_count,
    )
    first_line, last_line = item.lines[0].node, item.lines[-1].node
    found = -1
    for c in item.nodes:
        if not 0 < text_len[c] <= MAX_AUTHOR_CHARS:
            continue
        if found < 0:
            # (an element holding every line of the comment is not its author's)
            if (first_line < c or last_line >= c + node_count[c]) and _names_author(
                elements[c], tags[c], AUTHOR_PARTS
            ):
                found = c
        elif c >= found + node_count[found]:
            break
        elif tags[c] == "a" or _names_author(elements[c], tags[c], AUTHOR_INNER_PARTS):
            found = c
    return found


def _date(model: PageModel, item: CommentNodes) -> str | None:
    """The comment's date from its markup (see the module docstring), or None."""
    elements, tags, text_len = model.elements, model.tags, model.text_len
    for c in item.nodes:
        element = elements[c]
        tag = tags[c]
        found = None
        itemprop = (element.get("itemprop") or "").lower()
        if tag == "time" or itemprop in DATE_ITEMPROPS:
            value = element.get("datetime") or element.get("content") or ""
            found = parse_date(value)
            if found is None and 0 < text_len[c] <= MAX_DATE_CHARS:
                found = parse_date(text_of(element))
        elif 0 < text_len[c] <= MAX_DATE_CHARS and _names(element, DATE_PARTS, _DATE_HINT_RE):
            found = parse_date(element.get("title") or "") or parse_date(text_of(element))
        if found is not None:
            return found
    return None


def json_ld_comments(root: etree._Element) -> list[Comment]:
    """The schema.org ``Comment`` objects of the page's JSON-LD with a ``text``: its
    ``author`` (a name or a ``Person``'s), ``dateCreated`` (else ``datePublished``), text."""
    found: list[Comment] = []
    for obj in json_objects(json_ld_items(root, ("omment",))):
        if "comment" not in types_of(obj):
            continue
        text = obj.get("text")
        if not isinstance(text, str):
            continue
        text = collapse_ws(text).strip()[:MAX_COMMENT_CHARS]
        if not text:
            continue
        date = None
        for key in ("dateCreated", "datePublished"):
            value = obj.get(key)
            if isinstance(value, str):
                date = parse_date(value)
                if date is not None:
                    break
        found.append(Comment(_json_name(obj.get("author")), date, text))
    return found


def _json_name(value: object) -> str:
    """A JSON-LD author's name: a string, a ``Person``'s ``name``, the first of a list's."""
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("name")
    if isinstance(value, str):
        return collapse_ws(value).strip()[:MAX_AUTHOR_CHARS]
    return ""
