#!/usr/bin/env python3
"""The project's grammar data is complete, and the tables hold all of it.

1. Against the grammar it came from: each file of source/grammar/data records how many
   instructions, operand kinds and enumerants its SPIRV-Headers file had; the data holds exactly
   that many, with no opcode or (kind, value) twice. Where a SPIRV-Headers checkout is at hand
   ($SPIRV_HEADERS_DIR), `utils/import_grammar.py --check` re-imports it and must find the data
   unchanged (this is how the data is refreshed: see source/grammar/data/README.md).
2. Against the older grammar of Debian's spirv-headers package (always present): every
   instruction and enumerant of it, and of each extended-instruction set it has, is in the data
   under the same number, with an operand list that the data's list extends.
3. The generated tables (merged.core.grammar.json, grammar_generated.h) hold every instruction
   and enumerant of the data, under every spelling.

Arguments: the data's core grammar, Debian's core grammar (each beside its extended-instruction
grammars), the build's merged JSON, the build's generated header, the importer.
"""

import json
import os
import re
import subprocess
import sys

errors = []


def check(condition, message):
    if not condition:
        errors.append(message)


def value(v):
    return v if isinstance(v, int) else int(v, 0)


def kinds_of(lst):
    return [(o["kind"], o.get("quantifier", "")) for o in lst]


def index(grammar, unique=True):
    """{opcode: [instructions]}, {(kind, value): [enumerants]}. Old packages list some entries
    once per spelling (unique=False); the data lists each number once."""
    insts = {}
    for i in grammar.get("instructions", []):
        check(not unique or i["opcode"] not in insts, "opcode %d twice" % i["opcode"])
        insts.setdefault(i["opcode"], []).append(i)
    enums = {}
    for k in grammar.get("operand_kinds", []):
        for e in k.get("enumerants", []):
            key = (k["kind"], value(e["value"]))
            check(not unique or key not in enums, "%s %d twice" % key)
            enums.setdefault(key, []).append(e)
    return insts, enums


def names(entry, key):
    return [entry[key]] + entry.get("aliases", [])


# Entries SPIRV-Headers corrected after Debian's 1.3.239: Intel FPGA instructions whose operand
# lists were fixed, and a capability renamed without an alias.
CHANGED_UPSTREAM = {
    "OpAsmTargetINTEL", "OpArbitraryFloatSinCosPiINTEL", "OpFixedSqrtINTEL", "OpFixedRecipINTEL",
    "OpFixedRsqrtINTEL", "OpFixedSinINTEL", "OpFixedCosINTEL", "OpFixedSinCosINTEL",
    "OpFixedSinPiINTEL", "OpFixedCosPiINTEL", "OpFixedSinCosPiINTEL", "OpFixedLogINTEL",
    "OpFixedExpINTEL", "OpReadPipeBlockingINTEL", "OpWritePipeBlockingINTEL", "OpFPGARegINTEL",
    "LongConstantCompositeINTEL",
}


def covers(ours, theirs, what):
    """Every entry of `theirs` is in `ours` by number, its spelling known, its operands extended."""
    oi, oe = index(ours)
    ti, te = index(theirs, unique=False)
    for op, insts in ti.items():
        for inst in insts:
            mine = oi.get(op, [None])[0]
            if mine is None:
                errors.append("%s: opcode %d (%s) is missing" % (what, op, inst["opname"]))
                continue
            if inst["opname"] in CHANGED_UPSTREAM:
                continue
            check(inst["opname"] in names(mine, "opname"),
                  "%s: opcode %d is %s there, %s here" % (what, op, inst["opname"], names(mine, "opname")))
            a, b = kinds_of(inst.get("operands", [])), kinds_of(mine.get("operands", []))
            check(b[:len(a)] == a,
                  "%s: %s operands %s do not extend %s" % (what, inst["opname"], b, a))
    for key, ens in te.items():
        for en in ens:
            mine = oe.get(key, [None])[0]
            if mine is None:
                errors.append("%s: %s %d (%s) is missing" % (what, key[0], key[1], en["enumerant"]))
                continue
            if en["enumerant"] in CHANGED_UPSTREAM:
                continue
            check(en["enumerant"] in names(mine, "enumerant"),
                  "%s: %s %d is %s there, %s here" % (what, key[0], key[1], en["enumerant"],
                                                      names(mine, "enumerant")))
            a, b = kinds_of(en.get("parameters", [])), kinds_of(mine.get("parameters", []))
            check(b[:len(a)] == a, "%s: %s parameters differ" % (what, en["enumerant"]))
    return len(ti) + len(te)


def main():
    data_core, debian_core, merged, header, importer = sys.argv[1:6]
    data, debian_dir = os.path.dirname(data_core), os.path.dirname(debian_core)
    files = sorted(f for f in os.listdir(data) if f.endswith(".json"))
    check("spirv.core.grammar.json" in files, "no core grammar in the data")
    loaded = {}
    for name in files:
        with open(os.path.join(data, name)) as f:
            g = json.load(f)
        loaded[name] = g
        src = g.get("source", {})
        check(src.get("repository") == "KhronosGroup/SPIRV-Headers" and
              re.fullmatch(r"[0-9a-f]{40}", src.get("commit", "")),
              "%s: no source repository and commit" % name)
        want = src.get("counts", {})
        if name == "generators.json":
            check(len(g["generators"]) == want.get("generators"), "generators: count")
            continue
        index(g)
        got = {
            "instructions": len(g.get("instructions", [])),
            "operand_kinds": len(g.get("operand_kinds", [])),
            "enumerants": sum(len(k.get("enumerants", [])) for k in g.get("operand_kinds", [])),
        }
        check(got == want, "%s: holds %s, its source had %s" % (name, got, want))
        if name != "spirv.core.grammar.json":
            check(g.get("import_name"), "%s: no import name" % name)

    # 2. Debian's older package.
    with open(debian_core) as f:
        n = covers(loaded["spirv.core.grammar.json"], json.load(f), "core")
    checked_sets = 0
    for name in sorted(os.listdir(debian_dir)):
        if not re.match(r"extinst\..*\.grammar\.json$", name):
            continue
        ours = name if name in loaded else name.replace(".100.grammar", ".grammar")
        if ours not in loaded:
            errors.append("extended-instruction set %s is missing" % name)
            continue
        with open(os.path.join(debian_dir, name)) as f:
            n += covers(loaded[ours], json.load(f), name)
        checked_sets += 1
    check(n > 1500 and checked_sets >= 10, "too little of the package compared (%d, %d sets)" %
          (n, checked_sets))

    # 3. The build's tables.
    with open(merged) as f:
        built = json.load(f)
    covers(built, loaded["spirv.core.grammar.json"], "generated tables")
    with open(header) as f:
        text = f.read()
    for inst in loaded["spirv.core.grammar.json"]["instructions"]:
        for spelling in names(inst, "opname"):
            check(re.search(r"^  %s = %d,$" % (re.escape(spelling[2:]), inst["opcode"]), text,
                            re.M), "header lacks %s = %d" % (spelling, inst["opcode"]))

    # 1b. Re-import from a checkout, where there is one.
    headers = os.environ.get("SPIRV_HEADERS_DIR")
    if headers:
        commit = loaded["spirv.core.grammar.json"]["source"]["commit"]
        r = subprocess.run([sys.executable, importer, "--headers", headers, "--commit", commit,
                            "--out", data, "--check"], capture_output=True, text=True)
        check(r.returncode == 0, "re-import from %s differs:\n%s" % (headers, r.stdout + r.stderr))
        print("re-imported from %s: %s" % (headers, r.stdout.strip().splitlines()[-1]))
    else:
        print("SPIRV_HEADERS_DIR unset: the re-import check ran on the recorded counts only")

    for e in errors[:50]:
        print("FAIL: " + e, file=sys.stderr)
    if errors:
        print("%d problem(s)" % len(errors), file=sys.stderr)
        sys.exit(1)
    print("PASS: %d data files; %d entries of Debian's grammar covered" % (len(files), n))


if __name__ == "__main__":
    main()
