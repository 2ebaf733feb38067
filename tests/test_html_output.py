"""The main content as HTML (``htmloutput.to_html``): the allowlisted elements only, no
attribute but ``href``, ``src`` and ``alt``, nothing that runs, and the same structure as
the Markdown's."""

from __future__ import annotations

from urllib.parse import urlsplit

import lxml.html
from lxml import etree
from markdown_it import MarkdownIt

from scrapy_webclean.extraction.lines import build_lines
from scrapy_webclean.html.loader import load_html
from scrapy_webclean.html.pagewalk import build_page_model
from scrapy_webclean.htmloutput import to_html
from scrapy_webclean.markdown import to_markdown
from scrapy_webclean.report_sanitize import OUTPUT_TAGS, sanitize_output

PAGE_URL = "http://example.com/news/item"
ALLOWED_ATTRIBUTES = {"a": {"href"}, "img": {"src", "alt"}}
SAFE_SCHEMES = {"http", "https", "mailto", "tel", ""}
#: The elements whose nesting is the structure both outputs must share.
STRUCTURE = frozenset(
    (
        *("h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "table", "tr", "th", "td"),
        *("pre", "blockquote", "a", "img", "em", "strong", "code"),
    )
)

STRUCTURED = """<article><h1>Harbour plan</h1><h2>What happens next</h2>
<p>The council <b>voted</b> to approve the <a href="/plans">plan</a>, <em>at last</em>.</p>
<ul><li>a reading room<ul><li>with desks</li></ul></li><li>rooms upstairs</li></ul>
<ol start="3"><li>third</li><li>fourth</li></ol>
<table><tr><th>Year</th><th>Event</th></tr><tr><td>1868</td><td>built | opened</td></tr>
<tr><td>2011</td></tr></table>
<pre class="language-python">x  = 1
    y = 2</pre>
<blockquote><p>It is a building</p><blockquote>the whole city remembers</blockquote></blockquote>
<p>See <img src="/photo.jpg" alt="The hall"> here.</p></article>"""

HOSTILE = """<article><h2>Title &lt;script&gt;alert(1)&lt;/script&gt;</h2>
<p onclick="alert(1)" style="color:red" class="x">Text &lt;img src=x onerror=alert(1)&gt;
<script>alert(2)</script><img src="x" onerror="alert(3)" alt="pic">
<a href="javascript:alert(4)" title="t">bad link</a> <a href=" JaVa&#9;Script:alert(5)">bad
too</a> <a href="data:text/html,<script>alert(6)</script>">data</a>
<a href="mailto:a@example.org">mail</a> <a href="/rel?a=1&amp;b=&quot;2&quot;">ok</a></p>
<style>p { color: red }</style><iframe src="http://evil.example/"></iframe>
<svg><script>alert(7)</script></svg><img src="javascript:alert(8)" alt="js">
<ul><li>item <object data="x">obj</object></li></ul></article>"""


def html_of(body: str, *, links: bool = True, images: bool = False, title: str = "") -> str:
    model = build_page_model(load_html(f"<html><body>{body}</body></html>").root, PAGE_URL)
    return to_html(model, build_lines(model), title, links=links, images=images)


def markdown_of(body: str, *, links: bool = True, images: bool = False, title: str = "") -> str:
    model = build_page_model(load_html(f"<html><body>{body}</body></html>").root, PAGE_URL)
    return to_markdown(model, build_lines(model), title, links=links, images=images)


def parsed(html: str) -> etree._Element:
    root: etree._Element = lxml.html.fromstring(f"<div>{html}</div>")
    return root


def assert_safe(html: str) -> None:
    root = parsed(html)
    for element in root.iter():
        if element is root:
            continue
        assert isinstance(element.tag, str), f"raw markup in {html!r}"
        assert element.tag in OUTPUT_TAGS, f"<{element.tag}> in {html!r}"
        for name in element.attrib:
            assert name in ALLOWED_ATTRIBUTES.get(element.tag, set()), f"{name}= in {html!r}"
        for name in ("href", "src"):
            url = element.get(name)
            if url is not None:
                assert urlsplit(url.strip()).scheme.lower() in SAFE_SCHEMES, url


def skeleton(root: etree._Element) -> list[tuple[int, str]]:
    """The structural elements in document order with their depth among them (a ``<p>``
    left out: a tight list item's text has none in Markdown)."""
    out: list[tuple[int, str]] = []

    def walk(element: etree._Element, depth: int) -> None:
        for child in element:
            if not isinstance(child.tag, str):
                continue
            if child.tag in STRUCTURE:
                out.append((depth, child.tag))
                walk(child, depth + 1)
            else:
                walk(child, depth)

    walk(root, 0)
    return out


def test_the_html_has_the_structure_of_the_markdown() -> None:
    html = html_of(STRUCTURED, images=True, title="Harbour plan")
    markdown = markdown_of(STRUCTURED, images=True, title="Harbour plan")
    from_markdown = parsed(MarkdownIt("commonmark").enable("table").render(markdown))
    assert skeleton(parsed(html)) == skeleton(from_markdown)
    root = parsed(html)
    blocks = ["h1", "h2", "p", "ul", "ol", "table", "pre", "blockquote", "p"]
    assert [el.tag for el in root] == blocks
    assert [(el.tag, el.text_content()) for el in root.iterfind("ul/li/ul/li")] == [
        ("li", "with desks")
    ]
    cells = [[c.text_content() for c in tr] for tr in root.iterfind("table//tr")]
    assert cells == [["Year", "Event"], ["1868", "built | opened"], ["2011", ""]]
    assert root.find("table/thead/tr/th") is not None
    code = root.find("pre/code")
    assert code is not None and code.text == "x  = 1\n    y = 2"
    assert root.find("blockquote/blockquote") is not None
    assert_safe(html)


def test_links_and_images_on_and_off() -> None:
    on = parsed(html_of(STRUCTURED, images=True))
    assert [a.get("href") for a in on.iter("a")] == ["http://example.com/plans"]
    assert [(i.get("src"), i.get("alt")) for i in on.iter("img")] == [
        ("http://example.com/photo.jpg", "The hall")
    ]
    off = parsed(html_of(STRUCTURED, links=False))
    assert not list(off.iter("a")) and not list(off.iter("img"))
    assert "approve the plan, at last." in off.text_content()


def test_hostile_markup_is_gone() -> None:
    html = html_of(HOSTILE, images=True)
    assert_safe(html)
    lowered = html.lower()
    # (no attribute but href, src and alt: assert_safe; the page's text stays text)
    for gone in ("<script", "javascript:", "data:", "<iframe", "<svg", "<style", "<object"):
        assert gone not in lowered, (gone, html)
    root = parsed(html)
    assert "Title <script>alert(1)</script>" in root.text_content()  # text stays text
    assert "<img src=x onerror=alert(1)>" in root.text_content()
    hrefs = [a.get("href") for a in root.iter("a")]
    assert hrefs == ["mailto:a@example.org", 'http://example.com/rel?a=1&b="2"']
    assert [i.get("src") for i in root.iter("img")] == ["http://example.com/news/x"]


def test_the_sanitizer_keeps_the_allowlist_only() -> None:
    cleaned = sanitize_output(
        '<div class="x"><p style="a" id="b">t</p><a href="javascript:x" rel="r">l</a>'
        '<a href="https://e.example/">ok</a><img src="https://e.example/i.png" alt="i" '
        'onerror="x" width="5"><script>s</script><ol start="2"><li>x</li></ol></div>'
    )
    assert cleaned == (
        '<p>t</p><a>l</a><a href="https://e.example/">ok</a>'
        '<img src="https://e.example/i.png" alt="i"><ol><li>x</li></ol>'
    )


def test_an_empty_page_has_no_html() -> None:
    assert html_of("<div> </div>") == ""
