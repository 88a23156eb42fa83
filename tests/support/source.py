"""Parsing the project's own source files, for the tests that scan them (layers, layout,
registries), around a CPython 3.11 bug."""

from __future__ import annotations

import ast
import threading


def parse(source: str, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse(source, filename)``. CPython 3.11 before 3.11.5 can raise a spurious
    ``SystemError: AST constructor recursion depth mismatch`` (gh-106905) when the calling
    thread's recursion bookkeeping was left off by earlier work in a long test process;
    the file is then parsed again in a new thread, whose bookkeeping starts clean."""
    try:
        return ast.parse(source, filename)
    except SystemError as exc:
        if "recursion depth mismatch" not in str(exc):
            raise
    found: list[ast.Module | BaseException] = []

    def again() -> None:
        try:
            found.append(ast.parse(source, filename))
        except BaseException as exc:  # handed to the caller's thread below
            found.append(exc)

    thread = threading.Thread(target=again)
    thread.start()
    thread.join()
    (tree,) = found
    if isinstance(tree, BaseException):
        raise tree
    return tree
