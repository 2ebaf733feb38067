"""Domain-disjoint folds for every benchmark set: the one split that training and
evaluation share.

A page's fold is a fixed hash of its *registered domain* (the Public Suffix List's
registrable domain, by ``tldextract``'s bundled snapshot, never a network fetch), so the
pages of one site, in whichever set they are, always fall into the same fold: a weight
trained on folds ``!= k`` has never seen a site of fold ``k``.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from urllib.parse import urlsplit

import tldextract

#: The number of folds (``../shared/datasets/README.md``: 5).
FOLDS = 5

# The bundled snapshot only: no fetch of the list, no cache on disk.
_EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


@lru_cache(maxsize=65536)
def registered_domain(url_or_host: str) -> str:
    """The registrable domain of a URL or a bare host (``news.bbc.co.uk`` -> ``bbc.co.uk``);
    the host itself when it has no public suffix (``163.invalid``, an IP address)."""
    text = url_or_host.strip().lower()
    host = urlsplit(text).hostname if "//" in text else text.split("/")[0]
    host = (host or "").strip(".")
    parts = _EXTRACT(host)
    if parts.domain and parts.suffix:
        return f"{parts.domain}.{parts.suffix}"
    return host.removeprefix("www.")


def fold_of(url_or_host: str, folds: int = FOLDS) -> int:
    """The fold (``0 .. folds-1``) of a URL's or host's registered domain: an MD5 of the
    domain, so it never changes between runs, machines or Python versions."""
    domain = registered_domain(url_or_host)
    return int.from_bytes(hashlib.md5(domain.encode()).digest()[:4], "big") % folds
