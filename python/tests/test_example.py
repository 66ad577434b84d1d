"""The example (python/examples/stiff_decay.py) runs and checks its answer;
its check fails when the solves do nothing (negative control)."""
import importlib.util
import pathlib

import tdls

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "stiff_decay.py"


def load():
    spec = importlib.util.spec_from_file_location("stiff_decay", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_passes_its_check(capsys):
    assert load().main() == 0
    assert "backward Euler steps" in capsys.readouterr().out


def test_example_check_fails_without_solves(monkeypatch):
    monkeypatch.setattr(tdls, "lu_solve", lambda factors, y: y)
    assert load().main() == 1
