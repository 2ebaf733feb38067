"""What a page lays over or slots into its text and is never part of it: a cookie or
consent dialog, an ad slot. They are taken out of the parsed page before it is read
(:func:`drop_overlays`), so that a banner or an ad added to a page cannot move the region,
the page type, the page's text shares or any line's neighbours: the page reads as it does
without them.

The hints (``hints``) already mark such containers strong negative, so their lines were
never kept; but while they stayed in the page they still weighed on its scores and
features, and a consent banner added to a page changed its text on 3% of the stability
benchmark's versions, an injected ad slot on 5% (``benchmarks/stability.py``).
A container is read by its ``class`` and ``id`` words, as the hints read them: a consent
dialog by :func:`~scrapy_webclean.extraction.hintwords.names_consent`, an ad slot by
:data:`AD_SLOT_RE`, unless it holds more than :data:`AD_MAX_TEXT_SHARE` of the page's
text shown (a page that wraps its article in "ad-container" keeps it). A post's own
taxonomy ("category-advertising") and a state ("has-ads") name nothing
(:func:`~scrapy_webclean.extraction.hintwords.naming_tokens`). One XPath pass finds the
candidates (:data:`CANDIDATE_WORDS` in their names); only those are read in Python.
"""

from __future__ import annotations

import re

from lxml import etree

from scrapy_webclean.extraction.hintwords import names_consent, naming_tokens

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

_NAMES = "translate(concat(@class, ' ', @id), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', " + (
    "'abcdefghijklmnopqrstuvwxyz')"
)
_CANDIDATES = etree.XPath(
    "//*[@class or @id]["
    + " or ".join(f"contains({_NAMES}, '{word}')" for word in CANDIDATE_WORDS)
    + "]"
)


def is_overlay(element: etree._Element, page_chars: int) -> bool:
    """True for a consent dialog, or an ad slot of at most :data:`AD_MAX_TEXT_SHARE` of
    the page's ``page_chars`` characters of text."""
    if not isinstance(element.tag, str) or element.tag not in OVERLAY_TAGS:
        return False
    words = " ".join(filter(None, (element.get("class"), element.get("id"))))
    if names_consent(words):
        return True
    return any(AD_SLOT_RE.search(token) for token in naming_tokens(words)) and (
        _text_chars(element) <= AD_MAX_TEXT_SHARE * page_chars
    )


#: Elements whose text is no text on show.
RAW_TEXT_TAGS = frozenset(("script", "style", "noscript", "template"))


def _text_chars(element: etree._Element) -> int:
    """The characters of text an element shows (not its scripts' or styles')."""
    chars = 0
    for el in element.iter():
        if isinstance(el.tag, str) and el.tag not in RAW_TEXT_TAGS and el.text:
            chars += len(el.text)
        if el is not element and el.tail:
            chars += len(el.tail)
    return chars


def drop_overlays(root: etree._Element) -> int:
    """Take the consent dialogs and ad slots (:func:`is_overlay`) out of the parsed page
    (the text after each stays where it was); returns how many were taken out."""
    candidates = _CANDIDATES(root)
    if not candidates:
        return 0
    page_chars = _text_chars(root)
    dropped: set[etree._Element] = set()
    for element in candidates:
        parent = element.getparent()
        if parent is None or not is_overlay(element, page_chars):
            continue
        if any(above in dropped for above in element.iterancestors()):
            continue  # (inside an overlay taken out already)
        if element.tail:
            previous = element.getprevious()
            if previous is not None:
                previous.tail = (previous.tail or "") + element.tail
            else:
                parent.text = (parent.text or "") + element.tail
        parent.remove(element)
        dropped.add(element)
    return len(dropped)
