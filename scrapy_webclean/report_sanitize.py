"""What the block report lets through of a page: an allowlist HTML sanitizer (``nh3``, the
binding of Rust's ammonia, which parses as a browser does) and the report's own CSS
sanitizer (ammonia does not read CSS).

The HTML allowlist keeps what draws (text, tables, lists, headings, images, form controls
without a form) and drops everything that runs or fetches: ``script``, ``style`` (the page's
style sheets are carried apart, through :func:`sanitize_css`), ``svg``, ``math``, frames,
``object``, ``template``, ``noscript``, ``meta``, ``base``, ``link``, every event attribute
and every URL attribute but two, ``a href`` (always ``#``) and ``img src`` (always a
placeholder made by :func:`image_placeholder`). Of ``data-*`` attributes only the report's
own ``data-wc*`` are kept (the page's ``data-*`` are dropped; ours hold text, never a URL a
browser would load).

The CSS sanitizer strips every function that fetches (``url()``, ``src()``, ``image()``,
``image-set()``), ``@import`` and ``expression(``, after undoing comments and the escapes a
browser would read as letters (``\\75 rl(`` is ``url(``); a sheet in which a fetch is still
found after that is dropped whole; ``</style`` is escaped last. Every pattern is linear in
the length of the CSS: possessive quantifiers only, and each match runs to the end of what
it scanned.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

import nh3

from scrapy_webclean.urls import UrlResolver

if TYPE_CHECKING:
    from lxml import etree

#: Elements kept (their attributes filtered). Everything else is unwrapped (text kept)
#: or, for :data:`DROPPED_WITH_CONTENT`, removed with its content.
ALLOWED_TAGS = frozenset((
    "a", "abbr", "acronym", "address", "article", "aside", "b", "bdi", "bdo", "big",
    "blockquote", "br", "button", "canvas", "caption", "center", "cite", "code", "col",
    "colgroup", "data", "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "fieldset",
    "figcaption", "figure", "font", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hgroup", "hr", "i", "img", "input", "ins", "kbd", "label", "legend", "li", "main", "mark",
    "menu", "meter", "nav", "ol", "optgroup", "option", "output", "p", "picture", "pre",
    "progress", "q", "rp", "rt", "rtc", "ruby", "s", "samp", "search", "section", "small",
    "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th",
    "thead", "time", "tr", "tt", "u", "ul", "var", "wbr",
))  # fmt: skip
#: Elements removed with everything inside them: what runs, what fetches, what a browser
#: parses as raw text or into another document (``noscript``, ``template``), and the
#: foreign content (``svg``, ``math``) whose parsing differs most between parsers.
DROPPED_WITH_CONTENT = frozenset((
    "applet", "audio", "embed", "frame", "frameset", "iframe", "math", "noembed", "noframes",
    "noscript", "object", "plaintext", "portal", "script", "select", "style", "svg",
    "template", "textarea", "title", "video", "xmp",
))  # fmt: skip
#: Attributes kept on every allowed element (``style`` through :func:`sanitize_css`).
GLOBAL_ATTRIBUTES = frozenset((
    "align", "bgcolor", "border", "cellpadding", "cellspacing", "class", "dir", "height",
    "hidden", "id", "lang", "role", "style", "title", "valign", "width",
))  # fmt: skip
#: Attributes kept on one element only. ``href`` and ``src`` are the only URL attributes,
#: and :func:`_filter_attribute` rewrites both.
TAG_ATTRIBUTES: dict[str, frozenset[str]] = {
    "a": frozenset({"href", "name"}),
    "img": frozenset({"src", "alt"}),
    "ol": frozenset({"start", "type", "reversed"}),
    "ul": frozenset({"type"}),
    "li": frozenset({"value", "type"}),
    "td": frozenset({"colspan", "rowspan", "headers", "nowrap"}),
    "th": frozenset({"colspan", "rowspan", "headers", "scope", "nowrap"}),
    "col": frozenset({"span"}),
    "colgroup": frozenset({"span"}),
    "time": frozenset({"datetime"}),
    "data": frozenset({"value"}),
    "details": frozenset({"open"}),
    "font": frozenset({"color", "face", "size"}),
    "label": frozenset({"for"}),
    "input": frozenset({"type", "value", "placeholder", "size", "checked", "disabled", "readonly"}),
    "button": frozenset({"type", "disabled"}),
    "option": frozenset({"value", "selected", "disabled"}),
    "meter": frozenset({"value", "min", "max", "low", "high", "optimum"}),
    "progress": frozenset({"value", "max"}),
}
#: Attribute name prefixes kept on every element: the report's markers and ARIA.
ATTRIBUTE_PREFIXES = frozenset({"data-wc", "aria-"})
#: ``data:`` only so that our placeholder ``img src`` passes the scheme check; every
#: ``href`` is ``#`` and every ``src`` a placeholder whatever the page said.
URL_SCHEMES = frozenset({"http", "https", "data"})
#: ``id`` values that are the report's own (the panel's): a page's are dropped.
OWN_ID_PREFIX = "wc-"

#: The most external style sheets a report inlines and ``--report`` fetches: the first
#: ones of the page, in page order.
MAX_STYLESHEETS = 30
#: The largest external style sheet inlined and fetched, in bytes (a larger one is left out).
MAX_STYLESHEET_BYTES = 2 * 1024 * 1024
#: The only schemes a style sheet is fetched over (never ``file:``, ``data:``, ``ftp:``).
STYLESHEET_SCHEMES = frozenset({"http", "https"})
#: What the report may load: nothing but its own inline styles and ``data:`` images.
CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

_SCHEME_RE = re.compile(r"([a-zA-Z][a-zA-Z0-9+.-]*+):")
# What a browser ignores in a URL before reading its scheme: controls and spaces.
_URL_NOISE_RE = re.compile(r"[\x00-\x20\x7f]++")
#: The largest side, in CSS pixels, of an image placeholder.
MAX_PLACEHOLDER_SIDE = 10_000
_DEFAULT_SIZE = ("120", "80")
_PLACEHOLDER_RE = re.compile(
    r"data:image/svg\+xml,%3Csvg%20xmlns='http://www\.w3\.org/2000/svg'"
    r"%20width='[0-9]{1,5}'%20height='[0-9]{1,5}'%3E%3C/svg%3E"
)


def image_placeholder(width: str | None, height: str | None) -> str:
    """A ``data:`` URL of an empty SVG drawing ``width`` x ``height`` CSS pixels (each
    120 x 80 when not a plain number up to :data:`MAX_PLACEHOLDER_SIDE`), written as
    lxml's serializer leaves it (spaces as ``%20``)."""
    w, h = (_side(width, _DEFAULT_SIZE[0]), _side(height, _DEFAULT_SIZE[1]))
    return (
        "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'"
        f"%20width='{w}'%20height='{h}'%3E%3C/svg%3E"
    )


def _side(value: str | None, default: str) -> str:
    value = (value or "").strip()
    if value.isascii() and value.isdigit() and int(value) <= MAX_PLACEHOLDER_SIDE:
        return str(int(value))
    return default


def stylesheet_urls(base: str, hrefs: Iterable[str]) -> tuple[list[str], list[str]]:
    """The style sheets of a page to fetch, and the ones left out: each of ``hrefs``
    resolved against ``base`` (the page's URL, or its ``<base href>``), in order, without
    repeats; only http(s) URLs, and at most :data:`MAX_STYLESHEETS` of them (the others,
    and every other scheme, are left out)."""
    resolve = UrlResolver(base)
    wanted: list[str] = []
    left_out: list[str] = []
    seen: set[str] = set()
    for href in hrefs:
        url = resolve(href.strip())
        if url in seen:
            continue
        seen.add(url)
        if url_scheme(url) not in STYLESHEET_SCHEMES or len(wanted) >= MAX_STYLESHEETS:
            left_out.append(url)
        else:
            wanted.append(url)
    return wanted, left_out


def is_stylesheet_link(element: etree._Element) -> bool:
    """True for a ``<link>`` that a browser applies as a style sheet (``rel`` has
    ``stylesheet`` and not ``alternate``)."""
    rel = (element.get("rel") or "").lower().split()
    return "stylesheet" in rel and "alternate" not in rel and bool(element.get("href"))


def url_scheme(url: str) -> str:
    """The scheme a browser reads in ``url`` (after dropping the controls and spaces it
    ignores; ``java\\tscript:`` is ``javascript``), lower case; "" for a relative URL."""
    found = _SCHEME_RE.match(_URL_NOISE_RE.sub("", url))
    return found.group(1).lower() if found else ""


def sanitize_markup(markup: str) -> str:
    """``markup`` (an HTML fragment, any size) with only the allowlist left, parsed as a
    browser parses a fragment in ``<body>``: the result is safe to put inside a
    ``<div>`` of a page under the report's prologue."""
    attributes = {tag: set(names) for tag, names in TAG_ATTRIBUTES.items()}
    attributes["*"] = set(GLOBAL_ATTRIBUTES)
    cleaned: str = nh3.clean(
        markup,
        tags=set(ALLOWED_TAGS),
        clean_content_tags=set(DROPPED_WITH_CONTENT),
        attributes=attributes,
        attribute_filter=_filter_attribute,
        strip_comments=True,
        link_rel=None,
        generic_attribute_prefixes=set(ATTRIBUTE_PREFIXES),
        url_schemes=set(URL_SCHEMES),
    )
    return cleaned


#: The elements of the main content's own HTML (``htmloutput.to_html``), a far shorter
#: list than the report's: its structure (headings, paragraphs, lists, tables, code,
#: quotes), links, images and emphasis.
OUTPUT_TAGS = frozenset((
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "ul", "ol", "li", "table", "thead", "tbody",
    "tr", "th", "td", "pre", "code", "blockquote", "a", "img", "em", "strong", "br",
))  # fmt: skip
#: Its only attributes: where a link goes, what an image shows and says.
OUTPUT_ATTRIBUTES: dict[str, frozenset[str]] = {
    "a": frozenset({"href"}),
    "img": frozenset({"src", "alt"}),
}
#: The schemes its links and images may have (a relative URL has none).
OUTPUT_URL_SCHEMES = frozenset({"http", "https", "mailto", "tel"})


def sanitize_output(markup: str) -> str:
    """``markup`` (the main content's HTML, any size) with only :data:`OUTPUT_TAGS` and
    :data:`OUTPUT_ATTRIBUTES` left, every other element unwrapped (or, for
    :data:`DROPPED_WITH_CONTENT`, removed with its content), comments dropped, and no
    link or image to a URL of another scheme than :data:`OUTPUT_URL_SCHEMES` (the same
    ``nh3`` allowlist sanitizer as the report's, with its own lists; URLs kept as they
    are)."""
    cleaned: str = nh3.clean(
        markup,
        tags=set(OUTPUT_TAGS),
        clean_content_tags=set(DROPPED_WITH_CONTENT),
        attributes={tag: set(names) for tag, names in OUTPUT_ATTRIBUTES.items()},
        strip_comments=True,
        link_rel=None,
        url_schemes=set(OUTPUT_URL_SCHEMES),
    )
    return cleaned


def _filter_attribute(tag: str, name: str, value: str) -> str | None:
    """nh3's last word on each attribute: links go nowhere, images are placeholders,
    styles are sanitized, and the report's own ids stay the report's."""
    if name == "href":
        return "#"
    if name == "src":
        return value if _PLACEHOLDER_RE.fullmatch(value) else image_placeholder(None, None)
    if name == "style":
        return sanitize_css(value) or None
    if name == "id" and value.startswith(OWN_ID_PREFIX):
        return None
    return value


# --- CSS ---

# A function that fetches, with its arguments up to the closing parenthesis (strings and
# escapes skipped whole), or to the end of the sheet when none closes it.
_FETCH = (
    r"""(?:url|src|image|image-set)\((?:[^)"'\\]++|\\.?|"(?:[^"\\]++|\\.?)*+"?"""
    r"""|'(?:[^'\\]++|\\.?)*+'?)*+\)?"""
)
_FETCH_RE = re.compile(_FETCH, re.I | re.S)
# The first pass, left to right: a string or an escape is kept as it is ("/*" in a string,
# or "\/*", opens no comment), a fetch is stripped, and a comment, which runs to "*/" or to
# the end of the sheet as in a browser, becomes a space. Each alternative always matches
# once its first characters are seen, so no start is scanned twice.
_FIRST_PASS_RE = re.compile(
    r"""(?P<keep>"(?:[^"\\\n]++|\\.?)*+"?|'(?:[^'\\\n]++|\\.?)*+'?|\\.?)"""
    rf"|{_FETCH}|/\*(?:[^*]++|\*(?!/))*+(?:\*/)?",
    re.I | re.S,
)
# One escape: up to six hex digits and one whitespace after them, or any other character
# but a newline (a backslash before a newline is no escape).
_ESCAPE_RE = re.compile(r"\\(?:([0-9a-fA-F]{1,6})(?:\r\n|[ \t\r\n\f])?|([^\r\n\f0-9a-fA-F]))")
# @import and its prelude, to the semicolon or the end of the sheet.
_IMPORT_RE = re.compile(r"@import[^;]*+;?", re.I)
_EXPRESSION_RE = re.compile(r"expression(?=\s*+\()", re.I)
# What must not be left once the above are stripped (checked on the text a browser reads).
_DANGER_RE = re.compile(r"(?:url|src|image|image-set)\(|@import|expression\s*+\(", re.I)
_STYLE_END_RE = re.compile(r"</(?=style)", re.I)
_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_IDENT_CHARS = _ASCII_LETTERS | frozenset("0123456789-_")
_CSS_SPACES = frozenset(" \t\r\n\f")


def sanitize_css(css: str) -> str:
    """``css`` (a style sheet or a ``style`` attribute, any size) with nothing that fetches
    or runs: every ``url(...)``, ``src(...)``, ``image(...)``, ``image-set(...)`` and
    comment is replaced by a space, escapes of letters become the letters, then the
    fetches they spell, ``@import ...;`` and ``expression`` become spaces too (a space
    cannot join the text around it into a new one). If a browser could still read one in what is left (an escape that a strip
    joined to a hex digit), the sheet is dropped: "". ``</style`` is escaped last, so no
    strip can make one. Linear time in ``len(css)``."""
    text = _FIRST_PASS_RE.sub(_keep_or_space, css.replace("\x00", "\ufffd"))
    text = _decode_letters(text)
    text = _FETCH_RE.sub(" ", text)
    text = _IMPORT_RE.sub(" ", text)
    text = _EXPRESSION_RE.sub(" ", text)
    if _DANGER_RE.search(_decode_letters(text)):
        return ""
    return _STYLE_END_RE.sub("<\\\\/", text)


def _keep_or_space(match: re.Match[str]) -> str:
    return match.group("keep") or " "


def _decode_letters(css: str) -> str:
    """``css`` with each escape of an ASCII letter written as the letter, and each escaped
    hyphen inside a name (after a letter, digit, ``-`` or ``_``) as a hyphen: how a browser
    reads the names of functions and at-rules. Other escapes are kept as written (``\\(``
    is no parenthesis to a browser either)."""
    last_end = -1
    last_char = ""

    def decode(match: re.Match[str]) -> str:
        nonlocal last_end, last_char
        hex_digits, other = match.groups()
        char = _code_point(int(hex_digits, 16)) if hex_digits else other
        start = match.start()
        before = last_char if start == last_end else css[start - 1 : start]
        if char in _ASCII_LETTERS or (char == "-" and before and before in _IDENT_CHARS):
            written = char
        elif (
            hex_digits
            and match.group(0)[-1] not in _CSS_SPACES
            and css[match.end() : match.end() + 1] == "\\"
        ):
            # Ended by the next escape, which may become a hex digit ("\6\63" would
            # read "\6c", an "l"): end it with a space.
            written = match.group(0) + " "
        else:
            written = match.group(0)
        last_end, last_char = match.end(), char
        return written

    return _ESCAPE_RE.sub(decode, css)


def _code_point(value: int) -> str:
    """The character a CSS hex escape stands for (U+FFFD for 0, surrogates and beyond)."""
    if value == 0 or 0xD800 <= value <= 0xDFFF or value > 0x10FFFF:
        return "\ufffd"
    return chr(value)
