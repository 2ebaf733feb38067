"""Failure classes of the title and date fields seen on held-out pages (issue 20, section
3), each fixed by a general rule: a site-name ``<h1>`` as the title, an inline icon's
``<title>`` as the page's, the site's part of a title taken over the ``<h1>`` that repeats
another part, a heading's button label and permalink mark read as its text, a forum's
labels; a date from the body (an infobox's founding date, a member's join date, a
sidebar's) over the page's publication metadata."""

from __future__ import annotations

import pytest

from scrapy_webclean import clean_html
from scrapy_webclean.extraction.dates import metadata_date
from scrapy_webclean.html.loader import parse_html
from tests.pages import ARTICLE, titled


def test_a_logo_h1_linking_to_the_front_page_is_not_the_title() -> None:
    html = titled(
        "Ant – Wikipedia",
        f"<header><a href='/'><h1>Wikipedia</h1></a></header><main><h2>Ant</h2>{ARTICLE}</main>",
    )
    assert clean_html(html).title == "Ant"


def test_the_h1_that_repeats_a_title_part_is_the_title() -> None:
    # The page's <h1> repeats the shorter part of its <title>, the longer one names the site.
    html = titled("Sudo - ArchWiki", f"<main><h1>Sudo</h1>{ARTICLE}</main>")
    assert clean_html(html, "https://wiki.example.org/title/Sudo").title == "Sudo"
    # But not the last part, where a site (or a book) puts its name.
    html = titled(
        "Traits: Defining Shared Behavior - The Rust Programming Language",
        f"<div class='menu'><h1>The Rust Programming Language</h1></div><main>{ARTICLE}</main>",
    )
    assert clean_html(html).title == "Traits: Defining Shared Behavior"


def test_a_headings_button_and_permalink_mark_are_not_its_text() -> None:
    html = titled(
        "tokio - Rust",
        f"<main><h1>Crate <span>tokio</span> <button>Copy item path</button></h1>{ARTICLE}</main>",
    )
    assert clean_html(html).title == "Crate tokio"
    html = titled(
        "Models | Django documentation",
        f"<main><h1>Models<a class='headerlink' href='#models'>\u00b6</a></h1>{ARTICLE}</main>",
    )
    assert clean_html(html).title == "Models"
    # A hash that is part of a name stays.
    html = titled("C# | Docs", f"<main><h1>C#</h1>{ARTICLE}</main>")
    assert clean_html(html).title == "C#"


#: (the <title>, the body, more of the <head>, the title expected)
FORUM_AND_CUT_TITLES = {
    # A forum's label before a thread's title: XenForo's prefix, vBulletin's "Thread:".
    "xenforo prefix": (
        "News - Cameras as a status symbol | Camera Forum",
        "<h1 class='p-title-value'><span class='label label--green'>News</span>"
        "<span class='label-append'> </span>Cameras as a status symbol</h1>",
        "",
        "Cameras as a status symbol",
    ),
    "thread opener": (
        "Which host to buy? | Hosting Talk",
        "<h1> Thread: <span class='threadtitle'><a href='?t=1'>Which host to buy?</a></span></h1>",
        "",
        "Which host to buy?",
    ),
    # A label that is the whole heading stays; a word that only opens the title stays.
    "label alone": ("Tags", "<h1><span class='tag'>Tags</span></h1>", "", "Tags"),
    "opening word": (
        "Thread safety",
        "<h1>Thread safety in Rust</h1>",
        "",
        "Thread safety in Rust",
    ),
    # A spaced slash separates a title's parts, but not two numbers.
    "slash": (
        "What happened with the ISO in 2024 / Arch Discussion / Arch Linux Forums",
        "<header><a href='/'><h1>Arch Linux</h1></a></header>",
        "",
        "What happened with the ISO in 2024",
    ),
    "numbers": ("Tech conferences 2026 / 2027", "", "", "Tech conferences 2026 / 2027"),
    # A social card's title cut short gives way to the page's.
    "cut short": (
        "What will be the trend in the watch market in 2024? | Watch Forums",
        "",
        "<meta property='og:title' content='What will be the trend in the watch...'>",
        "What will be the trend in the watch market in 2024?",
    ),
}


@pytest.mark.parametrize("case", list(FORUM_AND_CUT_TITLES))
def test_forum_labels_slashes_and_cut_titles(case: str) -> None:
    title, heading, head, expected = FORUM_AND_CUT_TITLES[case]
    html = titled(title, f"<main>{heading}{ARTICLE}</main>", head)
    assert clean_html(html).title == expected


def test_an_inline_icons_title_is_not_the_pages_title() -> None:
    # No <title> in the <head>: the first one in the page is an SVG icon's name.
    icon = (
        '<a href="/share"><svg viewBox="0 0 24 24"><title>LinkedIn</title><path d="M0"/></svg></a>'
    )
    html = f"<html><head></head><body>{icon}<h1>Standing Desk</h1>{ARTICLE}</body></html>"
    assert clean_html(html).title == "Standing Desk"
    # A <title> outside every drawing is still read.
    html = f"<html><body>{icon}<title>Standing Desk | Shop</title>{ARTICLE}</body></html>"
    assert clean_html(html).title == "Standing Desk"


def test_a_title_part_naming_the_site_is_not_the_title() -> None:
    # The site's name, declared by og:site_name, is the longest part of the <title> and an
    # <h1> repeats it.
    html = titled(
        "Rain - The Springfield Evening Chronicle",
        f"<div><h1>The Springfield Evening Chronicle</h1></div><div>{ARTICLE}</div>",
        "<meta property='og:site_name' content='The Springfield Evening Chronicle'>",
    )
    assert clean_html(html).title == "Rain"
    # Named by the page's host.
    html = titled("Cat - Wikipedia", f"<div><h1>Wikipedia</h1></div><div>{ARTICLE}</div>")
    assert clean_html(html, "https://en.wikipedia.org/wiki/Cat").title == "Cat"
    # The page's own <h1> still has the exact wording.
    html = titled(
        "Storm hits the coast | The Springfield Evening Chronicle",
        f"<a href='/' class='logo'><h1>The Springfield Evening Chronicle</h1></a>"
        f"<article><h1>Storm hits the coast!</h1>{ARTICLE}</article>",
    )
    assert clean_html(html).title == "Storm hits the coast!"
    # A front page whose title is the site's name keeps it.
    html = titled(
        "Springfield Chronicle",
        f"<a href='/'><h1>Springfield Chronicle</h1></a><div>{ARTICLE}</div>",
        "<meta property='og:site_name' content='Springfield Chronicle'>",
    )
    assert clean_html(html, "https://springfieldchronicle.com/").title == "Springfield Chronicle"


INFOBOX = (
    "<table class='infobox'><tr><th>Founded</th><td>12 May 1998</td></tr>"
    "<tr><th>Headquarters</th><td>Springfield</td></tr></table>"
)


def test_the_pages_json_ld_date_wins_over_a_date_in_the_body() -> None:
    head = (
        '<script type="application/ld+json">{"@context": "https://schema.org", '
        '"@type": "Article", "name": "Acme", "datePublished": "2024-05-06T10:00:00Z", '
        '"dateModified": "2025-01-02T00:00:00Z", "publisher": {"@type": "Organization", '
        '"foundingDate": "1998-05-12"}}</script>'
    )
    html = titled("Acme - Wiki", f"<h1>Acme</h1>{INFOBOX}{ARTICLE}", head)
    assert clean_html(html).date == "2024-05-06"


@pytest.mark.parametrize(
    "meta",
    [
        '<meta name="citation_publication_date" content="2024/05/06">',
        '<meta name="dcterms.date" content="2024-05-06">',
        '<meta property="og:article:published_time" content="2024-05-06T08:00:00+02:00">',
        '<meta name="published_date" content="2024-05-06">',
    ],
)
def test_more_publication_date_meta_tags_are_read(meta: str) -> None:
    html = titled("Acme", f"<h1>Acme</h1>{INFOBOX}{ARTICLE}", meta)
    assert clean_html(html).date == "2024-05-06"


@pytest.mark.parametrize(
    ("metas", "expected"),
    [
        # Other spellings with a word like "published" are publication dates...
        ('<meta name="w-published-date" content="2024-05-06T06:03:43.274Z">', "2024-05-06"),
        ('<meta name="published" content="May 6, 2024">', "2024-05-06"),
        ('<meta property="og:publish_date" content="2024-05-06">', "2024-05-06"),
        # ...but not a publisher, a modified, updated or expiry date...
        ('<meta property="article:publisher" content="2024-05-06">', None),
        ('<meta name="last-published-date" content="2024-05-06">', None),
        ('<meta name="published-date-modified" content="2024-05-06">', None),
        # ...and a name the list has goes first wherever it is.
        (
            '<meta name="published-time" content="2026-03-09T08:45:32.183Z">'
            '<meta name="published-date" content="2021-02-16">',
            "2021-02-16",
        ),
    ],
)
def test_other_spellings_of_a_publication_date_meta_tag(metas: str, expected: str | None) -> None:
    html = titled("Acme", f"<h1>Acme</h1>{ARTICLE}", metas)
    assert clean_html(html).date == expected


def test_a_date_runs_into_the_next_word() -> None:
    # "Dec 17, 2025" and an author's name in two spans, with no space between them.
    byline = "<div class='meta'><span>Dec 17, 2025</span><span>Ann Lee</span></div>"
    html = titled("A story", f"<article><h1>A story</h1>{byline}{ARTICLE}</article>")
    assert clean_html(html).date == "2025-12-17"
    from scrapy_webclean.extraction.dates import parse_date

    assert parse_date("Dec 17, 20251") is None  # (a longer number is no year)


def test_the_addresses_day_wins_over_a_utc_timestamp_one_day_off() -> None:
    # Posted at 7:05 pm in California on the 18th: Greenwich's clock says the 19th.
    utc = '<meta property="article:published_time" content="2025-12-19T03:05:00+00:00">'
    html = titled("A story", f"<h1>A story</h1>{ARTICLE}", utc)
    assert clean_html(html, "https://example.com/2025/12/18/a-story").date == "2025-12-18"
    # Not two days off, nor a timestamp with the site's own offset, nor without an address.
    assert clean_html(html, "https://example.com/2025/12/17/a-story").date == "2025-12-19"
    assert clean_html(html).date == "2025-12-19"
    local = utc.replace("2025-12-19T03:05:00+00:00", "2025-12-19T03:05:00+09:00")
    html = titled("A story", f"<h1>A story</h1>{ARTICLE}", local)
    assert clean_html(html, "https://example.com/2025/12/18/a-story").date == "2025-12-19"


def test_a_members_join_date_is_not_the_pages_date() -> None:
    post = "<div class='post'><dl><dd>Registered: 2024-01-27</dd><dd>Posts: 98</dd></dl>"
    html = titled(
        "A thread",
        f"<h1>A thread</h1>{post}<p class='byline'>by Ann » Tue Aug 27, 2019</p>{ARTICLE}</div>",
    )
    assert clean_html(html).date == "2019-08-27"
    # An update is the page's date all the same (the dev sets' truths say so).
    html = titled("A story", f"<h1>A story</h1><p>Updated: May 6, 2024</p>{ARTICLE}")
    assert clean_html(html).date == "2024-05-06"


def test_a_date_the_address_names_when_the_page_names_none() -> None:
    html = titled("A story", f"<h1>A story</h1>{ARTICLE}")
    assert clean_html(html, "https://example.com/2024/05/06/a-story").date == "2024-05-06"
    assert clean_html(html, "https://example.com/articles/2024-05-06+A+story").date == "2024-05-06"
    # A year and a month name no day; a number that runs on is an id; the page's own date
    # wins over the address's.
    assert clean_html(html, "https://example.com/2024/05/a-story").date is None
    assert clean_html(html, "https://example.com/item/202405061234").date is None
    dated = titled("A story", f"<h1>A story</h1>{ARTICLE}",
                    '<meta property="article:published_time" content="2024-05-07">')  # fmt: skip
    assert clean_html(dated, "https://example.com/2024/05/06/a-story").date == "2024-05-07"


def test_a_time_element_without_datetime_is_read_for_its_text() -> None:
    html = titled(
        "A story",
        f"<article><h1>A story</h1><span><time>Dec 19, 2025</time></span>{ARTICLE}</article>",
    )
    assert clean_html(html).date == "2025-12-19"


def test_the_articles_time_wins_over_a_sidebars() -> None:
    html = titled(
        "A story",
        "<aside><ul><li><a href='/old'>Older post</a> <time datetime='2019-01-01'>Jan 1</time>"
        "</li></ul></aside><article><header><h1>A story</h1>"
        f"<time datetime='2024-05-06T09:00'>May 6</time></header>{ARTICLE}</article>",
    )
    root, _ = parse_html(html)
    assert metadata_date(root) == "2024-05-06"
