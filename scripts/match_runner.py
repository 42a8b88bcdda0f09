"""The shared match runner (tools/match.py) loaded as a module from its path,
for the scripts that play through it (match960.py, spsa.py)."""

import importlib.util
import sys


def load_runner(path: str):
    """match.py at `path` as the module `match`."""
    spec = importlib.util.spec_from_file_location("match", path)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot load the match runner {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["match"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module
