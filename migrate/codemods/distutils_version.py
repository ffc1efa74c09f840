"""`import distutils` becomes `import distutils.version` in a module that reads `distutils.version`.

The TensorFlow version check of many 2019 Colab notebooks (`import distutils;
distutils.version.LooseVersion(tf.__version__) < '1.14'`) worked because TF 1.15 imported
`distutils.version` as a side effect; current TensorFlow does not, so the migrated notebook stops
with "module 'distutils' has no attribute 'version'" before any TensorFlow code runs. Importing the
submodule binds `distutils` as before and makes the attribute exist (the compat runner imports it
for the same reason: estimator_bridge/compat/behavior.py). Python 3.12 removed `distutils` from
the standard library; there it comes from setuptools, as the program's own import already needs.
"""

from __future__ import annotations

import re

import libcst as cst

from migrate.codemods.registry import Codemod

_READS_VERSION = re.compile(r"\bdistutils\s*\.\s*version\b")
# a bare `import distutils` (alone or among other names on an import line)
_BARE_IMPORT = re.compile(r"^[ \t]*import[ \t]+(?:[\w.]+[ \t]*,[ \t]*)*distutils[ \t]*(?:,|#|$)", re.MULTILINE)


def _reads_version(text: str) -> bool:
    """A module with a bare `import distutils` that reads `distutils.version` (the only ones changed)."""
    return _BARE_IMPORT.search(text) is not None and _READS_VERSION.search(text) is not None


def _is_bare_distutils(alias: cst.ImportAlias) -> bool:
    return isinstance(alias.name, cst.Name) and alias.name.value == "distutils" and alias.asname is None


def leave_statement(rewrite, original_node, updated_node):
    if not any(isinstance(small, cst.Import) and any(_is_bare_distutils(a) for a in small.names)
               for small in updated_node.body):
        return None
    body = []
    for small in updated_node.body:
        if isinstance(small, cst.Import):
            small = small.with_changes(names=[
                a.with_changes(name=cst.Attribute(cst.Name("distutils"), cst.Name("version")))
                if _is_bare_distutils(a) else a for a in small.names])
        body.append(small)
    return updated_node.with_changes(body=body)


CODEMOD = Codemod(
    name="DistutilsVersionImport",
    description="`import distutils` -> `import distutils.version` where the module reads distutils.version "
                "(TF 1.15 imported it as a side effect).",
    order=60,
    leave_statement=leave_statement,
    text_trigger=_reads_version,
    applies=_reads_version,
    reach=lambda text: frozenset({"distutils"}),
)
