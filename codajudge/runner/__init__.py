"""The local runner: Codabench's two steps (prediction, scoring) on a participant's machine."""
