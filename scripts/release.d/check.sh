# shellcheck shell=bash
# shellcheck disable=SC2154 # repo, version, venv, CARGO_TARGET_DIR: set by scripts/release
# Sourced by scripts/release (after its helpers: step, die; variables: repo, version, venv,
# CARGO_TARGET_DIR). Defines release_check, which `scripts/release --check` calls with the dist
# folder once everything is built. It checks what a publish would upload, without uploading:
#
#   every artifact   the name carries the workspace version, SHA256SUMS matches, and both licence
#                    texts are inside, byte for byte the repository's LICENSE-MIT / LICENSE-APACHE
#   python/          `twine check --strict` on every wheel and the sdist (twine from PyPI into the
#                    release venv); Version and License-Expression of the wheel METADATA / PKG-INFO
#   node/            `npm publish --dry-run` of every tarball (npm's own checks; any warning but
#                    the dry run's "not logged in" fails); the package.json version and licence, and
#                    the main package's optionalDependencies all on the version
#   rust/            `cargo publish --dry-run -p sno-core -p sno-lease -p sno-cli` (Cargo >= 1.90:
#                    the three are packaged together, each verified by a build of its .crate alone,
#                    the others resolved from a local registry overlay of their .crates: a dry run
#                    of sno-lease alone cannot resolve sno-core 0.2.0 before it is on crates.io);
#                    each dist .crate holds exactly what `cargo package --list` lists, with the
#                    tree's contents, its manifest on the version and its libsno dependencies too
#   c/, cli/         names; the C header's SNO_VERSION_* and sno.pc's Version where present
#
# Part folders that are absent (a release made with --only) are reported, not checked; no part
# at all is an error.

# The files of an archive (.tar.gz, .tgz, .crate, .zip, .whl), one a line (no folders).
check_archive_list() {
  python3 - "$1" <<'PY'
import sys, tarfile, zipfile
path = sys.argv[1]
if zipfile.is_zipfile(path):
    names = [n for n in zipfile.ZipFile(path).namelist() if not n.endswith("/")]
else:
    names = [m.name for m in tarfile.open(path).getmembers() if not m.isdir()]
print("\n".join(names))
PY
}

# The bytes of one member of an archive on stdout (a missing member: status 1).
check_archive_read() {
  python3 - "$1" "$2" <<'PY'
import sys, tarfile, zipfile
path, member = sys.argv[1], sys.argv[2]
try:
    if zipfile.is_zipfile(path):
        data = zipfile.ZipFile(path).read(member)
    else:
        f = tarfile.open(path).extractfile(member)
        if f is None:
            raise KeyError(member)
        data = f.read()
except KeyError:
    sys.exit(1)
sys.stdout.buffer.write(data)
PY
}

# Both licence texts in an archive: members matching the extended regex $2 + the file name,
# identical to the repository's.
check_licences() {
  local file=$1 dir_re=$2 names lic member
  names=$(check_archive_list "$file") || die "$(basename "$file"): not a readable archive"
  for lic in LICENSE-MIT LICENSE-APACHE; do
    member=$(grep -E "^${dir_re}${lic}\$" <<<"$names" | head -n 1 || true)
    [ -n "$member" ] || die "$(basename "$file"): no $lic (looked for ${dir_re}${lic})"
    check_archive_read "$file" "$member" | cmp -s - "$repo/$lic" \
      || die "$(basename "$file"): $member differs from the repository's $lic"
  done
}

# A README as a registry shows it (stdin: Markdown): rendered as GitHub-flavoured Markdown by
# readme_renderer (what PyPI runs), it must link only to absolute https:// addresses or anchors:
# a relative link resolves against the registry's page, not the repository. Says why on stderr
# and returns 1 otherwise.
check_readme_links() {
  "$venv/bin/python" -c '
import re, sys
from readme_renderer.markdown import render
html = render(sys.stdin.read(), variant="GFM")
if not html:
    sys.exit("does not render as Markdown")
links = re.findall(r"(?:href|src)=\"([^\"]*)\"", html)
bad = [h for h in links if not h.startswith(("https://", "#"))]
if bad:
    sys.exit("links that are not absolute: " + ", ".join(bad))
if not links:
    sys.exit("no link at all (not the README?)")'
}

# One `Key: value` line of core metadata (METADATA / PKG-INFO) must read `Key: $3`.
check_metadata_field() {
  local text=$1 key=$2 want=$3 label=$4 got
  got=$(sed -n "s/^$key: //p" <<<"$text" | head -n 1)
  [ "$got" = "$want" ] || die "$label: $key is '$got', not '$want'"
}

check_python_dist() {
  local dir=$1 f meta n=0
  step "Check python/: twine check --strict, version, licence texts"
  # readme_renderer's Markdown extra: twine alone passes any Markdown ("rendering cannot fail").
  "$venv/bin/pip" install -q "twine>=6.1,<7" "readme_renderer[md]>=44" || die "pip cannot install twine"
  local files=()
  while IFS= read -r f; do files+=("$f"); done < <(find "$dir" -maxdepth 1 -type f | sort)
  [ "${#files[@]}" -gt 0 ] || die "python/ is empty"
  for f in "${files[@]}"; do
    case "$(basename "$f")" in
      "sno-$version-"*.whl)
        meta=$(check_archive_read "$f" "sno-$version.dist-info/METADATA") \
          || die "$(basename "$f"): no sno-$version.dist-info/METADATA"
        check_licences "$f" "sno-$version\\.dist-info/licenses/"
        ;;
      "sno-$version.tar.gz")
        meta=$(check_archive_read "$f" "sno-$version/PKG-INFO") || die "$(basename "$f"): no sno-$version/PKG-INFO"
        check_licences "$f" "sno-$version/"
        ;;
      *) die "python/$(basename "$f"): not a sno-$version wheel or sdist" ;;
    esac
    check_metadata_field "$meta" Name sno "$(basename "$f")"
    check_metadata_field "$meta" Version "$version" "$(basename "$f")"
    check_metadata_field "$meta" License-Expression "MIT OR Apache-2.0" "$(basename "$f")"
    # The long description: the core metadata's body, after the headers' blank line.
    sed '1,/^$/d' <<<"$meta" | check_readme_links || die "$(basename "$f"): its README (long description) fails"
    n=$((n + 1))
  done
  "$venv/bin/python" -m twine check --strict "${files[@]}" || die "twine check --strict failed"
  echo "  $n Python files: twine check --strict passed; Version $version, both licence texts"
}

check_npm_dist() {
  local dir=$1 f pkg name log n=0
  step "Check node/: npm publish --dry-run, version, licence texts"
  local files=()
  while IFS= read -r f; do files+=("$f"); done < <(find "$dir" -maxdepth 1 -type f | sort)
  [ "${#files[@]}" -gt 0 ] || die "node/ is empty"
  local scratch="$CARGO_TARGET_DIR/release-check/npm"
  rm -rf "$scratch" && mkdir -p "$scratch"
  for f in "${files[@]}"; do
    case "$(basename "$f")" in
      *"-$version.tgz") ;;
      *) die "node/$(basename "$f"): not a <package>-$version.tgz" ;;
    esac
    pkg=$(check_archive_read "$f" package/package.json) || die "$(basename "$f"): no package/package.json"
    check_licences "$f" "package/"
    check_archive_read "$f" package/README.md | check_readme_links \
      || die "$(basename "$f"): package/README.md is missing or fails"
    # name, version, licence; the main package's platform packages on the same version.
    # shellcheck disable=SC2016 # JavaScript, not shell expansions
    name=$(VERSION="$version" node -e '
      const p = JSON.parse(require("fs").readFileSync(0, "utf8"))
      const v = process.env.VERSION
      const bad = []
      if (p.version !== v) bad.push(`version ${p.version}`)
      if (p.license !== "MIT OR Apache-2.0") bad.push(`license ${p.license}`)
      if (!p.repository || !p.repository.url) bad.push("no repository")
      for (const [dep, want] of Object.entries(p.optionalDependencies || {})) {
        if (want !== v) bad.push(`optional dependency ${dep}@${want}`)
      }
      if (bad.length) { console.error(bad.join(", ")); process.exit(1) }
      console.log(p.name)' <<<"$pkg") || die "$(basename "$f"): package.json is not on $version / the licence"
    # npm pack names a tarball after the package: @libsno/libsno-linux-x64-gnu -> libsno-libsno-linux-x64-gnu-<v>.tgz
    [ "$(basename "$f")" = "$(sed 's|^@||; s|/|-|' <<<"$name")-$version.tgz" ] \
      || die "$(basename "$f") holds $name"
    # From a scratch folder (no project .npmrc or package.json), scripts off: npm's own checks
    # of what it would upload.
    log=$(cd "$scratch" && npm publish --dry-run --ignore-scripts "$f" 2>&1) \
      || { echo "$log"; die "npm publish --dry-run failed for $(basename "$f")"; }
    grep -q "^+ $name@$version\$" <<<"$log" || { echo "$log"; die "npm publish --dry-run: no '+ $name@$version'"; }
    if grep -E '^npm (warn|WARN|error|ERR)' <<<"$log" | grep -v 'requires you to be logged in' >&2; then
      die "npm publish --dry-run warns about $(basename "$f") (above)"
    fi
    n=$((n + 1))
  done
  echo "  $n npm tarballs: npm publish --dry-run passed; $version throughout, both licence texts"
}

check_crates_dist() {
  local dir=$1 crate f member listed in_crate cargo_minor
  step "Check rust/: cargo publish --dry-run of sno-core, sno-lease, sno-cli together; the .crates"
  cargo_minor=$(cargo --version | sed -n 's/^cargo 1\.\([0-9]*\)\..*/\1/p')
  if [ -z "$cargo_minor" ] || [ "$cargo_minor" -lt 90 ]; then
    die "cargo publish of several packages needs Cargo >= 1.90 ($(cargo --version))"
  fi
  for crate in sno-core sno-lease sno-cli; do
    f="$dir/$crate-$version.crate"
    [ -f "$f" ] || die "rust/: no $crate-$version.crate"
    check_licences "$f" "$crate-$version/"
    check_archive_read "$f" "$crate-$version/README.md" | check_readme_links \
      || die "$crate-$version.crate: README.md is missing or fails"
    in_crate=$(check_archive_list "$f" | sed "s|^$crate-$version/||" | sort)
    # What cargo would pack from this tree now (the generated files aside) against the dist's.
    listed=$(cargo package -q --list --allow-dirty -p "$crate" | sort)
    [ "$in_crate" = "$listed" ] \
      || die "$crate-$version.crate does not hold what cargo package --list lists: $(diff <(echo "$listed") <(echo "$in_crate") | head -n 5)"
    while IFS= read -r member; do
      case "$member" in Cargo.toml | Cargo.lock | .cargo_vcs_info.json) continue ;; esac
      local src="$repo/$crate/$member"
      [ "$member" != Cargo.toml.orig ] || src="$repo/$crate/Cargo.toml"
      check_archive_read "$f" "$crate-$version/$member" | cmp -s - "$src" \
        || die "$crate-$version.crate: $member differs from the tree's (a stale dist?)"
    done <<<"$in_crate"
    # The normalized manifest: the crate and its libsno dependencies on the version.
    check_archive_read "$f" "$crate-$version/Cargo.toml" | "$venv/bin/python" -c '
import sys, tomllib
m = tomllib.loads(sys.stdin.read())
v = sys.argv[1]
bad = [] if m["package"]["version"] == v else ["version " + m["package"]["version"]]
for dep in ("sno-core", "sno-lease"):
    d = m.get("dependencies", {}).get(dep)
    if d is not None and d.get("version") != "=" + v and d.get("version") != v:
        bad.append(dep + " " + str(d.get("version")))
if m["package"].get("license") != "MIT OR Apache-2.0":
    bad.append("license " + str(m["package"].get("license")))
sys.exit(", ".join(bad) or None)' "$version" || die "$crate-$version.crate: its manifest is not on $version"
  done
  # --allow-dirty as the release's cargo package; each crate verified by building its .crate.
  cargo publish --dry-run --allow-dirty -p sno-core -p sno-lease -p sno-cli \
    >"$CARGO_TARGET_DIR/release-check-cargo.log" 2>&1 \
    || { tail -n 40 "$CARGO_TARGET_DIR/release-check-cargo.log"; die "cargo publish --dry-run failed"; }
  for crate in sno-core sno-lease sno-cli; do
    grep -q "Verifying $crate v$version" "$CARGO_TARGET_DIR/release-check-cargo.log" \
      || die "cargo publish --dry-run did not verify $crate (log: $CARGO_TARGET_DIR/release-check-cargo.log)"
  done
  echo "  sno-core, sno-lease, sno-cli $version: packaged together and each built from its .crate; the dist .crates match the tree"
}

# C tarballs and CLI archives: names, licence texts; the C header's version and pkg-config's.
check_archives_dist() {
  local dir=$1 part=$2 prefix=$3 f top names member n=0
  step "Check $part/: version, licence texts"
  for f in "$dir"/*; do
    [ -f "$f" ] || continue
    case "$(basename "$f")" in
      "$prefix-$version-"*.tar.gz | "$prefix-$version-"*.zip) ;;
      *) die "$part/$(basename "$f"): not a $prefix-$version-<target>.tar.gz / .zip" ;;
    esac
    check_licences "$f" "([^/]+/)?"
    names=$(check_archive_list "$f")
    member=$(grep -E '^([^/]+/)?include/sno\.h$' <<<"$names" | head -n 1 || true)
    if [ -n "$member" ]; then
      top=$(check_archive_read "$f" "$member" | sed -n 's/^#define SNO_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' | paste -sd.)
      [ "$top" = "$version" ] || die "$(basename "$f"): $member says version '$top'"
    fi
    while IFS= read -r member; do
      top=$(check_archive_read "$f" "$member" | sed -n 's/^Version: //p')
      [ "$top" = "$version" ] || die "$(basename "$f"): $member says Version '$top'"
    done < <(grep -E '/pkgconfig/[^/]+\.pc$' <<<"$names" || true)
    n=$((n + 1))
  done
  [ "$n" -gt 0 ] || die "$part/ is empty"
  echo "  $n $part archives: $version, both licence texts"
}

release_check() {
  local out=$1 checked=0 f
  [ -d "$out" ] || die "release_check: no folder $out"
  step "Check $out against SHA256SUMS; every file named for $version"
  [ -f "$out/SHA256SUMS" ] || die "no $out/SHA256SUMS"
  (cd "$out" && sha256sum --quiet -c SHA256SUMS) || die "$out does not match its SHA256SUMS"
  while IFS= read -r f; do
    grep -q "  $f\$" "$out/SHA256SUMS" || die "$f is not in SHA256SUMS"
    case "$f" in
      *"-$version-"* | *"-$version."*) ;;
      *) die "$f: not named for version $version" ;;
    esac
  done < <(cd "$out" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | sort)
  local part
  for part in python node rust c cli; do
    if [ ! -d "$out/$part" ]; then
      echo "  no $part/ in $out: not checked"
      continue
    fi
    case "$part" in
      python) check_python_dist "$out/python" ;;
      node) check_npm_dist "$out/node" ;;
      rust) check_crates_dist "$out/rust" ;;
      c) check_archives_dist "$out/c" c libsno ;;
      cli) check_archives_dist "$out/cli" cli sno ;;
    esac
    checked=$((checked + 1))
  done
  [ "$checked" -gt 0 ] || die "release_check: $out holds no part (python, node, rust, c, cli)"
  echo "  release check passed: $checked parts of $out, version $version"
}
