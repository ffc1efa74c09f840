"""estimator-migrate against tf_upgrade_v2 on the real-code corpus, in one run; writes
bench/results/migrate.json.

Usage: python -m bench.migrate_bench [--corpus DIR] [--repeats 3]
(`make bench-migrate` materialises the corpus of bench/corpus/manifest.json first; DIR defaults to
$ESTIMATOR_BRIDGE_CORPUS, else ~/.cache/estimator-bridge/corpus.)

The `.py` files of the corpus (real TPU-era code from public repositories, the same bytes as the
manifest's sha256) are copied into one tree. Measured, each tool in its own process:
  end to end  the CLIs over the tree, interleaved and paired: each repeat runs tf_upgrade_v2,
              estimator-migrate -j 1 --no-cache and estimator-migrate with its default -j
              (--no-cache) back to back, and the ratio is taken within the repeat (the machine
              is shared: pairs see the same load); the median pair is reported;
  no-op re-run the CLI over its own output (already migrated code) with --check, first with an
              empty result cache, then again with that cache, against the first migration run;
  phases      in process, CPU seconds per phase of the library call over the same files:
              pre-filter (CPython parse + survey), libcst parse (with the partial parse's choice
              of lines, migrate/partial_parse.py), name resolution
              (migrate/names.py), transforms (the fused pass without name resolution),
              findings location, codegen, output checks (CPython parse + final name check);
              and libcst's own scope analysis on the same modules (what name resolution replaced);
plus the load average and a CPU-bound control task's speed-up from 2 processes (what -j can
show on this machine right now).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench import cache_dirs

REPO_ROOT = Path(__file__).resolve().parents[1]
RESULTS_FILE = REPO_ROOT / "bench" / "results" / "migrate.json"
VENV_BIN = Path(sys.executable).parent

PHASES = r"""
import json, sys, time
from pathlib import Path
import libcst as cst
from migrate import engine, names, partial_parse, prefilter, final_check
from migrate.api import fewer_collections
from migrate.codemods import findings_collector
fewer_collections()
spent = {}
def timed(label, function):
    def wrapper(*args, **kwargs):
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.process_time() - start
    return wrapper
engine.python_tree = timed("prefilter (CPython parse + survey)", engine.python_tree)
engine.nothing_to_do = timed("prefilter (CPython parse + survey)", engine.nothing_to_do)
engine.parse = timed("libcst parse", engine.parse)
# (the partial parse: choosing the lines a codemod reaches, and libcst's parse of them)
partial_parse.parse = timed("libcst parse", partial_parse.parse)
partial_parse.Partial.code = timed("codegen", partial_parse.Partial.code)
engine.import_survey = timed("name resolution", engine.import_survey)
names.ModuleNames.__init__ = timed("name resolution", names.ModuleNames.__init__)
names.ModuleNames.import_names = timed("name resolution", names.ModuleNames.import_names)
findings_collector.FindingCollector.findings = timed("findings location", findings_collector.FindingCollector.findings)
engine.transform = timed("transform (incl. names, findings)", engine.transform)
engine.output_tree = timed("output checks (CPython parse + final name check)", engine.output_tree)
engine.check_names = timed("output checks (CPython parse + final name check)", engine.check_names)
code = cst.Module.code
cst.Module.code = property(timed("codegen", code.fget))
files = sorted(Path(sys.argv[1]).rglob("*.py"))
texts = []
for path in files:
    try:
        texts.append((str(path), engine.decode(path.read_bytes()).text))
    except engine.SkipFile:
        pass
start = time.process_time()
for name, text in texts:
    try:
        engine.migrate_text(text, name)
    except engine.SkipFile:
        pass
total = time.process_time() - start
spent["transforms (fused pass without names/findings)"] = (spent.pop("transform (incl. names, findings)", 0.0)
    - spent.get("name resolution", 0.0) - spent.get("findings location", 0.0) - spent.get("codegen", 0.0) * 0)
from libcst.metadata import ScopeProvider
modules = []
for name, text in texts:
    try:
        modules.append(cst.parse_module(text))
    except Exception:
        pass
start = time.process_time()
for module in modules:
    cst.MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
libcst_scopes = time.process_time() - start
print(json.dumps({"files": len(texts), "total_cpu_seconds": total,
                  "phases_cpu_seconds": {k: round(v, 2) for k, v in spent.items()},
                  "libcst_scope_provider_cpu_seconds_same_modules": round(libcst_scopes, 2)}))
"""


def corpus_tree(corpus: Path, root: Path) -> tuple[Path, int, int]:
    """The corpus's .py files copied under root/tree; (tree, files, repositories)."""
    tree = root / "tree"
    files = sorted(corpus.rglob("*.py"))
    for path in files:
        target = tree / path.relative_to(corpus)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    repositories = {path.relative_to(corpus).parts[0] for path in files}
    return tree, len(files), len(repositories)


def timed(argv: list[str], env: dict) -> dict:
    """Wall seconds, CPU seconds (user+system, children included) and exit code of one command."""
    with tempfile.NamedTemporaryFile("r") as report:
        start = time.perf_counter()
        completed = subprocess.run(["/usr/bin/time", "-f", "%U %S", "-o", report.name, *argv],
                                   capture_output=True, text=True, env=env)
        seconds = time.perf_counter() - start
        user, system = (report.read().strip().splitlines() or ["0 0"])[-1].split()
    return {"seconds": round(seconds, 2), "cpu_seconds": round(float(user) + float(system), 2),
            "exit": completed.returncode, "load": round(os.getloadavg()[0], 2),
            "stderr_tail": completed.stderr[-300:] if completed.returncode not in (0, 1) else ""}


def _burn(count: int) -> int:
    total = 0
    for index in range(count):
        total += index * index
    return total


def available_parallelism(jobs: int = 2, count: int = 6_000_000) -> float:
    """Wall time of `jobs` CPU-bound tasks run one after another over the same in a pool of
    `jobs`: `jobs` on an idle machine, ~1 when other processes hold the other cores."""
    start = time.perf_counter()
    for _ in range(jobs):
        _burn(count)
    serial = time.perf_counter() - start
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(_burn, [count] * jobs))
    return round(serial / (time.perf_counter() - start), 2)


def median_pair(pairs: list[dict], key: str) -> dict:
    ordered = sorted(pairs, key=lambda pair: pair[key])
    return ordered[len(ordered) // 2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=None,
                        help="the materialised corpus (default $ESTIMATOR_BRIDGE_CORPUS, else "
                             "~/.cache/estimator-bridge/corpus)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    args.corpus = args.corpus or cache_dirs.corpus()
    if not any(args.corpus.rglob("*.py")) if args.corpus.is_dir() else True:
        print(f"no corpus at {args.corpus}: run `make corpus CORPUS={args.corpus}` (python -m "
              f"bench.corpus.materialise {args.corpus} --mirror MIRROR lays out bench/corpus/manifest.json)",
              file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="migrate-bench-"))
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "PYTHONPATH": str(REPO_ROOT)}
    default_jobs = os.cpu_count() or 1
    try:
        tree, files, repositories = corpus_tree(args.corpus, work)
        results: dict = {
            "corpus": {"files": files, "repositories": repositories, "manifest": "bench/corpus/manifest.json"},
            "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                        "load_average_at_start": round(os.getloadavg()[0], 2),
                        "available_parallelism_at_start": available_parallelism()},
            "pairs": []}
        tools = {
            "tf_upgrade_v2": lambda n: [str(VENV_BIN / "tf_upgrade_v2"), "--intree", str(tree), "--outtree",
                                        str(work / f"upgrade_{n}"), "--reportfile", str(work / f"upgrade_{n}.txt")],
            "estimator-migrate -j 1": lambda n: [str(VENV_BIN / "estimator-migrate"), "-q", "--no-cache", "-j", "1",
                                                 "--output-dir", str(work / f"j1_{n}"), str(tree)],
            f"estimator-migrate -j {default_jobs} (default)": lambda n: [
                str(VENV_BIN / "estimator-migrate"), "-q", "--no-cache", "--output-dir", str(work / f"jd_{n}"), str(tree)],
        }
        for repeat in range(args.repeats):
            pair = {name: timed(command(repeat), env) for name, command in tools.items()}
            upgrade = pair["tf_upgrade_v2"]
            for name, row in pair.items():
                if name != "tf_upgrade_v2":
                    row["speedup_vs_tf_upgrade_v2_wall"] = round(upgrade["seconds"] / row["seconds"], 2)
                    row["speedup_vs_tf_upgrade_v2_cpu"] = round(upgrade["cpu_seconds"] / row["cpu_seconds"], 2)
            results["pairs"].append(pair)
        single = f"estimator-migrate -j 1"
        parallel = f"estimator-migrate -j {default_jobs} (default)"
        results["end_to_end_median"] = {
            name: {key: statistics.median(p[name][key] for p in results["pairs"])
                   for key in results["pairs"][0][name] if isinstance(results["pairs"][0][name][key], (int, float))}
            for name in tools}
        # No-op re-run: the migrated tree again (--check), with an empty cache, then with that cache.
        migrated = work / "jd_0" / "tree"
        first = {"first migration (default -j, empty cache)": timed(
            [str(VENV_BIN / "estimator-migrate"), "-q", "--output-dir", str(work / "first"), str(tree)],
            {**env, "ESTIMATOR_MIGRATE_CACHE": str(work / "cache-first")})}
        cache = {**env, "ESTIMATOR_MIGRATE_CACHE": str(work / "cache-noop")}
        check = [str(VENV_BIN / "estimator-migrate"), "-q", "--check", str(migrated)]
        first["no-op re-run, empty cache"] = timed(check, cache)
        first["no-op re-run, with its cache"] = timed(check, cache)
        base = first["first migration (default -j, empty cache)"]["seconds"]
        for name in ("no-op re-run, empty cache", "no-op re-run, with its cache"):
            first[name]["speedup_vs_first_run_wall"] = round(base / first[name]["seconds"], 2)
        results["noop_rerun"] = first
        completed = subprocess.run([sys.executable, "-c", PHASES, str(tree)], capture_output=True, text=True,
                                   env=env, cwd=REPO_ROOT)
        results["phases_in_process"] = json.loads(completed.stdout.strip().splitlines()[-1])
        results["machine"]["load_average_at_end"] = round(os.getloadavg()[0], 2)
        results["machine"]["available_parallelism_at_end"] = available_parallelism()
        median = results["end_to_end_median"]
        results["summary"] = {
            "files_per_second": {name: round(files / row["seconds"], 2) for name, row in median.items()},
            "speedup_vs_tf_upgrade_v2_wall (median of paired repeats)": {
                name: statistics.median(p[name]["speedup_vs_tf_upgrade_v2_wall"] for p in results["pairs"])
                for name in (single, parallel)},
            "speedup_vs_tf_upgrade_v2_cpu (median of paired repeats)": {
                name: statistics.median(p[name]["speedup_vs_tf_upgrade_v2_cpu"] for p in results["pairs"])
                for name in (single, parallel)},
            "noop_rerun_speedup_vs_first_run_wall": {
                name: first[name]["speedup_vs_first_run_wall"]
                for name in ("no-op re-run, empty cache", "no-op re-run, with its cache")},
            "targets": {"one core >= 2x tf_upgrade_v2": ">= 2", "default -j on 2 cores >= 3x": ">= 3",
                        "no-op re-run >= 20x faster than the first run (wall)": ">= 20"},
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)
    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps({"corpus": results["corpus"], "machine": results["machine"], "summary": results["summary"],
                      "end_to_end_median": results["end_to_end_median"], "noop_rerun": results["noop_rerun"],
                      "phases_in_process": results["phases_in_process"]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
