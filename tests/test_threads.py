"""A discussion thread's region is the container of its posts (``region.thread_region``)."""

from __future__ import annotations

from scrapy_webclean import CleanOptions, clean_html
from scrapy_webclean.extraction.options import ExtractOptions
from scrapy_webclean.extraction.region import thread_region
from scrapy_webclean.html.loader import load_html
from scrapy_webclean.html.pagemodel import build_page_model

RULES_ONLY = CleanOptions(line_model=None)

LONG_POST = (
    "Same here on my updated 64-bit Windows 7 host: after installing the release every "
    "guest lost its internet access, while the beta before it worked fine. "
) * 4


def post(number: int, body: str) -> str:
    """One phpBB-like post: its author card, its linked "Re:" heading, its body and a "Top"
    link (classes alternate ``bg1`` / ``bg2``)."""
    return (
        f'<div class="post has-profile bg{number % 2 + 1}" id="p{number}"><div class="inner">'
        f'<dl class="postprofile"><dt><a href="/member/{number}">user{number}</a></dt>'
        f"<dd>Posts: {number * 7}</dd></dl>"
        f'<div class="postbody"><h3><a href="#p{number}">Re: Discuss the 7.1.0 release here</a>'
        f'</h3><p class="author">Post by user{number} » 12. Sep 2024</p>'
        f'<div class="content">{body}</div></div>'
        '<div class="back2top"><a href="#top">Top</a></div></div></div>'
    )


def thread_page() -> str:
    posts = [post(i, f"Short reply number {i} about the network.") for i in range(6)]
    posts.insert(3, post(9, LONG_POST))
    return (
        "<html><head><title>Discuss the 7.1.0 release here</title></head><body>"
        '<div class="page-body"><h2>Discuss the 7.1.0 release here</h2>'
        f"{''.join(posts)}</div></body></html>"
    )


URL = "https://forums.example.org/viewtopic.php?t=112320"


def test_a_thread_is_every_post_not_its_longest() -> None:
    for options in (RULES_ONLY, CleanOptions()):
        text = clean_html(thread_page(), URL, options=options).text
        assert "guest lost its internet access" in text, options
        for i in (0, 2, 5):
            assert f"Short reply number {i} about the network." in text, (i, options)
    # With the thread rule off, the longest post alone is the region.
    off = CleanOptions(line_model=None, extract=ExtractOptions(thread_min_posts=10_000))
    assert "Short reply number 0" not in clean_html(thread_page(), URL, options=off).text


def test_thread_region_needs_alike_siblings() -> None:
    model = build_page_model(load_html(thread_page().encode(), None).root, URL)
    content = next(
        i
        for i, el in enumerate(model.elements)
        if el.get("class") == "content" and "guest lost" in "".join(el.itertext())
    )
    thread = thread_region(model, content, 3)
    assert model.elements[thread].get("class") == "page-body"
    # The page has seven posts (the element itself counts among its alike siblings).
    assert thread_region(model, content, 8) == -1


def test_a_thread_is_known_by_its_declared_schema_type() -> None:
    """An address that follows no forum convention, a markup that declares a
    ``DiscussionForumPosting``: the replies are posts, not comments under an article."""
    from scrapy_webclean.extraction.pagekind import declares_discussion

    prose = "I am doing my bachelor's in IT and wonder whether consulting is worth it."
    answers = (
        "Yes, for the first years at least: you learn how many companies work inside.",
        "It depends on the firm; a tier two shop can teach as much as the big names do.",
        "I left after three years and do not regret a day of it, nor the hours it took.",
        "Try an internship first, then decide whether the travel suits the life you want.",
    )
    replies = "".join(
        f'<div class="comment"><div class="byline">user{i}</div><p>{answer}</p></div>'
        for i, answer in enumerate(answers)
    )
    body = (
        f'<div class="question"><h1>Consulting: is it worth it?</h1><p>{prose} {prose}</p>'
        f'</div><div class="comments">{replies}</div>'
    )
    ld = '<script type="application/ld+json">{"@type": "DiscussionForumPosting"}</script>'
    url = "https://www.example.com/community/consulting/consulting-is-it-worth-it"
    thread = f"<html><head><title>T</title>{ld}</head><body>{body}</body></html>"
    plain = f"<html><head><title>T</title></head><body>{body}</body></html>"
    assert declares_discussion(thread) and not declares_discussion(plain)
    text = clean_html(thread, url, options=RULES_ONLY).text
    assert all(answer in text for answer in answers)
    # (the trained line model may still drop a reply, as it may any line)
    result = clean_html(thread, url)
    assert result.page_type == "forum"
    assert sum(answer in result.text for answer in answers) >= 3
    for options in (RULES_ONLY, CleanOptions()):
        result = clean_html(plain, url, options=options)
        assert result.page_type == "article", options
        assert not any(answer in result.text for answer in answers), options


def test_forum_addresses_follow_the_software_not_the_site() -> None:
    from scrapy_webclean.extraction.pagekind import looks_like_forum

    for url in (
        "https://forum.example.org/t/which-lens/123",
        "https://example.org/viewtopic.php?t=112320",
        "https://example.org/threads/which-lens.4711/",
        "https://example.com/discussions/topic/starting-projects-of-a-beginner/",  # bbPress
        "https://example.com/forums/topic/which-lens/",
        "https://example.org/community/index.php?topic=589061.0",  # Simple Machines
    ):
        assert looks_like_forum(url), url
    for url in (
        "https://news.example.com/topic/climate-change",
        "https://news.example.com/2024/01/12/which-lens.html",
        "https://shop.example.com/p/desk?color=topical",
        None,
    ):
        assert not looks_like_forum(url), url
