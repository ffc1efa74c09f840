"""Keep eager execution on in estimator code: estimator_bridge traces model_fn inside tf.function.

`tf.disable_v2_behavior()` would switch the whole process to TF1 graph mode, where the bridge
cannot run; it becomes `tf.compat.v1.disable_v2_tensorshape()`, which keeps the one part TF1
model code relies on (`shape[0].value`). `tf.disable_eager_execution()` is removed. Applies only
to modules that use an Estimator (Session-based TF1 scripts need graph mode and keep it).
"""

from __future__ import annotations

import io
import re
import tokenize

import libcst as cst

from migrate.codemods.base import dotted_name
from migrate.codemods.registry import Codemod, watched_names_only
from migrate.resolve import canonical

# canonical name of the switch -> replacement call (None: remove the statement)
SWITCHES = {
    "tensorflow.disable_v2_behavior": "tensorflow.compat.v1.disable_v2_tensorshape",
    "tensorflow.disable_eager_execution": None,
}
USES_ESTIMATOR = re.compile(r"\b(?:TPU)?Estimator(?:Spec)?\b")


def switch_call(line: cst.SimpleStatementLine, names) -> str | None:
    """The canonical switch a statement line calls (`tf.disable_v2_behavior()`), else None."""
    if len(line.body) != 1 or not isinstance(line.body[0], cst.Expr):
        return None
    call = line.body[0].value
    if not isinstance(call, cst.Call) or call.args or dotted_name(call.func) is None:
        return None
    keys = {canonical(name) for name in names(call.func)}
    return keys.pop() if len(keys) == 1 and next(iter(keys)) in SWITCHES else None


# One left-to-right scan: a comment or a whole string literal (triple-quoted first; a backslash
# keeps the next character inside, raw or not; an f-string of Python 3.11 is one literal, as its
# tokenizer reads it) is skipped; the first word found outside them is in the code.
_CODE_WORD = re.compile("|".join((
    r"#[^\r\n]*",
    r"\'\'\'(?:\\.|[^\\])*?\'\'\'", r'"""(?:\\.|[^\\])*?"""',
    r"'(?:\\.|[^\\'\r\n])*'", r'"(?:\\.|[^\\"\r\n])*"',
    r"(?P<word>" + USES_ESTIMATOR.pattern + ")")), re.DOTALL)


def uses_estimator(text: str) -> bool:
    """Whether the module's code (not its strings or comments) names an Estimator class: the word
    in a docstring or a flag's help ("Estimator model_dir") does not make a Session script an
    Estimator program.

    One regular-expression scan skips strings and comments, as the tokenizer would, at a fraction
    of its cost; it is exact for any source CPython parses (the only sources asked about where it
    matters: the pass and the pre-filter's structural keys need a parsed module)."""
    if not USES_ESTIMATOR.search(text):
        return False
    return any(match.group("word") for match in _CODE_WORD.finditer(text))


def _tokenized_uses_estimator(text: str) -> bool:
    """`uses_estimator` as the tokenizer answers it (tests compare both)."""
    if not USES_ESTIMATOR.search(text):
        return False
    try:
        return any(token.type == tokenize.NAME and USES_ESTIMATOR.fullmatch(token.string)
                   for token in tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):  # not Python the tokenizer reads: the word decides
        return True


def leave_statement(rewrite, original_node, updated_node):
    key = switch_call(original_node, rewrite.import_names)
    if key is None:
        return None
    replacement = SWITCHES[key]
    if replacement is None:
        return cst.RemoveFromParent()
    return updated_node.with_changes(body=[cst.Expr(cst.Call(func=rewrite.spell(replacement)))])


def statement_findings(rewrite, line: cst.SimpleStatementLine) -> list[tuple]:
    key = switch_call(line, rewrite.import_names)
    if key is None:
        return []
    spelled = key.replace("tensorflow.", "tf.")
    return [(line, "MIG102",
             f"`{spelled}()` would turn off eager execution, which estimator_bridge needs; "
             + ("replaced (TF1 TensorShape kept)" if SWITCHES[key] else "removed"),
             "nothing to do unless this file also runs tf.compat.v1.Session code")]


CODEMOD = Codemod(
    name="EagerForBridge",
    description="Keep eager mode on in Estimator code (replace tf.disable_v2_behavior, drop disable_eager_execution).",
    order=30,
    leave_statement=leave_statement,
    statement_findings=statement_findings,
    structural_keys=frozenset(SWITCHES),
    applies=uses_estimator,
    reach=watched_names_only,
)
