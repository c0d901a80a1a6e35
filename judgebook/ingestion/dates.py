"""Who ruled and when: the 1996 rulings' attributions and their dates.

Attributions come in a handful of shapes:
  (Tom Wylie 11/12/99)                      name and date, no comma
  (Sparky, Netrunner-L, 4/19/96)            name, channel, date
  (Tom Wylie via JD Wiker, Netrunner-L, 3/11/96)   relayed by someone
  (Sparky on Executive Extraction, Netrunner-L, 6/25/96)  ruled on another card
  (Sparky, Netrunner-L, 11/18/96; Tom Wylie, 8/26/97)     several sources
  (Sensei, 11-03-2000)                      European day-month-year with dashes
Slash dates are American month/day/year unless the first number cannot be a
month ("15/02/00"); dash dates are day-month-year, as the TRC editor wrote them
("On 18-02-2000 Holger Janssen was named TRC Rules Sensei").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

DATE = re.compile(r"\b(\d{1,2})([/-])(\d{1,2})\2(\d{4}|\d{2})\b")
# a parenthesised group is an attribution when it names the list or carries a date
_ATTRIBUTION_HINT = re.compile(r"Netrunner-L|NR-L|\d{1,2}[/-]\d{1,2}[/-]\d{2,4}")


@dataclass(frozen=True)
class Attribution:
    who: str
    date: str = ""                       # ISO, "" when undated
    extra: tuple[tuple[str, str], ...] = ()
    raw: str = ""


def iso_date(token: str) -> str:
    """"4/19/96" -> "1996-04-19", "15/02/00" -> "2000-02-15", "18-02-2000" -> "2000-02-18".

    Raises ValueError for a token that is not a real date.
    """
    m = DATE.fullmatch(token.strip())
    if not m:
        raise ValueError(f"not a date: {token!r}")
    a, sep, b, y = int(m.group(1)), m.group(2), int(m.group(3)), m.group(4)
    year = int(y) if len(y) == 4 else (1900 + int(y) if int(y) >= 50 else 2000 + int(y))
    if sep == "-" or a > 12:
        day, month = a, b
    else:
        month, day = a, b
    return date(year, month, day).isoformat()     # ValueError on 2/30, 13/13


def looks_like_attribution(inner: str) -> bool:
    return bool(_ATTRIBUTION_HINT.search(inner))


def parse_attribution(inner: str) -> Attribution:
    """The text inside the parentheses -> who, ISO date and the rest as extra facts.

    Raises ValueError when a date in it is not a real date.
    """
    parts = [p.strip() for p in inner.split(";") if p.strip()]
    parsed = [_part(p) for p in parts]
    primary = next((k for k, p in enumerate(parsed) if p.date), 0)
    who, when, extra = parsed[primary].who, parsed[primary].date, list(parsed[primary].extra)
    extra += [("also", parts[k]) for k in range(len(parts)) if k != primary]
    return Attribution(who, when, tuple(extra), inner.strip())


def _part(part: str) -> Attribution:
    items = [i.strip() for i in part.split(",") if i.strip()]
    when = ""
    if items:
        m = DATE.search(items[-1])
        if m and DATE.fullmatch(items[-1][m.start():].strip()):
            when = iso_date(m.group(0))
            rest = items[-1][:m.start()].strip()
            items = items[:-1] + ([rest] if rest else [])
    if not items:
        return Attribution("", when)
    who, extra = _who(items[0])
    extra += [("via", i) for i in items[1:]]
    return Attribution(who, when, tuple(extra))


def _who(name: str) -> tuple[str, list[tuple[str, str]]]:
    extra: list[tuple[str, str]] = []
    m = re.match(r"^(.*?) via (.+)$", name)
    if m:
        name, extra = m.group(1), [("relayed_by", m.group(2).strip())]
    m = re.match(r"^(.*?) on (.+)$", name)
    if m:
        name, extra = m.group(1), extra + [("ruled_on", m.group(2).strip())]
    return name.strip().rstrip("!"), extra
