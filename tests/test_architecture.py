"""The import directions of docs/architecture.md: no module imports from a layer above its own."""

import ast
import functools
from pathlib import Path

import pytest

from codajudge import kinds

PACKAGE = Path(__file__).resolve().parent.parent / "codajudge"

#: Top-level part of ``codajudge`` -> layer (docs/architecture.md). A new part must be placed here.
LAYERS = {
    "": 0,
    "errors": 0,
    "confine": 0,
    "assets": 0,
    "deps": 0,
    "fields": 0,
    "untrusted": 0,
    "texts": 0,
    "metrics": 1,
    "stats": 2,
    "labels": 3,
    "kinds": 3,
    "tracks": 4,
    "spec": 4,
    "formats": 5,
    "gold": 6,
    "scoring": 7,
    "report": 8,
    "plots": 8,
    "ranking_page": 8,
    "importers": 9,
    "baselines": 9,
    "bundle": 10,
    "runner": 10,
    "legacy": 11,
    "programs": 12,
    "cli": 12,
    "leaderboard": 12,
    "__main__": 12,
}

#: (importing module, imported module) pairs allowed against the layers, each with its reason.
KNOWN_EXCEPTIONS = {
    # the builder runs each baseline by the code of the ingestion program's child, in its process
    ("codajudge.bundle.baselines_run", "codajudge.programs.child"),
    # the participants' library refuses soft labels by the scoring program's rule (formats.soft)
    ("codajudge.metrics.plain", "codajudge.formats.soft"),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.lru_cache(maxsize=None)
def _parsed(path: Path) -> ast.Module:
    """The module's syntax tree, parsed once for all the tests here (none changes it)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _imports(path: Path):
    """Every ``codajudge`` module imported by ``path`` (relative imports resolved), anywhere in it."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    for node in ast.walk(_parsed(path)):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.split(".")[0] == "codajudge")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "codajudge":
                continue
            if node.module is None or target in (
                "codajudge",
            ):  # from . import x: x may be a module
                yield from (
                    f"{target}.{a.name}"
                    if (PACKAGE.parent / f"{target}.{a.name}".replace(".", "/")).exists()
                    or (PACKAGE.parent / (f"{target}.{a.name}".replace(".", "/") + ".py")).exists()
                    else target
                    for a in node.names
                )
            else:
                yield target


def layer(module: str) -> int:
    part = module.split(".")[1] if "." in module else ""
    assert part in LAYERS, (
        f"{module}: place codajudge.{part} in a layer (docs/architecture.md, LAYERS)"
    )
    return LAYERS[part]


def test_no_module_imports_from_a_layer_above_its_own():
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        for imported in _imports(path):
            if layer(imported) > layer(module) and (module, imported) not in KNOWN_EXCEPTIONS:
                upward.append(
                    f"{module} (layer {layer(module)}) imports {imported} (layer {layer(imported)})"
                )
    assert not upward, "imports against docs/architecture.md:\n" + "\n".join(upward)


def test_the_known_exceptions_are_still_needed():
    found = {(_module_name(p), i) for p in PACKAGE.rglob("*.py") for i in _imports(p)}
    assert KNOWN_EXCEPTIONS <= found, (
        f"remove {sorted(KNOWN_EXCEPTIONS - found)} from KNOWN_EXCEPTIONS"
    )


def _reachable(graph: dict, start: str) -> set:
    """The modules that ``start`` imports, directly or through others."""
    seen, todo = set(), list(graph[start])
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph.get(module, ()))
    return seen


def test_no_two_modules_of_the_bundle_import_each_other_in_a_circle():
    """Imports inside functions count: a circle hidden that way is still a circle (issue 36)."""
    graph = {}
    for path in (PACKAGE / "bundle").rglob("*.py"):
        module = _module_name(path)
        imported = {i for i in _imports(path) if i.startswith("codajudge.bundle")}
        graph[module] = imported - {module}
    circular = sorted(module for module in graph if module in _reachable(graph, module))
    assert not circular, "modules importing themselves through others: " + ", ".join(circular)


def test_the_layers_table_matches_the_package_and_the_document():
    parts = {
        p.stem if p.parent == PACKAGE else p.relative_to(PACKAGE).parts[0]
        for p in PACKAGE.rglob("*.py")
    }
    parts = {"" if part == "__init__" else part for part in parts}
    assert parts == set(LAYERS), parts ^ set(LAYERS)
    document = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    for part in LAYERS:
        if part:
            assert f"`{part}`" in document, part


def _ruff_settings() -> dict:
    import tomllib

    with open(PACKAGE.parent / "pyproject.toml", "rb") as handle:
        return tomllib.load(handle)["tool"]["ruff"]


def test_ruff_bounds_line_length_and_complexity():
    """The limits are the ecosystem's: ``ruff format`` at 100 columns (CI runs ``ruff format
    --check``), McCabe complexity at most 10 (ruff's C901) and at most six parameters per function
    (ruff's PLR0913); docs/architecture.md says so."""
    pytest.importorskip("tomllib")
    settings = _ruff_settings()
    assert settings["line-length"] <= 100
    assert "C901" in settings["lint"]["select"]
    assert settings["lint"]["mccabe"]["max-complexity"] <= 10
    assert "PLR0913" in settings["lint"]["select"]
    assert settings["lint"]["pylint"]["max-args"] <= 6
    document = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert "C901" in document and "ruff format" in document and "PLR0913" in document
    ci = (PACKAGE.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "ruff format --check" in ci


#: Names of files and values that the programs, the builder and the readers share: each is written in
#: one module and imported everywhere else (issue 14: "INGESTION_STATUS defined twice").
SHARED_LITERALS = {'"ingestion_status.json"': "formats/archive.py"}


@pytest.mark.parametrize("literal, home", sorted(SHARED_LITERALS.items()))
def test_a_shared_literal_is_written_in_one_module(literal, home):
    found = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if literal in path.read_text("utf-8")
    )
    assert found == [home]


def test_the_scoring_program_imports_no_scipy_until_a_metric_needs_it():
    """Every scoring run starts the program: scipy's modules cost it about 0.2 s and 24 MB each, so
    the metrics and readers import scipy inside the functions that use it."""
    import subprocess
    import sys

    code = (
        "import sys; sys.path.insert(0, '.'); import codajudge.programs.score; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'scipy'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=PACKAGE.parent, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


#: Every registered kind's name, so that a new kind is held to the same rules. Each kind module
#: names its own kind; outside the kinds package only the LeWiDi importer writes one (the release's
#: field called ``soft_label``), and one more module at most may.
KIND_NAMES = tuple(kinds.NAMES)
MOST_MODULES_NAMING_A_KIND_OUTSIDE_THE_KINDS = 2


def _is_kind_name(node) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in KIND_NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_is_kind_name(element) for element in node.elts)
    return False


def _is_kind_attribute(node) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "kind"


def _kind_comparisons(tree):
    """The comparisons in ``tree`` that test a kind: against a kind's name, or two kinds."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        named = any(_is_kind_name(operand) for operand in operands)
        two_kinds = sum(_is_kind_attribute(operand) for operand in operands) >= 2
        if named or two_kinds:
            yield node.lineno


def _outside_the_kinds_package():
    kinds_package = PACKAGE / "kinds"
    for path in sorted(PACKAGE.rglob("*.py")):
        if kinds_package not in path.parents:
            yield path


def test_no_code_outside_the_kinds_package_compares_a_kind():
    """What varies by kind is declared by the kind (codajudge/kinds): the layers above ask
    ``kinds.of(track)`` and use what it supplies, so a new kind is one new module."""
    found = [
        f"{path.relative_to(PACKAGE)}:{line}"
        for path in _outside_the_kinds_package()
        for line in _kind_comparisons(_parsed(path))
    ]
    assert not found, "kind comparisons outside codajudge/kinds:\n" + "\n".join(found)


def _names_a_kind(path: Path) -> bool:
    """Whether the module writes a kind's name, other than in a metric's registration of the kinds
    it applies to (``Metric(applies_to=...)``, the one place a metric names them)."""
    tree = _parsed(path)
    declared = {
        id(node)
        for keyword in ast.walk(tree)
        if isinstance(keyword, ast.keyword) and keyword.arg == "applies_to"
        for node in ast.walk(keyword.value)
    }
    return any(
        isinstance(node, ast.Constant) and node.value in KIND_NAMES and id(node) not in declared
        for node in ast.walk(tree)
    )


def test_the_kind_names_are_written_in_few_modules():
    """One module per kind and at most two outside the kinds package: six with the four kinds."""
    naming = sorted(
        str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py") if _names_a_kind(path)
    )
    outside = [path for path in naming if not path.startswith("kinds/")]
    assert len(outside) <= MOST_MODULES_NAMING_A_KIND_OUTSIDE_THE_KINDS, outside
    assert len(naming) <= len(KIND_NAMES) + MOST_MODULES_NAMING_A_KIND_OUTSIDE_THE_KINDS, naming


def test_each_kind_module_writes_no_other_kind_name():
    """A kind's module names its own kind only: what one kind says of another is asked of it."""
    for name, kind in kinds.REGISTRY.items():
        module = PACKAGE / "kinds" / f"{type(kind).__module__.rsplit('.', 1)[-1]}.py"
        tree = _parsed(module)
        others = {
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value in KIND_NAMES and node.value != name
        }
        assert not others, f"{module.name} writes the names {sorted(others)}"


def test_the_kind_test_finds_what_it_looks_for():
    tree = ast.parse(
        "if track.kind == 'similarity': pass\n"
        "if kind in ('soft_label', 'perspectivist'): pass\n"
        "if first.kind != second.kind: pass\n"
        "if rows.dtype.kind in 'biu': pass\n"
    )
    assert list(_kind_comparisons(tree)) == [1, 2, 3]


def test_a_track_s_result_and_a_slug_are_each_defined_once():
    """One ``TrackResult`` (scoring's) and one slug rule (``confine.slug``): a second definition of
    either, under its name or as a private ``_slug``, says the same thing twice, or two rules."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(_parsed(path)):
            if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
                name = node.name.lstrip("_")
                found.setdefault(name, []).append(str(path.relative_to(PACKAGE)))
    assert found["TrackResult"] == ["scoring.py"]
    assert found["slug"] == ["confine.py"]
