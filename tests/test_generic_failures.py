"""Failure classes of the text seen on held-out pages (issue 20, section 3), each fixed by
a general rule: markup left as text in ``<noscript>``, ruby annotations, share buttons'
labels, calls to action, a post's tag lines and related-link lines as text, a wrapper of
the whole page judged by its name, a short post's body. (Those of the title and date
fields: ``test_generic_failures_fields.py``.)"""

from __future__ import annotations

import pytest

from scrapy_webclean import clean_html
from scrapy_webclean.extraction.extract import is_ui_line
from scrapy_webclean.extraction.vocabulary import (
    is_call_to_action,
    is_related_heading,
    is_related_link_line,
    is_taxonomy_line,
)
from scrapy_webclean.html.loader import parse_html
from scrapy_webclean.html.pagewalk import build_page_model
from tests.pages import ARTICLE, PROSE, titled

#: What a parser that reads ``<noscript>`` as raw text leaves in it: the tags as text
#: (written here as entities, which parse to the same text node).
PIXEL = (
    "&lt;img src=&quot;//c.msn.com/c.gif?udc=true&amp;rid=1&quot; height=&quot;1&quot; "
    "width=&quot;1&quot; style=&quot;display:none&quot;&gt;"
)


def test_markup_left_as_text_in_noscript_is_not_text() -> None:
    html = (
        "<html><head><title>A story</title></head><body>"
        f"<noscript>{PIXEL}</noscript><div id='app'><noscript>{PIXEL}</noscript></div>"
        "<p>Short line.</p></body></html>"
    )
    result = clean_html(html)
    assert "c.gif" not in result.text and "<img" not in result.text
    root, _ = parse_html(html)
    assert not any("<" in run.text for run in build_page_model(root).runs)
    # Text around the tags in a <noscript> stays.
    root, _ = parse_html(
        "<html><body><noscript>&lt;p&gt;Please turn on JavaScript.&lt;/p&gt;</noscript>"
        "</body></html>"
    )
    assert [run.text.strip() for run in build_page_model(root).runs] == [
        "Please turn on JavaScript."
    ]
    root, _ = parse_html(
        "<html><body><noscript>Turn on JavaScript, or &lt;a href=&quot;/lite&quot;&gt;read"
        " the light page&lt;/a&gt;.</noscript></body></html>"
    )
    text = " ".join("".join(run.text for run in build_page_model(root).runs).split())
    assert text == "Turn on JavaScript, or read the light page ."
    # A script-rendered page's copy in <noscript> keeps a tag named in its sentences.
    root, _ = parse_html(
        "<html><body><noscript><div><p>Use a &lt;StaticQuery&gt; there.</p></div></noscript>"
        "</body></html>"
    )
    assert "".join(run.text for run in build_page_model(root).runs) == (
        "Use a <StaticQuery> there."
    )


def test_ruby_annotations_do_not_run_into_the_text() -> None:
    body = (
        "<p><ruby>子<rp>(</rp><rt>こ</rt><rp>)</rp>供<rt>ども</rt></ruby>への"
        "<ruby>虐待<rt>ぎゃくたい</rt></ruby>が増えている。" + "この問題は深刻である。" * 8 + "</p>"
    )
    html = (
        "<html><head><title>記事</title></head><body><article>"
        f"<h1><ruby>虐待<rt>ぎゃくたい</rt></ruby>の記事</h1>{body}</article></body></html>"
    )
    result = clean_html(html)
    assert "子供への虐待が増えている。" in result.text
    assert "こども" not in result.text and "(こ)" not in result.text
    assert "ぎゃくたい" not in result.text
    assert result.title == "虐待の記事"


SHARE_LABELS = (
    *("转播到腾讯微博", "分享到微博", "分享到：", "分享到QQ空间", "Share on Facebook", "Tweet"),
    *("Pin it", "Email this", "Share this:", "Share via Email", "Share this article", "12 Shares"),
    *("Tweet 5", "Facebook teilen", "Auf Facebook teilen", "Partager sur Facebook"),
    *("Compartir en WhatsApp", "Поделиться", "シェアする", "Send to a friend", "Post to X"),
)


def test_share_button_labels_are_control_labels() -> None:
    for label in SHARE_LABELS:
        for variant in (label, label.upper(), label.lower()):
            assert is_ui_line(variant), variant
    for line in (
        "Share your story with us today",
        "Shares rose 5% in early trading",
        "Facebook is a company",
        "Facebook",
        "1. LinkedIn",
        "Email",
        "X",
        "Line",
        "Send",
        "Posted by John",
        "SharePoint",
    ):
        assert not is_ui_line(line), line


def test_share_labels_are_not_the_first_content_line() -> None:
    chinese = "委员会周一开会审议了这项提案，成员们一致认为该计划在付诸表决之前还需要更多工作。"
    html = titled(
        "新闻",
        "<div class='article'><h1>新闻标题</h1><div><span>转播到腾讯微博</span></div>"
        + "".join(f"<p>{chinese}第{i}段。</p>" for i in range(5))
        + "</div>",
    )
    text = clean_html(html).text
    assert "转播" not in text and text.startswith(chinese[:10])
    html = titled(
        "News",
        "<article><h1>Headline</h1><div><a href='#'>Tweet</a></div><div>Pin it</div>"
        f"<div>Email this</div>{ARTICLE}</article>",
    )
    text = clean_html(html).text
    assert text.startswith(PROSE[:20]), text[:80]


#: The drop-only line patterns (``verdicts.drop_only_flags``): per pattern, lines it
#: matches and lines it leaves alone.
DROP_ONLY_PATTERNS = {
    "call to action": (
        is_call_to_action,
        ("Learn more", "LEARN MORE »", "Get started", "Shop now", "Book now >"),
        ("Learn more about our history", "Buy now, pay later is growing", "Now"),
    ),
    "taxonomy line": (
        is_taxonomy_line,
        (
            *("Tags: python, lxml", "Filed under: News", "Posted in: Sidelines | comments"),
            *("Labels: Blog News", "标签：股市 基金", "TAGGED WITH: travel"),
        ),
        ("Category: Performance", "Tags are a way to group posts", "Posted by Jane"),
    ),
    "related-link line": (
        is_related_link_line,
        (
            *("Read more: A second story", ">> See Also: Another one", "RELATED: Third"),
            *("Also read: More news", "[Related: Fourth story]", "Read next: Fifth"),
        ),
        ("Read the full report here", "Related work shows", "More than a million"),
    ),
}


@pytest.mark.parametrize("kind", list(DROP_ONLY_PATTERNS))
def test_drop_only_line_patterns(kind: str) -> None:
    matches, matching, other = DROP_ONLY_PATTERNS[kind]
    for line in matching:
        assert matches(line), line
    for line in other:
        assert not matches(line), line


def test_a_call_to_action_is_dropped_from_the_text() -> None:
    # a service page's sections, each with its button
    sections = "".join(
        f"<section><h2>Feature {i}</h2><p>Teams plan their work on board number {i} and "
        "ship faster together every week.</p>"
        "<div><span class='btn'>Learn more</span></div></section>"
        for i in range(4)
    )
    html = titled("Product", f"<main>{sections}</main>")
    text = clean_html(html, "https://example.com/product/board").text
    assert "ship faster together" in text
    assert "Learn more" not in text


def test_a_wrapper_of_the_whole_page_is_not_judged_by_its_name() -> None:
    """A layout wrapper around the whole page (``flex-wrap-footer``: the footer is kept at
    the bottom) holds more than ``WRAPPER_TEXT_SHARE`` of its text: its name is not read,
    or every line of a list page with little prose would count as footer."""
    titles = [
        f"Title: A study of {topic} in large language models"
        for topic in ("attention sinks", "sparse features", "judges", "puzzles", "tools")
    ]
    entries = "".join(
        f"<dt><a href='/abs/{i}'>[{i}] 2603.0{i}</a> [<a href='/pdf/{i}'>pdf</a>]</dt>"
        f"<dd><div class='list-title'>{title}</div>"
        f"<div class='list-authors'><a href='/a/{i}'>Ada Lovelace</a>, "
        f"<a href='/b/{i}'>Alan Turing</a></div>"
        "<div class='list-subjects'>Subjects: Artificial Intelligence (cs.AI)</div></dd>"
        for i, title in enumerate(titles)
    )
    html = (
        "<html><head><title>Recent submissions</title></head><body>"
        "<div class='flex-wrap-footer'><main><h1>Artificial Intelligence</h1>"
        f"<h2>Authors and titles for recent submissions</h2><dl>{entries}</dl></main>"
        "<footer><a href='/about'>About</a></footer></div></body></html>"
    )
    text = clean_html(html, "https://papers.example.org/list/cs.AI/recent").text
    assert all(title in text for title in titles), text
    assert "About" not in text


def test_a_post_whose_body_is_a_video_keeps_its_headline_and_byline() -> None:
    comment = (
        "<li class='comment'><p class='author'>Reader {i}</p><p>I loved this one, thank you "
        "so much for sharing it with all of us here today.</p></li>"
    )
    html = (
        "<html><head><title>A walk by the river | The Blog</title></head><body>"
        "<header><a href='/'>The Blog</a><nav><a href='/a'>About</a> <a href='/b'>Books</a>"
        " <a href='/c'>Contact</a></nav></header>"
        "<div id='main'><article class='post'><h1>A walk by the river</h1>"
        "<p class='byline'>by Jane Doe on June 29, 2012</p><div class='video'>"
        "<iframe src='https://www.youtube.com/embed/xyz' width='640' height='360'></iframe>"
        "</div></article><section id='comments'><h3>12 comments</h3><ol>"
        + "".join(comment.format(i=i) for i in range(12))
        + "</ol></section></div>"
        "<footer><p>Copyright 2012 The Blog. All rights reserved.</p></footer></body></html>"
    )
    result = clean_html(html, "http://blog.example.com/2012/06/29/a-walk-by-the-river/")
    # Not nothing, and not the readers' comments: the headline and the byline.
    assert result.text == "A walk by the river\nby Jane Doe on June 29, 2012"


def short_post_html() -> str:
    """A blog post of short lines and one linked line, its body declared by schema.org."""
    archive = "".join(f"<li><a href='/2012/{m:02d}/'>Month {m} (4)</a></li>" for m in range(1, 13))
    return (
        "<html><head><title>A note for friends | Sketch Blog</title></head><body>"
        "<div class='main'><div class='post' itemscope itemtype='http://schema.org/BlogPosting'>"
        "<h3 class='post-title'>A note for friends</h3>"
        "<div class='post-body' itemprop='articleBody'>Dear all,<br><br>"
        "Come and see <a href='https://shop.example.com/event/42'>the reading of the forgotten "
        "garden</a> at the corner bookshop next Saturday at eleven.<br><br>"
        "<div class='field'><div>Location:</div><div>The Corner Bookshop</div>"
        "<div>12 Elm Street,</div><div>Springfield</div></div>"
        "<div class='field'><div>Hope to see you there.</div><div>Cheers,</div>"
        "<div>Ann</div></div></div>"
        "<div class='post-footer'>Posted by <a href='/profile'>Ann Lee</a> at 9:22 AM</div>"
        "</div></div>"
        f"<div class='sidebar'><h2>Archive</h2><ul>{archive}</ul></div></body></html>"
    )


def test_a_short_posts_declared_article_body_is_its_text() -> None:
    url = "http://sketch.example.com/2012/10/a-note-for-friends.html"
    text = clean_html(short_post_html(), url).text
    # Its lines are too short, or too linked, to outweigh "Hope to see you there." alone:
    # the body that schema.org markup declares is the region.
    for line in ("Dear all,", "the forgotten garden", "12 Elm Street,", "Ann"):
        assert line in text, text
    assert "Month 3" not in text


def test_see_also_is_no_related_heading() -> None:
    assert not is_related_heading("See also")
    assert is_related_heading("Read also")
    assert is_related_heading("Related articles")


def test_a_posts_tag_lines_are_dropped_from_the_text() -> None:
    html = titled(
        "News",
        f"<article><h1>Headline</h1>{ARTICLE}<p>Tags: python, lxml, scraping</p></article>",
    )
    text = clean_html(html, "https://example.com/2024/05/a-post").text
    assert PROSE[:20] in text
    assert "Tags:" not in text


def test_a_related_link_line_inside_the_text_is_dropped() -> None:
    paragraphs = "".join(
        f"<p>{PROSE} Part {i}.</p><p>Read more: <a href='/story-{i}'>Markets rally as the "
        f"index of tech stocks climbs to record number {i}</a></p>"
        for i in range(4)
    )
    html = titled("News", f"<article><h1>Headline</h1>{paragraphs}</article>")
    text = clean_html(html, "https://example.com/2024/05/a-story").text
    assert text.count(PROSE[:20]) == 4
    assert "Read more" not in text and "Markets rally" not in text
    # A line that only names a related story in its own words is text.
    html = titled(
        "News",
        f"<article><h1>Headline</h1>{ARTICLE}<p>Related: the council will publish its plan "
        "in <a href='/plan'>June</a> after the hearing.</p></article>",
    )
    assert "Related: the council" in clean_html(html, "https://example.com/2024/05/b").text
