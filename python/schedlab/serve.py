"""Serves a Python policy over the external-policy protocol on standard
input and output, for `schedlab run --policy external --command`:

    schedlab run --trace KTH-SP2-1996-2.1-cln.swf.gz --policy external \\
        --command "python -m schedlab.serve mymod:MyPolicy"

SPEC is MODULE:CLASS (a module importable from the current folder or
the PYTHONPATH, e.g. mypkg.policies:SJF) or FILE.py:CLASS (a file, e.g.
examples/python/fcfs.py:FCFS); CLASS is a subclass of schedlab.Policy,
made with no arguments. Each request is answered with the class's
decide() (begin() and end() are called as with schedlab.run), the same
way schedlab.run(..., policy=MyPolicy(), engine="process") does, so the
schedule is the same. Standard output carries the protocol alone: what
the policy prints goes to standard error. Exit status: 0 at the end of
the run, 2 for a SPEC that names no policy class, 1 when decide raises
(its traceback on standard error; schedlab then stops, saying the
decision process exited).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from pathlib import Path

from ._policy import Host, Policy

USAGE = "usage: python -m schedlab.serve MODULE:CLASS  (or FILE.py:CLASS; CLASS a subclass of schedlab.Policy)"


def load(spec: str) -> type:
    """The Policy subclass SPEC names; ValueError saying why not."""
    mod_name, sep, cls_name = spec.rpartition(":")
    if not sep or not mod_name or not cls_name:
        raise ValueError(f"{spec!r}: want MODULE:CLASS or FILE.py:CLASS")
    if mod_name.endswith(".py"):
        path = Path(mod_name)
        if not path.is_file():
            raise ValueError(f"{spec!r}: no file {mod_name}")
        # its folder first on the path, as `python FILE.py` would have it
        sys.path.insert(0, str(path.resolve().parent))
        s = importlib.util.spec_from_file_location(path.stem, path)
        mod = importlib.util.module_from_spec(s)
        sys.modules[path.stem] = mod
        s.loader.exec_module(mod)
    else:
        if "" not in sys.path and os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        mod = importlib.import_module(mod_name)
    cls = getattr(mod, cls_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Policy)):
        raise ValueError(f"{spec!r}: {mod_name} has no subclass of schedlab.Policy named {cls_name}")
    return cls


def serve(policy: Policy, requests, reply_fd: int) -> int:
    """Answers the requests (a binary file) on reply_fd until the run
    ends; the number of instants decided."""
    host = Host(policy, requests, reply_fd)
    while host.step():
        pass
    return host.instants


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    # the protocol's standard output, kept apart: the policy's prints
    # (Python's and C's) go to standard error
    reply_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        cls = load(argv[0])
    except (ValueError, ImportError) as e:
        print(f"schedlab.serve: {e}", file=sys.stderr)
        return 2
    try:
        serve(cls(), sys.stdin.buffer, reply_fd)
    except BrokenPipeError:
        pass  # schedlab stopped (its message says why)
    return 0


if __name__ == "__main__":
    sys.exit(main())
