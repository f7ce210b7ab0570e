"""Baseline solution 'most_frequent': a code submission that runs the kit's built-in baseline."""
from judgekit.baselines import baseline_class

Model = baseline_class("most_frequent")
