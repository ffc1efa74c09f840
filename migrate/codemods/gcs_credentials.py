"""`tf.contrib.cloud.configure_gcs(session, ...)` statements are removed, with an info finding.

Colab TPU notebooks of 2018-2020 uploaded the user's GCS credentials to the remote TPU worker
through a TF1 Session (`configure_gcs(sess, credentials=auth_info)`), because the worker read
`gs://` with them. TF 2 has no such op and no session; a TPU VM, Colab's
`google.colab.auth.authenticate_user()` or GOOGLE_APPLICATION_CREDENTIALS give TensorFlow its
credentials, so the statement goes and nothing replaces it (MIG103 says what to check). A call
used as a value (not a statement of its own) is left to the generic findings.
"""

from __future__ import annotations

import libcst as cst

from migrate.codemods.base import dotted_name
from migrate.codemods.registry import Codemod, watched_names_only
from migrate.resolve import canonical

KEYS = frozenset({"tensorflow.contrib.cloud.configure_gcs"})


def _configure_call(rewrite, line: cst.SimpleStatementLine) -> cst.Call | None:
    if len(line.body) != 1 or not isinstance(line.body[0], cst.Expr):
        return None
    call = line.body[0].value
    if not isinstance(call, cst.Call) or dotted_name(call.func) is None:
        return None
    keys = {canonical(name) for name in rewrite.import_names(call.func)}
    return call if keys == set(KEYS) else None


def leave_statement(rewrite, original_node, updated_node):
    call = _configure_call(rewrite, original_node)
    if call is None:
        return None
    rewrite.consume(call.func)
    return cst.RemoveFromParent()


def claimed_by_statement(rewrite, line: cst.SimpleStatementLine) -> tuple[cst.CSTNode, ...]:
    call = _configure_call(rewrite, line)
    return (call.func,) if call is not None else ()


def statement_findings(rewrite, line: cst.SimpleStatementLine) -> list[tuple]:
    if _configure_call(rewrite, line) is None:
        return []
    return [(line, "MIG103",
             "`tf.contrib.cloud.configure_gcs(...)` removed: it uploaded GCS credentials to a TPU "
             "worker through a TF1 Session; TensorFlow 2 reads GCS credentials itself",
             "on Colab call google.colab.auth.authenticate_user() before reading gs:// paths; "
             "elsewhere set GOOGLE_APPLICATION_CREDENTIALS (a TPU VM needs nothing)")]


CODEMOD = Codemod(
    name="GcsCredentialUpload",
    description="Remove tf.contrib.cloud.configure_gcs(...) statements (TF 2 reads GCS credentials itself).",
    order=15,
    leave_statement=leave_statement,
    claimed_by_statement=claimed_by_statement,
    statement_findings=statement_findings,
    structural_keys=KEYS,
    reach=watched_names_only,
)
