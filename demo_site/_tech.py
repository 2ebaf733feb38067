"""The two tech sites: Byte Harbor (English, HTML5, plus its mirror) and 数码前沿.

Byte Harbor exercises HTML5 sectioning, lazy images and reader comments;
数码前沿 exercises a Chinese div layout with a few GB18030 pages declared only
in a ``<meta charset>``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from ._base import ContentSite
from ._core import (
    HOST_BYTE,
    HOST_MIRROR,
    HOST_SHUMA,
    Builder,
    PageCtx,
    Story,
    attr,
    esc,
    first_sentence,
    json_ld,
    long_date,
    partner_sites,
    rng,
    slugify,
    tags_for,
)
from .content import Article

_BH_LABELS = {
    "city": "Cities",
    "environment": "Climate",
    "transport": "Mobility",
    "education": "Learning",
    "technology": "Tech",
    "science": "Science",
    "health": "Health",
    "culture": "Culture",
    "economy": "Business",
}

_BH_COMMENTERS = (
    "kdub_77",
    "Marta L.",
    "packetloss",
    "Sam O'Neill",
    "grumpy_sysadmin",
    "Wen",
    "tinkerbot",
    "Ada R.",
    "nullpointer",
    "Priya K.",
)
_BH_COMMENTS = (
    "Great write-up, thanks for digging into the details.",
    "Finally someone explains this without the hype.",
    "Not convinced the numbers add up, but interesting read.",
    "Will this ever be available outside the pilot cities?",
    "My team ran into exactly this last month. Wish I had read this first.",
    "Bookmarked. The second half is especially useful.",
    "Would love a follow-up with some real-world benchmarks.",
    "Hardware is only half the story; the software has to catch up.",
    "This is why I still keep an offline backup of everything.",
    "Anyone else remember when this was science fiction?",
    "Solid reporting as usual. Keep it up!",
    "The headline oversells it a bit, the research itself is careful.",
)

_BH_STYLE = (
    "body{font-family:system-ui,sans-serif;margin:0;color:#1d2330}"
    ".site-header{display:flex;gap:1rem;align-items:center;padding:.5rem 2rem;background:#0b2540;color:#fff}"
    ".layout{display:grid;grid-template-columns:1fr 320px;gap:2rem;max-width:1100px;margin:auto}"
    ".sr-only{position:absolute;width:1px;height:1px;overflow:hidden}"
)


class ByteHarbor(ContentSite):
    """English tech blog with HTML5 structure, lazy images and comments."""

    host = HOST_BYTE
    name = "Byte Harbor"
    lang = "en"
    nav_preference = ("technology", "science", "health", "culture", "environment")
    per_page = 3
    home_count = 8
    info_pages: ClassVar[dict[str, tuple[str, str]]] = {
        "about": ("/about/", "About us"),
        "contact": ("/contact/", "Contact"),
        "privacy": ("/privacy/", "Privacy"),
        "terms": ("/terms/", "Terms"),
    }
    archive_path = "/archive/"

    def article_path(self, article: Article) -> str:
        return f"/posts/{_slug(article)}.html"

    def category_path(self, category: str, page: int = 1) -> str:
        return f"/topics/{category}/" if page == 1 else f"/topics/{category}/page/{page}/"

    def template_strings(self) -> list[str]:
        return [
            "Notes from the edge of the network",
            "Trending on Byte Harbor",
            "The Harbor Log",
            "One email every Friday with the week's best stories. No spam, ever.",
            "© 2026 Byte Harbor Media Ltd. Made with care by humans.",
        ]

    def canonical(self, ctx: PageCtx) -> str:
        """Canonical URL of a page (the mirror points back to the original)."""
        return ctx.url

    def home_stories(self) -> list[Story]:
        """Stories listed on the home page."""
        return self.stories[: self.home_count]

    def placeholder(self, ctx: PageCtx) -> str:
        """The 1x1 stand-in ``src`` of lazy images.

        It is served, but not recorded against pages in the truth: a crawler
        that honours ``data-src`` never fetches it for the page.
        """
        path = "/static/lazy.gif"
        self.b.image(
            None, ctx.host, path, kind="template", width=1, height=1, seed="lazy", fmt="gif"
        )
        return path

    # -- template ----------------------------------------------------------------------

    def layout(
        self, ctx: PageCtx, *, title: str, body_class: str, main: str, head: str = ""
    ) -> str:
        """Wrap *main* in the site chrome (header, sidebar, footer)."""
        h = self.href
        nav = "".join(
            f'<li class="menu-item"><a href="{attr(h(self.category_path(c)))}">{esc(_BH_LABELS[c])}</a></li>'
            for c in self.categories
        )
        trending = "".join(f"<li>{self.story_link(s)}</li>" for s in self.most_read)
        sponsor = self.b.cdn_fixed(
            ctx,
            300,
            250,
            lazy_placeholder=self.placeholder(ctx),
            img_class="lazyload",
            alt="Sponsored",
        )
        footer_links = " | ".join(
            f'<a href="{attr(h(path))}">{esc(label)}</a>'
            for path, label in self.info_pages.values()
        )
        social = "".join(
            f'<li><a href="https://social.example/byteharbor/{net}" rel="me">'
            f'<img src="{attr(self.static(ctx, f"/static/icons/{net}.png", 32, 32))}" width="32" height="32" alt="{label}"></a></li>'
            for net, label in (("mastodon", "Mastodon"), ("github", "GitHub"), ("rss", "RSS feed"))
        )
        partners = "".join(
            f'<li><a href="{attr(u)}">{esc(n)}</a></li>'
            for u, n in partner_sites(self.b, HOST_BYTE)
        )
        logo = self.static(ctx, "/static/logo.png", 200, 50)
        return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title>
<link rel="canonical" href="{attr(self.canonical(ctx))}">
<style>{_BH_STYLE}</style>
{head}
</head>
<body class="{body_class}">
<a class="skip-link sr-only" href="#main">Skip to content</a>
<header class="site-header">
  <div class="site-branding">
    <a href="{attr(h("/"))}" rel="home"><img src="{attr(logo)}" width="200" height="50" alt="Byte Harbor"></a>
    <p class="site-description">Notes from the edge of the network</p>
  </div>
  <nav class="primary-navigation" aria-label="Main menu">
    <ul class="menu">
      <li class="menu-item"><a href="{attr(h("/"))}">Home</a></li>{nav}
      <li class="menu-item"><a href="{attr(h(self.archive_path))}">Archive</a></li>
    </ul>
  </nav>
  <form class="search-form" role="search" method="get" action="/search/">
    <label class="sr-only" for="s">Search for:</label>
    <input type="search" id="s" name="s" placeholder="Search Byte Harbor">
    <button type="submit">Search</button>
  </form>
</header>
<div class="layout">
<main id="main" class="site-main">
{main}
</main>
<aside class="sidebar widget-area" aria-label="Sidebar">
  <section class="widget widget-trending">
    <h2 class="widget-title">Trending on Byte Harbor</h2>
    <ol>{trending}</ol>
  </section>
  <section class="widget widget-sponsor">
    <p class="sponsor-label">Sponsored</p>
    {sponsor}
  </section>
  <section class="widget widget-newsletter">
    <h2 class="widget-title">The Harbor Log</h2>
    <p>One email every Friday with the week's best stories. No spam, ever.</p>
    <form action="/subscribe/" method="post"><input type="email" name="email" placeholder="you@example.com"><button>Subscribe</button></form>
  </section>
</aside>
</div>
<footer class="site-footer">
  <nav class="footer-navigation" aria-label="Footer">{footer_links}</nav>
  <ul class="social-links">{social}</ul>
  <section class="partner-sites"><h2>Partner sites</h2><ul>{partners}</ul></section>
  <p class="site-info">© 2026 Byte Harbor Media Ltd. Made with care by humans.</p>
</footer>
</body>
</html>
"""

    def byline(self, story: Story) -> tuple[str, str]:
        """``(text, markup)`` of the byline line."""
        a = story.article
        text = f"By {a.author} · {long_date(a.date)}, {story.time}"
        markup = (
            f'<p class="entry-meta">By <a class="author" href="{attr(self.href(self.info_pages["about"][0]))}" rel="author">'
            f'{esc(a.author)}</a> · <time datetime="{a.date}T{story.time}">{long_date(a.date)}, {story.time}</time></p>'
        )
        return text, markup

    def comments(self, story: Story) -> list[tuple[str, str, str]]:
        """``(name, when, text)`` reader comments; about half the posts have some."""
        picker = rng("comments", story.article.id)
        if picker.random() < 0.45:
            return []
        count = picker.randint(2, 4)
        names = picker.sample(_BH_COMMENTERS, count)
        texts = picker.sample(_BH_COMMENTS, count)
        day = long_date(story.article.date)
        return [
            (n, f"{day} at {picker.randint(9, 23):02d}:{picker.randrange(60):02d}", t)
            for n, t in zip(names, texts, strict=True)
        ]

    def render_article(self, ctx: PageCtx, story: Story) -> tuple[str, str, list[str]]:
        a = story.article
        h = self.href
        byline_text, byline_markup = self.byline(story)
        figure = ""
        if a.image_caption:
            src = self.photo(ctx, story)
            figure = (
                f'<figure class="entry-image"><img class="lazyload" src="{self.placeholder(ctx)}" data-src="{attr(src)}" '
                f'alt="{attr(a.image_caption)}"><figcaption>{esc(a.image_caption)}</figcaption></figure>'
            )
        body = []
        for index, paragraph in enumerate(story.paragraphs):
            body.append(f"<p>{esc(paragraph)}</p>")
            if index == 1 and self.should_inline_ad(story):
                body.append(
                    '<aside class="ad-slot ad-inline" aria-label="Advertisement">'
                    + self.b.cdn_rotating(ctx, 728, 90, dims=False)
                    + "</aside>"
                )
        tags = "".join(f'<li><span class="tag">#{esc(t)}</span></li>' for t in tags_for(a))
        share = "".join(
            f'<a class="share-{net}" href="https://share.example/{net}?u={attr(self.canonical(ctx))}">'
            f'<img src="{attr(self.static(ctx, f"/static/share/{net}.png", 24, 24))}" width="24" height="24" alt="Share on {label}"></a>'
            for net, label in (("mastodon", "Mastodon"), ("bluesky", "Bluesky"), ("email", "email"))
        )
        related = "".join(f"<li>{self.story_link(s)}</li>" for s in self.related(story))
        comments = self.comments(story)
        comments_html = ""
        if comments:
            items = "".join(
                f'<li class="comment"><article class="comment-body"><footer class="comment-meta">'
                f'<b class="fn">{esc(n)}</b> <time>{esc(w)}</time></footer>'
                f'<div class="comment-content"><p>{esc(t)}</p></div></article></li>'
                for n, w, t in comments
            )
            comments_html = f"""<section id="comments" class="comments-area">
  <h2 class="comments-title">{len(comments)} responses</h2>
  <ol class="comment-list">{items}</ol>
  <div id="respond"><h3>Leave a reply</h3><form action="/comment/" method="post"><textarea name="comment" rows="4"></textarea><button type="submit">Post comment</button></form>
  <p class="comment-notes">Comments are moderated. Be kind.</p></div>
</section>"""
        ld = json_ld(
            {
                "@context": "https://schema.org",
                "@type": "BlogPosting",
                "headline": a.title,
                "datePublished": f"{a.date}T{story.time}:00Z",
                "author": {"@type": "Person", "name": a.author},
            }
        )
        main = f"""<article class="post type-post category-{a.category}" id="post-{a.number}">
  <nav class="breadcrumbs" aria-label="Breadcrumb"><ol>
    <li><a href="{attr(h("/"))}">Home</a></li>
    <li><a href="{attr(h(self.category_path(a.category)))}">{esc(_BH_LABELS[a.category])}</a></li>
    <li aria-current="page">{esc(a.title)}</li>
  </ol></nav>
  <header class="entry-header">
    <h1 class="entry-title">{esc(a.title)}</h1>
    {byline_markup}
  </header>
  {figure}
  <div class="entry-content">
{chr(10).join(body)}
  </div>
  <footer class="entry-footer">
    <ul class="tag-list">{tags}</ul>
    <div class="share-buttons"><span class="share-label">Share this post</span>{share}</div>
  </footer>
</article>
<section class="related-posts"><h2>You might also like</h2><ul>{related}</ul></section>
{comments_html}"""
        page = self.layout(
            ctx,
            title=f"{a.title} - Byte Harbor",
            body_class="single single-post",
            main=main,
            head=ld,
        )
        return page, byline_text, [t for _, _, t in comments]

    def teaser(self, ctx: PageCtx, story: Story) -> str:
        """One entry of a post list."""
        thumb = self.thumb(ctx, story)
        a = story.article
        return f"""<article class="post-card">
  <a class="post-card-thumb" href="{attr(self.href(story.path))}"><img src="{attr(thumb)}" width="120" height="80" alt=""></a>
  <h2 class="post-card-title">{self.story_link(story)}</h2>
  <p class="post-card-meta"><time datetime="{a.date}">{long_date(a.date)}</time> · {esc(_BH_LABELS[a.category])}</p>
  <p class="post-card-excerpt">{esc(first_sentence(story.paragraphs[0], "en"))}</p>
</article>"""

    def render_home(self, ctx: PageCtx) -> tuple[str, str]:
        cards = "\n".join(self.teaser(ctx, s) for s in self.home_stories())
        main = f'<h1 class="page-title sr-only">Latest posts</h1>\n<div class="post-grid">\n{cards}\n</div>'
        title = "Byte Harbor - Technology and science, explained"
        return title, self.layout(ctx, title=title, body_class="home blog", main=main)

    def render_category(
        self, ctx: PageCtx, category: str, stories: list[Story], page: int, pages: int
    ) -> tuple[str, str]:
        label = _BH_LABELS[category]
        cards = (
            "\n".join(self.teaser(ctx, s) for s in stories)
            or '<p class="no-results">No posts in this topic yet.</p>'
        )
        links = []
        if page > 1:
            links.append(
                f'<a class="prev page-numbers" href="{attr(self.href(self.category_path(category, page - 1)))}">← Newer posts</a>'
            )
        links.append(f'<span class="page-numbers current">Page {page} of {pages}</span>')
        if page < pages:
            links.append(
                f'<a class="next page-numbers" href="{attr(self.href(self.category_path(category, page + 1)))}">Older posts →</a>'
            )
        main = (
            f'<header class="page-header"><h1 class="page-title">Topic: {esc(label)}</h1></header>\n'
            f'<div class="post-grid">\n{cards}\n</div>\n<nav class="pagination">{" ".join(links)}</nav>'
        )
        title = f"{label} - Byte Harbor" if page == 1 else f"{label} - Page {page} - Byte Harbor"
        return title, self.layout(ctx, title=title, body_class="archive category", main=main)

    def render_archive(self, ctx: PageCtx) -> tuple[str, str]:
        rows = "".join(
            f'<li><time datetime="{s.article.date}">{s.article.date}</time> {self.story_link(s)}</li>'
            for s in self.stories
        )
        main = f'<header class="page-header"><h1 class="page-title">Archive</h1></header>\n<ul class="archive-list">{rows}</ul>'
        title = "Archive - Byte Harbor"
        return title, self.layout(ctx, title=title, body_class="archive", main=main)

    def render_info(self, ctx: PageCtx, key: str) -> tuple[str, str, list[str], str]:
        heading, paragraphs = _BH_INFO[key]
        body = "".join(f"<p>{esc(p)}</p>" for p in paragraphs)
        main = f'<article class="page"><h1 class="entry-title">{esc(heading)}</h1><div class="entry-content">{body}</div></article>'
        title = f"{heading} - Byte Harbor"
        return (
            title,
            self.layout(ctx, title=title, body_class="page", main=main),
            list(paragraphs),
            "other",
        )


_BH_INFO: dict[str, tuple[str, tuple[str, ...]]] = {
    "about": (
        "About Byte Harbor",
        (
            "Byte Harbor is an independent publication about technology, science and the people who build both.",
            "We are a small team of editors and freelance writers, funded by readers and a handful of sponsors.",
        ),
    ),
    "contact": (
        "Contact",
        (
            "Story tips and corrections: tips@byteharbor.example.",
            "Advertising and sponsorship enquiries: partners@byteharbor.example.",
        ),
    ),
    "privacy": (
        "Privacy policy",
        (
            "We collect as little data as we can. Our servers keep access logs for fourteen days.",
            "Our sponsors may set cookies when you click on their messages; see their own policies.",
        ),
    ),
    "terms": (
        "Terms of use",
        (
            "All articles are copyright Byte Harbor Media Ltd unless stated otherwise.",
            "You may quote short passages with a link back to the original post.",
        ),
    ),
}


def _slug(article: Article) -> str:
    return slugify(article.title)


class ByteHarborMirror(ByteHarbor):
    """A scraper-style mirror: same template, six posts, links kept local where possible."""

    host = HOST_MIRROR

    def __init__(self, builder: Builder, origin: ByteHarbor, count: int = 6) -> None:
        # Share the original's state instead of re-deriving it, so the mirror's
        # sidebar, related lists and ad slots match the original's template.
        self.b = builder
        self.origin = origin
        self.stories = origin.stories
        self.by_id = origin.by_id
        self.categories = origin.categories
        self.most_read = origin.most_read
        chosen = rng("mirror").sample(origin.stories, min(count, len(origin.stories)))
        self.mirrored: list[Story] = [s for s in origin.stories if s in chosen]
        self.local_paths: set[str] = {"/"} | {s.path for s in self.mirrored}

    def href(self, path: str) -> str:
        return path if path in self.local_paths else self.b.url(HOST_BYTE, path)

    def canonical(self, ctx: PageCtx) -> str:
        return self.b.url(HOST_BYTE, ctx.path)

    def home_stories(self) -> list[Story]:
        return self.mirrored

    def build(self) -> None:
        self.b.add_site(self.host, "Byte Harbor mirror", self.lang, self.template_strings())
        ctx = self.new_ctx("/")
        title, markup = self.render_home(ctx)
        self.b.add_page(ctx, markup, page_type="hub", lang=self.lang, title=title)
        for story in self.mirrored:
            self.build_article(
                replace(story, copy_of=self.b.url(HOST_BYTE, story.path), copy_kind="mirror")
            )


# ---------------------------------------------------------------------------------------------
# 数码前沿

_SM_LABELS = {
    "city": "城市",
    "environment": "绿色科技",
    "transport": "出行",
    "education": "教育",
    "technology": "科技",
    "science": "科学",
    "health": "健康",
    "culture": "文化",
    "economy": "产业",
}

_SM_STYLE = (
    "body{margin:0;font:14px/1.8 'Microsoft YaHei',sans-serif}.w1200{width:1200px;margin:0 auto}"
    ".m-nav{background:#1a5fb4}.m-nav li{float:left;list-style:none}.g-main{float:left;width:860px}"
    ".g-side{float:right;width:300px}.clearfix:after{content:'';display:block;clear:both}"
)


class Shuma(ContentSite):
    """Chinese tech portal; a handful of pages are GB18030 with only a meta charset."""

    host = HOST_SHUMA
    name = "数码前沿"
    lang = "zh"
    nav_preference = ("technology", "science", "health", "culture", "economy")
    per_page = 3
    home_count = 8
    info_pages: ClassVar[dict[str, tuple[str, str]]] = {
        "about": ("/about/", "关于我们"),
        "contact": ("/contact/", "联系我们"),
        "privacy": ("/privacy/", "隐私政策"),
        "sitemap": ("/sitemap/", "网站地图"),
    }
    archive_path = "/archive/"

    def __init__(self, builder: Builder, articles: list[Article]) -> None:
        super().__init__(builder, articles)
        chosen = rng("gb18030").sample(self.stories, min(4, len(self.stories)))
        self.gb18030_paths: set[str] = {s.path for s in chosen}

    def article_path(self, article: Article) -> str:
        return f"/article/{62000 + article.number}.shtml"

    def category_path(self, category: str, page: int = 1) -> str:
        return f"/channel/{category}/" if page == 1 else f"/channel/{category}/page/{page}/"

    def new_ctx(self, path: str) -> PageCtx:
        ctx = self.b.ctx(self.host, path)
        if path in self.gb18030_paths:
            ctx.codec = ctx.charset = ctx.meta_charset = "gb18030"
            ctx.header_charset = False
        return ctx

    def template_strings(self) -> list[str]:
        return [
            "数码前沿 · 看见科技的下一步",
            "热门排行",
            "扫码关注数码前沿公众号，第一时间获取新品资讯",
            "Copyright © 2026 数码前沿 版权所有",
            "粤ICP备20261234号-2",
        ]

    def layout(self, ctx: PageCtx, *, title: str, main: str, description: str = "") -> str:
        """Wrap *main* in the portal chrome."""
        nav = "".join(
            f'<li><a href="{attr(self.category_path(c))}">{esc(_SM_LABELS[c])}</a></li>'
            for c in self.categories
        )
        rank = "".join(
            f"<li><em>{i}</em>{self.story_link(s)}</li>" for i, s in enumerate(self.most_read, 1)
        )
        info = " | ".join(
            f'<a href="{attr(p)}">{esc(label)}</a>' for p, label in self.info_pages.values()
        )
        social = "".join(
            f'<a href="https://social.example/shuma/{net}" title="{label}">'
            f'<img src="{attr(self.static(ctx, f"/static/icons/{net}.png", 32, 32))}" width="32" height="32" alt="{label}"></a>'
            for net, label in (("weibo", "微博"), ("wechat", "微信"), ("bilibili", "哔哩哔哩"))
        )
        friends = " ".join(
            f'<a href="{attr(u)}" target="_blank">{esc(n)}</a>'
            for u, n in partner_sites(self.b, self.host)
        )
        logo = self.static(ctx, "/static/logo.png", 200, 50)
        qrcode = self.static(ctx, "/static/qrcode.png", 100, 100)
        return f"""<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="{ctx.meta_charset}">
<meta name="renderer" content="webkit">
<title>{esc(title)}</title>
<meta name="description" content="{attr(description)}">
<style>{_SM_STYLE}</style>
<script>var _hmt=_hmt||[];(function(){{var hm=document.createElement("script");hm.src="https://stat.example/hm.js?5e1f";document.head.appendChild(hm);}})();</script>
</head>
<body>
<div class="g-top"><div class="w1200"><a href="/about/">关于我们</a> <a href="/contact/">投稿</a> <a href="/">手机版</a></div></div>
<div class="g-hd w1200 clearfix">
  <a class="logo" href="/"><img src="{attr(logo)}" width="200" height="50" alt="数码前沿"></a>
  <span class="slogan">数码前沿 · 看见科技的下一步</span>
  <form class="so" action="/search/" method="get"><input class="so-ipt" type="text" name="wd" placeholder="搜索数码资讯"><input class="so-btn" type="submit" value="搜 索"></form>
</div>
<div class="m-nav"><div class="w1200"><ul class="clearfix"><li class="on"><a href="/">首页</a></li>{nav}<li><a href="{self.archive_path}">归档</a></li></ul></div></div>
<div class="g-bd w1200 clearfix">
<div class="g-main">
{main}
</div>
<div class="g-side">
  <div class="side-box hot"><div class="side-tit">热门排行</div><ul class="rank-list">{rank}</ul></div>
  <div class="side-box adbox"><span class="ad-tag">广告</span>{self.b.adnet_promo(ctx)}</div>
  <div class="side-box follow"><div class="side-tit">关注我们</div><p>扫码关注数码前沿公众号，第一时间获取新品资讯</p><img src="{attr(qrcode)}" width="100" height="100" alt="二维码"></div>
</div>
</div>
<div class="g-ft"><div class="w1200">
  <div class="ft-links">{info}</div>
  <div class="ft-social">{social}</div>
  <div class="ft-friend">友情链接：{friends}</div>
  <p class="ft-copy">Copyright © 2026 数码前沿 版权所有</p>
  <p class="ft-icp"><a href="https://beian.example/" rel="nofollow">粤ICP备20261234号-2</a></p>
</div></div>
</body>
</html>
"""

    def render_article(self, ctx: PageCtx, story: Story) -> tuple[str, str, list[str]]:
        a = story.article
        byline = f"作者：{a.author} {a.date} {story.time} 来源：数码前沿"
        figure = ""
        if a.image_caption:
            figure = (
                f'<figure class="art-pic"><img src="{attr(self.photo(ctx, story))}" alt="{attr(a.image_caption)}">'
                f"<figcaption>{esc(a.image_caption)}</figcaption></figure>"
            )
        body = []
        for index, paragraph in enumerate(story.paragraphs):
            body.append(f"<p>{esc(paragraph)}</p>")
            if index == 2 and self.should_inline_ad(story):
                body.append('<div class="ad-in">' + self.b.cdn_fixed(ctx, 728, 90) + "</div>")
        tags = " ".join(f'<span class="tag">{esc(t)}</span>' for t in tags_for(a))
        share = "".join(
            f'<a href="https://share.example/{net}?url={attr(ctx.url)}">'
            f'<img src="{attr(self.static(ctx, f"/static/share/{net}.png", 24, 24))}" width="24" height="24" alt="{label}"></a>'
            for net, label in (
                ("weibo", "分享到微博"),
                ("wechat", "分享到微信"),
                ("qzone", "分享到QQ空间"),
            )
        )
        related = "".join(f"<li>{self.story_link(s)}</li>" for s in self.related(story))
        ld = json_ld(
            {
                "@context": "https://schema.org",
                "@type": "NewsArticle",
                "headline": a.title,
                "datePublished": a.date,
            }
        )
        main = f"""<div class="crumb">当前位置：<a href="/">首页</a> &gt; <a href="{attr(self.category_path(a.category))}">{esc(_SM_LABELS[a.category])}</a> &gt; 正文</div>
<div class="article">
  <h1 class="art-tit">{esc(a.title)}</h1>
  <div class="art-info"><span class="author">作者：{esc(a.author)}</span> <span class="time">{a.date} {story.time}</span> <span class="source">来源：数码前沿</span></div>
  <div class="art-con" id="artContent">
    {figure}
{chr(10).join(body)}
  </div>
  <div class="art-tags">标签：{tags}</div>
  <div class="art-share">分享到：{share}</div>
  <div class="art-xg"><div class="xg-tit">相关阅读</div><ul>{related}</ul></div>
</div>
{ld}"""
        page = self.layout(
            ctx,
            title=f"{a.title}_数码前沿",
            main=main,
            description=first_sentence(story.paragraphs[0], "zh"),
        )
        return page, byline, []

    def item(self, ctx: PageCtx, story: Story) -> str:
        """One entry of a news list."""
        return f"""<div class="news-item clearfix">
  <a class="pic" href="{attr(story.path)}"><img src="{attr(self.thumb(ctx, story))}" width="120" height="80" alt="{attr(story.title)}"></a>
  <div class="txt"><h3>{self.story_link(story)}</h3><p>{esc(first_sentence(story.paragraphs[0], "zh"))}</p><span class="date">{story.article.date}</span></div>
</div>"""

    def render_home(self, ctx: PageCtx) -> tuple[str, str]:
        items = "\n".join(self.item(ctx, s) for s in self.stories[: self.home_count])
        main = f'<div class="mod-tit"><h2>最新资讯</h2></div>\n<div class="news-list">\n{items}\n</div>'
        title = "数码前沿_看见科技的下一步"
        return title, self.layout(ctx, title=title, main=main)

    def render_category(
        self, ctx: PageCtx, category: str, stories: list[Story], page: int, pages: int
    ) -> tuple[str, str]:
        label = _SM_LABELS[category]
        items = (
            "\n".join(self.item(ctx, s) for s in stories) or '<p class="empty">该栏目暂无文章。</p>'
        )
        pager = []
        if page > 1:
            pager.append(f'<a href="{self.category_path(category, page - 1)}">上一页</a>')
        for number in range(1, pages + 1):
            if number == page:
                pager.append(f'<span class="cur">{number}</span>')
            else:
                pager.append(f'<a href="{self.category_path(category, number)}">{number}</a>')
        if page < pages:
            pager.append(f'<a href="{self.category_path(category, page + 1)}">下一页</a>')
        main = (
            f'<div class="crumb">当前位置：<a href="/">首页</a> &gt; {esc(label)}</div>\n'
            f'<div class="mod-tit"><h2>{esc(label)}</h2></div>\n<div class="news-list">\n{items}\n</div>\n'
            f'<div class="pager">{" ".join(pager)}</div>'
        )
        title = f"{label}_数码前沿" if page == 1 else f"{label}_第{page}页_数码前沿"
        return title, self.layout(ctx, title=title, main=main)

    def render_archive(self, ctx: PageCtx) -> tuple[str, str]:
        rows = "".join(
            f'<li><span class="date">{s.article.date}</span>{self.story_link(s)}</li>'
            for s in self.stories
        )
        main = f'<div class="mod-tit"><h2>文章归档</h2></div>\n<ul class="archive">{rows}</ul>'
        title = "文章归档_数码前沿"
        return title, self.layout(ctx, title=title, main=main)

    def render_info(self, ctx: PageCtx, key: str) -> tuple[str, str, list[str], str]:
        if key == "sitemap":
            links = "".join(
                f'<li><a href="{attr(self.category_path(c))}">{esc(_SM_LABELS[c])}</a></li>'
                for c in self.categories
            )
            main = f'<div class="mod-tit"><h2>网站地图</h2></div><ul class="sitemap"><li><a href="/">首页</a></li>{links}<li><a href="{self.archive_path}">归档</a></li></ul>'
            return (
                "网站地图_数码前沿",
                self.layout(ctx, title="网站地图_数码前沿", main=main),
                [],
                "hub",
            )
        heading, paragraphs = _SM_INFO[key]
        body = "".join(f"<p>{esc(p)}</p>" for p in paragraphs)
        main = f'<div class="page-box"><h1>{esc(heading)}</h1>{body}</div>'
        title = f"{heading}_数码前沿"
        return title, self.layout(ctx, title=title, main=main), list(paragraphs), "other"


_SM_INFO: dict[str, tuple[str, tuple[str, ...]]] = {
    "about": (
        "关于我们",
        (
            "数码前沿创办于2015年，是一家专注消费电子与前沿科技报道的独立媒体。",
            "我们的编辑团队坚持实测实评，不接受任何形式的付费软文。",
        ),
    ),
    "contact": (
        "联系我们",
        (
            "投稿邮箱：tougao@shuma.example",
            "商务合作：bd@shuma.example，电话：020-0000-0000。",
        ),
    ),
    "privacy": (
        "隐私政策",
        (
            "我们仅在提供服务所必需的范围内收集您的个人信息。",
            "未经您的同意，我们不会向任何第三方出售或共享您的个人信息。",
        ),
    ),
}
