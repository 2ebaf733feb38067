"""Page segmentation: Quark tag-class segmentation and block classifier, over the page model
(``html.pagemodel``)."""

from scrapy_webclean.segmentation.classify import (
    BlockLabel,
    ClassifierOptions,
    NaiveBayesPriors,
    QuarkClassifier,
)
from scrapy_webclean.segmentation.quark import QuarkOptions, Segment, segment_page, segment_text

__all__ = [
    "BlockLabel",
    "ClassifierOptions",
    "NaiveBayesPriors",
    "QuarkClassifier",
    "QuarkOptions",
    "Segment",
    "segment_page",
    "segment_text",
]
