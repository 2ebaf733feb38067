"""The thresholds and weights of ``AdImageModel`` (its module docstring says how they
combine into a verdict)."""

from __future__ import annotations

from dataclasses import dataclass, field

from scrapy_webclean.ads.keywords import DEFAULT_AD_WORDS, DEFAULT_KEYWORD_CAP


@dataclass(slots=True)
class AdModelOptions:
    """Thresholds of :class:`AdImageModel` (see the module docstring)."""

    ad_threshold: float = 2.0
    ad_host_weight: float = 2.0
    pixel_weight: float = 1.0
    ad_size_weight: float = 1.0
    keyword_cap: float = DEFAULT_KEYWORD_CAP
    third_party_weight: float = 0.5
    #: A third-party host that served ads on this many pages of the site adds this much
    #: to the evidence of its other images (learned during the crawl).
    ad_host_pages: int = 1
    learned_ad_host_weight: float = 1.0
    min_pages: int = 4
    redundancy_threshold: float = 0.5
    #: Confidence of the redundancy test: the share's Wilson lower bound at this many
    #: standard deviations must reach the threshold (few pages, more caution).
    redundancy_z: float = 1.5
    #: The same for a teaser of another article (:func:`~.features.is_teaser`), which
    #: repeats for a while and is content.
    teaser_redundancy_z: float = 2.0
    #: An image on ``redundancy_threshold`` of the site's pages or more whose lower bound
    #: falls short is not certain yet: a crawler waits for more pages.
    borderline_waits: bool = True
    entropy_threshold: float = 0.95
    #: An image the cleaner found in the main content of at least this share of the
    #: cleaned pages that show it is never template on the site (``note_main_content``).
    main_content_share: float = 0.5
    drop_template: bool = True
    words: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_AD_WORDS))
    #: Pages whose image links are kept for ``judge`` (least recently observed dropped).
    recent_pages: int = 512
