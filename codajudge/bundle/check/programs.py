"""Program folders and zips: the compute worker runs the command of the ``metadata.yaml`` (or
``metadata``) file at the program's root, from /app/program, without a shell, its legacy ``$``
variables substituted (``runner.local.legacy_paths``); a command passing the worker's folders
passes its input folder, then its output folder."""

from __future__ import annotations

import re
import shlex
import zipfile
from pathlib import Path

from ...assets import kit_command
from ...errors import ConfigError
from ..config_yaml import bundle_yaml
from ..leaks import MAX_SCANNED_BYTES
from .findings import Findings, relative_path

#: The program folders (or zips) of a bundle, each run by the compute worker with its metadata's command.
PROGRAMS = ("scoring_program", "ingestion_program")
#: The files a program's command may be in (Codabench v2 reads the first one it has).
METADATA = ("metadata.yaml", "metadata")
SCRIPT = re.compile(r"\.(py|sh|R|r|jl|pl)$")
SHELL_SYNTAX = re.compile(r"(&&|\|\||[|;<>`]|\$\()")
#: A script importing the kit's engine, which a built program carries beside it.
IMPORTS_ENGINE = re.compile(rb"^\s*(from|import)\s+codajudge\b", re.MULTILINE)


def metadata_command(data: bytes, display: str) -> str:
    """The ``command`` of a program's metadata file (its bytes ``data``, named ``display`` in a
    refusal), read as the compute worker reads it; ConfigError when the file is not UTF-8, not YAML
    (within ``bounded_document``'s bounds) or has no command."""
    meta, _ = bundle_yaml(data, display, found_chars=120)
    command = meta.get("command") if isinstance(meta, dict) else None
    if not isinstance(command, str) or not command.strip():
        raise ConfigError.single(
            display,
            "no 'command' to run",
            expected="command: python3 /app/program/...",
            found=repr(command),
        )
    return command


def check_bundle_files(
    named: dict[str, object], where: str, root: Path, findings: Findings, legacy: bool = False
) -> None:
    """The folders or zips inside the bundle that a task, phase or solution names (``named``: key ->
    path, in the order checked), each program's also as a program (``check_program``; a program
    shared by several tasks or phases is checked, and reported, once). A CodaLab v1.5 phase
    (``legacy``) gives each but its starting kit as a zip, and a program's command in a file named
    exactly ``metadata``."""
    metadata_names = ("metadata",) if legacy else METADATA
    for key, value in named.items():
        path = relative_path(root, value)
        found = repr(value)
        if path is None:
            findings.add(where, f"{key} must be a relative path inside the bundle", found=found)
        elif not (path.is_dir() or path.is_file()):  # a named pipe would block the zip reader
            findings.add(where, f"{key} not found in the bundle", found=found)
        elif path.is_file() and path.suffix.lower() != ".zip":
            # the compute worker cannot unpack a plain file
            findings.add(
                where, f"{key} is a plain file", expected="a folder or a .zip", found=found
            )
        elif path.is_dir() and legacy and key != "starting_kit":
            zipped = f"{key} must be a zip in a CodaLab v1.5 bundle"
            findings.add(where, zipped, found="folder " + found)
        elif key in PROGRAMS and (path, metadata_names) not in findings.checked:
            findings.checked.add((path, metadata_names))  # a program shared by tasks or phases
            check_program(path, where, key.replace("_", " "), findings, metadata_names)


def check_program(
    path: Path, where: str, what: str, findings: Findings, metadata_names: tuple[str, ...]
) -> None:
    """The program's metadata file, the one the worker reads at its root, and its command
    (problems in ``findings``)."""
    try:
        names, metadata, scripts = _program_files(path, metadata_names)
    except (zipfile.BadZipFile, OSError):
        findings.add(where, f"{what} is not a readable zip", found=path.name)
        return
    found = list(metadata)
    if not found:
        near = sorted(n for n in names if n.count("/") <= 1 and n.split("/")[-1] in METADATA)
        findings.add(
            where,
            f"{what} has no file named exactly {' or '.join(map(repr, metadata_names))} at its root",
            found=", ".join(map(repr, near)) if near else f"files {sorted(names)[:4]}",
            hint="the worker reads the command from that file only: zip the program folder's "
            "contents",
        )
        return
    if len(found) == 2:
        findings.add(
            where,
            f"{what} has both metadata.yaml and metadata; the worker reads only metadata.yaml",
        )
    command = findings.unless_refused(
        metadata_command, metadata[found[0]], f"{where}: {what}'s {found[0]}"
    )
    script = None if command is None else _check_command(command, names, where, what, findings)
    if script in scripts and scripts[script] is None:
        findings.add(
            where,
            f"{what}'s {script} is too large to check",
            expected=f"a script of at most {MAX_SCANNED_BYTES} bytes",
        )
    elif IMPORTS_ENGINE.search(scripts.get(script, b"")) and "codajudge/__init__.py" not in names:
        findings.add(
            where,
            f"{what}'s {script} imports the codajudge engine, but the program has no codajudge "
            "folder beside it: every submission would fail",
            expected=f"{path.name}/codajudge/",
            hint=f"rebuild the bundle with {kit_command('build')}",
        )


def _program_files(path: Path, metadata_names: tuple[str, ...]) -> tuple:
    """(every file's name, the metadata files' bytes by name, the top-level scripts' bytes by
    name, None for one larger than ``MAX_SCANNED_BYTES``, left unread) of a program folder or zip."""
    if path.is_dir():
        names = [p.relative_to(path).as_posix() for p in path.rglob("*") if p.is_file()]
        sizes = {name: (path / name).stat().st_size for name in names}
        return _read_program(names, lambda name: (path / name).read_bytes(), sizes, metadata_names)
    with zipfile.ZipFile(path) as archive:
        names = [n for n in archive.namelist() if not n.endswith("/")]
        # zipfile reads at most an entry's declared size, the last entry's of a name given twice
        sizes = {info.filename: info.file_size for info in archive.infolist()}
        return _read_program(names, archive.read, sizes, metadata_names)


def _read_program(names: list[str], read, sizes: dict, metadata_names: tuple[str, ...]) -> tuple:
    metadata = {n: read(n) for n in metadata_names if n in names}
    scripts = {
        n: read(n) if sizes[n] <= MAX_SCANNED_BYTES else None
        for n in names
        if "/" not in n and SCRIPT.search(n)
    }
    return names, metadata, scripts


def _check_command(
    command: str, names: list[str], where: str, what: str, findings: Findings
) -> str | None:
    """The problems of a program's command; returns the script it runs (its name in the program),
    None when it names none."""
    effective = re.sub(r"\$(ingestion_)?program", "/app/program", command)
    try:
        tokens = shlex.split(effective)
    except ValueError as e:
        findings.add(where, f"{what}'s command cannot be split into arguments", found=str(e))
        return None
    if len(tokens) >= 2 and tokens[0].split("/")[-1] in ("bash", "sh") and "-c" in tokens[1:3]:
        return None
    if SHELL_SYNTAX.search(effective):
        findings.add(
            where,
            f"{what}'s command uses shell syntax but is not run by a shell",
            found=repr(command),
            hint="wrap it in bash -c '...'",
        )
    from ...runner.local import legacy_paths  # here: runner.local imports this module

    expanded = legacy_paths(what == "scoring program")
    _check_folders(tokens, expanded, where, what, findings)
    leftover = [v for v in re.findall(r"\$\{?[A-Za-z_]\w*", effective) if v not in expanded]
    if leftover:
        findings.add(
            where,
            f"{what}'s command has variables nothing expands",
            found=", ".join(sorted(set(leftover))),
        )
    for token in tokens[1:]:
        relative = token.removeprefix("/app/program/")
        if relative != token or (not token.startswith(("/", "-", "$")) and SCRIPT.search(token)):
            if relative not in names:
                findings.add(
                    where,
                    f"{what}'s command runs a script the program does not have",
                    found=repr(token),
                )
            return relative
    return None


def _check_folders(tokens: list, legacy: dict, where: str, what: str, findings: Findings) -> None:
    """The worker's folders a program's command passes (``tokens``, a legacy variable read as
    ``legacy`` expands it) are its step's input folder, then its output folder: a script takes
    them by position."""
    folders = {t: legacy.get(t.rstrip("/"), t.rstrip("/")) for t in tokens[1:]}
    worker = ("/app/input", "/app/input_data", "/app/output")
    written = [token for token, folder in folders.items() if folder in worker][:2]
    expected = [legacy["$input"], legacy["$output"]]
    if [folders[token] for token in written] != expected[: len(written)]:
        message = f"{what}'s command passes the worker's folders out of order: its script would "
        message += "read the wrong folder and every submission would fail"
        expected_text = f"{' '.join(expected)} or $input $output (input, then output folder)"
        findings.add(where, message, expected=expected_text, found=" ".join(written))
