"""Domain-disjoint folds for every benchmark set: the one split that training and
evaluation share.

A page's fold is a fixed hash of its *registered domain* (the Public Suffix List's
registrable domain, by ``tldextract``'s bundled snapshot, never a network fetch), so the
pages of one site, in whichever set they are, always fall into the same fold: a weight
trained on folds ``!= k`` has never seen a site of fold ``k``.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from scrapy_webclean.urls import organization_domain

#: The number of folds (``../shared/datasets/README.md``: 5).
FOLDS = 5


def registered_domain(url_or_host: str) -> str:
    """The registrable domain of a URL or a bare host by the ICANN section of the Public
    Suffix List (``news.bbc.co.uk`` -> ``bbc.co.uk``; the blogs of one platform are one
    domain here, so a platform's shared template never spans two folds): the package's
    ``urls.organization_domain``; the host itself when it has no public suffix
    (``163.invalid``, an IP address)."""
    text = url_or_host.strip().lower()
    host = urlsplit(text).hostname if "//" in text else text.split("/")[0]
    return organization_domain((host or "").strip("."))


def fold_of(url_or_host: str, folds: int = FOLDS) -> int:
    """The fold (``0 .. folds-1``) of a URL's or host's registered domain: an MD5 of the
    domain, so it never changes between runs, machines or Python versions."""
    domain = registered_domain(url_or_host)
    return int.from_bytes(hashlib.md5(domain.encode()).digest()[:4], "big") % folds
