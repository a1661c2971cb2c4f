#!/usr/bin/env python3
"""Links per host (links.sh): a described cluster, its calibration
compared pair by pair, the growth with the hosts."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # experiments/: the shared modules
from records import main, markdown_table, read_tsv, write_atomic  # noqa: E402


# Links per host (links/links.sh): a described cluster, its calibration
# compared pair by pair, the growth with the hosts.
LINK_RATES = {"fast": (50e-6, 64e-9), "mid": (100e-6, 160e-9), "slow": (200e-6, 640e-9)}


def link_rate(h, pattern):
    """The links study's rate of host h. mixed: every 7th from the second slow, every
    11th from the sixth mid, the rest fast; mostly-slow: every 5th fast, the rest slow."""
    if pattern == "mostly-slow":
        return "fast" if h % 5 == 0 else "slow"
    return "slow" if h % 7 == 1 else "mid" if h % 11 == 5 else "fast"


def links_cluster(args):
    """A cluster of N single-core hosts, each behind its link_rate (SI units)."""
    n, rate_of = int(args.n), lambda h: link_rate(h, args.pattern)
    hosts = ["n%03d" % h for h in range(n)]
    link = lambda ts_tw, **kw: dict(t_s=ts_tw[0], t_w=ts_tw[1], **kw)
    rules = [link(LINK_RATES[rate], between=[[h for i, h in enumerate(hosts) if rate_of(i) == rate], "*"])
             for rate in ("slow", "mid") if any(rate_of(i) == rate for i in range(n))]
    doc = {"name": "links-%d" % n, "block_sizes": [64],
           "description": "%d single-core hosts behind links of several rates, %s (links/links.sh)"
                          % (n, args.pattern),
           "types": {"node": {"k3_dgemm": "20Gf", "k3_dtrsm": "15Gf", "k2_dgetf2": "1Gf"}},
           "processors": [{"name": h, "host": h, "type": "node"} for h in hosts],
           "network": {"same_processor": {"t_s": 2e-6, "t_w": 1.6e-9}, "same_node": {"t_s": 2e-6, "t_w": 1.6e-9},
                       "inter_node": link(LINK_RATES["fast"])}}
    if rules:
        doc["network"]["links"] = rules
    print(json.dumps(doc, indent=1))


def platform_link(net, a, b):
    """(t_s, t_w) between processors a and b on different hosts (links in SI numbers), as hetmap resolves
    it (one processor per host): a pair override, else the first rule whose ends
    match (an end: a pattern or a list of them), else inter_node."""
    import fnmatch
    for p in net.get("pairs", []):
        if sorted(p["between"]) == sorted([a, b]):
            return p["t_s"], p["t_w"]
    end = lambda pat, x: any(fnmatch.fnmatchcase(x, q) for q in (pat if isinstance(pat, list) else [pat]))
    for r in net.get("links", []):
        p, q = r["between"]
        if (end(p, a) and end(q, b)) or (end(p, b) and end(q, a)):
            return r["t_s"], r["t_w"]
    return net["inter_node"]["t_s"], net["inter_node"]["t_w"]


def links_compare(args):
    """One line of links.tsv: the calibration of a described cluster against it."""
    desc, cal = (json.load(open(f)) for f in (args.desc, args.cal))
    hosts = [p["name"] for p in desc["processors"]]
    worst_w = worst_s = 1.0
    within = total = 0
    for i, a in enumerate(hosts):
        for b in hosts[i + 1:]:
            (ds, dw), (cs, cw) = platform_link(desc["network"], a, b), platform_link(cal["network"], a, b)
            rw, rs = cw / dw, cs / ds
            worst_w = max(worst_w, rw, 1 / rw)
            worst_s = max(worst_s, rs, 1 / rs)
            within += abs(rw - 1) <= 0.2 and abs(rs - 1) <= 0.2
            total += 1
    done = [l for l in open(args.err) if "links between hosts:" in l]
    m = re.search(r"(\d+) pairs in (\d+) rounds, (\d+) s", done[-1]) if done else None
    pairs, rounds, secs = m.groups() if m else ("0", "0", "0")
    rates = [link_rate(i, args.pattern) for i in range(len(hosts))]
    print("\t".join(map(str, [args.pattern, len(hosts), rates.count("slow"), rates.count("mid"), pairs, rounds, secs,
                              args.wall, args.kb, "%d/%d" % (within, total), "%.3f" % worst_w,
                              "%.3f" % worst_s])))


def links(args):
    rows = read_tsv(os.path.join(args.dir, "links.tsv"))
    with open(os.path.join(args.dir, "study.json")) as f:
        info = json.load(f)
    misses = []
    for r in rows:
        w, t = r["pairs_within_20pc"].split("/")
        if w != t:
            misses.append("%s, %s hosts: %s pairs within 20 %%" % (r["cluster"], r["hosts"], r["pairs_within_20pc"]))
        if int(r["hosts"]) >= 100 and float(r["simulated_links_s"]) > 600:
            misses.append("%s, %s hosts: %s s of measurement" % (r["cluster"], r["hosts"], r["simulated_links_s"]))
    table = markdown_table(["cluster", "hosts", "slow / mid hosts", "pairs measured (of all)", "rounds",
                            "simulated measurement (s)", "wall (s)", "peak MB",
                            "pairs within 20 %", "worst t_w ratio", "worst t_s ratio"],
                           [[r["cluster"], r["hosts"], "%s / %s" % (r["slow_hosts"], r["mid_hosts"]),
                             "%s (%d)" % (r["pairs"], int(r["hosts"]) * (int(r["hosts"]) - 1) // 2), r["rounds"],
                             r["simulated_links_s"], r["wall_s"], "%.0f" % (int(r["peak_kB"]) / 1024.0),
                             r["pairs_within_20pc"], r["worst_t_w_ratio"], r["worst_t_s_ratio"]] for r in rows])
    text = ("# Links per host: calibration against the described cluster\n\n"
            "Generated by `%s` (%s s). Each cluster: single-core hosts; `mixed`: every 7th from\n"
            "the second behind 100 Mbit/s (200 us), every 11th from the sixth behind 400 Mbit/s\n"
            "(100 us), the rest on 1 Gbit/s (50 us); `mostly-slow`: every 5th on 1 Gbit/s, the\n"
            "rest behind 100 Mbit/s. Calibrated under SMPI (`calibrate --launcher\n"
            "smpi`, kernels at one block size), then every pair of hosts compared: the link the\n"
            "calibrated platform gives against the described one (ratio, worse of both ways).\n\n"
            "Targets: every pair within 20 %%; 100 hosts in <= 10 minutes of simulated measurement.\n"
            "%s\n\n%s" % (info["command"], info["elapsed_s"],
                          "Missed: " + "; ".join(misses) + "." if misses else "Every target met.", table))
    write_atomic(os.path.join(args.dir, "summary.md"), text)
    print(text)


# A node's card (links/card.sh): one host's ranks sending off it at once.
def card_cluster(args):
    """card.sh's cluster as a platform: ta of two cores, tb and tc of one, every host behind
    RATE (tc's notation: 100mbit, 1gbit), 50 us; the kernels a modern core's."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([kmg])bit", args.rate)
    if not m:
        sys.exit("card-cluster: rate '%s': expected tc's notation, e.g. 100mbit" % args.rate)
    bits = float(m.group(1)) * {"k": 1e3, "m": 1e6, "g": 1e9}[m.group(2)]
    doc = {"name": "card", "block_sizes": [64],
           "description": "links/card.sh's three nodes: ta of two cores, tb and tc of one, each behind %s"
                          % args.rate,
           "types": {"node": {"k3_dgemm": "20Gf", "k3_dtrsm": "15Gf", "k2_dgetf2": "1Gf"}},
           "processors": [{"name": h, "host": h, "type": "node", "cores": c}
                          for h, c in (("ta", 2), ("tb", 1), ("tc", 1))],
           "network": {"same_processor": {"t_s": 2e-6, "t_w": 1.6e-9}, "same_node": {"t_s": 2e-6, "t_w": 1.6e-9},
                       "inter_node": {"t_s": 50e-6, "t_w": 64.0 / bits}}}
    print(json.dumps(doc, indent=1))


def card_line(args):
    """One line of card.tsv: the card record of calibration CAL (calibration.card)."""
    card = json.load(open(args.cal)).get("calibration", {}).get("card")
    if not card or len(card["message_s"]) < 2:
        sys.exit("card-line: %s has no card measured by two pairs" % args.cal)
    print("\t".join(map(str, [args.where, card["host"], int(card["bytes"]), "%.6g" % card["message_s"][0],
                              "%.6g" % card["message_s"][1], "%.3f" % card["stretch"][1]])))


def card(args):
    rows = read_tsv(os.path.join(args.dir, "card.tsv"))
    with open(os.path.join(args.dir, "study.json")) as f:
        info = json.load(f)
    table = markdown_table(["where", "host", "bytes", "one pair (s a message)", "two pairs at once (s)",
                            "stretch"],
                           [[r["where"], r["host"], r["bytes"], r["one_pair_s"], r["two_pairs_s"], r["stretch"]]
                            for r in rows])
    text = ("# A node's card: its ranks sending off it at once\n\n"
            "Generated by `%s` (%s s). Node ta holds two ranks, tb and tc one each, every node behind\n"
            "%s. `calibrate`'s card phase: one, then two of ta's ranks stream 4 MiB messages to tb and tc\n"
            "at once; the stretch is two pairs' median time a message over one pair's (2: the card shared\n"
            "equally, 1: each pair had it whole). simulated: SimGrid's export (a card a host, max-min);\n"
            "emulated: this machine's emulated cluster, real Open MPI over TCP through each node's\n"
            "namespace and token bucket (several nodes on 2 cores).\n\n%s"
            % (info["command"], info["elapsed_s"], info["rate"], table))
    write_atomic(os.path.join(args.dir, "summary.md"), text)
    print(text)


# command: (function, [(argument, default; None: positional)], help): records.main
COMMANDS = {
    "links-cluster": (links_cluster, [("n", None), ("--pattern", "mixed")],
                      "a cluster of N single-core hosts behind links of several rates, on stdout"),
    "links-compare": (links_compare, [("desc", None), ("cal", None), ("err", None), ("wall", None), ("kb", None),
                                      ("--pattern", "mixed")],
                      "one line of links.tsv: the calibration CAL of a described cluster DESC against it"),
    "links": (links, [("dir", None)],
              "DIR/links.tsv and study.json -> DIR/summary.md"),
    "card-cluster": (card_cluster, [("rate", None)],
                     "card.sh's three nodes (ta of two cores) behind RATE (100mbit), as a platform"),
    "card-line": (card_line, [("cal", None), ("where", None)],
                  "one line of card.tsv from a calibration's card record"),
    "card": (card, [("dir", None)], "DIR/card.tsv and study.json -> DIR/summary.md"),
}


if __name__ == "__main__":
    main(COMMANDS, __doc__)
