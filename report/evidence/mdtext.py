"""Record text and folder names in the evidence summaries' Markdown, as
report/render/text.c's md_text writes them for REPORT.md: each character
that could start markup escaped, so the text can neither end a table cell
nor become a link, HTML or code; control characters as spaces (a cell is
one line); hidden characters (C1 controls, bidirectional formatting: see
common/utf8.h) as U+FFFD; a WORD JOINER after @, # and :// and in www.,
so GitHub makes no mention, reference or link of them."""
import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_HIDDEN = re.compile("[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_MARKUP = re.compile(r"([\\`*_\[\]<>|!&~#$])")
WORD_JOINER = "\u2060"


def md(text):
    s = _HIDDEN.sub("\ufffd", _CONTROL.sub(" ", str(text)))
    s = _MARKUP.sub(r"\\\1", s)
    s = re.sub(r"([@#])", r"\1" + WORD_JOINER, s)
    s = re.sub(r"(?i)(www)(?=\.)", r"\1" + WORD_JOINER, s)
    return s.replace("://", ":" + WORD_JOINER + "//")
