"""Thin command-line edges: parse the platform's folders, call the layers, map errors to exit codes."""

from ..deps import require_runtime

require_runtime()
