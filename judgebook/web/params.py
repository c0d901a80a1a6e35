"""Query and path parameters, made safe before anything looks at them."""
from __future__ import annotations

import re

from flask import request

MAX_QUERY = 500
MAX_ID = 300
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def text_arg(name: str, max_len: int = MAX_QUERY) -> str:
    """A query-string value: control characters dropped, cut to `max_len`."""
    raw = request.args.get(name, "", type=str) or ""
    return _CONTROL.sub(" ", raw[: max_len * 2])[:max_len].strip()


def int_arg(name: str, default: int, low: int, high: int) -> int:
    try:
        value = int(request.args.get(name, default))
    except (TypeError, ValueError):
        return default
    return max(low, min(high, value))


def plausible_id(section_id: str) -> bool:
    """Ids are looked up in a dict, never on disk; still, refuse what no id can be."""
    return (0 < len(section_id) <= MAX_ID and not _CONTROL.search(section_id)
            and ".." not in section_id.split("/") and "\\" not in section_id)
