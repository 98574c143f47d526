"""mkdocs hook: the command-line reference generated from the parsers, the notebooks as tutorials.

- ``docs/cli.md`` holds a marker line; at build time it is replaced by every sub-command's
  usage, description and arguments, read from ``build_parser()`` of the ``canasta`` command
  line, so the reference never drifts from the code.
- The notebooks of ``analysis/notebooks`` are added to the site as ``notebooks/<name>.ipynb``
  (mkdocs-jupyter renders them as committed, without running them).
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

#: where ``build_parser`` lives, tried in order (the CLI package is moving out of ``sim``):
#: the first module that imports and has ``build_parser`` is used
CLI_MODULES = ("canasta",)
CLI_MARKER = "<!-- canasta-cli-reference -->"  #: the line of docs/cli.md that is replaced
HELP_WIDTH = 76  #: argparse wraps usage lines to this width (a code block's width)
NOTEBOOKS = Path("analysis") / "notebooks"  #: from the repository root; in the site: notebooks/


def _root(config) -> Path:
    return Path(config["config_file_path"]).resolve().parent


def load_build_parser(modules=CLI_MODULES):
    """``build_parser`` of the first module of ``modules`` that has one, and that module's name."""
    tried = []
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # only "that module does not exist" moves on; a broken import inside it is an error
            if exc.name is None or not (name == exc.name or name.startswith(exc.name + ".")):
                raise
            tried.append(f"{name} (no such module)")
            continue
        build = getattr(module, "build_parser", None)
        if callable(build):
            return build, name
        tried.append(f"{name} (no build_parser)")
    raise PluginError(f"no build_parser found for the CLI reference; tried {', '.join(tried)}")


def _cell(text: str) -> str:
    """Plain text made safe inside a markdown table cell."""
    text = " ".join(text.split())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"([\\`*_\[\]|])", r"\\\1", text)


def _prose(text: str) -> str:
    text = " ".join(text.split())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"([\\`*_\[\]])", r"\\\1", text)


def _machine_free(text: str) -> str:
    """The --jobs default names this machine's core count; the site states it in words."""
    return re.sub(r"every core: \d+", "every core", text)


def _subcommands(parser: argparse.ArgumentParser):
    for action in parser._actions:  # argparse keeps sub-commands in a private list
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                yield name, helps.get(name, ""), sub


def _arguments_table(sub: argparse.ArgumentParser) -> list[str]:
    formatter = sub._get_formatter()
    rows = []
    for action in sub._actions:
        if isinstance(action, argparse._HelpAction) or action.help == argparse.SUPPRESS:
            continue
        invocation = formatter._format_action_invocation(action)
        text = formatter._expand_help(action) if action.help else ""
        if action.required and action.option_strings:
            text = f"(required) {text}"
        rows.append(f"| `{invocation}` | {_cell(_machine_free(text))} |")
    if not rows:
        return []
    return ["| argument | what it does |", "| --- | --- |", *rows]


def cli_reference(build_parser) -> str:
    """Markdown for the whole command line: the top-level usage, then one section a command."""
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(HELP_WIDTH + 2)  # argparse wraps to COLUMNS - 2
    try:
        parser = build_parser()
        out = ["```text", parser.format_usage().strip(), "```", ""]
        commands = list(_subcommands(parser))
        out += ["| command | what it does |", "| --- | --- |"]
        prog = parser.prog
        out += [f"| [`{prog} {n}`](#{prog}-{n}) | {_cell(h)} |" for n, h, _ in commands]
        for name, summary, sub in commands:
            out += ["", f"## `{sub.prog}` {{ #{parser.prog}-{name} }}", ""]
            if summary:
                out += [f"*{_prose(summary)}*", ""]
            if sub.description:
                out += [_prose(_machine_free(sub.description)), ""]
            out += ["```text", _machine_free(sub.format_usage().strip()), "```", ""]
            out += _arguments_table(sub)
            if sub.epilog:
                out += ["", _prose(sub.epilog)]
        return "\n".join(out) + "\n"
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


def on_config(config):
    root = str(_root(config))
    if root not in sys.path:  # this checkout's sources, not another installed copy
        sys.path.insert(0, root)
    return config


@event_priority(100)  # before mkdocs-jupyter looks for notebooks among the files
def on_files(files, config):
    folder = _root(config) / NOTEBOOKS
    notebooks = sorted(folder.glob("*.ipynb"))
    if not notebooks:
        raise PluginError(f"no notebooks found in {folder}")
    for nb in notebooks:
        # a real File whose source directory is analysis/ (mkdocs-jupyter reads the notebook from
        # src_dir/src_uri; a File.generated one has no src_dir, which its wrapper needs)
        path = f"{NOTEBOOKS.name}/{nb.name}"
        site, directory_urls = config["site_dir"], config["use_directory_urls"]
        files.append(File(path, str(folder.parent), site, directory_urls))
    return files


def on_page_markdown(markdown, page, config, files):
    if page.file.src_uri != "cli.md":
        return markdown
    if CLI_MARKER not in markdown:
        raise PluginError(f"docs/cli.md lost its marker line {CLI_MARKER}")
    build_parser, _ = load_build_parser()
    return markdown.replace(CLI_MARKER, cli_reference(build_parser))
