"""The labelled blocks of a cleaned page: the Quark segments with their final label.

A block is *content* when most of its text is text the extractor kept (or the headline and
byline it reported apart); a *figure* -- a block with a photo and at most a caption, inside
the article (the container of the kept text, or its parent) -- is content too, since the photo belongs to the
article whether or not its caption was kept as text; every other block keeps the Quark
classifier's label, content demoted to noise (the extractor did not keep it). The images
and links of a page are grouped by these labels (``CleanResult.images_by_label``): the
crawl tells the ad filter the photos of the content blocks, which it then never drops.
"""

from __future__ import annotations

from collections.abc import Sequence

from scrapy_webclean.ads.features import is_content_photo
from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.result import Block, Image, Link
from scrapy_webclean.segmentation.classify import BlockLabel, QuarkClassifier
from scrapy_webclean.segmentation.quark import QuarkOptions, segment_page, segment_text

#: A figure's caption is at most this long (characters); a longer text is a block of its own.
FIGURE_MAX_CHARS = 400
#: A block's path (:func:`node_path`) names at most this many levels above it (the
#: deepest page of the extraction sets is 50 levels deep).
NODE_PATH_MAX_LEVELS = 100
_PATH_CUT = "…"


def labelled_blocks(
    model: PageModel,
    kept_lines: Sequence[Line],
    classifier: QuarkClassifier,
    quark: QuarkOptions,
    explain: bool,
) -> list[Block]:
    """The Quark blocks of a page (``quark`` options), labelled as the module says;
    ``kept_lines`` are the lines the extractor kept (with the headline and byline)."""
    segments = segment_page(model, quark)
    texts = [segment_text(model, s) for s in segments]
    judgements = classifier.classify(model, segments, texts, similarity=explain)
    run_kept = [False] * len(model.runs)
    for line in kept_lines:
        for position in range(line.first_run, line.end_run):
            run_kept[position] = True
    # The article around the kept text: the container of the kept lines and its parent
    # (which holds the headline, the byline and the lead photo beside the text's own box).
    main = common_ancestor(model, [line.node for line in kept_lines])
    if main > 0:
        main = model.parents[main]
    main_end = main + model.node_count[main] if main >= 0 else -1
    blocks = []
    for index, (segment, text, judgement) in enumerate(
        zip(segments, texts, judgements, strict=False)
    ):
        images = [_image(model, i) for i in segment.images]
        label = _final_label(model, segment.runs, run_kept, judgement.label)
        if (
            label is not BlockLabel.CONTENT
            and main < segment.root < main_end
            and segment.text_len <= FIGURE_MAX_CHARS
            and any(is_content_photo(i.width, i.height, i.link) for i in images)
        ):
            label = BlockLabel.CONTENT  # a figure of the main content
        blocks.append(
            Block(
                index=index,
                label=label,
                text=text,
                path=node_path(model, segment.root),
                chars=segment.text_len,
                anchor_chars=segment.anchor_len,
                link_count=segment.link_count,
                punct_count=segment.punct_count,
                content_probability=round(judgement.content_probability, 4),
                similarity=round(judgement.similarity, 4),
                features=judgement.features,
                links=[Link(model.links[i].url, model.links[i].text) for i in segment.links],
                images=images,
                node=segment.root,
            )
        )
    return blocks


def common_ancestor(model: PageModel, nodes: Sequence[int]) -> int:
    """The deepest node whose subtree holds all ``nodes`` (-1 for none): the nearest
    ancestor-or-self of the first of them in document order whose subtree reaches the
    last (a subtree is a range of indices), one climb."""
    if not nodes:
        return -1
    parents, node_count = model.parents, model.node_count
    first, last = min(nodes), max(nodes)
    node = first
    while node >= 0 and node + node_count[node] <= last:
        node = parents[node]
    return node


def _final_label(
    model: PageModel, runs: list[int], run_kept: list[bool], quark_label: BlockLabel
) -> BlockLabel:
    """Content when most of the block's text was kept by the extractor; otherwise the
    Quark classifier's label (content demoted to noise)."""
    total = kept = 0
    for position in runs:
        length = len(model.runs[position].text.strip())
        total += length
        if run_kept[position]:
            kept += length
    if total and kept * 2 >= total:
        return BlockLabel.CONTENT
    return BlockLabel.NOISE if quark_label is BlockLabel.CONTENT else quark_label


def _image(model: PageModel, position: int) -> Image:
    ref = model.images[position]
    return Image(ref.src, ref.alt, ref.title, ref.width, ref.height, ref.link_url)


def node_path(model: PageModel, node: int) -> str:
    """A short CSS-like path to a node, e.g. ``body>div#main>div.article``: its nearest
    :data:`NODE_PATH_MAX_LEVELS` levels, after ``…>`` when the node is deeper (a path
    per block of a page nested a thousand levels deep was a thousand levels each)."""
    parts: list[str] = []
    while node > 0:
        if len(parts) == NODE_PATH_MAX_LEVELS:
            parts.append(_PATH_CUT)
            break
        element = model.elements[node]
        part = model.tags[node] or "?"
        element_id = element.get("id")
        if element_id:
            part += "#" + element_id.strip()
        else:
            classes = (element.get("class") or "").split()
            if classes:
                part += "." + classes[0]
        parts.append(part)
        node = model.parents[node]
    return ">".join(reversed(parts)) or model.tags[0]
