#!/usr/bin/env python3
"""Imports the SPIR-V grammar facts coopspv is built from out of a SPIRV-Headers checkout.

The project keeps its own grammar data in source/grammar/data/: opcode numbers, operand lists,
enumerant values, capabilities, extensions and versions of the core grammar and of every
extended-instruction set, and the tool ids of the generator registry. Nothing else is taken (no
copyright or license text, no documentation strings, no printing classes). Each file records the
repository, commit and file it came from, and how many instructions and enumerants that file had,
so //test/grammar:completeness_test can prove nothing was lost on the way to the tables.

  utils/import_grammar.py --headers <SPIRV-Headers checkout> --commit <sha> [--out source/grammar/data]
  utils/import_grammar.py --headers <checkout> --commit <sha> --check   # exit 1 if data differs

A snapshot of the public repository: `git clone https://github.com/KhronosGroup/SPIRV-Headers`
(or `git archive` of a mirror), then point --headers at it.
"""

import argparse
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

REPOSITORY = "KhronosGroup/SPIRV-Headers"

# The name an OpExtInstImport gives each set, by grammar file stem. A name ending in '.' is a
# prefix that takes any version ("NonSemantic.Shader.DebugInfo.100", ".101", ...): later versions
# of those sets extend earlier ones under the same instruction numbers.
IMPORT_NAMES = {
    "glsl.std.450": "GLSL.std.450",
    "opencl.std.100": "OpenCL.std",
    "debuginfo": "DebugInfo",
    "opencl.debuginfo.100": "OpenCL.DebugInfo.100",
    "nonsemantic.shader.debuginfo": "NonSemantic.Shader.DebugInfo.",
    "nonsemantic.graph.debuginfo": "NonSemantic.Graph.DebugInfo.",
    "nonsemantic.clspvreflection": "NonSemantic.ClspvReflection.",
    "nonsemantic.debugprintf": "NonSemantic.DebugPrintf",
    "nonsemantic.debugbreak": "NonSemantic.DebugBreak",
    "nonsemantic.vkspreflection": "NonSemantic.VkspReflection.",
    "spv-amd-gcn-shader": "SPV_AMD_gcn_shader",
    "spv-amd-shader-ballot": "SPV_AMD_shader_ballot",
    "spv-amd-shader-explicit-vertex-parameter": "SPV_AMD_shader_explicit_vertex_parameter",
    "spv-amd-shader-trinary-minmax": "SPV_AMD_shader_trinary_minmax",
    "tosa.001000.1": "TOSA.001000.1",
    "arm.motion-engine.100": "Arm.MotionEngine.100",
    "arm.experimental-ml-operations": "Arm.ExperimentalMLOperations.",
}

# Sets superseded by a later version of themselves under a prefix name: imported only after
# checking that the later grammar holds each of their instructions with an operand list that
# extends theirs.
SUPERSEDED = {"nonsemantic.shader.debuginfo.100": "nonsemantic.shader.debuginfo"}

INSTRUCTION_KEYS = ("opname", "aliases", "class", "opcode", "operands", "capabilities",
                    "extensions", "version", "lastVersion", "provisional")
ENUMERANT_KEYS = ("enumerant", "aliases", "value", "capabilities", "extensions", "parameters",
                  "version", "lastVersion", "provisional")
OPERAND_KEYS = ("kind", "quantifier", "name")


def fail(message):
    sys.stderr.write("import_grammar: error: %s\n" % message)
    sys.exit(1)


def pick(d, keys):
    return {k: d[k] for k in keys if k in d}


def operands(lst):
    return [pick(o, OPERAND_KEYS) for o in lst]


def instruction(inst):
    out = pick(inst, INSTRUCTION_KEYS)
    if "operands" in out:
        out["operands"] = operands(out["operands"])
    return out


def enumerant(en):
    out = pick(en, ENUMERANT_KEYS)
    if "parameters" in out:
        out["parameters"] = operands(out["parameters"])
    return out


def operand_kind(kind):
    out = {"category": kind["category"], "kind": kind["kind"]}
    if "enumerants" in kind:
        out["enumerants"] = [enumerant(e) for e in kind["enumerants"]]
    if "bases" in kind:
        out["bases"] = list(kind["bases"])
    return out


def counts(grammar):
    return {
        "instructions": len(grammar.get("instructions", [])),
        "operand_kinds": len(grammar.get("operand_kinds", [])),
        "enumerants": sum(len(k.get("enumerants", [])) for k in grammar.get("operand_kinds", [])),
    }


def facts(grammar, source):
    out = {"source": source}
    for k in ("magic_number", "major_version", "minor_version", "version", "revision"):
        if k in grammar:
            out[k] = grammar[k]
    out["instructions"] = [instruction(i) for i in grammar.get("instructions", [])]
    out["operand_kinds"] = [operand_kind(k) for k in grammar.get("operand_kinds", [])]
    return out


def check_superseded(old, new, old_name, new_name):
    by_opcode = {i["opcode"]: i for i in new.get("instructions", [])}
    for inst in old.get("instructions", []):
        later = by_opcode.get(inst["opcode"])
        kinds = [(o["kind"], o.get("quantifier", "")) for o in inst.get("operands", [])]
        later_kinds = [(o["kind"], o.get("quantifier", ""))
                       for o in (later or {}).get("operands", [])]
        if later is None or later["opname"] != inst["opname"] or \
                later_kinds[:len(kinds)] != kinds:
            fail("%s does not extend %s at %s" % (new_name, old_name, inst["opname"]))
    if old.get("operand_kinds", []) != new.get("operand_kinds", []):
        fail("%s and %s differ in their operand kinds" % (new_name, old_name))


def read_generators(path):
    tools = []
    for ids in ET.parse(path).getroot().iter("ids"):
        if ids.get("type") != "vendor":
            continue
        for node in ids.iter("id"):
            if node.get("value") is not None:
                tools.append([int(node.get("value")), node.get("vendor", ""), node.get("tool", "")])
    tools.sort()
    return tools


def dump(obj):
    """JSON with one instruction, enumerant or generator per line: stable, diff-friendly."""
    def one(x):
        return json.dumps(x, sort_keys=False, separators=(", ", ": "))

    lines = ["{"]
    items = list(obj.items())
    for n, (key, value) in enumerate(items):
        comma = "," if n + 1 < len(items) else ""
        if key == "operand_kinds":
            lines.append('  "operand_kinds": [')
            for m, kind in enumerate(value):
                kcomma = "," if m + 1 < len(value) else ""
                head = {k: v for k, v in kind.items() if k != "enumerants"}
                if "enumerants" not in kind:
                    lines.append("    " + one(head) + kcomma)
                    continue
                lines.append("    " + one(head)[:-1] + ', "enumerants": [')
                for e, en in enumerate(kind["enumerants"]):
                    lines.append("      " + one(en) + ("," if e + 1 < len(kind["enumerants"]) else ""))
                lines.append("    ]}" + kcomma)
            lines.append("  ]" + comma)
        elif key in ("instructions", "generators"):
            lines.append('  "%s": [' % key)
            for m, x in enumerate(value):
                lines.append("    " + one(x) + ("," if m + 1 < len(value) else ""))
            lines.append("  ]" + comma)
        else:
            lines.append("  %s: %s%s" % (json.dumps(key), one(value), comma))
    lines.append("}")
    return "\n".join(lines) + "\n"


def build(headers, commit):
    unified = os.path.join(headers, "include", "spirv", "unified1")
    if not os.path.isdir(unified):
        fail("%s has no include/spirv/unified1" % headers)
    files = {}

    def source(rel, grammar):
        return {"repository": REPOSITORY, "commit": commit, "file": rel, "counts": counts(grammar)}

    rel = "include/spirv/unified1/spirv.core.grammar.json"
    with open(os.path.join(headers, rel)) as f:
        core = json.load(f)
    files["spirv.core.grammar.json"] = facts(core, source(rel, core))

    grammars = {}
    for name in sorted(os.listdir(unified)):
        m = re.match(r"extinst\.(.*)\.grammar\.json$", name)
        if m:
            with open(os.path.join(unified, name)) as f:
                grammars[m.group(1)] = (name, json.load(f))
    for stem, (name, grammar) in sorted(grammars.items()):
        if stem in SUPERSEDED:
            later = SUPERSEDED[stem]
            if later not in grammars:
                fail("%s is superseded by %s, which is missing" % (name, later))
            check_superseded(grammar, grammars[later][1], name, grammars[later][0])
            continue
        if stem not in IMPORT_NAMES:
            fail("%s: no import name is known for this set: add it to IMPORT_NAMES" % name)
        out = facts(grammar, source("include/spirv/unified1/" + name, grammar))
        out = dict([("import_name", IMPORT_NAMES[stem])] + list(out.items()))
        files[name] = out

    rel = "include/spirv/spir-v.xml"
    generators = read_generators(os.path.join(headers, rel))
    files["generators.json"] = {
        "source": {"repository": REPOSITORY, "commit": commit, "file": rel,
                   "counts": {"generators": len(generators)}},
        "generators": generators,
    }
    return {name: dump(obj) for name, obj in files.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--headers", required=True, help="a SPIRV-Headers checkout")
    parser.add_argument("--commit", required=True, help="the checkout's commit, recorded")
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "source",
                                                      "grammar", "data"))
    parser.add_argument("--check", action="store_true",
                        help="compare with --out instead of writing; exit 1 on any difference")
    args = parser.parse_args()
    texts = build(args.headers, args.commit)
    if args.check:
        present = {n for n in os.listdir(args.out) if n.endswith(".json")}
        bad = sorted(present ^ set(texts))
        for name, text in sorted(texts.items()):
            path = os.path.join(args.out, name)
            if os.path.exists(path):
                with open(path) as f:
                    if f.read() != text:
                        bad.append(name)
        for name in bad:
            print("differs: %s" % name)
        print("%d files, %d differ" % (len(texts), len(bad)))
        sys.exit(1 if bad else 0)
    os.makedirs(args.out, exist_ok=True)
    for name in os.listdir(args.out):
        if name.endswith(".json") and name not in texts:
            os.remove(os.path.join(args.out, name))
    for name, text in sorted(texts.items()):
        with open(os.path.join(args.out, name), "w") as f:
            f.write(text)
    print("wrote %d files to %s" % (len(texts), args.out))


if __name__ == "__main__":
    main()
