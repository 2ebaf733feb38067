"""Text lines: the unit the extractor keeps or drops.

A line is a maximal sequence of text runs with no line break between them (a paragraph, a
heading, a list item, a menu entry). Each line is attached to its *container*: the nearest
ancestor-or-self of its first run's owner that is not an inline (D-class) element, so that
``<p>text <a>link</a></p>`` belongs to the ``<p>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.html.tagclasses import TagClass
from scrapy_webclean.segmentation.classify import text_units

#: Sentence-ending punctuation: a line with one reads like prose.
_SENTENCE_END = frozenset("。！？!?.…；;")


@dataclass(slots=True)
class Line:
    """One line of visible text. Lengths in characters (``chars``) and text units;
    ``custom`` when the line sits in a customised (C) element, such as the headline."""

    first_run: int
    end_run: int
    node: int
    text: str
    chars: int
    anchor_chars: int
    units: float
    custom: bool = False
    prose: bool = False

    @property
    def link_density(self) -> float:
        """Anchor chars / chars (0-1)."""
        return self.anchor_chars / self.chars if self.chars else 0.0


#: Characters that take no room on screen: zero-width space, non-joiner and joiner, word
#: joiner, byte order mark, soft hyphen. A line of nothing else shows nothing.
INVISIBLE_CHARS = frozenset("\u200b\u200c\u200d\u2060\ufeff\u00ad")


def shows_text(text: str) -> bool:
    """True when ``text`` has a character that shows: not a space, not one of
    :data:`INVISIBLE_CHARS` (a line of a lone zero-width joiner is no text)."""
    return any(not c.isspace() and c not in INVISIBLE_CHARS for c in text)


#: What may follow a sentence's end: closing quotes and brackets, spaces.
_CLOSERS = "”’\"')）」』] "


def is_prose(text: str) -> bool:
    """True when a line ends like a sentence (closing quotes and brackets aside)."""
    stripped = text.rstrip(_CLOSERS)
    return bool(stripped) and stripped[-1] in _SENTENCE_END


def build_lines(model: PageModel) -> list[Line]:
    """Group the page's runs into lines, in reading order."""
    runs = model.runs
    classes, parents, custom_marks = model.classes, model.parents, model.custom
    inline = TagClass.D
    lines: list[Line] = []
    # (an inline element's container and C mark, found once: see _container)
    containers: dict[int, tuple[int, bool]] = {}
    n = len(runs)
    # Line starts: the first run and every run after a line break.
    starts = [0] + [i for i in range(1, n) if runs[i].line_break] if n else []
    starts.append(n)
    for start, end in pairwise(starts):
        if end - start == 1:  # most lines are one run
            run = runs[start]
            text = run.text.strip()
            chars = run.length
            anchor = chars if run.anchor else 0
        else:
            pieces = runs[start:end]
            text = "".join([run.text for run in pieces]).strip()
            chars = anchor = 0
            for run in pieces:
                chars += run.length
                if run.anchor:
                    anchor += run.length
        if not text:
            continue
        node = runs[start].owner
        if node > 0 and classes[node] is inline:
            node, custom = _container(node, parents, classes, custom_marks, containers)
        else:
            custom = custom_marks[node]
        lines.append(
            Line(start, end, node, text, chars, anchor, text_units(text), custom, is_prose(text))
        )
    return lines


def _container(
    node: int,
    parents: list[int],
    classes: list[TagClass],
    custom_marks: list[bool],
    known: dict[int, tuple[int, bool]],
) -> tuple[int, bool]:
    """The container of an inline element (its nearest ancestor that is not inline, or
    the root) and whether it or any element up to the container is customised (C).
    ``known`` holds the answers of the inline elements climbed through before: lines
    deep in nested inline elements (``<b>`` in ``<b>`` ...) climb each element once."""
    climbed: list[int] = []
    while node > 0 and classes[node] is TagClass.D:
        answer = known.get(node)
        if answer is not None:
            container, custom = answer
            break
        climbed.append(node)
        node = parents[node]
    else:
        container, custom = node, custom_marks[node]
    for inline in reversed(climbed):  # (from the top down: a mark holds for those below)
        custom = custom or custom_marks[inline]
        known[inline] = (container, custom)
    return container, custom
