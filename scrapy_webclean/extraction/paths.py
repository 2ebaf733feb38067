"""Tag-path similarity of text leaves (docs/algorithms.md section 5).

Every text leaf has a tag path from the root. Two paths are compared position by position
from the root: ``sim = sum over depths d where the tags match of 1 / 2**d`` (d from 1), so
a shared prefix of ``k`` tags scores ``1 - 1/2**k``. With ``L`` the leaf holding the most
characters, leaves whose similarity to ``L`` is above ``Th = 1 - 1 / 2**(depth(L) - 2)``
(at least a common grandparent) are main text.
"""

from __future__ import annotations

from collections.abc import Sequence

from scrapy_webclean.html.pagemodel import PageModel


def tag_path(model: PageModel, node: int) -> list[str]:
    """Tag names from the root down to ``node`` (inclusive)."""
    path = []
    while node >= 0:
        path.append(model.tags[node])
        node = model.parents[node]
    path.reverse()
    return path


def path_similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """Positional path similarity (0-1): ``sum of 1/2**d`` over depths with equal tags."""
    return sum(0.5**depth for depth, (x, y) in enumerate(zip(a, b, strict=False), 1) if x == y)


def path_threshold(depth: int) -> float:
    """``Th = 1 - 1/2**(depth - 2)`` for a longest leaf at ``depth`` (tags on its path)."""
    return 1.0 - 0.5 ** max(depth - 2, 0)


def path_similarities(
    model: PageModel, reference: Sequence[str], nodes: Sequence[int]
) -> list[float]:
    """``path_similarity(reference, tag_path(model, node))`` of each of ``nodes``, each
    node's path climbed once: a node's similarity is its parent's plus its own depth's
    term, added in the same order as :func:`path_similarity` adds them. (A path per line
    cost the page's depth per line.)"""
    tags, parents = model.tags, model.parents
    known: dict[int, tuple[int, float]] = {}  # node -> (tags on its path, similarity)
    found = []
    for node in nodes:
        climbed = []
        while node >= 0 and node not in known:
            climbed.append(node)
            node = parents[node]
        length, similarity = known[node] if node >= 0 else (0, 0.0)
        for below in reversed(climbed):
            length += 1
            if length <= len(reference) and tags[below] == reference[length - 1]:
                similarity += 0.5**length
            known[below] = (length, similarity)
        found.append(similarity)
    return found
