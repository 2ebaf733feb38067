"""Text utilities shared by every stage: language guess, tokens, sentences, stop words."""

from scrapy_webclean.text.language import guess_language, han_share
from scrapy_webclean.text.sentences import split_sentences
from scrapy_webclean.text.stopwords import all_stopwords, stopwords
from scrapy_webclean.text.tokenize import content_tokens, tokenize

__all__ = [
    "all_stopwords",
    "content_tokens",
    "guess_language",
    "han_share",
    "split_sentences",
    "stopwords",
    "tokenize",
]
