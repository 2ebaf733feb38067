"""Secrets out of what a person reads: URLs and messages before they reach a log line, an
error, a stat or a ``repr``.

A configured URL (``REDIS_URL``, a filter list's URL, a proxy) may carry a password in its
user-info (``redis://:hunter2@host:6379/0``) or a token in its query
(``?password=...``, ``?access_token=...``). :func:`redact_url` replaces both with
:data:`MASK`; :func:`redact_text` does it to every URL inside a message, and can also mask
known secret values (a password given in ``REDIS_PARAMS``) wherever they appear.
Nothing here needs a URL to be valid: what cannot be parsed is masked, not shown.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import unquote

#: What a secret is replaced with.
MASK = "***"

#: Query (and fragment) parameter names whose values are secrets. A name matches when it
#: is one of these, or ends with ``_`` and one of these (``client_secret``,
#: ``X-Amz-Signature``), compared in lower case with ``-`` read as ``_``.
SECRET_NAMES = (
    "password",
    "passwd",
    "pass",
    "pwd",
    "token",
    "access_token",
    "api_key",
    "apikey",
    "key",
    "secret",
    "auth",
    "sig",
    "signature",
    "credential",
    "credentials",
)
_SECRET_NAMES = frozenset(SECRET_NAMES)

#: ``scheme://`` at the start of a URL (RFC 3986 scheme characters).
_SCHEME_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*+://")
#: The authority (``user:password@host:port``): up to the first ``/``, ``?``, ``#`` or
#: ``\`` (as browsers and redis-py read it).
_AUTHORITY_RE = re.compile(r"[^/?#\\]*+")
#: A URL inside free text: a scheme, ``//`` and everything up to a space or a quote.
_URL_IN_TEXT_RE = re.compile(r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]*+://[^\s'\"<>]++")
#: What separates the ``name=value`` pairs of a query or fragment.
_PARAM_SEPARATOR_RE = re.compile(r"([&;])")
#: ``host:port`` or ``[v6]:port`` (or a host alone) with a port that is a port.
_HOST_PORT_RE = re.compile(r"(?:\[[^\]]*+\]|[^\[\]:]*+)(?::[0-9]*+)?")


def is_secret_name(name: str) -> bool:
    """True when a parameter (or setting) called ``name`` holds a secret (see
    :data:`SECRET_NAMES`)."""
    key = unquote(name).strip().lower().replace("-", "_")
    return key in _SECRET_NAMES or any(key.endswith("_" + word) for word in _SECRET_NAMES)


def _redact_params(params: str) -> str:
    """A query or fragment with the values of secret-named parameters masked."""

    # (split, not searched: a pattern searched for ``name=value`` rescans a query that
    # has no ``=`` from every place, quadratic in its length)
    parts = _PARAM_SEPARATOR_RE.split(params)
    for index in range(0, len(parts), 2):
        name, equals, value = parts[index].partition("=")
        if equals and value and is_secret_name(name):
            parts[index] = f"{name}={MASK}"
    return "".join(parts)


def redact_url(url: str) -> str:
    """``url`` with its user-info (``user:password@``) replaced by ``***@`` and the values
    of secret-named query and fragment parameters by ``***``; a URL without either comes
    back unchanged, character for character.

    A password written with an unescaped ``/``, ``?`` or ``#`` ends the authority early
    (``redis://:pa/ss@host``): when the authority has a ``:`` and no ``@`` but the URL has
    an ``@`` further on, everything up to that last ``@`` is masked; when what follows
    ``host:`` is not a port, it is masked. Masking too much is the safe side."""
    match = _SCHEME_RE.match(url)
    if match is None:
        # No ``scheme://``: a path (a filter list on disk) or a bare ``host:port``.
        return _redact_tail(url, 0)
    start = match.end()
    authority_match = _AUTHORITY_RE.match(url, start)
    assert authority_match is not None  # (it matches the empty string)
    end = authority_match.end()
    authority = authority_match.group(0)
    at = authority.rfind("@")
    if at >= 0:
        authority = MASK + authority[at:]
    elif ":" in authority:
        last_at = url.rfind("@")
        if last_at >= end:
            return url[:start] + MASK + _redact_tail(url, last_at)
    host_port = authority[len(MASK) + 1 :] if at >= 0 else authority
    if _HOST_PORT_RE.fullmatch(host_port) is None:
        kept = host_port[: host_port.rfind(":") + 1] if ":" in host_port else ""
        authority = authority[: len(authority) - len(host_port)] + kept + MASK
    return url[:start] + authority + _redact_tail(url, end)


def _redact_tail(url: str, start: int) -> str:
    """``url[start:]`` with its query's and fragment's secret values masked."""
    tail = url[start:]
    query = tail.find("?")
    fragment = tail.find("#")
    if fragment >= 0 and (query < 0 or fragment < query):
        return tail[: fragment + 1] + _redact_params(tail[fragment + 1 :])
    if query < 0:
        return tail
    if fragment < 0:
        return tail[: query + 1] + _redact_params(tail[query + 1 :])
    return (
        tail[: query + 1]
        + _redact_params(tail[query + 1 : fragment])
        + "#"
        + _redact_params(tail[fragment + 1 :])
    )


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` (a message, an exception's text) with every URL in it redacted
    (:func:`redact_url`) and every occurrence of each of ``secrets`` (known secret values:
    a password given apart from the URL) replaced by ``***``."""
    text = _URL_IN_TEXT_RE.sub(lambda m: redact_url(m.group(0)), text)
    for secret in sorted({s for s in secrets if s}, key=len, reverse=True):
        text = text.replace(secret, MASK)
    return text


def secret_values(params: Mapping[str, Any]) -> tuple[str, ...]:
    """The string values of the secret-named entries of ``params`` (a client's keyword
    arguments, such as ``REDIS_PARAMS = {"password": ...}``), to pass to
    :func:`redact_text`."""
    return tuple(
        value.decode("utf-8", "replace") if isinstance(value, bytes) else value
        for name, value in params.items()
        if is_secret_name(str(name)) and isinstance(value, str | bytes) and value
    )


def redact_value(value: Any) -> Any:
    """A setting's value as it may be shown (a settings summary, a :class:`SettingError`):
    a string through :func:`redact_text`, a mapping with the values of its secret-named
    keys masked and the others redacted, a list or tuple item by item; anything else as
    it is."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, Mapping):
        return {
            key: MASK if is_secret_name(str(key)) and value[key] else redact_value(value[key])
            for key in value
        }
    if isinstance(value, list | tuple):
        return type(value)(redact_value(item) for item in value)
    return value
