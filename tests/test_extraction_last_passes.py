"""The last passes over the verdicts (``extraction.lastpasses``): the labels of link boxes
whose links were dropped, what follows an editor's line."""

from __future__ import annotations

from scrapy_webclean import clean_html
from scrapy_webclean.extraction.lastpasses import (
    drop_after_editor_line,
    drop_stranded_labels,
)
from scrapy_webclean.extraction.lines import Line, build_lines
from scrapy_webclean.html.loader import parse_html
from scrapy_webclean.html.pagewalk import build_page_model

_PROSE = (
    "<p>市场分析人士认为，本周大盘在连续调整之后出现企稳迹象，成交量明显放大，"
    "资金面也较前期有所改善，投资者情绪逐步恢复。</p>"
    "<p>多家券商研究所发布报告指出，下半年宏观经济有望温和回升，"
    "结构性改革将继续推进，资本市场长期健康发展的基础正在不断巩固。</p>"
    "<p>与此同时，监管部门表示将继续加强对异常交易行为的监控，"
    "维护市场的公开、公平和公正，保护中小投资者的合法权益。</p>"
)


def _box(label: str, n: int) -> str:
    links = "".join(
        f'<p><a href="/news/{label}{k}.html">{label}相关新闻标题第{k}条内容摘要</a></p>'
        for k in range(n)
    )
    return f"<p><b>{label}</b></p>{links}"


def _page(article: str) -> str:
    return (
        "<html><head><title>大盘企稳 成交放大_财经</title></head><body>"
        '<div class="nav"><a href="/">首页</a> <a href="/stock">股票</a></div>'
        f'<div class="post_text"><h1>大盘企稳 成交放大</h1>{article}</div>'
        "</body></html>"
    )


def test_the_labels_of_dropped_link_boxes_after_the_text_are_dropped() -> None:
    html = _page(_PROSE + "<div>" + _box("证券要闻", 2) + _box("行业动态", 3) + "</div>")
    text = clean_html(html, "http://money.example.cn/15/0704/a.html").text
    assert "投资者情绪逐步恢复" in text
    assert "保护中小投资者的合法权益" in text
    assert "相关新闻标题" not in text  # the links themselves
    assert "证券要闻" not in text
    assert "行业动态" not in text


def test_a_heading_over_links_in_the_middle_of_the_text_stays() -> None:
    middle = (
        _PROSE[: _PROSE.index("<p>多家")] + _box("证券要闻", 2) + _PROSE[_PROSE.index("<p>多家") :]
    )
    text = clean_html(_page(middle), "http://money.example.cn/15/0704/b.html").text
    assert "证券要闻" in text


def _verdicts(body: str) -> tuple[list[str], list[bool]]:
    root, _ = parse_html(f"<html><body>{body}</body></html>")
    model = build_page_model(root)
    lines = build_lines(model)
    kept = [line.link_density <= 0.5 for line in lines]
    drop_stranded_labels(model, lines, kept, 0.5)
    return [line.text for line in lines], kept


def test_only_a_short_bold_or_heading_label_over_two_link_lines_is_stranded() -> None:
    prose = "<p>This paragraph is the text of the page, and it ends as a sentence does.</p>"
    links = '<p><a href="/a">First other story</a></p><p><a href="/b">Second other story</a></p>'
    one_link = '<p><a href="/a">First other story</a></p>'
    texts, kept = _verdicts(prose + "<h3>More news</h3>" + links)
    assert kept[texts.index("More news")] is False
    # one link line after it: a label with its link, not a box
    texts, kept = _verdicts(prose + "<h3>More news</h3>" + one_link)
    assert kept[texts.index("More news")] is True
    # plain text, not a heading or bold: a line of the text
    texts, kept = _verdicts(prose + "<p>More news</p>" + links)
    assert kept[texts.index("More news")] is True
    # a kept line of prose after the box: the label heads a part of the text
    texts, kept = _verdicts("<h3>More news</h3>" + links + prose)
    assert kept[texts.index("More news")] is True


def _lines(body: str) -> list[Line]:
    root, _ = parse_html(f"<html><body>{body}</body></html>")
    return build_lines(build_page_model(root))


def test_what_follows_an_articles_editor_line_is_dropped() -> None:
    article = "".join(f"<p>{_PROSE}</p>" for _ in range(2))
    teasers = "<p>外资潜伏3个月，疯狂买入1000亿！</p><p>扫一扫 关注我</p>"
    lines = _lines(article + "<p>（责任编辑：郭明煜）</p>" + teasers)
    kept = [True] * len(lines)
    drop_after_editor_line(lines, kept)
    texts = [line.text for line, keep in zip(lines, kept, strict=True) if keep]
    assert texts[-1] == "（责任编辑：郭明煜）"
    assert not any("关注我" in text for text in texts)
    # an editor's line in a header, above the article: nothing is dropped
    lines = _lines("<p>来源：新华网 责任编辑：张伟</p>" + article)
    kept = [True] * len(lines)
    drop_after_editor_line(lines, kept)
    assert all(kept)
