"""Run a Jupyter notebook's code cells as one program, with papermill-style parameters.

    python verify/notebook_script.py NOTEBOOK.ipynb [--name=value ...]

Kaggle and Colab notebooks take no command line. As papermill does, the cell tagged
`parameters` holds their defaults (`MODEL_DIR = "/kaggle/working"`), and each `--name=value`
becomes an assignment executed right after that cell (the value read as a Python literal when
it is one, else as a string) to the variable of that name the cell assigns, or to its upper-case
spelling (`--epochs=3` sets `EPOCHS`); a name the cell does not assign is an error listing the
ones it does. IPython-only lines (`!shell`, `%magic`, `%%cell` magics) become `pass` at their
indentation (a `!pip install` alone in an `if` block stays valid Python): the programs verify
runs are plain Python in their cells. The cells then run in order in one `__main__` namespace,
as a kernel would.

Runs inside every oracle (Python 3.7 + TF 1.15 too): standard library only, run by file path.
"""

import ast
import json
import linecache
import sys
import traceback


def _cell_source(cell):
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _python_lines(text):
    if text.lstrip().startswith("%%"):
        return ""
    lines = []
    for line in text.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith(("!", "%")):
            line = line[:len(line) - len(stripped)] + "pass  # IPython: " + stripped
        lines.append(line)
    return "\n".join(lines)


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


def program_of(notebook, arguments):
    """The notebook's Python as one module, parameters injected after the `parameters` cell."""
    cells = [cell for cell in notebook["cells"] if cell.get("cell_type") == "code"]
    tagged = [index for index, cell in enumerate(cells)
              if "parameters" in cell.get("metadata", {}).get("tags", [])]
    if arguments and not tagged:
        raise SystemExit("the notebook has no cell tagged 'parameters' to take %s" % arguments)
    chunks = []
    for index, cell in enumerate(cells):
        chunks.append(_python_lines(_cell_source(cell)))
        if tagged and index == tagged[0]:
            chunks.append(_parameter_lines(arguments, _assigned_names(chunks[-1])))
    return "\n\n".join(chunks) + "\n"


def main(argv):
    if not argv or not argv[0].endswith(".ipynb"):
        raise SystemExit("usage: python notebook_script.py NOTEBOOK.ipynb [--name=value ...]")
    path = argv[0]
    with open(path, encoding="utf-8") as handle:
        notebook = json.load(handle)
    program = program_of(notebook, argv[1:])
    # Compiled under a name whose lines linecache serves from the program itself: under the
    # .ipynb path, tracebacks and TensorFlow's autograph (which reads a function's source with
    # inspect) read lines of the notebook's JSON instead of the code that runs.
    script = f"{path}.script.py"
    linecache.cache[script] = (len(program), None, program.splitlines(True), script)
    code = compile(program, script, "exec")
    sys.argv = [path]
    namespace = {"__name__": "__main__", "__file__": path}
    try:
        exec(code, namespace)  # noqa: S102 - running the user's notebook is the point
    except Exception:  # printed here: the interpreter's own printer reads source lines from disk
        traceback.print_exc()
        raise SystemExit(1) from None


if __name__ == "__main__":
    main(sys.argv[1:])
