"""Where the tests find the user's corpora, and the one line that says what is missing.

One place for the tests (conftest), the slices that read the card pool at collection, and `make test`,
which runs this file before anything else (`python tests/corpora.py`: exit 2 and one line on stderr when
the data is missing). Standard library only: it runs before the project is installed.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]

# What the tests expect under the corpora folder: a path inside it, and where it comes from.
NSG_REPO = "https://github.com/rubenpieters/netrunner-comprehensive-rules"
CARDS_REPO = "https://github.com/NetrunnerDB/netrunner-cards-json"
EXPECTED = (
    ("nsg-cr/v22.12/data/input", f"{NSG_REPO} at 2d238f09ac9575a04aafa56e18266e11fbd836fc"),
    ("nsg-cr/v23.08/data/input", f"{NSG_REPO} at aaab1c4b3b8fc0f0e89995f4ae394757a21301be"),
    ("nsg-cr/v26.03/data/input", f"{NSG_REPO} at 123be3648eb7e418bee501bb353ec2f3e63a47b6"),
    ("netrunner-cards-json/v2/cards", f"{CARDS_REPO} at 21842e386ebf47c75b3e090bb1d4c6a1b2c75b1c"),
)


def corpora_dir() -> Path:
    """$JUDGEBOOK_CORPORA, else ../shared/corpora beside the checkout."""
    env = os.environ.get("JUDGEBOOK_CORPORA")
    return Path(env) if env else PROJECT.parent / "shared" / "corpora"


CORPORA = corpora_dir()
NSG_CR = CORPORA / "nsg-cr"
CARDS = CORPORA / "netrunner-cards-json"


def missing(root: Path | None = None) -> list[tuple[str, str]]:
    base = root or CORPORA
    return [(rel, origin) for rel, origin in EXPECTED if not (base / rel).is_dir()]


def problem(root: Path | None = None) -> str | None:
    """The one line saying what is missing, where it goes and where to get it; None when all is there."""
    base = root or CORPORA
    gaps = missing(base)
    if not gaps:
        return None
    wanted = "; ".join(f"{base / rel.split('/data/')[0].split('/v2/')[0]} = {origin}" for rel, origin in gaps)
    return (f"judgebook tests need the real corpora at {base} "
            f"(../shared/corpora beside the checkout, or the folder named by JUDGEBOOK_CORPORA), missing: {wanted}")


if __name__ == "__main__":
    line = problem()
    if line:
        print(line, file=sys.stderr)
        sys.exit(2)
