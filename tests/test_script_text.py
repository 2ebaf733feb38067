"""A page whose markup holds little text but whose scripts declare its article gets its
text from there, marked in ``CleanResult.text_source`` (issue 55, part 4)."""

from __future__ import annotations

import json

from scrapy_webclean import clean_html
from scrapy_webclean.extraction import jsonprose
from scrapy_webclean.extraction.jsonprose import (
    MAX_DEPTH,
    devalue_strings,
    json_strings,
    paragraphs_of,
    prose_units,
)
from scrapy_webclean.extraction.scripttext import text_html, text_markdown
from tests.linear import assert_linear

URL = "https://news.example.com/2025/harbour-library"
TITLE = "The harbour exchange becomes a library"
PARAGRAPHS = [
    "The council voted on Tuesday to turn the old harbour exchange into a library annex. "
    "The building has stood empty since the fish market moved inland twelve years ago.",
    "Work starts in the spring and should take eighteen months. The architects keep the "
    "trading floor as a reading room and put the stacks in the former cold stores.",
    "Residents asked for a café and longer opening hours. The council agreed to both, "
    "and the annex will open until ten at night on weekdays.",
    "The cost is put at four million euros, of which the region pays half. The rest "
    "comes from the sale of the old branch library on Mill Street.",
    "Opposition councillors called the plan sound but late. They had asked for the same "
    "building to be used as a library in 2019, when it was cheaper to repair.",
]
BODY = "\n".join(PARAGRAPHS)


def shell(head: str = "", body: str = "") -> str:
    """A page as a script-built site serves it: a title, an empty mount point."""
    return (
        f"<html><head><title>{TITLE}</title>{head}</head>"
        f'<body><div id="app"></div>{body}</body></html>'
    )


def json_script(data: object, attributes: str = 'type="application/json"') -> str:
    """``data`` in a script element (``</`` escaped, as a page's server writes it)."""
    text = json.dumps(data).replace("</", "<\\/")
    return f"<script {attributes}>{text}</script>"


def ld(data: object) -> str:
    return json_script(data, 'type="application/ld+json"')


def test_json_ld_article_body() -> None:
    page = shell(
        ld(
            {
                "@context": "https://schema.org",
                "@type": "NewsArticle",
                "headline": TITLE,
                "articleBody": BODY,
            }
        )
    )
    result = clean_html(page, url=URL)
    assert result.text_source == "json-ld"
    assert result.text == BODY
    assert result.page_type == "article"
    assert result.markdown.startswith(f"# {TITLE}\n\n{PARAGRAPHS[0]}\n\n")


OTHER_ANSWER = (
    "Or zoom the page out one step: at ninety per cent the window counts as wide again, "
    "and everything else stays readable."
)


def test_json_ld_question_and_answers() -> None:
    question = (
        "How do I keep the sidebar open when the window is narrow? It folds away below a "
        "thousand pixels, and I use a small laptop where it is always folded."
    )
    accepted = (
        "Set the breakpoint to zero in the layout settings. The sidebar then stays open "
        "at every width, and the page scrolls sideways when it has to."
    )
    suggested = (
        "Another way is a user style that overrides the media query. It works, but an "
        "update may undo it. I would not rely on it for long. A setting survives an "
        "update; a style sheet of your own may not, and you will not be told."
    )
    page = shell(
        ld(
            {
                "@context": "https://schema.org",
                "@type": "QAPage",
                "mainEntity": {
                    "@type": "Question",
                    "name": "Keep the sidebar open",
                    "text": question,
                    "acceptedAnswer": {"@type": "Answer", "text": accepted},
                    "suggestedAnswer": [
                        {"@type": "Answer", "text": f"<p>{suggested}</p>"},
                        {"@type": "Answer", "text": OTHER_ANSWER},
                    ],
                },
            }
        )
    )
    result = clean_html(page, url="https://ask.example.com/q/1")
    assert result.text_source == "json-ld"
    assert result.text.split("\n") == [question, accepted, suggested, OTHER_ANSWER]
    assert result.page_type == "forum"


def test_next_data_body_nested_deep_in_props() -> None:
    post: object = {
        "id": "p-1",
        "slug": "harbour-library",
        "content": {"html": "".join(f"<p>{p}</p>" for p in PARAGRAPHS)},
    }
    for level in range(12):
        post = {"data": post, "typename": f"Level{level}"}
    data = {
        "props": {"pageProps": {"menu": ["Home", "News", "Sport"], "page": post}},
        "page": "/[slug]",
        "buildId": "abc123",
    }
    page = shell(body=json_script(data, 'id="__NEXT_DATA__" type="application/json"'))
    result = clean_html(page, url=URL)
    assert result.text_source == "next-data"
    assert result.text == BODY


def test_nuxt3_devalue_payload() -> None:
    # devalue's flat array: [root, ...] where an object's fields are indexes of values
    payload = [
        {"data": 1, "state": 5},
        {"article": 2},
        {"title": 3, "body": 4},
        TITLE,
        BODY,
        {"menu": 6},
        ["Home", "News"],
    ]
    page = shell(body=json_script(payload, 'id="__NUXT_DATA__" type="application/json"'))
    result = clean_html(page, url=URL)
    assert result.text_source == "nuxt-data"
    assert result.text == BODY


def test_nuxt2_state_only_when_plain_json() -> None:
    state = {"data": [{"post": {"title": TITLE, "body": BODY}}]}
    page = shell(body=f"<script>window.__NUXT__ = {json.dumps(state)};</script>")
    result = clean_html(page, url=URL)
    assert (result.text_source, result.text) == ("nuxt-data", BODY)
    # the usual build is a function call: JavaScript, never run
    script = f"<script>window.__NUXT__=(function(a){{return {json.dumps(state)}}}(1));</script>"
    assert clean_html(shell(body=script), url=URL).text_source == "html"


def test_html_string_body_in_other_json() -> None:
    body = (
        "<h2>Plans</h2>"
        + "".join(f"<p>{p}<br>&nbsp;</p>" for p in PARAGRAPHS)
        + "<script>alert('x')</script><style>p{color:red}</style>"
    )
    page = shell(body=json_script({"entry": {"fields": {"richBody": body}}}))
    result = clean_html(page, url=URL)
    assert result.text_source == "json"
    assert result.text == "\n".join(["Plans", *PARAGRAPHS])
    assert "alert" not in result.text and "color" not in result.text


def test_a_normal_article_keeps_its_markup_text() -> None:
    page = (
        f"<html><head><title>{TITLE}</title>"
        + ld({"@type": "Article", "articleBody": BODY + "\nA paragraph the page never shows."})
        + f"</head><body><nav><a href='/'>Home</a></nav><article><h1>{TITLE}</h1>"
        + "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
        + "</article></body></html>"
    )
    result = clean_html(page, url=URL)
    assert result.text_source == "html"
    assert "never shows" not in result.text
    assert PARAGRAPHS[1] in result.text


def test_json_of_short_strings_is_not_taken() -> None:
    data = {
        "menu": [{"id": f"m{i}", "label": f"Section {i}", "href": f"/s/{i}"} for i in range(200)],
        "footer": "Copyright 2025 Harbour News. All rights reserved.",
        "hashes": ["a1b2c3d4e5" * 40, "/static/chunks/" + "x" * 300],
    }
    result = clean_html(
        shell(body=json_script(data, 'id="__NEXT_DATA__" type="application/json"')), url=URL
    )
    assert result.text_source == "html"


def test_several_bodies_of_like_size_are_a_listing() -> None:
    other = BODY.replace("council", "board").replace("library", "museum")
    data = {"posts": [{"body": BODY}, {"body": other}]}
    result = clean_html(shell(body=json_script(data)), url=URL)
    assert result.text_source == "html"


def test_json_in_a_string_is_read_and_not_taken_as_prose() -> None:
    inner = json.dumps({"page": {"body": BODY, "type": "article"}})
    result = clean_html(shell(body=json_script({"apollo": inner})), url=URL)
    assert (result.text_source, result.text) == ("json", BODY)


def test_deep_or_huge_json_is_skipped() -> None:
    deep = "[" * 5000 + json.dumps(BODY) + "]" * 5000
    page = shell(body=f'<script id="__NEXT_DATA__" type="application/json">{deep}</script>')
    assert clean_html(page, url=URL).text_source == "html"
    # parsed, but the body lies deeper than the walk goes
    nested: object = {"body": BODY}
    for _ in range(MAX_DEPTH + 5):
        nested = {"x": nested}
    page = shell(body=json_script(nested, 'id="__NEXT_DATA__" type="application/json"'))
    assert clean_html(page, url=URL).text_source == "html"
    huge = {"body": BODY, "pad": ["x" * 1000] * 1200}  # over MAX_SCRIPT_CHARS
    assert clean_html(shell(body=json_script(huge)), url=URL).text_source == "html"


def test_walks_are_bounded() -> None:
    wide = [{"k": i} for i in range(jsonprose.MAX_NODES * 2)] + [{"body": BODY}]
    assert list(json_strings(wide)) == []
    assert [key for _, key in devalue_strings([{"b": 1}, BODY])] == ["b"]


def test_markdown_and_html_are_escaped() -> None:
    text = "1. Not a list *but* text <b>here</b>\n# not a heading & more"
    markdown = text_markdown("A [title]", text)
    assert markdown == (
        "# A \\[title\\]\n\n1\\. Not a list \\*but\\* text \\<b\\>here\\</b\\>\n\n"
        "\\# not a heading & more\n"
    )
    assert text_markdown("Title", "Title\nBody.") == "# Title\n\nBody.\n"
    assert text_html("A <t>", text) == (
        "<h1>A &lt;t&gt;</h1>\n<p>1. Not a list *but* text &lt;b&gt;here&lt;/b&gt;</p>\n"
        "<p># not a heading &amp; more</p>\n"
    )


def test_prose_shape() -> None:
    assert prose_units(BODY) > 0
    assert prose_units(", ".join(["camera", "lens", "tripod", "bag"] * 40)) == 0
    assert prose_units("body{margin:0;padding:0} " * 30) == 0
    assert prose_units("QmFzZTY0IGRhdGEu" * 40 + ". a. b. c.") == 0


def test_paragraphs_and_prose_are_linear() -> None:
    assert_linear(
        paragraphs_of,
        lambda n: "<div>" * n + "<p>a b. c &amp; d</p><br>" * n + "<" * n,
        2000,
        "HTML field to paragraphs",
    )
    assert_linear(prose_units, lambda n: "a. " * n + "<" * n + "!" * n, 2000, "prose shape")
