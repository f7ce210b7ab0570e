"""A Penn Treebank-style word tokenizer made of regular expressions, Unicode-aware.

Rules (after NFKC normalisation and lowercasing):

- English clitics are split off as in the Penn Treebank: ``don't`` -> ``do n't``,
  ``john's`` -> ``john 's`` (also 'm 'd 'll 're 've and the typographic apostrophe);
- a word is a run of letters, digits and combining marks (so Arabic with diacritics, Turkish and
  Spanish stay whole), with inner hyphens or apostrophes (``well-known``, ``ankara'da``);
- numbers keep inner separators (``1,000.5``, ``12:30``); ``u.s.``-style initialisms stay whole;
- every other visible character is a token of its own (punctuation in any script: ``,`` ``،``
  ``؟`` ``¿`` ``«`` ...), except ``...`` / ``…`` and ``--`` which stay whole;
- scripts written without spaces (Chinese, Japanese kana) give one token per character.
"""

import re
import unicodedata
from itertools import groupby

# Han (with extensions and compatibility ideographs), Hiragana, Katakana and CJK symbols.
_CJK = (
    "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\U00020000-\U0002fa1f\U00030000-\U0003134f"
)


def _combining_mark_ranges() -> str:
    """A character-class body with every combining mark (categories Mn, Mc, Me) of the BMP and SMP.

    ``\\w`` does not match combining marks, so without them Arabic diacritics or Devanagari vowel
    signs would cut words apart. Built once at import (about 130k code points, a few milliseconds).
    """
    marks = [c for c in range(0x300, 0x20000) if unicodedata.category(chr(c))[0] == "M"]
    # consecutive code points keep the same difference from their position in ``marks``
    runs = [[c for _, c in run] for _, run in groupby(enumerate(marks), lambda p: p[1] - p[0])]
    return "".join(f"{re.escape(chr(run[0]))}-{re.escape(chr(run[-1]))}" for run in runs)


_MARKS = _combining_mark_ranges()
_WORD_CHAR = rf"(?:(?![{_CJK}])\w|[{_MARKS}])"
_APOSTROPHES = "'\u2019"

_CLITIC_SPLIT = re.compile(rf"(?<=\w)(n[{_APOSTROPHES}]t|[{_APOSTROPHES}](?:s|m|d|ll|re|ve))(?!\w)")
_TOKEN = re.compile(
    rf"[{_CJK}][{_MARKS}]*"  # one CJK character
    rf"|(?:n[{_APOSTROPHES}]t|[{_APOSTROPHES}](?:s|m|d|ll|re|ve))(?!\w)"  # a split-off clitic
    rf"|(?:[^\W\d_]\.){{2,}}"  # initialisms such as u.s.
    rf"|\d+(?:[.,:/]\d+)+(?!\w)"  # numbers with inner separators
    rf"|{_WORD_CHAR}+(?:[-{_APOSTROPHES}]{_WORD_CHAR}+)*"  # words, with inner - or '
    rf"|\.\.\.+|\u2026|--+"  # ellipses and dashes
    rf"|\S[{_MARKS}]*"  # any other visible character
)


def tokenize(text: str) -> list[str]:
    """Lowercased Penn Treebank-style tokens of ``text``, punctuation kept as tokens."""
    # Dotted capital I is Turkish or Azeri only; lower() would leave a combining dot behind it.
    text = unicodedata.normalize("NFKC", text).replace("\u0130", "i").lower()
    text = _CLITIC_SPLIT.sub(r" \1", text)
    return _TOKEN.findall(text)
