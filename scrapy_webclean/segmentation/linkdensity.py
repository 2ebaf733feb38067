"""Link-density segmentation (docs/algorithms.md section 1).

Link density of a node: ``rho = anchor chars / all chars`` of its subtree (0 without text).
Similarity of two neighbouring nodes: ``min(rho_a, rho_b) / max(rho_a, rho_b)``, 1 when both
are 0. Bottom-up: a node whose text-bearing children are all mutually similar (neighbours in
document order, above ``threshold``) and are themselves whole scopes is one *extraction
scope* with everything below it; as soon as the children of a node are not similar, each
child scope becomes a block ("local semantic node" PS_i). The root closes the last scope.

It runs beside the Quark segmentation on the same page model (one reverse scan, no
recursion) and feeds the TF-IDF pruning; ``LinkDensityBlock.node`` is the scope's root.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from scrapy_webclean.html.pagemodel import PageModel

#: Neighbour similarity (0-1) above which two sibling scopes belong together.
DEFAULT_THRESHOLD = 0.5


@dataclass(frozen=True, slots=True)
class LinkDensityBlock:
    """A scope: its root node, characters and anchor characters, and density (0-1)."""

    node: int
    chars: int
    anchor_chars: int

    @property
    def density(self) -> float:
        return self.anchor_chars / self.chars if self.chars else 0.0


def neighbour_similarity(rho_a: float, rho_b: float) -> float:
    """``min/max`` of two link densities (0-1); 1 when both are 0."""
    high = max(rho_a, rho_b)
    return 1.0 if high == 0 else min(rho_a, rho_b) / high


def link_density_blocks(
    model: PageModel, threshold: float = DEFAULT_THRESHOLD
) -> list[LinkDensityBlock]:
    """Segment a page by link density; blocks in document order, only those with text."""
    n = len(model)
    if n == 0:
        return []
    text_len, anchor_len, node_count = model.text_len, model.anchor_len, model.node_count
    visible = model.visible
    whole = [True] * n  # the node's subtree is still one scope
    is_block = [False] * n
    for parent in range(n - 1, -1, -1):
        if not visible[parent]:
            continue
        children = []
        child, stop = parent + 1, parent + node_count[parent]
        while child < stop:
            if visible[child] and text_len[child]:
                children.append(child)
            child += node_count[child]
        if not children:
            continue
        similar = all(whole[c] for c in children)
        if similar:
            for left, right in itertools.pairwise(children):
                rho_left = anchor_len[left] / text_len[left]
                rho_right = anchor_len[right] / text_len[right]
                if neighbour_similarity(rho_left, rho_right) < threshold:
                    similar = False
                    break
        if not similar:
            whole[parent] = False
            for c in children:
                if whole[c]:
                    is_block[c] = True
    if whole[0] and text_len[0]:
        is_block[0] = True
    return [LinkDensityBlock(i, text_len[i], anchor_len[i]) for i in range(n) if is_block[i]]
