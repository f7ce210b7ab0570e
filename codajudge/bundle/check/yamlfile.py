"""Reading competition.yaml as Codabench does (a safe load), refusing duplicated keys it would hide.

A bundle comes from anybody: its YAML is composed into nodes first and only built when its aliases
expand to a bounded value (``config_yaml.bounded_document``), so an alias bomb is a finding, not a hang.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import yaml

from ..config_yaml import bounded_document
from .findings import Findings


class _Loader(yaml.SafeLoader):
    """A SafeLoader that records keys given twice in one mapping (the last one silently wins)."""


def _mapping(loader, node, deep=False):
    seen = set()
    for key_node, _ in node.value:
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
        if key is not None and key in seen:
            loader.duplicates.append((key, key_node.start_mark.line + 1))
        seen.add(key)
    return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def bounded_yaml(loader: yaml.SafeLoader):
    """``config_yaml.bounded_document`` with every refusal as a yaml.YAMLError (a bomb, an alias inside
    its own node, nesting too deep), which the checks report as invalid YAML."""
    try:
        return bounded_document(loader)
    except ValueError as e:
        raise yaml.YAMLError(str(e))
    except RecursionError:
        raise yaml.YAMLError("nested too deeply")


def load_competition_yaml(root: Path, findings: Findings) -> Optional[dict]:
    path = root / "competition.yaml"
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        findings.add("competition.yaml", "not UTF-8 text")
        return None
    loader = _Loader(text)
    loader.duplicates = []
    try:
        doc = bounded_yaml(loader)
    except yaml.YAMLError as e:
        findings.add("competition.yaml", "not valid YAML", found=" ".join(str(e).split())[:200])
        return None
    finally:
        loader.dispose()
    for key, line in loader.duplicates:
        findings.add(
            f"competition.yaml, line {line}", f"key {key!r} given twice; only the last value counts"
        )
    if not isinstance(doc, dict):
        findings.add(
            "competition.yaml", "the top level must be a mapping", found=type(doc).__name__
        )
        return None
    return doc
