"""The boilerplate vocabulary: the words and patterns that mark a line as boilerplate.

Consent notices (:data:`CONSENT_RE`), picture credits (:func:`is_picture_credit`), the
labels of a page's controls and share buttons (:func:`is_ui_line`), calls to action
(:func:`is_call_to_action`), a post's taxonomy lines (:func:`is_taxonomy_line`), the
links to related articles inside the text (:func:`is_related_link_line`), the headings of
related-link sections
(:func:`is_related_heading`), bare addresses (:data:`BARE_URL_RE`)
and the noise words that mark a line as boilerplate even in a sentence
(:data:`HARD_NOISE`). Word lists that are plain data live in ``data/*.txt``
(``text.wordlists``); the patterns built from them, and the quick pre-tests that must
mirror a pattern, stay here. (The noise words, of short lines and the hard ones, are the
Quark classifier's, ``text/data/noise_words.txt`` and ``text/data/hard_noise_words.txt``:
``segmentation.classify.DEFAULT_NOISE_WORDS`` is handed to ``extract_main``.)
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scrapy_webclean.segmentation.classify import HARD_NOISE_WORDS, NoiseWords, substring_pattern
from scrapy_webclean.text.wordlists import read_word_list

#: Cookie and consent notices: long prose, never content. A "cookie" and a consent word
#: ("consent", "accept", "partners", ...) at most 200 characters apart on one line, in
#: either order for "consent" and "accept". (Searched for whether it matches: the gap
#: after a word ends where the same word comes again, which is tried on its own. A gap
#: that ran on over the next words was scanned from each of them: 1 s for a megabyte of
#: "cookie cookie ...", 0.16 s now.)
CONSENT_RE = re.compile(
    r"\bcookies?\b(?:(?!\bcookies?\b).){0,200}?"
    r"\b(?:consent|partners|accept|preferences|opt.out)\b|"
    r"\b(?:consent|accept)\b(?:(?!\b(?:consent|accept)\b).){0,200}?\bcookies?\b|"
    r"使用cookie|cookie政策|Cookie 政策",
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
#: How a credit without a colon ends (lower-cased): the last word of each agency that
#: :data:`CREDIT_RE` names (a suffix test rules out the other lines; keep it in step
#: with the pattern).
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
#: A credit closes its line: only the line's last this many characters are looked at for
#: its colon or agency.
CREDIT_TAIL_CHARS = 100


def is_picture_credit(text: str) -> bool:
    """True for a line that is (or ends with) a picture credit, see :data:`CREDIT_RE`."""
    tail = text[-CREDIT_TAIL_CHARS:]
    if ":" not in tail and "：" not in tail and "архив" not in tail:
        # Without a colon, only a line ending with an agency's name can be a credit (a
        # suffix test: this runs on every line of every page).
        end = tail.rstrip()
        if end.endswith(")"):
            end = end[:-1].rstrip()
        if not end[-_CREDIT_SUFFIX_CHARS:].lower().endswith(_CREDIT_SUFFIXES):
            return False
    return CREDIT_RE.search(text) is not None


#: Share and social buttons' labels, as data (``data/share_*.txt``). Verbs that make a
#: label alone ("Share", "Tweet", "分享到"), or with an object or a network after them
#: ("Email this", "Pin it", "转播到腾讯微博"); the networks, named after a preposition
#: ("Share on Facebook") or before a verb ("Auf Facebook teilen"). A network's name alone
#: is not a label: articles about social media list them ("1. Facebook").
SHARE_VERBS = read_word_list("extraction/data/share_verbs.txt")
SHARE_OBJECT_VERBS = read_word_list("extraction/data/share_object_verbs.txt")
SHARE_OBJECTS = read_word_list("extraction/data/share_objects.txt")
SHARE_PREPOSITIONS = read_word_list("extraction/data/share_prepositions.txt")
SHARE_NETWORKS = read_word_list("extraction/data/share_networks.txt")


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
#: buttons, "Back to gallery", "Topics", slideshow notices, a list's controls ("View all",
#: "Load more", "Expand all", "Previous Next"), a table of contents' title ("On this
#: page"), a reading time, a trial's button, a code block's "Copy", a caption's toggle,
#: a form field's name, a like counter ("12 likes"), a byline's label on a line of its own
#: ("Written by", "Posted on"), a carousel's buttons, a case study's or a feature list's
#: call to action, share buttons, related-section headings.
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
    # a list's controls, a trial's button, a form field's name, a forum card's label, a
    # code block's button, a caption's and the reviews' toggles
    r"view all|load more|(?:expand|collapse) all|on this page|prev(?:ious)? next|"
    r"start (?:your )?free trial|no posts(?: yet)?|"
    r"email address|joined|copy(?: code)?|copied!?|(?:show|hide) caption|"
    r"(?:see|read|show) (?:more|all) reviews|"
    # a like counter, a byline's label on a line of its own, a toggle pair, a carousel's
    # buttons, calls to action (a video's, a review's, a sign-up's, an article's)
    r"(?<![\d.,])\d[\d.,]*+[km]?\s+likes?|(?:written|edited|reviewed|fact[- ]checked) by|"
    r"(?:show|see) (?:more|less)\s+(?:show|see) (?:more|less)|(?:previous|next) slide|"
    r"play video|read (?:the )?full review|get started for free|"
    r"posted on|read (?:the )?(?:article|case study)|see all features|"
    # a table of contents' title, a reading time ("5 min read", "12 minutes read")
    r"table of contents|(?<!\d)\d+\s*(?:min(?:ute)?s?\.?)\s+read|"
    r"(?:trending|popular|latest) (?:news|now|stories)|"
    r"комментарии|добавить (?:отзыв|комментарий)|评论|查看评论|发表评论|"
    r"kommentare|commentaires|comentarios|comentários|"
    # (and share and social buttons: SHARE_LABEL_PATTERN)
    f"{SHARE_LABEL_PATTERN}",
    re.I,
)
#: A control's label is short: longer lines are not tested against :data:`UI_LINE_RE`
#: (text units).
UI_LINE_MAX_UNITS = 12.0
#: Characters around a control's label that are not part of it ("Comments »", "Topics:").
_UI_LINE_EDGES = " .:…»›>|-–—"


#: Every match of :data:`UI_LINE_RE` holds one of these (lower-cased): most lines hold
#: none and are ruled out by one quick search. (Keep it in step with the pattern.)
_UI_WORDS = (
    *("comment", "gallery", "slideshow", "photo", "topics", "news", "now", "stories"),
    *("media", "image", "picture", "slide", "video"),
    *("add to", "quick", "loading", "close", "show", "see", "table of contents", "read"),
    *("view all", "load more", "expand all", "collapse all", "on this page", "prev"),
    *("free trial", "no posts"),
    *("email address", "joined", "copy", "copied", "caption", "review"),
    *("like", "written by", "edited by", "checked by", "get started", "posted on"),
    *("комментарии", "добавить", "评论", "kommentare", "comentarios", "comentários"),
    # (every share label holds a verb)
    *(v.split()[0] for v in SHARE_VERBS + SHARE_OBJECT_VERBS),
)
_UI_LINE_WORDS = substring_pattern(_UI_WORDS)


#: Calls to action: a button's label that leads elsewhere ("Learn more", "Shop now").
#: Dropped from the text, but not counted against a region's score as noise is
#: (``verdicts.drop_only_flags``).
CALL_TO_ACTION_RE = re.compile(r"get started|learn more|(?:shop|book|buy) now", re.I)


def is_call_to_action(text: str) -> bool:
    """True for a line that is a call to action and nothing else (:data:`CALL_TO_ACTION_RE`,
    with the edge characters of a control's label: "Learn more »")."""
    return CALL_TO_ACTION_RE.fullmatch(text.strip(_UI_LINE_EDGES)) is not None


#: A blog post's taxonomy line: its tags or labels, where it was filed ("Tags: python,
#: lxml", "Filed under: News", "Posted in: Sidelines | comments", "标签：…"). Not
#: categories: a wiki's "Category:" line is part of its text (cross-validated, with them
#: WCXB's documentation pages lost 0.0002).
TAXONOMY_LINE_RE = re.compile(
    r"^\W{0,2}(?:tags?|tagged(?: with| as)?|filed (?:under|in)|posted in|labels?|标签)\s*[:：]",
    re.I,
)
#: A taxonomy line is shorter than this (text units): a longer one is a sentence.
TAXONOMY_LINE_MAX_UNITS = 40.0


def is_taxonomy_line(text: str) -> bool:
    """True for a line that opens with a post's tags, labels or filing
    (:data:`TAXONOMY_LINE_RE`)."""
    return TAXONOMY_LINE_RE.match(text) is not None


#: A line that points to another article of the site from inside the text: "Read more:
#: <title>", "Related: <title>", "Also read: <title>", "See also: <title>", the title a link
#: (``verdicts.drop_only_flags`` reads the link density).
RELATED_LINK_LINE_RE = re.compile(
    r"^\W{0,3}(?:read more|read also|also read|related|see also|also|read next|more)\s*[:：]",
    re.I,
)
#: A related-link line is shorter than this (text units): a longer one is a sentence.
RELATED_LINK_LINE_MAX_UNITS = 40.0


def is_related_link_line(text: str) -> bool:
    """True for a line that opens with a related-link label (:data:`RELATED_LINK_LINE_RE`)."""
    return RELATED_LINK_LINE_RE.match(text) is not None


def is_ui_line(text: str) -> bool:
    """True for a short line that is a control's label (see :data:`UI_LINE_RE`) or a
    related-section heading (see :data:`RELATED_HEADING_RE`)."""
    if is_related_heading(text):
        return True
    if _UI_LINE_WORDS.search(text.lower()) is None:
        return False
    return UI_LINE_RE.fullmatch(text.strip(_UI_LINE_EDGES)) is not None


#: Headings that open a block of links or teasers to *other* pages, in several languages,
#: or an author's bio ("About the author"). Not "See also": in documentation and reference
#: pages it closes the text with its own references (cross-validated, WCXB +0.00003,
#: documentation pages +0.00034, the other sets unchanged).
RELATED_HEADING_RE = re.compile(
    r"^(?:you (?:may|might) (?:also )?(?:like|enjoy|check|read)|related(?: [\w-]+){0,2}|"
    r"read (?:also|more)|see more|more (?:from|on|in|stories|news)\b.*|"
    r"(?:other|more) (?:related )?(?:posts|articles|stories)(?: you (?:may|might) "
    r"(?:also )?(?:like|enjoy))?|similar [\w-]+|explore related [\w-]+|popular on [\w.-]+|"
    r"recommended(?: for you| reading)?|also (?:read|on)|about the authors?|read next|"
    r"você (?:também )?pode gostar|"
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
#: otherwise is ruled out by one ``startswith``. (Keep it in step with the pattern; "te "
#: and "ti " keep their space.)
_RELATED_HEADING_STARTS = (
    *("you", "related", "read", "see", "more", "recommended", "also", "most", "popular"),
    *("other", "explore", "about"),
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


#: A line that is nothing but an address (print headers, "source:" footers of templates).
BARE_URL_RE = re.compile(r"(?:https?://|www\.)\S++$")

#: A rights notice ("All rights reserved", 版权所有), lower-cased: a line holding one is a
#: legal notice at any length (``data/rights_reserved.txt``). (Searched for as substrings
#: of the lower-cased line: this runs on every line of every page, and a case-insensitive
#: alternation cost seven times as much.)
_RIGHTS_RESERVED = substring_pattern(
    phrase.lower() for phrase in read_word_list("extraction/data/rights_reserved.txt")
)


def is_rights_notice(text: str) -> bool:
    """True for a line holding a rights notice (see :data:`_RIGHTS_RESERVED`)."""
    return _RIGHTS_RESERVED.search(text.lower()) is not None


#: A notice about what the reader's browser lacks or must turn on ("Please enable
#: JavaScript", "Your browser does not support the video tag", "Media requires JavaScript
#: and Adobe Flash to play", "best viewed in an up-to-date web browser"): a fallback the
#: page shows in place of a player or an app, never its text.
BROWSER_NOTICE_RE = re.compile(
    r"\b(?:enable|turn on|activate) (?:javascript|js)\b|"
    r"\bjavascript (?:is |must be |needs to be )?(?:disabled|required|turned off|not enabled)\b|"
    r"\brequires? (?:javascript|(?:adobe )?flash)\b|"
    r"\bbrowser (?:does not|doesn['’]t|cannot|can['’]t|is unable to) (?:seem to )?"
    r"(?:support|play|display)\b|"
    r"\bbest viewed (?:in|with|using)\b.{0,60}\bbrowser\b",
    re.I,
)
#: A browser notice is a sentence or two: a longer line that says so is about browsers.
BROWSER_NOTICE_MAX_WORDS = 40


def is_browser_notice(text: str) -> bool:
    """True for a line that is a browser notice (:data:`BROWSER_NOTICE_RE`, at most
    :data:`BROWSER_NOTICE_MAX_WORDS` words)."""
    # (Every notice names JavaScript, a browser or Flash, as written: three substring
    # tests spare the pattern on nearly every line. This runs on every line of a page.)
    return (
        ("cript" in text or "rowser" in text or "Flash" in text)
        and BROWSER_NOTICE_RE.search(text) is not None
        and len(text.split()) <= BROWSER_NOTICE_MAX_WORDS
    )


#: A form's or a thread's status notice, which the page shows in place of something
#: ("Thank you! Your submission has been received!", "Oops! Something went wrong while
#: submitting the form.", "This comment has been removed by the author."): never its text.
STATUS_NOTICE_RE = re.compile(
    r"^thank you[!.]? your (?:submission|message|form) has been (?:received|sent|submitted)\W*$|"
    r"^oops[!.]? something went wrong(?: while submitting the form)?\W*$|"
    r"^this (?:comment|post) has been (?:removed|deleted) by the (?:author|administrator)\W*$",
    re.I,
)


def is_status_notice(text: str) -> bool:
    """True for a line that is a form's or a thread's status notice
    (:data:`STATUS_NOTICE_RE`)."""
    # (Every notice holds one of these three substrings, the first letter of a sentence
    # capitalised or not: three substring tests spare the pattern on nearly every line.
    # This runs on every line of a page.)
    return ("ubmi" in text or "rong" in text or "by the" in text) and (
        STATUS_NOTICE_RE.match(text.strip()) is not None
    )


def is_notice(text: str) -> bool:
    """True for a notice of any length that is never a page's text: a rights notice
    (:func:`is_rights_notice`), a browser notice (:func:`is_browser_notice`) or a status
    notice (:func:`is_status_notice`). The one list of them: a new kind of notice is added
    here, and both the noise test and the sparing of prose see it."""
    return is_rights_notice(text) or is_browser_notice(text) or is_status_notice(text)


#: Noise words that mark a line as boilerplate even in a sentence
#: (``text/data/hard_noise_words.txt``, read as ``classify.HARD_NOISE_WORDS``).
HARD_NOISE = NoiseWords(HARD_NOISE_WORDS)
