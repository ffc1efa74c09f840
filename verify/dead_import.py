"""A migrated side that stopped on an import of a module current TensorFlow does not have: the
codemod's finding for that import (MIG306 and the like), from its report (the work folder's
migrate.log), so the diagnosis says why the line is there and what to do, not only
`No module named 'tensorflow.contrib'`.

The finding is matched by the file the traceback stopped in (its path inside the migrated copy;
a notebook runs as `<notebook>.script.py`) and by the missing module's name in the finding's text:
line numbers of the migrated copy are not those of the original the codemod reported on.
"""

from __future__ import annotations

import re
from pathlib import Path

_MISSING = re.compile(r"No module named '([^']+)'")
_FRAME = re.compile(r'File "([^"]+)", line (\d+)')
_FINDING = re.compile(r"^(?P<place>(?P<path>.+?):(?P<line>\d+):\d+): (?P<code>MIG\d+) (?P<level>\w+): (?P<text>.*)$")
_IMPORT_FINDINGS = ("MIG306",)  # preferred over other findings naming the same module


def finding_for_dead_import(run_log: str, migrate_log: str, migrated_root: Path) -> str | None:
    """The codemod's finding (one report line) for the import that stopped a migrated run, or None."""
    missing = _MISSING.findall(run_log)
    if not missing:
        return None
    module = missing[-1]
    inside = [path for path, _ in _FRAME.findall(run_log) if _is_inside(path, migrated_root)]
    relative = None
    if inside:
        relative = Path(inside[-1]).resolve().relative_to(migrated_root.resolve()).as_posix()
        relative = relative[:-len(".script.py")] if relative.endswith(".script.py") else relative
    findings = [match for match in map(_FINDING.match, migrate_log.splitlines())
                if match and _names_module(match.group("text"), module)]
    if relative is not None:
        findings = [match for match in findings if match.group("path").replace("\\", "/").endswith("/" + relative)
                    or match.group("path") == relative]
    if not findings:
        return None
    best = sorted(findings, key=lambda match: match.group("code") not in _IMPORT_FINDINGS)[0]
    return f"{best.group('place')}: {best.group('code')} {best.group('level')}: {best.group('text')}"


def _is_inside(path: str, root: Path) -> bool:
    try:
        return Path(path).resolve().is_relative_to(root.resolve())
    except (OSError, ValueError):
        return False


def _names_module(text: str, module: str) -> bool:
    """Whether a finding's text names `module` or a module under it (`tensorflow.contrib.slim`)."""
    return re.search(re.escape(module) + r"(?![\w])", text) is not None or (
        module.startswith("tensorflow.") and "tf." + module[len("tensorflow."):] in text)
