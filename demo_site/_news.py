"""The two city-news sites: The Riverside Courier (English) and 江城晚报 (GBK).

The Courier is a classic XHTML div layout; 江城晚报 is an old table layout
served as GBK, half its pages declaring the charset only in a ``gb2312`` meta
tag, which is the classic trap for naive decoders.
"""

from __future__ import annotations

from typing import ClassVar

from ._base import ContentSite
from ._core import (
    HOST_COURIER,
    HOST_JIANGCHENG,
    Builder,
    PageCtx,
    Story,
    attr,
    esc,
    first_sentence,
    long_date,
    partner_sites,
    rng,
    slugify,
    tags_for,
    zh_date,
)
from .content import Article

_RC_LABELS = {
    "city": "City",
    "environment": "Environment",
    "transport": "Transport",
    "education": "Education",
    "technology": "Technology",
    "science": "Science",
    "health": "Health",
    "culture": "Culture",
    "economy": "Business",
}


class Courier(ContentSite):
    """English local newspaper with a classic div layout."""

    host = HOST_COURIER
    name = "The Riverside Courier"
    lang = "en"
    nav_preference = ("city", "transport", "environment", "education", "health", "economy")
    per_page = 3
    home_count = 8
    info_pages: ClassVar[dict[str, tuple[str, str]]] = {
        "about": ("/about-us/", "About us"),
        "contact": ("/contact/", "Contact"),
        "privacy": ("/privacy-policy/", "Privacy"),
        "terms": ("/terms/", "Terms"),
    }
    archive_path = "/archive/"
    stylesheet = (
        "/static/courier.css",
        "body{font-family:Georgia,serif;background:#fff}#wrapper{width:980px;margin:0 auto}"
        "#content{float:left;width:640px}#sidebar{float:right;width:310px}.clear{clear:both}"
        "#topnav li{display:inline;margin-right:12px}.byline{color:#666;font-size:90%}\n",
    )

    def article_path(self, article: Article) -> str:
        year, month, day = article.date.split("-")
        return f"/{year}/{month}/{day}/{slugify(article.title)}/"

    def category_path(self, category: str, page: int = 1) -> str:
        return f"/section/{category}/" if page == 1 else f"/section/{category}/page/{page}/"

    def template_strings(self) -> list[str]:
        return [
            "News from Marlow Bay and the river towns since 1872",
            "Most Read This Week",
            "Get the Courier in your inbox every morning.",
            "Follow the Courier:",
            "© 2026 The Riverside Courier. All rights reserved.",
        ]

    def layout(
        self, ctx: PageCtx, *, title: str, body_id: str, main: str, description: str = ""
    ) -> str:
        """Wrap *main* in masthead, navigation, sidebar and footer."""
        nav = "".join(
            f'<li><a href="{self.category_path(c)}">{esc(_RC_LABELS[c])}</a></li>'
            for c in self.categories
        )
        most_read = "".join(f"<li>{self.story_link(s)}</li>" for s in self.most_read)
        info = " | ".join(
            f'<a href="{p}">{esc(label)}</a>' for p, label in self.info_pages.values()
        )
        social = " ".join(
            f'<a href="https://social.example/riversidecourier/{net}">'
            f'<img src="{attr(self.static(ctx, f"/static/icons/{net}.png", 32, 32))}" width="32" height="32" alt="{label}" /></a>'
            for net, label in (("facebook", "Facebook"), ("x", "X"), ("instagram", "Instagram"))
        )
        partners = " &middot; ".join(
            f'<a href="{attr(u)}">{esc(n)}</a>' for u, n in partner_sites(self.b, self.host)
        )
        logo = self.static(ctx, "/static/logo.png", 200, 50)
        return f"""<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" lang="en" xml:lang="en">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8" />
<title>{esc(title)}</title>
<meta name="description" content="{attr(description)}" />
<link rel="stylesheet" type="text/css" href="/static/courier.css" />
<script type="text/javascript">window.dataLayer = window.dataLayer || []; dataLayer.push({{"section": "{body_id}"}});</script>
</head>
<body id="{body_id}">
<div id="wrapper">
  <div id="leaderboard" class="ad-container">{self.b.adnet_leaderboard(ctx)}</div>
  <div id="masthead">
    <div id="logo"><a href="/"><img src="{attr(logo)}" width="200" height="50" alt="The Riverside Courier" /></a></div>
    <div id="tagline">News from Marlow Bay and the river towns since 1872</div>
    <div id="search-box"><form action="/search/" method="get"><input type="text" name="q" value="" /> <input type="submit" value="Search" /></form></div>
  </div>
  <div id="topnav">
    <ul class="menu"><li class="first"><a href="/">Home</a></li>{nav}<li><a href="{self.archive_path}">Archive</a></li></ul>
  </div>
  <div id="container">
    <div id="content">
{main}
    </div>
    <div id="sidebar">
      <div class="widget" id="most-read"><h3>Most Read This Week</h3><ol>{most_read}</ol></div>
      <div class="widget advert"><div class="ad-label">Advertisement</div>{self.b.adnet_promo(ctx)}</div>
      <div class="widget" id="newsletter"><h3>Newsletter</h3><p>Get the Courier in your inbox every morning.</p><form action="/newsletter/" method="post"><input type="text" name="email" /><input type="submit" value="Sign up" /></form></div>
      <div class="widget advert skyscraper">{self.b.adnet_skyscraper(ctx)}</div>
    </div>
    <div class="clear"></div>
  </div>
  <div id="footer">
    <div id="footer-links">{info}</div>
    <div id="social">Follow the Courier: {social}</div>
    <div id="partners">Partner sites: {partners}</div>
    <p id="copyright">© 2026 The Riverside Courier. All rights reserved.</p>
  </div>
</div>
{self.b.tracking_pixel(ctx)}
</body>
</html>
"""

    def render_article(self, ctx: PageCtx, story: Story) -> tuple[str, str, list[str]]:
        a = story.article
        byline = f"By {a.author} | {a.date} {story.time}"
        photo = ""
        if a.image_caption:
            photo = (
                f'<div class="story-image"><figure><img src="{attr(self.photo(ctx, story))}" width="640" height="360" '
                f'alt="{attr(a.image_caption)}" /><figcaption>{esc(a.image_caption)}</figcaption></figure></div>'
            )
        body = []
        for index, paragraph in enumerate(story.paragraphs):
            body.append(f"      <p>{esc(paragraph)}</p>")
            if index == 1 and self.should_inline_ad(story):
                body.append(f'      <div class="inline-ad">{self.b.adnet_inline(ctx)}</div>')
        share = " ".join(
            f'<a href="https://share.example/{net}?u={attr(ctx.url)}">'
            f'<img src="{attr(self.static(ctx, f"/static/share/{net}.png", 24, 24))}" width="24" height="24" alt="{label}" /></a>'
            for net, label in (
                ("facebook", "Share on Facebook"),
                ("x", "Share on X"),
                ("email", "Email this story"),
            )
        )
        tags = ", ".join(f'<span class="tag">{esc(t)}</span>' for t in tags_for(a))
        related = "".join(f"<li>{self.story_link(s)}</li>" for s in self.related(story))
        main = f"""      <div id="breadcrumb"><a href="/">Home</a> &raquo; <a href="{self.category_path(a.category)}">{esc(_RC_LABELS[a.category])}</a> &raquo; <span>{esc(a.title)}</span></div>
      <div class="story">
      <h1 class="headline">{esc(a.title)}</h1>
      <div class="byline">By <span class="author">{esc(a.author)}</span> | <span class="dateline">{a.date} {story.time}</span></div>
      {photo}
      <div class="story-text">
{chr(10).join(body)}
      </div>
      <div class="share-tools">Share this story: {share}</div>
      <div class="story-tags">Tags: {tags}</div>
      </div>
      <div class="related-stories"><h3>Related stories</h3><ul>{related}</ul></div>"""
        page = self.layout(
            ctx,
            title=f"{a.title} - The Riverside Courier",
            body_id="story-page",
            main=main,
            description=first_sentence(story.paragraphs[0], "en"),
        )
        return page, byline, []

    def teaser(self, ctx: PageCtx, story: Story, *, lead: bool = False) -> str:
        """One story in a list."""
        cls = "teaser lead" if lead else "teaser"
        return f"""      <div class="{cls}">
        <a href="{story.path}"><img src="{attr(self.thumb(ctx, story))}" width="120" height="80" alt="" class="thumb" /></a>
        <h2>{self.story_link(story)}</h2>
        <p class="summary">{esc(first_sentence(story.paragraphs[0], "en"))}</p>
        <span class="date">{long_date(story.article.date)}</span>
      </div>"""

    def render_home(self, ctx: PageCtx) -> tuple[str, str]:
        stories = self.stories[: self.home_count]
        teasers = "\n".join(self.teaser(ctx, s, lead=i == 0) for i, s in enumerate(stories))
        main = f'      <h1 class="section-title">Top stories</h1>\n{teasers}'
        title = "The Riverside Courier - News from Marlow Bay and the river towns"
        return title, self.layout(ctx, title=title, body_id="home", main=main)

    def render_category(
        self, ctx: PageCtx, category: str, stories: list[Story], page: int, pages: int
    ) -> tuple[str, str]:
        label = _RC_LABELS[category]
        teasers = (
            "\n".join(self.teaser(ctx, s) for s in stories)
            or "      <p>There are no stories in this section yet.</p>"
        )
        pager = []
        if page > 1:
            pager.append(
                f'<a href="{self.category_path(category, page - 1)}">&laquo; Newer stories</a>'
            )
        pager.append(f"<span>Page {page} of {pages}</span>")
        if page < pages:
            pager.append(
                f'<a href="{self.category_path(category, page + 1)}">Older stories &raquo;</a>'
            )
        main = (
            f'      <div id="breadcrumb"><a href="/">Home</a> &raquo; <span>{esc(label)}</span></div>\n'
            f'      <h1 class="section-title">{esc(label)}</h1>\n{teasers}\n'
            f'      <div class="pagination">{" ".join(pager)}</div>'
        )
        title = (
            f"{label} - The Riverside Courier"
            if page == 1
            else f"{label} (page {page}) - The Riverside Courier"
        )
        return title, self.layout(ctx, title=title, body_id="section-page", main=main)

    def render_archive(self, ctx: PageCtx) -> tuple[str, str]:
        months: dict[str, list[Story]] = {}
        for story in self.stories:
            months.setdefault(story.article.date[:7], []).append(story)
        blocks = []
        for month, stories in months.items():
            heading = long_date(month + "-01").replace(" 1,", "")
            rows = "".join(
                f'<li>{self.story_link(s)} <span class="date">{s.article.date}</span></li>'
                for s in stories
            )
            blocks.append(f'      <h2>{esc(heading)}</h2>\n      <ul class="archive">{rows}</ul>')
        main = '      <h1 class="section-title">Archive</h1>\n' + "\n".join(blocks)
        title = "Archive - The Riverside Courier"
        return title, self.layout(ctx, title=title, body_id="archive-page", main=main)

    def render_info(self, ctx: PageCtx, key: str) -> tuple[str, str, list[str], str]:
        heading, paragraphs = _RC_INFO[key]
        body = "".join(f"<p>{esc(p)}</p>" for p in paragraphs)
        main = f'      <div class="static-page"><h1>{esc(heading)}</h1>{body}</div>'
        title = f"{heading} - The Riverside Courier"
        return (
            title,
            self.layout(ctx, title=title, body_id="static-page", main=main),
            list(paragraphs),
            "other",
        )


_RC_INFO: dict[str, tuple[str, tuple[str, ...]]] = {
    "about": (
        "About us",
        (
            "The Riverside Courier has reported on Marlow Bay and the surrounding river towns for more than 150 years.",
            "Our newsroom of twenty journalists covers local government, schools, transport and the life of the city.",
        ),
    ),
    "contact": (
        "Contact",
        (
            "Newsdesk: newsdesk@courier.example or 01632 960 000.",
            "Letters to the editor may be edited for length and clarity.",
        ),
    ),
    "privacy": (
        "Privacy",
        (
            "We use cookies to remember your preferences and to measure how our website is used.",
            "Our advertising partners may use cookies to show you relevant advertisements.",
        ),
    ),
    "terms": (
        "Terms",
        (
            "All content is copyright The Riverside Courier unless otherwise stated.",
            "Reproduction without written permission is prohibited.",
        ),
    ),
}


# ---------------------------------------------------------------------------------------------
# 江城晚报

_JC_LABELS = {
    "city": "本地新闻",
    "environment": "生态环保",
    "transport": "交通出行",
    "education": "教育",
    "technology": "科技",
    "science": "科学",
    "health": "健康",
    "culture": "文化",
    "economy": "财经",
}
_JC_DIRS = {
    "city": "bendi",
    "environment": "huanbao",
    "transport": "jiaotong",
    "education": "jiaoyu",
    "technology": "keji",
    "science": "kexue",
    "health": "jiankang",
    "culture": "wenhua",
    "economy": "caijing",
}
_JC_EDITORS = ("张伟", "刘洋", "陈静", "杨帆", "赵磊")


class Jiangcheng(ContentSite):
    """Chinese evening paper: table layout, GBK bytes, gb2312 meta."""

    host = HOST_JIANGCHENG
    name = "江城晚报"
    lang = "zh"
    nav_preference = ("city", "economy", "education", "environment", "transport", "culture")
    per_page = 3
    home_count = 8
    info_pages: ClassVar[dict[str, tuple[str, str]]] = {
        "about": ("/about.htm", "关于我们"),
        "contact": ("/contact.htm", "联系我们"),
        "privacy": ("/privacy.htm", "隐私政策"),
        "sitemap": ("/sitemap.htm", "网站地图"),
    }
    archive_path = "/wangqi/index.htm"
    stylesheet = (
        "/css/style.css",
        "body,td{font-size:12px;line-height:20px}.nav a{color:#fff}.biaoti h1{font-size:22px}"
        ".zhengwen{font-size:14px;line-height:26px}.boxtitle{font-weight:bold;background:#eee}\n",
    )

    def __init__(self, builder: Builder, articles: list[Article]) -> None:
        super().__init__(builder, articles)
        self._served = 0

    def article_path(self, article: Article) -> str:
        return f"/news/{article.date.replace('-', '')}/{4100 + article.number}.htm"

    def category_path(self, category: str, page: int = 1) -> str:
        folder = _JC_DIRS[category]
        return f"/{folder}/index.htm" if page == 1 else f"/{folder}/index_{page}.htm"

    def new_ctx(self, path: str) -> PageCtx:
        # Alternate in build order so exactly half the pages name the charset
        # in the HTTP header; the rest rely on the gb2312 meta tag alone.
        ctx = self.b.ctx(self.host, path)
        ctx.codec = ctx.charset = "gbk"
        ctx.meta_charset = "gb2312"
        ctx.header_charset = self._served % 2 == 0
        self._served += 1
        return ctx

    def template_strings(self) -> list[str]:
        return [
            "江城人自己的报纸 · 权威 · 及时 · 贴近",
            "本周热点排行",
            "江城晚报数字版每日下午四点更新，敬请关注。",
            "版权所有 © 2026 江城晚报社 未经书面授权不得转载",
            "江ICP备05012345号-1",
        ]

    def layout(self, ctx: PageCtx, *, title: str, main: str, keywords: str = "") -> str:
        """Wrap *main* in the nested-table page frame."""
        spacer = self.static(ctx, "/images/spacer.gif", 1, 1, fmt="gif")
        nav = "".join(
            f'<td align="center" class="navtd"><a href="{self.category_path(c)}">{esc(_JC_LABELS[c])}</a></td>'
            for c in self.categories
        )
        hot = "".join(f"·{self.story_link(s)}<br>\n" for s in self.most_read)
        info = " | ".join(
            f'<a href="{p}">{esc(label)}</a>' for p, label in self.info_pages.values()
        )
        social = " ".join(
            f'<a href="https://social.example/jcwb/{net}"><img src="{attr(self.static(ctx, f"/static/icons/{net}.png", 32, 32))}" '
            f'width="32" height="32" border="0" alt="{label}"></a>'
            for net, label in (
                ("weibo", "官方微博"),
                ("wechat", "微信公众号"),
                ("douyin", "抖音号"),
            )
        )
        friends = " | ".join(
            f'<a href="{attr(u)}" target="_blank">{esc(n)}</a>'
            for u, n in partner_sites(self.b, self.host)
        )
        logo = self.static(ctx, "/static/logo.png", 200, 50)
        return f"""<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">
<html>
<head>
<meta http-equiv="Content-Type" content="text/html; charset={ctx.meta_charset}">
<title>{esc(title)}</title>
<meta name="keywords" content="{attr(keywords or "江城晚报,江城新闻,江城")}">
<link href="/css/style.css" rel="stylesheet" type="text/css">
<script language="javascript">function setZoom(size){{document.getElementById('zoom').style.fontSize=size+'px';}}</script>
</head>
<body leftmargin="0" topmargin="0" marginwidth="0" marginheight="0">
<table width="960" border="0" align="center" cellpadding="0" cellspacing="0" id="top">
  <tr><td colspan="3" align="center" class="ad728">{self.b.adnet_leaderboard(ctx)}</td></tr>
  <tr>
    <td width="210" height="70"><a href="/"><img src="{attr(logo)}" width="200" height="50" border="0" alt="江城晚报"></a></td>
    <td class="slogan">江城人自己的报纸 · 权威 · 及时 · 贴近</td>
    <td width="260" align="right"><form name="search" action="/search.asp" method="get"><input type="text" name="keyword" size="18"> <input type="submit" value="搜索"></form></td>
  </tr>
</table>
<table width="960" border="0" align="center" cellpadding="0" cellspacing="0" bgcolor="#b30000" class="nav">
  <tr><td align="center" class="navtd"><a href="/">首页</a></td>{nav}<td align="center" class="navtd"><a href="{self.archive_path}">往期回顾</a></td></tr>
</table>
<table width="960" border="0" align="center" cellpadding="0" cellspacing="0"><tr><td height="8"><img src="{attr(spacer)}" width="1" height="8"></td></tr></table>
<table width="960" border="0" align="center" cellpadding="0" cellspacing="0">
<tr>
<td width="650" valign="top" class="main">
{main}
</td>
<td width="10"><img src="{attr(spacer)}" width="10" height="1"></td>
<td width="300" valign="top" class="right">
  <table width="100%" border="0" cellpadding="4" cellspacing="0" class="box">
    <tr><td class="boxtitle">本周热点排行</td></tr>
    <tr><td class="boxlist">{hot}</td></tr>
  </table>
  <table width="100%" border="0" cellpadding="0" cellspacing="0" class="box"><tr><td align="center" class="adbox">{self.b.cdn_rotating(ctx, 300, 250)}</td></tr></table>
  <table width="100%" border="0" cellpadding="4" cellspacing="0" class="box">
    <tr><td class="boxtitle">数字报</td></tr>
    <tr><td>江城晚报数字版每日下午四点更新，敬请关注。</td></tr>
  </table>
</td>
</tr>
</table>
<table width="960" border="0" align="center" cellpadding="6" cellspacing="0" class="bottom">
  <tr><td align="center" class="friendlink">友情链接：{friends}</td></tr>
  <tr><td align="center" class="bottomlink">{info}</td></tr>
  <tr><td align="center" class="social">{social}</td></tr>
  <tr><td align="center" class="copyright">版权所有 © 2026 江城晚报社 未经书面授权不得转载<br>江ICP备05012345号-1 互联网新闻信息服务许可证 42120170001</td></tr>
</table>
{self.b.tracking_pixel(ctx)}
</body>
</html>
"""

    def render_article(self, ctx: PageCtx, story: Story) -> tuple[str, str, list[str]]:
        a = story.article
        byline = f"{zh_date(a.date)} {story.time} 来源：江城晚报 作者：{a.author}"
        photo = ""
        if a.image_caption:
            photo = (
                f'<figure><img src="{attr(self.photo(ctx, story))}" width="640" height="360" border="0" '
                f'alt="{attr(a.image_caption)}"><figcaption>{esc(a.image_caption)}</figcaption></figure>'
            )
        body = []
        for index, paragraph in enumerate(story.paragraphs):
            # Full-width spaces as paragraph indent, as Chinese CMSs do.
            body.append(f"<p>\u3000\u3000{esc(paragraph)}</p>")
            if index == 1 and self.should_inline_ad(story):
                body.append(f'<p align="center" class="ad468">{self.b.adnet_inline(ctx)}</p>')
        share = " ".join(
            f'<a href="https://share.example/{net}?url={attr(ctx.url)}"><img src="{attr(self.static(ctx, f"/static/share/{net}.png", 24, 24))}" '
            f'width="24" height="24" border="0" alt="{label}"></a>'
            for net, label in (
                ("weibo", "分享到微博"),
                ("wechat", "分享到微信"),
                ("qq", "分享到QQ"),
            )
        )
        tags = " ".join(esc(t) for t in tags_for(a))
        editor = _JC_EDITORS[rng("editor", a.id).randrange(len(_JC_EDITORS))]
        related = "".join(f"<li>{self.story_link(s)}</li>" for s in self.related(story))
        main = f"""<table width="100%" border="0" cellspacing="0" cellpadding="0"><tr><td class="weizhi">当前位置：<a href="/">首页</a> &gt; <a href="{self.category_path(a.category)}">{esc(_JC_LABELS[a.category])}</a> &gt; 正文</td></tr></table>
<table width="100%" border="0" cellspacing="0" cellpadding="0" class="article">
<tr><td align="center" class="biaoti"><h1>{esc(a.title)}</h1></td></tr>
<tr><td align="center" class="laiyuan">{zh_date(a.date)} {story.time}&nbsp;&nbsp;来源：江城晚报&nbsp;&nbsp;作者：{esc(a.author)}</td></tr>
<tr><td align="right" class="zihao">【字号 <a href="javascript:setZoom(16)">大</a> <a href="javascript:setZoom(14)">中</a> <a href="javascript:setZoom(12)">小</a>】</td></tr>
<tr><td class="zhengwen" id="zoom">
{photo}
{chr(10).join(body)}
</td></tr>
<tr><td class="share">分享到：{share}</td></tr>
<tr><td class="keywords">关键词：{tags}</td></tr>
<tr><td align="right" class="editor">【责任编辑：{editor}】</td></tr>
</table>
<table width="100%" border="0" cellspacing="0" cellpadding="4" class="xgxw">
<tr><td class="boxtitle">相关新闻</td></tr>
<tr><td><ul>{related}</ul></td></tr>
</table>"""
        page = self.layout(
            ctx, title=f"{a.title}_江城晚报", main=main, keywords=",".join(tags_for(a))
        )
        return page, byline, []

    def render_home(self, ctx: PageCtx) -> tuple[str, str]:
        rows = "\n".join(
            f"""<tr><td width="130" valign="top"><a href="{s.path}"><img src="{attr(self.thumb(ctx, s))}" width="120" height="80" border="0"></a></td>
<td valign="top"><b>{self.story_link(s)}</b><br><span class="zy">{esc(first_sentence(s.paragraphs[0], "zh"))}</span> <span class="date">[{s.article.date}]</span></td></tr>"""
            for s in self.stories[: self.home_count]
        )
        main = f'<table width="100%" border="0" cellspacing="0" cellpadding="4" class="yaowen">\n<tr><td colspan="2" class="boxtitle">要闻</td></tr>\n{rows}\n</table>'
        title = "江城晚报_江城人自己的报纸"
        return title, self.layout(ctx, title=title, main=main)

    def render_category(
        self, ctx: PageCtx, category: str, stories: list[Story], page: int, pages: int
    ) -> tuple[str, str]:
        label = _JC_LABELS[category]
        rows = (
            "\n".join(
                f'<tr><td class="list">·{self.story_link(s)}</td><td width="90" class="date">{s.article.date}</td></tr>'
                for s in stories
            )
            or '<tr><td colspan="2">本栏目暂无内容</td></tr>'
        )
        pager = [f"共{pages}页"]
        pager.append(f'<a href="{self.category_path(category, 1)}">首页</a>')
        if page > 1:
            pager.append(f'<a href="{self.category_path(category, page - 1)}">上一页</a>')
        if page < pages:
            pager.append(f'<a href="{self.category_path(category, page + 1)}">下一页</a>')
        pager.append(f'<a href="{self.category_path(category, pages)}">尾页</a>')
        main = (
            f'<table width="100%" border="0" cellspacing="0" cellpadding="0"><tr><td class="weizhi">当前位置：<a href="/">首页</a> &gt; {esc(label)}</td></tr></table>\n'
            f'<table width="100%" border="0" cellspacing="0" cellpadding="4" class="newslist">\n<tr><td colspan="2" class="boxtitle">{esc(label)}</td></tr>\n{rows}\n</table>\n'
            f'<table width="100%"><tr><td align="center" class="page">{" ".join(pager)}</td></tr></table>'
        )
        title = f"{label}_江城晚报" if page == 1 else f"{label}_第{page}页_江城晚报"
        return title, self.layout(ctx, title=title, main=main)

    def render_archive(self, ctx: PageCtx) -> tuple[str, str]:
        rows = "\n".join(
            f'<tr><td class="list">·{self.story_link(s)}</td><td width="90" class="date">{s.article.date}</td></tr>'
            for s in self.stories
        )
        main = f'<table width="100%" border="0" cellspacing="0" cellpadding="4" class="newslist">\n<tr><td colspan="2" class="boxtitle">往期回顾</td></tr>\n{rows}\n</table>'
        title = "往期回顾_江城晚报"
        return title, self.layout(ctx, title=title, main=main)

    def render_info(self, ctx: PageCtx, key: str) -> tuple[str, str, list[str], str]:
        if key == "sitemap":
            links = " | ".join(
                f'<a href="{self.category_path(c)}">{esc(_JC_LABELS[c])}</a>'
                for c in self.categories
            )
            main = (
                '<table width="100%" cellpadding="6"><tr><td class="boxtitle">网站地图</td></tr>'
                f'<tr><td><a href="/">首页</a> | {links} | <a href="{self.archive_path}">往期回顾</a></td></tr></table>'
            )
            return (
                "网站地图_江城晚报",
                self.layout(ctx, title="网站地图_江城晚报", main=main),
                [],
                "hub",
            )
        heading, paragraphs = _JC_INFO[key]
        body = "".join(f"<p>\u3000\u3000{esc(p)}</p>" for p in paragraphs)
        main = f'<table width="100%" cellpadding="6"><tr><td class="biaoti"><h1>{esc(heading)}</h1></td></tr><tr><td>{body}</td></tr></table>'
        title = f"{heading}_江城晚报"
        return title, self.layout(ctx, title=title, main=main), list(paragraphs), "other"


_JC_INFO: dict[str, tuple[str, tuple[str, ...]]] = {
    "about": (
        "关于我们",
        (
            "江城晚报创刊于1983年，是江城市发行量最大的综合性都市晚报。",
            "本网站为江城晚报官方网站，每日同步发布报纸内容及本地突发新闻。",
        ),
    ),
    "contact": (
        "联系我们",
        (
            "新闻热线：027-0000-0000（24小时）",
            "通信地址：江城市临江区解放大道1号江城晚报社，邮编430000。",
        ),
    ),
    "privacy": (
        "隐私政策",
        (
            "本网站尊重并保护所有用户的个人隐私权。",
            "除法律法规另有规定外，我们不会向第三方披露您的个人信息。",
        ),
    ),
}
