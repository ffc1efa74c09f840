"""`estimator-migrate verify SCRIPT [OPTIONS] -- PROGRAM ARGS`: does the migrated program give the original's numbers?

A subcommand of estimator-migrate (also `python -m verify`): the user who migrated a repository
already has that command, and verify is the check that closes the migration. Exit codes: 0 every
side reproduces the oracle; 1 a side differs or crashes (the diagnosis says where); 2 verify could
not judge (bad usage, the oracle is missing or the original fails in it, or a phase is a named
limitation). See docs/verify.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Sequence

from verify.escalation import ESCALATION_RUNS
from verify.oracle_recipes import RECIPES
from verify.sides import USER_SIDES

EXIT_PASS, EXIT_DIFFERS, EXIT_ERROR = 0, 1, 2
SIDE_CHOICES = {"runner": ("runner",), "migrated": ("migrated",), "both": USER_SIDES}

EPILOG = """\
examples:
  estimator-migrate verify train.py --steps 50 -- --data_dir=data --model_dir={model_dir} --train_steps={steps}
  estimator-migrate verify run_classifier.py --side migrated --migrated ../migrated/run_classifier.py \\
      -- --output_dir={model_dir} --do_train --do_eval --num_train_steps=20

  estimator-migrate verify mnist.ipynb --oracle tf115 --set EPOCHS=2 --set steps_per_epoch=4 \\
      --skip-cell 'gcloud ml-engine' --stub-module matplotlib

{model_dir} is replaced by a fresh folder per run (your own model_dir is never touched); {steps}
by --steps. Everything verify writes (model_dirs, logs, the migrated copy, verify.json) goes to
--work-dir (default: a new folder under ~/.cache/estimator-bridge/verify/).
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="estimator-migrate verify", description=__doc__.splitlines()[0].split(": ", 1)[1],
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("script", type=Path, help="the original (unchanged) TF1 program")
    parser.add_argument("--steps", type=int, metavar="N", help="value of {steps} in the program's arguments")
    parser.add_argument("--side", choices=sorted(SIDE_CHOICES), default="both",
                        help="current-TF side(s): the unchanged file under the compat runner, the migrated copy, "
                             "or both (default)")
    parser.add_argument("--keras", type=int, choices=(2, 3), default=None,
                        help="Keras target of the migrated copy (estimator-migrate --keras: 3 by default, 2 = tf_keras)")
    parser.add_argument("--migrated", type=Path, metavar="FILE",
                        help="your own migrated copy of SCRIPT for the migrated side (default: verify migrates a "
                             "copy of --source-root with estimator-migrate)")
    parser.add_argument("--source-root", type=Path, metavar="DIR",
                        help="the folder holding the program's own modules, migrated as a whole (default: the "
                             "script's folder)")
    parser.add_argument("--path", type=Path, action="append", default=[], metavar="DIR",
                        help="a folder the program imports from (PYTHONPATH of every run; repeatable)")
    parser.add_argument("--with", dest="extras", action="append", default=[], metavar="REQUIREMENT",
                        help="a package the program needs that the oracle lacks, e.g. --with 'pyyaml<6'; installed "
                             "once into the cache next to (not into) the oracle (repeatable)")
    parser.add_argument("--current-with", dest="current_extras", action="append", default=[],
                        metavar="REQUIREMENT",
                        help="the same for the current-TF sides, when the program needs a version other than the "
                             "one of the environment verify runs in (repeatable)")
    parser.add_argument("--oracle", choices=sorted(RECIPES),
                        help="the TensorFlow the program was written for (default: chosen from its imports: "
                             "tf.contrib -> tf115, tf.compat.v1 estimator code -> tf215)")
    parser.add_argument("--oracle-runs", type=int, default=3, metavar="N",
                        help="oracle runs that measure its own spread: two identical runs end it, otherwise up "
                             "to N (default 3; 1 = no spread, every training number held to --train-rtol)")
    parser.add_argument("--escalate-runs", type=int, default=ESCALATION_RUNS, metavar="N",
                        help="when a side's training phase fails narrowly (an accuracy-like count ratio every "
                             "oracle run repeats flipped while its evaluation's losses are within their "
                             "allowance), N more oracle runs and that side judged again against all of them "
                             f"(default {ESCALATION_RUNS}; 0 = never)")
    parser.add_argument("--exact-args", metavar="'ARGS'",
                        help="program arguments of the exact phase (quoted, shell syntax; default: the same as "
                             "training, which works for programs that train to max_steps)")
    parser.add_argument("--no-exact", action="store_true", help="skip the exact phase")
    parser.add_argument("--rtol", type=float, default=None, metavar="R",
                        help="exact phase: relative tolerance of evaluation and predictions of one fixed "
                             "checkpoint (default 1e-6)")
    parser.add_argument("--train-rtol", type=float, default=None, metavar="R",
                        help="training phase: tolerance of numbers the oracle repeats exactly (default 1e-4)")
    parser.add_argument("--margin", type=float, default=3.0, metavar="K",
                        help="training phase: numbers the oracle does not repeat are held to K x its spread "
                             "(default 3)")
    parser.add_argument("--work-dir", type=Path, metavar="DIR", help="where every run writes (must be new or empty)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the result here (default: "
                                                                  "WORK_DIR/verify.json)")
    parser.add_argument("--html", type=Path, metavar="FILE",
                        help="also draw the result here: curves of every oracle run and side, evaluation and "
                             "prediction tables, diagnosis, the migration's findings; one static file (default: "
                             "WORK_DIR/verify.html)")
    parser.add_argument("--timeout", type=float, default=3600, metavar="S", help="per run (default 3600 s)")
    parser.add_argument("--reuse-oracle", action="store_true",
                        help="keep the oracle's runs in the cache and reuse them when the same program (its files, "
                             "arguments, overrides, oracle, --with) is verified again; data files the arguments "
                             "name are not part of the key")
    parser.add_argument("--no-provision", action="store_true",
                        help="never build an oracle environment; fail saying how to build it")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    notebook = parser.add_argument_group(
        "notebooks (.ipynb)", "make a notebook tiny and point it at your data without editing it; each override "
        "must match something in the notebook, or verify stops naming it")
    notebook.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=EXPR",
                          help="`NAME = EXPR` right after every module-level statement that binds NAME, e.g. "
                               "--set EPOCHS=3 --set \"DATA='/data/mnist'\" (repeatable)")
    notebook.add_argument("--after", dest="afters", action="append", default=[], metavar="NAME=CODE",
                          help="run CODE right after every module-level statement that binds NAME, e.g. a def "
                               "replacing a function (repeatable; {model_dir} is the run's folder)")
    notebook.add_argument("--skip-cell", dest="skip_cells", action="append", default=[], metavar="TEXT",
                          help="do not run the code cells containing TEXT (plots, cloud deployment; repeatable)")
    notebook.add_argument("--replace", nargs=2, action="append", default=[], metavar=("OLD", "NEW"),
                          help="replace the text OLD by NEW in the code that runs, e.g. --replace 'Dropout(0.5)' "
                               "'Dropout(0.0)' (repeatable)")
    notebook.add_argument("--stub-module", dest="stub_modules", action="append", default=[], metavar="MODULE",
                          help="replace a display-only module and its submodules by a do-nothing stub (matplotlib, "
                               "PIL; repeatable)")
    return parser


def notebook_overrides(args):
    """The notebook options as NotebookOverrides; ValueError for a malformed NAME=... pair."""
    from verify.program import NotebookOverrides

    after = []
    for option, pairs in (("--set", args.sets), ("--after", args.afters)):
        for pair in pairs:
            name, equals, value = pair.partition("=")
            name = name.strip()
            if not equals or not name.isidentifier():
                raise ValueError(f"{option} {pair!r}: expected NAME=... with NAME a Python variable name")
            after.append((name, f"{name} = {value}" if option == "--set" else value))
    return NotebookOverrides(after=tuple(after), skip_cells=tuple(args.skip_cells),
                             replace=tuple(tuple(pair) for pair in args.replace),
                             stub_modules=tuple(args.stub_modules))


def split_program_args(argv: list[str]) -> tuple[list[str], list[str]]:
    """(verify's own options, the program's arguments after `--`)."""
    if "--" in argv:
        index = argv.index("--")
        return argv[:index], argv[index + 1:]
    return argv, []


class ConsoleProgress:
    """Progress on stderr: a live line per run (step read from the model_dir) on a terminal."""

    def __init__(self, console, quiet: bool):
        self.console, self.quiet = console, quiet
        self.status = None
        self.label = ""
        self.started = 0.0

    def start(self, label: str) -> None:
        self.label, self.started = label, time.monotonic()
        if not self.quiet and self.console.is_terminal:
            self.status = self.console.status(f"{label} ...")
            self.status.start()

    def step(self, step: int) -> None:
        if self.status is not None:
            self.status.update(f"{self.label}: step {step} ({time.monotonic() - self.started:.0f} s)")

    def finish(self, label: str, seconds: float, ok: bool) -> None:
        if self.status is not None:
            self.status.stop()
            self.status = None
        if not self.quiet:
            self.console.print(f"{'done' if ok else '[red]failed[/]'}: {label} ({seconds:.0f} s)")

    def note(self, text: str) -> None:
        if not self.quiet:
            self.console.print(text)


def _error(message: str) -> None:
    print(f"estimator-migrate verify: error: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    import shlex

    from rich.console import Console

    from verify import oracles, report, report_html
    from verify.escalation import EscalationOptions, verify_program
    from verify.oracle_choice import NoTensorFlow
    from verify.pipeline import DEFAULT_EXACT_RTOL, DEFAULT_TRAIN_RTOL, Options
    from verify.program import BadProgram, Program

    own, program_args = split_program_args(list(sys.argv[1:] if argv is None else argv))
    parser = build_parser()
    try:
        args = parser.parse_args(own)
    except SystemExit as exit_:
        return EXIT_PASS if exit_.code == 0 else EXIT_ERROR
    err = Console(stderr=True)
    if args.oracle_runs < 1:
        _error("--oracle-runs must be at least 1")
        return EXIT_ERROR
    if args.escalate_runs < 0:
        _error("--escalate-runs must be 0 (never escalate) or more")
        return EXIT_ERROR
    if args.migrated is not None and args.side == "runner":
        _error("--migrated is used by the migrated side; --side runner does not run it (use --side migrated "
               "or both)")
        return EXIT_ERROR
    if args.no_exact and args.exact_args is not None:
        _error("--exact-args and --no-exact contradict each other")
        return EXIT_ERROR
    if args.keras is not None:   # read by the `python -m migrate` the migrated side starts
        os.environ["ESTIMATOR_MIGRATE_KERAS"] = str(args.keras)
    try:
        overrides = notebook_overrides(args)
    except ValueError as error:
        _error(str(error))
        return EXIT_ERROR
    program = Program(script=args.script, args=tuple(program_args), steps=args.steps,
                      source_root=args.source_root, python_path=tuple(p.resolve() for p in args.path),
                      migrated_script=args.migrated, cwd=Path.cwd(), notebook=overrides)
    options = Options(
        sides=SIDE_CHOICES[args.side], oracle=args.oracle, oracle_runs=args.oracle_runs, exact=not args.no_exact,
        exact_args=tuple(shlex.split(args.exact_args)) if args.exact_args is not None else None,
        rtol=args.rtol if args.rtol is not None else DEFAULT_EXACT_RTOL,
        train_rtol=args.train_rtol if args.train_rtol is not None else DEFAULT_TRAIN_RTOL,
        margin=args.margin, timeout=args.timeout, provision=not args.no_provision, work_dir=args.work_dir,
        extras=tuple(args.extras), current_extras=tuple(args.current_extras), reuse_oracle=args.reuse_oracle)
    if args.oracle_runs == 1:
        err.print("note: --oracle-runs 1 measures no spread: a non-deterministic program will fail the training "
                  "phase on its own noise")
    try:
        result = verify_program(program, options, ConsoleProgress(err, args.quiet),
                                EscalationOptions(runs=args.escalate_runs))
    except (BadProgram, NoTensorFlow, FileExistsError, ValueError) as error:
        _error(str(error))
        return EXIT_ERROR
    except oracles.OracleUnavailable as error:
        _error(str(error))
        return EXIT_ERROR
    console = Console(width=max(Console().width, 140))
    console.print(report.render(result))
    for line in report.diagnosis(result):
        console.print(line, markup=False, highlight=False)
    json_path = args.json or Path(result.work_dir) / "verify.json"
    report.write_json(result, json_path)
    html_path = args.html or Path(result.work_dir) / "verify.html"
    report_html.write_html(report.as_json(result), html_path)
    verdict = {EXIT_PASS: "[bold green]reproduces the original[/]",
               EXIT_DIFFERS: "[bold red]does not reproduce the original[/]",
               EXIT_ERROR: "[yellow]could not be verified completely[/]"}[result.exit_code]
    console.print(f"{program.script.name}: {verdict} (exit {result.exit_code}); details: {json_path}, {html_path}")
    return result.exit_code


if __name__ == "__main__":
    sys.exit(main())
