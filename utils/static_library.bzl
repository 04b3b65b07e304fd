"""static_library: one archive with the objects of a cc_library and of all it depends on.

Bazel 4.2 has no rule for a distributable static library (each cc_library has its own archive).
This one merges the archives of the project's own libraries (those of the main repository; the
Debian libraries stay outside, named by the pkg-config file) with `ar -M`.
"""

def _static_library_impl(ctx):
    archives = []
    seen = {}
    for dep in ctx.attr.deps:
        for linker_input in dep[CcInfo].linking_context.linker_inputs.to_list():
            for library in linker_input.libraries:
                archive = library.pic_static_library or library.static_library
                if archive == None or archive.owner.workspace_name != "":
                    continue
                if archive.path in seen:
                    continue
                seen[archive.path] = True
                archives.append(archive)
    out = ctx.actions.declare_file(ctx.attr.out)
    script = "create %s\n" % out.path
    script += "".join(["addlib %s\n" % a.path for a in archives])
    script += "save\nend\n"
    ctx.actions.run_shell(
        inputs = archives,
        outputs = [out],
        command = "printf '%s' '" + script + "' | ar -M && ranlib " + out.path,
        mnemonic = "StaticLibrary",
        progress_message = "Merging %d archives into %s" % (len(archives), out.short_path),
    )
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

static_library = rule(
    implementation = _static_library_impl,
    attrs = {
        "deps": attr.label_list(providers = [CcInfo]),
        "out": attr.string(mandatory = True),
    },
)
