"""Reading an edition config's YAML with bounds, so a small file cannot take the machine.

YAML aliases (``*name``) repeat an anchored node without copying its text: nine levels of ten
aliases each ("billion laughs") make a 4 KB file stand for 10**9 strings, and any later walk over the
loaded value (a message, a check) spends gigabytes. The file is composed into nodes first (linear in
its size), the size of the value it stands for is counted with aliases expanded (linear in the
number of distinct nodes), and only a value of at most ``MAX_EXPANDED_NODES`` nodes is built.
Aliases themselves stay allowed: configs use them to share a source between datasets.
"""

import functools
import re
from pathlib import Path

import yaml

from ..errors import ConfigError, Problem
from ..formats.textfile import utf8_text

MAX_CONFIG_BYTES = 1024 * 1024
BOOL_TAG = "tag:yaml.org,2002:bool"
TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"


class ConfigLoader(yaml.SafeLoader):
    """A SafeLoader whose only booleans are true and false (YAML 1.2): YAML 1.1's yes, no, on and off
    stay strings, which a key expecting a boolean refuses (``errors.boolean_problem``) instead of reading
    a word as a choice; a label or a title ``no`` stays the word. Nor does it read timestamps: an
    unquoted date is the text it would be quoted, which a date key judges alike."""


ConfigLoader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag not in (BOOL_TAG, TIMESTAMP_TAG)]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
ConfigLoader.add_implicit_resolver(
    BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
MAX_EXPANDED_NODES = 100_000  # the shipped editions expand to under 2,000


class UnboundedYaml(yaml.YAMLError):
    """Valid YAML that the kit will not build: an alias bomb, nesting too deep, an alias inside its
    own node."""


def bounded_document(loader: yaml.SafeLoader):
    """The loader's single document, built only when it stands for at most ``MAX_EXPANDED_NODES``
    values with aliases expanded; UnboundedYaml otherwise, and for a document nested too deeply or
    an alias inside its own node. The loader is disposed of."""

    @functools.cache
    def size(node) -> int:
        """Nodes of the value ``node`` stands for, aliases expanded (counted up to one past
        the limit), each node counted once; an alias inside its own node (a value of infinite
        size) recurses until RecursionError."""
        if isinstance(node, yaml.MappingNode):  # its value: (key, value) pairs of nodes
            return min(MAX_EXPANDED_NODES + 1, 1 + sum(size(k) + size(v) for k, v in node.value))
        if isinstance(node, yaml.SequenceNode):
            return min(MAX_EXPANDED_NODES + 1, 1 + sum(map(size, node.value)))
        return 1

    try:
        node = loader.get_single_node()
        if node is not None and size(node) > MAX_EXPANDED_NODES:
            raise UnboundedYaml(
                f"its aliases expand to more than {MAX_EXPANDED_NODES:,} values (an alias bomb?)"
            )
        return None if node is None else loader.construct_document(node)
    except RecursionError:
        raise UnboundedYaml("nested too deeply, or an alias inside its own node") from None
    except ValueError as e:  # a safe constructor's refusal of a value (a date such as 2020-13-45)
        raise yaml.constructor.ConstructorError(None, None, str(e)) from None
    finally:
        loader.dispose()


class DuplicateKeysLoader(yaml.SafeLoader):
    """A SafeLoader (a bundle's YAML is read as Codabench reads it) that records, in
    ``duplicates``, each key given twice in one mapping (the last one silently wins) with its
    line."""


def _mapping(loader, node, deep=False):
    seen = set()
    for key_node, _ in node.value:
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
        if key is not None and key in seen:
            loader.duplicates.append((key, key_node.start_mark.line + 1))
        seen.add(key)
    return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)


DuplicateKeysLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def bundle_yaml(data: bytes, display: str, found_chars: int) -> tuple[object, list]:
    """The document of a bundle's YAML file (its bytes ``data``, named ``display`` in a refusal),
    read as Codabench reads it within ``bounded_document``'s bounds, and the (key, line) pairs of
    its keys given twice in one mapping; ConfigError when it is not UTF-8 or not valid YAML (the
    parser's complaint on one line, cut to ``found_chars`` characters)."""
    loader = DuplicateKeysLoader(utf8_text(data, display))
    loader.duplicates = []
    try:
        return bounded_document(loader), loader.duplicates
    except yaml.YAMLError as e:
        found = " ".join(str(e).split())[:found_chars]
        raise ConfigError.single(display, "not valid YAML", found=found) from None


def load_config_yaml(path: Path) -> tuple[Path, dict]:
    """The edition config's file (``edition.yaml`` inside a folder ``path``) and its YAML mapping,
    or ConfigError naming the file and what is wrong with it."""
    path = Path(path) / "edition.yaml" if Path(path).is_dir() else Path(path)
    display = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_CONFIG_BYTES:
            raise ConfigError.single(
                display,
                "the edition config is too large",
                expected=f"at most {MAX_CONFIG_BYTES // 1024} KiB",
                found=f"{size} bytes",
            )
        data = path.read_bytes()
    except OSError as e:
        raise ConfigError.single(display, f"cannot read the edition config ({e.strerror})")
    text = utf8_text(data, display)
    try:
        raw = bounded_document(ConfigLoader(text))
    except UnboundedYaml as e:
        raise ConfigError.single(display, f"not a usable YAML config: {e}")
    except yaml.YAMLError as e:
        raise ConfigError([yaml_problem(e, text, display)])
    if not isinstance(raw, dict):
        raise ConfigError.single(display, "the edition config must be a YAML mapping")
    return path, raw


#: The YAML parser's commonest complaints (by words of its message) in plain words, with a fix.
YAML_FIXES = {
    "flow sequence": (
        "a list [...] is not closed",
        "close the list opened on line {opened} with ]",
    ),
    "flow mapping": (
        "a mapping {...} is not closed",
        "close the mapping opened on line {opened} with }}",
    ),
    "found character '\\t'": ("a tab in the indentation", "indent with spaces: YAML takes no tabs"),
    "mapping values are not allowed": (
        "a ': ' where no key can start",
        "quote a value that holds ': ', or indent this key as the keys beside it",
    ),
    "quoted scalar": ("a quote is not closed", "close the quote opened on line {opened}"),
    "indentation": ("the indentation is inconsistent", "indent one mapping's keys alike"),
    "block mapping": ("the indentation is inconsistent", "indent one mapping's keys alike"),
}
#: What is said when the parser's complaint is none of the above.
YAML_OTHER = (None, "check the brackets, quotes and indentation on this line and the one before it")


def yaml_problem(error, text: str, display: str) -> Problem:
    """The parser's ``error`` as a located problem: its line, what is written there, and the
    complaint in plain words with a fix (``YAML_FIXES``)."""
    mark = getattr(error, "problem_mark", None)
    opened_at = getattr(error, "context_mark", None)
    line = mark.line + 1 if mark is not None else None
    words = " ".join(str(getattr(error, part, "") or "") for part in ("context", "problem"))
    what, fix = next((pair for key, pair in YAML_FIXES.items() if key in words), YAML_OTHER)
    lines = text.splitlines()
    shown = lines[line - 1].strip() if line and line <= len(lines) else ""
    return Problem(
        display,
        f"not valid YAML: {what}" if what else "not valid YAML",
        line=line,
        found=repr(shown[:80]) if shown else None,
        hint=fix.format(opened=opened_at.line + 1 if opened_at is not None else line),
    )
