"""The verdict on one image link (``AdImageModel.judge``): drop or keep, its kind, its
evidence and the rules that fired, named as the crawl's stats name them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["ad", "pixel", "template", "content"]


@dataclass(slots=True, frozen=True)
class Verdict:
    """What to do with one image link. ``score`` is the noise evidence (0 = none; ads
    score at least ``ad_threshold``); ``reasons`` name the signals that fired;
    ``certain`` is False while the site has too few pages for the statistics."""

    drop: bool
    kind: Kind
    score: float
    reasons: tuple[str, ...] = ()
    certain: bool = True

    @property
    def reason(self) -> str:
        """The main reason: for a template image the statistic that found it, for an ad
        its strongest evidence; the kind when nothing fired."""
        order = _TEMPLATE_REASONS if self.kind == "template" else _AD_REASONS
        for reason in order:
            if reason in self.reasons:
                return reason
        return self.reasons[0] if self.reasons else self.kind


_TEMPLATE_REASONS = ("redundant", "redundant_on_platform", "redundant_on_host", "anchor_entropy")
_AD_REASONS = (
    "filter_list",
    "ad_host",
    "noise_words",
    "ad_size",
    "pixel",
    "serves_ads_here",
    "third_party",
)
