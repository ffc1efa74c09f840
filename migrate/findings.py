"""Pure result types of the codemod: findings (what was not rewritten, and why) and their codes.

Nothing here imports libcst: the engine produces these, the api yields them, the cli renders them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Severity(str, enum.Enum):
    """How much a finding matters: `error` fails `--check`, `warning` needs a human, `info` is a note."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Code:
    """A stable finding code (`MIG2xx` needs review, `MIG3xx` unsupported, `MIG0xx` file level)."""

    code: str
    severity: Severity
    title: str


# The code table: codes are stable, never renumbered (users --select/--ignore them).
CODES: dict[str, Code] = {c.code: c for c in (
    Code("MIG001", Severity.ERROR, "file does not parse as Python 3; skipped"),
    Code("MIG002", Severity.ERROR, "Python 2 source; skipped"),
    Code("MIG003", Severity.ERROR, "file cannot be decoded; skipped"),
    Code("MIG004", Severity.ERROR, "rewrite produced invalid code; file left unchanged (internal error)"),
    Code("MIG005", Severity.ERROR, "notebook cannot be read; skipped"),
    Code("MIG006", Severity.ERROR, "internal error while migrating this file; file left unchanged"),
    Code("MIG007", Severity.ERROR, "file cannot be read (missing, looping symlink, no permission); skipped"),
    Code("MIG101", Severity.INFO, "file already uses TF2-only APIs; TF1 names were not moved to tf.compat.v1"),
    Code("MIG102", Severity.INFO, "graph-mode switch replaced so that estimator_bridge can run"),
    Code("MIG103", Severity.INFO, "GCS credential upload (configure_gcs) removed: TensorFlow 2 reads credentials itself"),
    Code("MIG201", Severity.WARNING, "call needs review: argument without a known equivalent"),
    Code("MIG202", Severity.WARNING, "tf.contrib.training.HParams has no TensorFlow equivalent"),
    Code("MIG203", Severity.WARNING, "Keras-on-TPU structure needs a manual rewrite to tf.distribute.TPUStrategy"),
    Code("MIG204", Severity.WARNING, "name reached through several imports; left unchanged"),
    Code("MIG205", Severity.WARNING, "initializer or regularizer with arguments that change its numbers"),
    Code("MIG206", Severity.WARNING, "TF1 optimizer given to Keras compile: no Keras equivalent, or other numbers"),
    Code("MIG207", Severity.WARNING, "Keras 2 API removed in Keras 3 without a faithful rewrite"),
    Code("MIG208", Severity.INFO, "Keras 2 argument with no effect in Keras 3 dropped (ModelCheckpoint options)"),
    Code("MIG209", Severity.WARNING, "isinstance against the TPU RunConfig: True for every RunConfig on estimator_bridge"),
    Code("MIG210", Severity.WARNING, "os.environ['COLAB_TPU_ADDR'] read unguarded: KeyError off Colab's TPU Node runtime"),
    Code("MIG211", Severity.WARNING, "tf.Session in a file that never leaves eager mode: session.run will fail"),
    Code("MIG212", Severity.WARNING, "Keras fit on arrays under a tf.distribute strategy: TF 1.x's order cannot be drawn again"),
    Code("MIG213", Severity.WARNING, "Keras fit on a Sequence under a tf.distribute strategy: TF 1.x refused it, Keras reads it"),
    Code("MIG401", Severity.INFO, "TPU readiness: dataset batch without drop_remainder=True (recompiles)"),
    Code("MIG402", Severity.INFO, "TPU readiness: padded_batch or a Python function in the input pipeline"),
    Code("MIG403", Severity.INFO, "TPU readiness: per-core batch not a multiple of 8"),
    Code("MIG404", Severity.WARNING, "TPU readiness: summary written inside model_fn instead of host_call"),
    Code("MIG405", Severity.WARNING, "TPU readiness: checkpoint/SavedModel to a local path without an I/O device"),
    Code("MIG406", Severity.INFO, "TPU readiness: Keras compile under TPUStrategy without steps_per_execution"),
    Code("MIG301", Severity.WARNING, "tf.contrib name without a current equivalent"),
    Code("MIG302", Severity.WARNING, "TF-Slim is not part of TensorFlow 2"),
    Code("MIG303", Severity.WARNING, "tensor2tensor internals are not supported"),
    Code("MIG304", Severity.WARNING, "tf.estimator API that estimator_bridge does not provide"),
    Code("MIG305", Severity.WARNING, "TF 1.x name that no longer exists in TensorFlow"),
    Code("MIG306", Severity.ERROR, "import of a module or name that does not exist: the module will not import"),
    Code("MIG307", Severity.WARNING, "vendored fork of TF 1.x tpu_estimator.py: use estimator_bridge instead"),
)}


@dataclass(frozen=True, order=True)
class Location:
    """Where a finding is: 1-based line, 0-based column; `cell` is set (0-based) for notebooks."""

    line: int
    column: int
    cell: int | None = None
    cell_line: int | None = None

    def render(self, path: str) -> str:
        """`file:line:col` for Python files, `file:cell N:line` (1-based N) for notebooks."""
        if self.cell is not None:
            return f"{path}:cell {self.cell + 1}:{self.cell_line}"
        return f"{path}:{self.line}:{self.column + 1}"


@dataclass(frozen=True, order=True)
class Finding:
    """Something the codemod did not rewrite: code, where, what and how to fix it."""

    location: Location
    code: str
    message: str
    hint: str = ""

    @property
    def severity(self) -> Severity:
        return CODES[self.code].severity


@dataclass(frozen=True)
class FileResult:
    """The outcome for one file: its bytes before, after (None: unchanged or skipped) and findings."""

    path: str
    original: bytes
    migrated: bytes | None
    findings: tuple[Finding, ...] = field(default=())
    skipped: bool = False

    @property
    def changed(self) -> bool:
        return self.migrated is not None and self.migrated != self.original
