"""Sphinx configuration of the scrapy-webclean documentation (``make docs``)."""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(DOCS.parent))

import scrapy_webclean  # noqa: E402 - needs the path set above

project = "scrapy-webclean"
author = "the scrapy-webclean authors"
copyright = "the scrapy-webclean authors, BSD-3-Clause"
release = scrapy_webclean.__version__
version = release

extensions = ["myst_parser", "settings_reference"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "README.md"]

# Headings up to ### get anchors, so [text](page.md#a-heading) links are checked by MyST
# (a missing page or anchor is a warning, and make docs turns warnings into errors).
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

html_theme = "furo"
html_title = f"scrapy-webclean {release}"
html_show_sourcelink = False
