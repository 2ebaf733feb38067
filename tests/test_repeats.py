"""Lines repeated word for word (``extraction.repeats``): a copy from another place of the
page is dropped, an item of a repeating structure is the text."""

from __future__ import annotations

from scrapy_webclean import CleanOptions, clean_html
from scrapy_webclean.extraction.lines import build_lines
from scrapy_webclean.extraction.options import ExtractOptions
from scrapy_webclean.extraction.repeats import drop_repeated_copies, element_path
from scrapy_webclean.html.loader import load_html
from scrapy_webclean.html.pagewalk import build_page_model
from tests.pages import RULES_AND_DEFAULT, RULES_ONLY

QUESTION = "I have to name an English course for car rental companies: which title sounds better?"
ANSWER = "You see both hire and rent used with cars; I would use car hire as the noun."


def thread_page() -> str:
    """A forum thread whose replies quote the first post (XenForo-like markup)."""
    quote = (
        '<blockquote class="bbCodeBlock--quote"><div class="bbCodeBlock-title">'
        'tomas said:</div><div class="bbCodeBlock-content">'
        f"{QUESTION}</div></blockquote>"
    )
    posts = [f'<article class="message"><div class="bbWrapper">{QUESTION}</div></article>']
    for i in range(3):
        posts.append(
            f'<article class="message"><div class="bbWrapper">{quote}'
            f"{ANSWER} Reply {i}.</div></article>"
        )
    return (
        "<html><head><title>Car rental or car rent?</title></head><body>"
        f'<div class="p-body"><h1>Car rental or car rent?</h1>{"".join(posts)}</div>'
        "</body></html>"
    )


def test_a_reply_quoting_the_first_post_does_not_repeat_it() -> None:
    url = "https://forum.example.com/threads/car-rental-or-car-rent.115684/"
    for options in RULES_AND_DEFAULT:
        text = clean_html(thread_page(), url, options=options).text
        assert text.count(QUESTION) == 1, options
        assert "Reply 0." in text and "Reply 2." in text, options
    # Switched off, the quotes are text again.
    off = CleanOptions(line_model=None, extract=ExtractOptions(repeat_min_units=10_000))
    assert clean_html(thread_page(), url, options=off).text.count(QUESTION) == 4


def test_repeated_items_of_one_structure_stay() -> None:
    """A meal plan says "1 cup strawberries, 8 oz. almond milk" on several days: the same
    line in the same place of each day's list is the text."""
    item = "1 scoop protein powder, 1 cup strawberries, 8 oz. unsweetened almond milk"
    days = "".join(
        f'<section class="day"><h2>Day {d}</h2><p>Breakfast of the day {d} before work.</p>'
        f'<ul class="meals"><li>{item}</li><li>Dinner {d}: a salad with chicken.</li></ul>'
        "</section>"
        for d in range(1, 6)
    )
    html = (
        "<html><head><title>Meal plan</title></head><body><article><h1>Meal plan</h1>"
        f"<p>{ANSWER} Plan.</p>{days}</article></body></html>"
    )
    url = "https://food.example.com/blog/a-week-of-meal-prep"
    # (The rules' verdict; by default the article model decides this page's lines, and
    # on so small a page it leaves out the last day's list.)
    assert clean_html(html, url, options=RULES_ONLY).text.count(item) == 5


def test_drop_repeated_copies_compares_element_paths() -> None:
    html = (
        '<html><body><div class="post"><p>Alpha beta gamma delta epsilon zeta eta theta.</p>'
        "<p>Alpha beta gamma delta epsilon zeta eta theta.</p></div>"
        '<div class="mobile"><p>Alpha beta gamma delta epsilon zeta eta theta.</p></div>'
        "</body></html>"
    )
    model = build_page_model(load_html(html.encode(), None).root, None)
    lines = build_lines(model)
    assert len(lines) == 3
    assert element_path(model, lines[0].node) == element_path(model, lines[1].node)
    assert element_path(model, lines[0].node) != element_path(model, lines[2].node)
    kept = [True, True, True]
    drop_repeated_copies(model, lines, kept, min_units=5.0)
    assert kept == [True, True, False]
    # Under the length floor nothing is compared.
    kept = [True, True, True]
    drop_repeated_copies(model, lines, kept, min_units=100.0)
    assert kept == [True, True, True]
