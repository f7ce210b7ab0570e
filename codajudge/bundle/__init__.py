"""The bundle builder: an edition config and its release data in, a Codabench bundle out."""
