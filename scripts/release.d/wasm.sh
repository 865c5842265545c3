# shellcheck shell=bash
# shellcheck disable=SC2154 # repo, tools, out, version, CARGO_TARGET_DIR: set by scripts/release or scripts/test-wasm
# The WebAssembly package of a release, @libsno/libsno-wasm32-wasi: the Node addon built for
# Rust's wasm32-wasip1 (one thread, no shared memory, sno-lease without its stores), with the
# loaders of bindings/node/wasm/ (Node.js, Deno and Bun: sno.wasi.cjs; browsers:
# sno.wasi-browser.js). One module serves both: libsno's loader falls back to it where no native
# addon matches, and libsno's browser entry (browser.mjs) runs on it. docs/wasm.md.
#
# Sourced by scripts/release (which defines step, die, $repo, $tools, $CARGO_TARGET_DIR) and by
# scripts/test-wasm. Needs Rust with rustup, Node.js with npm and the npm registry (emnapi).

# emnapi's C half, linked into the module, must be the release of @emnapi/core and
# @emnapi/runtime (its JavaScript half) that the package depends on: read from there.
wasm_package_json() { echo "$repo/bindings/node/wasm/package.json"; }
wasm_emnapi_version() {
  node -p "require('$(wasm_package_json)').dependencies['@emnapi/core']"
}
wasm_npm() { echo "$tools/wasm-npm"; }

wasm_setup() {
  local emnapi
  emnapi=$(wasm_emnapi_version)
  {
    step "WebAssembly: rustup target wasm32-wasip1; emnapi $emnapi and the package's runtime (npm) under $(wasm_npm)"
    rustup target add wasm32-wasip1 >/dev/null 2>&1 || die "wasm: rustup target add wasm32-wasip1 failed"
    local runtime core rt
    runtime=$(node -p "require('$(wasm_package_json)').dependencies['@napi-rs/wasm-runtime']")
    core=$(node -p "require('$(wasm_package_json)').dependencies['@emnapi/runtime']")
    [ "$core" = "$emnapi" ] || die "wasm: @emnapi/core $emnapi and @emnapi/runtime $core differ in $(wasm_package_json)"
    mkdir -p "$(wasm_npm)"
    [ -f "$(wasm_npm)/package.json" ] || echo '{ "name": "wasm-npm", "private": true }' >"$(wasm_npm)/package.json"
    # emnapi: the C archive; the rest: what the module's checks below load it with.
    (cd "$(wasm_npm)" && npm install -s --no-audit --no-fund --save-exact "emnapi@$emnapi" \
      "@emnapi/core@$emnapi" "@emnapi/runtime@$emnapi" "@napi-rs/wasm-runtime@$runtime" >/dev/null) \
      || die "wasm: npm install emnapi@$emnapi @napi-rs/wasm-runtime@$runtime failed"
    rt=$(node -p "require('$(wasm_npm)/node_modules/emnapi/package.json').version")
    [ "$rt" = "$emnapi" ] || die "wasm: emnapi $rt installed, $emnapi wanted"
  } >&2
}

# The folder cargo links emnapi from. napi-build 2.2 links `emnapi-basic-mt` by that name for
# every WASI target; for wasm32-wasip1 the archive to link is emnapi's single-threaded
# lib/wasm32-wasip1/libemnapi-basic.a, put here under the name napi-build asks for (its -mt
# archive keeps the threads' TLS code, which a module without shared memory cannot hold:
# "CompileError: __copy_tls: immutable global cannot be assigned").
wasm_emnapi_link_dir() {
  local dir="$CARGO_TARGET_DIR/wasm-emnapi"
  mkdir -p "$dir"
  cp "$(wasm_npm)/node_modules/emnapi/lib/wasm32-wasip1/libemnapi-basic.a" "$dir/libemnapi-basic-mt.a" \
    || die "wasm: emnapi has no lib/wasm32-wasip1/libemnapi-basic.a"
  echo "$dir"
}

# scripts/release --cross-check: cargo check of what the release builds for WebAssembly (the
# Node addon for wasm32-wasip1 with emnapi's archive; the web build, bindings/web, for
# wasm32-unknown-unknown), nothing linked.
wasm_cross_check() {
  wasm_setup
  step "WebAssembly: cargo check of sno-node (wasm32-wasip1) and sno-web (wasm32-unknown-unknown)"
  rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || die "wasm: rustup target add wasm32-unknown-unknown failed"
  cross_run "wasm32-wasip1 (sno-node)" env EMNAPI_LINK_DIR="$(wasm_emnapi_link_dir)" \
    cargo check --release -p sno-node --target wasm32-wasip1
  cross_run "wasm32-unknown-unknown (sno-web)" env \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS='--cfg getrandom_backend="custom"' \
    cargo check --release -p sno-web --target wasm32-unknown-unknown
}

# The wasm package's files into "$1": sno.wasm32-wasi.wasm (built here) and the two loaders.
# Everything it prints goes to stderr: the caller collects the folder.
wasm_node() {
  local addons=${1:?wasm_node: the addons folder} log="$CARGO_TARGET_DIR/cargo-wasm32-wasip1.log" wasm t0
  {
    step "WebAssembly: sno.wasm32-wasi.wasm (cargo build -p sno-node --target wasm32-wasip1, LTO)"
    mkdir -p "$addons"
    t0=$(date +%s)
    # Size over speed of linking: one codegen unit, LTO, no symbol names (the release build).
    (EMNAPI_LINK_DIR=$(wasm_emnapi_link_dir) CARGO_PROFILE_RELEASE_LTO=true \
      CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_STRIP=symbols \
      cargo build --release -p sno-node --target wasm32-wasip1 >"$log" 2>&1) \
      || { cat "$log"; die "cargo build -p sno-node --target wasm32-wasip1 failed"; }
    wasm="$addons/sno.wasm32-wasi.wasm"
    cp "$CARGO_TARGET_DIR/wasm32-wasip1/release/sno_node.wasm" "$wasm"
    cp "$repo/bindings/node/wasm/sno.wasi.cjs" "$repo/bindings/node/wasm/sno.wasi-browser.js" "$addons/"
    echo "  built in $(($(date +%s) - t0)) s"
    wasm_module_check "$wasm"
    wasm_load_check "$addons"
  } >&2
}

# The facts of the module: valid WebAssembly; memory imported, not shared, and declared with the
# minimum both loaders create; only Node-API and WASI preview 1 imported (no wasi-threads, no
# sockets); napi-rs's wasm entry exported. Prints its size, raw and gzipped.
wasm_module_check() {
  local wasm=$1 facts
  facts=$(node - "$wasm" "$repo/bindings/node/wasm" <<'JS'
const { readFileSync } = require('node:fs')
const { join } = require('node:path')
const { gzipSync } = require('node:zlib')
const [file, loaders] = process.argv.slice(2)
const bytes = readFileSync(file)
const fail = (why) => { console.log('FAIL ' + why); process.exit(0) }
if (!WebAssembly.validate(bytes)) fail('not valid WebAssembly')
// The import section, read for the memory's limits (the JS API does not give them).
let at = 8
const leb = () => { let r = 0, s = 0, b; do { b = bytes[at++]; r += (b & 0x7f) * 2 ** s; s += 7 } while (b & 0x80); return r }
const name = () => { const n = leb(); const s = bytes.subarray(at, at + n).toString(); at += n; return s }
let memory
while (at < bytes.length) {
  const id = bytes[at++], size = leb(), end = at + size
  if (id === 2) {
    for (let i = leb(); i > 0; i--) {
      const mod = name(), field = name(), kind = bytes[at++]
      if (kind === 0) leb()
      else if (kind === 1) { at++; const f = leb(); leb(); if (f & 1) leb() }
      else if (kind === 3) at += 2
      else if (kind === 2) { const flags = leb(); const min = leb(); const max = flags & 1 ? leb() : null; memory = { mod, field, flags, min, max } }
    }
  }
  at = end
}
if (!memory) fail('no imported memory')
if (memory.flags & 2) fail('its memory is shared (a threads build)')
const m = new WebAssembly.Module(bytes)
const modules = [...new Set(WebAssembly.Module.imports(m).map((i) => i.module))].sort()
if (modules.join() !== 'env,wasi_snapshot_preview1') fail('imports from ' + modules.join(', '))
const wasi = WebAssembly.Module.imports(m).filter((i) => i.module === 'wasi_snapshot_preview1').map((i) => i.name)
const sockets = wasi.filter((n) => n.startsWith('sock_'))
if (sockets.length) fail('imports WASI sockets: ' + sockets.join(' '))
const exports = WebAssembly.Module.exports(m).map((e) => e.name)
if (!exports.includes('napi_register_wasm_v1')) fail('does not export napi_register_wasm_v1')
for (const loader of ['sno.wasi.cjs', 'sno.wasi-browser.js']) {
  const pages = Number(/const INITIAL_PAGES = (\d+)/.exec(readFileSync(join(loaders, loader), 'utf8'))?.[1])
  if (pages !== memory.min) fail(`${loader} creates ${pages} pages, the module declares ${memory.min}`)
}
console.log(`OK ${bytes.length} ${gzipSync(bytes, { level: 9 }).length} ${memory.min} ${wasi.length}`)
JS
) || die "wasm: node could not read $wasm"
  [[ "$facts" == OK* ]] || die "wasm: $(basename "$wasm"): ${facts#FAIL }"
  read -r _ raw gz pages nwasi <<<"$facts"
  echo "  $(basename "$wasm"): $raw bytes, $gz gzipped (-9); memory imported, not shared, $pages pages at least; $nwasi WASI preview 1 imports, no sockets"
}

# The module loaded by the Node loader (the package's files and its runtime, laid out as npm
# installs them), making IDs: a sno ID, a ULID; a lease refused with its code.
wasm_load_check() {
  local addons=$1 dir="$CARGO_TARGET_DIR/wasm-load-check" out
  rm -rf "$dir" && mkdir -p "$dir/node_modules/@libsno/libsno-wasm32-wasi"
  cp "$addons"/sno.wasm32-wasi.wasm "$addons"/sno.wasi.cjs "$(wasm_package_json)" "$dir/node_modules/@libsno/libsno-wasm32-wasi/"
  cp -r "$(wasm_npm)/node_modules/." "$dir/node_modules/"
  out=$(cd "$dir" && node -e "
    const b = require('@libsno/libsno-wasm32-wasi')
    const id = b.newString(7), u = b.fmtNewString(1)
    if (!/^[2-9a-x]{16}\$/.test(id) || !/^[0-9A-HJKMNP-TV-Z]{26}\$/.test(u)) throw new Error('made ' + id + ' ' + u)
    let code
    try { new b.Lease('postgres://localhost/db') } catch (e) { code = e.code }
    if (code !== 'ERR_SNO_LEASE_INVALID_URL') throw new Error('a lease URL gave ' + code)
    console.log(id, u, code)" 2>&1) || die "wasm: the module does not load through sno.wasi.cjs: $out"
  echo "  loaded by sno.wasi.cjs in Node $(node --version): $out"
}

# --- Runs of the packed packages (scripts/test-wasm; wasm_check_more after a release) ---------

# Pinned tools of the runs, from the npm registry (tests/browser/package.json pins the app's).
WASM_DENO=2.9.6
WASM_BUN=1.4.5

# The main package and the wasm package of "$1" (a dist node/ folder), checked to exist.
wasm_tarballs() {
  local dir=$1 main wasm
  main="$dir/libsno-$version.tgz"
  wasm="$dir/libsno-libsno-wasm32-wasi-$version.tgz"
  [ -f "$main" ] || die "wasm: no $main"
  [ -f "$wasm" ] || die "wasm: no $wasm"
  echo "$main $wasm"
}

# A fresh project "$1" with the two tarballs installed from the registry's view of them: the
# native platform packages (not published before a release) are skipped as optional, so the
# loader can only fall back to WebAssembly; no .node file may be there.
wasm_app() {
  local app=$1 main=$2 wasm=$3 addon
  rm -rf "$app" && mkdir -p "$app"
  echo '{ "name": "app", "version": "1.0.0", "private": true, "type": "module" }' >"$app/package.json"
  (cd "$app" && npm install -s --no-audit --no-fund --no-package-lock "$wasm" "$main" "${@:4}" >/dev/null) \
    || die "wasm: npm install of the packages into $app failed"
  addon=$(find "$app/node_modules" -name '*.node' | head -n 1)
  [ -z "$addon" ] || die "wasm: a native addon was installed: $addon"
  [ -f "$app/node_modules/@libsno/libsno-wasm32-wasi/sno.wasm32-wasi.wasm" ] || die "wasm: the wasm package is not installed in $app"
}

# 1. Node without the native addon: libsno falls back to WebAssembly (NAPI_RS_FORCE_WASI=error
#    as well: the WASI binding or an error), and the vector-driven test files run against it.
wasm_test_node() {
  local main=$1 wasm=$2 app="$CARGO_TARGET_DIR/wasm-node-app" t out
  step "WebAssembly in Node $(node --version): libsno without its native addon, the vector-driven tests"
  wasm_app "$app" "$main" "$wasm" fast-check@4
  (cd "$app" && NAPI_RS_FORCE_WASI=error node -e "
    const sno = require('libsno')
    const files = Object.keys(require.cache)
    if (files.some((f) => f.endsWith('.node'))) throw new Error('a native addon was loaded')
    if (!files.some((f) => f.endsWith('/@libsno/libsno-wasm32-wasi/sno.wasi.cjs'))) throw new Error('sno.wasi.cjs was not loaded')
    console.log('  loaded @libsno/libsno-wasm32-wasi/sno.wasi.cjs:', sno.newString())") \
    || die "wasm: libsno does not load its WebAssembly binding in Node"
  mkdir -p "$app/__test__"
  for t in vectors seed_formats formats typeid detect bad_input; do
    sed -e "s#new URL('\.\./index\.mjs', import\.meta\.url)\.href#import.meta.resolve('libsno')#" \
      -e "s#'\.\./index\.mjs'#'libsno'#" \
      "$repo/bindings/node/__test__/$t.test.mjs" >"$app/__test__/$t.test.mjs"
  done
  sed "s#require('\.\./sno\.js')#require('libsno')#" "$repo/bindings/node/__test__/child.cjs" >"$app/__test__/child.cjs"
  cp "$repo/bindings/node/__test__/helpers.mjs" "$app/__test__/"
  ! grep -rq "\.\./index\|\.\./sno" "$app/__test__" || die "wasm: a copied test still imports the source tree"
  # All but one test: formats.test.mjs's worker test expects a process's worker threads to share
  # its generators (one native addon per process). In WebAssembly each worker thread instantiates
  # the module anew, as another process would (docs/wasm.md), and that test itself says
  # stand-alone Ulid-Flakes of separate processes may collide. Its copy is marked skipped.
  local skipped='worker_threads and child processes: no duplicate in any format'
  grep -qx "test('${skipped}', async () => {" "$app/__test__/formats.test.mjs" \
    || die "wasm: formats.test.mjs has no test '${skipped}' to leave out"
  sed -i "s/^test('${skipped}', async/test.skip('${skipped}', async/" "$app/__test__/formats.test.mjs"
  out=$(cd "$app" && SNO_VECTORS_DIR="$repo/testdata/vectors" NAPI_RS_FORCE_WASI=error node --test __test__/*.test.mjs 2>&1) \
    || { echo "$out"; die "wasm: the Node tests failed on the WebAssembly binding"; }
  # A panic in the module aborts it with a message on stderr, even where the tests pass.
  ! grep -q "panicked at" <<<"$out" || { echo "$out"; die "wasm: the module panicked during the Node tests"; }
  grep -qx '# skipped 1' <<<"$out" || { echo "$out"; die "wasm: not exactly the one test left out"; }
  grep -E '^# (tests|pass|fail|skipped) ' <<<"$out" | tr '\n' ' ' | sed "s/^/  /; s/ *\$/ (skipped: ${skipped})\n/"
}

# Debian's chromium: installed when missing and this is root.
wasm_chromium() {
  command -v chromium >/dev/null && { command -v chromium; return; }
  [ "$(id -u)" = 0 ] || die "wasm: chromium missing (apt-get install chromium)"
  echo "  apt-get install chromium" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; } >/dev/null \
    || die "wasm: apt-get install chromium failed"
  command -v chromium
}

# 2. Headless Chromium: tests/browser built by Vite against the packages, served without
#    COOP/COEP; the page's checks (tests/browser/checks.js) judged by tests/browser/run.mjs.
#    With `bench`, the benchmark table instead.
wasm_test_browser() {
  local main=$1 wasm=$2 mode=${3:-check} app="$tools/wasm-browser-app" chromium
  step "WebAssembly in headless Chromium: a Vite app importing libsno, served without COOP/COEP"
  chromium=$(wasm_chromium)
  mkdir -p "$app"
  # The app's sources (its node_modules are kept between runs: vite, playwright-core, ulid, uuid).
  rm -rf "$app/dist" "$app/node_modules/libsno" "$app/node_modules/@libsno"
  cp "$repo"/tests/browser/*.{js,mjs,html,json} "$app/"
  (cd "$app" && npm install -s --no-audit --no-fund --no-package-lock --no-save "$wasm" "$main" >/dev/null) \
    || die "wasm: npm install in $app failed"
  [ -f "$app/node_modules/@libsno/libsno-wasm32-wasi/sno.wasm32-wasi.wasm" ] || die "wasm: the wasm package is not in $app"
  (cd "$app" && npx vite build --logLevel error >/dev/null) || die "wasm: vite build of tests/browser failed"
  if [ "$mode" = bench ]; then
    (cd "$app" && node run.mjs --chromium "$chromium" --dist dist --bench) || die "wasm: the browser benchmark failed"
  else
    (cd "$app" && node run.mjs --chromium "$chromium" --dist dist --tsv "$repo/testdata/bad_input.tsv") \
      || die "wasm: the checks failed in Chromium"
  fi
}

# 3. Deno and Bun (the npm packages `deno` and `bun` carry their binaries): the package loaded
#    through its WebAssembly binding (no native addon installed; NAPI_RS_FORCE_WASI=error), IDs
#    made and parsed.
wasm_test_deno_bun() {
  local main=$1 wasm=$2 runtimes="$tools/wasm-runtimes" app="$CARGO_TARGET_DIR/wasm-deno-bun-app" out
  step "WebAssembly in Deno $WASM_DENO and Bun $WASM_BUN"
  mkdir -p "$runtimes"
  [ -f "$runtimes/package.json" ] || echo '{ "name": "wasm-runtimes", "private": true }' >"$runtimes/package.json"
  (cd "$runtimes" && npm install -s --no-audit --no-fund --save-exact "deno@$WASM_DENO" "bun@$WASM_BUN" >/dev/null) \
    || die "wasm: npm install deno@$WASM_DENO bun@$WASM_BUN failed"
  wasm_app "$app" "$main" "$wasm"
  cat >"$app/ids.mjs" <<'JS'
import { Id, newString, ulid } from 'libsno'
const texts = Array.from({ length: 1000 }, () => newString())
if (!texts.every((t, i) => i === 0 || texts[i - 1] < t)) throw new Error('IDs out of order')
if (!texts.every((t) => Id.parse(t).toString() === t)) throw new Error('IDs do not parse back')
let code
try { Id.parse('2222228A2222G222') } catch (e) { code = e.code }
if (code !== 'ERR_SNO_INVALID_BYTE') throw new Error(`Id.parse of upper case: ${code}`)
const runtime = typeof Deno === 'object' ? `Deno ${Deno.version.deno}` : `Bun ${Bun.version}`
console.log(`  ${runtime}: ${texts[0]} … ${texts.at(-1)}, ${ulid.new()}`)
JS
  out=$(cd "$app" && NAPI_RS_FORCE_WASI=error "$runtimes/node_modules/.bin/deno" run --quiet --allow-read --allow-env ids.mjs 2>&1) \
    || die "wasm: Deno: $out"
  echo "$out"
  out=$(cd "$app" && NAPI_RS_FORCE_WASI=error "$runtimes/node_modules/.bin/bun" ids.mjs 2>&1) || die "wasm: Bun: $out"
  echo "$out"
}

# After a release (P_check_more): the three runs on the release's dist/node/ tarballs.
wasm_check_more() {
  local main wasm
  if [ ! -f "$out/node/libsno-libsno-wasm32-wasi-$version.tgz" ]; then
    echo "  WebAssembly: no $out/node/libsno-libsno-wasm32-wasi-$version.tgz (the node part not built): not run"
    return 0
  fi
  read -r main wasm <<<"$(wasm_tarballs "$out/node")"
  wasm_test_node "$main" "$wasm"
  wasm_test_browser "$main" "$wasm"
  wasm_test_deno_bun "$main" "$wasm"
}
