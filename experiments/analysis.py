#!/usr/bin/env python3
"""The analysis of hetmap's studies: tables, statistics and plots.

    python3 experiments/analysis.py COMMAND ARGS...   (--help lists the commands)

The study scripts only orchestrate (they run hetmap and collect its JSON);
everything computed from the outputs is Python 3 standard library, plots by
gnuplot when it is installed. Each study's analysis sits beside its scripts
(experiments/STUDY/analysis.py, runnable alone too); what several studies
share is here: records.py (the readers of records, statistics, tables, the
command line), plans.py (a study of plans and its summary), evidence.py (every
model scored on every committed study), platforms.py (platforms made from
others). This file gathers every module's commands under one name.
"""
import importlib.util
import os
import sys

import evidence
import plans
import platforms
import records


HERE = os.path.dirname(os.path.abspath(__file__))
STUDIES = ("simulation", "smpi", "scale", "cores", "vcluster", "large", "links", "threads", "clients")


def study_module(study):
    """experiments/STUDY/analysis.py as the module STUDY_analysis."""
    spec = importlib.util.spec_from_file_location(study + "_analysis", os.path.join(HERE, study, "analysis.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def commands():
    """Every module's commands; a name given twice is a mistake here."""
    out = {}
    for module in [plans, evidence, platforms] + [study_module(s) for s in STUDIES]:
        for name, command in module.COMMANDS.items():
            assert name not in out, "analysis: command %s defined twice" % name
            out[name] = command
    return out


if __name__ == "__main__":
    records.main(commands(), __doc__)
