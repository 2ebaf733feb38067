"""Fuzzing in the test suite: a sample of the mutation fuzzer (``make fuzz`` runs 10,000
pages) and property-based pages from hypothesis, all held to the invariants of
``tests/fuzzing.py``."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzzing import MARKER, Report, check_page, fuzz


def test_a_sample_of_the_mutation_fuzzer() -> None:
    report = fuzz(400, seed=20261121)
    assert not report.problems, report.problems[:5]
    assert report.pages == 400 and sum(report.refused.values()) < 100


_WORDS = st.sampled_from(
    ["the", "council", "harbour", "voted", "江城", "公交", "线路", "。", "，", "&amp;", "&lt;",
     "<", ">", "&", "\u00a0", "\u3000", "Photo:", "Advertisement", "Read more", "2026-11-21",
     "评论", "广告", "\u200b", "«", "»", "http://example.com/x"]
)  # fmt: skip
_TEXT = st.lists(_WORDS, max_size=30).map(" ".join)
_TAGS = st.sampled_from(
    ["div", "p", "span", "a", "article", "section", "ul", "li", "table", "tr", "td", "h1",
     "h2", "nav", "footer", "aside", "header", "b", "i", "br", "img", "main", "font"]
)  # fmt: skip
_CLASSES = st.sampled_from(
    ["", "content", "article-body", "ad", "sidebar", "nav", "comment", "related", "footer",
     "post", "share", "byline", "hidden"]
)  # fmt: skip


@st.composite
def _element(draw: st.DrawFn, depth: int = 0) -> str:
    tag = draw(_TAGS)
    if tag in ("br", "img"):
        return f"<{tag} alt='x'>"
    cls = draw(_CLASSES)
    children = []
    for _ in range(draw(st.integers(0, 4 if depth < 5 else 0))):
        kind = draw(st.integers(0, 9))
        if kind < 5:
            children.append(draw(_TEXT))
        elif kind == 5:
            children.append(f"<script>var a = '{MARKER}';</script>")
        elif kind == 6:
            children.append(f"<style>.a{{content:'{MARKER}'}}</style>")
        else:
            children.append(draw(_element(depth + 1)))
    attr = f' class="{cls}"' if cls else ""
    return f"<{tag}{attr}>{''.join(children)}</{tag}>"


@st.composite
def _pages(draw: st.DrawFn) -> tuple[bytes, str | None]:
    body = "".join(draw(st.lists(_element(), min_size=1, max_size=6)))
    title = draw(_TEXT)
    html = f"<html><head><title>{title}</title></head><body>{body}</body></html>"
    encoding = draw(st.sampled_from(["utf-8", "gb18030", "utf-16"]))
    labelled = draw(st.booleans())
    content_type = f"text/html; charset={encoding}" if labelled else None
    return html.encode(encoding, "replace"), content_type


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_pages())
def test_generated_pages_keep_the_invariants(page: tuple[bytes, str | None]) -> None:
    html, content_type = page
    report = Report()
    check_page(report, "http://example.com/p", html, content_type)
    assert not report.problems, report.problems
