#!/bin/sh
# Installs the mind-hooks binary for this machine (Linux or macOS, x86_64 or arm64) from a release: it downloads
# the release archive and the release's SHA256SUMS, refuses the archive unless its SHA-256 is the one listed
# there, and puts `mind-hooks` into ~/.local/bin (or --prefix DIR). POSIX sh: runs under dash, bash, zsh and ash.
#
#   curl -fsSL https://github.com/mind-agent/mind-hooks/releases/latest/download/install.sh | sh
#   sh install.sh --help
set -eu

# The repository whose releases are installed: release.repository in deno.json, copied here by
# `deno task release:sync` (tests/release_coordinates_test.ts checks the copy).
REPOSITORY="mind-agent/mind-hooks"
DEFAULT_URL="https://github.com/$REPOSITORY/releases/download"

usage() {
  cat <<EOF
Usage: install.sh [--version VERSION] [--prefix DIR] [--base-url URL]

Installs mind-hooks for this machine: downloads the release archive and the release's
SHA256SUMS, checks the archive's SHA-256 against it (a mismatch installs nothing), and
puts the mind-hooks binary into DIR.

  --version VERSION  the release to install, e.g. 0.1.0 (default: the latest release)
                     or set MIND_HOOKS_VERSION
  --prefix DIR       the directory that receives mind-hooks (default: ~/.local/bin)
                     or set MIND_HOOKS_PREFIX
  --base-url URL     where releases are downloaded from, e.g. a mirror
                     or set MIND_HOOKS_DOWNLOAD_URL
                     (default: $DEFAULT_URL)
  -h, --help         this text

The files are fetched as
  <URL>/v<version>/mind-hooks-<version>-<target>.tar.gz
  <URL>/v<version>/SHA256SUMS
Without a version, the latest one is read from the archive names in the latest release's
SHA256SUMS: https://github.com/$REPOSITORY/releases/latest/download/SHA256SUMS by default,
<URL>/latest/SHA256SUMS with a base URL.

Targets: x86_64-unknown-linux-gnu, aarch64-unknown-linux-gnu, x86_64-apple-darwin,
aarch64-apple-darwin. On Windows, use install.ps1 (PowerShell).
EOF
}

say() { printf '%s\n' "$*"; }
fail() {
  printf 'install.sh: %s\n' "$*" >&2
  exit 1
}

version="${MIND_HOOKS_VERSION:-}"
prefix="${MIND_HOOKS_PREFIX:-}"
base_url="${MIND_HOOKS_DOWNLOAD_URL:-}"

while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --version | --prefix | --base-url)
      [ $# -ge 2 ] || fail "$1 needs a value (see --help)"
      case "$1" in
        --version) version="$2" ;;
        --prefix) prefix="$2" ;;
        --base-url) base_url="$2" ;;
      esac
      shift 2
      ;;
    --version=*) version="${1#*=}"; shift ;;
    --prefix=*) prefix="${1#*=}"; shift ;;
    --base-url=*) base_url="${1#*=}"; shift ;;
    *) fail "unknown argument \"$1\" (see --help)" ;;
  esac
done

if [ -z "$prefix" ]; then
  [ -n "${HOME:-}" ] || fail "HOME is not set: pass --prefix DIR"
  prefix="$HOME/.local/bin"
fi
base_url="${base_url:-$DEFAULT_URL}"
base_url="${base_url%/}"
version="${version#v}"

# --- platform -------------------------------------------------------------------------------------------------

detect_target() {
  os="$(uname -s 2>/dev/null || echo unknown)"
  arch="$(uname -m 2>/dev/null || echo unknown)"
  case "$os" in
    Linux) os_part="unknown-linux-gnu" ;;
    Darwin) os_part="apple-darwin" ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT) fail "this is Windows: use install.ps1 in PowerShell (see the README's Install section)" ;;
    *) fail "there is no mind-hooks binary for $os; build it from source (see the README's Install section)" ;;
  esac
  case "$arch" in
    x86_64 | amd64) cpu="x86_64" ;;
    aarch64 | arm64) cpu="aarch64" ;;
    *) fail "there is no mind-hooks binary for $os on $arch; build it from source (see the README's Install section)" ;;
  esac
  # A shell under Rosetta reports x86_64 on Apple silicon: the native binary is the better one.
  if [ "$os" = Darwin ] && [ "$cpu" = x86_64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
    cpu="aarch64"
  fi
  if [ "$os" = Linux ] && (ldd --version 2>&1 || true) | grep -qi musl; then
    fail "this Linux uses musl libc (Alpine?): the release binaries need glibc; build from source instead"
  fi
  target="$cpu-$os_part"
}

# --- tools ----------------------------------------------------------------------------------------------------

download() { # URL FILE
  if command -v curl >/dev/null 2>&1; then
    status="$(curl -sL --retry 2 -o "$2" -w '%{http_code}' "$1" 2>/dev/null || true)"
    case "$status" in
      2??) ;;
      "" | 000) fail "cannot download $1 (no connection)" ;;
      *) fail "cannot download $1 (HTTP $status)" ;;
    esac
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" || fail "cannot download $1"
  else
    fail "neither curl nor wget is installed: install one of them and run this again"
  fi
}

sha256_of() { # FILE
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | awk '{print $1}'
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | awk '{print $1}'
  elif command -v openssl >/dev/null 2>&1; then
    openssl dgst -sha256 -r "$1" | awk '{print $1}'
  else
    fail "no SHA-256 tool (sha256sum, shasum or openssl) to verify the download with; nothing was installed"
  fi
}

# The digest SHA256SUMS lists for NAME ("<sha256>  <name>" or "<sha256> *<name>"), lower case, or nothing.
listed_sha256() { # SUMS NAME
  awk -v name="$2" '{ f = $2; sub(/^\*/, "", f); if (f == name) { print tolower($1); exit } }' "$1"
}

# --- install --------------------------------------------------------------------------------------------------

detect_target

tmp="$(mktemp -d 2>/dev/null || mktemp -d -t mind-hooks)" || fail "cannot create a temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

if [ -z "$version" ]; then
  if [ "$base_url" = "$DEFAULT_URL" ]; then
    latest="https://github.com/$REPOSITORY/releases/latest/download/SHA256SUMS"
  else
    latest="$base_url/latest/SHA256SUMS"
  fi
  download "$latest" "$tmp/latest-SHA256SUMS"
  version="$(awk -v t="-$target.tar.gz" '{
    f = $2; sub(/^\*/, "", f)
    if (index(f, "mind-hooks-") == 1 && substr(f, length(f) - length(t) + 1) == t) {
      print substr(f, 12, length(f) - 11 - length(t)); exit
    }
  }' "$tmp/latest-SHA256SUMS")"
  [ -n "$version" ] || fail "the latest release's SHA256SUMS ($latest) lists no archive for $target"
fi
case "$version" in
  "" | *[!0-9A-Za-z.+-]*) fail "\"$version\" is not a version (expected e.g. 0.1.0)" ;;
esac

archive="mind-hooks-$version-$target.tar.gz"
say "mind-hooks $version for $target"
say "  from $base_url/v$version/"
download "$base_url/v$version/SHA256SUMS" "$tmp/SHA256SUMS"
download "$base_url/v$version/$archive" "$tmp/$archive"

expected="$(listed_sha256 "$tmp/SHA256SUMS" "$archive")"
case "$expected" in
  "") fail "SHA256SUMS of v$version has no line for $archive; nothing was installed" ;;
  *[!0-9a-f]*) fail "SHA256SUMS of v$version has a malformed line for $archive; nothing was installed" ;;
esac
[ "${#expected}" -eq 64 ] || fail "SHA256SUMS of v$version has a malformed line for $archive; nothing was installed"
actual="$(sha256_of "$tmp/$archive")"
if [ "$actual" != "$expected" ]; then
  printf 'install.sh: checksum mismatch for %s: refusing to install it\n' "$archive" >&2
  printf '  expected (SHA256SUMS): %s\n  downloaded:            %s\n' "$expected" "$actual" >&2
  printf 'The download is damaged or is not the published file; nothing was installed.\n' >&2
  exit 1
fi
say "  SHA-256 $actual: matches SHA256SUMS"

mkdir "$tmp/x"
tar -xzf "$tmp/$archive" -C "$tmp/x" || fail "cannot unpack $archive"
[ -f "$tmp/x/mind-hooks" ] || fail "$archive holds no mind-hooks at its top level; nothing was installed"

mkdir -p "$prefix" || fail "cannot create $prefix (pass --prefix DIR for another place)"
# Copy next to the target, then rename: a running mind-hooks is never left half-written.
cp "$tmp/x/mind-hooks" "$prefix/.mind-hooks.new.$$" || fail "cannot write to $prefix (pass --prefix DIR for another place)"
chmod 755 "$prefix/.mind-hooks.new.$$"
mv -f "$prefix/.mind-hooks.new.$$" "$prefix/mind-hooks" || fail "cannot write $prefix/mind-hooks"

say "installed $prefix/mind-hooks"
if ran="$("$prefix/mind-hooks" --version 2>&1)"; then
  say "  $ran"
else
  say "warning: $prefix/mind-hooks --version failed on this machine: $ran" >&2
fi
case ":${PATH:-}:" in
  *":$prefix:"* | *":$prefix/:"*)
    say "Next: mind-hooks doctor, then the README's tour (from step 1)." ;;
  *)
    say ""
    say "$prefix is not on your PATH. Add it to this shell and to your shell's profile:"
    say "  export PATH=\"$prefix:\$PATH\""
    say "  echo 'export PATH=\"$prefix:\$PATH\"' >> ~/.profile   # or ~/.bashrc, ~/.zshrc"
    say "Next: mind-hooks doctor, then the README's tour (from step 1)." ;;
esac
