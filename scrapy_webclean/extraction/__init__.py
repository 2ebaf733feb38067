"""Main-content extraction over the page model: lines, hints, the main region."""

from scrapy_webclean.extraction.extract import Extraction, ExtractOptions, extract_main
from scrapy_webclean.extraction.lines import Line, build_lines

__all__ = ["ExtractOptions", "Extraction", "Line", "build_lines", "extract_main"]
