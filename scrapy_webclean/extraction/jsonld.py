"""The page's JSON-LD (``<script type="application/ld+json">``), read as schema.org
objects: the publication date (``dates``) and the text a page declares, a product's
description and a FAQ (``declared``), come from it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import lru_cache

from lxml import etree

#: JSON-LD objects looked at per page, at most (a catalogue page may list thousands).
MAX_JSON_OBJECTS = 2000


def json_ld_items(root: etree._Element, needles: tuple[str, ...] = ("",)) -> list[object]:
    """The parsed JSON-LD scripts of the page whose text holds one of ``needles`` (a
    cheap substring test before the parse); a script that is not valid JSON is skipped."""
    items: list[object] = []
    for script in root.iter("script"):
        if "ld+json" not in (script.get("type") or "").lower():
            continue
        text = (script.text or "").strip()
        if not text or not any(needle in text for needle in needles):
            continue
        parsed = _parsed(text)
        if parsed is not _INVALID:
            items.append(parsed)
    return items


#: What :func:`_parsed` gives for a script that is not valid JSON.
_INVALID = object()


@lru_cache(maxsize=16)
def _parsed(text: str) -> object:
    """A script's JSON, parsed once though both the date and the declared text read the
    same scripts of a page (callers read it, never change it)."""
    try:
        return json.loads(text)
    except ValueError:
        return _INVALID


def json_objects(items: list[object]) -> Iterator[dict[str, object]]:
    """The JSON objects in ``items``, breadth first (iteratively), at most
    :data:`MAX_JSON_OBJECTS`: objects before the ones nested in them."""
    queue = list(items)
    seen = 0
    while queue and seen < MAX_JSON_OBJECTS:
        following: list[object] = []
        for item in queue:
            if isinstance(item, dict):
                seen += 1
                yield item
                following.extend(v for v in item.values() if isinstance(v, (dict, list)))
            elif isinstance(item, list):
                following.extend(v for v in item if isinstance(v, (dict, list)))
        queue = following


def types_of(obj: dict[str, object]) -> list[str]:
    """An object's ``@type`` names, lower-cased (one or a list; a full schema.org URL
    counts by its last part)."""
    declared = obj.get("@type")
    names = declared if isinstance(declared, list) else [declared]
    return [name.rsplit("/", 1)[-1].lower() for name in names if isinstance(name, str)]
