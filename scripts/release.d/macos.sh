# shellcheck shell=bash
# shellcheck disable=SC2154 # repo, out, version, tools, venv, CARGO_TARGET_DIR: set by scripts/release
# Sourced by scripts/release (after its helpers: step, die; variables: repo, out, version, tools,
# venv, CARGO_TARGET_DIR; PATH with the venv's python and cargo-zigbuild). The macOS artifacts,
# cross-built on this Linux machine by zig (no macOS SDK), for aarch64-apple-darwin (macOS 11 and
# later) and x86_64-apple-darwin (10.12 and later):
#
#   macos_setup   the Rust targets, LIEF (PyPI) for scripts/macho-check.py, the link stubs
#   macos_python  python/sno-<v>-cp310-abi3-macosx_11_0_arm64.whl, …-macosx_10_12_x86_64.whl
#   macos_node    sno.darwin-arm64.node, sno.darwin-x64.node into the folder $1
#   macos_c       c/libsno-<v>-<triple>.tar.gz: include/sno.h, lib/libsno.0.<minor>.dylib (install
#                 name @rpath/libsno.0.<minor>.dylib) + libsno.dylib, libsno.a, libsno_lease.a,
#                 pkg-config and CMake files, README.md, the licences
#   macos_cli     cli/sno-<v>-<triple>.tar.gz: the sno command, README.md, the licences
#   macos_cross_check  scripts/release --cross-check: cargo check of each target's crates in
#                 the environment above (zig's C compiler for the build scripts), nothing linked
#
# Nothing here runs on macOS: every Mach-O file is checked by scripts/macho-check.py (CPU type,
# minimum macOS, loaded libraries, symbols left to the host, install name, exports, and the
# ad-hoc code signature's page hashes recomputed), and the C archives by linking examples/c
# against them with zig for macOS. docs/release.md (## macOS) says what is and is not checked.

# (Rust target, Mach-O CPU name as macho-check and wheel tags spell it, minimum macOS, npm platform)
MAC_TARGETS=(
  "aarch64-apple-darwin arm64 11.0 darwin-arm64"
  "x86_64-apple-darwin x86_64 10.12 darwin-x64"
)
# LIEF reads the Mach-O files for scripts/macho-check.py (the signature it parses itself).
MAC_LIEF=1.0.0

mac_stage() { echo "$CARGO_TARGET_DIR/macos"; }

# Empty framework stubs: Security, CoreFoundation (rustls-native-certs through the redis crate,
# and whoami through tokio-postgres) and SystemConfiguration (whoami) are in the dependency graph,
# so rustc asks the linker for `-framework X`, and zig has no macOS SDK to find them in. Each
# stub names the framework's install path and declares no symbol: a call into a framework that
# is really linked fails the link ("undefined symbol"), and `-dead_strip_dylibs` drops the
# unused ones, which macho-check then proves (only libSystem is loaded). sno-lease reads the
# system's roots from /etc/ssl/cert.pem on macOS (src/tls.rs), so nothing calls them.
mac_write_stubs() {
  local dir fw
  dir="$(mac_stage)/frameworks"
  for fw in Security CoreFoundation SystemConfiguration; do
    mkdir -p "$dir/$fw.framework"
    cat >"$dir/$fw.framework/$fw.tbd" <<TBD
--- !tapi-tbd
tbd-version:     4
targets:         [ x86_64-macos, arm64-macos ]
install-name:    '/System/Library/Frameworks/$fw.framework/Versions/A/$fw'
current-version: 1
compatibility-version: 1
...
TBD
  done
}

# Runs "$@" with the environment of a build for Rust target $1, minimum macOS $2: the deployment
# target (rustc's objects, zig's LC_BUILD_VERSION, maturin's wheel tag), the link flags (the
# stubs above, unused libraries dropped), rustc's note of what a static library needs beside
# itself (printed for staticlib crates only; cargo replays it when nothing is rebuilt), and
# fat LTO. cargo-zigbuild drops rustc's -exported_symbols_list (zig 0.14 does not take it), so
# without LTO a dylib exports every public Rust symbol of every crate, -dead_strip keeps all of
# them, and all of security-framework's Keychain code (called by nothing) must link; fat LTO
# internalizes all but the library's own exports (sno_*, PyInit__sno, napi_register_module_v1)
# and drops what they do not reach (ThinLTO links too, but leaves ~1,900 symbols of std
# exported). An executable exports nothing: -dead_strip alone would do there.
mac_env() {
  local triple=$1 minos=$2 var
  shift 2
  var=CARGO_TARGET_$(tr 'a-z-' 'A-Z_' <<<"$triple")_RUSTFLAGS
  env MACOSX_DEPLOYMENT_TARGET="$minos" CARGO_PROFILE_RELEASE_LTO=fat "$var=-C link-arg=-F$(mac_stage)/frameworks \
-C link-arg=-Wl,-dead_strip_dylibs --print=native-static-libs" "$@"
}

# scripts/macho-check.py with the release venv's LIEF.
mac_check() {
  "$venv/bin/python" scripts/macho-check.py "$@" || die "macOS: $*: check failed (see above)"
}

# The sno.h functions, one a line.
mac_header_functions() {
  sed -n 's/^[a-z].*[ *]\(sno_[a-z0-9_]*\)(.*/\1/p' include/sno.h | sort -u
}

macos_setup() {
  step "macOS: Rust targets, LIEF $MAC_LIEF (Mach-O checks), framework link stubs"
  case "$CARGO_TARGET_DIR" in *[[:space:]]*) die "macOS: CARGO_TARGET_DIR has a space (it goes into RUSTFLAGS)" ;; esac
  rustup target add aarch64-apple-darwin x86_64-apple-darwin >/dev/null 2>&1 \
    || die "rustup cannot add the apple-darwin targets"
  "$venv/bin/pip" install -q "lief==$MAC_LIEF" || die "pip cannot install lief==$MAC_LIEF"
  local tool
  for tool in llvm-strip llvm-nm llvm-objdump; do
    command -v "$tool" >/dev/null || die "macOS: no $tool (it reads Mach-O objects): apt-get install llvm"
  done
  mac_write_stubs
}

macos_cross_check() {
  step "macOS: cargo check of sno-ffi, sno-python, sno-node and sno-cli for each target (zig)"
  rustup target add aarch64-apple-darwin x86_64-apple-darwin >/dev/null 2>&1 \
    || die "rustup cannot add the apple-darwin targets"
  local triple minos
  while read -r triple _ minos _; do
    cross_run "$triple (zig)" mac_env "$triple" "$minos" cargo-zigbuild check --release \
      -p sno-ffi -p sno-python -p sno-node -p sno-cli --target "$triple"
  done < <(printf '%s\n' "${MAC_TARGETS[@]}")
}

macos_python() {
  local dir="$out/python" triple arch minos wheel tag so
  step "macOS: abi3 wheels (maturin --zig)"
  mkdir -p "$dir"
  while read -r triple arch minos _; do
    (cd bindings/python && mac_env "$triple" "$minos" maturin build -q --release --zig --target "$triple" \
      -o "$dir" >"$CARGO_TARGET_DIR/maturin-$triple.log" 2>&1) \
      || { cat "$CARGO_TARGET_DIR/maturin-$triple.log"; die "maturin failed for $triple"; }
    tag="macosx_${minos//./_}_$arch"
    wheel="$dir/sno-$version-cp310-abi3-$tag.whl"
    [ -f "$wheel" ] || die "no $tag wheel in $dir: $(ls "$dir")"
    rm -rf "$(mac_stage)/wheel-$arch" && mkdir -p "$(mac_stage)/wheel-$arch"
    (cd "$(mac_stage)/wheel-$arch" && python3 -m zipfile -e "$wheel" .)
    grep -qx "Tag: cp310-abi3-$tag" "$(mac_stage)/wheel-$arch/sno-$version.dist-info/WHEEL" \
      || die "$(basename "$wheel"): WHEEL does not say Tag: cp310-abi3-$tag"
    so="$(mac_stage)/wheel-$arch/sno/_sno.abi3.so"
    [ -f "$so" ] || die "$(basename "$wheel"): no sno/_sno.abi3.so"
    # The minimum macOS of the extension is the wheel tag's; the Python C API is left to the
    # interpreter that loads it (-undefined dynamic_lookup), never linked to a libpython.
    mac_check "$so" --arch "$arch" --kind dylib --minos "$minos" --flat '__?Py' --export PyInit__sno \
      --label "$(basename "$wheel") sno/_sno.abi3.so"
  done < <(printf '%s\n' "${MAC_TARGETS[@]}")
}

macos_node() {
  local addons=${1:?macos_node: the addons folder} triple arch minos platform build log addon
  {
    step "macOS: the Node addons sno.darwin-arm64.node, sno.darwin-x64.node (napi build -x: cargo-zigbuild)"
    mkdir -p "$addons"
    # napi-rs's CLI (bindings/node's devDependencies) on Node >= 22, as node_release runs it.
    [ -x bindings/node/node_modules/.bin/napi ] || die "bindings/node: no napi CLI (npm ci in bindings/node first)"
    local node22
    node22=$(bash scripts/node-lts 22.23.3)
    while read -r triple arch minos platform; do
      # Built into a folder of its own: napi build also writes its JavaScript loader there.
      build="$(mac_stage)/napi-$triple"
      log="$CARGO_TARGET_DIR/napi-$triple.log"
      rm -rf "$build"
      (cd bindings/node && PATH="$node22:$PATH" mac_env "$triple" "$minos" npx napi build --platform --release \
        --target "$triple" --cross-compile --output-dir "$build" >"$log" 2>&1) \
        || { cat "$log"; die "napi build failed for $triple"; }
      addon="$build/sno.$platform.node"
      [ -f "$addon" ] || die "napi build made no sno.$platform.node: $(ls "$build")"
      # Node-API is left to the node process that loads the addon (-undefined dynamic_lookup).
      mac_check "$addon" --arch "$arch" --kind dylib --minos "$minos" --flat '_(napi|node_api)_' \
        --export napi_register_module_v1 --label "sno.$platform.node"
      cp "$addon" "$addons/"
    done < <(printf '%s\n' "${MAC_TARGETS[@]}")
  } >&2
}


# What a static archive needs beside itself: rustc's native-static-libs note in the build log $1.
mac_native_libs() {
  local libs
  libs=$(sed -n 's/^.*native-static-libs: //p' "$1" | tail -n 1)
  [ -n "$libs" ] || die "macOS: rustc printed no native-static-libs in $1"
  echo "$libs"
}

# The same list for CMake's INTERFACE_LINK_LIBRARIES: -lfoo as foo, -framework X as one item.
mac_cmake_libs() {
  local word items=() framework=0
  for word in $1; do
    if [ "$framework" = 1 ]; then items+=("-framework $word"); framework=0
    elif [ "$word" = -framework ]; then framework=1
    else items+=("${word#-l}"); fi
  done
  (IFS=';'; echo "${items[*]}")
}

macos_c() {
  local dir="$out/c" triple arch minos name stage built core libdir sover major minor log
  local full_libs core_libs functions lease_functions core_functions archive missing objects sections
  step "macOS: libsno-$version-<triple>.tar.gz (lib/ with libsno.dylib, libsno.a, libsno_lease.a, pkg-config and CMake files)"
  mkdir -p "$dir"
  IFS=. read -r major minor _ <<<"$version"
  if [ "$major" = 0 ]; then sover="0.$minor"; else sover=$major; fi
  functions="$(mac_stage)/sno-functions.txt"
  mac_header_functions >"$functions"
  [ "$(wc -l <"$functions")" -gt 50 ] || die "sno.h: fewer than 50 functions read from it"
  lease_functions=$(grep -E '^sno_(lease_|generator_new_leased)' "$functions" || true)
  [ -n "$lease_functions" ] || die "sno.h: no lease functions read from it"
  core_functions=$(grep -Fvx -e "$lease_functions" "$functions")
  while read -r triple arch minos _; do
    name="libsno-$version-$triple"
    built="$CARGO_TARGET_DIR/$triple/release"
    core="$CARGO_TARGET_DIR/core-only/$triple/release"
    # libsno.dylib (linked by zig) and the full libsno.a (installed as libsno_lease.a), one crate
    # type at a time: cargo does no LTO for a library that is also an rlib (sno-ffi's crate-type).
    log="$CARGO_TARGET_DIR/sno-ffi-dylib-$triple.log"
    mac_env "$triple" "$minos" cargo-zigbuild rustc --release -p sno-ffi --lib --crate-type cdylib \
      --target "$triple" >"$log" 2>&1 || { cat "$log"; die "cargo-zigbuild rustc -p sno-ffi (cdylib) failed for $triple"; }
    log="$CARGO_TARGET_DIR/sno-ffi-staticlib-$triple.log"
    mac_env "$triple" "$minos" cargo-zigbuild rustc --release -p sno-ffi --lib --crate-type staticlib \
      --target "$triple" >"$log" 2>&1 || { cat "$log"; die "cargo-zigbuild rustc -p sno-ffi (staticlib) failed for $triple"; }
    full_libs=$(mac_native_libs "$log")
    # The core-only libsno.a (sno-ffi's Makefile: without the lease feature, LTO). A staticlib is
    # not linked, and without the stores there is no C code to compile: plain cargo.
    log="$CARGO_TARGET_DIR/sno-ffi-core-$triple.log"
    mac_env "$triple" "$minos" make -C sno-ffi core TRIPLE="$triple" >"$log" 2>&1 \
      || { cat "$log"; die "make -C sno-ffi core TRIPLE=$triple failed"; }
    core_libs=$(mac_native_libs "$log")

    # make install lays out include/, the two archives (debug info stripped) and the CMake
    # version file. It installs the shared library under Linux's names: it is handed the dylib
    # as libsno.so, whose names are then replaced by macOS's; the pkg-config files, CMake
    # package and README it writes are Linux's, replaced by macOS's below.
    libdir="$(mac_stage)/libdir-$triple"
    rm -rf "$libdir" && mkdir -p "$libdir"
    cp "$built/libsno.a" "$libdir/libsno.a"
    cp "$built/libsno.dylib" "$libdir/libsno.so"
    stage="$(mac_stage)/c/$name"
    rm -rf "$stage"
    make -s -C sno-ffi install NO_BUILD=1 TRIPLE="$triple" LIBDIR="$libdir" CORE_LIBDIR="$core" \
      PREFIX=/ DOCDIR=/ DESTDIR="$stage" STRIP=llvm-strip || die "$name: make -C sno-ffi install failed"
    rm -f "$stage"/lib/libsno.so*
    install -m 755 "$built/libsno.dylib" "$stage/lib/libsno.$sover.dylib"
    ln -s "libsno.$sover.dylib" "$stage/lib/libsno.dylib"
    cp LICENSE-MIT LICENSE-APACHE "$stage/"
    mac_c_package_files "$stage" "$triple" "$arch" "$minos" "$sover" "$core_libs" "$full_libs"

    # The dylib: every sno.h function exported, nothing but libSystem loaded, nothing left to
    # a flat lookup, the install name, the signature.
    mac_check "$stage/lib/libsno.$sover.dylib" --arch "$arch" --kind dylib --minos "$minos" \
      --install-name "@rpath/libsno.$sover.dylib" --exports-file "$functions" \
      --label "$name lib/libsno.$sover.dylib"
    # The archives: Mach-O objects of the architecture, no debug info left, libsno.a without
    # the lease API, libsno_lease.a with all of sno.h.
    for archive in libsno.a libsno_lease.a; do
      sections=$(llvm-objdump -h "$stage/lib/$archive") || die "$name lib/$archive: llvm-objdump cannot read it"
      objects=$(sed -n 's/^.*file format //p' <<<"$sections" | sort -u)
      [ "$objects" = "mach-o $([ "$arch" = arm64 ] && echo arm64 || echo 64-bit x86-64)" ] \
        || die "$name lib/$archive: objects of format '$objects'"
      ! grep -q ' __debug_' <<<"$sections" || die "$name lib/$archive: debug info left (llvm-strip -S did not strip it)"
    done
    missing=$(comm -23 <(echo "$core_functions") <(mac_defined "$stage/lib/libsno.a"))
    [ -z "$missing" ] || die "$name lib/libsno.a does not define $(head -c 300 <<<"$missing" | tr '\n' ' ')"
    ! mac_defined "$stage/lib/libsno.a" | grep -qx sno_lease_acquire \
      || die "$name lib/libsno.a holds the lease API (the full archive?)"
    missing=$(comm -23 "$functions" <(mac_defined "$stage/lib/libsno_lease.a"))
    [ -z "$missing" ] || die "$name lib/libsno_lease.a does not define $(head -c 300 <<<"$missing" | tr '\n' ' ')"
    echo "  $name lib/libsno.a: the $(wc -l <<<"$core_functions") functions without leases; lib/libsno_lease.a: all $(wc -l <"$functions")"
    mac_c_link_examples "$stage" "$triple" "$arch" "$minos" "$sover"
    mac_c_cmake_examples "$stage" "$triple" "$arch" "$minos" "$sover"

    tar -C "$(dirname "$stage")" --owner=0 --group=0 --numeric-owner --sort=name -czf "$dir/$name.tar.gz" "$name"
    echo "  $name.tar.gz: $(du -k "$dir/$name.tar.gz" | cut -f1) KiB"
  done < <(printf '%s\n' "${MAC_TARGETS[@]}")
}

# The C names an archive defines (global text symbols, without Mach-O's leading underscore).
mac_defined() {
  llvm-nm --defined-only --extern-only "$1" 2>/dev/null | sed -n 's/^[0-9a-f]* T _\(sno_[a-z0-9_]*\)$/\1/p' | sort -u
}

# pkg-config files, CMake package and README of a macOS C archive.
mac_c_package_files() {
  local stage=$1 triple=$2 arch=$3 minos=$4 sover=$5 core_libs=$6 full_libs=$7
  # shellcheck disable=SC2016 # pkg-config's variables, written as they are
  local head='prefix=${pcfiledir}/../..
exec_prefix=${prefix}
libdir=${prefix}/lib
includedir=${prefix}/include'
  cat >"$stage/lib/pkgconfig/sno.pc" <<PC
# Relocatable: the prefix is found from this file's place (<prefix>/lib/pkgconfig/sno.pc).
$head

Name: sno
Description: Compact, sortable, unique IDs (sno, C API of libsno), shared library (libsno.dylib)
Version: $version
# -lsno picks libsno.dylib (install name @rpath/libsno.$sover.dylib): give the program an rpath
# to lib/, e.g. -Wl,-rpath,\${libdir}. For a static link use sno-static.pc or sno-lease-static.pc.
Libs: -L\${libdir} -lsno
Libs.private: $core_libs
Cflags: -I\${includedir}
PC
  cat >"$stage/lib/pkgconfig/sno-static.pc" <<PC
# Relocatable: the prefix is found from this file's place (<prefix>/lib/pkgconfig/sno-static.pc).
$head

Name: sno-static
Description: Compact, sortable, unique IDs (sno, C API of libsno), static library: IDs and generators, without the lease API (sno-lease-static has it)
Version: $version
# libsno.a by path (-lsno would pick libsno.dylib), then what rustc says it needs on macOS.
Libs: \${libdir}/libsno.a $core_libs
Cflags: -I\${includedir}
PC
  cat >"$stage/lib/pkgconfig/sno-lease-static.pc" <<PC
# Relocatable: the prefix is found from this file's place (<prefix>/lib/pkgconfig/sno-lease-static.pc).
$head

Name: sno-lease-static
Description: Compact, sortable, unique IDs (sno, C API of libsno), static library with the lease API (PostgreSQL and Redis stores)
Version: $version
# libsno_lease.a is the whole C API: link it instead of libsno.a, never beside it (each archive
# holds its own copy of Rust's standard library). Then what rustc says it needs on macOS (the
# frameworks come with the drivers' dependencies; no code of libsno calls them).
Libs: \${libdir}/libsno_lease.a $full_libs
Cflags: -I\${includedir}
PC
  cat >"$stage/lib/cmake/sno/snoConfig.cmake" <<CMAKE
# CMake package of libsno for macOS ($triple): find_package(sno) gives
#   sno::sno               the shared library (libsno.$sover.dylib, install name @rpath/libsno.$sover.dylib)
#   sno::sno_static        the static library of IDs and generators (libsno.a, without the lease API)
#   sno::sno_lease_static  the static library with the lease API (libsno_lease.a)
# Link one static library or the other, never both (each holds its own copy of Rust's standard
# library). The files are relocatable: the prefix is found from this file's place.
get_filename_component(_sno_prefix "\${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

if(NOT TARGET sno::sno)
  add_library(sno::sno SHARED IMPORTED)
  set_target_properties(sno::sno PROPERTIES
    IMPORTED_LOCATION "\${_sno_prefix}/lib/libsno.$sover.dylib"
    IMPORTED_SONAME "@rpath/libsno.$sover.dylib"
    INTERFACE_INCLUDE_DIRECTORIES "\${_sno_prefix}/include")
endif()

# The archives, with what rustc says they need on macOS.
if(NOT TARGET sno::sno_static)
  add_library(sno::sno_static STATIC IMPORTED)
  set_target_properties(sno::sno_static PROPERTIES
    IMPORTED_LOCATION "\${_sno_prefix}/lib/libsno.a"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"
    INTERFACE_INCLUDE_DIRECTORIES "\${_sno_prefix}/include"
    INTERFACE_LINK_LIBRARIES "$(mac_cmake_libs "$core_libs")")
endif()

if(NOT TARGET sno::sno_lease_static)
  add_library(sno::sno_lease_static STATIC IMPORTED)
  set_target_properties(sno::sno_lease_static PROPERTIES
    IMPORTED_LOCATION "\${_sno_prefix}/lib/libsno_lease.a"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"
    INTERFACE_INCLUDE_DIRECTORIES "\${_sno_prefix}/include"
    INTERFACE_LINK_LIBRARIES "$(mac_cmake_libs "$full_libs")")
endif()

foreach(_sno_file "\${_sno_prefix}/include/sno.h" "\${_sno_prefix}/lib/libsno.a"
                  "\${_sno_prefix}/lib/libsno_lease.a" "\${_sno_prefix}/lib/libsno.$sover.dylib")
  if(NOT EXISTS "\${_sno_file}")
    set(sno_FOUND FALSE)
    set(sno_NOT_FOUND_MESSAGE "libsno is incomplete under \${_sno_prefix}: \${_sno_file} is missing")
  endif()
endforeach()
unset(_sno_file)
unset(_sno_prefix)
CMAKE
  local cpu=Apple\ silicon\ \(arm64\)
  [ "$arch" = arm64 ] || cpu="Intel (x86_64)"
  cat >"$stage/README.md" <<README
# libsno $version: the C library for macOS ($cpu, macOS $minos and later)

Compact, sortable, unique IDs for C and C++: sno IDs, ULID, UUIDv7, SCRU128, SCRU160,
Nanoflakes, Ulid-Flake and TypeID. Project: https://github.com/libsno/libsno (MIT OR
Apache-2.0, see \`LICENSE-MIT\` and \`LICENSE-APACHE\`).

| file | what |
|---|---|
| \`include/sno.h\` | the header (C99 and C++11): every function documented |
| \`lib/libsno.$sover.dylib\`, \`libsno.dylib\` | the shared library, the whole API; install name \`@rpath/libsno.$sover.dylib\` |
| \`lib/libsno.a\` | static: IDs and generators, **without the lease API** |
| \`lib/libsno_lease.a\` | static: the whole API (link it instead of \`libsno.a\`, never both) |
| \`lib/pkgconfig/\` | \`sno.pc\`, \`sno-static.pc\`, \`sno-lease-static.pc\` |
| \`lib/cmake/sno/\` | \`find_package(sno)\`: \`sno::sno\`, \`sno::sno_static\`, \`sno::sno_lease_static\` |

With \`P\` the unpacked folder:

\`\`\`sh
export PKG_CONFIG_PATH=\$P/lib/pkgconfig
cc app.c \$(pkg-config --cflags --libs sno) -Wl,-rpath,\$P/lib -o app       # libsno.dylib
cc app.c \$(pkg-config --cflags --libs sno-static) -o app                   # libsno.a
cc app.c \$(pkg-config --cflags --libs sno-lease-static) -o app             # libsno_lease.a
\`\`\`

A program linked to \`libsno.dylib\` finds it through an rpath (\`-Wl,-rpath,…\`, or
\`@executable_path/…\` for an app bundle). The files were built on Linux with zig and are ad-hoc
signed; a tarball downloaded with a browser is quarantined: \`xattr -dr com.apple.quarantine \$P\`.

TLS to the lease stores trusts \`/etc/ssl/cert.pem\` (or \`SSL_CERT_FILE\` / \`SSL_CERT_DIR\`), not
the Keychain: for a CA that is only in the Keychain, name a CA file in the URL
(\`sslrootcert=…\` for PostgreSQL, \`ssl_ca_certs=…\` for Redis).

The C API, examples, threads and fork(): https://github.com/libsno/libsno/blob/main/sno-ffi/README.md
README
}

# examples/c linked against the staged archive by zig for macOS, through its pkg-config files,
# and the programs checked: generate.c with libsno.dylib (an rpath to lib/) and with libsno.a,
# lease.c with libsno_lease.a; lease.c against libsno.a must fail on the lease API.
mac_c_link_examples() {
  local stage=$1 triple=$2 arch=$3 minos=$4 sover=$5 name work zig_target size err
  name=$(basename "$stage")
  work="$(mac_stage)/c/examples-$triple"
  rm -rf "$work" && mkdir -p "$work"
  zig_target="${triple%%-*}-macos.$minos"
  # -F and -L: the framework stubs and cargo-zigbuild's libiconv.tbd (Apple's libiconv exports)
  # for the libraries rustc names; -dead_strip_dylibs drops the ones no code uses.
  # shellcheck disable=SC2054 # -Wl,… is one word
  local cc=("$venv/bin/python" -m ziglang cc -target "$zig_target" -std=c99 -O2 -Wall -Werror -F"$(mac_stage)/frameworks"
    -L"$CARGO_TARGET_DIR/$triple/release/deps" -Wl,-dead_strip_dylibs)
  local pc="$stage/lib/pkgconfig"
  # shellcheck disable=SC2046 # pkg-config's flags are words
  "${cc[@]}" examples/c/generate.c $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs sno) \
    -Wl,-rpath,@executable_path/../lib -o "$work/generate" || die "$name: generate.c through sno.pc does not link"
  mac_check "$work/generate" --arch "$arch" --kind executable --minos "$minos" \
    --dylibs "/usr/lib/libSystem.B.dylib,@rpath/libsno.$sover.dylib" --rpath @executable_path/../lib \
    --label "$name: generate.c through sno.pc"
  # shellcheck disable=SC2046
  "${cc[@]}" examples/c/generate.c $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --static --libs sno-static) \
    -o "$work/generate-static" || die "$name: generate.c through sno-static.pc does not link"
  mac_check "$work/generate-static" --arch "$arch" --kind executable --minos "$minos" \
    --label "$name: generate.c through sno-static.pc"
  size=$(stat -c %s "$work/generate-static")
  # shellcheck disable=SC2046
  "${cc[@]}" examples/c/lease.c $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --static --libs sno-lease-static) \
    -o "$work/lease-static" || die "$name: lease.c through sno-lease-static.pc does not link"
  mac_check "$work/lease-static" --arch "$arch" --kind executable --minos "$minos" \
    --label "$name: lease.c through sno-lease-static.pc"
  # shellcheck disable=SC2046
  if err=$("${cc[@]}" examples/c/lease.c $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --static --libs sno-static) \
    -o "$work/lease-core" 2>&1); then
    die "$name: lease.c links against libsno.a, which must leave out the lease API"
  fi
  grep -q "undefined symbol: _sno_lease_acquire" <<<"$err" \
    || die "$name: lease.c against libsno.a fails otherwise than on the lease API: $err"
  echo "  $name: examples/c linked by zig through sno.pc, sno-static.pc ($size bytes), sno-lease-static.pc;" \
    "lease.c against libsno.a fails on _sno_lease_acquire"
}

# examples/c built by CMake through the archive's CMake package (find_package(sno)), with zig's
# C and C++ compilers for macOS, and the programs checked: generate, inspect and generate-cpp
# with sno::sno (CMake's build rpath to lib/), generate-static with sno::sno_static, lease-static
# with sno::sno_lease_static. CMake asks the host for its macOS version (sw_vers): a stand-in
# answers the minimum macOS, else CMake's Darwin platform sets no rpath flag and rejects the
# @rpath install name.
mac_c_cmake_examples() {
  local stage=$1 triple=$2 arch=$3 minos=$4 sover=$5 name work lang program log
  name=$(basename "$stage")
  command -v cmake >/dev/null || die "macOS: no cmake (apt-get install cmake)"
  work="$(mac_stage)/c/cmake-$triple"
  rm -rf "$work" && mkdir -p "$work/bin"
  for lang in cc c++; do
    cat >"$work/bin/zig-$lang" <<SH
#!/bin/sh
exec "$venv/bin/python" -m ziglang $lang -target ${triple%%-*}-macos.$minos -F"$(mac_stage)/frameworks" \
  -L"$CARGO_TARGET_DIR/$triple/release/deps" -Wl,-dead_strip_dylibs "\$@"
SH
  done
  printf '#!/bin/sh\necho %s\n' "$minos" >"$work/bin/sw_vers"
  chmod +x "$work/bin/"*
  log="$work/cmake.log"
  { PATH="$work/bin:$PATH" cmake -S examples/c -B "$work/build" -DCMAKE_SYSTEM_NAME=Darwin \
      -DCMAKE_SYSTEM_PROCESSOR="$arch" -DCMAKE_OSX_DEPLOYMENT_TARGET="$minos" \
      -DCMAKE_C_COMPILER="$work/bin/zig-cc" -DCMAKE_CXX_COMPILER="$work/bin/zig-c++" \
      -DCMAKE_PREFIX_PATH="$stage" -DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=NEVER \
      && cmake --build "$work/build"; } >"$log" 2>&1 \
    || { cat "$log"; die "$name: examples/c does not build through the CMake package"; }
  for program in generate inspect generate-cpp; do
    mac_check "$work/build/$program" --arch "$arch" --kind executable --minos "$minos" \
      --dylibs "/usr/lib/libSystem.B.dylib,@rpath/libsno.$sover.dylib" --rpath "$stage/lib" \
      --label "$name: CMake $program (sno::sno)"
  done
  mac_check "$work/build/generate-static" --arch "$arch" --kind executable --minos "$minos" \
    --label "$name: CMake generate-static (sno::sno_static)"
  mac_check "$work/build/lease-static" --arch "$arch" --kind executable --minos "$minos" \
    --label "$name: CMake lease-static (sno::sno_lease_static)"
}

macos_cli() {
  local dir="$out/cli" triple arch minos name stage bin log cpu
  step "macOS: the sno command, sno-$version-<triple>.tar.gz"
  mkdir -p "$dir"
  while read -r triple arch minos _; do
    name="sno-$version-$triple"
    log="$CARGO_TARGET_DIR/sno-cli-$triple.log"
    mac_env "$triple" "$minos" cargo zigbuild --release -p sno-cli --target "$triple" >"$log" 2>&1 \
      || { cat "$log"; die "cargo zigbuild -p sno-cli failed for $triple"; }
    bin="$CARGO_TARGET_DIR/$triple/release/sno"
    mac_check "$bin" --arch "$arch" --kind executable --minos "$minos" --label "$name sno"
    stage="$(mac_stage)/cli/$name"
    rm -rf "$stage" && mkdir -p "$stage"
    install -m 755 "$bin" "$stage/sno"
    cp LICENSE-MIT LICENSE-APACHE "$stage/"
    cpu="Apple silicon (arm64)"
    [ "$arch" = arm64 ] || cpu="Intel (x86_64)"
    cat >"$stage/README.md" <<README
# sno $version for macOS ($cpu, macOS $minos and later)

\`sno\` generates, inspects and converts IDs: sno, ULID, UUIDv7, SCRU128, SCRU160, Nanoflakes,
Ulid-Flake, TypeID. Try \`./sno new -n 3\`, \`./sno inspect <id>\`, \`./sno --help\`.
Copy \`sno\` to a folder on your PATH (e.g. /usr/local/bin). It is ad-hoc signed, not notarized:
after a browser download run \`xattr -d com.apple.quarantine sno\` first.
Leases (SNO_LEASE_URL) trust /etc/ssl/cert.pem, not the Keychain (or name a CA file in the URL).
Manual: https://github.com/libsno/libsno/blob/main/docs/cli.md
Licence: MIT OR Apache-2.0 (LICENSE-MIT, LICENSE-APACHE).
README
    [ "$(wc -l <"$stage/README.md")" -le 10 ] || die "$name: README.md is over 10 lines"
    tar -C "$(dirname "$stage")" --owner=0 --group=0 --numeric-owner --sort=name -czf "$dir/$name.tar.gz" "$name"
    echo "  $name.tar.gz: $(du -k "$dir/$name.tar.gz" | cut -f1) KiB"
  done < <(printf '%s\n' "${MAC_TARGETS[@]}")
}
