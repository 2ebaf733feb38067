"""The Markdown keeps the main content's structure: heading levels, ordered, unordered and
nested lists (an ordered list's start), tables (a header row, a pipe in a cell, ragged
rows), code blocks (exact whitespace, a language), nested quotes, links and images when
asked.

Each page is small and written here; its Markdown is made from every line (no extraction:
``tests.test_markdown_injection.markdown_of_every_line``'s way), rendered by markdown-it-py
(CommonMark with GFM tables) and its structure read back from the HTML with lxml.
"""

from __future__ import annotations

import lxml.html
from lxml import etree
from markdown_it import MarkdownIt

from scrapy_webclean import clean_html
from scrapy_webclean.extraction.lines import build_lines
from scrapy_webclean.html.loader import load_html
from scrapy_webclean.html.pagewalk import build_page_model
from scrapy_webclean.markdown import markdown_to_text, to_markdown
from tests.linear import assert_linear
from tests.test_markdown import EN

PAGE_URL = "http://example.com/news/item"
_RENDERER = MarkdownIt("commonmark").enable("table")


def markdown(body: str, title: str = "", *, links: bool = True, images: bool = False) -> str:
    """The Markdown of every line of a page with ``body``."""
    page = load_html(f"<html><body>{body}</body></html>")
    model = build_page_model(page.root, PAGE_URL)
    return to_markdown(model, build_lines(model), title, links=links, images=images)


def rendered(md: str) -> etree._Element:
    """The HTML markdown-it makes of ``md``, in a ``<div>``."""
    root: etree._Element = lxml.html.fromstring(f"<div>{_RENDERER.render(md)}</div>")
    return root


def text_of(element: etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())


def own_text(item: etree._Element) -> str:
    """A list item's text without that of the lists nested in it."""
    parts = [item.text or ""]
    for child in item:
        if child.tag not in ("ul", "ol"):
            parts.append("".join(child.itertext()))
        parts.append(child.tail or "")
    return " ".join("".join(parts).split())


def test_heading_levels_are_kept_and_the_title_comes_first() -> None:
    body = "".join(f"<h{n}>Heading {n}</h{n}><p>Text under heading {n}.</p>" for n in range(1, 7))
    md = markdown(f"<h1>Page title</h1>{body}", "Page title")
    root = rendered(md)
    headings = [(el.tag, text_of(el)) for el in root if el.tag in {f"h{n}" for n in range(1, 7)}]
    assert headings == [("h1", "Page title")] + [(f"h{n}", f"Heading {n}") for n in range(1, 7)]
    assert md.startswith("# Page title\n")


def test_unordered_and_ordered_lists() -> None:
    root = rendered(
        markdown("<ul><li>apples</li><li>pears</li></ul><ol><li>first</li><li>second</li></ol>")
    )
    ul, ol = root.find("ul"), root.find("ol")
    assert ul is not None and ol is not None
    assert [text_of(li) for li in ul] == ["apples", "pears"]
    assert [text_of(li) for li in ol] == ["first", "second"]
    assert ol.get("start") is None  # numbered from 1


def test_nested_lists_are_indented_under_their_item() -> None:
    md = markdown(
        "<ul><li>fruit<ul><li>apples</li><li>pears<ol><li>conference</li><li>comice</li>"
        "</ol></li></ul></li><li>vegetables</li></ul>"
    )
    root = rendered(md)
    outer = root.find("ul")
    assert outer is not None
    assert [own_text(li) for li in outer] == ["fruit", "vegetables"]
    inner = outer[0].find("ul")
    assert inner is not None and [own_text(li) for li in inner] == ["apples", "pears"]
    deepest = inner[1].find("ol")
    assert deepest is not None and [text_of(li) for li in deepest] == ["conference", "comice"]


def test_an_ordered_list_keeps_its_start() -> None:
    root = rendered(markdown('<ol start="7"><li>seventh</li><li>eighth</li></ol>'))
    ol = root.find("ol")
    assert ol is not None and ol.get("start") == "7"
    assert [text_of(li) for li in ol] == ["seventh", "eighth"]


def test_two_lists_in_a_row_stay_two_lists() -> None:
    root = rendered(markdown("<ul><li>a</li></ul><ul><li>b</li></ul>"))
    assert [len(ul) for ul in root.findall("ul")] == [1, 1]


def test_a_table_with_a_header_row_a_pipe_and_ragged_rows() -> None:
    md = markdown(
        "<table><tr><th>Name</th><th>Score | max</th><th>Note</th></tr>"
        "<tr><td>Ann</td><td>9</td><td><code>a|b</code></td></tr>"
        "<tr><td>Bob</td><td></td><td>late</td></tr>"
        "<tr><td>Cy</td></tr></table>"
    )
    table = rendered(md).find("table")
    assert table is not None
    header = [text_of(th) for th in table.iterfind("thead/tr/th")]
    assert header == ["Name", "Score | max", "Note"]
    rows = [[text_of(td) for td in tr.iterfind("td")] for tr in table.iterfind("tbody/tr")]
    assert rows == [["Ann", "9", "a|b"], ["Bob", "", "late"], ["Cy", "", ""]]
    code = table.find(".//code")
    assert code is not None and code.text == "a|b"


def test_a_layout_table_is_read_as_its_content() -> None:
    root = rendered(
        markdown(
            "<table><tr><td><h2>Story</h2><p>First paragraph of the story.</p>"
            "<ul><li>a point</li></ul></td></tr></table>"
        )
    )
    assert root.find("table") is None
    assert [el.tag for el in root] == ["h2", "p", "ul"]


def test_a_code_block_keeps_its_whitespace_and_language() -> None:
    code = "def f(x):\n    if x:\n\n        return  x  # two spaces\n\treturn None"
    md = markdown(f'<p>Before.</p><pre class="language-python">{code}</pre><p>After.</p>')
    tokens = [t for t in _RENDERER.parse(md) if t.type == "fence"]
    assert len(tokens) == 1
    assert tokens[0].info == "python"
    assert tokens[0].content == code + "\n"


def test_a_code_block_s_language_from_its_code_or_the_element_around() -> None:
    md = markdown(
        '<pre><code class="lang-rust">fn main() {}</code></pre>'
        '<div class="highlight highlight-source-js"><pre>let a = 1;</pre></div>'
        "<pre>plain</pre>"
    )
    fences = [(t.info, t.content) for t in _RENDERER.parse(md) if t.type == "fence"]
    assert fences == [("rust", "fn main() {}\n"), ("js", "let a = 1;\n"), ("", "plain\n")]


def test_a_code_block_with_line_breaks_and_backticks() -> None:
    md = markdown("<pre>one<br>```<br>  two</pre>")
    fences = [t.content for t in _RENDERER.parse(md) if t.type == "fence"]
    assert fences == ["one\n```\n  two\n"]


def test_nested_quotes() -> None:
    root = rendered(
        markdown(
            "<blockquote><p>She wrote:</p><blockquote><p>It is <b>done</b>.</p></blockquote>"
            "<p>And left.</p></blockquote>"
        )
    )
    outer = root.find("blockquote")
    assert outer is not None
    assert [el.tag for el in outer] == ["p", "blockquote", "p"]
    inner = outer.find("blockquote")
    assert inner is not None and text_of(inner) == "It is done."
    assert inner.find("p/strong") is not None


def test_a_list_in_a_quote_and_a_code_block_in_a_list() -> None:
    root = rendered(
        markdown(
            "<blockquote><ul><li>quoted item</li></ul></blockquote>"
            "<ol><li><p>Run:</p><pre>make  all</pre></li></ol>"
        )
    )
    assert root.find("blockquote/ul/li") is not None
    code = root.find("ol/li/pre/code")
    assert code is not None and code.text == "make  all\n"


def test_links_on_and_off() -> None:
    body = '<p>Read <a href="/guide">the guide</a> first.</p>'
    on = rendered(markdown(body)).find(".//a")
    assert on is not None and on.get("href") == "http://example.com/guide"
    assert text_of(on) == "the guide"
    off = rendered(markdown(body, links=False))
    assert off.find(".//a") is None
    assert text_of(off) == "Read the guide first."


def test_images_on_and_off() -> None:
    body = (
        '<article><p>Intro text of the article, long enough.</p><p>See <img src="/inline.png" '
        'alt="a chart"> here.</p><figure><img src="/photo.jpg" alt="The harbour" width="800" '
        'height="600"></figure><p>More text of the article after the photo.</p></article>'
    )
    on = rendered(markdown(body, images=True))
    images = [(img.get("src"), img.get("alt")) for img in on.iter("img")]
    assert images == [
        ("http://example.com/inline.png", "a chart"),
        ("http://example.com/photo.jpg", "The harbour"),
    ]
    paragraph = on.find("p[2]")
    assert paragraph is not None and text_of(paragraph) == "See here."
    assert rendered(markdown(body)).find(".//img") is None


def test_an_image_with_an_unsafe_source_is_left_out() -> None:
    md = markdown('<p>Text <img src="javascript:alert(1)" alt="x"> more.</p>', images=True)
    assert rendered(md).find(".//img") is None


def test_markdown_to_text_reads_the_structure_as_text() -> None:
    md = markdown(
        "<h2>Title</h2><blockquote><blockquote>deep quote</blockquote></blockquote>"
        '<ol><li>one<ul><li>two</li></ul></li></ol><pre class="language-python">x = 1</pre>'
    )
    text = markdown_to_text(md)
    assert text.split() == ["Title", "deep", "quote", "one", "two", "x", "=", "1"]


def test_clean_html_writes_the_structure() -> None:
    root = rendered(clean_html(EN, "http://example.com/news/harbour").markdown)
    assert [el.tag for el in root] == ["h1", "p", "h2", "p", "ul", "table", "blockquote", "p"]
    table = root.find("table")
    assert table is not None
    assert [text_of(th) for th in table.iterfind("thead/tr/th")] == ["Year", "Event"]
    first = table.find("tbody/tr/td")
    assert first is not None and text_of(first) == "1868"


def _deep_quotes_page(n: int) -> str:
    """``n`` nested quotes, a line in each (under the depth limit)."""
    depth = min(n, 400)
    return "<blockquote>line " * depth + "</blockquote>" * depth + "<p>x</p>" * n


def _deep_lists_page(n: int) -> str:
    """``n`` nested list items, a line in each (under the depth limit)."""
    depth = min(n, 300)
    return "<ul><li>item " * depth + "</li></ul>" * depth + "<ul><li>y</li></ul>" * n


def _wide_table_page(n: int) -> str:
    """A table of ``n`` rows of ``n // 10`` cells."""
    row = "<tr>" + "<td>c</td>" * max(2, n // 10) + "</tr>"
    return "<table>" + row * n + "</table>"


def test_the_structure_of_deep_and_wide_pages_is_linear() -> None:
    for make_page in (_deep_quotes_page, _deep_lists_page):
        assert_linear(markdown, make_page, 50, make_page.__name__)
    assert_linear(markdown, lambda n: _wide_table_page(int(n**0.5) * 10), 400, "wide table")


def test_lines_of_code_in_elements_of_their_own_and_a_table_caption() -> None:
    md = markdown(
        '<pre><div class="line">a = 1</div><div class="line">  b = 2</div></pre>'
        "<table><caption>Scores</caption><tr><th>a</th><th>b</th></tr>"
        "<tr><td>1</td><td>2</td></tr></table>"
    )
    fences = [t.content for t in _RENDERER.parse(md) if t.type == "fence"]
    assert fences == ["a = 1\n  b = 2\n"]
    root = rendered(md)
    assert [el.tag for el in root] == ["pre", "p", "table"]
    assert text_of(root[1]) == "Scores"
