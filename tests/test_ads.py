"""Ad and template image links: the models, the verdict, the middleware and the pipeline."""

from __future__ import annotations

import math

import pytest
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse, Request
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.test import get_crawler

from scrapy_webclean.ads import (
    AdImageModel,
    AdModelOptions,
    AnchorEntropyModel,
    ImageLink,
    MemoryAdStatsStore,
    NoiseWordModel,
    UrlRedundancyModel,
)
from scrapy_webclean.ads.features import is_ad_host, is_teaser, tokens
from scrapy_webclean.ads.keywords import noise_words
from scrapy_webclean.integration.adfilter import AdImageFilter, ImageUrlsFilterPipeline
from scrapy_webclean.integration.page import decode_response, page_item
from tests.conftest import drive
from tests.crawlers import crawler_with_engine

SITE = "http://news.example.com"
AD_HOST = "http://cdn.partner-media.net"


def page(number: int, extra: str = "") -> str:
    """A page of the example site: logo and icon on every page, one photo of its own, a
    banner ad (standard size, click-through link) and a tracking pixel from the ad host."""
    return f"""<html><body>
    <div id="header"><a href="/"><img src="/static/logo.png" alt="Example News"></a></div>
    <div class="article"><h1>Story {number}</h1>
      <p><img src="/photos/story-{number}.jpg" alt="The harbour at dawn, story {number}"
              width="640" height="420"></p>
      <p>Text of the story.</p></div>
    <div class="adspace"><a href="{AD_HOST}/click?id={number}">
      <img src="{AD_HOST}/creative/banner-{number}.png" width="728" height="90"></a></div>
    <img src="{AD_HOST}/px.gif?u=abc{number}" width="1" height="1">
    <div id="footer"><img src="/static/rss-icon.png" alt="RSS"></div>{extra}
    </body></html>"""


def url(number: int) -> str:
    return f"{SITE}/story-{number}.html"


def test_entropy_worked_example_from_the_paper() -> None:
    # Seven image links: four ads share their words in pairs, three content images have
    # words of their own. A word on two of seven links: -2 * 0.5 * log_7(0.5) = 0.3562.
    model = AnchorEntropyModel(MemoryAdStatsStore())
    links = {"a1": ["sms"], "a2": ["sms"], "a3": ["ring"], "a4": ["ring"]}
    links |= {"c1": ["harbour"], "c2": ["mayor"], "c3": ["river"]}
    for key, words in links.items():
        model.add_link("sina.com.cn", key, words)
    expected = -2 * 0.5 * math.log(0.5, 7)
    assert round(expected, 4) == 0.3562
    assert model.entropy("sina.com.cn", ["sms"], 7) == pytest.approx(expected)
    assert model.entropy("sina.com.cn", ["harbour"], 7) == 0.0
    # A link's entropy is the mean over its words.
    assert model.entropy("sina.com.cn", ["sms", "harbour"], 7) == pytest.approx(expected / 2)


def test_url_redundancy_is_the_share_of_pages_linking_the_image() -> None:
    model = UrlRedundancyModel(MemoryAdStatsStore())
    for number in range(4):
        model.add_page("example.com", ["logo", f"photo-{number}", "logo"])
    assert model.pages("example.com") == 4
    assert model.redundancy("example.com", ["logo", "photo-1", "never"]) == [1.0, 0.25, 0.0]
    assert model.links("example.com") == 5


def test_stats_store_is_bounded() -> None:
    store = MemoryAdStatsStore(max_sites=2, max_keys=10)
    for site in ("a", "b", "c"):
        store.add(site, "url", ((f"k{i}", 1.0) for i in range(25)))
    assert len(store) == 2 and store.size("a", "url") == 0
    assert store.size("c", "url") <= 10


def test_ad_hosts() -> None:
    assert is_ad_host("ad.doubleclick.net") and not is_ad_host("example.com")


def test_verdicts_on_a_site() -> None:
    model = AdImageModel()
    model.observe_page(url(1), page(1))
    banner = model.judge(f"{AD_HOST}/creative/banner-1.png", url(1))
    assert banner.drop and banner.kind == "ad"
    assert {"ad_size", "noise_words"} <= set(banner.reasons)
    # A tracking pixel is noise whoever serves it.
    pixel = model.judge(f"{AD_HOST}/px.gif?u=abc1", url(1))
    assert pixel.drop and pixel.kind == "pixel" and pixel.reason == "pixel"
    # One page is too little evidence for the logo: content for now, and not certain.
    logo = model.judge(f"{SITE}/static/logo.png", url(1))
    assert not logo.drop and not logo.certain
    for number in range(2, 6):
        model.observe_page(url(number), page(number))
    logo = model.judge(f"{SITE}/static/logo.png", url(5))
    assert logo.drop and logo.kind == "template" and "redundant" in logo.reasons
    photo = model.judge(f"{SITE}/photos/story-5.jpg", url(5))
    assert not photo.drop and photo.kind == "content" and photo.certain


def test_template_images_kept_when_asked() -> None:
    model = AdImageModel(AdModelOptions(drop_template=False))
    for number in range(1, 6):
        model.observe_page(url(number), page(number))
    logo = model.judge(f"{SITE}/static/logo.png", url(5))
    assert logo.kind == "template" and not logo.drop
    assert model.judge(f"{AD_HOST}/creative/banner-5.png", url(5)).drop


def test_filter_list_network_and_element_hiding_rules() -> None:
    pytest.importorskip("adblock")
    from scrapy_webclean.ads import FilterList

    rules = FilterList("||tracker.example.org^\n##.sponsor-box\n")
    model = AdImageModel(filter_list=rules)
    extra = (
        '<img src="http://tracker.example.org/t.png">'
        '<div class="sponsor-box"><img src="/promos/house.jpg" alt="Our shop"></div>'
    )
    model.observe_page(url(1), page(1, extra))
    for src in ("http://tracker.example.org/t.png", f"{SITE}/promos/house.jpg"):
        verdict = model.judge(src, url(1))
        assert verdict.drop and verdict.reasons == ("filter_list",), src
    assert not model.judge(f"{SITE}/photos/story-1.jpg", url(1)).drop


# -- Scrapy components ---------------------------------------------------------------------


def middleware(**settings: object) -> tuple[AdImageFilter, object]:
    crawler = get_crawler(settings_dict=settings)
    crawler.stats.open_spider()  # type: ignore[union-attr,call-arg]
    return AdImageFilter.from_crawler(crawler), crawler.stats


def respond(mw: AdImageFilter, number: int) -> None:
    request = Request(url(number))
    response = HtmlResponse(
        url(number), body=page(number).encode(), headers={"Content-Type": "text/html"}
    )
    returned = drive(mw.process_response(request, response))
    # the same page, read with the codec the cleaner uses
    assert returned.url == response.url and returned.body is response.body
    assert isinstance(returned, HtmlResponse) and returned.encoding == "utf-8"


def test_the_filter_decodes_a_page_once_with_the_cleaners_policy() -> None:
    mw, _ = middleware()
    text = "Москва - столица России, крупнейший город страны. В городе много театров и музеев."
    body = f"<html><body><p>{text}</p><p>{text}</p></body></html>".encode("cp1251")
    response = HtmlResponse(url(1), body=body, headers={"Content-Type": "text/html"})
    returned = drive(mw.process_response(Request(url(1)), response))
    assert isinstance(returned, HtmlResponse)
    assert returned.encoding == "cp1251" and text in returned.text  # Scrapy alone: cp1252
    item = page_item(returned)
    assert item["encoding"] == "cp1251" and text in item["html"]
    assert decode_response(returned) is decode_response(returned)  # decoded once


def test_middleware_drops_ads_keeps_content_and_counts() -> None:
    mw, stats = middleware()
    for number in range(1, 6):
        respond(mw, number)
    referer = {"Referer": url(5)}
    with pytest.raises(IgnoreRequest, match="ad image not fetched"):
        mw.process_request(Request(f"{AD_HOST}/creative/banner-5.png", headers=referer))
    with pytest.raises(IgnoreRequest, match="template image not fetched"):
        mw.process_request(Request(f"{SITE}/static/logo.png", headers=referer))
    assert mw.process_request(Request(f"{SITE}/photos/story-5.jpg", headers=referer)) is None
    assert mw.process_request(Request(url(6))) is None  # a page, not an image
    get = stats.get_value  # type: ignore[attr-defined]
    assert get("webclean/images/dropped_kind/ad") == 1
    assert get("webclean/images/dropped_kind/template") == 1
    assert get("webclean/images/dropped/redundant") == 1
    assert get("webclean/images/kept") == 1 and get("webclean/images/pages_observed") == 5


def test_middleware_opt_outs() -> None:
    mw, _ = middleware(WEBCLEAN_ADS_ALLOW=["partner-media.net"])
    respond(mw, 1)
    assert mw.process_request(Request(f"{AD_HOST}/creative/banner-1.png")) is None
    mw, _ = middleware()
    respond(mw, 1)
    keep = Request(f"{AD_HOST}/creative/banner-1.png", meta={"webclean_keep_image": True})
    assert mw.process_request(keep) is None


def test_too_little_evidence_defers_then_decides() -> None:
    mw, stats = middleware(WEBCLEAN_ADS_MAX_DEFERS=2)
    respond(mw, 1)
    request = Request(f"{SITE}/static/logo.png", headers={"Referer": url(1)}, priority=5)
    again = mw.process_request(request)
    assert isinstance(again, Request) and again.priority < 5 and again.dont_filter
    again = mw.process_request(again)
    assert isinstance(again, Request) and again.meta["webclean_defers"] == 2
    assert mw.process_request(again) is None  # bounded: decided (kept) on the third time
    assert stats.get_value("webclean/images/deferred") == 2  # type: ignore[attr-defined]
    # A media-pipeline request cannot go back to the scheduler: decided at once, with the
    # page that showed the image as context.
    media = Request(f"{SITE}/static/rss-icon.png", callback=NO_CALLBACK)
    assert mw.process_request(media) is None
    with pytest.raises(IgnoreRequest, match="ad image not fetched"):
        mw.process_request(Request(f"{AD_HOST}/creative/banner-1.png", callback=NO_CALLBACK))


def test_image_urls_are_pruned_before_the_media_pipeline() -> None:
    crawler = crawler_with_engine(
        {
            "DOWNLOADER_MIDDLEWARES": {AdImageFilter: 560},
            "ITEM_PIPELINES": {ImageUrlsFilterPipeline: 0},
        }
    )
    mw = crawler.get_downloader_middleware(AdImageFilter)
    pipeline = crawler.get_item_pipeline(ImageUrlsFilterPipeline)
    assert mw is not None and pipeline is not None
    assert pipeline.gate is mw.gate  # one model per crawler
    respond(mw, 1)
    images = [f"{SITE}/photos/story-1.jpg", f"{AD_HOST}/creative/banner-1.png"]
    item = drive(pipeline.process_item({"url": url(1), "image_urls": images}))
    assert item["image_urls"] == images[:1]
    assert item["webclean_dropped_images"] == images[1:]
    assert crawler.stats.get_value("webclean/images/saved/ad") == 1  # type: ignore[union-attr]


def test_an_image_in_the_main_content_of_most_of_its_pages_is_never_template() -> None:
    model = AdImageModel()
    for number in range(1, 6):
        model.observe_page(url(number), page(number))
    for number in (3, 4, 5):
        model.note_main_content(url(number), [f"{SITE}/static/logo.png"])
    verdict = model.judge(f"{SITE}/static/logo.png", url(5))
    assert not verdict.drop and "in_main_content" in verdict.reasons


def test_an_icon_a_cleaner_once_took_into_the_main_content_stays_template() -> None:
    # A print icon or a spinner beside the text of one page (of five cleaned pages that
    # show it) is still the site's template: one page's main content does not protect it.
    # It stays protected on that page, whose main content holds it.
    model = AdImageModel()
    for number in range(1, 6):
        model.observe_page(url(number), page(number))
        model.note_main_content(url(number), [f"{SITE}/static/logo.png"] if number == 5 else [])
    verdict = model.judge(f"{SITE}/static/logo.png", url(4))
    assert verdict.drop and verdict.kind == "template"
    assert "in_main_content" not in verdict.reasons
    verdict = model.judge(f"{SITE}/static/logo.png", url(5))
    assert not verdict.drop and "in_main_content" in verdict.reasons


def test_chinese_noise_words_are_found_in_chinese_text() -> None:
    # jieba cuts the text into words: the ad word 广告 is found in 点击查看广告 and in the
    # compound 广告位, never across two words (宽广告别, "a broad farewell", is 宽广 告别).
    assert tokens("点击查看广告") == ["点击", "查看", "广告"]
    weights = {"广告": 1.0, "赞助": 1.0, "sponsor": 1.0}
    assert noise_words(set(tokens("点击查看广告")), weights) == {"广告"}
    assert noise_words(set(tokens("广告位招租 Sponsor")), weights) == {"广告", "sponsor"}
    assert noise_words(set(tokens("赞助商")), weights) == {"赞助"}
    assert tokens("宽广告别") == ["宽广", "告别"]
    assert noise_words(set(tokens("宽广告别")), weights) == set()
    assert tokens("hero-banner_2x.png") == ["hero", "banner", "2x", "png"]


def test_a_chinese_ad_is_told_by_its_alt_text() -> None:
    def zh_page(number: int, alt: str) -> str:
        return (
            "<html><body><div class='article'><h1>新闻</h1><p>正文内容。</p>"
            f"<img src='/photos/{number}.jpg' alt='{alt}'></div></body></html>"
        )

    model = AdImageModel()
    model.observe_page("https://news.example.cn/1.html", zh_page(1, "点击查看广告"))
    model.observe_page("https://news.example.cn/2.html", zh_page(2, "在宽广告别的广场上"))
    ad = model.judge("https://news.example.cn/photos/1.jpg", "https://news.example.cn/1.html")
    assert "noise_words" in ad.reasons
    notice = model.judge("https://news.example.cn/photos/2.jpg", "https://news.example.cn/2.html")
    assert "noise_words" not in notice.reasons


def test_anchor_entropy_counts_chinese_words_over_links() -> None:
    # Two ad links share the word 广告 in different anchors: it is spread over links
    # (entropy above 0), while a whole anchor as one token would have been seen once.
    html = (
        "<html><body>"
        "<a href='/a'><img src='/i/1.png' alt='精彩广告'></a>"
        "<a href='/b'><img src='/i/2.png' alt='汽车广告'></a>"
        "<a href='/c'><img src='/i/3.png' alt='港口日出'></a>"
        "</body></html>"
    )
    model = AdImageModel()
    model.observe_page("https://example.cn/p.html", html)
    site = "example.cn"
    assert model.entropy.entropy(site, ["广告"], 3) > 0.0
    assert model.entropy.entropy(site, ["港口"], 3) == 0.0


def test_spacers_and_rules_with_one_small_side_are_pixels() -> None:
    model = AdImageModel()
    html = """<html><body><div class="article"><p>Text.</p>
      <img src="/img/spacer-a.gif" width="760" height="1">
      <img src="/img/spacer-b.gif" width="1" height="10">
      <img src="/img/rule.gif" height="2">
      <img src="/img/counter.gif" width="1px" height="1px">
      <img src="/photos/harbour.jpg" width="640" height="420"></div></body></html>"""
    model.observe_page(url(1), html)
    for name in ("img/spacer-a.gif", "img/spacer-b.gif", "img/rule.gif", "img/counter.gif"):
        verdict = model.judge(f"{SITE}/{name}", url(1))
        assert verdict.drop and verdict.kind == "pixel", name
    assert not model.judge(f"{SITE}/photos/harbour.jpg", url(1)).drop


def test_photos_a_cdn_names_by_number_are_not_one_redundant_image() -> None:
    # Every photo of the site is named by long numbers: each is its own image, however
    # many pages the site has; the logo on every page is template.
    model = AdImageModel()
    photos = []
    for number in range(1, 9):
        photo = f"{SITE}/media/images/708{number}5000/jpg/_708{number}5172_708{number}5171.jpg"
        photos.append(photo)
        model.observe_page(
            url(number),
            f"""<html><body><img src="/static/logo.png" alt="Example News">
            <div class="story"><img src="{photo}" width="624" height="351"></div>
            </body></html>""",
        )
    assert all(not model.judge(photo, url(8)).drop for photo in photos)
    assert model.judge(f"{SITE}/static/logo.png", url(8)).kind == "template"


def test_a_platforms_furniture_is_template_across_its_blogs() -> None:
    # Six blogs of one platform, one page each: no blog has pages enough for statistics
    # of its own, but the platform's icon is on every page of the platform.
    model = AdImageModel()
    for number in range(1, 7):
        blog = f"http://writer{number}.blogspot.com/2012/11/post-{number}.html"
        model.observe_page(
            blog,
            f"""<html><body><div class="post"><img src="/photos/own-{number}.jpg"
            width="400" height="300"></div>
            <img src="http://img1.blogblog.com/img/icon18_wrench.png" width="18"
            height="18"></body></html>""",
        )
    last = "http://writer6.blogspot.com/2012/11/post-6.html"
    icon = model.judge("http://img1.blogblog.com/img/icon18_wrench.png", last)
    assert icon.drop and icon.kind == "template" and icon.reason == "redundant_on_platform"
    photo = model.judge("http://writer6.blogspot.com/photos/own-6.jpg", last)
    assert not photo.drop


def test_teasers_of_other_articles_need_more_repetition_than_template() -> None:
    teaser = ImageLink(
        url(1),
        f"{SITE}/thumbs/budget.jpg",
        link=f"{SITE}/politics/2012/11/budget-vote-delayed-again",
        alt="Budget vote delayed again after late amendments",
    )
    assert is_teaser(teaser, "example.com")
    assert not is_teaser(ImageLink(url(1), f"{SITE}/logo.png", link=f"{SITE}/"), "example.com")
    assert not is_teaser(
        ImageLink(url(1), f"{SITE}/rss.png", link=f"{SITE}/feeds/rss", alt="Our news feeds"),
        "example.com",
    )
    # An image on 5 of 6 pages: template when it is plain, content when it is a teaser
    # (a "latest" box shows a story for a while).
    model = AdImageModel()
    for number in range(1, 7):
        box = ""
        if number > 1:
            box = """<a href="/politics/2012/11/budget-vote-delayed-again">
              <img src="/thumbs/budget.jpg" alt="Budget vote delayed again after amendments">
            </a><img src="/static/badge.png">"""
        model.observe_page(url(number), f"<html><body>{box}<p>Story {number}.</p></body></html>")
    assert not model.judge(f"{SITE}/thumbs/budget.jpg", url(6)).drop
    assert model.judge(f"{SITE}/static/badge.png", url(6)).drop


def test_noise_word_model_counts_a_word_once_per_field() -> None:
    model = NoiseWordModel()
    link = ImageLink(url(1), f"{SITE}/img/sponsor.png", alt="Sponsor", context=("sponsorBox",))
    assert model.score(link) == 2.0  # URL, containers and alt text: capped at 2
    assert NoiseWordModel(cap=10.0).score(link) == 3.0
    assert model.score(ImageLink(url(1), f"{SITE}/photos/harbour.jpg", alt="Harbour")) == 0.0


def test_noise_words_are_read_in_labels_not_in_headlines() -> None:
    model = NoiseWordModel()
    photo = f"{SITE}/photos/malware.jpg"
    story = ImageLink(url(1), photo, anchor="Nation-sponsored malware found in banks")
    assert model.score(story) == 0.0  # a teaser's headline
    assert model.score(ImageLink(url(1), photo, alt="Sponsored link")) == 1.0


def test_a_hosts_own_template_is_found_on_a_site_of_several_hosts() -> None:
    # Two hosts of one site, six pages each: each host's header is on half the site's
    # pages only, but on every page of its host.
    model = AdImageModel()
    for number in range(1, 7):
        for host in ("news", "shop"):
            model.observe_page(
                f"http://{host}.example.com/{number}.html",
                f"""<html><body><img src="/static/{host}-header.png" width="960" height="80">
                <p><img src="/photos/{host}-{number}.jpg" width="400" height="300"></p>
                </body></html>""",
            )
    header = model.judge("http://news.example.com/static/news-header.png", SITE + "/6.html")
    assert header.drop and header.reason == "redundant_on_host"
    assert not model.judge("http://news.example.com/photos/news-6.jpg", SITE + "/6.html").drop


def test_only_photos_of_the_main_content_are_kept_whatever_their_statistics() -> None:
    from scrapy_webclean.ads.features import is_content_photo

    assert is_content_photo(640, 420, None)
    assert is_content_photo(None, None, "http://example.com/full/harbour.jpg")
    assert not is_content_photo(16, 16, None)  # a share button
    assert not is_content_photo(120, 90, "http://example.com/2012/11/another-story-of-the-day")


def test_an_image_on_most_of_too_few_pages_waits_for_more() -> None:
    # On 3 of the site's first 4 pages: likely template, too few pages to be sure, so a
    # crawler waits; on 5 of 6 it is template.
    model = AdImageModel()

    def show(number: int, badge: bool) -> None:
        extra = '<img src="/static/badge.png">' if badge else ""
        model.observe_page(url(number), f"<html><body>{extra}<p>Story {number}</p></body></html>")

    for number, badge in ((1, True), (2, True), (3, False), (4, True)):
        show(number, badge)
    early = model.judge(f"{SITE}/static/badge.png", url(4))
    assert not early.drop and not early.certain
    for number in (5, 6):
        show(number, True)
    late = model.judge(f"{SITE}/static/badge.png", url(6))
    assert late.drop and late.kind == "template" and late.certain
