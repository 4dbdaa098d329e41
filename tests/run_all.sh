#!/usr/bin/env bash
# Installs everything the tests need on a fresh Debian machine and runs every test:
# system packages (Chromium for the browser tests, PostgreSQL), the venv with the test
# and vision extras, then the whole suite on SQLite and the whole suite again on a
# throw-away PostgreSQL server on 127.0.0.1 (less tests/vision and tests/layout, which touch
# no database and need not run twice). Extra arguments go to both pytest runs.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[vision,test]'

# A throw-away PostgreSQL cluster, stopped and removed when this script ends.
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
pgdir=$(mktemp -d /tmp/referee-pg.XXXXXX)
pgport=$(.venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
run_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$pgdir"
run_pg "$pgbin/initdb -D $pgdir/data -A trust -U postgres >/dev/null"
run_pg "$pgbin/pg_ctl -D $pgdir/data -l $pgdir/log -w -o '-c listen_addresses=127.0.0.1 -p $pgport -k $pgdir -c fsync=off' start >/dev/null"
trap 'run_pg "$pgbin/pg_ctl -D $pgdir/data -m fast stop >/dev/null" || true; rm -rf "$pgdir"' EXIT

echo "== the whole suite on SQLite"
.venv/bin/python -m pytest "$@"
echo "== again on PostgreSQL, every test that touches the database"
DATABASE_URL="postgresql+psycopg://postgres@127.0.0.1:$pgport/postgres" .venv/bin/python -m pytest \
  --ignore=tests/vision --ignore=tests/layout --deselect tests/reliability/test_wheel.py "$@"
