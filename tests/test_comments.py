"""Reader comments apart from the text (``CleanOptions(include_comments=True)``, issue 55)."""

from __future__ import annotations

import json

import pytest

from scrapy_webclean import CleanOptions, clean_html
from scrapy_webclean.extraction.comment_fields import author_name
from scrapy_webclean.extraction.comments import names_thread_words, signature
from scrapy_webclean.result import Comment
from tests.linear import assert_linear

URL = "http://example.com/news/a-story"
EN = (
    "The council voted on Tuesday to turn the old harbour exchange into a library annex, "
    "after a long debate about costs and the future of the waterfront district."
)
ARTICLE = f"<article><h1>A story</h1>{f'<p>{EN}</p>' * 4}</article>"
ON = CleanOptions(include_comments=True)


def page(body: str, head: str = "") -> str:
    return f"<html><head><title>A story</title>{head}</head><body>{body}</body></html>"


def _wp_comment(number: int, name: str, when: str, body: str, replies: str = "") -> str:
    children = f'<ul class="children">{replies}</ul>' if replies else ""
    return (
        f'<li class="comment even thread-even depth-1" id="li-comment-{number}">'
        f'<div id="comment-{number}" class="comment-body">'
        '<div class="comment-author vcard"><img src="/avatar.png" alt="">'
        f'<cite class="fn"><a href="http://example.org/{number}" class="url">{name}</a></cite>'
        ' <span class="says">says:</span></div>'
        f'<div class="comment-meta commentmetadata"><a href="#comment-{number}">{when}</a></div>'
        f"{body}"
        '<div class="reply"><a class="comment-reply-link" href="#">Reply</a></div>'
        f"</div>{children}</li>"
    )


WORDPRESS = page(
    ARTICLE + '<div id="comments"><h3 id="comments-title">3 Responses to “A story”</h3>'
    '<ol class="commentlist">'
    + _wp_comment(
        1,
        "Kimberly",
        "November 13, 2012 at 8:26 am",
        "<p>I think satin ribbon would have worked better here.</p>",
        _wp_comment(2, "Heather", "November 13, 2012 at 11:18 am", "<p>Good thinking!</p>"),
    )
    + _wp_comment(
        3,
        "Sara",
        "November 14, 2012 at 10:06 am",
        "<p>Very cute. You could try hairspray.</p><p>Or starch.</p>",
    )
    + "</ol>"
    '<div id="respond"><h3 id="reply-title">Leave a Reply</h3>'
    '<form action="/wp-comments-post.php" id="commentform">'
    '<p class="comment-notes">Your email address will not be published.</p>'
    '<p><label for="author">Name</label><input id="author" name="author" type="text"></p>'
    '<p><label for="comment">Comment</label><textarea id="comment" name="comment"></textarea></p>'
    '<p class="form-submit"><input name="submit" type="submit" value="Post Comment"></p>'
    "</form></div></div>"
)

WORDPRESS_COMMENTS = [
    Comment("Kimberly", "2012-11-13", "I think satin ribbon would have worked better here."),
    Comment("Heather", "2012-11-13", "Good thinking!"),
    Comment("Sara", "2012-11-14", "Very cute. You could try hairspray.\nOr starch."),
]


def _div_post(name: str, when: str, body: str, replies: str = "") -> str:
    nested = f'<div class="replies">{replies}</div>' if replies else ""
    return (
        '<div class="post">'
        f'<div class="post-header"><span class="user-name">{name}</span>'
        f' <span class="timestamp">{when}</span></div>'
        f'<div class="post-text">{body}</div>'
        '<div class="actions"><a href="#r">Reply</a> <a href="#f">Report</a></div>'
        f"{nested}</div>"
    )


DIV_THREAD = page(
    ARTICLE
    + '<section class="discussion"><h2>Discussion</h2>'
    + _div_post(
        "marta_k",
        "2 March 2024",
        "The annex should keep the old trading floor open to the public.",
        _div_post("J. Ortiz", "3 March 2024", "Agreed, the floor is the best part of it."),
    )
    + _div_post("fjord42", "4 March 2024", "Who pays for the roof repairs, though?")
    + "</section>"
)

DIV_COMMENTS = [
    Comment(
        "marta_k", "2024-03-02", "The annex should keep the old trading floor open to the public."
    ),
    Comment("J. Ortiz", "2024-03-03", "Agreed, the floor is the best part of it."),
    Comment("fjord42", "2024-03-04", "Who pays for the roof repairs, though?"),
]

MICRODATA = page(
    '<article itemscope itemtype="https://schema.org/BlogPosting"><h1>A story</h1>'
    + f"<p>{EN}</p>" * 4
    + "</article>"
    '<div class="reader-notes">'
    + "".join(
        f'<div itemprop="comment" itemscope itemtype="https://schema.org/Comment">'
        f'<div itemprop="author" itemscope itemtype="https://schema.org/Person">'
        f'<span itemprop="name">{name}</span></div>'
        f'<meta itemprop="dateCreated" content="{when}">'
        f'<div itemprop="text">{text}</div></div>'
        for name, when, text in (
            ("Ada", "2023-05-01T10:00:00Z", "A library annex is a fine use of that hall."),
            ("Bo", "2023-05-02", "I would rather see a market there again."),
        )
    )
    + "</div>"
)

MICRODATA_COMMENTS = [
    Comment("Ada", "2023-05-01", "A library annex is a fine use of that hall."),
    Comment("Bo", "2023-05-02", "I would rather see a market there again."),
]

JSON_LD = {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    "headline": "A story",
    "comment": [
        {
            "@type": "Comment",
            "author": {"@type": "Person", "name": "Chidi"},
            "dateCreated": "2022-08-09T12:00:00+00:00",
            "text": "Good news for the waterfront.",
        },
        {"@type": "Comment", "author": "Dana", "text": "About time   too."},
        {"@type": "Comment", "author": "Nobody"},
    ],
}
JSON_LD_PAGE = page(ARTICLE, f'<script type="application/ld+json">{json.dumps(JSON_LD)}</script>')
JSON_LD_COMMENTS = [
    Comment("Chidi", "2022-08-09", "Good news for the waterfront."),
    Comment("Dana", None, "About time too."),
]


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        (WORDPRESS, WORDPRESS_COMMENTS),
        (DIV_THREAD, DIV_COMMENTS),
        (MICRODATA, MICRODATA_COMMENTS),
        (JSON_LD_PAGE, JSON_LD_COMMENTS),
    ],
    ids=["wordpress", "div-thread", "microdata", "json-ld"],
)
def test_comments_are_read_apart_from_the_text(html: str, expected: list[Comment]) -> None:
    on = clean_html(html, URL, options=ON)
    off = clean_html(html, URL)
    assert on.comments == expected
    assert off.comments is None
    assert on.text == off.text
    for comment in expected:
        assert comment.text.split("\n")[0] not in on.text


def test_forms_and_buttons_are_no_comments() -> None:
    comments = clean_html(WORDPRESS, URL, options=ON).comments
    assert comments is not None
    texts = "\n".join(comment.text for comment in comments)
    for chrome in ("Reply", "Leave a Reply", "Post Comment", "Name", "says", "Responses"):
        assert chrome not in texts.split("\n")
    assert "Report" not in "\n".join(
        c.text for c in clean_html(DIV_THREAD, URL, options=ON).comments or []
    )


def test_a_thread_of_notices_only_has_no_comments() -> None:
    html = page(
        ARTICLE + '<div id="comments"><h3>No Comments</h3><p>There are no comments yet.</p>'
        "<p>Loading comments...</p>"
        '<div id="respond"><h3>Leave a Reply</h3><p class="must-log-in">You must be '
        '<a href="/login">logged in</a> to post a comment.</p></div></div>'
    )
    assert clean_html(html, URL, options=ON).comments == []


def test_a_page_without_comments_gives_an_empty_list() -> None:
    html = page(ARTICLE + '<footer class="site-footer"><p>About us</p></footer>')
    assert clean_html(html, URL, options=ON).comments == []
    assert clean_html(html, URL).comments is None


def test_a_recent_comments_widget_is_not_the_thread() -> None:
    html = page(
        ARTICLE
        + '<div class="sidebar"><div id="recent-comments-2" class="widget widget_recent_comments">'
        '<h3>Recent Comments</h3><ul id="recentcomments">'
        '<li class="recentcomments">Jo Bloggs on <a href="/other">Another story about the '
        "harbour and the library</a></li>"
        '<li class="recentcomments">Sam on <a href="/third">A third story</a></li>'
        "</ul></div></div>"
    )
    assert clean_html(html, URL, options=ON).comments == []


def test_a_wrapper_of_the_article_is_no_thread() -> None:
    html = page(f'<div class="comments-open">{ARTICLE}<div class="related"><p>{EN}</p></div></div>')
    result = clean_html(html, URL, options=ON)
    assert result.comments == []
    assert result.text == clean_html(html, URL).text


def test_to_dict_carries_the_comments() -> None:
    data = clean_html(JSON_LD_PAGE, URL, options=ON).to_dict()
    assert data["comments"][0] == {
        "author": "Chidi",
        "date": "2022-08-09",
        "text": JSON_LD_COMMENTS[0].text,
    }


def test_names_and_signatures() -> None:
    assert names_thread_words("comments")
    assert names_thread_words("commentlist")
    assert names_thread_words("disqus_thread")
    assert names_thread_words("comment-list clearfix")
    assert not names_thread_words("comment-count")
    assert not names_thread_words("widget_recent_comments")
    assert not names_thread_words("has-comments")
    assert not names_thread_words("content")
    from lxml import html as lxml_html

    even = lxml_html.fromstring('<li class="comment even thread-even depth-1">x</li>')
    odd = lxml_html.fromstring('<li class="comment odd alt depth-1">x</li>')
    assert signature(even, "li") == signature(odd, "li") == ("li", "comment")
    assert author_name("Kimberly says:") == "Kimberly"
    assert author_name("Posted by: Jo") == "Jo"
    assert author_name("November 13, 2012") == ""


def _thread(n: int) -> str:
    posts = "".join(
        _wp_comment(i, f"Reader {i}", "November 13, 2012 at 8:26 am", f"<p>Comment {i}: {EN}</p>")
        for i in range(n)
    )
    return page(ARTICLE + f'<div id="comments"><ol class="commentlist">{posts}</ol></div>')


def _nested_thread(n: int) -> str:
    """``n`` posts, in chains of replies 30 deep (the page's depth stays under the
    loader's limit)."""
    chains = []
    for chain in range(0, n, 30):
        inner = ""
        for i in range(chain, min(chain + 30, n)):
            inner = _div_post(f"user{i}", "2 March 2024", f"Reply {i} to the one above.", inner)
        chains.append(inner)
    return page(ARTICLE + f'<section class="discussion">{"".join(chains)}</section>')


def _one_long_class(n: int) -> str:
    words = " ".join(f"comment-x{i}" for i in range(n))
    return f"comments {words} " * 2


def test_comments_are_linear_in_the_thread() -> None:
    def comments_of(html: str) -> object:
        return clean_html(html, URL, options=ON).comments

    assert_linear(comments_of, _thread, 20, "a long comment thread")
    assert_linear(comments_of, _nested_thread, 30, "a thread of nested replies")
    assert_linear(names_thread_words, _one_long_class, 200, "a long class attribute")
    assert_linear(author_name, lambda n: "says " * n + "x" * n, 200, "a long byline")
