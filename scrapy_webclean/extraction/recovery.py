"""The recovery step (step 5 of ``extract``): prose outside the region that the papers'
judges both place in the main text.

Path similarity (docs/algorithms.md section 5) and the in-page TF-IDF cosine of link-density
scopes (section 1). Measured on the dev sets, using them to *drop* lines inside the region
cost recall and bought no precision; as a recovery step they are neutral to slightly
positive.
"""

from __future__ import annotations

from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.extraction.options import ExtractOptions
from scrapy_webclean.extraction.paths import path_similarities, path_threshold, tag_path
from scrapy_webclean.extraction.tfidf import prune_scores
from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.segmentation.linkdensity import link_density_blocks


def second_opinion(
    model: PageModel,
    lines: list[Line],
    kept: list[bool],
    blocked: list[bool],
    opts: ExtractOptions,
) -> None:
    """Recover prose that lies outside the region, by the judges of the papers: sets
    ``kept[i]`` in place.

    A line not kept that is prose of at least ``recover_min_units``, not mostly links and
    not ``blocked`` (noise, template, strong-negative container) is added when both judges
    agree it belongs to the main text: its tag path is above the path-similarity threshold
    of the longest kept line (section 5) and its link-density scope (section 1) is not the
    main scope but has an in-page TF-IDF cosine of at least ``cosine_lambda`` to it
    (section 1, the corrected reading). Nothing is added when nothing was kept.
    """
    kept_lines = [i for i, k in enumerate(kept) if k]
    if not kept_lines:
        return
    candidates = [
        i
        for i, line in enumerate(lines)
        if not kept[i]
        and not blocked[i]
        and line.prose
        and line.link_density < opts.max_link_density
        and line.units >= opts.recover_min_units
    ]
    # Both judges must agree: the cheap one (path similarity) runs first, and the TF-IDF
    # of the page's scopes is computed only when some line passes it.
    longest = max(kept_lines, key=lambda i: lines[i].chars)
    reference = tag_path(model, lines[longest].node)
    threshold = path_threshold(len(reference))
    similarities = path_similarities(model, reference, [lines[i].node for i in candidates])
    candidates = [
        i for i, similarity in zip(candidates, similarities, strict=True) if similarity > threshold
    ]
    if not candidates:
        return
    scope_of = [-1] * len(model)
    scopes = link_density_blocks(model)
    for position, block in enumerate(scopes):
        end = block.node + model.node_count[block.node]
        scope_of[block.node : end] = [position] * (end - block.node)
    pieces: list[list[str]] = [[] for _ in scopes]
    for line in lines:
        if scope_of[line.node] >= 0:
            pieces[scope_of[line.node]].append(line.text)
    main, cosines = prune_scores(["\n".join(texts) for texts in pieces])
    for i in candidates:
        scope = scope_of[lines[i].node]
        if scope >= 0 and scope != main and cosines[scope] >= opts.cosine_lambda:
            kept[i] = True
