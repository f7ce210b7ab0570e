"""Hostile and broken submissions: a corpus of malformed cases and a fuzzer for the scoring program."""
