"""Command line of the codemod: flags, configuration, rendering and exit codes (no
transformation logic here). The exit codes are documented in docs/migrate.md ("Exit codes").
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Sequence

from migrate import __version__, api, config, render
from migrate.findings import CODES, FileResult, Severity
from migrate.keras_target import set_keras_target

EXIT_CLEAN, EXIT_CHANGES, EXIT_ERROR = 0, 1, 2

USAGE = """%(prog)s [options] PATH [PATH ...]
       %(prog)s verify SCRIPT [verify options] -- PROGRAM ARGS"""

EPILOG = """\
commands:
  verify      run the original program in its TensorFlow (the oracle) and on current TensorFlow,
              and compare the numbers (`estimator-migrate verify --help`)

configuration:
  [tool.estimator-migrate] in the nearest pyproject.toml (or --config FILE) sets defaults for
  select, ignore, tpu-readiness, annotate, jobs, format, quiet, keras; flags on the command line win.

exit codes:
  0  nothing to rewrite and no warning/error finding (--check: nothing would change, no error)
  1  something was (or would be) rewritten, or a finding was reported
  2  usage error, unreadable input or unwritable output, internal error
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="estimator-migrate", usage=USAGE, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Rewrite TF1 / tf.contrib TPU code (scripts, packages, notebooks) for current TensorFlow\n"
                    "and estimator_bridge. By default only reports what it would do.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("paths", nargs="*", help="files or directories to migrate ('-' reads stdin, writes stdout)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--in-place", "-i", action="store_true", help="rewrite the files in place")
    mode.add_argument("--output-dir", "-o", type=Path, metavar="DIR",
                      help="write a migrated copy of the tree (other files copied as they are) to DIR")
    parser.add_argument("--diff", action="store_true", help="print a unified diff of the changes")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if anything would change or any error finding is reported; write nothing")
    parser.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, metavar="N",
                        help="parallel processes (default: CPU count); output order does not depend on it")
    parser.add_argument("--annotate", action=argparse.BooleanOptionalAction, default=False,
                        help="also insert a marker comment `# estimator-migrate: CODE message (hint: ...)` on its "
                             "own line above the statement of each warning/error finding (after --select/--ignore; "
                             "info notes are not marked), in .py files and notebook cells; written with "
                             "--in-place/--output-dir, shown by --diff, counted as a change by --check; a site "
                             "already marked is not marked again; files without such findings are never touched")
    parser.add_argument("--report", type=Path, metavar="FILE", help="also write the report to FILE")
    parser.add_argument("--format", choices=("text", "json", "sarif"), default="text",
                        help="format of the report (--report FILE, or stdout when --report is not given)")
    parser.add_argument("--select", action="append", default=[], metavar="CODES",
                        help="only report findings whose code starts with one of these (comma separated)")
    parser.add_argument("--ignore", action="append", default=[], metavar="CODES",
                        help="do not report findings whose code starts with one of these (comma separated)")
    parser.add_argument("--tpu-readiness", action=argparse.BooleanOptionalAction, default=False,
                        help="also report what in TPU code would run badly on a real TPU (MIG401-MIG406: "
                             "partial batches, Python in the input pipeline, batch sizes, summaries in "
                             "model_fn, local checkpoint paths, steps_per_execution), in files that target TPUs")
    parser.add_argument("--keras", type=int, choices=(2, 3), default=None,
                        help="the Keras the migrated code runs on: 3 (default, or $ESTIMATOR_MIGRATE_KERAS: Keras 2 "
                             "APIs Keras 3 removed are "
                             "rewritten or reported) or 2 (tf.keras and keras become tf_keras, the tf-keras package: "
                             "the smallest diff for code full of Keras 2 internals); the report says which")
    parser.add_argument("--list", action="store_true", help="list the codemods and finding codes, then exit")
    parser.add_argument("--quiet", "-q", action="store_true", help="no per-file lines, only the summary")
    parser.add_argument("--no-cache", action="store_true",
                        help="do not use the result cache of files with nothing to rewrite (see migrate/cache.py)")
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="read defaults from this pyproject.toml's [tool.estimator-migrate] (default: the "
                             "nearest pyproject.toml at or above the paths)")
    parser.add_argument("--no-config", action="store_true", help="ignore any [tool.estimator-migrate] table")
    return parser


def _codes(values: Sequence[str]) -> list[str]:
    return [code.strip().upper() for value in values for code in value.split(",") if code.strip()]


def _list() -> str:
    lines = ["codemods (in pipeline order):"]
    from migrate.codemods import PIPELINE  # noqa: PLC0415 (libcst: not imported by a cached re-run)
    lines += [f"  {codemod.name}: {codemod.description}" for codemod in PIPELINE]
    lines.append("finding codes:")
    lines += [f"  {code.code} {code.severity.value}: {code.title}" for code in CODES.values()]
    return "\n".join(lines) + "\n"


def _progress(total: int):
    """A rich progress bar on stderr when it is a terminal, else None."""
    if not sys.stderr.isatty() or total < 2:
        return None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(TextColumn("migrating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=Console(stderr=True), transient=True)


def _run_stdin(args: argparse.Namespace, select: list[str], ignore: list[str]) -> int:
    data = sys.stdin.buffer.read()
    result = api.migrate_source(data, "<stdin>")
    if args.tpu_readiness:
        result = api.with_readiness(result)
    result = api.select_findings(result, select, ignore)
    if args.annotate:
        from migrate import annotate  # noqa: PLC0415
        result = annotate.annotate(result, api.migrate_source)
    if args.diff:
        sys.stdout.write(render.unified_diff(result) if result.changed else "")
    elif not args.check:
        sys.stdout.buffer.write(result.migrated if result.changed else data)
    for finding in result.findings:
        print(render.finding_line("<stdin>", finding), file=sys.stderr)
    return _exit_code([result], args.check)


def _exit_code(results: Sequence[FileResult], check: bool) -> int:
    if any(f.code == "MIG006" for r in results for f in r.findings):
        return EXIT_ERROR
    changed = any(r.changed for r in results)
    if check:
        errors = any(f.severity == Severity.ERROR for r in results for f in r.findings)
        return EXIT_CHANGES if changed or errors else EXIT_CLEAN
    reported = any(f.severity != Severity.INFO for r in results for f in r.findings)
    return EXIT_CHANGES if changed or reported else EXIT_CLEAN


def _output_error(output_dir: Path, error: Exception) -> str:
    return (f"estimator-migrate: error: cannot write the migrated copy to {output_dir}: {error}; "
            f"choose a directory you can write to with --output-dir")


def _configured_defaults(args: argparse.Namespace) -> dict:
    """The options of [tool.estimator-migrate] that apply to this run ({} when there is none)."""
    if args.no_config:
        return {}
    path = args.config or config.find(args.paths)
    if args.config is not None and not args.config.is_file():
        raise config.ConfigError(f"--config {args.config}: no such file")
    return config.load(path) if path is not None else {}


VERIFY_COMMAND = "verify"  # `estimator-migrate verify ...` (verify/cli.py); a folder named verify: ./verify


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == [VERIFY_COMMAND]:
        from verify.cli import main as verify_main

        return verify_main(argv[1:])
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        defaults = _configured_defaults(args)
        if defaults:
            parser.set_defaults(**{k: v for k, v in defaults.items() if k not in config.LIST_KEYS})
            args = parser.parse_args(argv)
            for key in config.LIST_KEYS & defaults.keys():
                setattr(args, key, getattr(args, key) or defaults[key])  # a flag on the command line wins
    except SystemExit as exit_:
        return EXIT_CLEAN if exit_.code == 0 else EXIT_ERROR
    except config.ConfigError as error:
        print(f"estimator-migrate: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    if args.list:
        sys.stdout.write(_list())
        return EXIT_CLEAN
    if not args.paths:
        parser.print_usage(sys.stderr)
        print("estimator-migrate: error: give at least one file or directory ('-' for stdin)", file=sys.stderr)
        return EXIT_ERROR
    if args.jobs < 1:
        print(f"estimator-migrate: error: --jobs ({args.jobs}) must be a positive integer", file=sys.stderr)
        return EXIT_ERROR
    if args.check and (args.in_place or args.output_dir):
        print("estimator-migrate: error: --check writes nothing; drop --in-place/--output-dir", file=sys.stderr)
        return EXIT_ERROR
    if args.no_cache:
        os.environ["ESTIMATOR_MIGRATE_CACHE"] = "off"  # inherited by the worker processes
    if args.keras is not None:
        set_keras_target(args.keras)   # likewise (verify's migrated side passes it through the environment)
    select, ignore = _codes(args.select), _codes(args.ignore)
    unknown = [c for c in select + ignore if not any(code.startswith(c) for code in CODES)]
    if unknown:
        print(f"estimator-migrate: error: unknown finding code(s) {', '.join(unknown)}; see --list", file=sys.stderr)
        return EXIT_ERROR
    if args.paths == ["-"]:
        return _run_stdin(args, select, ignore)
    try:
        files = api.discover(args.paths)
    except FileNotFoundError as error:
        print(f"estimator-migrate: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    roots = [Path(p) for p in args.paths]
    if args.output_dir:
        files = api.outside_output_dir(files, args.output_dir)
        escaping = api.escaping_symlinks(args.output_dir)
        if escaping:
            print(f"estimator-migrate: error: {escaping[0]} is a symlink to {escaping[0].resolve()}, outside the "
                  f"output directory {args.output_dir}; remove it or choose an empty --output-dir", file=sys.stderr)
            return EXIT_ERROR
        try:
            api.mirror_tree(roots, args.output_dir)
        except OSError as error:
            print(_output_error(args.output_dir, error), file=sys.stderr)
            return EXIT_ERROR

    writing = args.in_place or args.output_dir is not None
    verb = "rewritten" if writing else "would be rewritten"
    results: list[FileResult] = []
    progress = _progress(len(files))
    task = progress.add_task("migrate", total=len(files)) if progress else None
    if progress:
        progress.start()
    try:
        for result in api.migrate_paths(files, jobs=min(args.jobs, max(1, len(files)))):
            if args.tpu_readiness:
                result = api.with_readiness(result)
            result = api.select_findings(result, select, ignore)
            if args.annotate:
                from migrate import annotate  # noqa: PLC0415
                result = annotate.annotate(result, api.migrate_source)
            results.append(result)
            if result.changed and not args.check:
                if args.in_place:
                    api.atomic_write(Path(result.path), result.migrated)
                elif args.output_dir is not None:
                    target = api.ensure_inside(api.output_path(Path(result.path), roots, args.output_dir),
                                               args.output_dir)
                    api.atomic_write(target, result.migrated)
            if args.diff and result.changed:
                sys.stdout.write(render.unified_diff(result))
            if progress:
                progress.advance(task)
    except (OSError, api.OutsideOutputDir) as error:
        print(_output_error(args.output_dir, error) if args.output_dir is not None else
              f"estimator-migrate: error: cannot rewrite in place: {error}; make the file writable or write a "
              f"migrated copy with --output-dir DIR", file=sys.stderr)
        return EXIT_ERROR
    finally:
        if progress:
            progress.stop()

    report = render.as_text(results, verb) if args.format == "text" else render.RENDERERS[args.format](results)
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(report)
    if args.format != "text" and not args.report:
        sys.stdout.write(report)
    else:
        stream = sys.stderr if args.diff else sys.stdout
        stream.write(render.summary(results, verb) + "\n" if args.quiet else render.as_text(results, verb))
    return _exit_code(results, args.check)
