"""NRelm1, the keyword model of docs/algorithms.md section 2: noise words in what an image link
says about itself.

A link is described by four fields: its image URL's tokens, its link target's tokens, the
class and id words of its containers (``adBox`` gives ad, box) and its alt, title and
anchor text. A noise word counts once per field it occurs in, with its weight (the list
is data: ``ads/data/ad_words.txt``), so "Sponsor" in a class name *and* in the alt text is
stronger evidence than either; the sum is capped. Chinese text is cut into jieba's words,
so that 广告 is found in 点击查看广告 and 广告位 but not across two words (宽广 告别).

The other two models of the section learn from the crawl (``ads/models.py``); this one
needs nothing but the link.
"""

from __future__ import annotations

from collections.abc import Mapping

from scrapy_webclean.ads.features import tokens, url_tokens
from scrapy_webclean.ads.links import ImageLink
from scrapy_webclean.text.wordlists import read_word_list


def _read_weights(path: str) -> dict[str, float]:
    weights = {}
    for entry in read_word_list(path):
        word, _, weight = entry.rpartition(" ")
        weights[word.strip()] = float(weight)
    return weights


#: The noise words and their weights (``ads/data/ad_words.txt``). Extendable in settings
#: (``WEBCLEAN_ADS_NOISE_WORDS``).
DEFAULT_AD_WORDS: dict[str, float] = _read_weights("ads/data/ad_words.txt")

#: The most the noise words of one link add to its ad evidence.
DEFAULT_KEYWORD_CAP = 2.0
#: An alt, title or anchor text of more words than this is a headline or a caption, not
#: a label ("Advertisement", "Sponsored link"): its words are not read for noise words
#: ("State-sponsored malware found" is a story).
MAX_LABEL_WORDS = 4


def noise_words(words: set[str], weights: Mapping[str, float]) -> set[str]:
    """The noise words (the keys of ``weights``) that a field's ``words`` hold: a word
    itself, or a Chinese noise word inside a Chinese word (jieba keeps compounds whole:
    广告位 holds 广告, 赞助商 赞助; the cut keeps it from matching across two words, as in
    宽广告别, 宽广 告别)."""
    found = {word for word in words if word in weights}  # (not a walk of all weights)
    chinese = [word for word in words if word[0] >= "\u4e00"]
    if chinese:
        found.update(
            noise
            for noise in weights
            if noise[0] >= "\u4e00" and any(noise in word for word in chinese)
        )
    return found


class NoiseWordModel:
    """NRelm1: the noise-word evidence of one image link (see the module docstring)."""

    def __init__(
        self, words: Mapping[str, float] | None = None, cap: float = DEFAULT_KEYWORD_CAP
    ) -> None:
        self.words: Mapping[str, float] = DEFAULT_AD_WORDS if words is None else words
        self.cap = cap

    def fields(self, link: ImageLink) -> tuple[set[str], ...]:
        """The link's four fields as sets of words: image URL, link target, containers,
        alt/title/anchor text (each of the three only when it is a label: at most
        ``MAX_LABEL_WORDS`` words)."""
        context: set[str] = set()
        for names in link.context:
            context.update(class_tokens(names))
        text: set[str] = set()
        for part in (link.alt, link.title, link.anchor):
            words = tokens(part)
            if len(words) <= MAX_LABEL_WORDS:
                text.update(words)
        return (set(url_tokens(link.src)), set(url_tokens(link.link)), context, text)

    def score(self, link: ImageLink) -> float:
        """The summed weights of the noise words found, field by field, capped at
        ``cap`` (0 when none)."""
        weights = self.words
        found = sum(
            sum(weights[word] for word in noise_words(field, weights))
            for field in self.fields(link)
        )
        return min(found, self.cap)


def class_tokens(words: str) -> list[str]:
    """Tokens of class/id words, camelCase split (``adBox`` -> ad, box)."""
    spaced = "".join(f" {c}" if c.isupper() else c for c in words)
    return tokens(spaced)
