#!/usr/bin/env python3
"""Large clusters (large.sh): every method and user at scale, the
1000-node platform, the launch files, the plan against the cluster's size."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # experiments/: the shared modules
from records import gnuplot, main, markdown_table, read_tsv, write_atomic  # noqa: E402


def large_targets(runs, limit):
    """Rows of the target table and the misses, per platform, routine and n."""
    rows, misses = [], []
    for r in runs:
        search, wall, mb = r["search_s"], float(r["wall_s"]), int(r["peak_MB"])
        budget_ok = (search == "-" or float(search) <= 1.1 * limit) and wall <= 1.1 * limit + 1
        # 3: refused at once, 5: stopped by the budget, 6: no configuration fits
        ok = budget_ok and mb <= 1024 and r["exit"] in ("0", "3", "5", "6")
        if r["method"] == "GPTM" and search != "-" and float(search) > 1:
            misses.append("GPTM %s s (%s %s n=%s)" % (search, r["platform"], r["routine"], r["n"]))
        if r["method"] == "exact" and (r["stopped"] != "complete" or float(search) > 10):
            misses.append("exact %s (%s s, %s %s n=%s)" % (r["stopped"], search, r["platform"],
                                                           r["routine"], r["n"]))
        if not ok:
            misses.append("%s over budget or 1 GB (%s s, %s MB, exit %s; %s %s n=%s)"
                          % (r["method"], r["wall_s"], r["peak_MB"], r["exit"], r["platform"],
                             r["routine"], r["n"]))
        rows.append([r["platform"], r["routine"], r["n"], r["method"],
                     "%s x %s = %s, b %s" % (r["r"], r["c"], r["D"], r["b"]) if r["D"] != "-" else
                     {"3": "refused", "5": "none found", "6": "none fits"}.get(r["exit"], "-"),
                     r["predicted_s"], r["search_s"], r["stopped"], r["wall_s"], r["peak_MB"], r["exit"],
                     "yes" if ok else "NO"])
    return rows, misses


def large_scaling(rows):
    """{(routine, cores): {method: row}} of the scaling runs."""
    out = {}
    for r in rows:
        out.setdefault((r["routine"], int(r["cores"])), {})[r["method"]] = r
    return out


def large_plot(out, scaling):
    for routine in ("lu", "gemm"):
        with open(os.path.join(out, ".scaling-%s.dat" % routine), "w") as f:
            for (rt, cores), m in sorted(scaling.items()):
                if rt == routine and all(m[k]["D"] != "-" for k in ("GPTM", "GU", "CU", "EU")):
                    f.write("%d %s %s %s %s %s\n" % (cores, m["GPTM"]["D"], m["GPTM"]["predicted_s"],
                                                    m["GU"]["predicted_s"], m["CU"]["predicted_s"],
                                                    m["EU"]["predicted_s"]))
    dat = lambda rt: os.path.join(out, ".scaling-%s.dat" % rt)
    ok = gnuplot("""set terminal pngcairo size 1200,520
set output "%s"
set multiplot layout 1,2
set logscale xy
set xrange [800:160000]
set format x "%%g"
set format y "%%g"
set grid
set key top left
set xlabel "cluster's cores (family: 8 to 1000 nodes of 64, 128 and 192 cores)"
set ylabel "processes"
set title "The plan's D (GPTM, n = 200000)"
plot '%s' using 1:2 with linespoints title 'LU', '%s' using 1:2 with linespoints title 'GEMM', x with lines lt 0 title 'D = cores'
set ylabel "predicted time (s)"
set key top right
set title "Predicted time, n = 200000"
plot '%s' using 1:3 with linespoints lt 1 title 'LU plan', '%s' using 1:4 with lines lt 1 dt 2 title 'LU GU', \
     '%s' using 1:3 with linespoints lt 2 title 'GEMM plan', '%s' using 1:4 with lines lt 2 dt 2 title 'GEMM GU'
unset multiplot
""" % (os.path.join(out, "scaling.png"), dat("lu"), dat("gemm"), dat("lu"), dat("lu"), dat("gemm"), dat("gemm")))
    for routine in ("lu", "gemm"):
        os.remove(dat(routine))
    return ok


def large(args):
    limit = float(args.limit)
    runs = read_tsv(os.path.join(args.dir, "runs.tsv"))
    launch = read_tsv(os.path.join(args.dir, "launch.tsv"))
    platform_rows = [[r["step"], r["wall_s"], r["peak_MB"], r["exit"],
                      "yes" if float(r["wall_s"]) < 1 and r["exit"] == "0" else "NO"]
                     for r in read_tsv(os.path.join(args.dir, "platform.tsv"))]
    scaling = large_scaling(read_tsv(os.path.join(args.dir, "scaling.tsv")))
    rows, misses = large_targets(runs, limit)
    launch_rows = [[r["launcher"], r["ranks"], r["wall_s"], r["peak_MB"], r["files_MB"], r["exit"],
                    "yes" if float(r["wall_s"]) <= 2 and r["exit"] == "0" else "NO"] for r in launch]
    misses += ["launch files for %s: %s s" % (r[0], r[2]) for r in launch_rows if r[-1] != "yes"]
    misses += ["%s: %s s" % (r[0], r[1]) for r in platform_rows if r[-1] != "yes"]
    scale_rows = []
    for (routine, cores), m in sorted(scaling.items()):
        g = m["GPTM"]
        if g["D"] == "-":
            scale_rows.append([routine.upper(), cores] + ["-"] * 7)
            continue
        t = float(g["predicted_s"])
        sp = lambda u: "%.2fx" % (float(m[u]["predicted_s"]) / t) if m[u]["predicted_s"] != "-" else "-"
        scale_rows.append([routine.upper(), cores, "%s x %s = %s" % (g["r"], g["c"], g["D"]),
                           "%.0f %%" % (100.0 * int(g["D"]) / cores), g["predicted_s"], sp("GU"), sp("CU"),
                           sp("EU"), g["search_s"]])
    large_plot(args.dir, scaling)
    text = ("# Large clusters\n\n"
            "Generated by `sh experiments/large/large.sh` (--max-time %g s per run, one run at a\n"
            "time). Exit 5: stopped by the budget, its best plan so far; exit 3: the method\n"
            "refuses the problem at once. Wall time includes reading the platform.\n\n"
            "Targets: GPTM <= 1 s, exact proves the optimum in <= 10 s, every run within --max-time\n"
            "+ 10 %% and 1 GB, launch files for 128000 ranks <= 2 s, the 1000-node platform generated\n"
            "and loaded in under a second.\n\n%s\n"
            "## Every method and user\n\n" % (limit, "Missed: " + "; ".join(misses) + "." if misses else
                                               "Every target met.")
            + markdown_table(["platform", "routine", "n", "method", "configuration", "predicted (s)",
                              "search (s)", "stopped", "wall (s)", "peak MB", "exit", "ok"], rows)
            + "\n## The 1000-node platform\n\n"
            + markdown_table(["step", "wall (s)", "peak MB", "exit", "< 1 s"], platform_rows)
            + "\n## Launch files (plan -M GU --launcher L -o DIR, family-128000)\n\n"
            + markdown_table(["launcher", "ranks", "wall (s)", "peak MB", "files MB", "exit", "<= 2 s"],
                             launch_rows)
            + "\n## The plan against the cluster's size (n = 200000, GPTM; users' predicted time / "
              "the plan's)\n\n"
            + markdown_table(["routine", "cores", "plan", "cores used", "predicted (s)", "GU", "CU", "EU",
                              "search (s)"], scale_rows)
            + "\n![D and predicted time against the cluster's size](scaling.png)\n")
    write_atomic(os.path.join(args.dir, "summary.md"), text)
    print(text)


# command: (function, [(argument, default; None: positional)], help): records.main
COMMANDS = {
    "large": (large, [("dir", None), ("--limit", "20")],
              "DIR/runs.tsv, launch.tsv, platform.tsv, scaling.tsv (large.sh) -> DIR/summary.md and\n"
              "DIR/scaling.png"),
}


if __name__ == "__main__":
    main(COMMANDS, __doc__)
