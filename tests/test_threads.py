"""Discussion threads and comments: a thread's region is the container of its posts
(``region.thread_region``), its replies are its text; an article's or a question's
comments never are."""

from __future__ import annotations

from scrapy_webclean import CleanOptions, clean_html
from scrapy_webclean.extraction.options import ExtractOptions
from scrapy_webclean.extraction.region import thread_region
from scrapy_webclean.html.loader import load_html
from scrapy_webclean.html.pagewalk import build_page_model
from tests.pages import PROSE, RULES_AND_DEFAULT, RULES_ONLY, page

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
    for options in RULES_AND_DEFAULT:
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
    for options in RULES_AND_DEFAULT:
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


def test_a_comment_thread_longer_than_the_post_is_never_the_text() -> None:
    """A short post under a long thread: the comment section holds most of the page's
    prose, but it is named for comments, so it is left out whatever its share."""
    thread = "".join(
        f'<dt class="comment-author">Reader {i} 07.08.12 at 13:2{i}</dt>'
        f'<dd class="comment"><p>{PROSE} Opinion {i}.</p></dd>'
        for i in range(8)
    )
    html = page(
        f'<div class="post_box hentry"><h1>Wrong and unnecessary</h1><p>{PROSE} Post.</p></div>'
        f'<div id="comments"><dl id="comment_list">{thread}</dl></div>'
    )
    url = "https://example.com/blog/2012/07/07/wrong-and-unnecessary/"
    for options in RULES_AND_DEFAULT:
        text = clean_html(html, url, options=options).text
        assert "Post." in text and "Opinion 3." not in text, options
    # Words that only contain "comment" or "reply" do not name a comment section: a
    # reader's feature (comment on a selection) or an id made from a heading.
    # Nor does a post's state or taxonomy on its wrapper (Squarespace's "has-comments").
    for words in (
        'class="commentOnSelection"',
        'id="receive-and-reply-to-an-inbound-message"',
        'class="BlogItem hentry has-comments tag-comments"',
    ):
        wrapped = page(
            f"<div {words}><h1>Receiving messages</h1>"
            + "".join(f"<p>{PROSE} Step {i}.</p>" for i in range(6))
            + "</div>"
        )
        result = clean_html(wrapped, url, options=RULES_ONLY)
        # (read as the article it is, not rescued as a discussion thread)
        assert "Step 5." in result.text and result.page_type == "article", words
    # A forum's board named "comments" is the thread itself.
    board = page(
        '<section class="comments DiscussionBoard">'
        + "".join(f'<div class="post"><p>{PROSE} Post {i}.</p></div>' for i in range(6))
        + "</section>"
    )
    assert "Post 5." in clean_html(board, url, options=RULES_ONLY).text


def test_forum_thread_keeps_its_replies_and_who_wrote_them() -> None:
    posts = "".join(
        f'<div class="reply"><div class="author">user{i} · 2026-03-0{i + 1}</div>'
        f"<p>{PROSE} Reply {i}.</p>"
        f'<div class="signature">My rig: a 2009 camera body and two old prime lenses, {i}.'
        "</div></div>"
        for i in range(4)
    )
    html = page(f'<div class="thread"><h1>Which lens?</h1>{posts}</div>')
    forum = clean_html(html, "https://example.com/t/which-lens/123")
    assert forum.page_type == "forum"
    assert "Reply 3." in forum.text and "user0 · 2026-03-01" in forum.text
    # (each poster's signature is not the thread's text)
    assert "My rig" not in forum.text
    # Below an article, replies are comments: dropped.
    story = f'<article class="story"><h1>Which lens?</h1><p>{PROSE} Body.</p></article>'
    article = clean_html(page(story + posts), "https://example.com/news/which-lens.html")
    assert article.page_type == "article" and "Body." in article.text
    assert "Reply 3." not in article.text


def test_comments_under_a_question_or_an_answer_are_asides_not_posts() -> None:
    """On a Q&A thread (Stack Exchange's markup) the question and the answers are the
    content and the comments inside them are dropped; on a thread whose posts are named
    "comment", outside any question or answer, the posts stay."""

    def comments(post: str) -> str:
        return (
            '<div class="comments js-comments-container"><ul class="comments-list">'
            + "".join(
                f'<li class="comment"><span class="comment-copy">Thanks, that helped with '
                f"the {post} a lot, I will try it tomorrow at work. Aside {post}{i}.</span>"
                f'<a class="comment-user">user{i}</a></li>'
                for i in range(3)
            )
            + "</ul></div>"
        )

    answers = "".join(
        f'<div class="answer js-answer"><div class="s-prose js-post-body"><p>{PROSE} '
        f"Answer {i}.</p></div>{comments(f'answer{i}')}</div>"
        for i in range(3)
    )
    question = (
        '<div class="question js-question"><h1>How do I focus the file pane?</h1>'
        f'<div class="s-prose js-post-body"><p>{PROSE} Question.</p></div>'
        f"{comments('question')}</div>"
    )
    url = "https://example.com/questions/442960/how-do-i-focus-the-file-pane"
    result = clean_html(page(f'<div id="mainbar">{question}{answers}</div>'), url)
    assert result.page_type == "forum"
    assert "Question." in result.text and "Answer 2." in result.text
    assert "Aside" not in result.text
    # A thread whose posts are its "comments" keeps them.
    posts = "".join(
        f'<div class="comment"><div class="comment-body"><p>{PROSE} Post {i}.</p></div></div>'
        for i in range(4)
    )
    thread = clean_html(page(f'<div class="comments">{posts}</div>'), url)
    assert "Post 0." in thread.text and "Post 3." in thread.text


def test_a_page_that_is_only_a_discussion_is_read_as_a_thread() -> None:
    """An address that does not say "thread", and nothing but replies on the page: the
    replies are the content (read as a forum), not an empty page."""
    posts = "".join(
        f'<div class="comment"><div class="byline">user{i} 1 year ago</div>'
        f"<p>{PROSE} Reply {i}.</p></div>"
        for i in range(4)
    )
    result = clean_html(page(f'<ol class="comments">{posts}</ol>'), "https://example.com/s/abc")
    assert result.page_type == "forum"
    assert "Reply 0." in result.text and "Reply 3." in result.text


def test_a_dated_posts_comments_are_not_read_as_its_text() -> None:
    """A dated permalink (a blog's video post: nothing but its title above the comments):
    the comments are the post's, not a discussion thread's posts; no text is better."""
    posts = "".join(
        f'<div class="comment"><div class="byline">user{i} 1 year ago</div>'
        f"<p>{PROSE} Reply {i}.</p></div>"
        for i in range(4)
    )
    html = page(f'<ol class="comments">{posts}</ol>')
    dated = clean_html(html, "https://example.com/2012/11/next-up-pumpkin-pie.html")
    assert "Reply" not in dated.text and dated.page_type != "forum"
    from scrapy_webclean.extraction.pagekind import looks_like_dated_post

    assert looks_like_dated_post("http://example.com/2012/06/29/conversation/")
    assert not looks_like_dated_post("https://example.com/s/abc/2012")
    assert not looks_like_dated_post("https://example.com/2012/13/x")


def test_a_long_comment_thread_does_not_take_the_region_from_the_article() -> None:
    """Hundreds of comments whose author lines score outweigh a short article in the same
    container; their own text is dropped as comments, so the article is the region."""
    comments = "".join(
        f'<dt id="comment-{i}">Reader{i} July {1 + i % 28}, 2012 at 8:{10 + i % 50} pm</dt>'
        f'<dd><div class="comment-body"><p>Thanks, lovely words number {i}!</p></div></dd>'
        for i in range(300)
    )
    html = page(
        f'<div id="content"><div id="post-1"><h1>Vacations</h1><div class="format_text">'
        f"<p>{PROSE} Away.</p><p>{PROSE} Back in August.</p></div></div>"
        f'<div id="comments"><dl id="comment_list">{comments}</dl></div></div>'
    )
    result = clean_html(html, "https://blog.example.com/2012/07/17/vacations/")
    assert result.page_type == "article"
    assert "Back in August." in result.text
    assert "lovely words" not in result.text
