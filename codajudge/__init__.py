"""codajudge: a Codabench/CodaLab competition kit for shared tasks on sentence pairs and human judgement.

Layers (each a short module): ``tracks`` (what a track is), ``metrics`` (pure functions over arrays),
``formats`` (reading gold, inputs and submissions, with precise errors), ``scoring`` (the engine),
``report`` (scores.json, scores.txt, detailed_results.html). The Codabench programs, the local runner,
the builder and the ranking tool are thin command-line edges over these.
"""

__version__ = "0.1.0"
