#!/usr/bin/env python3
"""Generates coopspv's static grammar tables from SPIR-V grammar JSON files.

The build's inputs are the project's grammar data (source/grammar/data/, imported from the
public SPIRV-Headers by utils/import_grammar.py): the core grammar, the extended-instruction
grammars (each naming its OpExtInstImport name) and the generator registry (generators.json).
The generator also reads grammars straight from a spirv-headers package (spir-v.xml for the
registry), and merges further grammar files in the same schema (--project) into the core.

Merging is by value: an instruction is keyed by its opcode, an enumerant by (kind, value). An
entry that appears in several inputs is emitted once; its names are the union (the project's
grammar names the primary spelling, so disassembly does not depend on the package version), its
capabilities and extensions the union, its version the earliest, its class the project's when it
gives one, and its operand list the longest of the lists, which must extend one another.

Outputs:
  --header  grammar_generated.h: enums for opcodes, operand kinds and every enumerated kind.
  --tables  grammar_tables.inc: the tables and hash indexes grammar.cc serves lookups from.
  --merged-json  the merged core grammar in the input schema (used by tests).
"""

import argparse
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

ID_KINDS = ["IdResultType", "IdResult", "IdMemorySemantics", "IdScope", "IdRef"]
LITERAL_KINDS = [
    "LiteralInteger", "LiteralString", "LiteralFloat", "LiteralContextDependentNumber",
    "LiteralExtInstInteger", "LiteralSpecConstantOpInteger"
]
COMPOSITE_KINDS = ["PairLiteralIntegerIdRef", "PairIdRefLiteralInteger", "PairIdRefIdRef"]
NO_VERSION = 0xFFFFFFFF


def fail(message):
    sys.stderr.write("generate_grammar: error: %s\n" % message)
    sys.exit(1)


def parse_version(text):
    if text is None or text == "None":
        return NO_VERSION
    m = re.match(r"^(\d+)\.(\d+)$", text)
    if not m:
        fail("bad version %r" % text)
    return (int(m.group(1)) << 16) | (int(m.group(2)) << 8)


def parse_value(value):
    if isinstance(value, int):
        return value
    return int(value, 0)


def union(a, b):
    out = list(a)
    for x in b:
        if x not in out:
            out.append(x)
    return out


def merge_operands(where, a, b):
    """Returns the longer operand list (the first one, `a`, when they are as long: the names and
    order of its entries are kept); the shorter must be its prefix (by kind)."""
    short, long_ = (b, a) if len(b) <= len(a) else (a, b)
    for x, y in zip(short, long_):
        if x["kind"] != y["kind"] or x.get("quantifier", "") != y.get("quantifier", ""):
            fail("%s: operand lists disagree: %r vs %r" % (where, a, b))
    return long_


class Entry:
    """An instruction or enumerant after merging: names, capabilities, extensions, version."""

    def __init__(self, value, names, caps, exts, version, operands):
        self.value = value
        self.names = names
        self.caps = caps
        self.exts = exts
        self.version = version
        self.operands = operands
        self.klass = None

    def absorb(self, other, other_is_project):
        if other_is_project:
            self.names = union(other.names, self.names)
        else:
            self.names = union(self.names, other.names)
        self.caps = union(self.caps, other.caps)
        self.exts = union(self.exts, other.exts)
        self.version = min(self.version, other.version)
        self.operands = merge_operands(self.names[0], self.operands, other.operands)
        if other.klass and (other_is_project or not self.klass):
            self.klass = other.klass


def load_instruction(inst):
    names = [inst["opname"]] + list(inst.get("aliases", []))
    e = Entry(inst["opcode"], names, list(inst.get("capabilities", [])),
              list(inst.get("extensions", [])), parse_version(inst.get("version")),
              list(inst.get("operands", [])))
    e.klass = inst.get("class", "")
    return e


def load_enumerant(en):
    names = [en["enumerant"]] + list(en.get("aliases", []))
    return Entry(parse_value(en["value"]), names, list(en.get("capabilities", [])),
                 list(en.get("extensions", [])), parse_version(en.get("version")),
                 list(en.get("parameters", [])))


class Grammar:

    def __init__(self):
        self.instructions = {}  # opcode -> Entry
        self.kinds = {}  # kind name -> {"category", "enumerants": {value -> Entry}}
        self.kind_order = []
        self.header = None

    def add(self, grammar, is_project):
        if self.header is None and "magic_number" in grammar:
            self.header = {k: grammar[k] for k in ("magic_number", "major_version",
                                                    "minor_version", "revision")}
        for inst in grammar.get("instructions", []):
            e = load_instruction(inst)
            old = self.instructions.get(e.value)
            if old is None:
                self.instructions[e.value] = e
            else:
                old.absorb(e, is_project)
        for kind in grammar.get("operand_kinds", []):
            name = kind["kind"]
            if name not in self.kinds:
                self.kinds[name] = {"category": kind["category"], "enumerants": {}}
                self.kind_order.append(name)
            entry = self.kinds[name]
            if entry["category"] != kind["category"]:
                fail("operand kind %s: category %s vs %s" %
                     (name, entry["category"], kind["category"]))
            for en in kind.get("enumerants", []):
                e = load_enumerant(en)
                old = entry["enumerants"].get(e.value)
                if old is None:
                    entry["enumerants"][e.value] = e
                else:
                    old.absorb(e, is_project)
            if "bases" in kind:
                entry["bases"] = kind["bases"]

    def to_json(self):
        out = dict(self.header or {})
        insts = []
        for op in sorted(self.instructions):
            e = self.instructions[op]
            d = {"opname": e.names[0]}
            if len(e.names) > 1:
                d["aliases"] = e.names[1:]
            d["class"] = e.klass or ""
            d["opcode"] = op
            if e.operands:
                d["operands"] = e.operands
            if e.caps:
                d["capabilities"] = e.caps
            if e.exts:
                d["extensions"] = e.exts
            d["version"] = version_text(e.version)
            insts.append(d)
        out["instructions"] = insts
        kinds = []
        for name in self.kind_order:
            k = self.kinds[name]
            d = {"category": k["category"], "kind": name}
            if k["enumerants"]:
                ens = []
                for v in sorted(k["enumerants"]):
                    e = k["enumerants"][v]
                    en = {"enumerant": e.names[0]}
                    if len(e.names) > 1:
                        en["aliases"] = e.names[1:]
                    en["value"] = ("0x%04x" % v) if k["category"] == "BitEnum" else v
                    if e.caps:
                        en["capabilities"] = e.caps
                    if e.exts:
                        en["extensions"] = e.exts
                    if e.operands:
                        en["parameters"] = e.operands
                    en["version"] = version_text(e.version)
                    ens.append(en)
                d["enumerants"] = ens
            if "bases" in k:
                d["bases"] = k["bases"]
            kinds.append(d)
        out["operand_kinds"] = kinds
        return out


def version_text(v):
    if v == NO_VERSION:
        return "None"
    return "%d.%d" % (v >> 16, (v >> 8) & 0xFF)


def fnv1a(data, seed):
    h = 0x811C9DC5 ^ seed
    for b in data:
        h ^= b
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def build_hash(keys):
    """Open-addressing table: list of (hash, index+1) slots, size a power of two >= 2*len."""
    size = 1
    while size < 2 * max(1, len(keys)):
        size *= 2
    slots = [(0, 0)] * size
    for index, (h) in enumerate(keys):
        pos = h & (size - 1)
        while slots[pos][1] != 0:
            pos = (pos + 1) & (size - 1)
        slots[pos] = (h, index + 1)
    return slots


def cxx_ident(name):
    ident = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if ident[0].isdigit():
        ident = "k" + ident
    return ident


def class_ident(name):
    parts = re.split(r"[^A-Za-z0-9]+", name)
    return "k" + "".join(p[:1].upper() + p[1:] for p in parts if p)


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def operand_name(op):
    # Names come quoted, and variadic ones as "'Operand 1', +\n'Operand 2', +\n...": keep the
    # words, drop the quotes and pluses.
    name = op.get("name", "").replace("\n", " ").replace("'", "").replace("+", "")
    return re.sub(r"\s+", " ", name).replace(" ,", ",").strip()


def ext_set_prefix(path):
    base = os.path.basename(path)
    m = re.match(r"extinst\.(.*)\.grammar\.json$", base)
    if not m:
        fail("unexpected extended-instruction grammar file name %s" % base)
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[.\-]", m.group(1)))


# Names used in OpExtInstImport for each grammar file, by file stem.
EXT_SET_NAMES = {
    "glsl.std.450": "GLSL.std.450",
    "opencl.std.100": "OpenCL.std",
    "debuginfo": "DebugInfo",
    "opencl.debuginfo.100": "OpenCL.DebugInfo.100",
    "nonsemantic.shader.debuginfo.100": "NonSemantic.Shader.DebugInfo.100",
    "nonsemantic.clspvreflection": "NonSemantic.ClspvReflection.",
    "nonsemantic.debugprintf": "NonSemantic.DebugPrintf",
    "nonsemantic.debugbreak": "NonSemantic.DebugBreak",
    "nonsemantic.vkspreflection": "NonSemantic.VkspReflection",
    "spv-amd-gcn-shader": "SPV_AMD_gcn_shader",
    "spv-amd-shader-ballot": "SPV_AMD_shader_ballot",
    "spv-amd-shader-explicit-vertex-parameter": "SPV_AMD_shader_explicit_vertex_parameter",
    "spv-amd-shader-trinary-minmax": "SPV_AMD_shader_trinary_minmax",
    "tosa.001000.1": "TOSA.001000.1",
    "arm.motion-engine.100": "Arm.MotionEngine.100",
}


def ext_set_import_name(path, grammar):
    """The name OpExtInstImport gives the set: the project's data records it (import_name);
    grammars straight from a spirv-headers package are named by their file."""
    if "import_name" in grammar:
        return grammar["import_name"]
    stem = re.match(r"extinst\.(.*)\.grammar\.json$", os.path.basename(path)).group(1)
    return EXT_SET_NAMES.get(stem, stem)


def read_registry(path):
    if path.endswith(".json"):  # The project's data: {"generators": [[id, vendor, tool], ...]}.
        with open(path) as f:
            return sorted(tuple(t) for t in json.load(f)["generators"])
    tools = []
    root = ET.parse(path).getroot()
    for ids in root.iter("ids"):
        if ids.get("type") != "vendor":
            continue
        for node in ids.iter("id"):
            value = node.get("value")
            if value is None:
                continue
            tools.append((int(value), node.get("vendor", ""), node.get("tool", "")))
    tools.sort()
    return tools


def reader_shape(operands, enum_kinds=()):
    """The binary reader's fast layout of an instruction: (fixed, tail). The first `fixed`
    operands are single words, one each (ids, LiteralInteger or enumerants, which must be ones
    without parameters); tail 1: only optional operands follow; tail 2: one variadic IdRef or
    LiteralInteger follows; tail 3: one LiteralString ends the instruction; tail 4: one
    LiteralContextDependentNumber, as wide as the result type, ends it (OpConstant); tail 0: no
    fast layout."""
    one_word = set(ID_KINDS) | {"LiteralInteger"} | set(enum_kinds)
    fixed = 0
    for o in operands:
        if o.get("quantifier", "") != "" or o["kind"] not in one_word:
            break
        fixed += 1
    rest = operands[fixed:]
    if fixed > 255:
        return (0, 0)
    if all(o.get("quantifier", "") == "?" for o in rest):
        return (fixed, 1)
    if (len(rest) == 1 and rest[0].get("quantifier", "") == "*" and
            rest[0]["kind"] in ("IdRef", "LiteralInteger")):
        return (fixed, 2)
    if len(rest) == 1 and rest[0].get("quantifier", "") == "" and rest[0]["kind"] == "LiteralString":
        return (fixed, 3)
    if (len(rest) == 1 and rest[0].get("quantifier", "") == "" and
            rest[0]["kind"] == "LiteralContextDependentNumber" and fixed >= 1 and
            operands[0]["kind"] == "IdResultType"):
        return (fixed, 4)
    return (0, 0)


class Emitter:

    def __init__(self, core, ext_sets, registry):
        self.core = core
        self.ext_sets = ext_sets  # list of (import name, prefix, grammar dict)
        self.registry = registry
        self.strings = []

    def generate(self):
        core = self.core
        # Operand kinds: ids, literals, composites, then the enumerated kinds of the core grammar,
        # then those of extended-instruction grammars (prefixed with their set).
        kinds = []  # (cxx name, category, enumerants dict or None, display name)
        seen = set()
        for k in ID_KINDS:
            kinds.append((k, "Id", None, k))
            seen.add(k)
        for k in LITERAL_KINDS:
            kinds.append((k, "Literal", None, k))
            seen.add(k)
        for k in COMPOSITE_KINDS:
            kinds.append((k, "Composite", None, k))
            seen.add(k)
        for name in core.kind_order:
            if name in seen:
                continue
            cat = core.kinds[name]["category"]
            if cat in ("Id", "Literal", "Composite"):
                fail("unknown %s operand kind %s: teach the generator its encoding" % (cat, name))
            kinds.append((name, cat, core.kinds[name]["enumerants"], name))
            seen.add(name)
        ext_kind_map = []  # per set: {kind name -> cxx name}
        for import_name, prefix, g in self.ext_sets:
            m = {}
            for kind in g.get("operand_kinds", []):
                cat = kind["category"]
                if cat not in ("ValueEnum", "BitEnum"):
                    fail("%s: operand kind %s of category %s" % (import_name, kind["kind"], cat))
                ens = {}
                for en in kind.get("enumerants", []):
                    e = load_enumerant(en)
                    if e.value in ens:
                        ens[e.value].absorb(e, False)
                    else:
                        ens[e.value] = e
                cxx = prefix + "_" + kind["kind"]
                kinds.append((cxx, cat, ens, kind["kind"]))
                m[kind["kind"]] = cxx
            ext_kind_map.append(m)
        kind_index = {k[0]: i for i, k in enumerate(kinds)}
        self.kinds = kinds
        self.kind_index = kind_index

        def resolve_kind(name, ext_map=None):
            if ext_map and name in ext_map:
                return kind_index[ext_map[name]]
            if name not in kind_index:
                fail("unknown operand kind %s" % name)
            return kind_index[name]

        # Capability values by name, for the capability lists of instructions and enumerants.
        cap_kind = core.kinds["Capability"]["enumerants"]
        cap_by_name = {}
        for v, e in cap_kind.items():
            for n in e.names:
                cap_by_name[n] = v

        def cap_values(names, where):
            out = []
            for n in names:
                if n not in cap_by_name:
                    fail("%s: unknown capability %s" % (where, n))
                out.append(cap_by_name[n])
            return out

        lines = []
        w = lines.append
        w("// Generated by utils/generate_grammar.py. Do not edit.")
        w("// NOLINTBEGIN")
        w("namespace coopspv::grammar::generated {")
        # Pools.
        cap_pool = []
        ext_pool = []
        operand_pool = []

        def pool_caps(values):
            start = len(cap_pool)
            cap_pool.extend(values)
            return start, len(values)

        def pool_exts(names):
            start = len(ext_pool)
            ext_pool.extend(names)
            return start, len(names)

        def pool_operands(ops, ext_map=None):
            start = len(operand_pool)
            for op in ops:
                q = {"": "kOne", "?": "kOptional", "*": "kVariadic"}[op.get("quantifier", "")]
                operand_pool.append((resolve_kind(op["kind"], ext_map), q, operand_name(op)))
            return start, len(ops)

        # Enumerants, grouped by kind and sorted by value.
        enum_rows = []
        kind_rows = []
        alias_rows = []  # (enumerant index, name)
        for ki, (cxx, cat, ens, display) in enumerate(kinds):
            begin = len(enum_rows)
            if ens:
                ext_map = None
                for v in sorted(ens):
                    e = ens[v]
                    caps = pool_caps(cap_values(e.caps, "%s %s" % (cxx, e.names[0])))
                    exts = pool_exts(e.exts)
                    params = pool_operands(e.operands)
                    alias_begin = len(alias_rows)
                    for n in e.names[1:]:
                        alias_rows.append((len(enum_rows), n))
                    enum_rows.append((ki, e.names[0], v, caps, exts, params, e.version,
                                      alias_begin, len(e.names) - 1))
            valid = 0
            with_params = 0
            if ens and cat == "BitEnum":
                for v, e in ens.items():
                    valid |= v
                    if e.operands:
                        with_params |= v
            kind_rows.append((display, cat, begin, len(enum_rows) - begin, valid, with_params))
        # Instructions sorted by opcode.
        inst_rows = []
        inst_alias_rows = []
        enum_kinds = [n for n, k in core.kinds.items()
                      if k["category"] in ("ValueEnum", "BitEnum")]
        for op in sorted(core.instructions):
            e = core.instructions[op]
            caps = pool_caps(cap_values(e.caps, e.names[0]))
            exts = pool_exts(e.exts)
            ops = pool_operands(e.operands)
            kinds_here = [o["kind"] for o in e.operands]
            has_type = bool(kinds_here) and kinds_here[0] == "IdResultType"
            has_result = "IdResult" in kinds_here[:2]
            alias_begin = len(inst_alias_rows)
            for n in e.names[1:]:
                inst_alias_rows.append((len(inst_rows), n))
            inst_rows.append((e.names[0], op, e.klass or "", ops, caps, exts, e.version, has_type,
                              has_result, alias_begin, len(e.names) - 1,
                              reader_shape(e.operands, enum_kinds)))
        # Per instruction, for tables built at compile time (grammar_generated.h): its class and
        # whether an operand is a scope or memory-semantics id, directly or as a parameter of an
        # enumerant of its kind.
        scope_kinds = ("IdScope", "IdMemorySemantics")
        kind_has_scope = {}
        for cxx, cat, ens, display in kinds:
            kind_has_scope[cxx] = cxx in scope_kinds or bool(ens) and any(
                o["kind"] in scope_kinds for en in ens.values() for o in en.operands)
        self.opcode_facts = []
        for op in sorted(core.instructions):
            e = core.instructions[op]
            self.opcode_facts.append((op, class_ident(e.klass or "Reserved"),
                                      any(kind_has_scope.get(o["kind"], False)
                                          for o in e.operands),
                                      any(o["kind"] == "GroupOperation" for o in e.operands),
                                      e.names[0]))
        # Extended instruction sets.
        ext_set_rows = []
        ext_inst_rows = []
        for si, (import_name, prefix, g) in enumerate(self.ext_sets):
            begin = len(ext_inst_rows)
            for inst in sorted(g.get("instructions", []), key=lambda i: i["opcode"]):
                caps = pool_caps(cap_values(inst.get("capabilities", []), inst["opname"]))
                ops = pool_operands(inst.get("operands", []), ext_kind_map[si])
                ext_inst_rows.append((si, inst["opname"], inst["opcode"], ops, caps))
            ext_set_rows.append((import_name, begin, len(ext_inst_rows) - begin))

        w("extern constexpr OperandKindInfo kOperandKinds[] = {")
        for display, cat, begin, count, valid, with_params in kind_rows:
            w("    {%s, OperandCategory::k%s, %d, %d, 0x%xu, 0x%xu}," %
              (c_string(display), cat, begin, count, valid, with_params))
        w("};")
        w("inline constexpr uint32_t kCapabilityPool[] = {%s};" %
          (", ".join(str(c) for c in cap_pool) or "0"))
        w("inline constexpr const char* kExtensionPool[] = {%s};" %
          (", ".join(c_string(x) for x in ext_pool) or "nullptr"))
        w("extern constexpr OperandInfo kOperandPool[] = {")
        for kind, q, name in operand_pool:
            w("    {static_cast<OperandKind>(%d), Quantifier::%s, %s}," % (kind, q, c_string(name)))
        w("};")
        w("inline constexpr EnumerantInfo kEnumerants[] = {")
        for (ki, name, v, caps, exts, params, version, ab, ac) in enum_rows:
            w("    {static_cast<OperandKind>(%d), %s, 0x%xu, %d, %d, %d, %d, %d, %d, 0x%xu, %d, %d}," %
              (ki, c_string(name), v, caps[0], caps[1], exts[0], exts[1], params[0], params[1],
               version, ab, ac))
        w("};")
        w("inline constexpr const char* kEnumerantAliases[] = {%s};" %
          (", ".join(c_string(n) for _, n in alias_rows) or "nullptr"))
        w("extern constexpr InstructionInfo kInstructions[] = {")
        for (name, op, klass, ops, caps, exts, version, ht, hr, ab, ac, shape) in inst_rows:
            w("    {%s, %d, %s, %d, %d, %d, %d, %d, %d, 0x%xu, %s, %s, %d, %d, InstructionClass::%s,"
              " %d, %d}," %
              (c_string(name), op, c_string(klass), ops[0], ops[1], caps[0], caps[1], exts[0],
               exts[1], version, "true" if ht else "false", "true" if hr else "false", ab, ac,
               class_ident(klass or "Reserved"), shape[0], shape[1]))
        w("};")
        w("inline constexpr const char* kInstructionAliases[] = {%s};" %
          (", ".join(c_string(n) for _, n in inst_alias_rows) or "nullptr"))
        max_op = max(core.instructions)
        opcode_index = [0] * (max_op + 1)
        for i, row in enumerate(inst_rows):
            opcode_index[row[1]] = i + 1
        w("extern constexpr uint16_t kOpcodeIndex[] = {")
        for i in range(0, len(opcode_index), 32):
            w("    " + ", ".join(str(x) for x in opcode_index[i:i + 32]) + ",")
        w("};")
        w("inline constexpr ExtInstSetInfo kExtInstSets[] = {")
        for import_name, begin, count in ext_set_rows:
            w("    {%s, %d, %d}," % (c_string(import_name), begin, count))
        w("};")
        w("inline constexpr ExtInstInfo kExtInstructions[] = {")
        for (si, name, op, ops, caps) in ext_inst_rows:
            w("    {%d, %s, %d, %d, %d, %d, %d}," % (si, c_string(name), op, ops[0], ops[1], caps[0],
                                                   caps[1]))
        w("};")

        # Hash indexes. Seeds keep the key spaces apart.
        def emit_hash(name, keys):
            slots = build_hash(keys)
            w("inline constexpr HashSlot %s[] = {" % name)
            for i in range(0, len(slots), 8):
                w("    " + " ".join("{0x%08xu, %d}," % s for s in slots[i:i + 8]))
            w("};")

        inst_names = [(n, i) for i, r in enumerate(inst_rows) for n in [r[0]]]
        inst_names += [(n, i) for i, n in inst_alias_rows]
        # Index stored is into inst_names order; emit a parallel target table.
        emit_hash("kInstructionNameHash", [fnv1a(n.encode(), 0) for n, _ in inst_names])
        w("inline constexpr uint16_t kInstructionNameTarget[] = {%s};" %
          ", ".join(str(i) for _, i in inst_names))
        w("inline constexpr const char* kInstructionNameKey[] = {%s};" %
          ", ".join(c_string(n) for n, _ in inst_names))
        enum_names = [(r[1], i, r[0]) for i, r in enumerate(enum_rows)]
        enum_names += [(n, i, enum_rows[i][0]) for i, n in alias_rows]
        emit_hash("kEnumerantNameHash", [fnv1a(n.encode(), k + 1) for n, _, k in enum_names])
        w("inline constexpr uint32_t kEnumerantNameTarget[] = {%s};" %
          ", ".join(str(i) for _, i, _ in enum_names))
        w("inline constexpr const char* kEnumerantNameKey[] = {%s};" %
          ", ".join(c_string(n) for n, _, _ in enum_names))
        emit_hash("kEnumerantValueHash",
                  [fnv1a(r[2].to_bytes(4, "little"), r[0] + 1) for r in enum_rows])
        ext_names = [(r[1], i, r[0]) for i, r in enumerate(ext_inst_rows)]
        emit_hash("kExtInstNameHash", [fnv1a(n.encode(), 0x10000 + s) for n, _, s in ext_names])
        emit_hash("kExtInstValueHash",
                  [fnv1a(r[2].to_bytes(4, "little"), 0x20000 + r[0]) for r in ext_inst_rows])
        w("inline constexpr GeneratorInfo kGenerators[] = {")
        for value, vendor, tool in self.registry:
            w("    {%d, %s, %s}," % (value, c_string(vendor), c_string(tool)))
        w("};")
        w("}  // namespace coopspv::grammar::generated")
        w("// NOLINTEND")
        return "\n".join(lines) + "\n"

    def header(self):
        core = self.core
        lines = []
        w = lines.append
        w("// Generated by utils/generate_grammar.py. Do not edit.")
        w("#ifndef COOPSPV_SOURCE_GRAMMAR_GRAMMAR_GENERATED_H_")
        w("#define COOPSPV_SOURCE_GRAMMAR_GRAMMAR_GENERATED_H_")
        w("")
        w("#include <cstdint>")
        w("")
        w("// NOLINTBEGIN")
        w("namespace coopspv::spv {")
        w("")
        hdr = core.header or {}
        w("inline constexpr uint32_t kMagicNumber = 0x07230203u;")
        w("inline constexpr uint32_t kGrammarMajorVersion = %d;" % hdr.get("major_version", 1))
        w("inline constexpr uint32_t kGrammarMinorVersion = %d;" % hdr.get("minor_version", 6))
        w("")
        w("// Opcodes, aliases included.")
        w("enum class Op : uint16_t {")
        for op in sorted(core.instructions):
            for n in core.instructions[op].names:
                w("  %s = %d," % (cxx_ident(n[2:] if n.startswith("Op") else n), op))
        w("};")
        w("")
        for name in core.kind_order:
            k = core.kinds[name]
            if k["category"] not in ("ValueEnum", "BitEnum"):
                continue
            w("enum class %s : uint32_t {" % name)
            emitted = set()
            for v in sorted(k["enumerants"]):
                for n in k["enumerants"][v].names:
                    ident = cxx_ident(n)
                    if ident in emitted:
                        continue
                    emitted.add(ident)
                    w("  %s = 0x%xu," % (ident, v))
            w("};")
            w("")
        w("}  // namespace coopspv::spv")
        w("")
        w("namespace coopspv::grammar {")
        w("")
        w("// The grammar's instruction classes.")
        w("enum class InstructionClass : uint8_t {")
        classes = sorted(set((e.klass or "Reserved") for e in core.instructions.values()))
        for c in classes:
            w("  %s," % class_ident(c))
        w("};")
        w("")
        w("// Every operand kind the tables know, in table order.")
        w("enum class OperandKind : uint16_t {")
        for i, (cxx, _, _, _) in enumerate(self.kinds):
            w("  k%s = %d," % (cxx_ident(cxx), i))
        w("};")
        w("inline constexpr int kNumOperandKinds = %d;" % len(self.kinds))
        w("// The id kinds come first, so IsIdKind is one comparison.")
        w("inline constexpr int kNumIdKinds = %d;" % len(ID_KINDS))
        w("inline constexpr uint32_t kMaxOpcode = %d;" % max(core.instructions))
        w("")
        w("// Per instruction, by opcode: its class, whether an operand is an IdScope or")
        w("// IdMemorySemantics, directly or as a parameter of an enumerant of its kind, whether one")
        w("// is a GroupOperation, and its name. For tables computed at compile time (the instruction")
        w("// tables themselves are out of line).")
        w("struct OpcodeFact {")
        w("  uint16_t opcode;")
        w("  InstructionClass klass;")
        w("  bool has_scope_or_semantics;")
        w("  bool has_group_operation;")
        w("  const char* name;")
        w("};")
        w("inline constexpr OpcodeFact kOpcodeFacts[] = {")
        for op, klass, scope, group, name in self.opcode_facts:
            w("    {%d, InstructionClass::%s, %s, %s, \"%s\"}," %
              (op, klass, "true" if scope else "false", "true" if group else "false", name))
        w("};")
        w("")
        w("}  // namespace coopspv::grammar")
        w("// NOLINTEND")
        w("")
        w("#endif  // COOPSPV_SOURCE_GRAMMAR_GRAMMAR_GENERATED_H_")
        return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--core", required=True, help="core grammar JSON of spirv-headers")
    parser.add_argument("--project", action="append", default=[],
                        help="project grammar JSON merged into the core grammar")
    parser.add_argument("--extinst", action="append", default=[],
                        help="extended-instruction grammar JSON")
    parser.add_argument("--registry",
                        help="generator registry: spir-v.xml, or the project's generators.json")
    parser.add_argument("--header", help="output: grammar_generated.h")
    parser.add_argument("--tables", help="output: grammar_tables.inc")
    parser.add_argument("--merged-json", help="output: the merged core grammar")
    args = parser.parse_args()

    core = Grammar()
    with open(args.core) as f:
        core.add(json.load(f), is_project=False)
    for path in args.project:
        with open(path) as f:
            core.add(json.load(f), is_project=True)
    ext_sets = []
    for path in sorted(args.extinst):
        with open(path) as f:
            grammar = json.load(f)
            ext_sets.append((ext_set_import_name(path, grammar), ext_set_prefix(path), grammar))
    registry = read_registry(args.registry) if args.registry else []

    emitter = Emitter(core, ext_sets, registry)
    tables = emitter.generate()
    if args.tables:
        with open(args.tables, "w") as f:
            f.write(tables)
    if args.header:
        with open(args.header, "w") as f:
            f.write(emitter.header())
    if args.merged_json:
        with open(args.merged_json, "w") as f:
            json.dump(core.to_json(), f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
