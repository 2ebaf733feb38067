"""Page segmentation: the block model, Quark tag-class segmentation and block classifier."""

from scrapy_webclean.segmentation.blockmodel import PageModel, build_page_model
from scrapy_webclean.segmentation.classify import (
    BlockLabel,
    ClassifierOptions,
    NaiveBayesPriors,
    QuarkClassifier,
)
from scrapy_webclean.segmentation.quark import QuarkOptions, Segment, segment_page, segment_text
from scrapy_webclean.segmentation.tagclasses import TagClass, tag_class

__all__ = [
    "BlockLabel",
    "ClassifierOptions",
    "NaiveBayesPriors",
    "PageModel",
    "QuarkClassifier",
    "QuarkOptions",
    "Segment",
    "TagClass",
    "build_page_model",
    "segment_page",
    "segment_text",
    "tag_class",
]
