"""The metadata fields of a cleaned page (issue 55): ``author``, ``sitename``,
``description``, ``categories``, ``tags``, ``image``, ``canonical_url``, ``date_modified``
and ``license``, each from the sources a page declares them in, and the cases where a
page's candidate is no value (a date as a byline, "Staff" alone, a logo as ``og:image``,
a one-pixel image, a ``javascript:`` canonical address).
"""

from __future__ import annotations

import json

from scrapy_webclean import clean_html
from scrapy_webclean.extraction.authors import MAX_NAMES, author_names
from scrapy_webclean.extraction.bylines import line_authors, markup_authors
from scrapy_webclean.extraction.markupscan import tags_with, texts_after
from scrapy_webclean.html.pagemodel import TextRun
from scrapy_webclean.result import CleanResult
from tests.linear import assert_linear

URL = "https://news.example.com/2024/05/05/bread"
BODY = (
    "<p>Bread is made of flour, water, salt and yeast. Knead the dough well and let it rise "
    "for an hour before you shape it into a loaf and bake it.</p>"
    "<p>Bake it at 230 degrees for forty minutes, then let it cool on a rack for an hour "
    "before you cut it into slices and serve it with butter.</p>"
)


def page(head: str = "", article: str = "", title: str = "How to bake bread") -> str:
    """A small article page: ``head`` in its ``<head>``, ``article`` before its text."""
    return (
        f"<html><head><title>{title}</title>{head}</head><body>"
        f"<article><h1>How to bake bread</h1>{article}{BODY}</article></body></html>"
    )


def json_ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def clean(head: str = "", article: str = "", title: str = "How to bake bread") -> CleanResult:
    return clean_html(page(head, article, title), URL)


# --------------------------------------------------------------------------- author


def test_author_from_json_ld_with_a_reference_by_id() -> None:
    graph = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "Article", "headline": "Bread", "author": {"@id": "#jane"}},
            {"@type": "Person", "@id": "#jane", "name": "Jane Doe"},
        ],
    }
    assert clean(json_ld(graph)).author == ["Jane Doe"]


def test_author_from_json_ld_list_and_meta() -> None:
    data = {"@type": "NewsArticle", "author": [{"name": "Jane Doe"}, {"name": "John Roe"}]}
    assert clean(json_ld(data)).author == ["Jane Doe", "John Roe"]
    assert clean('<meta name="author" content="Jane Doe and John Roe">').author == [
        "Jane Doe",
        "John Roe",
    ]
    assert clean('<meta name="author" content="By Jane Doe, John Roe">').author == [
        "Jane Doe",
        "John Roe",
    ]


def test_author_from_a_twitter_card_and_citation_tags() -> None:
    head = '<meta name="twitter:label1" content="Written by"><meta name="twitter:data1" content="Ann Lee">'
    assert clean(head).author == ["Ann Lee"]
    head = '<meta name="citation_author" content="Roy, Aniruddha"><meta name="citation_author" content="Das, Amitava">'
    assert clean(head).author == ["Aniruddha Roy", "Amitava Das"]


def test_author_from_a_byline_line() -> None:
    result = clean(article='<p class="byline">By Jane Doe and John Roe | May 5, 2024</p>')
    assert result.author == ["Jane Doe", "John Roe"]
    assert result.date == "2024-05-05"


def test_author_from_byline_markup_and_rel_author() -> None:
    article = '<div class="post-meta">Written by <a rel="author" href="/u/ann">Ann Lee</a></div>'
    assert clean(article=article).author == ["Ann Lee"]
    article = (
        '<div class="author-box"><img class="author-avatar" src="/a.jpg">'
        '<span class="author-name">Celeste Longacre</span>'
        '<span class="author-title">Gardener</span></div>'
    )
    assert clean(article=article).author == ["Celeste Longacre"]


def test_author_from_a_text_line_with_a_label() -> None:
    assert clean(article="<p>Written by Cassidy Horton</p>").author == ["Cassidy Horton"]
    assert clean(article="<h3>Author</h3><p>Lisa D. Ellis</p>").author == ["Lisa D. Ellis"]


def test_a_declared_organisation_gives_way_to_the_byline_person() -> None:
    data = {
        "@type": "NewsArticle",
        "author": {"@type": "Organization", "name": "Daily Bugle"},
        "publisher": {"@type": "Organization", "name": "Daily Bugle"},
    }
    head = json_ld(data) + '<meta property="og:site_name" content="Daily Bugle">'
    article = '<p class="byline">By Brian Truitt</p>'
    assert clean(head, article).author == ["Brian Truitt"]
    # (without a byline the organisation stands: a company's post by the company)
    assert clean(head).author == ["Daily Bugle"]


def test_no_date_no_staff_no_handle_no_address_as_author() -> None:
    assert clean(article='<p class="byline">By March 3, 2024</p>').author == []
    assert clean('<meta name="author" content="Staff">').author == []
    assert clean('<meta name="author" content="Staff Writer">').author == []
    assert clean('<meta name="author" content="Admin">').author == []
    assert clean('<meta name="author" content="@janedoe">').author == []
    assert clean('<meta property="article:author" content="https://facebook.com/x">').author == []
    # ("Resy Staff" is a name: a word of it is no role)
    assert clean('<meta name="author" content="Resy Staff">').author == ["Resy Staff"]


def test_no_reviewer_and_no_site_name_from_the_markup() -> None:
    article = '<div class="byline">Reviewed by Dr. Ann Lee</div>'
    assert clean(article=article).author == []
    head = '<meta property="og:site_name" content="The Bakery">'
    assert clean(head, '<div class="author">The Bakery</div>').author == []


def test_author_names_cut_and_split() -> None:
    assert author_names("By Jane Doe • Founder • Updated May 6, 2025") == ["Jane Doe"]
    assert author_names("Posted by BeauHD on Friday December 19, 2025") == ["BeauHD"]
    assert author_names("by: Ziyi Xu, Dec 17, 2025") == ["Ziyi Xu"]
    assert author_names("Genevieve Carlton, Ph.D.") == ["Genevieve Carlton"]
    assert author_names("Dylan Bailey, MS, RD") == ["Dylan Bailey"]
    assert author_names("Center for Drug Evaluation", byline=False) == [
        "Center for Drug Evaluation"
    ]
    assert author_names("Sun Dec 17, 2023 11:23 am") == []
    assert author_names("{{ author.name }}") == []
    assert author_names("x" * 150) == []
    many = ", ".join(f"Name{i} Person" for i in range(30))
    assert len(author_names(many)) == MAX_NAMES


def test_chinese_byline_labels() -> None:
    assert author_names("作者：周沐阳") == ["周沐阳"]
    assert author_names("记者：张三、李四") == ["张三", "李四"]
    assert author_names("文: 赵六") == ["赵六"]
    assert author_names("责任编辑：王五") == []  # (the editor, not the author)
    assert author_names("来源：江城晚报") == []  # (the source, a publication)
    line = "2026年4月10日 10:00 来源：江城晚报 作者：周沐阳 李青  责任编辑：王五"
    assert author_names(line) == ["周沐阳", "李青"]


def test_no_author_on_a_page_without_one() -> None:
    assert clean().author == []


# --------------------------------------------------------------------------- site name


def test_sitename_sources() -> None:
    assert clean('<meta property="og:site_name" content="The Bakery">').sitename == "The Bakery"
    data = {"@type": "Article", "publisher": {"@type": "Organization", "name": "Bake Co"}}
    assert clean(json_ld(data)).sitename == "Bake Co"
    assert clean(title="How to bake bread - The Bakery").sitename == "The Bakery"
    assert clean(title="The Bakery | How to bake bread").sitename == "The Bakery"
    assert clean().sitename is None


# --------------------------------------------------------------------------- description


def test_description_sources() -> None:
    head = '<meta name="description" content="All about   bread.">'
    assert clean(head).description == "All about bread."
    head = '<meta property="og:description" content="Bread, the card.">'
    assert clean(head).description == "Bread, the card."
    data = {"@type": "Article", "description": "Bread in JSON-LD."}
    assert clean(json_ld(data)).description == "Bread in JSON-LD."
    assert clean().description is None


# --------------------------------------------------------------------------- taxonomy


def test_categories_and_tags_declared() -> None:
    data = {"@type": "BlogPosting", "articleSection": ["Recipes"], "keywords": "baking, bread"}
    result = clean(json_ld(data))
    assert result.categories == ["Recipes"]
    assert result.tags == ["baking", "bread"]
    head = (
        '<meta property="article:section" content="Food">'
        '<meta property="article:tag" content="yeast"><meta property="article:tag" content="flour">'
    )
    result = clean(head)
    assert result.categories == ["Food"]
    assert result.tags == ["yeast", "flour"]
    assert clean('<meta name="keywords" content="bread, Bread, loaf">').tags == ["bread", "loaf"]


def test_categories_and_tags_from_links_and_lines() -> None:
    article = (
        '<p>Posted in <a rel="category tag" href="/c/recipes">Recipes</a></p>'
        '<p>Tags: <a rel="tag" href="/t/a">sourdough</a>, <a rel="tag" href="/t/b">rye</a></p>'
    )
    result = clean(article=article)
    assert result.categories == ["Recipes"]
    assert result.tags == ["sourdough", "rye"]
    article = "<p>Filed under: Recipes, Baking</p><p>Tagged: rye, spelt</p>"
    result = clean(article=article)
    assert result.categories == ["Recipes", "Baking"]
    assert result.tags == ["rye", "spelt"]


def test_no_categories_or_tags_without_any() -> None:
    result = clean()
    assert result.categories == []
    assert result.tags == []


# --------------------------------------------------------------------------- image


def test_image_made_absolute() -> None:
    head = '<meta property="og:image" content="/img/bread.jpg">'
    assert clean(head).image == "https://news.example.com/img/bread.jpg"
    data = {"@type": "Article", "image": {"@type": "ImageObject", "url": "https://cdn.x/b.jpg"}}
    assert clean(json_ld(data)).image == "https://cdn.x/b.jpg"


def test_no_logo_and_no_pixel_as_image() -> None:
    head = (
        '<meta property="og:image" content="https://news.example.com/static/logo.png">'
        '<meta name="twitter:image" content="https://news.example.com/img/loaf.jpg">'
    )
    assert clean(head).image == "https://news.example.com/img/loaf.jpg"
    head = (
        '<meta property="og:image" content="https://news.example.com/p.gif">'
        '<meta property="og:image:width" content="1"><meta property="og:image:height" content="1">'
    )
    assert clean(head).image is None
    assert clean('<meta property="og:image" content="/img/spacer.gif">').image is None
    data = {
        "@type": "Article",
        "publisher": {"@type": "Organization", "logo": {"url": "https://cdn.x/brand.png"}},
    }
    head = json_ld(data) + '<meta property="og:image" content="https://cdn.x/brand.png">'
    assert clean(head).image is None
    assert clean('<meta property="og:image" content="data:image/gif;base64,R0lG">').image is None
    assert clean().image is None


# --------------------------------------------------------------------------- canonical


def test_canonical_url() -> None:
    head = '<link rel="canonical" href="/2024/05/05/bread">'
    assert clean(head).canonical_url == "https://news.example.com/2024/05/05/bread"
    head = (
        '<link rel="canonical" href="javascript:alert(1)">'
        '<meta property="og:url" content="https://news.example.com/bread">'
    )
    assert clean(head).canonical_url == "https://news.example.com/bread"
    assert clean('<link rel="canonical" href="javascript:alert(1)">').canonical_url is None
    assert clean('<link rel="canonical" href="ftp://x.org/a">').canonical_url is None
    assert clean().canonical_url is None


# --------------------------------------------------------------------------- modified


def test_date_modified_sources() -> None:
    head = '<meta property="article:modified_time" content="2024-06-07T10:00:00+00:00">'
    assert clean(head).date_modified == "2024-06-07"
    data = {"@type": "Article", "datePublished": "2024-05-05", "dateModified": "2024-06-08"}
    result = clean(json_ld(data))
    assert (result.date, result.date_modified) == ("2024-05-05", "2024-06-08")
    article = '<meta itemprop="dateModified" content="2024-06-09">'
    assert clean(article=article).date_modified == "2024-06-09"
    assert clean().date_modified is None


# --------------------------------------------------------------------------- license


def test_license_sources() -> None:
    head = '<link rel="license" href="https://creativecommons.org/licenses/by/4.0/">'
    assert clean(head).license == "https://creativecommons.org/licenses/by/4.0/"
    article = '<p><a rel="license" href="/license">License</a></p>'
    assert clean(article=article).license == "https://news.example.com/license"
    article = (
        '<p>Text under <a href="https://creativecommons.org/licenses/by-sa/4.0/">CC BY-SA</a></p>'
    )
    assert clean(article=article).license == "https://creativecommons.org/licenses/by-sa/4.0/"
    assert clean('<meta name="license" content="CC0 1.0">').license == "CC0 1.0"
    assert clean().license is None


def test_no_metadata_at_all() -> None:
    result = clean_html("<html><body><p>Hello there.</p></body></html>", None)
    assert result.author == [] and result.categories == [] and result.tags == []
    assert result.sitename is None and result.description is None and result.image is None
    assert result.canonical_url is None and result.date_modified is None
    assert result.license is None


def test_to_dict_carries_the_fields() -> None:
    head = '<meta name="author" content="Jane Doe"><meta property="og:site_name" content="Bk">'
    data = clean(head).to_dict()
    assert data["author"] == ["Jane Doe"]
    assert data["sitename"] == "Bk"


# --------------------------------------------------------------------------- linear time


def test_author_names_linear_in_the_text() -> None:
    assert_linear(author_names, lambda n: "By " + "Ab, " * n, 2_000, "a long list of names")
    assert_linear(author_names, lambda n: "By " + "a" * n, 2_000, "a long word")


def test_markup_scans_linear_in_the_source() -> None:
    def many_authors(n: int) -> str:
        return '<span class="author">x</span>' * n

    assert_linear(lambda s: markup_authors(s), many_authors, 200, "many author spans")
    assert_linear(
        lambda s: list(tags_with(s, "uthor", frozenset(("class",)), 60)),
        lambda n: '<div class="' + "author " * n,
        200,
        "an author class never closed",
    )
    assert_linear(
        lambda s: list(texts_after(s, 0)), lambda n: "<b>" * n + "x", 500, "nested open tags"
    )


def test_line_authors_linear_in_the_runs() -> None:
    def runs(n: int) -> list[TextRun]:
        return [TextRun(0, "By the way", False, True, 10) for _ in range(n)]

    assert_linear(line_authors, runs, 500, "many 'By' lines")


def test_page_metadata_linear_in_the_page() -> None:
    def many_tags(n: int) -> str:
        head = '<meta property="article:tag" content="t">' * n
        article = '<p>Tags: <a rel="tag" href="/t">t</a></p>' * n
        return page(head, article)

    assert_linear(lambda html: clean_html(html, URL), many_tags, 50, "many tags")
