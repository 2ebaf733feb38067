"""Errors raised by the cleaning core.

Every error carries a short machine-readable ``reason`` so the Scrapy layer can count it
under ``webclean/items/failed/<reason>`` without parsing messages.
"""

from __future__ import annotations


class CleanError(Exception):
    """A page could not be cleaned; ``reason`` is a short stats-friendly code."""

    reason = "error"

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        if reason is not None:
            self.reason = reason


class EmptyDocument(CleanError):
    """The input has no HTML content at all (empty or whitespace-only body)."""

    reason = "empty"


class NotHtml(CleanError):
    """The input is not HTML (for example binary data served as ``text/html``)."""

    reason = "not_html"


class ParseFailure(CleanError):
    """lxml could not build a tree from the input."""

    reason = "parse_error"


class OverLimit(CleanError):
    """The page is over one of the limits (size, nesting, tags, text run): skipped whole,
    never cleaned half-way. ``reason``: ``too_large``, ``too_deep``, ``too_many_nodes``,
    ``text_too_long``."""

    reason = "over_limit"
