"""The one error a parser raises when a document is not what it expects."""
from __future__ import annotations


class ParseError(Exception):
    """A malformed or unexpected document: names the file, the line and what was expected."""

    def __init__(self, file: str, line: int, expected: str, found: str = ""):
        self.file, self.line, self.expected, self.found = file, line, expected, found
        where = f"{file}:{line}" if line else file
        msg = f"{where}: expected {expected}"
        if found:
            msg += f", found {found[:80]!r}"
        super().__init__(msg)
