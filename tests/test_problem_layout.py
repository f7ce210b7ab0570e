"""The one layout of a problem (``errors.problem_text``): a reader's problem and the bundle checker's
line, ``where: message; expected X, found Y`` and the hint."""

from codajudge.bundle.check.findings import Findings
from codajudge.errors import Problem


def test_a_problem_and_a_bundle_finding_share_one_layout():
    """A reader's problem and the bundle checker's line lay out the same parts the same way; only
    the hint's place differs (a sentence of its own, or in brackets at the end of the line)."""
    parts = dict(expected="a start after X", found="Y", hint="start it later")
    problem = Problem("phases[1]", "phase 'Evaluation' starts too early", **parts)
    findings = Findings()
    findings.problems.append(problem)
    findings.add("phases[1]", "phase 'Evaluation' starts too early", **parts)
    body = "phases[1]: phase 'Evaluation' starts too early; expected a start after X, found Y"
    assert problem.render() == body + ". Start it later"
    assert findings.lines() == [body + " (start it later)"] * 2
    assert Problem("f", "m", found="Y").render() == "f: m, found Y"
    assert Problem("f", "m", expected="X").render() == "f: m; expected X"
