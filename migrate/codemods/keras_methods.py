"""Keras 2 model methods and file names that Keras 3 removed or refuses, rewritten where it is faithful.

- `model.fit_generator(gen, steps, ...)` -> `model.fit(gen, steps_per_epoch=steps, ...)`, likewise
  `evaluate_generator`/`predict_generator` (`verbose=0` written out: their default, not
  `evaluate`/`predict`'s). Keras 3's `fit` takes generators and `Sequence`s itself; the loader
  arguments (`workers`, `use_multiprocessing`, `max_queue_size`) moved to `keras.utils.PyDataset`
  and are dropped with a finding (they change speed, not numbers).
- Weight files: Keras 3's `save_weights` and `ModelCheckpoint(save_weights_only=True)` write only
  `*.weights.h5`; `ModelCheckpoint` of whole models writes `.keras` or `.h5` (not `.hdf5`). A
  string literal naming such a file (`"model.h5"`, `os.path.join(d, "w.hdf5")`, an f-string's
  last part) gets the suffix Keras 3 wants, and `load_weights` calls naming the same literal are
  renamed with it (the program reads what it wrote; other `.h5` files still load, Keras 3 reads
  Keras 2 weight files).
  A path built at run time (`start = os.path.join(work_dir, "start.h5")`, then
  `model.save_weights(start)`; a TF-checkpoint prefix) cannot be renamed here: such
  `x.save_weights(p, ...)` / `x.load_weights(p, ...)` calls become
  `estimator_bridge.compat.keras_weights.save_weights(x, p, ...)` / `load_weights(...)`, and
  `ModelCheckpoint(p, save_weights_only=True)` gets `keras3_weights_path(p)`: the file name is
  chosen when the program runs and load_weights reads what was written under it.
- `cell.get_initial_state(batch_size=B, dtype=D)` (Keras 2 RNN cells; Keras 3's take batch_size only:
  TypeError) -> `estimator_bridge.compat.keras2_utils.get_initial_state(cell, batch_size=B, dtype=D)`,
  which decides at run time (a TF 1.x cell keeps its own method).
- A step count that may be a float (`steps_per_epoch=np.ceil(n / 1024)`, a name assigned from a
  division or np.ceil/floor/round/float) in fit/evaluate/predict (and the generator methods) ->
  `estimator_bridge.compat.keras_weights.steps(...)`: Keras 2 ran ceil(steps) steps, Keras 3 raises
  TypeError on a float.
- `model.compile(optimizer, loss, metrics, loss_weights)` with positional arguments past the second ->
  the same call with those as keywords (`metrics=`, `loss_weights=`): Keras 3 moved `loss_weights` to the
  third place, so TF 1.x's positional metrics would become loss weights and compile would fail.
  A positional
  sample_weight_mode/target_tensors (gone in Keras 3) leaves the call as it is.
- `model.compile(experimental_steps_per_execution=N)` / `steps_per_run=N` -> `steps_per_execution=N`
  (Keras 3's compile takes no other spelling); `ModelCheckpoint(..., options=...)` loses `options`
  (MIG208 info: Keras 3 writes checkpoints through the host, where TF's I/O-device option has
  nothing to do; it raised TypeError).
- `Input(tensor=t)` (tf.keras.Input, tf.keras.layers.Input, or `<layers>.Input` on a local alias
  such as `layers = tf.contrib.keras.layers`) -> `estimator_bridge.compat.keras_input.Input(...)`:
  TF 1.x returned the graph tensor itself and the model_fn's Keras layers ran on it; Keras 3's
  Input raises on a tf.Tensor. The helper keeps TF 1.15's parameter order.
- `tf.keras.backend.set_learning_phase(v)` / `learning_phase()` (gone in Keras 3) ->
  `estimator_bridge.compat.keras_backend.*`, which record the phase and warn at run time, with a
  MIG207 warning: Keras 3 layers read `training=` only (EfficientNet set the phase and passes
  training= too: same numbers; layers called without it run in inference mode).
- `x.reset_states()` (gone from Keras 3 models and metrics; RNN layers kept it) ->
  `estimator_bridge.compat.keras_methods.reset_states(x)`, which decides at run time as Keras 2
  did (the object's own method, else a model's stateful layers, else a metric's `reset_state()`),
  since what `x` is cannot be seen here.

- `class S(tf.keras.optimizers.schedules.LearningRateSchedule)`: its `__call__(self, step)` gets
  `step = estimator_bridge.compat.keras_methods.legacy_schedule_step(step)` as its first line (after
  a docstring). TF 2.0-2.10's Keras optimizers called a schedule with the step cast to float32;
  Keras 3's pass their int64 iterations variable, so integer arithmetic (`step // n`, then
  `0.95 ** epoch`: TypeError; `tf.math.rsqrt(step)`: no int kernel) breaks. The helper casts exactly what a Keras 3 optimizer
  passes. A `__call__` whose body does not start with a simple statement is left (none seen).
- `optimizer.apply_gradients(gv, ...)` in a file that may run under a strategy ->
  `estimator_bridge.compat.keras_methods.apply_gradients(optimizer, gv, ...)`: a Keras 3 optimizer
  first built inside a `tf.function` run per replica by `strategy.run` failed with two or more
  replicas ("You must feed a value for placeholder tensor ... cond/Placeholder"; Keras 2 ran it:
  the same notebook's custom loop); the helper builds an unbuilt Keras 3 optimizer outside the
  traced function first and passes every other optimizer through.

- `strategy.make_dataset_iterator(...)` / `make_input_fn_iterator` / `experimental_run(...)` (TF 1.x
  session-mode strategy API, deprecated but still present in TF 2.21) in a file with a strategy, a
  `Session` and Keras: MIG203, no rewrite; Keras 3 objects do not run in a graph/session loop
  (`metric.variables[i].initializer`: AttributeError).

The receiver of a method is not resolved (it is the user's model object); calls on TensorFlow
modules themselves are never touched.
"""

from __future__ import annotations

import re
from functools import lru_cache

import libcst as cst

from migrate.codemods.base import dotted_name
from migrate.codemods.call_arguments import argument
from migrate.codemods.registry import Codemod
from migrate.resolve import canonical
from migrate.tables.keras import (CHECKPOINT_DROPPED_KEYWORDS, COMPILE_KERAS3_KEYWORDS, COMPILE_KEYWORD_RENAMES,
                                  COMPILE_TF1_POSITIONAL, KERAS2_H5_SUFFIXES, REMOVED_METHODS, WEIGHTS_SUFFIX,
                                  RemovedMethod)

CHECKPOINT = "keras.callbacks.ModelCheckpoint"
INPUTS = frozenset({"keras.Input", "keras.layers.Input"})
INPUT_HELPER = "estimator_bridge.compat.keras_input.Input"
RESET_STATES_HELPER = "estimator_bridge.compat.keras_methods.reset_states"
VALIDATION_HELPER = "estimator_bridge.compat.keras_methods.restarted_each_epoch"
UNSEEN_BUILD_HELPER = "estimator_bridge.compat.keras_methods.unseen_symbolic_build"
SCHEDULE_HELPER = "estimator_bridge.compat.keras_methods.legacy_schedule_step"
APPLY_GRADIENTS_HELPER = "estimator_bridge.compat.keras_methods.apply_gradients"
WEIGHTS_HELPERS = {"save_weights": "estimator_bridge.compat.keras_weights.save_weights",
                   "load_weights": "estimator_bridge.compat.keras_weights.load_weights"}
WEIGHTS_PATH_HELPER = "estimator_bridge.compat.keras_weights.keras3_weights_path"
STEPS_HELPER = "estimator_bridge.compat.keras_weights.steps"
INITIAL_STATE_HELPER = "estimator_bridge.compat.keras2_utils.get_initial_state"
# `cell.get_initial_state(batch_size=..., dtype=...)`: Keras 2's parameters, Keras 3 takes batch_size only
_INITIAL_STATE_CALL = re.compile(r"\.\s*get_initial_state\s*\((?:[^()]|\([^()]*\))*\b(?:dtype|inputs)\s*=")
# Methods whose step counts Keras 3 takes only as ints, and those keywords.
STEPS_METHODS = frozenset({"fit", "evaluate", "predict"}) | frozenset(REMOVED_METHODS)
STEPS_KEYWORDS = frozenset({"steps_per_epoch", "steps", "validation_steps"})
# text that can make a float: true division, numpy's rounding, float()
_FLOATISH = re.compile(r"(?<![/*])/(?![/=])|\b(?:ceil|floor|round|rint|float|float32|float64)\s*\(")
# a weights call whose path is not one string literal (a run-time path or a TF checkpoint name)
_WEIGHTS_CALL = re.compile(r"(?<!keras_weights)\.\s*(?:save|load)_weights\s*\(|ModelCheckpoint")
_APPLY_GRADIENTS_CALL = re.compile(r"\.\s*apply_gradients\s*\(")
# TF 1.x distribution-strategy methods (StrategyV1, tf.contrib.distribute.TPUStrategy) that TF 2.x
# strategies do not have; the session loop around them has no faithful rewrite.
STRATEGY_V1_METHODS = frozenset({"make_dataset_iterator", "make_input_fn_iterator", "experimental_run"})
_STRATEGY_V1_CALL = re.compile(r"\.\s*(?:%s)\s*\(" % "|".join(sorted(STRATEGY_V1_METHODS)))
# Base classes of user learning-rate schedules (canonical names: tf.keras.optimizers.schedules.*,
# tf.optimizers.schedules.*, the TF 2.x-internal module path).
SCHEDULE_BASES = frozenset({"keras.optimizers.schedules.LearningRateSchedule",
                            "tensorflow.optimizers.schedules.LearningRateSchedule",
                            "keras.optimizer_v2.learning_rate_schedule.LearningRateSchedule"})
# A file that may run Keras under a tf.distribute strategy (where the validation restart fails).
_STRATEGY_WORDS = re.compile(r"Strategy\b|\bget_strategy\b|\bkeras_to_tpu_model\b")
_VALIDATION_STEPS = re.compile(r"\bvalidation_steps\s*=")
_FIT_OPEN = re.compile(r"\.\s*fit\s*\(")
_SEQUENCE_WORDS = re.compile(r"\bSequence\b|\bPyDataset\b|\.\s*flow(?:_from_\w+)?\s*\(")
# Keras 2's global learning phase -> the bridge's recorder (it warns: Keras 3 layers ignore it).
LEARNING_PHASE = {"keras.backend.set_learning_phase": "estimator_bridge.compat.keras_backend.set_learning_phase",
                  "keras.backend.learning_phase": "estimator_bridge.compat.keras_backend.learning_phase"}
# Method names this codemod acts on (the pre-filter looks for them as attributes).
METHOD_NAMES = frozenset(REMOVED_METHODS) | {"save_weights", "load_weights", "reset_states"}

_NO_SPACE = cst.SimpleWhitespace("")
_COMPILE_KEYWORD = re.compile(r"\b(?:%s)\s*=" % "|".join(COMPILE_KEYWORD_RENAMES))
# a `.compile(` call that is not `re.compile(` (its positional arguments are counted on the tree)
_COMPILE_CALL = re.compile(r"(?<!\bre)\.\s*compile\s*\(")
_OPTIONS_KEYWORD = re.compile(r"\boptions\s*=")
# `x.reset_states()` (no arguments); the helper it becomes, `reset_states(x)`, is not work.
_RESET_STATES_CALL = re.compile(r"\.\s*reset_states\s*\(\s*\)")
_INPUT_TENSOR = re.compile(r"\bInput\s*\((?:[^()]|\([^()]*\))*\btensor\s*=")


@lru_cache(maxsize=4)
def text_may_need_keras_rewrite(text: str) -> bool:
    """Can this codemod act on `text` at all? (the pre-filter's cheap over-approximation)

    Asked three times per module (the pre-filter's trigger, the partial parse's and the pass's
    reach), so the answer is kept."""
    if any(name in text for name in REMOVED_METHODS) or _RESET_STATES_CALL.search(text):
        return True
    if _validation_steps_to_wrap(text) or _data_fit_to_wrap(text):
        return True
    if _COMPILE_KEYWORD.search(text) or ("ModelCheckpoint" in text and _OPTIONS_KEYWORD.search(text)):
        return True
    if "keras" in text and _positional_compile_metrics(text):
        return True
    if "tensor" in text and _INPUT_TENSOR.search(text):
        return True
    if _schedule_calls_to_cast(text) or _apply_gradients_to_wrap(text):
        return True
    if _STRATEGY_V1_CALL.search(text) and _session_loop_with_keras(text):
        return True
    if _INITIAL_STATE_CALL.search(text):
        return True
    if _WEIGHTS_CALL.search(text) or _float_steps(text):
        return True
    return any(suffix in text for suffix in KERAS2_H5_SUFFIXES) and (
        "save_weights" in text or "ModelCheckpoint" in text)


# a steps keyword of a call (after `(` or `,`: not an assignment statement) and its value's text
_STEPS_VALUE = re.compile(r"[(,]\s*(?:steps_per_epoch|validation_steps|steps)\s*=(?!=)\s*([^,)\n]*)")
_FLOAT_LITERAL = re.compile(r"(?<![\w.])\d+\.\d*|\d+e-?\d+")


def _float_steps(text: str) -> bool:
    """A steps keyword whose value may be a float: it holds a division, a float literal or a rounding call, or
    is a name assigned (anywhere) from one. Over-approximates `_may_be_float` on the tree."""
    if not _FLOATISH.search(text) and not _FLOAT_LITERAL.search(text):
        return False
    for match in _STEPS_VALUE.finditer(text):
        value = match.group(1).strip()
        if _FLOATISH.search(value) or _FLOAT_LITERAL.search(value):
            return True
        if value.isidentifier():
            for assigned in re.finditer(r"\b%s\s*=(?!=)\s*([^\n]*)" % re.escape(value), text):
                if _FLOATISH.search(assigned.group(1)) or _FLOAT_LITERAL.search(assigned.group(1)):
                    return True
    return False


def _positional_compile_metrics(text: str) -> bool:
    """Is there a `.compile(` call (not `re.compile`) with a third positional argument? Scans each call's
    arguments to its closing parenthesis, skipping string literals and nested brackets: the third
    argument is positional when it has text and no top-level `=` before its end. Over-approximates
    (a `*args` or `**kw` third argument counts), never under."""
    for match in _COMPILE_CALL.finditer(text):
        depth, commas, third, index, quote = 0, 0, False, match.end(), None
        while index < len(text):
            char = text[index]
            if quote:
                if char == "\\":
                    index += 1
                elif text.startswith(quote, index):
                    index += len(quote) - 1
                    quote = None
            elif char in "\"'":
                quote = text[index:index + 3] if text[index:index + 3] in ('"""', "'''") else char
                index += len(quote) - 1
                third = third or commas >= 2
            elif char in "([{":
                depth += 1
                third = third or commas >= 2
            elif depth == 0 and char in ")]}":
                if third:
                    return True
                break
            elif char in ")]}":
                depth -= 1
            elif depth == 0 and char == "=" and text[index + 1:index + 2] != "=" and text[index - 1] not in "=!<>":
                break  # a keyword: no positional argument from here on
            elif depth == 0 and char == ",":
                if third:
                    return True
                commas += 1
            elif not char.isspace() and char != "#" and commas >= 2:
                third = True
            index += 1
    return False


def _session_loop_with_keras(text: str) -> bool:
    """A file with a strategy, Keras and a TF 1.x Session (where StrategyV1's methods feed session.run)."""
    return _STRATEGY_WORDS.search(text) is not None and "keras" in text and "Session" in text


def _apply_gradients_to_wrap(text: str) -> bool:
    """More `.apply_gradients(` calls than helper calls, in a file that may use a strategy."""
    calls = len(_APPLY_GRADIENTS_CALL.findall(text))
    return calls > 2 * text.count("keras_methods.apply_gradients(") and _STRATEGY_WORDS.search(text) is not None


def _schedule_calls_to_cast(text: str) -> bool:
    """A `__call__` in a file naming LearningRateSchedule, more of them than cast steps."""
    return "LearningRateSchedule" in text and text.count("def __call__") > text.count("legacy_schedule_step(")


def _validation_steps_to_wrap(text: str) -> bool:
    """More `validation_steps=` than wrapped validation sets, in a file that may use a strategy."""
    steps = len(_VALIDATION_STEPS.findall(text))
    return steps > text.count("restarted_each_epoch(") and _STRATEGY_WORDS.search(text) is not None


def _data_fit_to_wrap(text: str) -> bool:
    """A `fit(` call, a strategy and a keras Sequence (a subclass, a PyDataset, an ImageDataGenerator flow) in
    the file: the data may be a Sequence that Keras 3 reads before training (_symbolic_build_unseen)."""
    return (_FIT_OPEN.search(text) is not None and _STRATEGY_WORDS.search(text) is not None
            and _SEQUENCE_WORDS.search(text) is not None)


def keras3_weights_name(text: str, weights_only: bool) -> str | None:
    """The file name Keras 3 accepts for a Keras 2 one (None: already accepted, or not a weight file)."""
    if text.endswith(WEIGHTS_SUFFIX):
        return None
    for suffix in KERAS2_H5_SUFFIXES:
        if text.endswith(suffix):
            stem = text[:-len(suffix)]
            if weights_only:
                return stem + WEIGHTS_SUFFIX
            return stem + ".h5" if suffix != ".h5" else None
    return None


def _literal_parts(expression: cst.BaseExpression) -> list[cst.CSTNode]:
    """String pieces that can end a path: the literal itself, `join(..., "x.h5")`'s last argument,
    `a + "x.h5"`'s right side, an f-string's last text part."""
    if isinstance(expression, cst.SimpleString):
        return [expression]
    if isinstance(expression, cst.FormattedString) and expression.parts \
            and isinstance(expression.parts[-1], cst.FormattedStringText):
        return [expression.parts[-1]]
    if isinstance(expression, cst.Call) and expression.args and not expression.args[-1].star:
        return _literal_parts(expression.args[-1].value)
    if isinstance(expression, cst.BinaryOperation) and isinstance(expression.operator, cst.Add):
        return _literal_parts(expression.right)
    if isinstance(expression, cst.ConcatenatedString):
        return _literal_parts(expression.right)
    return []


def _text(part: cst.CSTNode) -> tuple[str, str, str] | None:
    """(prefix, body, quote) of a string piece whose body can be edited, else None."""
    if isinstance(part, cst.FormattedStringText):
        return "", part.value, ""
    if isinstance(part, cst.SimpleString):
        prefix_length = len(part.prefix)
        quote = part.quote
        if "b" in part.prefix.lower():
            return None
        return part.value[:prefix_length], part.value[prefix_length + len(quote):-len(quote)], quote
    return None


def _keyword(arg: cst.Arg, name: str) -> cst.Arg:
    return arg.with_changes(keyword=cst.Name(name), equal=cst.AssignEqual(whitespace_before=_NO_SPACE,
                                                                           whitespace_after=_NO_SPACE))


def method_arguments(entry: RemovedMethod, args: list[cst.Arg]) -> tuple[list[cst.Arg], list[str]] | None:
    """(the new method's arguments, dropped parameter names), or None when one cannot be placed."""
    converted, dropped = [], []
    for index, arg in enumerate(args):
        if arg.star:
            if arg.star == "**":
                converted.append(arg)
                continue
            return None
        name = arg.keyword.value if arg.keyword is not None else (
            entry.signature[index] if index < len(entry.signature) else None)
        if name is None or name not in entry.signature:
            return None
        if name in entry.dropped:
            dropped.append(name)
            continue
        if arg.keyword is None and index == 0:
            converted.append(arg)
        else:
            converted.append(_keyword(arg, entry.rename.get(name, name)))
    given = {arg.keyword.value for arg in converted if arg.keyword is not None}
    if not any(arg.star == "**" for arg in converted):
        for name, text in entry.defaults.items():
            if name not in given:
                converted.append(_keyword(cst.Arg(cst.parse_expression(text)), name))
    if converted:
        converted[-1] = converted[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        converted[:-1] = [arg if arg.comma is not cst.MaybeSentinel.DEFAULT else
                          arg.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
                          for arg in converted[:-1]]
    return converted, dropped


class _SavedWeightLiterals(cst.CSTVisitor):
    """Bodies of the string literals this module writes weights to (save_weights, ModelCheckpoint)."""

    def __init__(self, is_checkpoint) -> None:
        self.is_checkpoint = is_checkpoint
        self.renamed: dict[str, str] = {}

    def visit_Call(self, node: cst.Call) -> None:
        found = _weight_path(node, self.is_checkpoint)
        if found is None:
            return
        expression, weights_only = found
        for part in _literal_parts(expression):
            pieces = _text(part)
            if pieces is not None:
                new_body = keras3_weights_name(pieces[1], weights_only)
                if new_body is not None:
                    self.renamed[pieces[1]] = new_body


def _weight_path(call: cst.Call, is_checkpoint) -> tuple[cst.BaseExpression, bool] | None:
    """(path expression, weights only?) of a weight-writing call, else None."""
    if isinstance(call.func, cst.Attribute) and call.func.attr.value == "save_weights":
        path = argument(call, 0, "filepath")
        return None if path is None else (path, True)
    if is_checkpoint(call):
        path = argument(call, 0, "filepath")
        weights_only = argument(call, 4, "save_weights_only")
        if path is None:
            return None
        if weights_only is None:
            return path, False
        if isinstance(weights_only, cst.Name) and weights_only.value in ("True", "False"):
            return path, weights_only.value == "True"
        return None
    return None


class _State:
    """Per module: weight-file literals (old body -> Keras 3 body) and schedule `__call__` anchors."""

    def __init__(self, renamed: dict[str, str], anchors: dict[int, tuple[str, bool]],
                 float_names: frozenset[str] = frozenset()) -> None:
        self.renamed = renamed
        self.anchors = anchors   # id(statement line) -> (step parameter, insert after the line?)
        self.float_names = float_names   # names assigned from an expression that may be a float


def start(rewrite, module: cst.Module) -> _State:
    text = rewrite.source_text
    renamed: dict[str, str] = {}
    if "save_weights" in text or "ModelCheckpoint" in text:
        finder = _SavedWeightLiterals(lambda call: is_checkpoint(rewrite, call))
        module.visit(finder)
        renamed = finder.renamed
    anchors: dict[int, tuple[str, bool]] = {}
    if _schedule_calls_to_cast(text):
        schedules = _ScheduleCalls(rewrite)
        module.visit(schedules)
        anchors = schedules.anchors
    float_names: frozenset[str] = frozenset()
    if _float_steps(text):
        finder = _FloatNames()
        module.visit(finder)
        float_names = frozenset(finder.names)
    return _State(renamed, anchors, float_names)


class _FloatNames(cst.CSTVisitor):
    """Names assigned (anywhere in the module) from an expression that may be a float."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Assign(self, node: cst.Assign) -> None:
        if _may_be_float(node.value, frozenset()):
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    self.names.add(target.target.value)


_FLOAT_CALLS = frozenset({"ceil", "floor", "round", "rint", "float", "float32", "float64", "true_divide", "divide"})


def _may_be_float(expression: cst.BaseExpression, float_names: frozenset[str]) -> bool:
    """Can this step count be a float? A float literal, a true division, numpy's rounding functions or
    float(), or a name assigned from one of those; `len(...)`/`int(...)`/`math.ceil(...)` are ints."""
    if isinstance(expression, cst.Float):
        return True
    if isinstance(expression, cst.Name):
        return expression.value in float_names
    if isinstance(expression, cst.Call):
        name = dotted_name(expression.func) or ""
        if name in ("len", "int", "math.ceil", "math.floor") or name.endswith("keras_weights.steps"):
            return False
        return name.rsplit(".", 1)[-1] in _FLOAT_CALLS
    if isinstance(expression, cst.BinaryOperation):
        if isinstance(expression.operator, cst.Divide):
            return True
        return _may_be_float(expression.left, float_names) or _may_be_float(expression.right, float_names)
    if isinstance(expression, cst.UnaryOperation):
        return _may_be_float(expression.expression, float_names)
    return False


class _ScheduleCalls(cst.CSTVisitor):
    """Where to cast the step in the `__call__` of each LearningRateSchedule subclass."""

    def __init__(self, rewrite) -> None:
        self.rewrite = rewrite
        self.anchors: dict[int, tuple[str, bool]] = {}

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if not isinstance(node.body, cst.IndentedBlock) or not any(
                _key(self.rewrite, base.value) in SCHEDULE_BASES for base in node.bases if base.keyword is None):
            return
        for statement in node.body.body:
            if isinstance(statement, cst.FunctionDef) and statement.name.value == "__call__":
                anchor = _step_anchor(statement)
                if anchor is not None:
                    self.anchors[id(anchor[0])] = anchor[1:]


def _is_docstring(line: cst.BaseStatement) -> bool:
    return isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Expr) \
        and isinstance(line.body[0].value, (cst.SimpleString, cst.ConcatenatedString))


def _step_anchor(function: cst.FunctionDef) -> tuple[cst.SimpleStatementLine, str, bool] | None:
    """(line next to which the cast goes, step parameter, after the line?), or None."""
    params = function.params.params
    if len(params) < 2 or not isinstance(function.body, cst.IndentedBlock) or not function.body.body:
        return None
    step = params[1].name.value
    body = list(function.body.body)
    after = _is_docstring(body[0])
    index = 1 if after else 0
    if index < len(body) and isinstance(body[index], cst.SimpleStatementLine) \
            and "legacy_schedule_step" in cst.Module([]).code_for_node(body[index]):
        return None   # already migrated
    if after:
        return body[0], step, True
    first = body[0]
    if not isinstance(first, cst.SimpleStatementLine) or any(isinstance(s, cst.ImportFrom) for s in first.body):
        return None
    return first, step, False


def leave_statement(rewrite, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine):
    """Insert `step = legacy_schedule_step(step)` at a schedule `__call__`'s start."""
    anchor = rewrite.state[NAME].anchors.get(id(original_node))
    if anchor is None:
        return None
    step, after = anchor
    cast = cst.SimpleStatementLine([cst.Assign(
        targets=[cst.AssignTarget(cst.Name(step))],
        value=cst.Call(func=rewrite.spell(SCHEDULE_HELPER), args=[cst.Arg(cst.Name(step))]))])
    return cst.FlattenSentinel([updated_node, cast] if after else [cast, updated_node])


def _key(rewrite, func: cst.BaseExpression) -> str | None:
    if dotted_name(func) is None or not rewrite.watched(func):
        return None
    keys = {canonical(name) for name in rewrite.import_names(func)}
    return keys.pop() if len(keys) == 1 else None


def is_checkpoint(rewrite, call: cst.Call) -> bool:
    return _key(rewrite, call.func) == CHECKPOINT


def _is_method(rewrite, call: cst.Call, names) -> bool:
    """`x.name(...)` with `x` not a TensorFlow module (the user's model or metric)."""
    func = call.func
    return isinstance(func, cst.Attribute) and func.attr.value in names \
        and not (dotted_name(func.value) is not None and rewrite.watched(func.value)
                 and rewrite.import_names(func.value))


def call_findings(rewrite, call: cst.Call) -> list[tuple]:
    """Findings for this call (the rewrites below say nothing themselves)."""
    if _is_method(rewrite, call, REMOVED_METHODS):
        name = call.func.attr.value
        entry = REMOVED_METHODS[name]
        converted = method_arguments(entry, list(call.args))
        if converted is None:
            return [(call, "MIG207", f"`.{name}(...)` is gone in Keras 3 and its arguments cannot be "
                     f"mapped to `.{entry.target}(...)`; call left unchanged",
                     f"call `.{entry.target}(generator, ...)` with keyword arguments by hand")]
        if converted[1]:
            dropped = ", ".join(f"`{n}=`" for n in converted[1])
            return [(call, "MIG207", f"`.{name}` became `.{entry.target}`; {dropped} dropped: Keras 3 "
                     "takes them on the input (keras.utils.PyDataset), not on the call",
                     "to keep parallel loading, make the generator a keras.utils.PyDataset("
                     "workers=..., use_multiprocessing=..., max_queue_size=...)")]
    elif is_checkpoint(rewrite, call) and _keywords(call, CHECKPOINT_DROPPED_KEYWORDS):
        return [(call, "MIG208", "`ModelCheckpoint(options=...)` dropped: Keras 3's ModelCheckpoint takes "
                 "no options and writes through the host's Python, so TF's I/O-device option (a TPU "
                 "worker writing to this machine's disk) has nothing to do",
                 "nothing to do; a TPU Node writes local files through the host under Keras 3")]
    elif _is_method(rewrite, call, STRATEGY_V1_METHODS) and rewrite.source_has(_session_loop_with_keras):
        name = call.func.attr.value
        return [(call, "MIG203", f"`.{name}(...)` is TF 1.x's session-mode strategy API (tf.contrib.distribute."
                 "TPUStrategy; deprecated in TF 2.x), here in a file that uses Keras: Keras 3 models, metrics "
                 "and optimizers do not run in a TF 1.x graph/session loop (their variables have no "
                 "`.initializer`; the step's updates cannot be session.run), and the loop has no faithful rewrite",
                 "iterate `strategy.experimental_distribute_dataset(dataset)` in Python and call "
                 "`strategy.run(step_fn, args=(batch,))` inside a `@tf.function`; read the metrics eagerly "
                 "instead of through session.run")]
    elif _key(rewrite, call.func) in LEARNING_PHASE:
        return [(call, "MIG207", f"`{dotted_name(call.func)}` has no effect in Keras 3 (no global learning "
                 "phase): rewritten to estimator_bridge's recorder, which warns at run time",
                 "pass training=True/False where the model or layer is called; layers called without it "
                 "run in inference mode (Dropout off, BatchNormalization on moving statistics)")]
    return []


def _is_input_on_a_tensor(rewrite, call: cst.Call) -> bool:
    """`Input(..., tensor=...)` of Keras, by name or on a receiver that is no import (an alias)."""
    if not any(arg.keyword is not None and arg.keyword.value == "tensor" for arg in call.args):
        return False
    return _key(rewrite, call.func) in INPUTS or _is_method(rewrite, call, {"Input"})


def claimed_by_call(rewrite, call: cst.Call) -> tuple[cst.CSTNode, ...]:
    """The learning-phase calls are rewritten here (their finding is this codemod's)."""
    return (call.func,) if _key(rewrite, call.func) in LEARNING_PHASE else ()


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    result = _leave_call(rewrite, original_node, updated_node)
    if _is_method(rewrite, original_node, STEPS_METHODS) and not _estimator_call(original_node):
        call = result if isinstance(result, cst.Call) else updated_node
        counted = _steps_at_run_time(rewrite, call)
        if counted is not None:
            return counted
    return result


def _estimator_call(call: cst.Call) -> bool:
    """`estimator.evaluate(input_fn, steps=...)`: an Estimator's method, not Keras'."""
    for index, arg in enumerate(call.args):
        if arg.keyword is not None and arg.keyword.value == "input_fn":
            return True
        if index == 0 and arg.keyword is None and "input_fn" in (dotted_name(arg.value) or ""):
            return True
    return False


def _steps_at_run_time(rewrite, call: cst.Call) -> cst.Call | None:
    """`fit(..., steps_per_epoch=<maybe a float>)` -> `steps_per_epoch=<helper>(...)`, or None."""
    float_names = rewrite.state[NAME].float_names
    changed, args = False, []
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in STEPS_KEYWORDS and _may_be_float(arg.value, float_names):
            arg = arg.with_changes(value=cst.Call(func=rewrite.spell(STEPS_HELPER), args=[cst.Arg(arg.value)]))
            changed = True
        args.append(arg)
    return call.with_changes(args=args) if changed else None


def _leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    key = _key(rewrite, original_node.func)
    if key in LEARNING_PHASE:
        return updated_node.with_changes(func=rewrite.spell(LEARNING_PHASE[key]))
    if _is_input_on_a_tensor(rewrite, original_node):
        return updated_node.with_changes(func=rewrite.spell(INPUT_HELPER))
    if _is_method(rewrite, original_node, {"apply_gradients"}):
        wrapped = _apply_gradients_wrapped(rewrite, original_node, updated_node)
        if wrapped is not None:
            return wrapped
    if _is_method(rewrite, original_node, {"get_initial_state"}) and not (
            dotted_name(original_node.func) or "").startswith("estimator_bridge.") and any(
            arg.keyword is not None and arg.keyword.value in ("dtype", "inputs") for arg in original_node.args):
        return cst.Call(func=rewrite.spell(INITIAL_STATE_HELPER),
                        args=[cst.Arg(updated_node.func.value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
                              *updated_node.args])
    if _is_method(rewrite, original_node, {"reset_states"}) and not original_node.args:
        return cst.Call(func=rewrite.spell(RESET_STATES_HELPER), args=[cst.Arg(updated_node.func.value)])
    if _is_method(rewrite, original_node, REMOVED_METHODS):
        entry = REMOVED_METHODS[original_node.func.attr.value]
        converted = method_arguments(entry, list(updated_node.args))
        if converted is None:
            return None
        func = updated_node.func.with_changes(attr=cst.Name(entry.target))
        moved = updated_node.with_changes(func=func, args=converted[0])
        if entry.target == "fit":
            wrapped = _validation_restarted(rewrite, moved)
            moved = wrapped if wrapped is not None else moved
            unseen = _symbolic_build_unseen(rewrite, moved)
            return unseen if unseen is not None else moved
        return moved
    if _is_method(rewrite, original_node, {"fit"}):
        wrapped = _validation_restarted(rewrite, updated_node)
        unseen = _symbolic_build_unseen(rewrite, wrapped if wrapped is not None else updated_node)
        if wrapped is not None:
            return unseen if unseen is not None else wrapped
        if unseen is not None:
            keywords = _keyword_changes(rewrite, original_node, unseen)
            return keywords if keywords is not None else unseen
    keywords = _keyword_changes(rewrite, original_node, updated_node)
    result = keywords if keywords is not None else updated_node
    literals = rewrite.state[NAME].renamed
    found = _weight_path(original_node, lambda call: is_checkpoint(rewrite, call))
    loading = _is_method(rewrite, original_node, {"load_weights"})
    if literals and (found is not None or loading):
        renamed = _rename_path_argument(literals, result)
        if renamed is not None:
            keywords = result = renamed
    run_time = _weights_at_run_time(rewrite, original_node, result)
    return run_time if run_time is not None else keywords


def _path_literal(expression: cst.BaseExpression) -> str | None:
    """The text a path expression ends with, when it ends with a string literal, else None."""
    parts = _literal_parts(expression)
    pieces = _text(parts[0]) if parts else None
    return None if pieces is None else pieces[1]


def _weights_at_run_time(rewrite, original_node: cst.Call, call: cst.Call) -> cst.Call | None:
    """Weights calls whose file name Keras 3 may refuse and only the running program knows (see the
    module's docstring), routed through estimator_bridge.compat.keras_weights; None when the name is
    a literal Keras 3 takes (or one the codemod renamed), or the call is not such a call."""
    if (dotted_name(original_node.func) or "").startswith(("estimator_bridge.", "keras_weights.")):
        return None
    method = original_node.func.attr.value if isinstance(original_node.func, cst.Attribute) else None
    if method in WEIGHTS_HELPERS and _is_method(rewrite, original_node, WEIGHTS_HELPERS):
        args = list(call.args)
        if not args or args[0].star or args[0].keyword is not None:
            return None
        literal = _path_literal(args[0].value)
        if literal is not None and (literal.endswith((WEIGHTS_SUFFIX, ".keras")) or (
                method == "load_weights" and literal.endswith(KERAS2_H5_SUFFIXES))):
            return None   # Keras 3 writes or reads this name itself
        receiver = cst.Arg(call.func.value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        return cst.Call(func=rewrite.spell(WEIGHTS_HELPERS[method]), args=[receiver, *args],
                        whitespace_before_args=call.whitespace_before_args)
    found = _weight_path(original_node, lambda node: is_checkpoint(rewrite, node))
    if found is None or not found[1] or not is_checkpoint(rewrite, original_node):
        return None
    args = list(call.args)
    for position, arg in enumerate(args):
        if (arg.keyword is None and position == 0) or (arg.keyword is not None and arg.keyword.value == "filepath"):
            literal = _path_literal(arg.value)
            if literal is not None and literal.endswith(WEIGHTS_SUFFIX):
                return None
            if isinstance(arg.value, cst.Call) and (dotted_name(arg.value.func) or "").endswith(
                    "keras3_weights_path"):
                return None
            args[position] = arg.with_changes(value=cst.Call(func=rewrite.spell(WEIGHTS_PATH_HELPER),
                                                             args=[cst.Arg(arg.value)]))
            return call.with_changes(args=args)
    return None


def _apply_gradients_wrapped(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.Call | None:
    """`opt.apply_gradients(gv, ...)` -> `<helper>(opt, gv, ...)` in a file that may use a strategy."""
    if not rewrite.source_has(_STRATEGY_WORDS):
        return None
    if (dotted_name(original_node.func) or "").endswith("keras_methods.apply_gradients"):
        return None   # the helper itself (already migrated)
    args = list(updated_node.args)
    if not args or args[0].star or (args[0].keyword is not None and args[0].keyword.value != "grads_and_vars"):
        return None
    receiver = cst.Arg(updated_node.func.value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    return cst.Call(func=rewrite.spell(APPLY_GRADIENTS_HELPER), args=[receiver, *args],
                    whitespace_before_args=updated_node.whitespace_before_args)


def _validation_restarted(rewrite, call: cst.Call) -> cst.Call | None:
    """`fit(..., validation_data=V, validation_steps=N)` -> `validation_data=<helper>(V)`, in a file that
    may run under a tf.distribute strategy; None when there is nothing to wrap.

    Keras 2 and 3 restart the validation data every epoch, but Keras 3's trainer under a strategy
    reads the stale validation iterator first and raised StopIteration at the second epoch when the
    previous validation had read a finite dataset of unknown size to its end (`batch(10000)` with
    `validation_steps=1`); the helper returns V itself and
    makes Keras reset that iterator first (estimator_bridge/compat/keras_methods.py).
    """
    if not rewrite.source_has(_STRATEGY_WORDS):
        return None
    data = [arg for arg in call.args if arg.keyword is not None and arg.keyword.value == "validation_data"]
    if len(data) != 1 or not _keywords(call, {"validation_steps"}):
        return None
    value = data[0].value
    if isinstance(value, cst.Call) and (dotted_name(value.func) or "").endswith("restarted_each_epoch"):
        return None
    wrapped = cst.Call(func=rewrite.spell(VALIDATION_HELPER), args=[cst.Arg(value)])
    return call.with_changes(args=[arg.with_changes(value=wrapped) if arg is data[0] else arg for arg in call.args])


def _symbolic_build_unseen(rewrite, call: cst.Call) -> cst.Call | None:
    """`fit(data, ...)` (no labels: a Sequence, dataset or generator) in a file that may use a tf.distribute
    strategy and has keras Sequences -> `fit(<helper>(data), ...)`; None when there is nothing to wrap.

    Keras 3's trainer under a strategy reads a batch to build the model before the first epoch; from a
    Sequence that read draws its order from Python's `random` once more than TF 2.x's Keras did, so every
    epoch read other batches (TF 2.15: the first epoch's loss 0.70373, Keras 3: 0.70068). The helper
    returns `data` and keeps the generators as they were across that read, once per process
    (estimator_bridge/compat/keras_methods.py).
    """
    if not rewrite.source_has(_data_fit_to_wrap) or any(arg.star for arg in call.args):
        return None
    positional = [arg for arg in call.args if arg.keyword is None]
    named = {arg.keyword.value: arg for arg in call.args if arg.keyword is not None}
    data = positional[0] if positional else named.get("x")
    if data is None or len(positional) > 1 or "y" in named:
        return None
    value = data.value
    if isinstance(value, cst.Call) and (dotted_name(value.func) or "").endswith("unseen_symbolic_build"):
        return None
    if isinstance(value, cst.Name) and value.value == "None":
        return None
    wrapped = cst.Call(func=rewrite.spell(UNSEEN_BUILD_HELPER), args=[cst.Arg(value)])
    return call.with_changes(args=[arg.with_changes(value=wrapped) if arg is data else arg for arg in call.args])


def _keywords(call: cst.Call, names) -> list[cst.Arg]:
    return [arg for arg in call.args if arg.keyword is not None and arg.keyword.value in names]


def _compile_positional_as_keywords(call: cst.Call) -> cst.Call | None:
    """`x.compile(a, b, c, d)` -> `x.compile(a, b, metrics=c, loss_weights=d)` (TF 1.x's positions), or None
    when nothing is past the second position, a `*args` hides the positions, a keyword repeats one, or a
    position Keras 3 has no keyword for is used."""
    positional = [arg for arg in call.args if arg.keyword is None]
    if len(positional) < 3 or any(arg.star for arg in call.args) or positional != list(call.args[:len(positional)]):
        return None
    names = COMPILE_TF1_POSITIONAL[:len(positional)]
    if len(positional) > len(COMPILE_TF1_POSITIONAL) or not set(names[2:]) <= COMPILE_KERAS3_KEYWORDS:
        return None
    if _keywords(call, set(names)):
        return None
    args = list(call.args)
    for index in range(2, len(positional)):
        args[index] = args[index].with_changes(keyword=cst.Name(names[index]),
                                               equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                                                                     whitespace_after=cst.SimpleWhitespace("")))
    return call.with_changes(args=args)


def _keyword_changes(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.Call | None:
    """compile's positional metrics and renamed keywords, ModelCheckpoint's dropped keywords, or None."""
    moved = None
    if _is_method(rewrite, original_node, {"compile"}):
        moved = _compile_positional_as_keywords(updated_node)
        updated_node = moved if moved is not None else updated_node
    if _is_method(rewrite, original_node, {"compile"}) and _keywords(original_node, COMPILE_KEYWORD_RENAMES):
        if _keywords(original_node, set(COMPILE_KEYWORD_RENAMES.values())):
            return moved  # both spellings given: Keras 3 would see a duplicate; left to the user
        return updated_node.with_changes(args=[
            arg.with_changes(keyword=cst.Name(COMPILE_KEYWORD_RENAMES[arg.keyword.value]))
            if arg.keyword is not None and arg.keyword.value in COMPILE_KEYWORD_RENAMES else arg
            for arg in updated_node.args])
    if is_checkpoint(rewrite, original_node) and _keywords(original_node, CHECKPOINT_DROPPED_KEYWORDS):
        args = [arg for arg in updated_node.args
                if arg.keyword is None or arg.keyword.value not in CHECKPOINT_DROPPED_KEYWORDS]
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(args=args)
    return moved


def _rename_path_argument(literals: dict[str, str], call: cst.Call, index: int = 0) -> cst.Call | None:
    args = list(call.args)
    for position, arg in enumerate(args):
        if arg.star:
            return None
        if (arg.keyword is None and position == index) or (arg.keyword is not None
                                                          and arg.keyword.value == "filepath"):
            new_value = _rename_literals(literals, arg.value)
            if new_value is None:
                return None
            args[position] = arg.with_changes(value=new_value)
            return call.with_changes(args=args)
    return None


def _rename_literals(literals: dict[str, str], expression: cst.BaseExpression) -> cst.BaseExpression | None:
    """`expression` with its trailing path literal renamed as the module's writes were."""
    parts = _literal_parts(expression)
    if not parts:
        return None
    part = parts[0]
    pieces = _text(part)
    if pieces is None or pieces[1] not in literals:
        return None
    prefix, body, quote = pieces
    new_body = literals[body]
    replacement = part.with_changes(value=new_body) if isinstance(part, cst.FormattedStringText) \
        else part.with_changes(value=f"{prefix}{quote}{new_body}{quote}")
    return expression.deep_replace(part, replacement)


NAME = "KerasRemovedMethods"
CODEMOD = Codemod(
    name=NAME,
    description="Rewrite Keras 2 generator methods and weight file names for Keras 3; report what has no rewrite.",
    order=14,
    start=start,
    leave_call=leave_call,
    leave_statement=leave_statement,
    call_findings=call_findings,
    claimed_by_call=claimed_by_call,
    structural_keys=frozenset(LEARNING_PHASE),
    text_trigger=text_may_need_keras_rewrite,
    # acting on any receiver's methods only where its text trigger (the pre-filter's) fires
    reach=lambda text: None if text_may_need_keras_rewrite(text) else frozenset(),
)
