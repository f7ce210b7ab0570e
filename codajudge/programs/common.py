"""What every program edge shares: running a body so that a participant never sees a traceback."""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Callable

from ..errors import (
    EXIT_BUNDLE_ERROR,
    EXIT_INTERRUPTED,
    EXIT_USER_ERROR,
    ConfigError,
    KitError,
    UsageError,
    stdout_closed,
)

EXIT_INTERNAL_ERROR = 3
#: How a program's message about a refused submission, or a bundle problem, begins after its name.
REFUSED = ": the submission was not accepted:\n"
BUNDLE_PROBLEM = ": the bundle or its data has a problem (organisers must fix it):\n"
#: What an internal error is not the fault of, and who hears of it: the edition and its data for
#: the organiser's commands (``check``, ``build``, ...), the submission for the programs that run
#: one (ingestion, scoring, ``run``), whose reader is a participant.
ORGANISER_INPUT = "your edition or data; please report it"
SUBMISSION_INPUT = "your submission; please report it to the organisers"


def _plain(text: str | None) -> str | None:
    """``text`` without the docstring's reST literal marks (````), as a help text shows it."""
    return text and text.replace("``", "")


def argument_parser(prog: str, doc: str, epilog: str | None = None) -> argparse.ArgumentParser:
    """A program's parser: ``prog`` in the usage line, the first paragraph of its docstring ``doc``
    on one line as the description, and ``epilog`` (some of ``doc``) after the options as written;
    both in plain text, without the docstring's reST literal marks (````)."""
    description = " ".join(_plain(doc).strip().split("\n\n")[0].split())
    as_written = argparse.HelpFormatter if epilog is None else argparse.RawDescriptionHelpFormatter
    return argparse.ArgumentParser(
        prog=prog, description=description, formatter_class=as_written, epilog=_plain(epilog)
    )


def own_words(message: str) -> str:
    """A program's message without its "PROGRAM: the submission was not accepted:" opening, so that
    another program quoting it says that once."""
    for marker in (REFUSED, BUNDLE_PROBLEM):
        if marker in message:
            return message.rsplit(marker, 1)[1].strip()
    return message.strip()


@contextlib.contextmanager
def writing_into(output_dir: Path) -> Iterator[None]:
    """Make ``output_dir`` (with its parents) and check that a file can be written there, then run
    the block writing into it. An OSError meanwhile is a ConfigError naming the folder: the
    platform's or the bundle's problem (a read-only folder, a file at its path, a full disk),
    never the submission's, nor a bug of the kit."""
    try:
        output_dir.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=output_dir).close()
        yield
    except OSError as e:
        raise ConfigError.single(
            str(output_dir),
            "cannot write to the output folder",
            found=e.strerror or e.__class__.__name__,
            hint="give a folder this program can write to",
        ) from None


def check_input_folder(folder: Path, hint: Callable[[], str]) -> None:
    """The one refusal of a program's missing input folder, before anything else is read or
    written: a usage error naming the folder as given, ``no such folder``, and ``hint()`` (which
    may look around it). Both programs use it, so that they say it the same way."""
    if not (folder.exists() or folder.is_symlink()):
        raise UsageError.single(str(folder), "no such folder", hint=hint())


def run_parsed(
    parser: argparse.ArgumentParser,
    argv: list[str] | None,
    run: Callable,
    input_of: str = ORGANISER_INPUT,
) -> int:
    """``run(args)`` of ``argv`` parsed by ``parser`` (whose usage errors exit as argparse's do),
    through ``run_guarded`` under the parser's ``prog``."""
    args = parser.parse_args(argv)
    return run_guarded(lambda: run(args), parser.prog, input_of=input_of)


def run_guarded(
    body: Callable[[], int],
    program: str,
    on_error: Callable[[str], None] | None = None,
    details_dir: Path | None = None,
    input_of: str = ORGANISER_INPUT,
) -> int:
    """Run ``body``; turn every failure into one clear message on stderr and a non-zero exit code.

    A KitError is the user's (or the organiser's) to fix and is printed as is: a usage error
    plainly, a bundle problem as the organisers' and anything else as a refused submission. An
    output whose reader has gone (``| head``) stops the program quietly: with the body's exit code
    when it had finished (its last lines lost only), else EXIT_BROKEN_PIPE (141, a SIGPIPE's).
    Anything else is a bug in the kit (``unexpected_failure``), but a log that cannot be written:
    the platform's problem, worded for the program's reader (``input_of``: ``ORGANISER_INPUT`` or
    ``SUBMISSION_INPUT``).
    stdout escapes what its encoding cannot write (``\\u63d0``), as stderr does.
    """
    with contextlib.suppress(AttributeError):  # a stream that is not a text file (StringIO)
        sys.stdout.reconfigure(errors="backslashreplace")
    finished = None  # the body's exit code once it has returned
    try:
        finished = code = body()
        sys.stdout.flush()  # a log that cannot be written fails here, guarded, not at exit
        return code
    except UsageError as e:
        message, code = f"{program}: {e.render()}", EXIT_USER_ERROR
    except ConfigError as e:  # a bundle problem: the organisers'
        message, code = f"{program}{BUNDLE_PROBLEM}{e.render()}", EXIT_BUNDLE_ERROR
    except KitError as e:  # anything else is a refused submission
        message, code = f"{program}{REFUSED}{e.render()}", EXIT_USER_ERROR
    except KeyboardInterrupt:
        message, code = f"{program}: interrupted", EXIT_INTERRUPTED
    except BrokenPipeError:  # the output's reader has gone (``| head``): the finished work's code
        return stdout_closed() if finished is None else stdout_closed(finished)
    except MemoryError:
        message, code = f"{program}: out of memory while processing the submission", EXIT_USER_ERROR
    except Exception as e:  # noqa: BLE001 - the last line of defence before the participant
        message, code = unexpected_failure(e, program, details_dir, input_of)
    with contextlib.suppress(OSError):  # a log that cannot be written loses the message only
        print(message, file=sys.stderr)
    with contextlib.suppress(OSError):  # nor fails again at exit
        sys.stdout.flush()
    if on_error is not None:
        with contextlib.suppress(Exception):  # the report of a failure must not fail
            on_error(message)
    return code


def unexpected_failure(
    error: Exception, program: str, details_dir: Path | None, input_of: str = SUBMISSION_INPUT
) -> tuple[str, int]:
    """The message and exit code of an exception no KitError names. A write on an open stream
    that failed (an OSError naming no file: stdout or stderr on a full disk or a closed log) is the
    platform's problem (exit 1), as is one a limit of the local sandbox explains (``limit_hint``);
    anything else is a bug in the kit (exit 3), its traceback saved to ``details_dir`` for
    organisers, not the fault of ``input_of``."""
    if isinstance(error, OSError) and error.errno is not None and error.filename is None:
        return (
            f"{program}: the platform could not write the program's output or log, found "
            f"{error.strerror}; neither the submission nor the kit is at fault: run it again, and "
            "if it fails again the organisers must check the worker (a full disk, a closed log)",
            EXIT_BUNDLE_ERROR,
        )
    from ..runner.sandbox import limit_hint  # here: only a failure needs it

    limit = limit_hint(error)
    if limit is not None:  # the kit's own code passed a limit the organiser set the sandbox
        return (
            f"{program}: stopped by the local sandbox's limits ({error.__class__.__name__}: "
            f"{error}): {limit}",
            EXIT_BUNDLE_ERROR,
        )
    if details_dir is not None:
        with contextlib.suppress(OSError):
            details_dir.mkdir(parents=True, exist_ok=True)
            details = details_dir / "internal_error.txt"
            details.write_text(traceback.format_exc(), encoding="utf-8")
    return (
        f"{program}: internal error ({error.__class__.__name__}: {error}). This is a bug in the "
        f"kit, not in {input_of}.",
        EXIT_INTERNAL_ERROR,
    )
