"""Quark tag classes (docs/algorithms.md section 4) and the tags that break text into lines.

S (super) tags are always block roots; we treat them as invisible: their text (scripts,
styles, head, frames, embedded objects) never reaches a block. B (big) tags become blocks
when enough text or L tags gathered under them. L (layout) tags are counted and passed up,
D (display) and A (affiliated) tags only pass their text up. C (customised) is not a class
of its own: it is a mark set on nodes by user tags or patterns (see ``pagemodel``).

NOSCRIPT is B, as in the thesis: a crawler runs no scripts, so it sees what a browser
without JavaScript shows, and script-rendered sites (Discourse forums, for one) put the
whole readable page there; the usual "turn on JavaScript" notice is a short noise line.
Deviations from the thesis, on purpose: TEMPLATE, SVG, CANVAS, MATH are S (no readable
text); SELECT (L in the thesis) and DATALIST are S: their options are form choices, and
read as text they run together into one long junk line; the HTML5 sectioning tags are B; unknown tags (custom elements) are B, namespaced ones D.
"""

from __future__ import annotations

from enum import IntEnum


class TagClass(IntEnum):
    """Quark tag class of an element."""

    S = 0
    B = 1
    L = 2
    D = 3
    A = 4


_S_TAGS = [
    "head",
    "script",
    "style",
    "object",
    "frameset",
    "frame",
    "iframe",
    "template",
    "svg",
    "canvas",
    "math",
    "noembed",
    "noframes",
    "applet",
    "embed",
    "select",
    "datalist",
]
_B_TAGS = [
    "div",
    "td",
    "table",
    "form",
    "fieldset",
    "center",
    "pre",
    "body",
    "html",
    "article",
    "section",
    "main",
    "aside",
    "nav",
    "header",
    "footer",
    "noscript",
]
_L_TAGS = [
    "p",
    "ul",
    "ol",
    "dl",
    "dir",
    "li",
    "dt",
    "blockquote",
    "address",
    "br",
    "hr",
    "col",
    "colgroup",
    "img",
    "menu",
    "figure",
    "figcaption",
    "details",
    "summary",
    "picture",
    "video",
    "audio",
]
_A_TAGS = [
    "input",
    "isindex",
    "legend",
    "link",
    "map",
    "meta",
    "option",
    "optgroup",
    "param",
    "th",
    "tr",
    "tbody",
    "thead",
    "tfoot",
    "title",
    "base",
    "caption",
    "area",
    "source",
    "track",
]

TAG_CLASSES: dict[str, TagClass] = {}
for _names, _cls in (
    (_A_TAGS, TagClass.A),
    (_L_TAGS, TagClass.L),
    (_B_TAGS, TagClass.B),
    (_S_TAGS, TagClass.S),
):
    for _name in _names:
        TAG_CLASSES[_name] = _cls


_D_TAGS = [
    "a",
    "abbr",
    "acronym",
    "b",
    "bdi",
    "bdo",
    "big",
    "blink",
    "button",
    "cite",
    "code",
    "data",
    "dd",
    "del",
    "dfn",
    "em",
    "font",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "i",
    "ins",
    "kbd",
    "label",
    "mark",
    "nobr",
    "q",
    "rp",
    "rt",
    "ruby",
    "s",
    "samp",
    "small",
    "span",
    "strike",
    "strong",
    "sub",
    "sup",
    "textarea",
    "time",
    "tt",
    "u",
    "var",
    "wbr",
    "marquee",
    "output",
    "meter",
    "progress",
]
for _name in _D_TAGS:
    TAG_CLASSES[_name] = TagClass.D


def tag_class(tag: str) -> TagClass:
    """Class of a lower-case tag name.

    Unknown names are B: a custom element (``<story>``, ``<article-body>``) is a container
    in practice, and content-heavy sites wrap whole articles in them. Namespaced tags
    (``o:p`` from word processors) stay D.
    """
    found = TAG_CLASSES.get(tag)
    if found is not None:
        return found
    return TagClass.D if ":" in tag else TagClass.B


#: Tags that start a new line of text when rendered: paragraph breaks in extracted text.
BREAK_TAGS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "br",
        "caption",
        "center",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "html",
        "legend",
        "li",
        "main",
        "menu",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
    ]
)

#: List containers that become their own block when they are mostly links (our addition:
#: a "related articles" or tag list inside the article container would otherwise be merged
#: into the content block).
LINK_LIST_TAGS = frozenset(["ul", "ol", "dl", "menu", "dir"])
