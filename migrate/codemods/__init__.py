"""The codemods, one record per module (codemods/registry.py); `PIPELINE` is the order the pass asks them in.

Structural rewrites run before renames (they match the TF1 spelling); TF1NamesToCompatV1 runs
last so that it only sees names no other codemod claimed.
"""

from migrate.codemods.registry import discover

PIPELINE = discover()
