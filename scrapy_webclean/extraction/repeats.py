"""Kept lines that say again what an earlier kept line said, word for word.

Two passes, both changing ``kept`` in place:

- ``drop_repeated_lines`` (a product page): a shop renders its buy box once per screen
  size, so every repeat is a second rendering.
- ``drop_repeated_copies`` (every page, on the final verdicts): a line repeated from
  another place of the page -- a reply quoting the first post, a second copy of the
  article for another screen size -- is dropped; a line repeated in the same place of a
  repeating structure (the same tags and classes up to the root: a meal plan's "1 cup
  strawberries" each day, a question asked of every interviewee, a docs page's code in
  each language's tab) is the text and stays.
"""

from __future__ import annotations

from collections.abc import Callable

from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.html.pagemodel import PageModel

__all__ = ["REPEATED_LINE_MIN_WORDS", "drop_repeated_copies", "drop_repeated_lines"]

#: A kept line of a product page that repeats an earlier one is a second rendering of the
#: buy box from this many words on.
REPEATED_LINE_MIN_WORDS = 5

#: The tags and classes of an element and its ancestors, up to the root.
ElementPath = tuple[tuple[str, str], ...]


def drop_repeated_lines(
    lines: list[Line],
    kept: list[bool],
    product: Callable[[], bool],
    min_words: int = REPEATED_LINE_MIN_WORDS,
) -> None:
    """On a product page (``product()``, asked only when a line repeats), a kept line of
    ``min_words`` or more that repeats an earlier kept line word for word is a second
    rendering of the buy box (shops render it once per screen size), not more text.
    (Elsewhere repeated lines are often the text: a meal plan, a timetable.)"""
    seen: set[str] = set()
    repeats: list[int] = []
    for i, line in enumerate(lines):
        if not kept[i]:
            continue
        words = line.text.split()
        if len(words) < min_words:
            continue
        key = " ".join(words)
        if key in seen:
            repeats.append(i)
        seen.add(key)
    if repeats and product():
        for i in repeats:
            kept[i] = False


def drop_repeated_copies(
    model: PageModel, lines: list[Line], kept: list[bool], min_units: float
) -> None:
    """Drop a kept line of ``min_units`` text units or more that repeats an earlier kept
    line word for word from an element of another path (``element_path``): a quoted post,
    a second copy of the text. A repeat on the same path (an item of a repeating
    structure) is kept."""
    first: dict[str, int] = {}
    paths = _PathIds(model)
    for i, line in enumerate(lines):
        if not kept[i] or line.units < min_units:
            continue
        key = " ".join(line.text.split())
        earlier = first.setdefault(key, i)
        if earlier == i:
            continue
        if paths.of(line.node) != paths.of(lines[earlier].node):
            kept[i] = False


class _PathIds:
    """A number per distinct :func:`element_path`, found once per node: two nodes have
    the same path exactly when they have the same number (a node's number is that of its
    tag, its class and its parent's number). Comparing paths climbed from both nodes to
    the root cost the page's depth per repeated line."""

    def __init__(self, model: PageModel) -> None:
        self.model = model
        self.ids: dict[int, int] = {0: 0}  # (the root ends every path: the empty one)
        self.numbers: dict[tuple[str, str, int], int] = {}

    def of(self, node: int) -> int:
        tags, elements, parents = self.model.tags, self.model.elements, self.model.parents
        ids = self.ids
        climbed: list[int] = []
        while node > 0 and node not in ids:
            climbed.append(node)
            node = parents[node]
        number = ids.get(node, 0)
        for below in reversed(climbed):
            step = (tags[below], elements[below].get("class") or "", number)
            number = self.numbers.setdefault(step, len(self.numbers) + 1)
            ids[below] = number
        return number


def element_path(model: PageModel, node: int) -> ElementPath:
    """The tag and class attribute of ``node`` and of each of its ancestors."""
    tags, elements, parents = model.tags, model.elements, model.parents
    path: list[tuple[str, str]] = []
    while node > 0:
        path.append((tags[node], elements[node].get("class") or ""))
        node = parents[node]
    return tuple(path)
