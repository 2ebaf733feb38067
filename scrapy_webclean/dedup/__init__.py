"""Near-duplicate pages (docs/algorithms.md section 3): ``NearDuplicateIndex.check_and_add``.

No Scrapy import here; ``scrapy_webclean.integration.dedup.DedupPipeline`` is the shell.
"""

from scrapy_webclean.dedup.fingerprint import Fingerprint, fingerprint, long_sentences
from scrapy_webclean.dedup.index import DedupOptions, Match, NearDuplicateIndex
from scrapy_webclean.dedup.store import DedupStore, MemoryDedupStore

__all__ = [
    "DedupOptions",
    "DedupStore",
    "Fingerprint",
    "Match",
    "MemoryDedupStore",
    "NearDuplicateIndex",
    "fingerprint",
    "long_sentences",
]
