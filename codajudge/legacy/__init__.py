"""CodaLab v1.5: the legacy bundle's builder (``build``: ``build_bundle.py --legacy``) and its
checker (``check``, the v1.5 form of ``competition.yaml`` for ``codajudge check``).

The rest of the kit does not import this package; only the command line (``codajudge.programs``)
does, so that the Codabench v2 builder and checker stand without it."""
