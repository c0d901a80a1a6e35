"""The glossary's inline HTML turned into clean text with canonical symbol tokens.

The glossary draws game symbols as empty `<span class="nric-grey click">`
icons, lays action lists out as `<table>`s and continues numbered lists with
`<ol class="custom-ol" style="--start: 5;">`. We keep what a reader needs
(the symbol as its token, table rows as "cell | cell", list numbers) and drop
every tag, so no raw HTML can reach the text.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser

# icon class -> text. Icons that only mark a timing window (paid, rez) or
# decorate a title (unique) have no token and no words of their own: the
# sentence around them already says it, so they vanish.
ICON_TEXT = {
    "click": "[click]", "credit": "[c]", "re-credit": "[recurring]",
    "trash": "[trash]", "subroutine": "[sub]", "link": "[link]",
    "agenda": "[agenda]", "mu": "[mu]", "mu1": "1[mu]", "mu2": "2[mu]",
    "paid": "", "rez": "", "unique": "",
}
# The words some icons are followed by, in small caps ("2 [link] LINK"): a label, not text.
_ICON_LABELS = {"LINK", "CREDIT", "CREDITS", "CLICK", "MU"}

_BLOCK_TAGS = {"table", "tr", "ol", "ul", "li", "div", "p", "br"}


class _TextBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.cells: list[str] | None = None    # cells of the current table row
        self.cell: list[str] | None = None
        self.ol_next: list[int] = []           # next item number per open <ol>
        self.last_icon = False
        self.in_label_span = False

    # -- output helpers
    def emit(self, s: str) -> None:
        if self.cell is not None:
            self.cell.append(s)
        else:
            self.out.append(s)

    def newline(self) -> None:
        if self.cell is None:
            self.out.append("\n")

    # -- parser callbacks
    def handle_starttag(self, tag, attrs):
        attr = dict(attrs)
        classes = (attr.get("class") or "").split()
        if tag == "span" and "nric-grey" in classes:
            icon = next((c for c in classes if c != "nric-grey"), "")
            self.emit(ICON_TEXT.get(icon, ""))
            self.last_icon = True
            return
        if tag == "span" and "grey-font-b" in classes:
            self.in_label_span = True
            return
        self.last_icon = False if tag != "span" else self.last_icon
        if tag == "tr":
            self.newline()
            self.cells = []
        elif tag == "td" and self.cells is not None:
            self.cell = []
        elif tag == "ol":
            start = re.search(r"--start:\s*(\d+)", attr.get("style") or "")
            self.ol_next.append(int(start.group(1)) if start else 1)
            self.newline()
        elif tag == "li":
            self.newline()
            if self.ol_next:
                self.emit(f"{self.ol_next[-1]}. ")
                self.ol_next[-1] += 1
            else:
                self.emit("- ")
        elif tag in _BLOCK_TAGS:
            self.newline()

    def handle_endtag(self, tag):
        if tag == "span":
            self.in_label_span = False
        elif tag == "td" and self.cell is not None and self.cells is not None:
            self.cells.append(_inline("".join(self.cell)))
            self.cell = None
        elif tag == "tr" and self.cells is not None:
            self.out.append(" | ".join(self.cells))
            self.out.append("\n")
            self.cells = None
        elif tag == "ol" and self.ol_next:
            self.ol_next.pop()
            self.newline()
        elif tag in _BLOCK_TAGS:
            self.newline()

    def handle_data(self, data):
        if self.in_label_span and self.last_icon and data.strip().upper() in _ICON_LABELS:
            return
        if data.strip():
            self.last_icon = False
        # HTML collapses whitespace; block tags, not source newlines, break lines
        self.emit(re.sub(r"\s+", " ", data))


def _inline(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def html_to_text(fragment: str) -> str:
    """Text of a fragment of glossary markdown/HTML: tags gone, icons as tokens.

    Newlines inside a paragraph are kept as given; the caller decides how
    lines join. Block tags (rows, list items, <br>) start new lines.
    """
    b = _TextBuilder()
    b.feed(fragment)
    b.close()
    text = "".join(b.out)
    # a token glued to the previous word by the markup ("Gain 1[c]" is right,
    # "paid abilities [c]" keeps its space): only collapse doubled spaces.
    text = re.sub(r"[ \t]+", " ", text)
    lines = [ln.strip() for ln in text.split("\n")]
    return "\n".join(ln for ln in lines if ln)
