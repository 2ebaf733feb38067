"""Formulas written in MathML, made text before the page is read.

The page walk skips a ``<math>`` element's subtree, as it skips an SVG drawing, so an
article's formulas vanished from its text ("The roots are  for every equation").
:func:`inline_formulas` puts each formula's text in its place, as a ``<span>`` the walk
reads: the TeX source its ``<annotation>`` carries (Wikipedia, MathJax's assistive
MathML), else its ``alttext`` attribute, else the text of its tokens as they are shown
(``x=-b±√b2-4ac``). A formula of more than :data:`FORMULA_MAX_CHARS` characters is cut
there.
"""

from __future__ import annotations

import re

from lxml import etree

#: A formula's text is at most this many characters long.
FORMULA_MAX_CHARS = 2000
#: The ``encoding`` of an ``<annotation>`` that holds a formula's TeX source.
TEX_ENCODINGS = frozenset(("application/x-tex", "tex", "latex", "text/x-tex"))

_MATH = etree.XPath("//*[local-name() = 'math']")


def _local(tag: object) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def formula_text(math: etree._Element) -> str:
    """A ``<math>`` element's text: its TeX annotation, its ``alttext``, or its tokens."""
    for element in math.iter():
        if (
            _local(element.tag) == "annotation"
            and (element.get("encoding") or "").strip().lower() in TEX_ENCODINGS
        ):
            tex = (element.text or "").strip()
            if tex:
                return tex[:FORMULA_MAX_CHARS]
    alt = (math.get("alttext") or "").strip()
    if alt:
        return alt[:FORMULA_MAX_CHARS]
    shown = []
    size = 0
    for element in math.iter():
        name = _local(element.tag)
        if name in ("annotation", "annotation-xml"):
            continue
        text = (element.text or "").strip()
        if text:
            shown.append(text)
            size += len(text)
            if size >= FORMULA_MAX_CHARS:
                break
    return "".join(shown)[:FORMULA_MAX_CHARS]


#: A page's markup holds MathML (the quick test before the tree is searched).
MATH_TAG_RE = re.compile(r"<(?:[a-z0-9_-]{1,20}:)?math[\s>/]", re.I)


def inline_formulas(root: etree._Element, markup: str | None = None) -> int:
    """Replace every outermost ``<math>`` element of the page with a ``<span>`` of its
    text (:func:`formula_text`), keeping its tail; returns how many were replaced. With
    the page's ``markup``, a page that holds no ``<math`` tag is not searched."""
    if markup is not None and MATH_TAG_RE.search(markup) is None:
        return 0
    replaced = 0
    for math in _MATH(root):
        parent = math.getparent()
        if parent is None or any(_local(a.tag) == "math" for a in math.iterancestors()):
            continue
        span = etree.Element("span")
        span.set("class", "math")
        span.text = formula_text(math)
        span.tail = math.tail
        parent.replace(math, span)
        replaced += 1
    return replaced
