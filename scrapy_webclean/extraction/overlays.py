"""What a page lays over or slots into its text and is never part of it: a cookie or
consent dialog, an ad slot. Their lines are taken out before the extractor reads the page
(:func:`without_overlays`), so that a banner or an ad added to a page cannot move the
region, the page type or any line's neighbours: the page reads as it does without them.
(The page model keeps them: the block report still shows them, as noise.)

The hints (``hints``) already mark such containers strong negative, so their lines were
never kept; but while they stayed in the page they still weighed on its scores and
features, and a consent banner added to a page changed its text on 3% of the stability
benchmark's versions, an injected ad slot on 5% (``benchmarks/stability.py``).
A container is read by its ``class`` and ``id`` words, as the hints read them: a consent
dialog by :func:`~scrapy_webclean.extraction.hintwords.names_consent`, an ad slot by
:data:`AD_SLOT_RE`, unless it holds more than :data:`AD_MAX_TEXT_SHARE` of the page's
text (a page that wraps its article in "ad-container" keeps it). A post's own
taxonomy ("category-advertising") and a state ("has-ads") name nothing
(:func:`~scrapy_webclean.extraction.hintwords.naming_tokens`). A quick search for
:data:`CANDIDATE_WORDS` in an element's names comes first; only those are read further.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

from scrapy_webclean.extraction.hintwords import names_consent, naming_tokens
from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.html.pagemodel import PageModel

#: Class and id tokens of an ad slot: an ad unit's own words ("ad-slot", "ad_unit",
#: "adsbygoogle", "advertisement"), each starting a token or a part of one.
AD_SLOT_RE = re.compile(
    r"(?<![a-z0-9])(?:ad[-_](?:slot|unit|container|wrapper|placement|label|zone)s?"
    r"|adslot|adunit|adsbygoogle|advertisement|advertising)(?![a-z0-9])"
)
#: An ad-named container holding more than this share of the page's text is no ad slot.
AD_MAX_TEXT_SHARE = 0.2
#: The tags an overlay or an ad slot is made of.
OVERLAY_TAGS = frozenset(("div", "section", "aside", "dialog", "ins", "span", "p", "form"))
#: Lower-cased parts of a name that make an element a candidate (a superset of what
#: :func:`names_consent` and :data:`AD_SLOT_RE` accept).
CANDIDATE_WORDS = ("cookie", "consent", "gdpr", "ad-", "ad_", "adslot", "adunit", "advert")

#: Finds a :data:`CANDIDATE_WORDS` part in a lower-cased name (the quick test).
_CANDIDATE_RE = re.compile("|".join(map(re.escape, CANDIDATE_WORDS)))


def is_overlay(element: etree._Element, chars: int, page_chars: int) -> bool:
    """True for a consent dialog, or an ad slot showing ``chars`` characters of text, at
    most :data:`AD_MAX_TEXT_SHARE` of the page's ``page_chars``."""
    words = " ".join(filter(None, (element.get("class"), element.get("id"))))
    if not words or _CANDIDATE_RE.search(words.lower()) is None:
        return False
    if names_consent(words):
        return True
    return chars <= AD_MAX_TEXT_SHARE * page_chars and any(
        AD_SLOT_RE.search(token) for token in naming_tokens(words)
    )


def overlay_nodes(model: PageModel) -> list[bool]:
    """For every node of the page model: whether it is a consent dialog or an ad slot
    (:func:`is_overlay`), or inside one."""
    n = len(model)
    inside = [False] * n
    if not n:
        return inside
    tags, elements, parents, text_len = model.tags, model.elements, model.parents, model.text_len
    page_chars = text_len[0]
    overlay_tags = OVERLAY_TAGS
    for i in range(1, n):
        if inside[parents[i]]:
            inside[i] = True
        elif text_len[i] and tags[i] in overlay_tags:
            inside[i] = is_overlay(elements[i], text_len[i], page_chars)
    return inside


def without_overlays(model: PageModel, lines: Sequence[Line]) -> list[Line]:
    """``lines`` less those in a consent dialog or an ad slot (:func:`overlay_nodes`)."""
    if not lines:
        return list(lines)
    inside = overlay_nodes(model)
    return [line for line in lines if not inside[line.node]]
