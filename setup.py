"""Packaging hook (the metadata is in pyproject.toml): a wheel also carries the files the builder copies
into bundles (the program entry scripts, the starting kit and the shipped editions) as codajudge/_kit/."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
KIT_FOLDERS = ("scoring_program", "ingestion_program", "starting_kit", "editions")


class BuildWithKit(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads them from the checkout itself
        target = Path(self.build_lib) / "codajudge" / "_kit"
        for name in KIT_FOLDERS:
            if (target / name).exists():
                shutil.rmtree(target / name)
            shutil.copytree(
                HERE / name, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
            )


setup(cmdclass={"build_py": BuildWithKit})
