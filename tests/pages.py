"""Small hand-made pages for the extraction tests: a paragraph of prose, a page around a
body, a list of links, the hand rules alone and both readings."""

from __future__ import annotations

from scrapy_webclean import CleanOptions

PROSE = (
    "The committee met on Monday to review the proposal, and its members agreed that the "
    "plan needed more work before it could go to a vote."
)
#: Four paragraphs of :data:`PROSE`: an article's body.
ARTICLE = "".join(f"<p>{PROSE} Part {i}.</p>" for i in range(4))


#: The hand rules alone, without the trained line model.
RULES_ONLY = CleanOptions(line_model=None)
#: The two ways a page is read: the hand rules alone, and the default (rules and the
#: trained models). A test looping over them checks that the model does not undo a rule.
RULES_AND_DEFAULT = (RULES_ONLY, CleanOptions())


def link_items(label: str, count: int, path: str = "/") -> str:
    """``count`` list items, each a link to ``<path><i>`` named ``<label> <i>``."""
    return "".join(f'<li><a href="{path}{i}">{label} {i}</a></li>' for i in range(count))


def page(body: str) -> str:
    return f"<html><head><title>T</title></head><body>{body}</body></html>"


def titled(title: str, body: str, head: str = "") -> str:
    """A page of ``body`` with ``<title>`` ``title`` and more of the ``<head>``."""
    return f"<html><head><title>{title}</title>{head}</head><body>{body}</body></html>"
