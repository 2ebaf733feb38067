"""Main-content extraction: one decision from several signals, explained step by step.

1. Every line gets a score in text units: non-anchor text counts for it, anchor text twice
   against it, every line pays a fixed cost (so runs of short menu entries add up
   negative), prose lines (ending in sentence punctuation) get a bonus, and the class/id
   hints of its containers scale it (``hints``). Short lines with a noise word and lines
   the site's template model has seen on many pages (``template``) count as boilerplate.
2. The *main region*: the node whose subtree has the largest sum of line scores, unless
   the container that directly holds the most prose (the "paragraph holder", as in
   readability) lies elsewhere -- then the holder, widened level by level with sibling
   sections that score. Long prose split over sibling containers stays one region; a
   strip of teasers beside the article does not take it over.
3. Page type: when the page's prose is thin and one list of title-like linked items
   (same tag and class, ``_best_list``) holds more text, the page is a *listing* and that
   list is the region; its item titles are kept.
4. Inside the region a line is kept unless it sits in a strong-negative container
   (comments, share bar, related links), is mostly anchor text, or is noise/template; the
   headline and short customised lines (date/byline) are *metadata*, reported apart.
5. The papers' judges recover prose outside the region: a line whose tag path is above
   the path-similarity threshold of the longest kept line (section 5) and whose
   link-density scope (section 1) has an in-page TF-IDF cosine to the main scope of at
   least ``cosine_lambda`` (section 1) is added. Measured on the dev sets, using them to
   *drop* lines inside the region cost recall and bought no precision; as a recovery
   step they are neutral to slightly positive.

The Quark classifier (section 4) labels the blocks reported beside the text; a block is
finally "content" when most of its text was kept here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from scrapy_webclean.extraction.hints import (
    POSITIVE,
    STRONG_NEGATIVE,
    WEAK_NEGATIVE,
    looks_like_forum,
    node_hints,
)
from scrapy_webclean.extraction.linefeatures import RuleState, line_features
from scrapy_webclean.extraction.linemodel import LineDecider
from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.extraction.paths import path_similarity, path_threshold, tag_path
from scrapy_webclean.extraction.tfidf import prune_scores
from scrapy_webclean.segmentation.blockmodel import PageModel, UrlResolver
from scrapy_webclean.segmentation.classify import NoiseWords, substring_pattern
from scrapy_webclean.segmentation.linkdensity import link_density_blocks
from scrapy_webclean.segmentation.tagclasses import TagClass
from scrapy_webclean.urls import is_site_root as is_site_root  # (re-exported)


@dataclass(frozen=True, slots=True)
class ExtractOptions:
    """Weights of the line score (text units) and the keep rules."""

    line_cost: float = 3.0
    anchor_weight: float = 2.0
    prose_bonus: float = 3.0
    positive_factor: float = 1.5
    weak_negative_factor: float = 0.5
    max_link_density: float = 0.5
    short_noise_units: float = 50.0
    min_region_score: float = 20.0
    metadata_max_units: float = 40.0
    sibling_share: float = 0.2
    outer_share: float = 0.1
    use_main_element: bool = True
    listing_strong_factor: float = 8.0
    listing_factor: float = 3.0
    article_min_prose_units: float = 100.0
    min_list_items: int = 5
    min_item_title_units: float = 4.0
    recover_outside_region: bool = True
    cosine_lambda: float = 0.1
    recover_min_units: float = 40.0
    #: Read a site's front page as a landing page (its whole main element is content).
    landing_pages: bool = True


@dataclass(slots=True)
class Extraction:
    """The lines of a page, which are kept as text, which are the region's metadata
    (headline, date/byline lines: content, but reported apart), and the region."""

    lines: list[Line]
    kept: list[bool]
    region: int
    scores: list[float]
    metadata: list[bool]
    page_type: str = "article"

    @property
    def text(self) -> str:
        return "\n".join(
            line.text for line, keep in zip(self.lines, self.kept, strict=False) if keep
        )


def line_score(line: Line, hint: int, noisy: bool, opts: ExtractOptions) -> float:
    """Score of one line in text units: positive for content-like, negative for boilerplate.

    ``noisy`` says the line is short and carries a noise word (copyright, 版权, ...).
    """
    if noisy:
        return -line.units - opts.line_cost
    anchor_units = line.units * line.link_density
    score = line.units - anchor_units - opts.anchor_weight * anchor_units - opts.line_cost
    if line.prose:
        score += opts.prose_bonus
    if hint == STRONG_NEGATIVE:
        # Prose in a comment section or sidebar neither draws the region nor, when the
        # section sits inside the article container, pushes the region off the article.
        return min(score, 0.0)
    if score > 0:
        if hint == POSITIVE:
            score *= opts.positive_factor
        elif hint == WEAK_NEGATIVE:
            score *= opts.weak_negative_factor
    return score


def extract_main(
    model: PageModel,
    lines: list[Line],
    noise_re: NoiseWords,
    title: str = "",
    options: ExtractOptions | None = None,
    template_flags: Sequence[bool] | None = None,
    url: str | None = None,
    product: Callable[[], bool] | None = None,
    line_model: LineDecider | None = None,
) -> Extraction:
    """Choose the main region of a page and the content lines in it.

    ``lines`` are the page's lines (``build_lines``); ``template_flags[i]`` says line ``i``
    recurs across the site's pages (``TemplateModel``): it then counts as boilerplate.
    ``product()`` says whether the page sells one product (``looks_like_product``): its
    customer reviews are then read as comments; it is called only when that matters.
    ``line_model`` (``linemodel.LineModel``) makes the final keep/drop call per line from
    the rules' verdicts and the lines' features (``linefeatures``).
    """
    opts = options or ExtractOptions()
    n = len(model)
    if not lines or n == 0:
        return Extraction(lines, [False] * len(lines), 0, [], [False] * len(lines), "other")
    parents = model.parents
    prose = [0.0] * n
    for line in lines:
        if line.prose and line.link_density < opts.max_link_density:
            prose[line.node] += line.units
    _sum_up(prose, parents)
    forum = looks_like_forum(url)
    hints = node_hints(model, prose, forum, product)
    noisy = _noise_flags(lines, noise_re, opts)
    # What the verdicts drop: the noisy lines, less prose and code that merely name a
    # noise word. (The region's scores still count them: a sentence about cookies must
    # not pull the region onto a teaser list.)
    drop_noisy = _spare_prose_and_code(model, lines, noisy)
    if template_flags is not None:
        noisy = [a or b for a, b in zip(noisy, template_flags, strict=False)]
        drop_noisy = [a or b for a, b in zip(drop_noisy, template_flags, strict=False)]
    scores = [
        line_score(line, hints[line.node], is_noisy, opts)
        for line, is_noisy in zip(lines, noisy, strict=False)
    ]

    subtree = [0.0] * n
    for line, score in zip(lines, scores, strict=False):
        subtree[line.node] += score
    _sum_up(subtree, parents)
    region, ranges, holder_score = _choose_region(model, lines, scores, subtree, opts)
    article_region, article_ranges = region, ranges
    page_type = "article"
    list_node, list_units = _best_list(model, lines, hints, opts)
    if list_node >= 0 and (
        (
            holder_score < opts.article_min_prose_units
            and list_units >= opts.listing_factor * holder_score
        )
        or list_units >= opts.listing_strong_factor * holder_score
    ):
        # More text sits in one list of title-like items than in the best prose region
        # (which is thin, or a small fraction of the list): a listing, hub or collection
        # page. Its items are the content.
        region, ranges, page_type = (
            list_node,
            [(list_node, list_node + model.node_count[list_node])],
            "listing",
        )
    ranges = _widen_to_main(model, ranges, subtree, opts)
    landing = page_type == "article" and opts.landing_pages and is_site_root(url)
    if landing:
        # A site's front page is a landing page, never one article: its content is
        # spread over many short sections (tagline, features, calls to action), so the
        # whole main element (or body) is the region; the verdicts still drop the
        # navigation, link lists, noise and negative containers. (A front page with a
        # list of teasers is a hub: the listing reading above already has it.)
        whole = _landing_region(model)
        if whole > 0:
            region, ranges = whole, [_landing_range(model, lines, whole)]
    if not ranges:
        return Extraction(
            lines, [False] * len(lines), region, scores, [False] * len(lines), "other"
        )
    in_region, kept, metadata = _region_verdicts(
        lines, hints, drop_noisy, ranges, title, opts, page_type == "listing", landing, forum
    )
    if page_type == "listing" and not any(kept) and article_ranges:
        # The list kept nothing (a comment thread or a box of other posts read as the
        # page's list, whose lines the verdicts drop): the page is an article after all.
        region, page_type = article_region, "article"
        ranges = _widen_to_main(model, article_ranges, subtree, opts)
        in_region, kept, metadata = _region_verdicts(
            lines, hints, drop_noisy, ranges, title, opts, False, False, forum
        )
    if opts.recover_outside_region:
        blocked = [
            is_noisy or hints[line.node] == STRONG_NEGATIVE
            for line, is_noisy in zip(lines, noisy, strict=False)
        ]
        _second_opinion(model, lines, kept, blocked, opts)
    # Lines of the region that only their links dropped: a linked section heading, or
    # the items of a list that a kept line introduces, are text.
    linked = [
        in_region[line.node] == 1
        and not keep
        and not meta
        and not is_noisy
        and hints[line.node] != STRONG_NEGATIVE
        and line.link_density > opts.max_link_density
        for line, keep, meta, is_noisy in zip(lines, kept, metadata, drop_noisy, strict=False)
    ]
    if any(linked):
        _keep_linked_headings(model, lines, kept, linked, url)
        _keep_introduced_lists(model, lines, kept, linked)
    _drop_after_related_headings(model, lines, kept)
    _drop_noscript_copies(model, lines, kept)
    if product is not None:
        _drop_repeated_lines(lines, kept, product)
    if forum and page_type == "article":
        page_type = "forum"
    if line_model is not None:
        rules = RuleState(
            kept=kept,
            metadata=metadata,
            in_region=[in_region[line.node] == 1 for line in lines],
            noisy=noisy,
            drop_noisy=drop_noisy,
            template=template_flags,
            hints=hints,
            scores=scores,
            page_type="landing" if landing else page_type,
        )
        decided = line_model.decide(line_features(model, lines, rules), lines)
        if decided is not None:
            kept = decided
    return Extraction(lines, kept, region, scores, metadata, page_type)


def _region_verdicts(
    lines: list[Line],
    hints: list[int],
    drop_noisy: list[bool],
    ranges: list[tuple[int, int]],
    title: str,
    opts: ExtractOptions,
    listing: bool,
    landing: bool,
    forum: bool,
) -> tuple[bytearray, list[bool], list[bool]]:
    """Per node, inside one of the region's ``ranges``; per line, kept and metadata."""
    in_region = bytearray(len(hints))
    for start, end in ranges:
        in_region[start:end] = b"\x01" * (end - start)
    kept: list[bool] = []
    metadata: list[bool] = []
    # (a list's items: their names may be short, as the list's detection allows; a
    # landing page's: only title-like links)
    min_link_units = opts.min_item_title_units / (2 if listing else 1)
    for line, is_noisy in zip(lines, drop_noisy, strict=False):
        verdict = (
            _verdict(line, hints[line.node], title, opts, listing or landing, forum, min_link_units)
            if in_region[line.node] and not is_noisy
            else DROP
        )
        kept.append(verdict == KEEP)
        metadata.append(verdict == METADATA)
    return in_region, kept, metadata


#: Cookie and consent notices: long prose, never content.
CONSENT_RE = re.compile(
    r"\bcookies?\b.{0,200}\b(?:consent|partners|accept|preferences|opt.out)\b|"
    r"\b(?:consent|accept)\b.{0,200}\bcookies?\b|使用cookie|cookie政策|Cookie 政策",
    re.I,
)


#: A picture credit closing a caption: "(Image: GETTY)", "Photo: Jane Doe/Reuters",
#: "| Getty Images". Captions are not the article's text. (Chinese sites print the
#: source of a picture, 图片来源：..., as a line of the article: it is kept.)
CREDIT_RE = re.compile(
    r"[(\[]\s*(?:image|photo|picture|pic|credit|foto|bild|imagen|фото)s?\s*(?:credit)?\s*[:：][^)\]]{1,80}"
    r"[)\]]\s*$|"
    r"(?:^|[|·•/(]\s*)(?:getty images|shutterstock|reuters|ap photo|afp(?: via getty images)?|"
    r"istock(?:photo)?|alamy|epa|bloomberg)\s*\)?\s*$|"
    r"^(?:photo|image|picture|credit|photograph|фото)s?\s*(?:credit|by)?\s*[:：]\s*\S.{0,80}$|"
    r"^(?:личный архив|из личного архива|фото из архива)\b.{0,60}$",
    re.I,
)


def _noise_flags(lines: list[Line], noise_re: NoiseWords, opts: ExtractOptions) -> list[bool]:
    """Per line: a short line with a noise word or a picture credit, or a consent notice."""
    limit = opts.short_noise_units
    flags = []
    # Menus and footers repeat their lines within a page (a quarter of the short lines
    # are repeats): each distinct text is judged once.
    judged: dict[str, bool] = {}
    for line in lines:
        text = line.text
        known = judged.get(text)
        if known is not None:
            flags.append(known)
            continue
        flag = line.units < limit and (
            noise_re.search(text)
            or is_picture_credit(text)
            or _BARE_URL_RE.match(text)
            or (line.units < _UI_LINE_MAX_UNITS and is_ui_line(text))
        )
        if not flag and ("ookie" in text or "OOKIE" in text):  # every consent names cookies
            flag = CONSENT_RE.search(text) is not None
        judged[text] = flag = bool(flag)
        flags.append(flag)
    return flags


#: Share and social buttons' labels, as data. Verbs that make a label alone ("Share",
#: "Tweet", "分享到"), or with an object or a network after them ("Email this", "Pin it",
#: "转播到腾讯微博"); the networks, named after a preposition ("Share on Facebook") or
#: before a verb ("Auf Facebook teilen"). A network's name alone is not a label: articles
#: about social media list them ("1. Facebook").
SHARE_VERBS = (
    *("share", "tweet", "retweet", "repost", "pin it", "partager", "partagez", "compartir"),
    *("compartilhar", "compartilhe", "condividi", "teilen", "delen", "udostępnij", "paylaş"),
    *("поделиться", "поделитесь", "sdílet", "分享", "分享到", "分享至", "一键分享", "转发"),
    *("シェア", "シェアする", "ツイート", "공유", "공유하기"),
)
SHARE_OBJECT_VERBS = (
    *("email", "e-mail", "mail", "pin", "send", "post", "forward", "bookmark", "copy"),
    *("转播", "转载", "推荐", "发送", "收藏", "复制"),
)
SHARE_OBJECTS = (
    *("this", "it", "the article", "the story", "the post", "the page", "the link"),
    *("this article", "this story", "this post", "this page", "this link", "this video"),
    *("this recipe", "this photo", "this image", "this product", "to a friend", "link"),
    *("链接", "本文", "文章"),
)
SHARE_PREPOSITIONS = (
    *("on", "via", "to", "with", "in", "by", "sur", "par", "en", "por", "em", "no", "na"),
    *("su", "per", "auf", "bei", "über", "op", "в", "во", "через", "到", "至", "给"),
)
SHARE_NETWORKS = (
    *("facebook", "twitter", "x", "linkedin", "pinterest", "reddit", "whatsapp", "telegram"),
    *("email", "e-mail", "mail", "sms", "messenger", "tumblr", "pocket", "flipboard", "xing"),
    *("vk", "vkontakte", "threads", "bluesky", "mastodon", "line", "weibo", "friends"),
    *("a friend", "微博", "新浪微博", "腾讯微博", "微信", "微信朋友圈", "朋友圈", "qq", "qq空间"),
    *("qq好友", "qzone", "豆瓣", "人人网", "百度贴吧", "好友", "朋友"),
)


def _alternatives(words: Sequence[str]) -> str:
    """A regular expression matching any of ``words`` (longest first; spaces match any
    whitespace)."""
    ordered = sorted(set(words), key=len, reverse=True)
    return "(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in ordered) + ")"


# (A count starts only where a run of digits starts: a long run of digits is scanned once.)
_SHARE_COUNT = r"(?:[(（]?(?<![\d.,])\d[\d.,]*[kKmM万]?[)）]?)"
_SHARE_TARGET = rf"(?:{_alternatives(SHARE_PREPOSITIONS)}\s*{_alternatives(SHARE_NETWORKS)})"
#: One share button's label, with a count before or after it ("12 Shares", "Tweet 5").
SHARE_LABEL_PATTERN = (
    rf"(?:{_SHARE_COUNT}\s*)?"
    rf"(?:{_alternatives(SHARE_VERBS)}s?(?:\s*{_alternatives(SHARE_OBJECTS)})?"
    rf"(?:\s*{_SHARE_TARGET})?|"
    rf"{_alternatives(SHARE_OBJECT_VERBS)}\s*(?:{_alternatives(SHARE_OBJECTS)}"
    rf"(?:\s*{_SHARE_TARGET})?|{_SHARE_TARGET})|"
    rf"(?:{_alternatives(SHARE_PREPOSITIONS)}\s*)?{_alternatives(SHARE_NETWORKS)}"
    rf"\s*{_alternatives(SHARE_VERBS)})"
    rf"(?:\s*{_SHARE_COUNT})?(?:\s*[:：])?"
)
SHARE_LABEL_RE = re.compile(SHARE_LABEL_PATTERN, re.I)


#: Whole lines that are the labels of a page's controls, not text: comment counters and
#: buttons, "Back to gallery", "Topics", slideshow notices, share buttons,
#: related-section headings.
UI_LINE_RE = re.compile(
    # (No two optional whitespace runs side by side, and a number starts only where a
    # digit run starts: the time to match grows with the line, not with its square.)
    r"(?:(?<!\d)\d+\s+)?(?:(?:view|show|load|read|see|add|leave|post|write|hide)\s+)?"
    r"(?:(?:all|more)\s+)?(?:(?<!\d)\d+\s+)?comments?(?:\s*\(\d+\))?|"
    r"(?:back to|view|open|close) (?:the )?"
    r"(?:gallery|slideshow|photos?)|topics|this slideshow requires javascript\.?|"
    # carousel and gallery controls: "Open media 3 in modal", "Slide 2 of 5"
    r"(?:open|load|view|show|go to) (?:media|image|photo|picture|slide|video) \d+"
    r"(?: (?:of|/) \d+)?(?: in (?:(?:the )?modal|gallery(?: view)?))?|"
    r"(?:media|image|photo|picture|slide|video) \d+ (?:of|/) \d+|"
    # shop and page buttons
    r"add to (?:cart|bag|basket|wish ?list|list|favou?rites)|quick (?:view|shop|add)|"
    r"loading|close|show (?:more|less)|see (?:less|all)|"
    r"(?:trending|popular|latest) (?:news|now|stories)|"
    r"комментарии|добавить (?:отзыв|комментарий)|评论|查看评论|发表评论|"
    r"kommentare|commentaires|comentarios|comentários|"
    # (and share and social buttons: SHARE_LABEL_PATTERN)
    f"{SHARE_LABEL_PATTERN}",
    re.I,
)
_UI_LINE_MAX_UNITS = 12.0


#: Every match of :data:`UI_LINE_RE` holds one of these (lower-cased): most lines hold
#: none and are ruled out by one quick search.
_UI_WORDS = (
    *("comment", "gallery", "slideshow", "photo", "topics", "news", "now", "stories"),
    *("media", "image", "picture", "slide", "video"),
    *("add to", "quick", "loading", "close", "show", "see"),
    *("комментарии", "добавить", "评论", "kommentare", "comentarios", "comentários"),
    # (every share label holds a verb)
    *(v.split()[0] for v in SHARE_VERBS + SHARE_OBJECT_VERBS),
)
_UI_LINE_WORDS = substring_pattern(_UI_WORDS)


def is_ui_line(text: str) -> bool:
    """True for a short line that is a control's label (see :data:`UI_LINE_RE`) or a
    related-section heading (see :data:`RELATED_HEADING_RE`)."""
    if is_related_heading(text):
        return True
    if _UI_LINE_WORDS.search(text.lower()) is None:
        return False
    return UI_LINE_RE.fullmatch(text.strip(" .:…»›>|-–—")) is not None


#: A line that is nothing but an address (print headers, "source:" footers of templates).
_BARE_URL_RE = re.compile(r"(?:https?://|www\.)\S+$")


def is_picture_credit(text: str) -> bool:
    """True for a line that is (or ends with) a picture credit, see :data:`CREDIT_RE`."""
    tail = text[-100:]
    if ":" not in tail and "：" not in tail and "архив" not in tail:
        # Without a colon, only a line ending with an agency's name can be a credit (a
        # suffix test: this runs on every line of every page).
        end = tail.rstrip()
        if end.endswith(")"):
            end = end[:-1].rstrip()
        if not end[-_CREDIT_SUFFIX_CHARS:].lower().endswith(_CREDIT_SUFFIXES):
            return False
    return CREDIT_RE.search(text) is not None


_CREDIT_SUFFIXES = (
    "images",
    "shutterstock",
    "reuters",
    "photo",
    "afp",
    "istock",
    "istockphoto",
    "alamy",
    "epa",
    "bloomberg",
)
_CREDIT_SUFFIX_CHARS = max(map(len, _CREDIT_SUFFIXES))


#: Headings that open a block of links or teasers to *other* pages, in several languages.
RELATED_HEADING_RE = re.compile(
    r"^(?:you (?:may|might) (?:also )?(?:like|enjoy)|related(?: (?:articles?|posts?|stories|"
    r"news|content|reading))?|(?:read|see) (?:also|more)|more (?:from|on|in|stories|news)\b.*|"
    r"recommended(?: for you)?|also (?:read|on)|você (?:também )?pode gostar|"
    r"leia (?:também|mais)|te puede interesar|(?:artículos|noticias) relacionad[oa]s|"
    r"vous aimerez aussi|à lire aussi|lire aussi|das könnte sie (?:auch )?interessieren|"
    r"weitere artikel|ti potrebbe interessare|相关(?:阅读|新闻|文章|推荐)|推荐阅读|猜你喜欢|"
    r"延伸阅读|热门推荐|更多(?:阅读|新闻)|most popular\b.*|popular (?:posts|articles|stories)|"
    r"читайте также|смотрите также|похожие (?:статьи|записи|новости|материалы)|"
    r"самые популярные\b.*|популярное|рекомендуем|"
    # shops
    r"(?:people|customers|shoppers) (?:who|also) (?:viewed|bought|searched)\b.*|"
    r"similar (?:items|products)\b.*|(?:frequently|often) bought together|"
    r"recently viewed\b.*|(?:you|customers) (?:may|might) also (?:love|need|want)\b.*|"
    r"related products|more (?:items|products) (?:like this|from)\b.*|"
    r"(?:complete|shop) the look|sponsored products\b.*)\W*$",
    re.I,
)
#: How every match of :data:`RELATED_HEADING_RE` starts (lower-cased): a line that starts
#: otherwise is ruled out by one ``startswith``.
_RELATED_HEADING_STARTS = (
    *("you", "related", "read", "see", "more", "recommended", "also", "most", "popular"),
    *("você", "leia", "te ", "artículos", "noticias", "vous", "à", "lire", "das", "weitere"),
    *("ti ", "相关", "推荐", "猜", "延伸", "热门", "更多"),
    *("читайте", "смотрите", "похожие", "самые", "популярное", "рекомендуем"),
    *("people", "customers", "shoppers", "similar", "frequently", "often", "recently"),
    *("complete", "shop", "sponsored"),
)


def is_related_heading(text: str) -> bool:
    """True for a line that is a related-section heading (:data:`RELATED_HEADING_RE`)."""
    return (
        text.lower().startswith(_RELATED_HEADING_STARTS)
        and RELATED_HEADING_RE.match(text) is not None
    )


_HEADING_TAGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))


def _keep_linked_headings(
    model: PageModel, lines: list[Line], kept: list[bool], linked: list[bool], url: str | None
) -> None:
    """A heading of the region that links to its own section, its own page or a page
    below it (documentation sites link each section heading to its own anchor, and an
    index page's headings to its chapters) is a heading of the text, not navigation. A
    heading that links elsewhere is a teaser's title."""
    into_page = _InPage(url, model.base_url)
    for i, line in enumerate(lines):
        if linked[i]:
            heading = _text_element(model, line, _HEADING_TAGS)
            if heading > 0 and _links_within(model, heading, into_page):
                kept[i] = True


class _InPage:
    """Whether an ``href`` points into a page: an anchor, the page itself, or a page
    whose path lies below the page's."""

    def __init__(self, url: str | None, base_url: str | None) -> None:
        self.page = urlsplit(url) if url else None
        self.resolve = UrlResolver(base_url)

    def __call__(self, href: str) -> bool:
        if not href or href.startswith("#"):
            return True
        if self.page is None:
            return False
        try:
            target = urlsplit(self.resolve(href))
        except ValueError:
            return False
        path = self.page.path
        below = path if path.endswith("/") else path + "/"
        return target.netloc.lower() == self.page.netloc.lower() and (
            target.path == path or target.path.startswith(below)
        )


def _links_within(model: PageModel, heading: int, into_page: _InPage) -> bool:
    """True when every link of a heading (or the link around it) points into the page."""
    anchors = list(model.elements[heading].iter("a"))
    parent = model.parents[heading]
    if not anchors and parent > 0 and model.tags[parent] == "a":
        anchors = [model.elements[parent]]
    return all(into_page((anchor.get("href") or "").strip()) for anchor in anchors)


#: A list is looked for this many levels above a linked line.
_LIST_LEVELS = 4


def _keep_introduced_lists(
    model: PageModel, lines: list[Line], kept: list[bool], linked: list[bool]
) -> None:
    """The linked items of a list that a kept line introduces ("The following data
    types are supported:") are part of the text."""
    tags, parents, node_count = model.tags, model.parents, model.node_count
    n = len(lines)
    i = 0
    while i < n:
        if not linked[i]:
            i += 1
            continue
        node, found = lines[i].node, -1
        for _ in range(_LIST_LEVELS):
            if node <= 0:
                break
            if tags[node] in ("ul", "ol"):
                found = node
                break
            node = parents[node]
        if found < 0:
            i += 1
            continue
        end = found + node_count[found]
        after = i
        while after < n and found <= lines[after].node < end:
            after += 1
        previous = next((k for k in range(i - 1, -1, -1) if kept[k]), -1)
        if previous >= 0 and lines[previous].text.endswith((":", "：")):
            for k in range(i, after):
                if linked[k]:
                    kept[k] = True
        i = max(after, i + 1)


def _drop_repeated_lines(
    lines: list[Line], kept: list[bool], product: Callable[[], bool], min_words: int = 5
) -> None:
    """On a product page (``product()``, asked only when a line repeats), a kept line of
    ``min_words`` or more that repeats an earlier kept line word for word is a second
    rendering of the buy box (shops render it once per screen size), not more text.
    (Elsewhere repeated lines are often the text: a meal plan, a timetable.)"""
    seen: set[str] = set()
    repeats: list[int] = []
    for i, line in enumerate(lines):
        if not kept[i]:
            continue
        words = line.text.split()
        if len(words) < min_words:
            continue
        key = " ".join(words)
        if key in seen:
            repeats.append(i)
        seen.add(key)
    if repeats and product():
        for i in repeats:
            kept[i] = False


_CODE_TAGS = frozenset(("pre", "code", "kbd", "samp"))
#: Noise words that mark a line as boilerplate even in a sentence.
_HARD_NOISE = NoiseWords(
    (
        "copyright",
        "©",
        "all rights reserved",
        "terms of use",
        "terms of service",
        "powered by",
        "skip to",
        "back to top",
        "sitemap",
        "site map",
    )
)
#: A sentence of this many words that names a soft noise word ("share", "cookies",
#: "login") is prose about it, not a control.
SPARED_PROSE_WORDS = 10


def _spare_prose_and_code(model: PageModel, lines: list[Line], noisy: list[bool]) -> list[bool]:
    """``noisy`` less the lines that only name a noise word: code (``['login']`` in a
    ``<pre>``) and long sentences without a hard noise word (copyright, terms of use);
    consent notices and picture credits stay noisy."""
    spared = noisy[:]
    tags, parents = model.tags, model.parents
    for i, line in enumerate(lines):
        if not noisy[i]:
            continue
        text = line.text
        in_code = False
        node = model.runs[line.first_run].owner
        for _ in range(12):
            if node <= 0:
                break
            if tags[node] in _CODE_TAGS:
                in_code = True
                break
            node = parents[node]
        if not in_code and not (
            line.prose and len(text.split()) >= SPARED_PROSE_WORDS and not _HARD_NOISE.search(text)
        ):
            continue
        if CONSENT_RE.search(text) or is_picture_credit(text):
            continue
        spared[i] = False
    return spared


def _drop_noscript_copies(model: PageModel, lines: list[Line], kept: list[bool]) -> None:
    """Pages that render their text twice, once for scripts and once inside ``<noscript>``,
    would export it twice: a kept line inside ``<noscript>`` whose text is also kept
    outside it is dropped."""
    tags, parents = model.tags, model.parents
    if "noscript" not in tags:
        return
    in_noscript = [False] * len(tags)
    for i in range(1, len(tags)):
        in_noscript[i] = tags[i] == "noscript" or in_noscript[parents[i]]
    outside = {
        line.text
        for line, keep in zip(lines, kept, strict=False)
        if keep and not in_noscript[line.node]
    }
    for i, line in enumerate(lines):
        if kept[i] and in_noscript[line.node] and line.text in outside:
            kept[i] = False


def _drop_after_related_headings(model: PageModel, lines: list[Line], kept: list[bool]) -> None:
    """A section that opens with a "related"/"you may also like" heading holds teasers of
    other pages, however much prose they carry: drop it. The section is the nearest
    B container above the heading whose first line is the heading; a heading in the middle
    of a larger container changes nothing, and neither does an ``<h1>``: the page's own
    headline names what the page is about."""
    classes, parents, node_count = model.classes, model.parents, model.node_count
    first_line: dict[int, int] = {}
    for i, line in enumerate(lines):
        if line.units > 15 or not is_related_heading(line.text):
            continue
        if _in_h1(model, line):
            continue  # the page's own headline ("Most popular films") names the page
        section = line.node
        while section > 0 and classes[section] is not TagClass.B:
            section = parents[section]
        # The heading's own element: climb to the section it introduces.
        while section > 0 and node_count[section] <= 2 and section == line.node:
            section = parents[section]
            while section > 0 and classes[section] is not TagClass.B:
                section = parents[section]
        if section <= 0:
            continue
        end = section + node_count[section]
        if not first_line:
            for j, other in enumerate(lines):
                first_line.setdefault(other.node, j)
        starts = min((j for node, j in first_line.items() if section <= node < end), default=i)
        if starts != i:
            continue
        for j in range(i, len(lines)):
            if not section <= lines[j].node < end:
                break
            kept[j] = False


def _in_h1(model: PageModel, line: Line) -> bool:
    """True when the line's text sits in an ``<h1>``."""
    return _text_element(model, line, _H1) > 0


_H1 = frozenset(("h1",))


def _text_element(model: PageModel, line: Line, names: frozenset[str]) -> int:
    """The element named in ``names`` that the line's text sits in (between its first
    run's element and the line's node), or -1."""
    tags, parents = model.tags, model.parents
    node = model.runs[line.first_run].owner
    while node >= line.node and node > 0:
        if tags[node] in names:
            return node
        node = parents[node]
    return -1


def _second_opinion(
    model: PageModel,
    lines: list[Line],
    kept: list[bool],
    blocked: list[bool],
    opts: ExtractOptions,
) -> None:
    """Recover prose that lies outside the region, by the judges of the papers.

    A line outside the region that is prose, not mostly links and not ``blocked``
    (noise, template, strong-negative container) is added when both agree it belongs to
    the main text: its tag path is above the path-similarity threshold of the longest kept
    line (section 5) and its link-density scope (section 1) has an in-page TF-IDF cosine
    of at least ``cosine_lambda`` to the main scope (section 1, the corrected reading).
    """
    kept_lines = [i for i, k in enumerate(kept) if k]
    if not kept_lines:
        return
    candidates = [
        i
        for i, line in enumerate(lines)
        if not kept[i]
        and not blocked[i]
        and line.prose
        and line.link_density < opts.max_link_density
        and line.units >= opts.recover_min_units
    ]
    # Both judges must agree: the cheap one (path similarity) runs first, and the TF-IDF
    # of the page's scopes is computed only when some line passes it.
    longest = max(kept_lines, key=lambda i: lines[i].chars)
    reference = tag_path(model, lines[longest].node)
    threshold = path_threshold(len(reference))
    candidates = [
        i
        for i in candidates
        if path_similarity(reference, tag_path(model, lines[i].node)) > threshold
    ]
    if not candidates:
        return
    scope_of = [-1] * len(model)
    scopes = link_density_blocks(model)
    for position, block in enumerate(scopes):
        end = block.node + model.node_count[block.node]
        scope_of[block.node : end] = [position] * (end - block.node)
    pieces: list[list[str]] = [[] for _ in scopes]
    for line in lines:
        if scope_of[line.node] >= 0:
            pieces[scope_of[line.node]].append(line.text)
    main, cosines = prune_scores(["\n".join(texts) for texts in pieces])
    for i in candidates:
        scope = scope_of[lines[i].node]
        if scope >= 0 and scope != main and cosines[scope] >= opts.cosine_lambda:
            kept[i] = True


def _choose_region(
    model: PageModel,
    lines: list[Line],
    scores: list[float],
    subtree: list[float],
    opts: ExtractOptions,
) -> tuple[int, list[tuple[int, int]], float]:
    """The main region as node ranges ``[start, end)`` of the pre-order numbering, and the
    score of the best paragraph holder (how concentrated the page's prose is).

    Candidates are the containers that *hold* content lines: a content line adds its score
    to its holder (the line's own B element, else its parent) and half of it to the
    holder's parent, and a candidate's score is discounted by its link density. The best
    candidate is the region, widened by its siblings whose subtree score reaches
    ``sibling_share`` of it. Holding lines directly is what tells an article body (many
    paragraphs in one container) from a list of teasers (one description per container),
    which a plain subtree sum cannot.
    """
    n = len(model)
    classes, parents, node_count = model.classes, model.parents, model.node_count
    candidate = [0.0] * n
    for line, score in zip(lines, scores, strict=False):
        if score <= 0 or line.text[:1] in _FOOTNOTE_MARKS:
            # (Footnotes are the page's fine print: text of the page, never where its
            # main text lies; a block of them holds long prose in one container.)
            continue
        holder = line.node if classes[line.node] is TagClass.B else parents[line.node]
        if holder < 0:
            holder = line.node
        candidate[holder] += score
        grand = parents[holder]
        if grand >= 0:
            candidate[grand] += score / 2
    best, best_score = 0, 0.0
    for i in range(n):
        value = candidate[i]
        if value > best_score:
            value *= 1.0 - model.link_density(i)
            if value > best_score:
                best, best_score = i, value
    # The node with the best subtree sum: the region, when it holds the best candidate
    # (service pages, documentation: content spread over many sections).
    top = max(range(n), key=subtree.__getitem__)
    if subtree[top] < opts.min_region_score:
        return top, [], best_score
    if best_score < opts.min_region_score:
        return top, [(top, top + node_count[top])], best_score
    if top <= best < top + node_count[top]:
        threshold = opts.outer_share * best_score
        return top, _widen(best, top, subtree, node_count, parents, threshold), best_score
    # Otherwise the best sum came from elsewhere (a long list of teasers beside the
    # article): the article's holder wins, with its sibling sections.
    ranges = [(best, best + node_count[best])]
    parent = parents[best]
    if parent >= 0:
        threshold = max(opts.min_region_score, opts.sibling_share * best_score)
        child, stop = parent + 1, parent + node_count[parent]
        while child < stop:
            if child != best and subtree[child] >= threshold:
                ranges.append((child, child + node_count[child]))
            child += node_count[child]
    return best, ranges, best_score


#: First characters of a footnote line: superscript numbers, asterisk, dagger.
_FOOTNOTE_MARKS = frozenset("¹²³⁴⁵⁶⁷⁸⁹⁰*†‡")


def _widen(
    core: int,
    top: int,
    subtree: list[float],
    node_count: list[int],
    parents: list[int],
    threshold: float,
) -> list[tuple[int, int]]:
    """From ``core`` up to ``top``, add at every level the sibling subtrees whose score
    reaches ``threshold``, and all positive siblings when together they do (paragraphs
    that sit one by one beside a fact box): sections of a long page stay, a ticker or a
    teaser strip that only shares a wrapper with the article does not."""
    ranges = [(core, core + node_count[core])]
    node = core
    while node != top:
        parent = parents[node]
        siblings = []
        child, stop = parent + 1, parent + node_count[parent]
        while child < stop:
            if child != node and subtree[child] > 0:
                siblings.append(child)
            child += node_count[child]
        if sum(subtree[c] for c in siblings) >= threshold:
            ranges.extend((c, c + node_count[c]) for c in siblings)
        node = parent
    return ranges


def _widen_to_main(
    model: PageModel,
    ranges: list[tuple[int, int]],
    subtree: list[float],
    opts: ExtractOptions,
) -> list[tuple[int, int]]:
    """HTML5 says ``<main>`` (or ``role="main"``) holds the dominant content: when the
    region lies inside a main element (the nearest one around it; the page's only
    ``<main>`` when it has one) and the rest of it does not score negative, the whole
    main element is the region (landing and service pages spread their
    content over many short sections that no single one of them represents)."""
    if not ranges or not opts.use_main_element:
        return ranges
    tags, elements, parents = model.tags, model.elements, model.parents
    main_tags = [i for i, tag in enumerate(tags) if tag == "main" and model.visible[i]]
    if len(main_tags) > 1:
        return ranges
    main = ranges[0][0]
    while main > 0 and tags[main] != "main" and elements[main].get("role") != "main":
        main = parents[main]
    if main <= 0 or (main_tags and main_tags[0] != main):
        return ranges
    end = main + model.node_count[main]
    region_score = sum(subtree[start] for start, _ in ranges)
    if all(main <= start and stop <= end for start, stop in ranges) and (
        subtree[main] >= region_score
    ):
        return [(main, end)]
    return ranges


def _landing_range(model: PageModel, lines: list[Line], whole: int) -> tuple[int, int]:
    """The node range of a landing page's content: the landing region, from its first
    ``<h1>`` on when only a little text (a top bar, a slogan) comes before it; page
    builders that put an ``<h1>`` half-way down get the whole region."""
    end = whole + model.node_count[whole]
    h1 = next((i for i in range(whole, end) if model.tags[i] == "h1"), -1)
    if h1 < 0:
        return whole, end
    before = sum(line.chars for line in lines if whole <= line.node < h1)
    return (h1, end) if before <= LANDING_MAX_CHARS_BEFORE_H1 else (whole, end)


#: Text above a landing page's headline that may be dropped as the site's own (chars).
LANDING_MAX_CHARS_BEFORE_H1 = 200


def _landing_region(model: PageModel) -> int:
    """The page's one ``<main>`` (or ``role="main"``) element, else its ``<body>``."""
    mains = [
        i
        for i, tag in enumerate(model.tags)
        if model.visible[i] and model.text_len[i] and tag == "main"
    ]
    if len(mains) == 1:
        return mains[0]
    for i, tag in enumerate(model.tags):
        if tag == "body":
            return i
    return -1


def _best_list(
    model: PageModel, lines: list[Line], hints: list[int], opts: ExtractOptions
) -> tuple[int, float]:
    """The container of the largest list of title-like linked items, and its text units.

    Items are the children of one node that share a tag and first class name (``li``,
    ``div.card``, ``article.post``); an item counts when it holds a link and its anchor
    text averages at least ``min_item_title_units`` per link (titles, not menu entries).
    Lists inside strong-negative containers (navigation, sidebars, related links) are not
    candidates. Returns ``(-1, 0.0)`` when no node has ``min_list_items`` such items.
    """
    chars = sum(line.chars for line in lines)
    if not chars:
        return -1, 0.0
    units_per_char = sum(line.units for line in lines) / chars
    min_anchor_chars = opts.min_item_title_units / units_per_char
    tags, elements, node_count = model.tags, model.elements, model.node_count
    text_len, anchor_len, link_count = model.text_len, model.anchor_len, model.link_count
    visible = model.visible
    best, best_units = -1, 0.0
    smallest = opts.min_list_items + 1
    # (One comprehension finds the few nodes big enough and with links: most are not.)
    parents = [
        parent
        for parent, count in enumerate(node_count)
        if count >= smallest and parent and link_count[parent] and visible[parent]
    ]
    for parent in parents:
        if hints[parent] == STRONG_NEGATIVE:  # menus, sidebars, related-link strips
            continue
        count = node_count[parent]
        groups: dict[tuple[str, str], list[int]] = {}
        child, stop = parent + 1, parent + count
        while child < stop:
            links = link_count[child]
            # A title-like item: long anchors, or a linked name with more text beside it
            # (a film's year and rating, a repository's description), which menu entries
            # lack.
            if links and (
                anchor_len[child] >= min_anchor_chars * links
                or (
                    anchor_len[child] >= min_anchor_chars / 2
                    and text_len[child] - anchor_len[child] >= min_anchor_chars
                )
            ):
                classes = (elements[child].get("class") or "").split()
                key = (tags[child], classes[0] if classes else "")
                groups.setdefault(key, []).append(text_len[child])
            child += node_count[child]
        for sizes in groups.values():
            if len(sizes) >= opts.min_list_items:
                units = sum(sizes) * units_per_char
                if units > best_units:
                    best, best_units = parent, units
    return best, best_units


def _sum_up(values: list[float], parents: list[int]) -> None:
    """Turn per-node values into subtree sums (children have larger indices)."""
    for i in range(len(values) - 1, 0, -1):
        values[parents[i]] += values[i]


KEEP, DROP, METADATA = 1, 0, 2


def _verdict(
    line: Line,
    hint: int,
    title: str,
    opts: ExtractOptions,
    listing: bool,
    forum: bool = False,
    min_link_units: float = 0.0,
) -> int:
    """KEEP, DROP or METADATA for a line of the region. On a listing (or landing) page a
    linked line of ``min_link_units`` or more is an item's title, not navigation."""
    if hint == STRONG_NEGATIVE:
        return DROP
    if line.link_density > opts.max_link_density and not (listing and line.units >= min_link_units):
        return DROP
    # A short customised line (headline, date/byline line) is metadata, not body text --
    # except on a forum thread, where who wrote each post and when is part of the thread.
    if line.custom and not forum and not line.prose and line.units < opts.metadata_max_units:
        return METADATA
    if title and line.text == title:
        return METADATA
    return KEEP
