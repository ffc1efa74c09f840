"""Run a Jupyter notebook's code cells as one program, with papermill-style parameters.

    python verify/notebook_script.py NOTEBOOK.ipynb [--name=value ...]
    python verify/notebook_script.py SCRIPT.py [ARGUMENT ...]

Kaggle and Colab notebooks take no command line. As papermill does, the cell tagged
`parameters` holds their defaults (`MODEL_DIR = "/kaggle/working"`), and each `--name=value`
becomes an assignment executed right after that cell (the value read as a Python literal when
it is one, else as a string) to the variable of that name the cell assigns, or to its upper-case
spelling (`--epochs=3` sets `EPOCHS`); a name the cell does not assign is an error listing the
ones it does. IPython-only lines (`!shell`, `%magic`, `%%cell` magics) become `pass` at their
indentation (a `!pip install` alone in an `if` block stays valid Python; `out = !shell`
assigns an empty list): the programs verify runs are plain Python in their cells. The cells then run in order in one `__main__` namespace,
as a kernel would.

Overrides (verify's --set/--after/--skip-cell/--stub-module, docs/verify.md "Notebooks") make
a notebook tiny and point it at other data without editing it: `--overrides FILE` names a JSON
document ``{"after": [[NAME, CODE], ...], "skip_cells": [TEXT, ...], "replace": [[OLD, NEW],
...], "stub_modules": [MODULE, ...]}``. OLD is replaced by NEW in the code of every cell that
runs (`Dropout(0.5)` -> `Dropout(0.0)`: an expression no assignment names). CODE is inserted right after every module-level statement that binds NAME (an
assignment, `def`, `class`, `import`, `for` target; also inside a module-level `if`/`with`/`for`/
`try` block, at that statement's indentation, never inside a function), so `EPOCHS = 3` set
after `EPOCHS = 60` holds from there on; a cell containing TEXT is not run; a stubbed module
(`matplotlib`, `PIL`: display only) is a do-nothing object. A NAME the notebook never binds, or a
TEXT (or OLD) no cell contains, is an error naming it: an override that silently does nothing would make
a tiny run that is not tiny. ``{model_dir}`` in CODE is the run's folder.

`--model-dir DIR` runs the notebook with DIR as its working folder (a notebook writes where it
runs, like Colab's /content; verify gives each run its own) and records what its Keras `fit`,
`evaluate` and `predict` did into DIR/keras_record (verify/keras_record.py); `--keras-start
FILE` starts each model from the weights the oracle recorded there.

A Keras script with no model_dir runs the same way: its text is one cell (no IPython lines), its arguments its `sys.argv`, its folder first on
`sys.path`, the overrides (no --skip-cell) and the Keras recorder as for a notebook.

Runs inside every oracle (Python 3.7 + TF 1.15 too): standard library only, run by file path.
"""

import ast
import importlib.util
import json
import linecache
import os
import re
import sys
import traceback
import types


def _cell_source(cell):
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _python_lines(text):
    if text.lstrip().startswith("%%"):
        return ""
    lines = []
    for line in text.split("\n"):
        stripped = line.lstrip()
        captured = _SHELL_CAPTURE.match(line)
        if stripped.startswith(("!", "%")):
            line = line[:len(line) - len(stripped)] + "pass  # IPython: " + stripped
        elif captured:  # `out = !cmd`: the shell is not run, its output is no lines
            line = "%s = []  # IPython: %s" % (captured.group(1), line[captured.end(1):].strip())
        lines.append(line)
    return "\n".join(lines)


_SHELL_CAPTURE = re.compile(r"^(\s*[A-Za-z_][\w, ]*?)\s*=\s*[!%]")


def _assigned_names(source):
    """The names the parameters cell assigns at its top level (`EPOCHS = 3`, `a, b = 1, 2`)."""
    names = set()
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) else [])
        for target in targets:
            for leaf in ast.walk(target):
                if isinstance(leaf, ast.Name):
                    names.add(leaf.id)
    return names


def _parameter_lines(arguments, known):
    lines = []
    for argument in arguments:
        if not argument.startswith("--") or "=" not in argument:
            raise SystemExit("notebook parameters are --name=value, got %r" % argument)
        name, _, value = argument[2:].partition("=")
        try:
            literal = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            literal = value
        target = name if name in known else name.upper()
        if target not in known:
            raise SystemExit("--%s: the cell tagged 'parameters' assigns no %s%s; it assigns %s"
                             % (name, name, "" if name == name.upper() else " or " + name.upper(),
                                ", ".join(sorted(known)) or "nothing"))
        lines.append("%s = %r" % (target, literal))
    return "\n".join(lines)


def _bound_names(node):
    """The names a statement binds in the namespace it runs in."""
    names = []
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(alias.asname or alias.name).split(".")[0] for alias in node.names]
    targets = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
        targets = [node.target]
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
    for target in targets:
        names += [leaf.id for leaf in ast.walk(target) if isinstance(leaf, ast.Name)]
    return names


_BLOCKS = ("body", "orelse", "finalbody", "handlers")


def _module_level_statements(body):
    """Every statement that runs in the module's namespace: inside if/with/for/while/try blocks
    too, not inside functions or classes."""
    for node in body:
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for block in _BLOCKS:
            for child in getattr(node, block, None) or []:
                if isinstance(child, ast.ExceptHandler):
                    for inner in _module_level_statements(child.body):
                        yield inner
                elif isinstance(child, ast.stmt):
                    for inner in _module_level_statements([child]):
                        yield inner


def _statement_end(node, lines):
    """The last line of `node` (end_lineno is Python 3.8+; Python 3.7 gets the last line of its
    deepest last child, then any continuation lines)."""
    end = getattr(node, "end_lineno", None)
    if end is not None:
        return end
    end = node.lineno
    for child in ast.walk(node):
        end = max(end, getattr(child, "lineno", end))
    # a multi-line expression's closing lines: read on until the source parses up to there
    while end < len(lines):
        try:
            ast.parse("\n".join(lines[node.lineno - 1:end]).strip() + "\n"
                      if node.col_offset == 0 else "if 1:\n" + "\n".join(lines[node.lineno - 1:end]))
            break
        except SyntaxError:
            end += 1
    return end


def _with_insertions(source, after, used, into=None):
    """`source` with each `after` code inserted after every module-level statement binding its name;
    with `into` (the same lines before IPython lines became Python), inserted into those lines."""
    target = source if into is None else into
    if not after or len(target.split("\n")) != len(source.split("\n")):
        return target
    lines = source.split("\n")
    inserts = {}
    for node in _module_level_statements(ast.parse(source).body):
        names = _bound_names(node)
        for index, (name, code) in enumerate(after):
            if name in names:
                used.add(index)
                indent = " " * node.col_offset
                text = "\n".join(indent + line for line in code.split("\n"))
                inserts.setdefault(_statement_end(node, lines), []).append(text)
    out = []
    for number, line in enumerate(target.split("\n"), 1):
        out.append(line)
        out.extend(inserts.get(number, []))
    return "\n".join(out)


def script_program(text, overrides=None):
    """A Keras script's Python with the overrides applied, as one cell (no IPython lines: a script's
    line that starts with `%` continues an expression)."""
    [(_, python, _)] = _overridden_cells([{"cell_type": "code", "source": text}], overrides, ipython=False)
    return python + "\n"


def _overridden_cells(cells, overrides, ipython=True):
    """[(cell number, its Python, its own text)] of the code cells that run, with the overrides
    applied (skips, replacements, insertions); SystemExit naming an override that matches nothing."""
    overrides = overrides or {}
    after = [tuple(pair) for pair in overrides.get("after", [])]
    skips = list(overrides.get("skip_cells", []))
    replaces = [tuple(pair) for pair in overrides.get("replace", [])]
    kept, used, replaced, skipped = [], set(), set(), set()
    for number, cell in enumerate(cells):
        source = _cell_source(cell)
        matched = [text for text in skips if text in source]
        if matched:
            skipped.update(matched)
            continue
        for which, (old, new) in enumerate(replaces):
            if old in source:
                replaced.add(which)
                source = source.replace(old, new)
        python = _python_lines(source) if ipython else source
        kept.append((number, _with_insertions(python, after, used), _with_insertions(python, after, set(), source)))
    unused = [name for index, (name, _) in enumerate(after) if index not in used]
    if unused:
        raise SystemExit("override of %s: the notebook never binds %s at module level (an assignment, def, "
                         "class or import outside functions, in a cell that runs)"
                         % (", ".join(sorted(set(unused))), " or ".join(sorted(set(unused)))))
    unreplaced = [old for index, (old, _) in enumerate(replaces) if index not in replaced]
    if unreplaced:
        raise SystemExit("--replace %s: no code cell that runs contains it"
                         % ", ".join(repr(text) for text in unreplaced))
    missing = [text for text in skips if text not in skipped]
    if missing:
        raise SystemExit("--skip-cell %s: no code cell contains it" % ", ".join(repr(text) for text in missing))
    return kept


def program_of(notebook, arguments, overrides=None):
    """The notebook's Python as one module, parameters injected after the `parameters` cell and
    the overrides applied (module docstring); SystemExit naming an override that matches nothing."""
    cells = [cell for cell in notebook["cells"] if cell.get("cell_type") == "code"]
    tagged = [index for index, cell in enumerate(cells)
              if "parameters" in cell.get("metadata", {}).get("tags", [])]
    if arguments and not tagged:
        raise SystemExit("the notebook has no cell tagged 'parameters' to take %s" % arguments)
    chunks = []
    for number, python, _ in _overridden_cells(cells, overrides):
        chunks.append(python)
        if tagged and number == tagged[0]:
            chunks.append(_parameter_lines(arguments, _assigned_names(python)))
    return "\n\n".join(chunks) + "\n"


# Stands for the run's folder in a program the overrides were applied to before migration
# (`{model_dir}` of an override's code would not parse there); replaced when the program runs.
MODEL_DIR_MARKER = "__verify_model_dir__"


def overridden_notebook(notebook, overrides):
    """The notebook with the overrides applied to its code cells (skipped cells left out, IPython
    lines kept), as the user would have edited it: what the migrated side migrates, so that an
    override written against the user's program means the same on every side."""
    overrides = _filled(overrides, MODEL_DIR_MARKER)
    cells = [cell for cell in notebook["cells"] if cell.get("cell_type") == "code"]
    kept = dict((number, text) for number, _, text in _overridden_cells(cells, overrides))
    out, number = dict(notebook), 0
    out["cells"] = []
    for cell in notebook["cells"]:
        if cell.get("cell_type") != "code":
            out["cells"].append(cell)
            continue
        if number in kept:
            changed = dict(cell)
            changed["source"] = kept[number]
            out["cells"].append(changed)
        number += 1
    return out


def overridden_script(text, overrides):
    """A Keras script with the overrides applied (see overridden_notebook)."""
    return script_program(text, _filled(overrides, MODEL_DIR_MARKER))


class _Stub(types.ModuleType):
    """A display-only module verify replaces (matplotlib, PIL): every attribute, call, index and
    iteration answers without doing anything; as a path it is a folder that does not exist."""

    def __init__(self, name="stub"):
        types.ModuleType.__init__(self, name)
        self.__path__ = []
        self.__file__ = "/verify-stub/%s/__init__.py" % name

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _Stub(self.__name__ + "." + name)

    def __call__(self, *args, **kwargs):
        return _Stub(self.__name__ + "()")

    def __iter__(self):
        return iter(())

    def __getitem__(self, key):
        return _Stub(self.__name__ + "[]")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __fspath__(self):
        return "/verify-stub/" + self.__name__

    def __bool__(self):
        return False

    def __mro_entries__(self, bases):
        """As a base class (`class Wrapper(sklearn.base.BaseEstimator)`, Keras 3's scikit-learn
        wrappers at `import tensorflow`): a do-nothing class of the stub's name."""
        return (_stub_class(self.__name__),)

    def __instancecheck__(self, instance):
        return False

    def __subclasscheck__(self, subclass):
        return False


class _StubType(type):
    """The class of a stub base class: its class attributes are stubs too."""

    def __getattr__(cls, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _Stub(cls.__qualname__ + "." + name)


_STUB_CLASSES = {}


def _stub_class(name):
    """One class per stubbed name, so a class named twice as a base is one class."""
    if name not in _STUB_CLASSES:
        def __init__(self, *args, **kwargs):
            pass

        def __getattr__(self, attribute):
            if attribute.startswith("__") and attribute.endswith("__"):
                raise AttributeError(attribute)
            return _Stub(name + "()." + attribute)

        klass = _StubType(name.rsplit(".", 1)[-1], (object,), {"__init__": __init__, "__getattr__": __getattr__})
        klass.__qualname__ = name
        _STUB_CLASSES[name] = klass
    return _STUB_CLASSES[name]


class _StubFinder(object):
    """Serves the stubbed modules and every submodule of them (`import PIL.ImageFont`)."""

    def __init__(self, names):
        self.names = tuple(names)

    def find_spec(self, fullname, path=None, target=None):
        if not any(fullname == name or fullname.startswith(name + ".") for name in self.names):
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        return _Stub(spec.name)

    def exec_module(self, module):
        pass


def install_stubs(names):
    if names:
        sys.meta_path.insert(0, _StubFinder(names))


def _filled(overrides, model_dir):
    if not model_dir:
        return overrides
    text = json.dumps(overrides).replace("{model_dir}", model_dir.replace("\\", "\\\\"))
    return json.loads(text)


RECORDER_CALL = "__verify_keras_record__()"


def _with_recorder_calls(program):
    """The recorder installs itself once Keras is importable: a call after each module-level import."""
    lines = program.split("\n")
    inserts = {}
    for node in _module_level_statements(ast.parse(program).body):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and getattr(node, "module", None) != "__future__":
            inserts.setdefault(_statement_end(node, lines), []).append(" " * node.col_offset + RECORDER_CALL)
    out = []
    for number, line in enumerate(lines, 1):
        out.append(line)
        out.extend(inserts.get(number, []))
    return "\n".join(out)


def _load_recorder():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras_record.py")
    spec = importlib.util.spec_from_file_location("verify_keras_record", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _own_folder_first(folder):
    """The script's folder first on sys.path, as `python SCRIPT` has it; this runner's own folder
    (verify/, whose harvest.py, program.py... a script's imports must not find) off it."""
    mine = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [entry for entry in sys.path if os.path.abspath(entry or ".") != mine]
    sys.path.insert(0, folder)


def _options(argv):
    """(options, notebook path, notebook arguments) from [--model-dir D] [--overrides F] [--keras-start F] NB ..."""
    options = {}
    argv = list(argv)
    while argv and argv[0] in ("--model-dir", "--overrides", "--keras-start"):
        if len(argv) < 2:
            raise SystemExit("%s needs a value" % argv[0])
        options[argv[0][2:]] = argv[1]
        argv = argv[2:]
    if not argv or not argv[0].endswith((".ipynb", ".py")):
        raise SystemExit("usage: python notebook_script.py [--model-dir DIR] [--overrides FILE] "
                         "[--keras-start FILE] NOTEBOOK.ipynb [--name=value ...] | SCRIPT.py [ARGUMENT ...]")
    return options, argv[0], argv[1:]


def main(argv):
    options, path, arguments = _options(argv)
    path = os.path.abspath(path)
    model_dir = options.get("model-dir")
    overrides = {}
    if "overrides" in options:
        with open(options["overrides"], encoding="utf-8") as handle:
            overrides = _filled(json.load(handle), os.path.abspath(model_dir) if model_dir else None)
    with open(path, encoding="utf-8") as handle:
        if path.endswith(".py"):  # a Keras script: its arguments are its own command line
            program = script_program(handle.read(), overrides)
            _own_folder_first(os.path.dirname(path))
            argv = [path] + list(arguments)
        else:
            program = program_of(json.load(handle), arguments, overrides)
            argv = [path]
    namespace = {"__name__": "__main__", "__file__": path}
    if model_dir:
        model_dir = os.path.abspath(model_dir)
        program = program.replace(MODEL_DIR_MARKER, model_dir)
        start = options.get("keras-start")
        recorder = _load_recorder().Recorder(model_dir, os.path.abspath(start) if start else None)
        program = _with_recorder_calls(program)
        namespace[RECORDER_CALL[:-2]] = recorder.install
        os.makedirs(model_dir, exist_ok=True)
        os.chdir(model_dir)
    install_stubs(overrides.get("stub_modules", []))
    # Compiled under a name whose lines linecache serves from the program itself: under the
    # .ipynb path, tracebacks and TensorFlow's autograph (which reads a function's source with
    # inspect) read lines of the notebook's JSON instead of the code that runs.
    script = f"{path}.script.py"
    linecache.cache[script] = (len(program), None, program.splitlines(True), script)
    code = compile(program, script, "exec")
    sys.argv = argv
    try:
        exec(code, namespace)  # noqa: S102 - running the user's notebook is the point
    except Exception:  # printed here: the interpreter's own printer reads source lines from disk
        traceback.print_exc()
        raise SystemExit(1) from None


if __name__ == "__main__":
    main(sys.argv[1:])
