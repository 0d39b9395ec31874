#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A loopback stand-in for KCIDB's REST daemon (kernelci/kcidb-ng, kcidb-restd-rs) and its ingester.

Answers as that daemon does: POST /submit with "Authorization: Bearer TOKEN" -> 200
{"id", "status": "ok", "message"} and the body spooled as submission-ID.json; 401 for a bad token, 400 for a body
that is not JSON, 413 past the body limit. GET /status?id=ID -> {"id", "status", "message"} with status
inprogress, ready, processed (moved to archive/) or failed (moved to failed/), 404 "notfound" for an unknown id.
The ingester's step is real: the spooled file is validated against the KCIDB schema given with --schema.

The first path segment picks a behaviour, so one server serves every case of a test (KCIDB_REST's path):
  /            validate: processed if the schema accepts the file, failed if not
  /flaky       the first POST and the first status query answer 503, then as /
  /stuck       never leaves "ready" (a client's timeout)
  /down        every request answers 503
  /small       a body limit of 1 KiB (413 past it)
Prints the port it bound (127.0.0.1, a free one) on stdout, then serves until killed. Logs one line a request
(method, path, code) to --log: never a header, so the token is in no log.
"""
import argparse
import json
import os
import random
import shutil
import string
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import jsonschema

ARGS = None
LOCK = threading.Lock()
POLLS = {}      # id -> status queries answered
FLAKY = {"post": 1, "status": 1}
MODES = ("flaky", "stuck", "down", "small")


def answer(h, code, status, sid="0", message=None):
    body = json.dumps({"id": sid, "status": status, "message": message}).encode()
    h.send_response(code)
    h.send_header("Content-Type", "application/json")
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    h.wfile.write(body)


def ingest(sid):
    """The ingester: validate the spooled file and move it to archive/ or failed/."""
    src = os.path.join(ARGS.spool, f"submission-{sid}.json")
    try:
        with open(src) as f:
            jsonschema.validate(json.load(f), SCHEMA)
        dest = "archive"
    except (ValueError, jsonschema.ValidationError):
        dest = "failed"
    shutil.move(src, os.path.join(ARGS.spool, dest, f"submission-{sid}.json"))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *a):  # noqa: N802 (http.server's name)
        pass

    def log(self, code):
        with open(ARGS.log, "a") as f:
            f.write(f"{self.command} {self.path} {code}\n")

    def split(self):
        url = urlsplit(self.path)
        parts = url.path.strip("/").split("/")
        mode = parts[0] if parts and parts[0] in MODES else ""
        endpoint = parts[-1] if parts else ""
        return mode, endpoint, parse_qs(url.query)

    def authorized(self):
        return self.headers.get("Authorization", "") == f"Bearer {ARGS.token}"

    def do_POST(self):  # noqa: N802
        mode, endpoint, _ = self.split()
        length = int(self.headers.get("Content-Length", "0"))
        if endpoint != "submit":
            return self.fail(404, "no such endpoint")
        if mode == "down" or (mode == "flaky" and self.take("post")):
            self.rfile.read(length)
            return self.fail(503, "Service Unavailable")
        if length > (1024 if mode == "small" else ARGS.limit):
            # the daemon's body limit layer: 413 with a plain text body, as tower-http answers
            self.rfile.read(length)
            self.send_response(413)
            self.send_header("Content-Length", "21")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(b"length limit exceeded")
            self.log(413)
            return
        body = self.rfile.read(length)
        if not self.authorized():
            self.log(401)
            return answer(self, 401, "error", message="InvalidSignature")
        try:
            json.loads(body)
        except ValueError as e:
            self.log(400)
            return answer(self, 400, "error", message=str(e))
        sid = "".join(random.choice(string.ascii_letters + string.digits) for _ in range(32))
        with open(os.path.join(ARGS.spool, f"submission-{sid}.json"), "wb") as f:
            f.write(body)
        with LOCK:
            POLLS[sid] = 0
        self.log(200)
        answer(self, 200, "ok", sid, f"Received submission {sid} with size {len(body)} bytes")

    def do_GET(self):  # noqa: N802
        mode, endpoint, q = self.split()
        if endpoint != "status":
            return self.fail(404, "no such endpoint")
        if mode == "down" or (mode == "flaky" and self.take("status")):
            return self.fail(503, "Service Unavailable")
        if not self.authorized():
            self.log(401)
            return answer(self, 401, "error", message="InvalidSignature")
        sid = q.get("id", [""])[0]
        if not sid.isalnum():
            self.log(400)
            return answer(self, 400, "error", message="Invalid id")
        with LOCK:
            if sid not in POLLS:
                self.log(404)
                return answer(self, 404, "notfound", sid, "File not found")
            POLLS[sid] += 1
            n = POLLS[sid]
        # the upload is being written, then waits for the ingester, then the ingester has its say
        if n == 1:
            status, msg = "inprogress", "File still in progress"
        elif n == 2 or mode == "stuck":
            status, msg = "ready", "File waiting for processing"
        else:
            if os.path.exists(os.path.join(ARGS.spool, f"submission-{sid}.json")):
                ingest(sid)
            if os.path.exists(os.path.join(ARGS.spool, "archive", f"submission-{sid}.json")):
                status, msg = "processed", "File archived"
            else:
                status, msg = "failed", "File failed to pass validation"
        self.log(200)
        answer(self, 200, status, sid, msg)

    def take(self, what):
        with LOCK:
            if FLAKY[what] > 0:
                FLAKY[what] -= 1
                return True
        return False

    def fail(self, code, text):
        self.log(code)
        answer(self, code, "error", message=text)


def main():
    global ARGS, SCHEMA
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--token", required=True)
    p.add_argument("--schema", required=True)
    p.add_argument("--spool", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--limit", type=int, default=512 * 1024 * 1024, help="body limit in bytes (the daemon's: 512 MiB)")
    ARGS = p.parse_args()
    with open(ARGS.schema) as f:
        SCHEMA = json.load(f)
    for d in ("archive", "failed"):
        os.makedirs(os.path.join(ARGS.spool, d), exist_ok=True)
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
