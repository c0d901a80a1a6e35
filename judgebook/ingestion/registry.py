"""Parser name (as the manifest says it) -> parse function.

Parsers are imported plainly: a renamed or broken parser fails at import,
never as a document silently left out. A manifest naming a parser that does
not exist is a build error naming it. Each manifest file is parsed once even
when several documents share it (the 1996 file).
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from judgebook.ingestion import cr_markdown, cr_pdf_text, ffg_wiki, glossary_jekyll, onr1996
from judgebook.ingestion.errors import ParseError
from judgebook.ingestion.manifest import ManifestEntry
from judgebook.model import Section

ParseFn = Callable[[str, str, str], list[Section]]

PARSERS: dict[str, ParseFn] = {
    "cr_pdf_text": cr_pdf_text.parse,
    "cr_markdown": cr_markdown.parse,
    "glossary_jekyll": glossary_jekyll.parse,
    "ffg_wiki": ffg_wiki.parse,
    "onr1996": onr1996.parse,
}


class ParserMissing(Exception):
    pass


def parser_for(name: str) -> ParseFn:
    parse = PARSERS.get(name)
    if parse is None:
        raise ParserMissing(f"unknown parser {name!r} (known: {', '.join(sorted(PARSERS))})")
    return parse


@dataclass(frozen=True)
class FileJob:
    """One source file and the manifest documents it holds."""
    file: str                         # path relative to the source folder
    entries: tuple[ManifestEntry, ...]

    @property
    def parser(self) -> str:
        return self.entries[0].document.parser


def group_by_file(entries: list[ManifestEntry]) -> list[FileJob]:
    groups: OrderedDict[str, list[ManifestEntry]] = OrderedDict()
    for e in entries:
        groups.setdefault(e.document.source, []).append(e)
    jobs = []
    for file, members in groups.items():
        parsers = {m.document.parser for m in members}
        if len(parsers) > 1:
            raise ParseError("manifest.toml", members[1].line,
                             f"one parser for {file} (found {', '.join(sorted(parsers))})")
        jobs.append(FileJob(file, tuple(members)))
    return jobs


def read_text(path, name: str) -> str:
    """The file as UTF-8 text; a byte that is not UTF-8 is reported with its line."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ParseError(name, line, "UTF-8 text", repr(data[exc.start:exc.start + 8])) from None


def parse_job(job: FileJob, parse: ParseFn | None = None) -> list[Section]:
    """Parse one file and keep the sections of the documents the manifest lists for it.

    The first document's key is passed as `doc`; a multi-document parser
    (the 1996 one) emits its own keys and ignores it.
    """
    first = job.entries[0]
    parse = parse or parser_for(job.parser)
    text = read_text(first.file, job.file)
    try:
        sections = parse(text, job.file, first.document.key)
    except ParseError:
        raise
    except Exception as exc:  # a parser bug: still name the file, never a bare traceback
        raise ParseError(job.file, 0, f"a document parser {job.parser} can read",
                         f"{type(exc).__name__}: {exc}") from exc
    wanted = {e.document.key for e in job.entries}
    return [s for s in sections if s.doc in wanted]
