"""The `referee` console script.

`referee serve` runs the app under gunicorn on every interface and prints the address a
phone on the same Wi-Fi can open, with a QR code of it drawn in the terminal.
`referee translate update|compile` wraps pybabel for the French and Dutch catalogs.
`referee backup FILE` and `referee restore FILE` save and restore the whole database as JSON
(on the database `DATABASE_URL` names, or the SQLite file in the instance folder).
"""

import argparse
import ctypes
import ctypes.util
import fcntl
import gc
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
SIOCGIFADDR = 0x8915
LANGUAGES = ("fr", "nl")
# Requests are Python work under one lock per process (the GIL), so processes, not threads,
# share out the cores: in the load benchmark two per core with two threads each kept the p99
# under 60 ms where two processes of eight threads each went past 100 ms.
WORKERS = 2 * max(1, os.cpu_count() or 1)


def lan_addresses() -> list:
    """IPv4 addresses of this machine's non-loopback interfaces, read locally (no packet sent)."""
    found = []
    for _index, name in socket.if_nameindex():
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                packed = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
            except OSError:
                continue
        address = socket.inet_ntoa(packed[20:24])
        if not address.startswith("127."):
            found.append(address)
    return found


def public_url(host: str, port: int) -> str:
    if host in ("0.0.0.0", "::", ""):
        addresses = lan_addresses()
        host = addresses[0] if addresses else "127.0.0.1"
    return f"http://{host}:{port}/"


def print_qr(url: str, out=sys.stdout) -> None:
    import qrcode

    code = qrcode.QRCode(border=2)
    code.add_data(url)
    code.print_ascii(out=out, invert=True)


def serve(args) -> None:
    """Run under gunicorn: several worker processes share the database, nothing else.

    The app is built once in the master (schema migrations run once, the secret key file is
    made once); each worker then drops the database connections it inherited by forking.
    """
    from gunicorn.app.base import BaseApplication

    from referee import create_app

    app = create_app()
    prepare_workers(app)
    url = public_url(args.host, args.port)

    class Server(BaseApplication):
        def load_config(self):
            self.cfg.set("bind", f"{args.host}:{args.port}")
            self.cfg.set("workers", args.workers)
            self.cfg.set("worker_class", "gthread")
            self.cfg.set("threads", args.threads)
            self.cfg.set("keepalive", 5)  # phones poll every 2 s: keep their connections open
            self.cfg.set("preload_app", True)
            self.cfg.set("control_socket_disable", True)
            self.cfg.set("reuse_port", True)  # a new server binds at once even beside a dying worker
            self.cfg.set("post_fork", lambda server, _worker: after_fork(app, server.pid))
            self.cfg.set("when_ready", lambda _server: announce(url, args.no_qr))

        def load(self):
            return app

    Server().run()


def after_fork(app, master_pid: int) -> None:
    """In each new worker: drop the database connections inherited from the master, and die
    with the master. Without the second, workers orphaned by a master killed with SIGKILL
    kept serving on the port for half a minute, and a new `referee serve` could not start."""
    app.extensions["engine"].dispose(close=False)
    die_with_parent()
    if os.getppid() != master_pid:  # the master died before the line above took effect
        os._exit(0)


def die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (prctl PR_SET_PDEATHSIG)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: orphans exit by gunicorn's own check of their parent


PR_SET_PDEATHSIG = 1


def prepare_workers(app) -> None:
    """Do once in the master what each forked worker would otherwise do while phones wait.

    Every template is compiled here, so no worker compiles them on its first requests. Then
    `gc.freeze()` sets everything made so far (imported modules, compiled templates) aside
    from the garbage collector: before it, a worker's full collection walked some 120,000
    objects and stalled that worker's requests for 60 to 200 ms in the load benchmark; after
    it, a full collection walks only the few thousand objects the worker made itself.
    Fragments rendered by an earlier server are dropped: its templates or translations may
    have been different.
    """
    shutil.rmtree(Path(app.instance_path) / "fragments", ignore_errors=True)
    for name in app.jinja_env.list_templates():
        app.jinja_env.get_template(name)
    gc.collect()
    gc.freeze()


def announce(url: str, no_qr: bool) -> None:
    print(f"Referee is running. On a phone on the same Wi-Fi, open: {url}", flush=True)
    if not no_qr:
        print_qr(url)
    sys.stdout.flush()


def translate(args) -> None:
    translations = PACKAGE / "web" / "translations"
    pot = translations / "messages.pot"
    root = PACKAGE.parent
    if args.action == "update":
        subprocess.run(["pybabel", "extract", "-F", str(PACKAGE / "web" / "babel.cfg"),
                        "-k", "N_", "-k", "NP_:1,2", "-k", "_l",
                        "--no-location", "--sort-output", "-o", str(pot), "."],
                       cwd=root, check=True)
        for lang in LANGUAGES:
            verb = "update" if (translations / lang / "LC_MESSAGES" / "messages.po").exists() else "init"
            extra = ["--no-fuzzy-matching"] if verb == "update" else []
            subprocess.run(["pybabel", verb, "-i", str(pot), "-d", str(translations), "-l", lang, *extra], check=True)
    subprocess.run(["pybabel", "compile", "--use-fuzzy", "-d", str(translations)], check=True)


def backup(args) -> None:
    from referee import create_app
    from referee.web import db
    from referee.services import exports

    app = create_app()
    with app.app_context():
        document = exports.backup(db.session())
    if args.file == "-":
        sys.stdout.write(document)
    else:
        Path(args.file).write_text(document, encoding="utf-8")
        print(f"Backup written to {args.file}")


def restore(args) -> None:
    from referee import create_app
    from referee.web import db
    from referee.services import exports
    from referee.rules.text import RulesError

    app = create_app()
    source = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    with app.app_context():
        try:
            rows = exports.restore(db.session(), source)
        except RulesError as err:
            sys.exit(f"referee restore: {err}")
    print(f"Restored {rows} rows from {args.file}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="referee", description="Chicken Foot scorekeeper and referee")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="start the app for the phones at the table")
    run.add_argument("--host", default="0.0.0.0")
    run.add_argument("--port", type=int, default=8000)
    run.add_argument("--workers", type=int, default=WORKERS,
                     help=f"server processes (default {WORKERS}: two per CPU core)")
    run.add_argument("--threads", type=int, default=2, help="threads per process (default 2)")
    run.add_argument("--no-qr", action="store_true", help="do not draw the QR code")
    run.set_defaults(func=serve)
    cat = commands.add_parser("translate", help="update or compile the French and Dutch catalogs")
    cat.add_argument("action", choices=["update", "compile"])
    cat.set_defaults(func=translate)
    save = commands.add_parser("backup", help="write the whole database as one JSON file")
    save.add_argument("file", help="where to write it, or - for standard output")
    save.set_defaults(func=backup)
    load = commands.add_parser("restore", help="load a backup into an empty database")
    load.add_argument("file", help="the backup file, or - for standard input")
    load.set_defaults(func=restore)
    args = parser.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
