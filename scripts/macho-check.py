#!/usr/bin/env python3
"""Checks a macOS Mach-O file (executable or dynamic library) built on Linux, without running it.

    macho-check.py FILE --arch arm64|x86_64 --kind executable|dylib --minos 11.0 [options]

Fails (exit status 1, the reasons on stderr) unless:
- FILE is one thin Mach-O of that CPU type and file type (MH_EXECUTE or MH_DYLIB);
- its minimum macOS (LC_BUILD_VERSION minos, or LC_VERSION_MIN_MACOSX) is exactly --minos;
- the libraries it loads (LC_LOAD_DYLIB and the weak, re-export and upward kinds) are exactly
  --dylibs (default: /usr/lib/libSystem.B.dylib), and every symbol it binds to a library is
  bound to one of them;
- the symbols it leaves to a flat lookup (BIND_SPECIAL_DYLIB_FLAT_LOOKUP: `-undefined
  dynamic_lookup`, resolved in the process that loads it) all match --flat (default: none), and
  at least one does when --flat is given (the host's API really is left to the host);
- a dylib's install name (LC_ID_DYLIB) is --install-name when given; LC_RPATH entries are
  exactly --rpath (default: none);
- it exports every name of --exports-file (one C name a line) and every --export, and (a
  dylib) at most --extra-exports other symbols (default 16: the linker's and Rust's own few; a
  Rust dylib linked without LTO by zig exports thousands);
- its code signature verifies: LC_CODE_SIGNATURE points at an embedded-signature SuperBlob at
  the end of __LINKEDIT whose CodeDirectory uses SHA-256, covers the file up to the signature
  (codeLimit), and whose every page hash (2^pageSize bytes up to codeLimit) and special-slot
  hash matches the bytes; its flags include adhoc. Required on arm64 (macOS runs no unsigned
  arm64 code) and with --signed; an x86_64 file without one is reported, with one it must verify.

The load commands, bindings and exports are read with LIEF (PyPI); the signature is parsed
and recomputed here from the raw bytes.
"""

import argparse
import hashlib
import re
import struct
import sys

import lief

lief.logging.disable()

CPU = {"arm64": lief.MachO.Header.CPU_TYPE.ARM64, "x86_64": lief.MachO.Header.CPU_TYPE.X86_64}
FILETYPE = {"executable": lief.MachO.Header.FILE_TYPE.EXECUTE, "dylib": lief.MachO.Header.FILE_TYPE.DYLIB}
LC = lief.MachO.LoadCommand.TYPE
LOAD_KINDS = {LC.LOAD_DYLIB, LC.LOAD_WEAK_DYLIB, LC.REEXPORT_DYLIB, LC.LOAD_UPWARD_DYLIB, LC.LAZY_LOAD_DYLIB}

# Code signing (xnu's osfmk/kern/cs_blobs.h).
CSMAGIC_EMBEDDED_SIGNATURE = 0xFADE0CC0
CSMAGIC_CODEDIRECTORY = 0xFADE0C02
CSSLOT_CODEDIRECTORY = 0
CSSLOT_ALTERNATE_CODEDIRECTORIES = 0x1000
CS_HASHTYPE_SHA256 = 2
CS_ADHOC = 0x2
CS_LINKER_SIGNED = 0x20000
FLAT_LOOKUP = -2


def check_signature(data, offset, size, problems, facts):
    """Verifies the embedded signature at data[offset:offset+size] against data[:offset]."""
    if offset + size > len(data) or size < 12:
        problems.append(f"LC_CODE_SIGNATURE ({offset}+{size}) lies outside the file ({len(data)} bytes)")
        return
    blob = data[offset : offset + size]
    magic, length, count = struct.unpack_from(">III", blob, 0)
    if magic != CSMAGIC_EMBEDDED_SIGNATURE:
        problems.append(f"signature: SuperBlob magic {magic:#x}, not {CSMAGIC_EMBEDDED_SIGNATURE:#x}")
        return
    if length > size or 12 + 8 * count > length:
        problems.append(f"signature: SuperBlob length {length} / count {count} do not fit its {size} bytes")
        return
    slots = {}
    for i in range(count):
        slot_type, slot_offset = struct.unpack_from(">II", blob, 12 + 8 * i)
        if slot_offset + 8 > length:
            problems.append(f"signature: blob {slot_type:#x} at {slot_offset} lies outside the SuperBlob")
            return
        slot_length = struct.unpack_from(">I", blob, slot_offset + 4)[0]
        if slot_offset + slot_length > length:
            problems.append(f"signature: blob {slot_type:#x} ({slot_length} bytes) runs past the SuperBlob")
            return
        slots[slot_type] = blob[slot_offset : slot_offset + slot_length]
    if any(CSSLOT_ALTERNATE_CODEDIRECTORIES <= t < CSSLOT_ALTERNATE_CODEDIRECTORIES + 5 for t in slots):
        problems.append("signature: alternate CodeDirectories (only one SHA-256 CodeDirectory is expected)")
    cd = slots.get(CSSLOT_CODEDIRECTORY)
    if cd is None:
        problems.append("signature: no CodeDirectory")
        return
    (
        cd_magic,
        _cd_len,
        version,
        flags,
        hash_offset,
        ident_offset,
        n_special,
        n_code,
        code_limit,
        hash_size,
        hash_type,
        _platform,
        page_log2,
        _spare2,
    ) = struct.unpack_from(">IIIIIIIIIBBBBI", cd, 0)
    if cd_magic != CSMAGIC_CODEDIRECTORY:
        problems.append(f"signature: CodeDirectory magic {cd_magic:#x}")
        return
    if version >= 0x20300:
        code_limit64 = struct.unpack_from(">Q", cd, 0x38)[0]
        if code_limit64:
            code_limit = code_limit64
    identifier = cd[ident_offset : cd.index(b"\0", ident_offset)].decode("utf-8", "replace")
    if hash_type != CS_HASHTYPE_SHA256 or hash_size != 32:
        problems.append(f"signature: hash type {hash_type} size {hash_size}, not SHA-256")
        return
    if not flags & CS_ADHOC:
        problems.append(f"signature: flags {flags:#x} lack adhoc ({CS_ADHOC:#x})")
    if code_limit != offset:
        problems.append(f"signature: codeLimit {code_limit} is not the signature's offset {offset}")
    page = 1 << page_log2 if page_log2 else None
    if page is None:
        problems.append("signature: page size 0 (one hash for the whole file) is not what linkers write")
        return
    if n_code != -(-code_limit // page):
        problems.append(f"signature: {n_code} code slots for {code_limit} bytes in pages of {page}")
    if hash_offset + n_code * hash_size > len(cd) or hash_offset < n_special * hash_size:
        problems.append("signature: the hash slots lie outside the CodeDirectory")
        return
    bad = []
    for i in range(n_code):
        want = cd[hash_offset + i * hash_size : hash_offset + (i + 1) * hash_size]
        got = hashlib.sha256(data[i * page : min((i + 1) * page, code_limit)]).digest()
        if got != want:
            bad.append(i)
    if bad:
        problems.append(f"signature: {len(bad)} of {n_code} page hashes do not match (first: page {bad[0]})")
    # Special slots: slot -k holds the hash of the blob of type k (requirements, entitlements,
    # ...), zero where there is none.
    for k in range(1, n_special + 1):
        want = cd[hash_offset - k * hash_size : hash_offset - (k - 1) * hash_size]
        if k in slots:
            if hashlib.sha256(slots[k]).digest() != want:
                problems.append(f"signature: special slot -{k} does not match its blob")
        elif want != bytes(hash_size):
            problems.append(f"signature: special slot -{k} has a hash but there is no blob {k}")
    kinds = "adhoc" + (", linker-signed" if flags & CS_LINKER_SIGNED else "")
    facts.append(f"signed ({kinds}, identifier {identifier}): {n_code} page hashes of {page} bytes verify")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--arch", required=True, choices=sorted(CPU))
    ap.add_argument("--kind", required=True, choices=sorted(FILETYPE))
    ap.add_argument("--minos", required=True, help="e.g. 11.0 or 10.12")
    ap.add_argument("--dylibs", default="/usr/lib/libSystem.B.dylib", help="comma-separated, exact set")
    ap.add_argument("--flat", help="regex: the symbols that may (and some must) be left to a flat lookup")
    ap.add_argument("--install-name")
    ap.add_argument("--rpath", action="append", default=[])
    ap.add_argument("--exports-file")
    ap.add_argument("--export", action="append", default=[])
    ap.add_argument("--extra-exports", type=int, default=16)
    ap.add_argument("--signed", action="store_true", help="require a signature on x86_64 too")
    ap.add_argument("--label")
    args = ap.parse_args()
    label = args.label or args.file
    problems, facts = [], []

    with open(args.file, "rb") as f:
        data = f.read()
    if not lief.is_macho(args.file):
        sys.exit(f"{label}: not a Mach-O file")
    fat = lief.MachO.parse(args.file)
    if fat is None or fat.size != 1:
        sys.exit(f"{label}: not one thin Mach-O ({0 if fat is None else fat.size} architectures)")
    b = fat.at(0)

    if b.header.cpu_type != CPU[args.arch]:
        problems.append(f"CPU type {b.header.cpu_type}, not {args.arch}")
    if b.header.file_type != FILETYPE[args.kind]:
        problems.append(f"file type {b.header.file_type}, not {args.kind}")

    # Minimum macOS.
    versions = []
    if b.has_build_version:
        if b.build_version.platform != lief.MachO.BuildVersion.PLATFORMS.MACOS:
            problems.append(f"LC_BUILD_VERSION platform {b.build_version.platform}, not macOS")
        versions.append(tuple(b.build_version.minos))
    if b.has_version_min:
        versions.append(tuple(b.version_min.version))
    want = tuple(int(x) for x in args.minos.split("."))
    want = want + (0,) * (3 - len(want))
    if len(versions) != 1:
        problems.append(
            f"{len(versions)} minimum-version load commands (LC_BUILD_VERSION / LC_VERSION_MIN_MACOSX)"
        )
    elif versions[0] != want:
        problems.append(f"minimum macOS {'.'.join(map(str, versions[0]))}, not {args.minos}")
    else:
        sdk = f", sdk {'.'.join(map(str, b.build_version.sdk))}" if b.has_build_version else ""
        facts.append(f"minos {args.minos}{sdk}")

    # Libraries loaded, and where every symbol binds.
    loaded = [lib.name for lib in b.libraries if lib.command in LOAD_KINDS]
    want_libs = [x for x in args.dylibs.split(",") if x]
    if sorted(loaded) != sorted(want_libs):
        problems.append(f"loads {loaded}, not exactly {want_libs}")
    flat, unknown = set(), set()
    for binding in b.bindings:
        name = binding.symbol.name if binding.has_symbol else "?"
        ordinal = binding.library_ordinal
        if (
            isinstance(binding, lief.MachO.DyldBindingInfo)
            and binding.binding_class == lief.MachO.DyldBindingInfo.CLASS.WEAK
        ):
            continue  # weak-definition coalescing: no library ordinal
        if ordinal == FLAT_LOOKUP:
            flat.add(name)
        elif ordinal < 1 or ordinal > len(loaded):
            unknown.add(f"{name} (ordinal {ordinal})")
    if unknown:
        problems.append(
            f"symbols bound neither to a loaded library nor to a flat lookup: {sorted(unknown)[:8]}"
        )
    if args.flat:
        stray = sorted(s for s in flat if not re.match(args.flat, s))
        if stray:
            problems.append(f"flat-lookup symbols outside /{args.flat}/: {stray[:8]}")
        if not flat:
            problems.append(f"no symbol left to a flat lookup (expected /{args.flat}/: the host's API)")
        else:
            facts.append(f"{len(flat)} symbols left to the host (flat lookup, /{args.flat}/)")
    elif flat:
        problems.append(f"flat-lookup symbols, none expected: {sorted(flat)[:8]}")

    # Install name and run paths.
    ids = [lib.name for lib in b.libraries if lib.command == LC.ID_DYLIB]
    if args.kind == "dylib":
        if len(ids) != 1:
            problems.append(f"{len(ids)} LC_ID_DYLIB")
        elif args.install_name is not None and ids[0] != args.install_name:
            problems.append(f"install name {ids[0]}, not {args.install_name}")
        elif args.install_name is not None:
            facts.append(f"install name {ids[0]}")
    elif ids:
        problems.append(f"an executable with LC_ID_DYLIB {ids}")
    rpaths = [c.path for c in b.commands if c.command == LC.RPATH]
    if sorted(rpaths) != sorted(args.rpath):
        problems.append(f"LC_RPATH {rpaths}, not {args.rpath}")

    # Exports.
    wanted = list(args.export)
    if args.exports_file:
        with open(args.exports_file) as f:
            wanted += [line.strip() for line in f if line.strip()]
    exported = {s.name for s in b.exported_symbols}
    if wanted:
        missing = [w for w in wanted if "_" + w not in exported]
        if missing:
            problems.append(f"does not export {len(missing)} of {len(wanted)} names: {missing[:8]}")
        else:
            facts.append(f"exports the {len(wanted)} expected names")
    if args.kind == "dylib":
        extra = sorted(exported - {"_" + w for w in wanted})
        if len(extra) > args.extra_exports:
            problems.append(f"exports {len(extra)} other symbols (at most {args.extra_exports}): {extra[:5]}")
        else:
            facts.append(f"{len(extra)} other exports")

    # Code signature.
    sigs = [c for c in b.commands if c.command == LC.CODE_SIGNATURE]
    if len(sigs) > 1:
        problems.append(f"{len(sigs)} LC_CODE_SIGNATURE")
    elif sigs:
        linkedit = b.get_segment("__LINKEDIT")
        sig = sigs[0]
        if linkedit is None or sig.data_offset + sig.data_size != linkedit.file_offset + linkedit.file_size:
            problems.append("the signature does not end __LINKEDIT")
        if sig.data_offset + sig.data_size != len(data):
            problems.append(
                f"the signature does not end the file ({sig.data_offset}+{sig.data_size} of {len(data)})"
            )
        check_signature(data, sig.data_offset, sig.data_size, problems, facts)
    elif args.arch == "arm64" or args.signed:
        problems.append("no code signature (LC_CODE_SIGNATURE): macOS does not run unsigned arm64 code")
    else:
        facts.append("unsigned (x86_64: macOS does not require it)")

    if problems:
        for p in problems:
            print(f"{label}: {p}", file=sys.stderr)
        sys.exit(1)
    print(f"  {label}: {args.arch} {args.kind}, loads {', '.join(loaded)}; " + "; ".join(facts))


if __name__ == "__main__":
    main()
