"""Prose in parsed JSON: the long fields of a page's script data that read as an
article's text (:func:`prose_fields`), and the paragraphs of a field's text or HTML
(:func:`paragraphs_of`).

Nothing here is per site: a field is prose by its shape (many words, sentence ends,
few code characters), whatever its key; a key like ``body`` or ``content`` only breaks
near ties (:data:`PREFERRED_KEY_BONUS`). The walk is iterative, visits at most
:data:`MAX_NODES` values and skips what is nested deeper than :data:`MAX_DEPTH`; an HTML
field is parsed by lxml (linear), never by a backtracking pattern.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

from lxml import etree
from lxml import html as lxml_html

from scrapy_webclean.extraction.jsonld import MAX_SCRIPT_CHARS
from scrapy_webclean.segmentation.classify import text_units

#: Values of one parsed script looked at, at most (a state of a few hundred kilobytes
#: holds tens of thousands; the fields past it are not read).
MAX_NODES = 200_000
#: Values nested deeper than this in a script's JSON are not read (an article's body sits
#: a few levels down: ``props.pageProps.article.body`` is 4).
MAX_DEPTH = 64
#: A string shorter than this (characters) is never a field of prose (an id, a label, a
#: menu entry): it has fewer than :data:`MIN_PROSE_UNITS` units (no character is more
#: than one), so it is passed over before anything else is looked at.
MIN_FIELD_CHARS = 150
#: A field is prose from this many text units on (``text_units``: a CJK character is one,
#: three other characters but spaces one): 150 units, 80 to 100 English words or 150
#: characters of Chinese, more than a site's description or a teaser. A round number,
#: not fitted.
MIN_PROSE_UNITS = 150.0
#: A field is prose when it has at least this many sentence ends...
MIN_SENTENCES = 3
#: ...and no more than this many text units a sentence on average (a list of names or a
#: run of keywords has one full stop, if any: 60 units is some 35 words a sentence).
MAX_UNITS_PER_SENTENCE = 60.0
#: At least this share of a prose field's characters are letters, digits or spaces: code,
#: CSS, URLs and encoded data are made of punctuation (prose has about 0.97).
MIN_WORD_CHAR_SHARE = 0.9
#: Text without CJK has at least one space in this many characters (base64 and hashes have
#: none; English has one in six).
MAX_CHARS_PER_SPACE = 15
#: A field whose key names a body (``body``, ``content``, ``text``, ``html``...) counts
#: this much more when fields are ranked: a tie breaker, never enough alone.
PREFERRED_KEY_BONUS = 1.25
#: The longest field of a script is its article only when it holds this many times the
#: units of any other prose field that is not part of it: a state with several bodies of
#: like size is a listing, not one article. Twice is the round margin of "clearly".
DOMINANCE = 2.0
#: The parts of a key that name a body (the key lower-cased, a part anywhere in it).
PREFERRED_KEY_PARTS = ("body", "content", "text", "html", "article", "markdown")
#: Leading characters of a field looked for in the best field's text, to tell a part of it
#: (an excerpt, a description) from another text.
_EXCERPT_CHARS = 80

#: A sentence's end: a full stop, question or exclamation mark (Latin or CJK).
_SENTENCE_END_RE = re.compile(r"[.!?…。！？](?=[\s\"'”’)\]]|$)|[。！？]")
#: A character that is no letter, digit, space or common prose mark.
#: (A JSON text's ``"`` and ``:`` are not counted as prose marks: one in prose is rare.)
_NOT_PROSE_RE = re.compile(r"[^\w\s.,;!?'()\-–—…‘’“”«»。，、；：！？（）《》「」]")
#: A tag's start: ``<`` then a letter, ``/`` or ``!`` (a ``<`` in prose is followed by a
#: space or a digit).
_TAG_START_RE = re.compile(r"<[A-Za-z/!]")
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")

#: Elements that end a paragraph of an HTML field.
_BLOCK_TAGS = frozenset(
    (
        *(f"h{n}" for n in range(1, 7)),
        "address",
        "article",
        "aside",
        "blockquote",
        "br",
        "dd",
        "div",
        "dl",
        "dt",
        "figcaption",
        "figure",
        "footer",
        "header",
        "hr",
        "li",
        "main",
        "ol",
        "p",
        "pre",
        "section",
        "table",
        "td",
        "th",
        "tr",
        "ul",
    )
)
#: Elements whose text is no part of the prose.
_SKIPPED_TAGS = frozenset(("script", "style", "noscript", "template", "svg", "math", "iframe"))


@dataclass(frozen=True, slots=True)
class ProseField:
    """One field of prose: its paragraphs, its key ("" for none), its text units."""

    paragraphs: tuple[str, ...]
    key: str
    units: float

    @property
    def text(self) -> str:
        """The paragraphs, one a line."""
        return "\n".join(self.paragraphs)


def paragraphs_of(value: str) -> list[str]:
    """The paragraphs of a field: of its HTML when it holds tags (the elements of
    :data:`_BLOCK_TAGS` end one, :data:`_SKIPPED_TAGS` are left out), else of its lines
    (entities read); each with its whitespace collapsed, the blank ones left out."""
    if _TAG_START_RE.search(value) is None:
        text = html.unescape(value) if "&" in value else value
        return _collapsed(text.splitlines())
    try:
        fragment = lxml_html.fragment_fromstring(value, create_parent="div")
    except (etree.ParserError, ValueError):
        return []
    parts: list[str] = []
    current: list[str] = []
    walker = etree.iterwalk(fragment, events=("start", "end"))
    for event, element in walker:
        tag = element.tag if isinstance(element.tag, str) else ""
        if event == "start":
            if tag in _SKIPPED_TAGS:
                walker.skip_subtree()
                continue
            if tag in _BLOCK_TAGS:
                parts.append("".join(current))
                current = []
            if element.text and tag:
                current.append(element.text)
        else:
            if tag in _BLOCK_TAGS:
                parts.append("".join(current))
                current = []
            if element.tail and element is not fragment:
                current.append(element.tail)
    parts.append("".join(current))
    return _collapsed(parts)


def _collapsed(parts: list[str]) -> list[str]:
    out = []
    for part in parts:
        text = " ".join(part.split())
        if text:
            out.append(text)
    return out


def prose_units(text: str) -> float:
    """The text units of ``text`` when it reads as prose (see :data:`MIN_PROSE_UNITS` and
    the constants after it), else 0."""
    if not text:
        return 0.0
    units = text_units(text)
    if units < MIN_PROSE_UNITS:
        return 0.0
    sentences = len(_SENTENCE_END_RE.findall(text))
    if sentences < MIN_SENTENCES or units / sentences > MAX_UNITS_PER_SENTENCE:
        return 0.0
    if len(_NOT_PROSE_RE.findall(text)) > (1 - MIN_WORD_CHAR_SHARE) * len(text):
        return 0.0
    cjk = 0 if text.isascii() else len(_CJK_RE.findall(text))
    if cjk * 2 < len(text) and text.count(" ") * MAX_CHARS_PER_SPACE < len(text) - cjk:
        return 0.0
    return units


def prose_field(value: str, key: str = "") -> ProseField | None:
    """``value`` as a :class:`ProseField` when its text reads as prose, else None."""
    if len(value) < MIN_FIELD_CHARS or value.lstrip()[:1] in ("{", "["):
        return None  # (too short, or JSON in a string: ``json_strings`` reads it)
    paragraphs = tuple(paragraphs_of(value))
    units = prose_units("\n".join(paragraphs))
    return ProseField(paragraphs, key, units) if units else None


def json_strings(data: object) -> Iterator[tuple[str, str]]:
    """The strings of parsed JSON of at least :data:`MIN_FIELD_CHARS` characters, with
    the key they are under ("" at the top; an array's items take its key), in document
    order: an iterative walk of at most :data:`MAX_NODES` values that skips those
    deeper than :data:`MAX_DEPTH`. An array of strings that each hold a space is one
    string, its items one a line (a body stored as a list of paragraphs). A
    string that holds JSON (a state that stores a part of itself as text) is parsed
    and walked in its place, up to :data:`~scrapy_webclean.extraction.jsonld.MAX_SCRIPT_CHARS`
    of such strings in all."""
    stack: list[tuple[object, str, int]] = [(data, "", 0)]
    seen = 0
    embedded = MAX_SCRIPT_CHARS
    while stack and seen < MAX_NODES:
        value, key, depth = stack.pop()
        seen += 1
        if isinstance(value, str):
            if len(value) < MIN_FIELD_CHARS:
                continue
            if value.lstrip()[:1] in ("{", "[") and depth < MAX_DEPTH:
                if len(value) <= embedded:
                    embedded -= len(value)
                    inner = parse_json(value)
                    if inner is not INVALID:
                        stack.append((inner, key, depth + 1))
                continue
            yield value, key
        elif depth >= MAX_DEPTH:
            continue
        elif isinstance(value, dict):
            items = [(v, str(k), depth + 1) for k, v in value.items()]
            stack.extend(reversed(items))
        elif isinstance(value, list):
            if len(value) > 1 and all(isinstance(v, str) and " " in v for v in value):
                joined = "\n".join(value)
                if len(joined) >= MIN_FIELD_CHARS:
                    yield joined, key
                seen += len(value)
                continue
            stack.extend((v, key, depth + 1) for v in reversed(value))


#: What :func:`parse_json` gives for a text that is not valid JSON (or nests too deep).
INVALID = object()


def parse_json(text: str) -> object:
    """``text``'s JSON, or :data:`INVALID` when it is none or nests deeper than the
    parser's recursion limit."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # (RecursionError: nested too deep to parse)
        return INVALID


def devalue_strings(data: object) -> Iterator[tuple[str, str]]:
    """The strings of a Nuxt 3 payload (devalue's flat array: every value is an item of
    the array, an object's fields are the indexes of their values), with the key that
    points at each ("" for none), like :func:`json_strings`; at most :data:`MAX_NODES`
    items are read."""
    if not isinstance(data, list):
        return
    items = data[:MAX_NODES]
    keys: dict[int, str] = {}
    for item in items:
        if isinstance(item, dict):
            for key, index in item.items():
                if type(index) is int and index not in keys:
                    keys[index] = str(key)
    for index, item in enumerate(items):
        if isinstance(item, str) and len(item) >= MIN_FIELD_CHARS:
            yield item, keys.get(index, "")


def best_prose(strings: Iterator[tuple[str, str]]) -> ProseField | None:
    """The field of ``strings`` that is clearly a page's article: the one of most units
    (a key naming a body weighs :data:`PREFERRED_KEY_BONUS` more), when it holds at least
    :data:`DOMINANCE` times the units of every other prose field that is not a part of
    it; None when none is prose or none stands out."""
    fields = []
    for value, key in strings:
        found = prose_field(value, key)
        if found is not None:
            fields.append(found)
    if not fields:
        return None
    fields.sort(key=_rank, reverse=True)
    best = fields[0]
    within = _comparable(best.text)
    for other in fields[1:]:
        if other.units * DOMINANCE <= best.units:
            continue
        # (each field tested is over half the best's size: the tests cost the script's)
        head = _comparable(other.text)[:_EXCERPT_CHARS]
        if head not in within:
            return None
    return best


def _rank(found: ProseField) -> float:
    key = found.key.lower()
    preferred = any(part in key for part in PREFERRED_KEY_PARTS)
    return found.units * (PREFERRED_KEY_BONUS if preferred else 1.0)


def _comparable(text: str) -> str:
    return " ".join(text.split()).lower()
