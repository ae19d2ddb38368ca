"""Reads many documents back with the readers a node uses, in one process.

stdin: a JSON list of {"kind": K, "text": T}; stdout: a JSON list of {"value": V} or {"error": E}, in order.
  yaml    PyYAML's safe_load (cloud-init reads user-data with it); V is the loaded document.
  typed   PyYAML's safe_load_all; V is {"docs": n, "value": first document} with every scalar's type kept: a
          string as "s:" + text, anything else "<type>:<repr>" (map keys too), so a date is not taken for a string.
  schema  cloud-init's own schema validation of a cloud-config (as `cloud-init schema -c`); V is true.
  bash    `bash -n` (syntax only, never run); V is true.
"""
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile

import yaml

NON_STRING_KEY = "\u0000"  # prefix of a map key PyYAML resolved to another type (JSON keys are strings)


def jsonable(v):
    if isinstance(v, dict):
        return {k if isinstance(k, str) else NON_STRING_KEY + str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, list):
        return [jsonable(x) for x in v]
    return v


def typed(v):
    if isinstance(v, dict):
        return {typed(k): typed(x) for k, x in v.items()}
    if isinstance(v, list):
        return [typed(x) for x in v]
    if isinstance(v, str):
        return "s:" + v
    return type(v).__name__ + ":" + repr(v)


schema = None
out = []
for doc in json.load(sys.stdin):
    kind, text = doc["kind"], doc["text"]
    try:
        if kind == "yaml":
            out.append({"value": jsonable(yaml.safe_load(text))})
        elif kind == "typed":
            docs = list(yaml.safe_load_all(text))
            out.append({"value": {"docs": len(docs), "value": typed(docs[0]) if docs else None}})
        elif kind == "schema":
            from cloudinit.config.schema import get_schema, validate_cloudconfig_file
            schema = schema or get_schema()
            with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False, encoding="utf-8", errors="surrogatepass") as f:
                f.write(text)
            try:
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    validate_cloudconfig_file(f.name, schema)
            finally:
                os.unlink(f.name)
            out.append({"value": True})
        elif kind == "bash":
            r = subprocess.run(["bash", "-n"], input=text.encode("utf-8", "surrogatepass"), capture_output=True)
            out.append({"value": True} if r.returncode == 0 else {"error": r.stderr.decode("utf-8", "replace")})
        else:
            raise ValueError(f"unknown kind {kind!r}")
    except Exception as e:  # every reader's refusal is a result here
        out.append({"error": f"{type(e).__name__}: {e}"})
print(json.dumps(out, default=str))
