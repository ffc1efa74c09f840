"""`python -m estimator_bridge.run [--graph-mode] (SCRIPT | -m MODULE) [ARGS...]`: run TF1 code unchanged.

The script runs as `__main__` (via runpy, with `sys.argv = [SCRIPT, *ARGS]` and the script's
folder first on `sys.path`, as `python SCRIPT ARGS` would), while its `import tensorflow as tf`
(and its own modules' imports) see the TF1-shaped namespace of `estimator_bridge.compat`. Only
this process changes: no site-packages edits. `-m MODULE` runs a module the way `python -m MODULE`
does (for code launched as `python -m official.resnet.resnet_main`). The exit code is the script's (`sys.exit(n)`,
`tf.app.run()`'s), 1 for an uncaught exception, 2 for a usage error.

TF 1.15 behaviours are switched on first (`compat.behavior.apply_tf1_behavior`: v1 TensorShape,
so `x.shape[-1].value` works, and identity-based Tensor equality). Keras is Keras 2 from tf-keras
(estimator_bridge/runner_keras.py, compat/legacy_keras.py): TF 1.x Keras programs without an
Estimator run in graph mode with Keras' v1 loops, as TF 1.x ran them; TF 2.x programs eagerly.
Otherwise eager execution stays on: the bridge runs model_fn through tf.function, so the
namespace's `disable_v2_behavior()` and `disable_eager_execution()` keep it on (and say so).
`--graph-mode` disables eager execution first, for scripts that build a graph and run Sessions
themselves (`tf.placeholder`, `tf.Session`) and use no Estimator.
"""

from __future__ import annotations

import os
import runpy
import sys

from estimator_bridge import runner_keras

USAGE = "usage: python -m estimator_bridge.run [--graph-mode] (SCRIPT | -m MODULE) [ARGS...]"


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    graph_mode = False
    module = None
    while argv and argv[0].startswith("-"):
        option = argv.pop(0)
        if option == "-m":
            if not argv:
                print(f"{USAGE}\nerror: -m needs a MODULE", file=sys.stderr)
                return 2
            module = argv.pop(0)
            break
        if option in ("-h", "--help"):
            print(USAGE)
            print(__doc__.split("\n", 2)[2].strip())
            return 0
        if option == "--graph-mode":
            graph_mode = True
        elif option == "--":
            break
        else:
            print(f"{USAGE}\nerror: unknown option {option!r} (options go before SCRIPT)",
                  file=sys.stderr)
            return 2
    if module is not None:
        return _run(graph_mode, [module, *argv], lambda: runpy.run_module(
            module, run_name="__main__", alter_sys=True), search_path=os.getcwd())
    if not argv:
        print(f"{USAGE}\nerror: SCRIPT is required", file=sys.stderr)
        return 2
    script, script_args = argv[0], argv[1:]
    if not os.path.isfile(script):
        print(f"{USAGE}\nerror: script {script!r} does not exist (or is not a file)",
              file=sys.stderr)
        return 2

    return _run(graph_mode, [script, *script_args],
                lambda: runpy.run_path(script, run_name="__main__"),
                search_path=os.path.dirname(os.path.abspath(script)))


def _run(graph_mode, program_argv, run_program, search_path) -> int:
    """Run the program under the TF1 namespace, as `python` would: argv, sys.path, exit code."""
    if (not runner_keras.tensorflow_serves_tf_keras() and runner_keras.started_as_runner(sys.orig_argv)
            and os.environ.get(runner_keras.LEGACY_KERAS_VARIABLE) != "1"):
        # TensorFlow was loaded before estimator_bridge could choose Keras 2 for it (a sitecustomize
        # importing TensorFlow): start again with the choice made. (`run.main()` called in a process
        # of its own keeps that process's Keras.)
        os.environ[runner_keras.LEGACY_KERAS_VARIABLE] = "1"
        os.execv(sys.executable, list(sys.orig_argv))
    from estimator_bridge import compat
    from estimator_bridge.compat import behavior, legacy_keras

    with compat.installed():
        behavior.apply_tf1_behavior()  # v1 TensorShape and Tensor equality, as TF 1.15
        legacy_keras.enable_for_runner()
        if graph_mode:
            behavior.enter_graph_mode()
        sys.argv = list(program_argv)
        sys.path.insert(0, search_path)
        try:
            run_program()
        except SystemExit as exit_request:
            return _exit_code(exit_request.code)
    return 0


def _exit_code(code) -> int:
    """What `python SCRIPT` would exit with for `sys.exit(code)`."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
