"""Reading and validating everything that comes from a file: the kit's item files, the task spec,
gold, and submissions (TSV, SemEval positional, JSON values, archives)."""
