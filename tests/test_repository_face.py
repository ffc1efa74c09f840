"""What a newcomer sees: a README within its budget, the fresh-machine commands CI runs, no path of
one particular machine, no words about how the work was organised, every runner option documented."""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
README_MAX_BYTES = 8 * 1024
MAX_WORDS = 60          # a paragraph, list item or table row outside code blocks
MAX_LINE_CHARS = 250    # a line outside code blocks (table rows with their links)

# Absolute paths of the machine the project was developed on, and temporary folders as defaults.
MACHINE_PATHS = re.compile("|".join((r"/" + "work/", r"/" + "root/", r"/" + r"tmp/")))
MACHINE_PATHS_EVERYWHERE = re.compile("|".join((r"/" + "work/", r"/" + "root/")))
# /tmp/ may appear where a user's own program names it (test fixtures of TF programs, the legacy
# programs' usage lines, docs quoting a program's code); the product never defaults to it.
TMP_ALLOWED = ("tests/", "legacy_examples/")
TMP_ALLOWED_SUFFIXES = (".md",)
HISTORY_WORDS = re.compile("|".join((
    r"\bsessions? \d+",                                   # "session 17"
    r"\bhelper (?:sessions?|reports?)\b",
    r"\bthe lead\b",
    r"\b(?:in|during|from|before|after|by) (?:this|that) session\b",
    r"\bthis session's\b",
    r"\b(?:other|previous|earlier|later|four|five) sessions\b",
    r"\bsession's (?:fetch|tool)\b",
    r"\bagents\b",
)), re.IGNORECASE)
TEXT_SUFFIXES = {".py", ".md", ".toml", ".json", ".yaml", ".yml", ".txt", ".cfg", ".ipynb", ""}


def tracked_text_files():
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for name in names.splitlines():
        path = ROOT / name
        if path.suffix in TEXT_SUFFIXES and path.is_file() and path != Path(__file__):
            try:
                yield name, path.read_text()
            except UnicodeDecodeError:
                continue


def prose_blocks(markdown: str):
    """Paragraphs, list items and table rows outside fenced code blocks."""
    blocks, current, fenced = [], [], False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        starts_item = line.startswith(("|", "- ", "* ", "#")) or re.match(r"\d+\. ", line)
        if not line.strip() or starts_item:
            if current:
                blocks.append(" ".join(current))
            current = [line] if line.strip() else []
            if line.startswith(("|", "#")):
                blocks.append(line)
                current = []
        else:
            current.append(line)
    if current:
        blocks.append(" ".join(current))
    return blocks


def words(text: str) -> int:
    text = re.sub(r"\]\([^)]*\)", "]", text)  # a link's target is not read
    return len([w for w in re.split(r"[\s|]+", text) if re.search(r"\w", w)])


def test_readme_is_within_its_size_budget():
    assert len(README.read_bytes()) < README_MAX_BYTES


def test_readme_paragraphs_and_rows_stay_short():
    too_long = [(words(b), b[:80]) for b in prose_blocks(README.read_text()) if words(b) > MAX_WORDS]
    assert not too_long, f"over {MAX_WORDS} words: {too_long}"
    fenced, long_lines = False, []
    for line in README.read_text().splitlines():
        fenced = fenced != line.startswith("```")
        if not fenced and len(line) > MAX_LINE_CHARS:
            long_lines.append(line[:80])
    assert not long_lines, f"lines over {MAX_LINE_CHARS} characters: {long_lines}"


def test_the_budget_check_catches_a_long_row():
    row = "| area | " + "word " * (MAX_WORDS + 1) + "|"
    assert any(words(b) > MAX_WORDS for b in prose_blocks("# t\n\n" + row + "\n"))
    paragraph = "\n".join(["word " * 20] * 4)
    assert any(words(b) > MAX_WORDS for b in prose_blocks(paragraph))


def test_readme_gives_the_two_fresh_machine_commands_that_ci_runs_first():
    text = README.read_text()
    first_block = text.split("```bash\n", 1)[1].split("```", 1)[0]
    assert [line.split("#")[0].strip() for line in first_block.splitlines()] == ["make demo", "make test"]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make demo" in ci and "make test" in ci
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^demo:", makefile, re.M) and re.search(r"^test:", makefile, re.M)


def test_readme_links_resolve():
    text = README.read_text()
    targets = [t for t in re.findall(r"\]\(([^)#]+)", text) if not t.startswith("http")]
    assert targets and [t for t in targets if not (ROOT / t).exists()] == []


def test_no_path_of_this_machine_in_the_repository():
    found = []
    for name, text in tracked_text_files():
        quoting = name.startswith(TMP_ALLOWED) or name.endswith(TMP_ALLOWED_SUFFIXES)
        pattern = MACHINE_PATHS_EVERYWHERE if quoting else MACHINE_PATHS
        found += [f"{name}: {m.group(0)}" for m in pattern.finditer(text)]
    assert not found, found[:20]


def test_no_words_of_internal_history():
    found = []
    for name, text in tracked_text_files():
        found += [f"{name}: {m.group(0)!r}" for m in HISTORY_WORDS.finditer(text)]
    assert not found, found[:20]


@pytest.mark.parametrize("text, flagged", [
    ("measured in session 17", True), ("a helper session ran", True), ("The lead: libcst", True),
    ("shared with four other sessions", True), ("not done in this session", True),
    ("tf.compat.v1.Session() runs the graph", False), ("the emulated session hooks see", False),
    ("the hook this session is handed to", False), ("the helper runs `fit`", False),
    ("deepmind/scalable_agent", False), ("a contrib helper", False),
])
def test_the_history_check_reads_words_not_api_names(text, flagged):
    assert bool(HISTORY_WORDS.search(text)) is flagged


def test_every_runner_option_is_documented():
    from estimator_bridge import run

    options = set(re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", run.USAGE))
    text = (ROOT / "docs" / "runner.md").read_text()
    assert options and [o for o in options if f"`{o}" not in text] == []


def test_every_measurement_is_dated_with_its_commit_and_command():
    results = ROOT / "docs" / "results"
    files = sorted(p for p in results.glob("*.md") if p.name != "index.md")
    assert files
    for path in files:
        assert re.fullmatch(r"20\d\d-[01]\d-[0-3]\d-[a-z0-9-]+\.md", path.name), path.name
        head = "\n".join(path.read_text().splitlines()[:15])
        commit = re.search(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b"
                           r"|the commit that adds this file", head)
        assert commit and "command" in head.lower(), f"{path.name}: name the commit and the command first"
