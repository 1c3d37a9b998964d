"""A minimal Language Server Protocol client for the tests: starts a server
process and speaks JSON-RPC with Content-Length framing over its stdin and
stdout, as editors do. A reader thread collects what the server sends;
requests wait for their response, notifications can be awaited by method and
predicate."""
import json
import queue
import subprocess
import threading
import time


class LspError(Exception):
    pass


class LspClient:
    def __init__(self, argv, cwd=None, env=None):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd, env=env)
        self.next_id = 1
        self.responses = {}  # id -> message
        self.notifications = []  # (time received, message), in order
        self.server_requests = []
        self.cond = threading.Condition()
        self.stderr_lines = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    # --- the wire -------------------------------------------------------
    def _send(self, msg):
        body = json.dumps(msg).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    with self.cond:
                        self.cond.notify_all()
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value.strip())
            if length is None:
                raise LspError("a message without Content-Length")
            msg = json.loads(out.read(length).decode("utf-8"))
            with self.cond:
                if "method" in msg and "id" in msg:
                    self.server_requests.append(msg)
                    # Answer what a client answers (inlay hint refresh).
                    self._send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
                elif "method" in msg:
                    self.notifications.append((time.monotonic(), msg))
                else:
                    self.responses[msg["id"]] = msg
                self.cond.notify_all()

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr_lines.append(line.decode("utf-8", "replace"))

    # --- requests and notifications --------------------------------------
    def send_request(self, method, params):
        """Sends a request and returns its id without waiting."""
        rid = self.next_id
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return rid

    def response(self, rid, timeout=60):
        deadline = time.monotonic() + timeout
        with self.cond:
            while rid not in self.responses:
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise LspError("no response to request %r%s" % (
                        rid, "; stderr:\n" + "".join(self.stderr_lines)))
                self.cond.wait(left)
            return self.responses.pop(rid)

    def request(self, method, params, timeout=60):
        msg = self.response(self.send_request(method, params), timeout)
        if "error" in msg:
            raise LspError("%s failed: %r" % (method, msg["error"]))
        return msg["result"]

    def notify(self, method, params):
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_notification(self, method, pred=lambda p: True, timeout=60, after=0):
        """The first notification `method` received at index >= after whose
        params satisfy pred; returns (index, params, time received)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for i in range(after, len(self.notifications)):
                    t, msg = self.notifications[i]
                    if msg["method"] == method and pred(msg.get("params")):
                        return i, msg.get("params"), t
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise LspError("no %s notification%s" % (
                        method, "; stderr:\n" + "".join(self.stderr_lines)))
                self.cond.wait(left)

    def wait_server_request(self, method, timeout=30):
        """A request the server sent (and the client answered), by method."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for msg in self.server_requests:
                    if msg["method"] == method:
                        return msg
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    return None
                self.cond.wait(left)

    def notifications_of(self, method):
        with self.cond:
            return [m.get("params") for _, m in self.notifications if m["method"] == method]

    def logs(self):
        return [p["message"] for p in self.notifications_of("window/logMessage")]

    def close(self, timeout=30):
        """shutdown + exit; returns the server's exit status."""
        self.request("shutdown", None)
        self.notify("exit", None)
        try:
            return self.proc.wait(timeout)
        finally:
            self.proc.stdin.close()
