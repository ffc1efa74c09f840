"""verify from Python: the same runs and verdict as `estimator-migrate verify`, as a value.

    from verify.api import verify
    result = verify("train.py", ["--model_dir={model_dir}", "--train_steps={steps}"], steps=50)
    if not result.passed:
        print("\\n".join(result.diagnosis()))

`result.exit_code` is the CLI's (0 reproduces, 1 differs, 2 could not judge); `result.as_json()`
the document the CLI writes. For tests, verify.testing.assert_reproduces raises AssertionError
carrying the diagnosis.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from verify import report
from verify.escalation import ESCALATION_RUNS, EscalationOptions, verify_program
from verify.pipeline import DEFAULT_EXACT_RTOL, DEFAULT_TRAIN_RTOL, Options, Progress, VerifyResult
from verify.program import NotebookOverrides, Program
from verify.sides import USER_SIDES


@dataclass
class Verified:
    """A VerifyResult with its report helpers."""

    result: VerifyResult

    @property
    def exit_code(self) -> int:
        return self.result.exit_code

    @property
    def passed(self) -> bool:
        return self.result.passed

    def diagnosis(self) -> list[str]:
        return report.diagnosis(self.result)

    def as_json(self) -> dict:
        return report.as_json(self.result)

    def table(self):
        return report.render(self.result)


def verify(script: str | Path, args: Sequence[str], *, steps: int | None = None,
           sides: Sequence[str] = USER_SIDES, oracle: str | None = None, oracle_runs: int = 3,
           migrated_script: str | Path | None = None, source_root: str | Path | None = None,
           python_path: Sequence[str | Path] = (), exact: bool = True, exact_args: Sequence[str] | None = None,
           rtol: float = DEFAULT_EXACT_RTOL, train_rtol: float = DEFAULT_TRAIN_RTOL, margin: float = 3.0,
           work_dir: str | Path | None = None, cwd: str | Path | None = None, timeout: float = 3600.0,
           provision: bool = True, extras: Sequence[str] = (), current_extras: Sequence[str] = (),
           progress: Progress | None = None, notebook: NotebookOverrides | None = None,
           escalate_runs: int = ESCALATION_RUNS) -> Verified:
    """Verify `script` run with `args` (``{model_dir}`` required for a script, ``{steps}``
    optional); a notebook's overrides in `notebook`; `escalate_runs` more oracle runs for a
    narrow FAIL (verify/escalation.py, 0 = never); see docs/verify.md."""
    program = Program(script=Path(script), args=tuple(args), steps=steps,
                      source_root=Path(source_root) if source_root else None,
                      python_path=tuple(Path(p).resolve() for p in python_path),
                      migrated_script=Path(migrated_script) if migrated_script else None,
                      cwd=Path(cwd) if cwd else Path.cwd(), notebook=notebook or NotebookOverrides())
    options = Options(sides=tuple(sides), oracle=oracle, oracle_runs=oracle_runs, exact=exact,
                      exact_args=tuple(exact_args) if exact_args is not None else None, rtol=rtol,
                      train_rtol=train_rtol, margin=margin, timeout=timeout, provision=provision,
                      work_dir=Path(work_dir) if work_dir else None, extras=tuple(extras),
                      current_extras=tuple(current_extras))
    return Verified(verify_program(program, options, progress, EscalationOptions(runs=escalate_runs)))
