#!/usr/bin/env python3
"""Write the eight reference platforms of the thesis (section 5.3.2, tables 5.1
and 5.2; models/README.md) as platform JSON.

Values from the thesis (tables 5.1, 5.2) are given in microseconds per flop
as unit strings ("0.004us"), exactly as printed there. Run from this folder:
    python3 reference.py
"""
import json

K3_B = ["16", "32", "64", "128"]

def ptype(k3, k2, desc):
    return {"description": desc, "k3": dict(zip(K3_B, [f"{v}us" for v in k3])),
            "k2_dgetf2": f"{k2}us"}

SUN_TYPES = {
    "SUN1": ptype([0.007, 0.006, 0.006, 0.006], 0.070, "SUN Ultra 1 (thesis table 5.1)"),
    "SUN5": ptype([0.004, 0.003, 0.003, 0.003], 0.050, "SUN Ultra 5 (thesis table 5.1)"),
    "SUN2X": ptype([0.002, 0.0015, 0.0015, 0.0015], 0.025,
                   "new type, twice as fast as an Ultra 5 (chosen here: SUN5 values / 2)"),
}
TORC_TYPES = {
    "DPIII": ptype([0.004, 0.003, 0.003, 0.003], 0.015, "dual Pentium III node processor (thesis table 5.2)"),
    "SPIII": ptype([0.004, 0.002, 0.003, 0.002], 0.015, "Pentium III 600 MHz (thesis table 5.2)"),
    "ATH": ptype([0.001, 0.001, 0.001, 0.001], 0.012, "AMD Athlon (thesis table 5.2)"),
    "17P4": ptype([0.001, 0.001, 0.001, 0.001], 0.012, "Pentium 4 1.7 GHz (thesis table 5.2)"),
    # mTORC-03's six new types: not in the source; chosen to span 0.2x..3x a 17P4
    "N1": ptype([0.0006, 0.0005, 0.0005, 0.0005], 0.006, "new type (chosen): twice a 17P4"),
    "N2": ptype([0.0009, 0.0008, 0.0007, 0.0007], 0.009, "new type (chosen): ~1.4x a 17P4"),
    "N3": ptype([0.0016, 0.0015, 0.0015, 0.0015], 0.014, "new type (chosen): 0.7x a 17P4"),
    "N4": ptype([0.0025, 0.002, 0.002, 0.002], 0.02, "new type (chosen): half a 17P4"),
    "N5": ptype([0.005, 0.004, 0.004, 0.004], 0.03, "new type (chosen): a quarter of a 17P4"),
    "N6": ptype([0.012, 0.01, 0.01, 0.01], 0.05, "new type (chosen): a tenth of a 17P4"),
}

SUN_NET = {"description": "10 Mbit Ethernet: t_s = 170 us, t_w = 7.5 us for all pairs",
           "same_processor": {"t_s": "170us", "t_w": "7.5us"},
           "same_node": {"t_s": "170us", "t_w": "7.5us"},
           "inter_node": {"t_s": "170us", "t_w": "7.5us"}}
TORC_NET = {"description": "FastEthernet: 10 us / 0.25 us within a processor, 100 us / 0.72 us between processors",
            "same_processor": {"t_s": "10us", "t_w": "0.25us"},
            "same_node": {"t_s": "100us", "t_w": "0.72us"},
            "inter_node": {"t_s": "100us", "t_w": "0.72us"}}


def processors(groups, dual=()):
    """groups: list of (type, count). Types in 'dual' sit two per host."""
    procs, n_host = [], 0
    for typ, count in groups:
        for i in range(count):
            if typ in dual and i % 2 == 1:
                host = procs[-1]["host"]
            else:
                n_host += 1
                host = f"node{n_host:03d}"
            procs.append({"name": f"P{len(procs)}", "host": host, "type": typ})
    return procs


def platform(name, desc, types, groups, net, dual=()):
    used = {t for t, _ in groups}
    return {"hetmap_platform": 1, "name": name, "description": desc,
            "block_sizes": [16, 32, 64, 128],
            "types": {t: v for t, v in types.items() if t in used},
            "processors": processors(groups, dual), "network": net}


PLATFORMS = {
    "sunet": platform("SUNEt", "5 SUN Ultra 1 + 1 SUN Ultra 5 on Ethernet (thesis 5.3.2)",
                      SUN_TYPES, [("SUN1", 5), ("SUN5", 1)], SUN_NET),
    "torc": platform("TORC", "8 dual Pentium III nodes, 1 PIII 600 MHz, 1 Athlon, 1 P4 1.7 GHz on FastEthernet (thesis 5.3.2)",
                     TORC_TYPES, [("DPIII", 16), ("SPIII", 1), ("ATH", 1), ("17P4", 1)], TORC_NET, dual={"DPIII"}),
    "msunet-01": platform("mSUNEt-01", "SUNEt with 5 Ultra 5 (10 processors, 2 types)",
                          SUN_TYPES, [("SUN1", 5), ("SUN5", 5)], SUN_NET),
    "msunet-02": platform("mSUNEt-02", "10 Ultra 1 + 10 Ultra 5 (20 processors, 2 types)",
                          SUN_TYPES, [("SUN1", 10), ("SUN5", 10)], SUN_NET),
    "msunet-03": platform("mSUNEt-03", "SUNEt with 10 Ultra 5 and 5 new processors twice as fast as an Ultra 5 (20, 3 types); SUN2X values chosen here as SUN5 / 2",
                          SUN_TYPES, [("SUN1", 5), ("SUN5", 10), ("SUN2X", 5)], SUN_NET),
    "mtorc-01": platform("mTORC-01", "TORC with 11 17P4 (29 processors, 4 types)",
                         TORC_TYPES, [("DPIII", 16), ("SPIII", 1), ("ATH", 1), ("17P4", 11)], TORC_NET, dual={"DPIII"}),
    "mtorc-02": platform("mTORC-02", "10 DPIII, 10 SPIII, 10 ATH, 20 17P4 (50 processors, 4 types)",
                         TORC_TYPES, [("DPIII", 10), ("SPIII", 10), ("ATH", 10), ("17P4", 20)], TORC_NET, dual={"DPIII"}),
    "mtorc-03": platform("mTORC-03", "10 DPIII, 15 SPIII, 5 ATH, 10 17P4 and 6 new types N1..N6 of 10 processors each (100, 10 types); the new types' values are not in the source and were chosen here, see each type's description",
                         TORC_TYPES, [("DPIII", 10), ("SPIII", 15), ("ATH", 5), ("17P4", 10)] +
                         [(f"N{i}", 10) for i in range(1, 7)], TORC_NET, dual={"DPIII"}),
}

if __name__ == "__main__":
    for fname, plat in PLATFORMS.items():
        with open(f"{fname}.json", "w") as f:
            json.dump(plat, f, indent=1)
            f.write("\n")
        print(fname, len(plat["processors"]), "processors")
