"""A table session in a link: the scenario text, zlib-compressed and base64url-encoded (no padding).

The link carries the whole session (board, card definitions, the decisions made so far), so the server
keeps nothing. Both directions are bounded: a packed link is at most MAX_PACKED characters of base64,
and unpacking never inflates more than MAX_TEXT bytes (a zip bomb stops at the limit, it is not
inflated whole and then measured). The builder (`/replay/new`) packs with the same functions.
"""
from __future__ import annotations

import base64
import binascii
import re
import zlib

MAX_PACKED = 24 * 1024          # characters of the `s` parameter
MAX_TEXT = 48 * 1024            # bytes of scenario text once inflated
_BASE64URL = re.compile(r"^[A-Za-z0-9_-]*$")


class SessionLinkError(ValueError):
    """A link that does not carry a session: too long, not base64url, not zlib, too large, not UTF-8."""


def pack(text: str) -> str:
    """The `s` parameter for a scenario text; SessionLinkError when the text or the link is too large."""
    raw = text.encode("utf-8")
    if len(raw) > MAX_TEXT:
        raise SessionLinkError(f"the scenario is too large to share: {len(raw) // 1024} KiB, "
                               f"at most {MAX_TEXT // 1024} KiB")
    packed = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")
    if len(packed) > MAX_PACKED:
        raise SessionLinkError(f"the scenario is too large to share: its link would be {len(packed) // 1024} KiB, "
                               f"at most {MAX_PACKED // 1024} KiB")
    return packed


def unpack(packed: str) -> str:
    """The scenario text of an `s` parameter, or SessionLinkError saying what is wrong with it."""
    if not packed:
        raise SessionLinkError("the link carries no session (the `s` parameter is empty)")
    if len(packed) > MAX_PACKED:
        raise SessionLinkError(f"the session link is too long: at most {MAX_PACKED // 1024} KiB")
    if not _BASE64URL.match(packed):
        raise SessionLinkError("the session link is damaged: it is not base64url text "
                               "(was it cut or changed when copied?)")
    try:
        data = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
    except (binascii.Error, ValueError):
        raise SessionLinkError("the session link is damaged: it is not base64url text") from None
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(data, MAX_TEXT + 1)
    except zlib.error:
        raise SessionLinkError("the session link is damaged: its data is not compressed as a session is") from None
    if len(raw) > MAX_TEXT or inflater.unconsumed_tail:
        raise SessionLinkError(f"the session is too large: a scenario can be at most {MAX_TEXT // 1024} KiB")
    if not inflater.eof:
        raise SessionLinkError("the session link is cut short: its compressed data ends early")
    if inflater.unused_data:
        raise SessionLinkError("the session link is damaged: data follows the compressed session")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SessionLinkError("the session link is damaged: the scenario is not UTF-8 text") from None


__all__ = ["MAX_PACKED", "MAX_TEXT", "SessionLinkError", "pack", "unpack"]
