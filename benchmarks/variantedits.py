"""The edits that make ``htmlvariants``' near-duplicate variants of an article's page:
a date moved (:func:`redate_page`), an ad block added (:func:`ad_block`), a few words
changed (:func:`minor_edit`), 5-10 words swapped for synonyms (:func:`swap_synonyms`),
another URL (:func:`other_url`), the navigation swapped for another site's
(:func:`swap_boilerplate`), the sidebar box swapped for another site's
(:func:`swap_sidebar`), a cookie banner added (:func:`cookie_banner`), the article's body
swapped for another article's (:func:`swap_content`). Each edits a copy of the tree in
place and returns what it did, or None when the page allows no such edit. The word lists,
texts and sizes they use are here.
"""

from __future__ import annotations

import copy
import datetime as dt
import random
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import lxml.html
from lxml import etree

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from variantpage import (
    SKIPPED_TAGS,
    Edit,
    Source,
    body_of,
    drop,
    element_text,
    is_footer,
    is_skipped,
    share_in,
    shingles,
    words,
)

#: The sorts of each kind, reported apart.
DETAILS = {
    "timestamp": ("a date line changed", "date metas only"),
    "ad_block": ("ad line with a figure", "ad line without figures"),
    "url_only": ("tracking query", "amp path", "print path"),
    "minor_edit": ("a number changed", "words only"),
    "synonyms": ("",),
    "boilerplate": ("",),
    "sidebar": ("box replaced", "box inserted beside the article"),
    "cookie_banner": ("at the start of the body", "at the end of the body"),
    "content_swap": ("donor of the same site", "donor of another site"),
}
#: A content swap leaves at most this share of the template article's truth 4-grams ...
SWAP_LEFTOVER_MAX = 0.2
#: ... and carries at least this share of the donor's.
SWAP_DONOR_MIN = 0.6
#: A boilerplate swap keeps at least this share of the article's truth 4-grams.
KEEP_TRUTH_MIN = 0.8
#: Words changed by a minor edit (one per paragraph), and the paragraphs' least length.
EDITS_MIN, EDITS_MAX = 3, 5
EDIT_MIN_WORDS = 8
#: Words swapped for synonyms by :func:`swap_synonyms` (the stability benchmark's "5-10
#: words"), one a paragraph in turn, more where the article has fewer such paragraphs.
SYNONYM_SWAPS = (5, 10)
#: The sidebar box taken from a donor: the one with most words within these bounds.
SIDEBAR_WORDS = (15, 400)
#: A timestamp moves by this many days, either way.
DATE_SHIFT_DAYS = (1, 400)
#: A date line: a text whose element holds at most this many characters.
DATE_LINE_CHARS = 200
DATE_META_RE = re.compile(r"(published|modified|updated|date|time)", re.I)
MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH = (
    r"(?P<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_YEAR = r"(?P<year>(?:19|20)\d\d)"
DATE_RES = (
    re.compile(rf"\b{_MONTH}\.?\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+{_YEAR}\b", re.I),
    re.compile(rf"\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+{_MONTH}\.?,?\s+{_YEAR}\b", re.I),
    re.compile(rf"\b{_YEAR}-(?P<mnum>\d\d)-(?P<day>\d\d)\b"),
    re.compile(rf"\b{_YEAR}/(?P<mnum>\d\d)/(?P<day>\d\d)\b"),
    re.compile(rf"\b(?P<mnum>\d{{1,2}})/(?P<day>\d{{1,2}})/{_YEAR}\b"),
)
#: One-word replacements of a minor edit (both ways where it reads).
SYNONYMS = {
    "said": "stated",
    "says": "states",
    "told": "informed",
    "big": "large",
    "large": "big",
    "small": "little",
    "new": "recent",
    "many": "numerous",
    "people": "individuals",
    "help": "assist",
    "show": "display",
    "shows": "displays",
    "start": "begin",
    "started": "began",
    "make": "create",
    "made": "created",
    "important": "significant",
    "get": "obtain",
    "buy": "purchase",
    "use": "employ",
    "used": "employed",
    "need": "require",
    "think": "believe",
    "often": "frequently",
    "quickly": "rapidly",
    "very": "really",
    "about": "around",
    "after": "following",
    "company": "firm",
    "companies": "firms",
    "city": "town",
    "because": "since",
    "but": "yet",
    "first": "initial",
    "last": "final",
    "major": "key",
    "best": "finest",
    "good": "fine",
    "great": "terrific",
    "hard": "difficult",
    "whole": "entire",
    "almost": "nearly",
    "maybe": "perhaps",
    "home": "house",
    "children": "kids",
    "job": "position",
    "problem": "issue",
    "problems": "issues",
    "report": "study",
    "reports": "studies",
    "week": "fortnight",
    "month": "quarter",
    "increase": "rise",
    "decline": "drop",
}
SYNONYM_RE = re.compile(r"\b(" + "|".join(SYNONYMS) + r")\b", re.I)
NUMBER_RE = re.compile(r"(?<![\d.,/:-])\d{1,4}(?![\d/:])")
AD_SIZES = ((728, 90), (300, 250), (468, 60), (970, 250))
AD_LINES = (
    "Sponsored: Compare this year's best mortgage rates in two minutes.",
    "Sponsored: The one gadget every home office needs - now 40% off.",
    "Sponsored: Doctors are stunned by this simple morning routine.",
    "Sponsored: Book your summer getaway today and save up to 30%.",
    "Sponsored: Learn a new language in 15 minutes a day. Try it free.",
)
URL_TAILS = ("query", "amp", "print")
#: A cookie banner's consent text, 1-3 sentences; ``{policy}`` is the privacy-policy link
#: (added at the end of a text that has none).
COOKIE_TEXTS = (
    "We use cookies to give you the best experience on our website. By continuing to "
    "browse, you agree to our use of cookies.",
    "This site uses cookies and similar technologies to remember your preferences, measure "
    "traffic and personalise the ads you see. You can change your choices at any time. "
    "Learn more in our {policy}.",
    "We and our partners store and access information on your device, such as cookies, and "
    "process personal data like unique identifiers for personalised ads and content, ad and "
    "content measurement and audience insights. Click Accept to consent or Reject to "
    "decline non-essential cookies.",
    "Cookies help us deliver our services. By clicking Accept, you consent to the storing of "
    "cookies on your device to enhance site navigation and analyse site usage. See our "
    "{policy} for details.",
)
COOKIE_BUTTONS = (("Accept", "Reject"), ("Accept all", "Reject all"), ("I agree", "Decline"))
COOKIE_POLICY = '<a href="/privacy-policy" class="cookie-banner-link">privacy policy</a>'


# -- dates ----------------------------------------------------------------------------------


def _date_of(match: re.Match[str]) -> dt.date | None:
    groups = match.groupdict()
    try:
        year, day = int(groups["year"]), int(groups["day"])
        if groups.get("month"):
            month = 1 + next(
                i for i, m in enumerate(MONTHS) if m.startswith(groups["month"][:3].lower())
            )
        else:
            month = int(groups["mnum"])
        if groups.get("mnum") and month > 12 and day <= 12:  # d/m/Y
            month, day = day, month
        return dt.date(year, month, day)
    except (ValueError, StopIteration):
        return None


def _month_name(original: str, month: int) -> str:
    full = MONTHS[month - 1]
    name = full if original.lower() in MONTHS else full[:3]
    if original.isupper() and len(original) > 1:
        return name.upper()
    return name.capitalize() if original[:1].isupper() else name


def _redate(match: re.Match[str], new: dt.date) -> str:
    """The matched date written as ``new`` in the same format."""
    groups = match.groupdict()
    # A numeric date whose month field is over 12 is day first (see _date_of).
    day_first = groups.get("mnum") is not None and int(groups["mnum"]) > 12
    values = {
        "year": str(new.year),
        "day": str(new.month if day_first else new.day),
        "mnum": str(new.day if day_first else new.month),
    }
    text, start = match.group(0), match.start()
    spans = []
    for name, original in groups.items():
        if original is None:
            continue
        if name == "month":
            value = _month_name(original, new.month)
        else:
            value = values[name].zfill(len(original))
        spans.append((match.start(name) - start, match.end(name) - start, value))
    for begin, end, value in sorted(spans, reverse=True):
        text = text[:begin] + value + text[end:]
    return text


def _find_dates(text: str) -> list[tuple[re.Match[str], dt.date]]:
    """The dates in ``text``, in order, none overlapping another (the first pattern wins)."""
    found: list[tuple[re.Match[str], dt.date]] = []
    for pattern in DATE_RES:
        for match in pattern.finditer(text):
            date = _date_of(match)
            overlaps = any(match.start() < m.end() and m.start() < match.end() for m, _ in found)
            if date is not None and not overlaps:
                found.append((match, date))
    return sorted(found, key=lambda m: m[0].start())


def _replace_date(text: str, old: dt.date, new: dt.date) -> tuple[str, int]:
    """``text`` with every date equal to ``old`` written as ``new``; and how many."""
    count = 0
    for match, date in reversed(_find_dates(text)):
        if date == old:
            text = text[: match.start()] + _redate(match, new) + text[match.end() :]
            count += 1
    return text, count


def _text_slots(
    root: lxml.html.HtmlElement,
) -> Iterable[tuple[etree._Element, str, etree._Element]]:
    """(element, "text" or "tail", the element the text belongs to) for the body's text
    nodes, in document order, outside scripts and styles."""
    for el in body_of(root).iter():
        if not isinstance(el.tag, str) or el.tag in SKIPPED_TAGS or is_skipped(el):
            continue
        if el.text:
            yield el, "text", el
        parent = el.getparent()
        if el.tail and parent is not None:
            yield el, "tail", parent


def _date_metas(root: lxml.html.HtmlElement) -> list[etree._Element]:
    metas = []
    for meta in root.iter("meta"):
        name = meta.get("property") or meta.get("name") or meta.get("itemprop") or ""
        if DATE_META_RE.search(name) and meta.get("content"):
            metas.append(meta)
    return metas


def redate_page(root: lxml.html.HtmlElement, rng: random.Random) -> Edit | None:
    """Move the page's first date (a short line's, else a ``<time>``'s, else a date meta's)
    wherever it stands; None when the page has no date."""
    lines = [
        (el, slot)
        for el, slot, owner in _text_slots(root)
        if len(element_text(owner)) <= DATE_LINE_CHARS
    ]
    times = list(root.iter("time"))
    metas = _date_metas(root)
    target: dt.date | None = None
    for el, slot in lines:
        found = _find_dates(getattr(el, slot))
        if found:
            target = found[0][1]
            break
    if target is None:
        for holder in [*times, *metas]:
            for value in (holder.get("datetime") or "", holder.get("content") or ""):
                found = _find_dates(value)
                if found:
                    target = found[0][1]
                    break
            if target is not None:
                break
    if target is None:
        return None
    shift = rng.randint(*DATE_SHIFT_DAYS) * rng.choice((-1, 1))
    new = target + dt.timedelta(days=shift)
    visible = 0
    for el, slot in lines:
        text, count = _replace_date(getattr(el, slot), target, new)
        if count:
            setattr(el, slot, text)
            visible += count
    for holder in [*times, *metas]:
        for attribute in ("datetime", "content"):
            value = holder.get(attribute)
            if value:
                holder.set(attribute, _replace_date(value, target, new)[0])
    detail = DETAILS["timestamp"][0 if visible else 1]
    return Edit(f"{target} -> {new}, {visible} in text", detail)


def ad_block(root: lxml.html.HtmlElement, src: Source, rng: random.Random) -> Edit | None:
    if not src.parts.paragraphs:
        return None
    elements = list(root.iter())
    after = elements[src.parts.paragraphs[min(1, len(src.parts.paragraphs) - 1)]]
    width, height = rng.choice(AD_SIZES)
    creative = rng.randrange(10**5, 10**6)
    line = rng.choice(AD_LINES)
    slot = lxml.html.fragment_fromstring(
        f'<div class="ad-slot ad-{width}x{height}" data-ad-unit="article-inline">'
        '<span class="ad-label">Advertisement</span>'
        f'<a href="https://click.adnetwork-example.com/c?cr={creative}" rel="sponsored nofollow">'
        f'<img src="https://cdn.adnetwork-example.com/creatives/{creative}/banner-{width}x{height}.jpg"'
        f' width="{width}" height="{height}" alt="Advertisement"></a>'
        f'<p class="ad-text">{line}</p></div>'
    )
    after.addnext(slot)
    detail = DETAILS["ad_block"][0 if any(c.isdigit() for c in line) else 1]
    return Edit(f"{width}x{height}: {line}", detail)


def minor_edit(root: lxml.html.HtmlElement, src: Source, rng: random.Random) -> Edit | None:
    elements = list(root.iter())
    paragraphs = [
        elements[i]
        for i in src.parts.paragraphs
        if len(words(element_text(elements[i]))) >= EDIT_MIN_WORDS
    ]
    rng.shuffle(paragraphs)
    wanted = rng.randint(EDITS_MIN, EDITS_MAX)
    edits: list[str] = []
    for paragraph in paragraphs:
        if len(edits) == wanted:
            break
        slots = _paragraph_slots(paragraph)
        options = [
            (el, slot, match)
            for el, slot in slots
            for pattern in (SYNONYM_RE, NUMBER_RE)
            for match in pattern.finditer(getattr(el, slot))
        ]
        if not options:
            continue
        el, slot, match = rng.choice(options)
        old = match.group(0)
        if old.isdigit():
            new = str(int(old) + rng.randint(1, 9))
        else:
            new = SYNONYMS[old.lower()]
            new = new.capitalize() if old[:1].isupper() else new
        text = getattr(el, slot)
        setattr(el, slot, text[: match.start()] + new + text[match.end() :])
        edits.append(f"{old}->{new}")
    if len(edits) < EDITS_MIN:
        return None
    numbers = any(edit.split("->")[0].isdigit() for edit in edits)
    return Edit(", ".join(edits), DETAILS["minor_edit"][0 if numbers else 1])


def _paragraph_slots(paragraph: etree._Element) -> list[tuple[etree._Element, str]]:
    """The text slots of a paragraph that hold text: (element, "text" or "tail"), the
    paragraph's own tail left out."""
    return [
        (el, slot)
        for el in paragraph.iter()
        if isinstance(el.tag, str)
        for slot in ("text", "tail")
        if (slot == "text" or el is not paragraph) and getattr(el, slot)
    ]


def _word_options(
    paragraph: etree._Element,
) -> list[tuple[etree._Element, str, re.Match[str]]]:
    """The synonym-list words of a paragraph: (element, "text" or "tail", match)."""
    slots = _paragraph_slots(paragraph)
    return [(el, slot, m) for el, slot in slots for m in SYNONYM_RE.finditer(getattr(el, slot))]


def swap_synonyms(root: lxml.html.HtmlElement, src: Source, rng: random.Random) -> Edit | None:
    """5-10 words (:data:`SYNONYM_SWAPS`) of the article's paragraphs replaced by their
    synonyms, one a paragraph in turn (a seeded order); None when the article has fewer
    than the least of such words."""
    elements = list(root.iter())
    options = []
    for i in src.parts.paragraphs:
        if len(words(element_text(elements[i]))) >= EDIT_MIN_WORDS:
            found = _word_options(elements[i])
            rng.shuffle(found)
            if found:
                options.append(found)
    rng.shuffle(options)
    wanted = rng.randint(*SYNONYM_SWAPS)
    picked: list[tuple[etree._Element, str, re.Match[str]]] = []
    while len(picked) < wanted and any(options):
        for found in options:
            if found and len(picked) < wanted:
                picked.append(found.pop())
    if len(picked) < SYNONYM_SWAPS[0]:
        return None
    edits = []
    for *_, match in picked:
        old = match.group(0)
        new = SYNONYMS[old.lower()]
        edits.append(f"{old}->{new.capitalize() if old[:1].isupper() else new}")
    # Right to left within a text, so that the matches' offsets stay true.
    for el, slot, match in sorted(picked, key=lambda o: -o[2].start()):
        old, text = match.group(0), getattr(el, slot)
        new = SYNONYMS[old.lower()]
        new = new.capitalize() if old[:1].isupper() else new
        setattr(el, slot, text[: match.start()] + new + text[match.end() :])
    return Edit(", ".join(edits), DETAILS["synonyms"][0])


def other_url(url: str | None, rng: random.Random) -> Edit | None:
    """Another URL of the page's site (the note): a tracking query, or an amp or print path."""
    if not url:
        return None
    parts = urlsplit(url)
    which = rng.randrange(len(URL_TAILS))
    tail = URL_TAILS[which]
    if tail == "query":
        extra = "utm_source=newsletter&utm_medium=email&utm_campaign=daily"
        query = f"{parts.query}&{extra}" if parts.query else extra
        new = urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))
    else:
        path = parts.path.rstrip("/")
        new = urlunsplit((parts.scheme, parts.netloc, f"{path}/{tail}/", parts.query, ""))
    return Edit(new, DETAILS["url_only"][which])


def swap_boilerplate(root: lxml.html.HtmlElement, src: Source, donor: Source) -> Edit | None:
    if not src.parts.furniture or not donor.parts.furniture:
        return None
    elements = list(root.iter())
    donor_elements = list(donor.root.iter())
    for i in src.parts.furniture:
        drop(elements[i])
    body = body_of(root)
    tops = [copy.deepcopy(donor_elements[i]) for i in donor.parts.furniture]
    heads = [el for el in tops if not is_footer(el)]
    for offset, el in enumerate(heads):
        el.tail = None
        body.insert(offset, el)
    for el in tops:
        if is_footer(el):
            el.tail = None
            body.append(el)
    kept = share_in(src.parts.truth, shingles(body.text_content()))
    if kept < KEEP_TRUTH_MIN:
        return None
    site = donor.article.page.site
    return Edit(f"{len(src.parts.furniture)} -> {len(tops)} elements of {site}", "")


def sidebar_box(src: Source) -> int | None:
    """The position of ``src``'s sidebar box a donor gives: the one with most words within
    :data:`SIDEBAR_WORDS`; None when it has none."""
    low, high = SIDEBAR_WORDS
    sized = zip(src.parts.sidebar_words, src.parts.sidebars, strict=True)
    fit = [(n, -i) for n, i in sized if low <= n <= high]
    return -max(fit)[1] if fit else None


def swap_sidebar(root: lxml.html.HtmlElement, src: Source, donor: Source) -> Edit | None:
    """The page's sidebar box with most words replaced by the donor's (:func:`sidebar_box`),
    or, when the page has none, the donor's inserted beside the article's region; None
    when the donor has no box or the page keeps under :data:`KEEP_TRUTH_MIN` of its truth."""
    given = sidebar_box(donor)
    if given is None:
        return None
    box = copy.deepcopy(list(donor.root.iter())[given])
    box.tail = None
    elements = list(root.iter())
    if src.parts.sidebars:
        _, old = max(zip(src.parts.sidebar_words, src.parts.sidebars, strict=True))
        elements[old].addprevious(box)
        drop(elements[old])
        detail = DETAILS["sidebar"][0]
    else:
        anchor = elements[src.parts.region] if src.parts.region is not None else None
        if anchor is None or anchor.tag in ("html", "body"):
            anchor = elements[src.parts.blocks[-1]] if src.parts.blocks else None
        if anchor is None:
            body_of(root).append(box)
        else:
            anchor.addnext(box)
        detail = DETAILS["sidebar"][1]
    if share_in(src.parts.truth, shingles(body_of(root).text_content())) < KEEP_TRUTH_MIN:
        return None
    n = len(words(box.text_content()))
    return Edit(f"{n} words, a {box.tag} of {donor.article.page.site}", detail)


def cookie_banner(root: lxml.html.HtmlElement, rng: random.Random) -> Edit | None:
    """A fixed-position cookie-consent banner (one of :data:`COOKIE_TEXTS`, a privacy-policy
    link, Accept and Reject buttons) at the start or the end of the body."""
    which = rng.randrange(len(COOKIE_TEXTS))
    text = COOKIE_TEXTS[which]
    if "{policy}" not in text:
        text += " Read our {policy}."
    accept, reject = rng.choice(COOKIE_BUTTONS)
    at_start = rng.random() < 0.5
    edge = "top" if at_start else "bottom"
    banner = lxml.html.fragment_fromstring(
        '<div id="cookie-consent" class="cookie-banner" role="dialog" '
        f'aria-label="Cookie consent" style="position: fixed; {edge}: 0; left: 0; right: 0; '
        'z-index: 99999">'
        f'<p class="cookie-banner-text">{text.format(policy=COOKIE_POLICY)}</p>'
        '<div class="cookie-banner-buttons">'
        f'<button type="button" class="cookie-accept">{accept}</button>'
        f'<button type="button" class="cookie-reject">{reject}</button></div></div>'
    )
    body = body_of(root)
    if at_start:
        body.insert(0, banner)
    else:
        body.append(banner)
    detail = DETAILS["cookie_banner"][0 if at_start else 1]
    return Edit(f"text {which}, {accept}/{reject}", detail)


def swap_content(root: lxml.html.HtmlElement, src: Source, donor: Source) -> Edit | None:
    if not src.parts.blocks or not donor.parts.blocks:
        return None
    if donor.parts.donor_share < SWAP_DONOR_MIN:
        return None
    elements = list(root.iter())
    donor_elements = list(donor.root.iter())
    first = elements[src.parts.blocks[0]]
    marker = etree.Element("span")
    first.addprevious(marker)
    for i in src.parts.blocks:
        drop(elements[i])
    for i in donor.parts.blocks:
        el = copy.deepcopy(donor_elements[i])
        el.tail = "\n"
        marker.addprevious(el)
    drop(marker)
    if src.parts.headline is not None and donor.parts.headline is not None:
        head = elements[src.parts.headline]
        if head.getroottree().getroot() is root:  # (not inside a block dropped)
            for child in list(head):
                head.remove(child)
            head.text = element_text(donor_elements[donor.parts.headline])
    text = shingles(body_of(root).text_content())
    own = src.parts.truth - donor.parts.truth
    if (
        share_in(own, text) > SWAP_LEFTOVER_MAX
        or share_in(donor.parts.truth, text) < SWAP_DONOR_MIN
    ):
        return None
    same = donor.article.page.site == src.article.page.site
    detail = DETAILS["content_swap"][0 if same else 1]
    return Edit(f"body of {donor.article.page.set_name}:{donor.article.page.id}", detail)
