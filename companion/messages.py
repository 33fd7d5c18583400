"""Reasons on one plain line: what the command line prints and an import's refusal names.

Written once here, below the store and the commands (both use it; neither
imports the other for it).
"""

from __future__ import annotations

import re

#: The longest message printed: longer ones (a list of every known card id) are cut.
MAX_MESSAGE = 400


def one_line(text: str, most: int = MAX_MESSAGE) -> str:
    """Text on one line: pydantic's 'For further information visit URL' lines dropped, line breaks
    and control characters turned to spaces, cut to `most` characters."""
    lines = [line.strip() for line in str(text).splitlines()
             if line.strip() and not line.strip().startswith("For further information")]
    flat = " ".join(line.split(" [type=")[0] for line in lines)
    flat = "".join(c if c.isprintable() else " " for c in flat)
    if len(flat) <= most:
        return flat or "failed (no reason given)"
    cut = flat[:most]
    if ", " in cut[most // 2:]:
        cut = cut[:cut.rindex(", ")] + ", ..."
    return cut + (")" if cut.count("(") > cut.count(")") else "")


def sentence(text: str) -> str:
    """A reason shown on a screen as a sentence: its first letter a capital ("unknown die colour ..."
    reads "Unknown die colour ..."); a reason that starts with a quote or a number is left as it is."""
    return text[:1].upper() + text[1:] if text[:1].islower() else text


#: A path of the host's disk in a message: an absolute one ("/home/ann/.local/...", "C:\\Users\\...",
#: "~/games"), up to a blank, a quote, a bracket or a comma (a colon after it stays).
_PATH = re.compile(r"""(?:(?<=[\s'"(\[=])|^)(?:[A-Za-z]:[\\/]|/|~/)[^\s'"(),;]+""")


def without_paths(text: str, instead: str = "the data folder") -> str:
    """`text` as a device other than the host may read it (issue 36): every path of the host's disk
    replaced by `instead` (the host's terminal keeps the whole text, paths and all)."""
    def swap(match: re.Match[str]) -> str:
        return instead + (":" if match.group().endswith(":") else "")
    return _PATH.sub(swap, str(text))
