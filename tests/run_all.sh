#!/usr/bin/env bash
# Installs everything the tests need on a fresh Debian machine and runs every test:
# system packages (Chromium for the browser tests, PostgreSQL), the venv with the test
# and vision extras, then the whole suite on SQLite and the whole suite again on a
# throw-away PostgreSQL server on 127.0.0.1 (less tests/vision and tests/layout, which touch
# no database and run once, beside the others). Extra arguments go to every pytest run.
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

# The vision and layout tests touch no database: they run once, beside the SQLite run's
# rules and web tests (the two cores are otherwise half idle there), and their output is
# printed when they end.
vision_log=$(mktemp /tmp/referee-vision.XXXXXX)
.venv/bin/python -m pytest -p no:cacheprovider tests/vision tests/layout "$@" >"$vision_log" 2>&1 &
vision_pid=$!
trap 'kill $vision_pid 2>/dev/null || true; run_pg "$pgbin/pg_ctl -D $pgdir/data -m fast stop >/dev/null" || true; rm -rf "$pgdir" "$vision_log"' EXIT

# every other folder of tests, the rules and web tests first, while the vision tests run
db_tests=(tests/rules tests/web $(ls -d tests/*/ | sed 's:/$::' | grep -v -x -e tests/rules -e tests/web \
  -e tests/vision -e tests/layout -e tests/__pycache__))
status=0
echo "== the whole suite on SQLite (the vision tests beside it)"
.venv/bin/python -m pytest "${db_tests[@]}" "$@" || status=1
echo "== again on PostgreSQL, every test that touches the database"
DATABASE_URL="postgresql+psycopg://postgres@127.0.0.1:$pgport/postgres" .venv/bin/python -m pytest \
  "${db_tests[@]}" --deselect tests/reliability/test_wheel.py "$@" || status=1
echo "== the vision and layout tests"
wait $vision_pid || status=1
cat "$vision_log"
exit $status
