"""verify's runs, in order: the oracle (twice or more), then each current-TF side, both phases.

  1. oracle run 1, from scratch: its ``model.ckpt-0`` is captured while it runs (a program that
     keeps few checkpoints deletes it later) and becomes every other run's start state;
  2. oracle runs 2..N from that ckpt-0 moved by one ulp (a seed per run): the oracle's own spread
     (verify/judge.py), each also on another number of intra-op threads, and a TF 2.x oracle
     alternating oneDNN's kernels (verify/oracle_plan.py): what the oracle does when only its
     rounding changes;
  3. exact phase in the oracle: the same command on a model_dir seeded with run 1's final
     checkpoint, so training is already done (max_steps reached) and evaluation and prediction
     run on one fixed set of weights;
  4. per side (runner, migrated): the training phase from ckpt-0 and the exact phase from the
     oracle's final checkpoint, each in its own fresh model_dir, judged against the oracle (the
     training phase, with 3 or more oracle runs, against the oracle's own held-out runs too:
     verify/calibration.py).

Everything lands in one work folder (model_dirs, logs, the migrated copy, verify.json); the
user's sources and model_dir are only read.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from verify import calibration, comparable, dead_import, global_step_race, oracle_cache, oracle_plan, oracles, unmigrated
from verify.compare import compare, flatten_numbers
from verify.environments import ProgramFailed, harvest, program_env, run_program
from verify.findings import Limitation, limitation
from verify.judge import Judgement, judge
from verify.nudge import nudge_checkpoint, nudge_npz
from verify.oracle_choice import choose_oracle
from verify.program import Program, check_program
from verify.sides import USER_SIDES, describe_failure, launch, script_command, seed_model_dir, with_notebook_options

RACE_ORDER = Path(__file__).resolve().parent / "race_order.py"
from verify.tag_names import align_uniquified_tags

HARVEST_EVERYTHING = {"everything": True, "values_per_variable": 16}
# Names a TF2-written checkpoint may add that are bookkeeping, not model state.
BOOKKEEPING_NAMES = ("_CHECKPOINTABLE_OBJECT_GRAPH",)
DEFAULT_EXACT_RTOL = 1e-6
# Training across TensorFlow versions drifts by float rounding of different kernels; measured on
# the shipped examples (legacy_examples/catalog.py): final weights up to 1.5e-5 of their RMS
# after 30 AdamWeightDecay steps (BERT), 1.1e-5 after 40 Nesterov steps with fused batch norm
# (ResNet), Keras 3 against TF 1.15's Keras 4.1e-5. Numbers the oracle repeats exactly are held
# to this; numbers it does not repeat, to the margin times its spread.
DEFAULT_TRAIN_RTOL = 1e-4
CKPT0 = "model.ckpt-0"
# What verify/keras_record.py writes for a Keras notebook (spelled here: that module runs inside
# each TensorFlow and imports it, this process must not; tests/verify/test_keras_record.py
# holds the two spellings equal).
RECORD_FOLDER, START, MISMATCH = "keras_record", "keras_start.npz", "start_mismatch.txt"
_STATE = re.compile(r'model_checkpoint_path:\s*"([^"]+)"')


@dataclass(frozen=True)
class Options:
    sides: tuple[str, ...] = USER_SIDES
    oracle: str | None = None  # None: chosen from the program's imports
    # Oracle runs that measure its spread: two identical runs end it (a deterministic program),
    # otherwise up to this many. With three, a number that is as noisy as the oracle (normal,
    # independent) falls outside 3x the range of its series 4.0% of the time for a one-number
    # series, 0.25% for three numbers, 2 in 100000 for 17 (simulated, docs/verify.md).
    oracle_runs: int = 3
    exact: bool = True
    exact_args: tuple[str, ...] | None = None  # None: the program's own arguments
    rtol: float = DEFAULT_EXACT_RTOL
    train_rtol: float = DEFAULT_TRAIN_RTOL
    margin: float = 3.0
    timeout: float = 3600.0
    provision: bool = True
    work_dir: Path | None = None
    extras: tuple[str, ...] = ()  # --with: packages the program needs in the oracle beyond its TensorFlow
    current_extras: tuple[str, ...] = ()  # --current-with: the same for the current-TF sides
    reuse_oracle: bool = False  # --reuse-oracle: keep and reuse the oracle's runs (verify/oracle_cache.py)


class Progress(Protocol):
    def start(self, label: str) -> None: ...
    def step(self, step: int) -> None: ...
    def finish(self, label: str, seconds: float, ok: bool) -> None: ...
    def note(self, text: str) -> None: ...


class Silent:
    def start(self, label): pass
    def step(self, step): pass
    def finish(self, label, seconds, ok): pass
    def note(self, text): pass


@dataclass
class Phase:
    """One phase of one side: its judgement, or why it could not be judged."""

    name: str  # "training" or "exact"
    judgement: Judgement | None = None
    notes: list[str] = field(default_factory=list)
    limitation: Limitation | None = None
    model_dir: str = ""
    seconds: float = 0.0

    @property
    def status(self) -> str:
        if self.limitation is not None:
            return "LIMITED"
        if self.judgement is None:
            return "NOT RUN"
        return "PASS" if self.judgement.passed else "FAIL"


@dataclass
class SideResult:
    side: str
    phases: list[Phase] = field(default_factory=list)
    crashed: str | None = None  # the error of a run that did not finish
    log: str = ""
    names_only_in_oracle: list[str] = field(default_factory=list)
    names_only_on_side: list[str] = field(default_factory=list)
    names_different: list[str] = field(default_factory=list)  # same name, other dtype or shape

    @property
    def status(self) -> str:
        if self.crashed or self.names_only_in_oracle or self.names_only_on_side or self.names_different:
            return "FAIL"
        statuses = {phase.status for phase in self.phases}
        if "FAIL" in statuses:
            return "FAIL"
        if "LIMITED" in statuses or not statuses:
            return "LIMITED"
        return "PASS"


@dataclass
class VerifyResult:
    program: Program
    oracle: str
    oracle_reason: str
    tensorflow: str = ""
    sides: list[SideResult] = field(default_factory=list)
    oracle_runs: list[dict] = field(default_factory=list)  # {"model_dir"}
    oracle_deterministic: bool = False  # runs 1 and 2 were identical to the last bit
    oracle_exact_deterministic: bool = True  # two evaluations of one checkpoint were identical
    oracle_global_step_race: list[str] = field(default_factory=list)  # VER006: racy reads in its graph
    # `read -> increment` pairs of the global-step race the oracle ran ordered (verify/race_order.py)
    oracle_race_ordered: list[str] = field(default_factory=list)
    work_dir: str = ""
    error: str | None = None  # verify could not judge at all (oracle failed...)
    options: Options = field(default_factory=Options)

    @property
    def exit_code(self) -> int:
        """0 every side reproduces the oracle; 1 a side differs (or crashed); 2 could not judge."""
        if self.error is not None:
            return 2
        statuses = {side.status for side in self.sides}
        if "FAIL" in statuses:
            return 1
        return 0 if statuses == {"PASS"} else 2

    @property
    def passed(self) -> bool:
        return self.exit_code == 0


def default_work_dir(program: Program) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return oracles.cache_root().parent / "verify" / f"{program.script.stem}-{stamp}"


def latest_step(model_dir: Path) -> int | None:
    try:
        match = _STATE.search((model_dir / "checkpoint").read_text())
    except OSError:
        return None
    if not match:
        return None
    tail = match.group(1).rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else None


def _is_variables_file(name: str) -> bool:
    """`model.ckpt-0.index` or `model.ckpt-0.data-00000-of-00001`: the files a restore reads."""
    suffix = name[len(CKPT0):]
    return suffix == ".index" or re.fullmatch(r"\.data-\d+-of-\d+", suffix) is not None


class Ckpt0Capture:
    """Copies model.ckpt-0 out of a running program's model_dir as soon as it is complete.

    Complete = the `checkpoint` state file (updated after the files are written) names it.
    """

    def __init__(self, model_dir: Path, into: Path):
        self.model_dir, self.into = model_dir, into
        self.files: list[Path] = []

    def __call__(self) -> None:
        if self.files:
            return
        try:
            state = (self.model_dir / "checkpoint").read_text()
        except OSError:
            return
        if f'{CKPT0}"' not in state or not (self.model_dir / f"{CKPT0}.index").exists():
            return
        self.into.mkdir(parents=True, exist_ok=True)
        copied = []
        for file in sorted(self.model_dir.glob(f"{CKPT0}.*")):
            # Only the variables' files (`.index`, `.data-*`): TF1's Saver writes the .meta after the
            # state file, through a temporary `.meta.tmp<hex>` it renames (gone before it is copied).
            if not _is_variables_file(file.name):
                continue
            shutil.copyfile(file, self.into / file.name)
            copied.append(self.into / file.name)
        self.files = copied


def checkpoint_files(model_dir: Path) -> tuple[str, list[Path]] | None:
    """(prefix name, its files) of model_dir's latest checkpoint, its `.meta` included.

    Read after the run ended, so every file is complete. The `.meta` goes along because programs
    read it from the seeded model_dir (some copy `model.ckpt-N.meta` after each evaluation, and
    would fail in the oracle itself without it). No TensorFlow rebuilds its graph from it."""
    state = model_dir / "checkpoint"
    if not state.exists():
        return None
    match = _STATE.search(state.read_text())
    if not match:
        return None
    prefix = Path(match.group(1)).name
    files = sorted(file for file in model_dir.glob(f"{prefix}.*") if "tempstate" not in file.name)
    return (prefix, files) if files else None


class Runner:
    """Runs everything for one verify call (see the module docstring)."""

    def __init__(self, program: Program, options: Options, progress: Progress):
        self.program, self.options, self.progress = program, options, progress
        self.work = (options.work_dir or default_work_dir(program)).resolve()
        self.global_step_race: list[str] = []  # the oracle's racy reads (global_step_race.py), if it varies
        self.race_ordered: list[str] = []  # the race pairs the oracle ran in program order (race_order.py)
        self.overrides_file: Path | None = None  # a notebook's overrides, as notebook_script.py reads them
        self.keras_start: Path | None = None  # the oracle's Keras initial weights, once run 1 recorded them

    # --- one run -------------------------------------------------------------------------------
    def run(self, label: str, python_or_command: list[str], python: str, model_dir: Path,
            args: tuple[str, ...] | None, *, python_path, onednn: bool, watch=None,
            intra_op_threads: int | None = None, keras_start: Path | None = None) -> dict:
        """Run the program once into model_dir and harvest it with `python` (the same TF).

        A notebook runs in model_dir with the overrides and, except in the oracle's first run,
        from the oracle's Keras start weights (notebook_script.py, keras_record.py), or from
        `keras_start` (a spread run's nudged copy of them)."""
        env = program_env(onednn=onednn, python_path=python_path, intra_op_threads=intra_op_threads)
        argv = self.program.argv(model_dir) if args is None else self._argv(args, model_dir)
        model_dir.mkdir(parents=True, exist_ok=True)
        python_or_command = with_notebook_options(python_or_command, model_dir, self.overrides_file,
                                                  keras_start or self.keras_start)
        log = model_dir.parent / f"{model_dir.name}.log"
        if str(RACE_ORDER) in python_or_command:
            env[race_order_log_variable()] = str(race_log(model_dir))
        started = time.perf_counter()
        self.progress.start(label)

        def watching():
            step = latest_step(model_dir)
            if step is not None:
                self.progress.step(step)
            return watch() if watch is not None else False

        ok = False
        try:
            run_program([*python_or_command, *argv], env=env, cwd=self.program.cwd, timeout=self.options.timeout,
                        log=log, watch=watching)
            ok = True
        finally:
            self.progress.finish(label, time.perf_counter() - started, ok)
        harvested = harvest(python, model_dir, HARVEST_EVERYTHING, env=env)
        harvest_file(model_dir).write_text(json.dumps(harvested))  # the --html report's curves read it
        return harvested

    def _oracle_command(self, python: str) -> list[str]:
        """The oracle runs the program under race_order.py: a global-step race runs in program order."""
        return [python, str(RACE_ORDER), *script_command(self.program.script, self.program.recorded)]

    def _keras_only(self, reference: dict) -> bool:
        """A Keras program that writes no checkpoint: no exact phase (its evaluate/predict after
        training are compared in the training phase, from the oracle's start weights)."""
        return self.keras_start is not None and reference.get("final_checkpoint") is None

    def _argv(self, args: tuple[str, ...], model_dir: Path) -> list[str]:
        return Program(self.program.script, args, steps=self.program.steps).argv(model_dir)

    # --- the whole verification ----------------------------------------------------------------
    def verify(self) -> VerifyResult:
        program, options = self.program, self.options
        check_program(program)
        if options.oracle is None:
            choice = choose_oracle(program.script, program.python_path)
            oracle, reason = choice.oracle, choice.reason
        else:
            oracle, reason = options.oracle, "forced with --oracle"
        result = VerifyResult(program=program, oracle=oracle, oracle_reason=reason, work_dir=str(self.work),
                              options=options)
        if self.work.exists() and any(self.work.iterdir()):
            raise FileExistsError(f"work folder {self.work} is not empty; give a new --work-dir (verify never "
                                  "overwrites earlier results)")
        self.work.mkdir(parents=True, exist_ok=True)
        if program.notebook:  # a notebook's or Keras script's overrides
            self.overrides_file = self.work / "notebook_overrides.json"
            self.overrides_file.write_text(json.dumps(program.notebook.as_json(), indent=1))
        python = str(oracles.ensure(oracle, provision=options.provision, log=self.progress.note))
        oracle_extras = oracles.ensure_extras(python, options.extras, provision=options.provision,
                                              log=self.progress.note)
        current_extras = oracles.ensure_extras(sys.executable, options.current_extras, provision=options.provision,
                                               log=self.progress.note)
        self.oracle_path = (*program.python_path, *([oracle_extras] if oracle_extras else []))
        self.current_extras = [current_extras] if current_extras else []
        try:
            reference, spread_runs, start_files, exact_references = self._oracle_phase(oracle, python, result)
        except ProgramFailed as failed:
            result.error = (f"VER005 the original program fails in its oracle ({oracle}), so there is nothing to "
                            f"compare with: {describe_failure(failed)} (log in {self.work / 'oracle'})")
            return result
        result.tensorflow = reference.get("tensorflow", "")
        for side in options.sides:
            result.sides.append(self._side(side, [reference, *spread_runs], start_files, exact_references))
        return result

    def _oracle_phase(self, oracle: str, python: str, result: VerifyResult):
        """The oracle's runs: from the cache with --reuse-oracle when it holds them, else run (and kept)."""
        if not self.options.reuse_oracle:
            return self._oracle_runs(oracle, python, result)
        cache_key = oracle_cache.key(self.program, self.options, oracle)
        state = oracle_cache.restore(cache_key, self.work)
        if state is not None:
            self.progress.note(f"the oracle's runs of this program were kept by an earlier verify ({cache_key}): "
                               "reused")
            return self._restored(state, result)
        outcome = self._oracle_runs(oracle, python, result)
        oracle_cache.store(cache_key, self.work, self._oracle_state(result, outcome))
        return outcome

    def _oracle_state(self, result: VerifyResult, outcome) -> dict:
        """What a later verify needs of these oracle runs besides their folders (oracle_cache.py)."""
        reference, spread_runs, start_files, exact_references = outcome
        return {"oracle_runs": [dict(run, model_dir=Path(run["model_dir"]).name) for run in result.oracle_runs],
                "oracle_deterministic": result.oracle_deterministic,
                "oracle_exact_deterministic": result.oracle_exact_deterministic,
                "oracle_global_step_race": result.oracle_global_step_race,
                "oracle_race_ordered": result.oracle_race_ordered,
                "start_files": [file.name for file in start_files],
                "exact_runs": None if exact_references is None else len(exact_references),
                "exact_seeded": None if not exact_references else exact_references[0].get("seeded_checkpoint"),
                "keras_start": self.keras_start is not None}

    def _restored(self, state: dict, result: VerifyResult):
        folder, start = self.work / "oracle", self.work / "start_state"
        result.oracle_runs = [dict(run, model_dir=str(folder / run["model_dir"])) for run in state["oracle_runs"]]
        for name in ("oracle_deterministic", "oracle_exact_deterministic", "oracle_global_step_race",
                     "oracle_race_ordered"):
            setattr(result, name, state[name])
        self.global_step_race, self.race_ordered = result.oracle_global_step_race, result.oracle_race_ordered
        if state["keras_start"]:
            self.keras_start = start / START
        runs = [json.loads(harvest_file(Path(run["model_dir"])).read_text()) for run in result.oracle_runs]
        exact_references = None
        if state["exact_runs"] is not None:
            exact_references = [json.loads(harvest_file(folder / ("exact" if index == 1 else f"exact{index}"))
                                           .read_text()) for index in range(1, state["exact_runs"] + 1)]
            for run in exact_references:
                run["seeded_checkpoint"] = state["exact_seeded"]
        return runs[0], runs[1:], [start / name for name in state["start_files"]], exact_references

    def _oracle_runs(self, oracle: str, python: str, result: VerifyResult):
        folder = self.work / "oracle"
        folder.mkdir()
        start = self.work / "start_state"
        capture = Ckpt0Capture(folder / "run1", start)
        (folder / "run1").mkdir()
        reference = self.run(f"oracle {oracle} run 1/{self.options.oracle_runs}", self._oracle_command(python),
                             python, folder / "run1", None, python_path=self.oracle_path, onednn=True,
                             watch=capture)
        result.oracle_runs.append({"model_dir": str(folder / "run1")})
        start_files = capture.files
        keras_start = folder / "run1" / RECORD_FOLDER / START
        if keras_start.exists():  # a Keras program: its models' weights at their first use
            start.mkdir(parents=True, exist_ok=True)
            self.keras_start = start / START
            shutil.copyfile(keras_start, self.keras_start)
        elif not start_files:
            self.progress.note(limitation("VER001").message)
        spread_runs = []
        alternate = oracle_has_onednn(reference.get("tensorflow", ""))
        for index in range(2, self.options.oracle_runs + 1):
            model_dir = folder / f"run{index}"
            how = oracle_plan.spread_run(index, alternate_onednn=alternate,
                                         recorded_start=bool(start_files) or self.keras_start is not None)
            seed_model_dir(model_dir, self._nudged(start_files, how.nudge_seed, folder / f"start{index}"),
                           CKPT0 if start_files else None)
            spread_runs.append(self.run(f"oracle {oracle} run {index} (at most {self.options.oracle_runs}), "
                                        f"{how.describe()}", self._oracle_command(python), python, model_dir,
                                        None, python_path=self.oracle_path, onednn=how.onednn,
                                        intra_op_threads=how.intra_op_threads,
                                        keras_start=self._nudged_keras_start(how.nudge_seed,
                                                                             folder / f"start{index}")))
            result.oracle_runs.append({"model_dir": str(model_dir), **how.as_json()})
            if index == 2 and identical(reference, spread_runs[0]):
                result.oracle_deterministic = True
                self.progress.note(f"the oracle repeated itself exactly ({how.describe()}): every number is held "
                                   "to the tolerance")
                break
        result.oracle_race_ordered = ordered_races([folder / "run1", *(folder / f"run{index}" for index in
                                                                        range(2, len(spread_runs) + 2))])
        if result.oracle_race_ordered:
            self.progress.note("the oracle's global-step race ran in program order: "
                               + "; ".join(result.oracle_race_ordered[:4]))
        if not result.oracle_deterministic and spread_runs:
            result.oracle_global_step_race = global_step_race.racy_reads_in(folder / "run1")
        self.global_step_race = result.oracle_global_step_race
        self.race_ordered = result.oracle_race_ordered
        exact_references = None
        if self.options.exact and not self._keras_only(reference):
            final = checkpoint_files(folder / "run1")
            if final is not None:
                exact_references = self._oracle_exact_runs(oracle, python, folder, final, result)
        return reference, spread_runs, start_files, exact_references

    def _nudged(self, start_files: list[Path], seed: int | None, folder: Path) -> list[Path]:
        """`start_files` (a ckpt-0), or a copy with every nonzero float moved one ulp (verify/nudge.py).

        A checkpoint the nudge cannot rewrite is used as it is, and the progress says so: the
        spread then shows only what the thread count moves.
        """
        if seed is None or not start_files:
            return start_files
        try:
            nudge_checkpoint(start_files[0].parent / CKPT0, folder / CKPT0, seed=seed)
        except RuntimeError as error:
            self.progress.note(f"start weights not moved for this oracle run ({str(error).splitlines()[0]})")
            return start_files
        return sorted(path for path in folder.iterdir() if path.name.startswith(CKPT0 + "."))

    def _nudged_keras_start(self, seed: int | None, folder: Path) -> Path | None:
        """The Keras start weights for a spread run: a copy with every nonzero float moved one ulp
        (verify/nudge.py), or None (the recorded ones) when there is no seed, no Keras start, or
        the copy cannot be written (noted: the spread then shows only what the thread count moves)."""
        if seed is None or self.keras_start is None:
            return None
        try:
            nudge_npz(self.keras_start, folder / START, seed=seed)
        except RuntimeError as error:
            self.progress.note(f"start weights not moved for this oracle run ({str(error).splitlines()[0]})")
            return None
        return folder / START

    def _oracle_exact_runs(self, oracle: str, python: str, folder: Path, final, result) -> list[dict]:
        """The oracle's evaluation of its own final checkpoint, twice; more when the two differ.

        An evaluation can be random although the checkpoint is fixed (eval records shuffled
        unseeded, tokens masked at random):
        then one oracle run is no reference, and the exact phase is held to the oracle's own
        spread over up to --oracle-runs evaluations, like the training phase.
        """
        runs = []
        for index in range(1, max(2, self.options.oracle_runs) + 1):
            model_dir = folder / ("exact" if index == 1 else f"exact{index}")
            seed_model_dir(model_dir, final[1], final[0])
            label = "exact phase" if index == 1 else f"exact phase run {index}"
            runs.append(self.run(f"oracle {oracle} {label}", self._oracle_command(python), python,
                                 model_dir, self.options.exact_args, python_path=self.oracle_path,
                                 onednn=True))
            runs[-1]["seeded_checkpoint"] = final[0]
            if index == 2 and identical(fixed_part(runs[0]), fixed_part(runs[1])):
                return runs[:1]
        result.oracle_exact_deterministic = False
        self.progress.note("the oracle's evaluation of one checkpoint differs from run to run: the exact "
                           "phase is held to its spread")
        return runs

    def _side(self, side: str, oracle_runs: list[dict], start_files: list[Path], exact_references) -> SideResult:
        outcome = SideResult(side)
        folder = self.work / side
        folder.mkdir()
        try:
            how = launch(side, self.program, self.work)
        except ProgramFailed as failed:
            outcome.crashed = f"estimator-migrate failed: {describe_failure(failed)}"
            return outcome
        training = Phase("training", model_dir=str(folder / "training"))
        outcome.phases.append(training)
        seed_model_dir(folder / "training", start_files, CKPT0 if start_files else None)
        started = time.perf_counter()
        try:
            ours = self.run(f"{side}: training phase", how.command, sys.executable, folder / "training", None,
                            python_path=[*how.python_path, *self.current_extras], onednn=False)
        except Exception as error:  # the table says what broke; the other side still runs
            mismatch = folder / "training" / RECORD_FOLDER / MISMATCH
            if mismatch.exists():
                training.limitation = limitation("VER008", mismatch.read_text().strip())
                outcome.log = str(folder / "training.log")
                return outcome
            dependency = self._unmigrated_dependency(side, folder / "training.log")
            if dependency is not None:
                training.limitation = limitation("VER007", dependency)
                outcome.log = str(folder / "training.log")
                return outcome
            outcome.crashed = f"training phase: {describe_failure(error)}"
            finding = self._codemod_finding(side, folder / "training.log")
            if finding is not None:  # a dead import the codemod had named (MIG306...)
                outcome.crashed += f"; the codemod reported it: {finding}"
            outcome.log = str(folder / "training.log")
            if start_files:
                self._names_from_scratch(outcome, how, folder, oracle_runs[0])
            return outcome
        training.seconds = round(time.perf_counter() - started, 1)
        self._names(outcome, oracle_runs[0], ours)
        if not flatten_numbers(oracle_runs[0]):
            training.limitation = limitation("VER004")
        elif start_files or self.keras_start is not None:
            oracle_runs, ours, training.notes = comparable.training_inputs(oracle_runs, ours)
            training.judgement = calibration.judge_calibrated(oracle_runs, ours, rtol=self.options.train_rtol,
                                                              margin=self.options.margin)
            training.notes += calibration.notes(training.judgement)
            if self.race_ordered:
                training.notes.append(race_note(self.race_ordered))
            race = self.global_step_race
            if race and not training.judgement.passed:
                # Within the racy oracle's spread is a meaningful PASS; outside it cannot be told
                # from the race itself (global_step_race.py), so it is named, not failed.
                training.notes.append("judged against the oracle's spread: FAIL, not counted (VER006); the "
                                      "numbers outside are listed above")
                training.limitation = limitation("VER006", "its reads: " + ", ".join(race[:4]))
        else:
            training.limitation = limitation("VER001")
        if self.options.exact and self._keras_only(oracle_runs[0]):
            training.notes.append("no exact phase: a Keras program leaves no checkpoint to evaluate; its evaluate() "
                                  "and predict() after training are compared here, from the oracle's start weights")
        elif self.options.exact:
            outcome.phases.append(self._exact(side, how, folder, outcome, oracle_runs[0], exact_references))
        return outcome

    def _unmigrated_dependency(self, side: str, log: Path) -> str | None:
        """A migrated side that stopped in TF1 code outside its migrated tree: that file (VER007)."""
        if not side.startswith("migrated") or not log.exists():
            return None
        return unmigrated.tf1_dependency(log.read_text(errors="replace"), self.work)

    def _codemod_finding(self, side: str, log: Path) -> str | None:
        """The codemod's finding for the import that stopped a migrated side (dead_import.py)."""
        report = self.work / "migrate.log"
        if not side.startswith("migrated") or self.program.migrated_script is not None or not log.exists() \
                or not report.exists():
            return None
        return dead_import.finding_for_dead_import(log.read_text(errors="replace"), report.read_text(errors="replace"),
                                                   self.work / "migrated" / self.program.root.name)

    def _exact(self, side, how, folder: Path, outcome: SideResult, reference: dict, exact_references) -> Phase:
        exact = Phase("exact", model_dir=str(folder / "exact"))
        exact_reference = exact_references[0] if exact_references else None
        if exact_reference is None:
            exact.limitation = limitation("VER003")
            return exact
        final = checkpoint_files(Path(self.work / "oracle" / "run1"))
        seed_model_dir(folder / "exact", final[1], final[0])
        started = time.perf_counter()
        try:
            ours = self.run(f"{side}: exact phase", how.command, sys.executable, folder / "exact",
                            self.options.exact_args, python_path=[*how.python_path, *self.current_extras],
                            onednn=False)
        except Exception as error:
            outcome.crashed = f"exact phase: {describe_failure(error)}"
            outcome.log = str(folder / "exact.log")
            return exact
        exact.seconds = round(time.perf_counter() - started, 1)
        trained = trained_further(exact_reference, reference)
        if trained:
            exact.limitation = limitation("VER002", trained)
            return exact
        if not flatten_numbers(fixed_part(exact_reference)):
            exact.limitation = limitation("VER004")
            return exact
        fixed, exact.notes = align_uniquified_tags(fixed_part(exact_reference), fixed_part(ours))
        judgement = judge([fixed_part(run) for run in exact_references], fixed, rtol=self.options.rtol,
                          margin=self.options.margin)
        if len(exact_references) > 1:
            exact.notes = [*exact.notes, f"the oracle's evaluation of one checkpoint varied over "
                                         f"{len(exact_references)} runs: held to {self.options.margin:g} x its spread"]
        ours_trained = trained_further(ours, reference)
        if ours_trained:  # the oracle skipped training on this checkpoint; the side did not
            judgement = dataclasses.replace(
                judgement, mismatched=judgement.mismatched + (f"training on the seeded checkpoint: {ours_trained} "
                                                              "(the oracle skipped training there)",))
        exact.judgement = judgement
        return exact

    def _names_from_scratch(self, outcome: SideResult, how, folder: Path, oracle: dict) -> None:
        """After a side failed from the oracle's start state: which names does it create on its own?

        The side runs once more from an empty model_dir and is stopped as soon as it wrote its
        first checkpoint; a renamed variable then shows up by name instead of as a restore error.
        """
        model_dir = folder / "names"
        model_dir.mkdir()
        try:
            ours = self.run(f"{outcome.side}: checkpoint names from scratch", how.command, sys.executable, model_dir,
                            None, python_path=[*how.python_path, *self.current_extras], onednn=False,
                            watch=lambda: latest_step(model_dir) is not None)
        except Exception:  # it fails on its own too: the crash above is the diagnosis
            return
        self._names(outcome, oracle, ours)

    def _names(self, outcome: SideResult, oracle: dict, ours: dict) -> None:
        theirs = {k: v for k, v in oracle.get("checkpoint_names", {}).items() if k not in BOOKKEEPING_NAMES}
        mine = {k: v for k, v in ours.get("checkpoint_names", {}).items() if k not in BOOKKEEPING_NAMES}
        outcome.names_only_in_oracle = sorted(set(theirs) - set(mine))
        outcome.names_only_on_side = sorted(set(mine) - set(theirs))
        outcome.names_different = sorted(f"{name}: oracle {theirs[name]}, ours {mine[name]}"
                                         for name in set(theirs) & set(mine) if theirs[name] != mine[name])


def harvest_file(model_dir: Path) -> Path:
    """Where a run's harvest is kept, next to its model_dir and log."""
    return model_dir.parent / f"{model_dir.name}.harvest.json"


def race_order_log_variable() -> str:
    return "VERIFY_RACE_LOG"  # race_order.LOG_VARIABLE (that module runs inside the oracle)


def race_log(model_dir: Path) -> Path:
    return model_dir.parent / f"{model_dir.name}.race"


def ordered_races(model_dirs: list[Path]) -> list[str]:
    """The `read -> increment` lines race_order.py wrote for these oracle runs, each once, in order."""
    lines: dict[str, None] = {}
    for model_dir in model_dirs:
        path = race_log(model_dir)
        if path.exists():
            lines.update(dict.fromkeys(line for line in path.read_text().splitlines() if line.strip()))
    return list(lines)


def race_note(ordered: list[str]) -> str:
    """The training phase's note naming the global-step race the oracle ran ordered."""
    failed = [line for line in ordered if line.startswith("not ordered")]
    pairs = [line for line in ordered if not line.startswith("not ordered")]
    if not pairs:
        return "the oracle's global-step race could not be ordered: " + failed[0]
    reads = sorted({line.split(" -> ")[0] for line in pairs})
    return (f"global-step race: the program reads its global step ({', '.join(reads[:4])}) with nothing ordering "
            "the read against its own increment (google-research/bert's optimizer does); TF 1.15 picks the "
            "order by thread timing. The oracle ran every read before the increment, as written and as current "
            "TensorFlow runs it, so its runs are comparable with the sides'")


def oracle_has_onednn(version: str) -> bool:
    """Whether the oracle's TensorFlow (its version) runs oneDNN's kernels by default (TF 2.5+ on x86).

    Then its spread runs alternate them (run 2 off, run 3 on, ...): the sides run with oneDNN off
    (TF 1.15's Eigen kernels), the oracle's first run as users run it, and the two kernel sets
    round differently (~1e-6 per op). A program that amplifies such rounding shows it in the
    oracle's own spread instead of failing every side on it (a batch norm after a ReLU conv can
    turn 1e-6 at one step into 1e-3 at the next). A program that does not
    amplify rounding keeps a spread of ~1e-6, below the training rtol (1e-4): no verdict changes.
    """
    major, _, rest = version.partition(".")
    minor = rest.partition(".")[0]
    return major.isdigit() and minor.isdigit() and (int(major), int(minor)) >= (2, 5)


def identical(first: dict, second: dict) -> bool:
    """Two harvests equal to the last bit (and holding the same numbers)."""
    comparison = compare(first, second, floor=1e-30)
    return (not comparison.missing and not comparison.unexpected and not comparison.mismatched
            and comparison.max_relative == 0.0)


def fixed_part(result: dict) -> dict:
    """What the exact phase compares: evaluations and outputs of the fixed checkpoint.

    The variables are the seeded ones (equal by construction) and training scalars are none
    when training was skipped, so neither is counted as a match.
    """
    return {key: result[key] for key in ("evaluation", "outputs") if key in result}


def trained_further(exact_run: dict, reference: dict) -> str | None:
    """Why an exact-phase run is not an evaluation of the seeded checkpoint, or None.

    A run that leaves no checkpoint its state file names (final_checkpoint None) trained only if it
    wrote training summaries: a program may rename its best checkpoint after evaluating, which
    leaves an exact phase that only evaluated and predicted with no checkpoint named."""
    if exact_run.get("final_checkpoint") is None and not exact_run.get("scalars"):
        return None
    if exact_run.get("final_checkpoint") != reference.get("final_checkpoint"):
        return (f"the run went on from {reference.get('final_checkpoint')} to "
                f"{exact_run.get('final_checkpoint')}")
    return None


def verify_program(program: Program, options: Options = Options(), progress: Progress | None = None) -> VerifyResult:
    """Run every phase for `program`; see VerifyResult.exit_code for the verdict."""
    return Runner(program, options, progress or Silent()).verify()
